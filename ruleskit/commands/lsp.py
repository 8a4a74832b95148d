"""`ruleskit lsp`: the language server for editors, on standard input and output."""

from __future__ import annotations

import argparse
from collections.abc import Callable

NAME = "lsp"
HELP = ("Run the language server for .rk files and pack TOML over stdio (diagnostics, definitions, references, "
        "hover, completion); needs the 'lsp' extra: pip install 'ruleskit[lsp]'.")


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default and only way)")
    return run


def run(args: argparse.Namespace) -> int:
    from ..errors import PackError

    try:
        from ..langserver import serve
    except ImportError:
        raise PackError("the language server needs pygls: pip install 'ruleskit[lsp]'") from None
    serve()
    return 0
