"""A pack's tests/ folder nested past the longest path the system takes is a located error, not an OSError."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ruleskit import PackError
from ruleskit.cli import main
from ruleskit.testing.scenario_tests import scenario_test_files

PACKS = Path(__file__).resolve().parents[1] / "packs"


def deep_pack(tmp_path: Path) -> Path:
    root = tmp_path / "deep"
    shutil.copytree(PACKS / "dice_race", root)
    # Made a level at a time from inside the one before: the whole path is longer than the system takes.
    here = os.open(root, os.O_RDONLY)
    try:
        for name in ["tests"] + ["d" * 200] * 25:
            os.mkdir(name, dir_fd=here)
            inner = os.open(name, os.O_RDONLY, dir_fd=here)
            os.close(here)
            here = inner
    finally:
        os.close(here)
    return root


def test_a_tests_folder_nested_past_the_longest_path_is_an_error_naming_the_folder(tmp_path: Path) -> None:
    root = deep_pack(tmp_path)
    with pytest.raises(PackError) as caught:
        scenario_test_files(root)
    error = caught.value
    assert error.file is not None and error.file.endswith("tests")
    assert "cannot read a folder of the scenario tests" in error.message and "folders deep" in error.message
    assert len(str(error)) < 600  # the path is named shortened, not 5,000 characters of it


def test_ruleskit_test_reports_it_as_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = deep_pack(tmp_path)
    assert main(["test", str(root), "--scenarios-only"]) == 1
    err = capsys.readouterr().err
    assert "cannot read a folder of the scenario tests" in err and "Traceback" not in err
