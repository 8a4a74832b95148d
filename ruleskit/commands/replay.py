"""`ruleskit replay LOG`: re-run a game log and verify every step; `--show` steps through it."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from .options import name_text, path_text

NAME = "replay"
HELP = "Re-run a JSON Lines game log and fail loudly on any mismatch; --show steps through the game."


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("log", metavar="LOG", type=path_text, help="a .jsonl game log written by play, simulate or the API")
    parser.add_argument("--show", action="store_true",
                        help="step through the game forwards and backwards (n, p, g N, seat N, q)")
    parser.add_argument("--layout", choices=["compact", "full"], default="compact",
                        help="how --show draws the table (default compact, which fits 80x24)")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON instead of a sentence")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    parser.add_argument("pack", metavar="PACK", nargs="?", type=name_text,
                        help="the pack folder the log was written with (not needed for a built-in pack: "
                             "a log never chooses a folder to load)")
    return run


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..errors import RulesError
    from ..log import replay
    from .check import error_json

    if args.show:
        return _show(args)
    status = Console(stderr=True).status("replaying " + str(args.log)) if not (args.quiet or args.json) else None
    if status is not None:
        with status:
            state = replay(args.log, args.pack)
    else:
        try:
            state = replay(args.log, args.pack)
        except RulesError as exc:
            if not args.json:
                raise
            # As `check --json` reports an error: a reader of the JSON gets JSON either way.
            print(json.dumps({"log": str(args.log), "ok": False, "error": error_json(exc)}))
            return 1
    decisions = sum(1 for entry in state.history if not entry.get("setup"))
    result = state.result
    if args.json:
        print(json.dumps({"log": str(args.log), "ok": True, "pack": state.game.name, "players": state.players,
                          "seed": state.raw["seed"], "decisions": decisions, "result": result}))
        return 0
    ending = f"ended: {result['reason']}, winners {[w + 1 for w in result['winners']]}" if result else "unfinished"
    from ..safetext import clean

    print(clean(f"{args.log}: replay ok ({state.game.name}, {state.players} players, seed {state.raw['seed']}, "
                f"{decisions} decisions, {ending})"))
    return 0


def _show(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from ..replayview import ReplayViewer, replay_states

    progress = Progress(TextColumn("replaying"), BarColumn(), MofNCompleteColumn(),
                        console=Console(stderr=True), disable=args.quiet, transient=True)
    with progress:
        task = progress.add_task("decisions", total=None)
        states, labels = replay_states(args.log, lambda done, total: progress.update(task, completed=done,
                                                                                   total=total), args.pack)
    viewer = ReplayViewer(states, labels, Console(highlight=False), compact=args.layout == "compact")
    return viewer.run()
