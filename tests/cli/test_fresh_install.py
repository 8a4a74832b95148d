"""The README's first set-up command in a fresh environment: `ruleskit test` works and pytest loads the plugin.

Slow (it creates a virtual environment and installs ruleskit and its
dependencies), so it runs only with RULESKIT_SLOW=1.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(os.environ.get("RULESKIT_SLOW") != "1", reason="slow: set RULESKIT_SLOW=1")

PACK_TEST = '''
def test_the_pack_loads(ruleskit_game):
    assert ruleskit_game("dice_race_path").name == "dice-race"


def test_the_pack_holds_up(ruleskit_check):
    ruleskit_check("dice_race_path", games=3, players=[2])
'''


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False)


def test_fresh_install_runs_ruleskit_test_and_pytest(tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    # The README's command, without the editable flag so the test sees what a user's install holds.
    installed = run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(ROOT), "pytest"], tmp_path, env)
    assert installed.returncode == 0, installed.stderr[-3000:]
    pack = ROOT / "tests" / "packs" / "dice_race"
    tested = run([str(bin_dir / "ruleskit"), "test", str(pack), "--games", "3", "--players", "2"], tmp_path, env)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "Traceback" not in tested.stderr
    work = tmp_path / "work"
    work.mkdir()
    (work / "test_pack.py").write_text(PACK_TEST.replace("dice_race_path", pack.as_posix()))
    ran = run([str(bin_dir / "python"), "-m", "pytest", "-q", "-W", "error::pytest.PytestConfigWarning",
               "-p", "no:cacheprovider"], work, env)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "2 passed" in ran.stdout
    plugins = run([str(bin_dir / "python"), "-m", "pytest", "--trace-config", "-q", "--co"], work, env)
    assert "ruleskit" in plugins.stdout and "hypothesis" in plugins.stdout
    # Even without hypothesis (a broken or partial install), the plugin loads and leaves pytest working.
    removed = run([str(bin_dir / "python"), "-m", "pip", "uninstall", "-q", "-y", "hypothesis"], tmp_path, env)
    assert removed.returncode == 0, removed.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "test_nothing.py").write_text("def test_nothing():\n    assert 1 + 1 == 2\n")
    bare = run([str(bin_dir / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider"], empty, env)
    assert bare.returncode == 0 and "1 passed" in bare.stdout, bare.stdout[-3000:] + bare.stderr[-3000:]
