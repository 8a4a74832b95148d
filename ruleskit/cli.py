"""The `ruleskit` command line: one subcommand per module in `ruleskit.commands`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .errors import RulesError


def build_parser() -> argparse.ArgumentParser:
    from .commands import COMMANDS

    parser = argparse.ArgumentParser(
        prog="ruleskit",
        description="Load, check, play, simulate and test board-game rule packs.",
    )
    parser.add_argument("--version", action="version", version=f"ruleskit {_version()}")
    parser.add_argument("--no-cache", action="store_true",
                        help="neither read nor write the load cache (the same as RULESKIT_NO_CACHE=1)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        # argparse %-formats help strings: a literal % (as in "95%") must be doubled.
        sub_parser = sub.add_parser(module.NAME, help=module.HELP.replace("%", "%%"), description=module.HELP)
        sub_parser.set_defaults(handler=module.configure(sub_parser))
    return parser


def _version() -> str:
    from . import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    if args.no_cache:
        os.environ["RULESKIT_NO_CACHE"] = "1"  # for worker processes too
    try:
        return int(args.handler(args) or 0)
    except RulesError as exc:
        from .safetext import clean

        print(clean(str(exc), newlines=True), file=sys.stderr)
        return 1
    except OSError as exc:  # a file or folder named on the command line that cannot be read or written
        from .safetext import clean

        where = f"{exc.filename}: " if exc.filename else ""
        print(clean(f"error: {where}{exc.strerror or exc}", newlines=True), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
