"""Runs docs/TUTORIAL.md: its file blocks are written, its commands run, their outputs compared or rewritten.

A block opening with ```` ```toml file=PATH ```` (or `rk`) writes PATH, relative to the
tutorial's working folder, with the block's text. A ```` ```console ```` block holds
commands, each on a line starting with `$ `, followed by its output. Timings and speeds
vary from run to run and machine to machine, so they are masked before comparing.

    python tests/docs/tutorial_runner.py      # rewrite the outputs in docs/TUTORIAL.md
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "TUTORIAL.md"
_FENCE = re.compile(r"```(\w+)(?:\s+file=(\S+))?\s*$")
_MASKS = [
    (re.compile(r"\b\d+\.\d+s\b"), "N.Ns"),
    (re.compile(r"(games/s|decisions/s)(\s*│\s*)[\d.]+"), r"\1\2N"),
    (re.compile(r"on \d+\s+worker\(s\)"), "on N worker(s)"),
]
_BORDERS = re.compile(r"[\u2500-\u257f]+")


@attrs.define
class Block:
    kind: str  # "file" or "console"
    start: int  # index of the first line inside the fence
    end: int  # index of the closing fence
    path: str = ""
    lines: list[str] = attrs.Factory(list)


def blocks(lines: list[str]) -> list[Block]:
    found = []
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if fence is None:
            i += 1
            continue
        end = i + 1
        while lines[end] != "```":
            end += 1
        language, path = fence.group(1), fence.group(2)
        if path:
            found.append(Block("file", i + 1, end, path, lines[i + 1:end]))
        elif language == "console":
            found.append(Block("console", i + 1, end, "", lines[i + 1:end]))
        i = end + 1
    return found


def commands(block: Block) -> list[tuple[str, list[str]]]:
    """(command, recorded output lines) of a console block."""
    result: list[tuple[str, list[str]]] = []
    for line in block.lines:
        if line.startswith("$ "):
            result.append((line[2:], []))
        elif result:
            result[-1][1].append(line)
    return result


def mask(text: str) -> str:
    """Text with timings masked, for comparing: table borders and line breaks (which move with the
    width of a timing) are dropped, runs of spaces made one."""
    for pattern, replacement in _MASKS:
        text = pattern.sub(replacement, text)
    text = _BORDERS.sub(" ", text)
    return " ".join(text.split())


@contextlib.contextmanager
def working_folder(folder: Path) -> Iterator[None]:
    previous = Path.cwd()
    saved = {key: os.environ.get(key) for key in ("COLUMNS", "LINES", "NO_COLOR", "TERM")}
    os.chdir(folder)
    os.environ.update({"COLUMNS": "80", "LINES": "24", "NO_COLOR": "1", "TERM": "dumb"})
    try:
        yield
    finally:
        os.chdir(previous)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def run_command(command: str) -> str:
    """Run one `ruleskit ...` command in this process; its exit code (if not 0) and output."""
    from ruleskit.cli import main

    words = shlex.split(command)
    assert words[0] == "ruleskit", f"the tutorial runs only ruleskit commands, not {command!r}"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(words[1:])
        except SystemExit as exc:
            code = int(exc.code or 0)
    text = out.getvalue() + err.getvalue()
    return text.rstrip("\n") + (f"\n[exit status {code}]" if code else "")


def run(lines: list[str], folder: Path) -> list[tuple[Block, list[tuple[str, str, str]]]]:
    """Play the tutorial in `folder`: for each console block, (command, recorded, produced) of its commands."""
    results = []
    with working_folder(folder):
        for block in blocks(lines):
            if block.kind == "file":
                target = folder / block.path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text("\n".join(block.lines) + "\n", encoding="utf-8")
                continue
            outcomes = [(command, "\n".join(recorded), run_command(command)) for command, recorded in commands(block)]
            results.append((block, outcomes))
    return results


def rewrite() -> None:
    lines = TUTORIAL.read_text(encoding="utf-8").splitlines()
    with tempfile.TemporaryDirectory() as scratch:
        results = run(lines, Path(scratch))
    for block, outcomes in reversed(results):
        body = []
        for command, _, produced in outcomes:
            body.append(f"$ {command}")
            body.extend(produced.splitlines())
        lines[block.start:block.end] = body
    TUTORIAL.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    rewrite()
