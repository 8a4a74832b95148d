"""Argument types the subcommands share: a path, a list or a name given empty is refused by the parser, and a
number of games outside 1 to `MAX_GAMES` or of decisions outside 1 to `MAX_DECISIONS`.

An option given as "" would otherwise read as not given at all (the default: no file written, the default
seats, the default pack name) or as the working folder (`Path("")` is `.`), so the command would quietly do
something other than what was asked.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..digits import plain_digits
from ..limits import MAX_DECISIONS, MAX_GAMES

GAMES_RANGE = f"1 to {MAX_GAMES:,}"
"""The range of `--games`, as its help and its error say it."""

DECISIONS_RANGE = f"1 to {MAX_DECISIONS:,}"
"""The range of `--max-decisions`, as its help and its error say it."""


def path_text(text: str) -> str:
    """A file or folder named by an option; an empty one is refused."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path")
    return text


def path_value(text: str) -> Path:
    """`path_text` as a `Path`."""
    return Path(path_text(text))


def list_text(text: str) -> str:
    """A comma-separated list (of bots, of seats); one of nothing but spaces is refused."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty list")
    return text


def name_text(text: str) -> str:
    """A name (of a pack, a template, a host); one of nothing but spaces is refused."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name")
    return text


def games_count(text: str) -> int:
    """A number of games (`--games`): a whole number from 1 to `MAX_GAMES`. Past it the games' records would
    fill the memory hours into the run; 0 or fewer played nothing."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number from {GAMES_RANGE}, not '{text}'") from None
    if not 1 <= value <= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"expected a number of games from {GAMES_RANGE}, not {value}")
    return value


def decision_count(text: str) -> int:
    """A decision limit (`--max-decisions`): a whole number of ASCII digits from 1 to `MAX_DECISIONS`. A sign,
    a fraction, spaces or other digits (full-width ones, which `int()` reads) are refused, not guessed at."""
    if not plain_digits(text) or not 1 <= int(text) <= MAX_DECISIONS:
        raise argparse.ArgumentTypeError(f"expected a whole number of decisions from {DECISIONS_RANGE}, "
                                         f"not '{text}'")
    return int(text)


def add_decision_limit(parser: argparse.ArgumentParser) -> None:
    """`--max-decisions N`, of every command that plays bot games in bulk (simulate, compare, tournament)."""
    parser.add_argument("--max-decisions", type=decision_count, default=MAX_DECISIONS, metavar="N",
                        help=f"stop a game still running after N decisions, {DECISIONS_RANGE} (default "
                             f"{MAX_DECISIONS:,}): it ends without a winner, under the reason 'decision limit'")
