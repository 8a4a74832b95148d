"""`ruleskit compile PACK`: compile a pack to Python code and show or save it."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from .options import path_text

NAME = "compile"
HELP = ("Compile a pack's rule-language programs to Python code and print it (--emit) or write it to a file "
        "(--out); the code is for reading: a load generates its own (and keeps it in the load cache until a "
        "pack file changes).")


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("pack", metavar="PACK", help="pack folder, or the name of a built-in pack")
    parser.add_argument("--emit", action="store_true", help="print the generated code")
    parser.add_argument("--out", metavar="FILE", type=path_text, help="write the generated code to FILE")
    return run


def run(args: argparse.Namespace) -> int:
    from ..game import load
    from ..outputs import check_output_file

    if args.out:
        from ..packs import pack_folders

        check_output_file(args.out, "--out", pack_folders(args.pack))
    game = load(args.pack, backend="compiled")
    code = game.code
    if args.out:
        Path(args.out).write_text(code, encoding="utf-8")
    if args.emit:
        print(code, end="")
    if not args.emit:
        functions = code.count("\ndef ")
        where = f", written to {args.out}" if args.out else "; --emit prints it"
        print(f"{game.name} {game.version}: {functions} generated functions, {len(code.splitlines())} lines{where}")
    return 0
