"""A character that would not show is shown as its code on the page as in the terminal, so two names that differ
only by one (a zero-width space, a bidirectional control) never look the same."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from ruleskit.safetext import clean

APP = Path(__file__).resolve().parents[2] / "ruleskit" / "web" / "static" / "app.js"
TEXTS = [
    "Alice", "Al\u200bice", "x\u202ey", "\ufeffBob\u2060", "a\u2028b\u2029c", "soft\u00adhyphen", "\u200e\u200f\u061c",
    "fill\u3164er", "a\u200db", "\u200d", "\U0001f468\u200d\U0001f469", "\U0001f3f3\ufe0f\u200d\U0001f308",
    "\U0001f44d\U0001f3fd\u200d\U0001f525", "\u2066iso\u2069", "tag\U000e0041", "\u26f5 ship", "caf\u00e9",
    "\x07Alice", "\x1b[31mRed\x1b[0m", "NUL\x00", "del\x7f\x9b", "two\nlines\r", "tab\there",
]


def test_the_page_shows_each_text_as_the_terminal_does() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs node to run the page's script")
    script = APP.read_text(encoding="utf-8")
    start, end = script.index("const MARKED"), script.index("// end of shown")
    program = script[start:end] + f"process.stdout.write(JSON.stringify({json.dumps(TEXTS)}.map(shown)));"
    done = subprocess.run([node, "-e", program], capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(done.stdout) == [clean(text) for text in TEXTS]


def test_names_that_differ_by_an_invisible_character_are_shown_apart() -> None:
    shown = [clean(text) for text in TEXTS]
    assert len(set(shown)) == len(TEXTS)
    assert clean("Al\u200bice") == "Al<U+200B>ice"
