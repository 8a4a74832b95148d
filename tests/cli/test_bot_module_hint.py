"""A bot module that cannot be imported: the message says what to do, the common case first (a file in the
working folder, which the `ruleskit` command does not search)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleskit.cli import main

BOT = """\
class FirstBot:
    name = "first"

    def __init__(self, game, seed):
        pass

    def choose(self, state, player):
        return state.legal_actions(player)[0]
"""


def _simulate(spec: str) -> int:
    return main(["simulate", "connect_four", "--bots", f"{spec},random", "--games", "1", "--workers", "1", "--quiet"])


def test_a_module_in_the_working_folder_needs_pythonpath(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "hint_bots_here.py").write_text(BOT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert _simulate("hint_bots_here:FirstBot") == 1
    err = capsys.readouterr().err
    assert "cannot import bot module 'hint_bots_here'" in err
    assert "it is in the working folder, where the ruleskit command does not look for modules" in err
    assert "PYTHONPATH=. ruleskit" in err
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _simulate("hint_bots_here:FirstBot") == 0


def test_a_module_found_nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert _simulate("hint_bots_nowhere:FirstBot") == 1
    assert "put its folder on PYTHONPATH, or install it" in capsys.readouterr().err
