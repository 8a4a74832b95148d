"""Game logs, replay (API and CLI, including tampered logs), determinism across processes with
different hash seeds, and `ruleskit check`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from engine_support import PACKS, TINY_GAME, play_random, write_pack

import ruleskit
from ruleskit.cli import main
from ruleskit.errors import PackError, ReplayMismatch
from ruleskit.log import read_log, replay, write_log

PLAY_SCRIPT = """
import random, sys
import ruleskit
from ruleskit.log import write_log
game = ruleskit.load(sys.argv[1])
state = game.new_game(players=int(sys.argv[2]), seed=int(sys.argv[3]))
chooser = random.Random(int(sys.argv[3]))
while not state.is_terminal:
    state.apply(chooser.choice(state.legal_actions()))
write_log(state, sys.argv[4])
print(state.dumps())
"""


def run_in_process(args: list[str], hash_seed: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=120, check=False)


@pytest.mark.parametrize("pack", ["card_duel", "dice_race_marathon"])
def test_same_game_in_processes_with_different_hash_seeds(tmp_path: Path, pack: str) -> None:
    outputs = []
    for hash_seed in ("1", "2"):
        log = tmp_path / f"{pack}-{hash_seed}.jsonl"
        done = run_in_process(["-c", PLAY_SCRIPT, str(PACKS / pack), "3", "17", str(log)], hash_seed)
        assert done.returncode == 0, done.stderr
        outputs.append((log.read_text(), done.stdout))
    assert outputs[0] == outputs[1]
    assert outputs[0][0].count("\n") > 10  # a real game was logged


def test_log_has_header_decisions_chance_and_result(tmp_path: Path, card_duel: ruleskit.Game) -> None:
    state = play_random(card_duel, 3, 4)
    path = tmp_path / "game.jsonl"
    write_log(state, path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    header = lines[0]
    assert header["type"] == "header" and header["pack"] == "card-duel" and header["version"] == "1.0"
    assert header["hash"] == card_duel.content_hash and header["players"] == 3 and header["seed"] == 4
    assert lines[1]["type"] == "setup" and lines[1]["chance"][0]["shuffle"] == "deck"
    decisions = [line for line in lines if line["type"] == "decision"]
    assert len(decisions) == len(state.history) - 1
    assert all({"player", "action", "chance"} <= set(d) for d in decisions)
    assert lines[-1]["type"] == "result" and lines[-1]["winners"] == state.result["winners"]


def test_replay_reproduces_the_game(tmp_path: Path, dice_race: ruleskit.Game) -> None:
    state = play_random(dice_race, 4, 9)
    path = tmp_path / "race.jsonl"
    write_log(state, path)
    again = replay(path, dice_race)
    assert again == state and again.result == state.result
    rolls = [c for entry in state.history for c in entry["chance"]]
    assert rolls and all(c["roll"] == "d6" for c in rolls)


def test_replay_of_an_unfinished_game(tmp_path: Path, card_duel: ruleskit.Game) -> None:
    state = play_random(card_duel, 2, 3, stop=lambda s: len(s.history) > 12)
    path = tmp_path / "part.jsonl"
    write_log(state, path)
    assert not state.is_terminal and replay(path, card_duel) == state


def _tamper(path: Path, index: int, change: dict[str, object]) -> int:
    lines = path.read_text().splitlines()
    entry = json.loads(lines[index])
    entry.update(change)
    lines[index] = json.dumps(entry)
    path.write_text("\n".join(lines) + "\n")
    return index + 1


def test_tampered_chance_fails_loudly(tmp_path: Path, dice_race: ruleskit.Game) -> None:
    state = play_random(dice_race, 2, 1)
    path = tmp_path / "race.jsonl"
    write_log(state, path)
    lines = read_log(path)
    index = next(i for i, line in enumerate(lines) if line["type"] == "decision" and line["chance"])
    roll = lines[index]["chance"][0]
    line = _tamper(path, index, {"chance": [{**roll, "value": 7 - roll["value"]}]})
    with pytest.raises(ReplayMismatch) as caught:
        replay(path, dice_race)
    assert caught.value.line == line and caught.value.file == str(path)
    assert "chance outcomes differ" in caught.value.message


def test_tampered_decision_and_result_fail_loudly(tmp_path: Path, dice_race: ruleskit.Game) -> None:
    state = play_random(dice_race, 2, 2)
    path = tmp_path / "race.jsonl"
    write_log(state, path)
    line = _tamper(path, 2, {"action": "step:goal"})
    with pytest.raises(ReplayMismatch, match="recorded action 'step:goal' is not legal here") as caught:
        replay(path, dice_race)
    assert caught.value.line == line
    write_log(state, path)
    count = len(path.read_text().splitlines())
    _tamper(path, count - 1, {"winners": [0, 1], "scores": [99, 99]})
    with pytest.raises(ReplayMismatch, match="result differs"):
        replay(path, dice_race)


def test_changed_pack_or_broken_log_is_reported(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "pack")
    state = play_random(ruleskit.load(root), 2, 0)
    path = tmp_path / "tiny.jsonl"
    write_log(state, path)
    (root / "game.toml").write_text(TINY_GAME.replace("max = 5", "max = 6"))
    with pytest.raises(ReplayMismatch, match="has changed since this log was written") as caught:
        replay(path, root)
    assert caught.value.line == 1
    with pytest.raises(PackError, match="pack folder .*, not a built-in pack: name that folder") as unnamed:
        replay(path)  # a log never chooses the folder it runs
    assert unnamed.value.line == 1
    (root / "game.toml").write_text(TINY_GAME)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(path.read_text().splitlines()[0] + "\n{not json\n")
    with pytest.raises(PackError, match="not JSON") as bad:
        replay(broken, root)
    assert bad.value.line == 2
    headless = tmp_path / "headless.jsonl"
    headless.write_text('{"type": "setup"}\n')
    with pytest.raises(PackError, match="must start with a header"):
        replay(headless, root)


def test_replay_cli_ok_and_tampered(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   card_duel: ruleskit.Game) -> None:
    state = play_random(card_duel, 2, 6)
    path = tmp_path / "duel.jsonl"
    write_log(state, path)
    assert main(["replay", str(path), str(PACKS / "card_duel")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: replay ok (card-duel, 2 players, seed 6,") and out.count("\n") == 1
    lines = read_log(path)
    index = next(i for i, line in enumerate(lines) if line["type"] == "decision" and line["action"].startswith("play"))
    _tamper(path, index, {"action": "play:nothing"})
    assert main(["replay", str(path), str(PACKS / "card_duel")]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"{path}:{index + 1}: error: recorded action 'play:nothing'")
    assert "Traceback" not in captured.err


def test_check_cli_summary_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for pack in ("dice_race", "dice_race_variant", "dice_race_marathon", "card_duel"):
        assert main(["check", str(PACKS / pack)]) == 0
        out = capsys.readouterr().out
        assert out.count("\n") == 1 and ": ok (" in out
        if pack == "card_duel":
            assert out.startswith("card-duel 1.0: ok (2-4 players; 6 actions, 3 stages, 3 phases")
    root = write_pack(tmp_path / "bad", game=TINY_GAME.replace("me.points +=", "me.ponts +="))
    assert main(["check", str(root)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{root / 'game.toml'}:15:" in captured.err and "players have no variable 'ponts'" in captured.err
    assert "did you mean 'points'?" in captured.err and "Traceback" not in captured.err
    assert main(["check", str(tmp_path / "missing")]) == 1
    assert "no pack found" in capsys.readouterr().err


def test_console_script_runs_check(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("ruleskit")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "ruleskit.cli"]
    done = subprocess.run([*command, "check", str(PACKS / "card_duel")], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.startswith("card-duel 1.0: ok")
    bad = write_pack(tmp_path / "bad", rules="rule double(x) = x *\n")
    done = subprocess.run([*command, "check", str(bad)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "rules.rk:1:" in done.stderr and "Traceback" not in done.stderr
