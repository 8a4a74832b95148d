"""The table of built-in functions in docs/LANGUAGE.md, generated from BUILTINS.

Run `python tests/docs/builtins_table.py` to rewrite the table after changing
`ruleskit/lang/builtins.py`; `test_language_examples.py` fails while it is stale.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

from ruleskit.lang.builtins import BUILTINS

LANGUAGE_MD = Path(__file__).resolve().parents[2] / "docs" / "LANGUAGE.md"
START = "<!-- builtins:start -->"
END = "<!-- builtins:end -->"


def signature(name: str) -> str:
    """`name(a, b[, c])`, from the Python function after its (ctx, where) arguments."""
    params = list(inspect.signature(BUILTINS[name].fn).parameters.values())[2:]
    required = [p.name for p in params if p.default is inspect.Parameter.empty]
    optional = [p.name for p in params if p.default is not inspect.Parameter.empty]
    text = ", ".join(required)
    for extra in optional:
        text += f"[, {extra}]" if text else f"[{extra}]"
    return f"{name}({text})"


def render() -> str:
    rows = ["| Function | What it gives |", "|---|---|"]
    for name, spec in BUILTINS.items():
        rows.append(f"| `{signature(name)}` | {spec.doc} |")
    return "\n".join(rows)


def current(text: str) -> str:
    """The table as written between the markers."""
    start, end = text.index(START) + len(START), text.index(END)
    return text[start:end].strip("\n")


def rewrite() -> None:
    text = LANGUAGE_MD.read_text(encoding="utf-8")
    start, end = text.index(START) + len(START), text.index(END)
    LANGUAGE_MD.write_text(text[:start] + "\n" + render() + "\n" + text[end:], encoding="utf-8")


if __name__ == "__main__":
    rewrite()
    sys.exit(0)
