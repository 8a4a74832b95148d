"""Built-in packs and the grammar are found in a wheel's layout (ruleskit/_data/...), not only in a checkout."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_layout_finds_the_grammar_and_built_in_packs(tmp_path: Path) -> None:
    # The layout pyproject's force-include gives a wheel: the package with games/ and grammar/ inside it.
    site = tmp_path / "site"
    shutil.copytree(ROOT / "ruleskit", site / "ruleskit", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "games", site / "ruleskit" / "_data" / "games")
    shutil.copytree(ROOT / "grammar", site / "ruleskit" / "_data" / "grammar")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import ruleskit, ruleskit.resources as r; g = ruleskit.load('ophir'); "
            "print(r.grammar_path()); print(g.source.root); print(g.new_game(players=2, seed=1).players)")
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=elsewhere, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    grammar, pack_root, players = done.stdout.split()
    assert Path(grammar) == site / "ruleskit" / "_data" / "grammar" / "ruleskit.lark"
    assert Path(pack_root) == site / "ruleskit" / "_data" / "games" / "ophir"
    assert players == "2"
