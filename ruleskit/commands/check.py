"""`ruleskit check PACK`: load, check and compile a pack."""

from __future__ import annotations

import argparse
from collections.abc import Callable

NAME = "check"
HELP = "Check a pack (or variant): exit 0 with a one-line summary if clean, else located errors."


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("pack", metavar="PACK", help="pack folder, or the name of a built-in pack")
    return run


def run(args: argparse.Namespace) -> int:
    from ..game import load
    from ..safetext import clean

    game = load(args.pack)
    print(clean(game.summary()))
    return 0
