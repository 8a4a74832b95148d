"""`ruleskit new NAME`: start a pack from a template."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .options import name_text

NAME = "new"
HELP = "Create a small working pack in a new folder NAME, ready to check, test, play and edit."


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from ..newpack import DEFAULT_TEMPLATE, templates

    parser.add_argument("folder", metavar="NAME", help="the folder to create; its name is the pack's name")
    parser.add_argument("--template", "-t", type=name_text, default=DEFAULT_TEMPLATE,
                        help=f"the starting game: {', '.join(templates()) or 'none installed'} "
                             f"(default {DEFAULT_TEMPLATE})")
    parser.add_argument("--name", type=name_text, default=None, help="the pack's name (default: from the folder's name)")
    return run


def run(args: argparse.Namespace) -> int:
    from ..newpack import create_pack
    from ..safetext import shell_word

    folder = create_pack(args.folder, args.template, args.name)
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    print(f"Created {folder} from the '{args.template}' template:")
    for name in files:
        print(f"  {name}")
    print("Next:")
    shown, tests = shell_word(folder), shell_word(folder / "tests")  # commands to copy into a shell
    for line in (f"ruleskit check {shown}", f"ruleskit test {shown} --games 20",
                 f"ruleskit play {shown}", f"python -m pytest {tests}"):
        print(f"  {line}")
    return 0
