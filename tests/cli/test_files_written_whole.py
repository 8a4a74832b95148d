"""A save or a log that fails to be written leaves the file that was there as it was, and no stray file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_support import PACKS

import ruleskit
from ruleskit.digits import plain_digits
from ruleskit.log import write_log
from ruleskit.play import save_game


def _failing_fsync(fd: int) -> None:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("write", ["save", "log"])
def test_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: str) -> None:
    state = ruleskit.load(PACKS / "dice_race").new_game(players=2, seed=1)
    target = tmp_path / "game.json"
    target.write_text("the old file", encoding="utf-8")
    monkeypatch.setattr(os, "fsync", _failing_fsync)  # as a full disk fails a write part way
    with pytest.raises(OSError):
        if write == "save":
            save_game(state, ["human", "random"], target)
        else:
            write_log(state, target)
    assert target.read_text(encoding="utf-8") == "the old file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    monkeypatch.undo()
    if write == "save":
        save_game(state, ["human", "random"], target)
    else:
        write_log(state, target)
    assert target.read_text(encoding="utf-8") != "the old file"


def test_plain_digits_are_what_int_reads_at_once() -> None:
    assert plain_digits("0") and plain_digits("42") and plain_digits("9" * 18)
    for text in ["", "-1", "1.0", " 1", "\u00b2", "\u0663", "9" * 19, "1e3"]:  # '²' and '٣' pass str.isdigit
        assert not plain_digits(text), text


def test_a_game_saved_in_its_setup_loads_and_a_forged_setup_choice_does_not(tmp_path: Path) -> None:
    from ruleskit.errors import PackError
    from ruleskit.saves import load_saved

    game = ruleskit.load("ophir")
    state = game.new_game(players=2, seed=1)
    assert state.pending is not None and state.pending["job"] == {"kind": "setup"}  # its first barrier
    state.apply(state.legal_actions()[0])  # one answer given: the setup goes on from it when re-run
    path = tmp_path / "save.json"
    save_game(state, ["human", "random"], path)
    _, loaded, _ = load_saved(path)
    assert loaded.dumps() == state.dumps()
    assert [a.id for a in loaded.legal_actions()] == [a.id for a in state.legal_actions()]
    text = path.read_text(encoding="utf-8")
    first = state.pending["options"][0][0]
    path.write_text(text.replace(f'["{first}",', '["steal",', 1), encoding="utf-8")
    with pytest.raises(PackError, match="does not stop at this decision"):
        load_saved(path)
