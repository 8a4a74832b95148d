"""`ruleskit replay LOG`: re-run a game log and verify every step."""

from __future__ import annotations

import argparse
from collections.abc import Callable

NAME = "replay"
HELP = "Re-run a JSON Lines game log and fail loudly on any mismatch."


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("log", metavar="LOG", help="a .jsonl game log written by play, simulate or the API")
    parser.add_argument("pack", metavar="PACK", nargs="?",
                        help="the pack folder the log was written with (not needed for a built-in pack: "
                             "a log never chooses a folder to load)")
    return run


def run(args: argparse.Namespace) -> int:
    from ..log import replay

    state = replay(args.log, args.pack)
    decisions = sum(1 for entry in state.history if not entry.get("setup"))
    result = state.result
    ending = f"ended: {result['reason']}, winners {[w + 1 for w in result['winners']]}" if result else "unfinished"
    print(f"{args.log}: replay ok ({state.game.name}, {state.players} players, seed {state.data['seed']}, "
          f"{decisions} decisions, {ending})")
    return 0
