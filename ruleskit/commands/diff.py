"""`ruleskit diff BASE VARIANT`: what a variant changes, definition by definition."""

from __future__ import annotations

import argparse
from collections.abc import Callable

NAME = "diff"
HELP = "Show what VARIANT adds, replaces or removes relative to BASE, definition by definition."

_STYLE = {"added": ("+", "green"), "removed": ("-", "red"), "replaced": ("~", "yellow")}


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("base", metavar="BASE", help="the base pack (folder or built-in name)")
    parser.add_argument("variant", metavar="VARIANT", help="the variant pack (folder or built-in name)")
    parser.add_argument("--brief", action="store_true", help="one line per difference, without the definitions")
    parser.add_argument("--json", action="store_true", help="print the differences as a JSON list")
    return run


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.text import Text

    from ..diff import diff_packs
    from ..safetext import clean, markup_safe

    base, variant, differences = diff_packs(args.base, args.variant)
    if args.json:
        import json

        import attrs

        print(json.dumps({"base": base.manifest.name, "variant": variant.manifest.name,
                          "differences": [attrs.asdict(d) for d in differences]}, indent=2))
        return 0
    console = Console(highlight=False, soft_wrap=True)
    count = len(differences)
    console.print(f"[bold]{markup_safe(variant.manifest.name)}[/] against [bold]{markup_safe(base.manifest.name)}[/]: "
                  f"{count} difference{'s' if count != 1 else ''}")
    for difference in differences:
        mark, colour = _STYLE[difference.change]
        line = Text(f"{mark} {difference.change:<9} ", style=colour)
        line.append(clean(difference.key), style="bold")
        if difference.where:
            line.append(f"  ({clean(difference.where)})", style="dim")
        elif difference.base_where:
            line.append(f"  (was {clean(difference.base_where)})", style="dim")
        console.print(line)
        if args.brief:
            continue
        if difference.note:
            _block(console, Text, difference.note, "italic", 4, "# ")
        if difference.before is not None and difference.after is not None:
            where = f" ({difference.base_where})" if difference.base_where else ""
            _block(console, Text, f"before{where}:", "dim", 4)
            _block(console, Text, difference.before, "red", 6)
            _block(console, Text, "after:", "dim", 4)
            _block(console, Text, difference.after, "green", 6)
        else:
            body = difference.after if difference.after is not None else difference.before
            _block(console, Text, body or "", colour, 6)
    return 0


def _block(console: object, text_class: type, body: str, style: str, indent: int, prefix: str = "") -> None:
    """Print `body` indented, each line whole: a definition is never cut at the terminal's width."""
    from ..safetext import clean

    for line in body.splitlines() or [""]:
        console.print(text_class(" " * indent + prefix + clean(line), style=style))  # type: ignore[attr-defined]
