"""The built-in Valdora pack is found and checks clean in a wheel's layout (ruleskit/_data/games)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_valdora_checks_from_a_wheel_layout(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(ROOT / "ruleskit", site / "ruleskit", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "games", site / "ruleskit" / "_data" / "games")
    shutil.copytree(ROOT / "grammar", site / "ruleskit" / "_data" / "grammar")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = "import sys; from ruleskit.cli import main; sys.exit(main(['check', 'valdora']))"
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=elsewhere, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "valdora 1.0: ok (3-5 players" in done.stdout
