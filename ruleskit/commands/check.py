"""`ruleskit check PACK`: load, check and compile a pack."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..errors import RulesError
    from ..game import Game

NAME = "check"
HELP = "Check a pack (or variant): exit 0 with a one-line summary if clean, else located errors."


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("pack", metavar="PACK", help="pack folder, or the name of a built-in pack")
    parser.add_argument("--json", action="store_true",
                        help="print the outcome as JSON: the pack's counts, or the error with its file and line")
    return run


def run(args: argparse.Namespace) -> int:
    from ..errors import RulesError
    from ..game import load
    from ..safetext import clean

    if not args.json:
        game = load(args.pack)
        check_display(game)
        print(clean(game.summary()))
        return 0
    try:
        game = load(args.pack)
        check_display(game)
    except RulesError as exc:
        print(json.dumps({"ok": False, "error": error_json(exc)}))
        return 1
    print(json.dumps({"ok": True, "pack": game.name, "version": game.version,
                      "players": [game.min_players, game.max_players], "summary": game.summary()}))
    return 0


def check_display(game: Game) -> None:
    """The `[display]` hints checked as `play` reads them (an error is located at the key it is about)."""
    from ..display import DisplayHints

    DisplayHints.of(game)


def error_json(exc: RulesError) -> dict[str, object]:
    return {"message": exc.message, "file": exc.file, "line": exc.line, "column": exc.column, "hint": exc.hint,
            "kind": type(exc).__name__}
