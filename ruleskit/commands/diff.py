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
    return run


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    from ..diff import diff_packs

    base, variant, differences = diff_packs(args.base, args.variant)
    console = Console(highlight=False, soft_wrap=True)
    count = len(differences)
    console.print(f"[bold]{variant.manifest.name}[/] against [bold]{base.manifest.name}[/]: "
                  f"{count} difference{'s' if count != 1 else ''}")
    for difference in differences:
        mark, colour = _STYLE[difference.change]
        line = Text(f"{mark} {difference.change:<9} ", style=colour)
        line.append(difference.key, style="bold")
        if difference.where:
            line.append(f"  ({difference.where})", style="dim")
        console.print(line)
        if args.brief:
            continue
        if difference.before is not None and difference.after is not None:
            console.print(Padding(Text("before:", style="dim"), (0, 0, 0, 4)))
            console.print(Padding(Text(difference.before, style="red"), (0, 0, 0, 6)))
            console.print(Padding(Text("after:", style="dim"), (0, 0, 0, 4)))
            console.print(Padding(Text(difference.after, style="green"), (0, 0, 0, 6)))
        else:
            body = difference.after if difference.after is not None else difference.before
            console.print(Padding(Text(body or "", style=colour), (0, 0, 0, 6)))
    return 0
