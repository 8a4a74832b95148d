"""`new` and `schema` work from a wheel's layout: templates, docs and schemas under ruleskit/_data/."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_templates_and_schema_descriptions_from_the_wheel_layout(tmp_path: Path) -> None:
    # The layout pyproject's force-include gives a wheel.
    site = tmp_path / "site"
    shutil.copytree(ROOT / "ruleskit", site / "ruleskit", ignore=shutil.ignore_patterns("__pycache__"))
    data = site / "ruleskit" / "_data"
    for folder in ("games", "grammar", "templates", "schemas"):
        shutil.copytree(ROOT / folder, data / folder)
    (data / "docs").mkdir()
    for doc in ("PACKS.md", "DISPLAY.md"):
        shutil.copyfile(ROOT / "docs" / doc, data / "docs" / doc)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import json, ruleskit; from ruleskit.cli import main; from ruleskit.packschema import schemas; "
            "assert main(['new', 'mine']) == 0; ruleskit.load('mine'); "
            "s = schemas()['pack.schema.json']; print(s['properties']['name']['description'])")
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=elsewhere, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "logs and saved states" in done.stdout
    assert (elsewhere / "mine" / "pack.toml").is_file()
    assert 'name = "mine"' in (elsewhere / "mine" / "pack.toml").read_text()
