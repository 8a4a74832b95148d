"""Argument types the subcommands share: a path, a list or a name given empty is refused by the parser, and a
number of games outside 1 to `MAX_GAMES`.

An option given as "" would otherwise read as not given at all (the default: no file written, the default
seats, the default pack name) or as the working folder (`Path("")` is `.`), so the command would quietly do
something other than what was asked.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..limits import MAX_GAMES

GAMES_RANGE = f"1 to {MAX_GAMES:,}"
"""The range of `--games`, as its help and its error say it."""


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
