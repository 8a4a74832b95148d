"""`ruleskit schema --out DIR` replaces a link at a name it writes; it never writes through it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.packschema import SCHEMA_FILES


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no links here")
def test_a_link_at_a_schemas_name_is_replaced_not_written_through(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A cloned repository may ship `.vscode/pack.schema.json` as a link to any file of the user's."""
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("precious\n", encoding="utf-8")
    out = tmp_path / "repo" / ".vscode"
    out.mkdir(parents=True)
    for name in SCHEMA_FILES.values():
        os.symlink(elsewhere, out / name)
    assert main(["schema", "--out", str(out)]) == 0
    capsys.readouterr()
    assert elsewhere.read_text(encoding="utf-8") == "precious\n"
    for name in SCHEMA_FILES.values():
        written = out / name
        assert not written.is_symlink()
        assert json.loads(written.read_text(encoding="utf-8"))["$id"] == name
    assert sorted(p.name for p in out.iterdir()) == sorted(SCHEMA_FILES.values())  # no file left beside them
