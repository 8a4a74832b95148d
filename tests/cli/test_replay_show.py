"""`ruleskit replay LOG --show` steps through a game forwards and backwards; `--json` reports the outcome."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_support import PACKS, SHOWN

import ruleskit
from ruleskit.cli import main
from ruleskit.log import write_log
from ruleskit.replayview import replay_states


@pytest.fixture()
def log(tmp_path: Path) -> Path:
    game = ruleskit.load(SHOWN)
    state = game.new_game(players=2, seed=2)
    for action_id in ["roll", "step:a", "step:c", "stop", "roll"]:
        if state.is_terminal:
            break
        ids = [a.id for a in state.legal_actions()]
        state.apply(action_id if action_id in ids else ids[0])
    path = tmp_path / "game.jsonl"
    write_log(state, path)
    return path


def test_states_are_those_of_the_game(log: Path) -> None:
    states, labels = replay_states(log, pack=SHOWN)
    assert len(states) == len(labels) == 6
    assert [len(s.history) for s in states] == [1, 2, 3, 4, 5, 6]
    assert labels[1] == "Roll the die" and labels[2].startswith("Step to")
    assert states[-1].to_json() == ruleskit.log.replay(log, SHOWN).to_json()


def test_show_moves_forwards_backwards_and_changes_seat(log: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    prompts = script(["n", "", "p", "g 5", "n", "seat 2", "first", "p", "nonsense", "q"])
    assert main(["replay", str(log), str(SHOWN), "--show", "--quiet"]) == 0
    out = capsys.readouterr().out
    steps = [int(s) for s in re.findall(r"step (\d+)/5", out)]
    assert steps == [0, 1, 2, 1, 5, 5, 0]         # "n" at the end and "p" at the start move nowhere
    assert "This is the last step." in out and "This is the first step." in out
    assert "Red (P1): Roll the die" in out and "⚄ Red (P1) rolls d6:" in out
    assert "The race begins" in out               # the setup's message at step 0
    assert "g N: go to step N" in out             # help after an unknown command
    assert prompts[0].startswith("[0/5]")
    after_seat = out.split("step 5/5")[2]
    assert "▶ Blue (P2)" in after_seat


def test_replay_json(log: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", str(log), str(SHOWN), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["decisions"] == 5 and report["players"] == 2


def test_replay_json_reports_a_failure_as_json(log: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    # A log cut off part way through its last line, then one whose recorded result was changed.
    text = log.read_text()
    truncated = log.with_name("truncated.jsonl")
    truncated.write_text(text[:-10])
    assert main(["replay", str(truncated), str(SHOWN), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["log"] == str(truncated)
    assert report["error"]["kind"] == "PackError" and report["error"]["file"] == str(truncated)
    assert report["error"]["line"] == len(text.splitlines()) and "not JSON" in report["error"]["message"]
    lines = [json.loads(line) for line in text.splitlines()]
    lines[2]["action"] = "step:a"          # before the die is rolled
    changed = log.with_name("changed.jsonl")
    changed.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["replay", str(changed), str(SHOWN), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["error"]["kind"] == "ReplayMismatch"
    assert "step:a" in report["error"]["message"] and report["error"]["line"] == 3


def test_a_log_of_another_pack_names_both_packs(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = str(PACKS / "dice_race")
    assert main(["replay", str(log), other]) == 1
    err = capsys.readouterr().err
    shown, named = ruleskit.load(SHOWN).name, ruleskit.load(other).name
    assert f"this log was written with pack '{shown}', not '{named}'" in err and "has changed" not in err


def piped(path: Path) -> str:
    """A path that reads `path`'s bytes once, as `<(zcat game.jsonl.gz)` gives: a pipe whose writer is done."""
    import os

    read_end, write_end = os.pipe()
    os.write(write_end, path.read_bytes())  # a small log fits in the pipe's buffer
    os.close(write_end)
    return f"/dev/fd/{read_end}"


def test_a_log_read_from_a_pipe_is_shown(log: Path) -> None:
    # The header was read a second time, once the pipe was empty: "a log must start with a header line".
    states, labels = replay_states(piped(log), pack=SHOWN)
    assert len(states) == len(labels) == 6
    assert states[-1].to_json() == ruleskit.log.replay(log, SHOWN).to_json()
