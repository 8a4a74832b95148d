"""`play --load SAVE --log LOG`: a log is written only of a save whose history leads to its game, so that the
log replays."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import SHOWN

from ruleskit.cli import main


def _save(tmp_path: Path, script, capsys) -> Path:  # type: ignore[no-untyped-def]
    saved = tmp_path / "game.json"
    script(["1", f"save {saved}", "quit"])
    assert main(["play", SHOWN, "--seats", "human,random", "--seed", "3"]) == 0
    capsys.readouterr()
    return saved


def test_a_saved_game_played_on_writes_a_log_that_replays(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    saved = _save(tmp_path, script, capsys)
    log = tmp_path / "game.jsonl"
    script([])
    assert main(["play", SHOWN, "--load", str(saved), "--seats", "random,random", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), SHOWN]) == 0


def test_a_save_whose_history_was_edited_writes_no_log(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    saved = _save(tmp_path, script, capsys)
    content = json.loads(saved.read_text(encoding="utf-8"))
    del content["state"]["history"][1:]  # the decisions cut: the game they held no longer follows from them
    saved.write_text(json.dumps(content), encoding="utf-8")
    log = tmp_path / "game.jsonl"
    script([])
    code = main(["play", SHOWN, "--load", str(saved), "--seats", "random,random", "--log", str(log)])
    out = capsys.readouterr()
    assert code != 0 and not log.exists()
    assert "do not lead to the game it holds" in out.out + out.err
