"""`ruleskit schema`: JSON Schemas of pack files, for editors that validate and complete TOML."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from .options import path_text

NAME = "schema"
HELP = ("Write JSON Schemas for pack.toml and the other pack TOML files (for taplo / Even Better TOML), "
        "or print the one named by --print.")


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("--out", metavar="DIR", type=path_text, default=None,
                        help="folder to write pack.schema.json and pack-file.schema.json into")
    parser.add_argument("--print", dest="which", choices=["pack", "file"], default=None,
                        help="print one schema to standard output instead")
    return run


def run(args: argparse.Namespace) -> int:
    from ..packschema import SCHEMA_FILES, schemas, write_schemas

    if args.which or not args.out:
        name = SCHEMA_FILES[args.which or "pack"]
        if not args.which:
            print("# pass --out DIR to write both schemas; pack.toml's schema follows", flush=True)
        print(json.dumps(schemas()[name], indent=2, ensure_ascii=False))
        return 0
    from ..outputs import check_output_folder

    check_output_folder(args.out, "--out")
    for path in write_schemas(args.out):
        print(f"wrote {path}")
    return 0
