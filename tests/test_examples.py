"""The example scripts and scenarios under examples/ keep working."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "examples" / "scripts"


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_from_scenario_lists_and_applies_the_failed_check() -> None:
    out = run(str(SCRIPTS / "from_scenario.py"), "examples/scenarios/ophir-failed-check.toml", "sail:h0")
    assert "sail:h0                  Sail to centre hex" in out
    assert "'value': 3, 'scripted': True" in out
    # The rulebook: Yellow keeps the 3 it rolled, Green drops from 5 to 4, and Yellow stays put.
    assert '"ship_0": {"at": "h3", "influence": 3}' in out
    assert '"ship_1": {"at": "h0", "influence": 4}' in out


def test_random_game_writes_a_log_that_replays(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    out = run(str(SCRIPTS / "random_game.py"), "tests/packs/dice_race", "--players", "3", "--seed", "4",
              "--log", str(log))
    assert "place 1: Player" in out
    replayed = subprocess.run([sys.executable, "-m", "ruleskit.cli", "replay", str(log), "tests/packs/dice_race"],
                              capture_output=True,
                              text=True, cwd=ROOT, timeout=120)
    assert replayed.returncode == 0, replayed.stderr
    assert "replay ok" in replayed.stdout
