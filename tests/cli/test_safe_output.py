"""Pack text reaches the terminal as plain text: no markup is read, no escape sequence or control character passes."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest
from cli_support import PACKS
from rich.console import Console

import ruleskit
from ruleskit.cli import main
from ruleskit.play import PlaySession
from ruleskit.safetext import clean

HOSTILE = str(PACKS / "hostile_text")
# What the pack tries to send: screen clears, cursor moves, blinking, the alternate screen, window titles,
# hyperlinks (OSC 8), an 8-bit CSI, a right-to-left override and a carriage return that fakes a prompt.
FORBIDDEN = ["\x1b[2J", "\x1b[A", "\x1b[5m", "\x1b[?1049h", "\x1b]", "\x07", "\x9b", "\u202e", "\r"]


@pytest.mark.parametrize("text, shown", [
    ("plain", "plain"),
    # An escape sequence is shown as written, its escape as a code: removed, `\x1b[31mRed` looked like `Red`.
    ("\x1b[31mred\x1b[0m", "<U+001B>[31mred<U+001B>[0m"),
    ("a\x1b]8;;http://x\x07link\x1b]8;;\x07b", "a<U+001B>]8;;http://x<U+0007>link<U+001B>]8;;<U+0007>b"),
    ("title\x1b]0;pwned\x1b\\", "title<U+001B>]0;pwned<U+001B>\\"),
    ("\x9b31mC1", "<U+009B>31mC1"),
    ("\x07Alice\x00", "<U+0007>Alice<U+0000>"),  # a bell and a NUL: removed, the name looked like "Alice"
    ("del\x7f", "del<U+007F>"),
    ("x\u202ey", "x<U+202E>y"),        # a bidirectional control is shown as its code, never obeyed
    ("Al\u200bice", "Al<U+200B>ice"),   # a zero-width space: removed, the name looked the same as "Alice"
    ("\ufeffBob\u2060", "<U+FEFF>Bob<U+2060>"),
    ("a\u2028b", "a<U+2028>b"),
    ("a\u200db", "a<U+200D>b"),
    ("\U0001f468\u200d\U0001f469", "\U0001f468\u200d\U0001f469"),  # a joiner inside an emoji shows as that emoji
    ("\U0001f3f3\ufe0f\u200d\U0001f308", "\U0001f3f3\ufe0f\u200d\U0001f308"),
    ("tab\there", "tab here"),
    ("two\nlines\r", "two lines<U+000D>"),  # a carriage return would write over the start of the line
    ("[/bold]Goal", "[/bold]Goal"),     # markup is not removed: it is shown as written
    ("Ophir ⛵ ☠", "Ophir ⛵ ☠"),
])
def test_clean(text: str, shown: str) -> None:
    assert clean(text) == shown


def test_clean_keeps_newlines_when_asked() -> None:
    assert clean("a\nb\x1b[2J", newlines=True) == "a\nb<U+001B>[2J"


@pytest.mark.parametrize("layout", ["compact", "full"])
def test_hostile_pack_plays_and_shows_its_text_literally(layout: str, script, capsys) -> None:  # type: ignore[no-untyped-def]
    script(["1", "3", "1", "2", "3"] * 10)
    code = main(["play", HOSTILE, "--seats", "human,random", "--seed", "0", "--layout", layout])
    out = capsys.readouterr()
    text = out.out + out.err
    assert code == 0 and "Traceback" not in text
    for sequence in FORBIDDEN:
        assert sequence not in text, repr(sequence)
    for literal in ("[/bold]Hostile", "[/oops]", "[/bold]Start", "Roll [bold]Player 1[/bold]", "[red]Red<U+001B>[A (P1)",
                    "Goal<U+001B>]8;;http://evil.example<U+0007>click", "[/]Go<U+202E>evil",
                    "Blue<U+000D> fake prompt>"):
        assert literal in text, literal


def test_hostile_pack_on_a_colour_terminal_sends_only_rich_styles() -> None:
    game = ruleskit.load(HOSTILE)
    state = game.new_game(players=2, seed=3)
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="truecolor", width=80, height=24)
    answers = itertools.cycle(["1", "3", "2"])
    session = PlaySession(game, state, ["human", "random"], console, ask=lambda prompt: next(answers))
    assert session.run() == 0 and session.state.is_terminal
    text = buffer.getvalue()
    assert "\x1b[" in text                      # rich's own colours are there
    for sequence in FORBIDDEN:
        assert sequence not in text, repr(sequence)
    assert "[/oops]" in text


def test_the_game_end_reason_is_shown_literally(script, capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code = main(["play", HOSTILE, "--seats", "random,random", "--seed", "0", "--log", str(tmp_path / "log.jsonl")])
    text = capsys.readouterr().out
    assert code == 0 and "[/x]won" in text and "\x1b[?1049h" not in text


def test_error_messages_quoting_pack_text_are_cleaned(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "pack.toml").write_text('name = "x"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                        '"\\u001b]0;pwned\\u0007\\u001b[2Jbad" = 1\n')
    assert main(["check", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "unknown key" in err and "bad" in err
    for sequence in FORBIDDEN:
        assert sequence not in err, repr(sequence)


def test_simulate_and_diff_show_pack_names_literally(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", HOSTILE, "--games", "3", "--players", "2", "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "hostile 1" in out and "[/x]won" in out and "\x1b" not in out


def test_check_reports_display_mistakes_at_their_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`check` reads `[display]` as `play` does, so a mistake there is found before anyone plays."""
    import shutil

    from ruleskit.cli import main

    packs = Path(__file__).resolve().parents[1] / "packs"
    shutil.copytree(packs / "dice_race", tmp_path / "dice_race")
    shutil.copytree(packs / "dice_race_shown", tmp_path / "shown")
    hints = tmp_path / "shown" / "shown.toml"
    text = hints.read_text(encoding="utf-8")
    hints.write_text(text.replace("steps = \"Steps left\"", "stepz = \"Steps left\""), encoding="utf-8")
    assert main(["check", str(tmp_path / "shown")]) == 1
    error = capsys.readouterr().err
    line = next(n for n, raw in enumerate(text.splitlines(), start=1) if raw.startswith("labels"))
    assert f"shown.toml:{line}: error:" in error and "labels names unknown 'stepz'" in error
    assert "did you mean 'steps'" in error
