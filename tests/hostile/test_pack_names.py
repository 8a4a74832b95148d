"""A pack file or folder whose name is not UTF-8 is a located error naming it, never a traceback."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.errors import PackError
from ruleskit.game import load

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests" / "packs" / "dice_race"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULESKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULESKIT_NO_CACHE", raising=False)


def odd_name(folder: Path, name: bytes, *, directory: bool = False) -> Path:
    """`folder/name` made with a name that is not UTF-8; the test is skipped where the system refuses it."""
    path = os.path.join(os.fsencode(folder), name)
    try:
        if directory:
            os.mkdir(path)
        else:
            with open(path, "wb") as out:
                out.write(b"rule r() = 1\n")
    except (OSError, ValueError):
        pytest.skip("the file system refuses a name that is not UTF-8")
    return Path(os.fsdecode(path))


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    """dice_race without a `files` list, so every .toml and .rk file in its folder is read."""
    copy = tmp_path / "pack"
    shutil.copytree(DICE, copy)
    manifest = copy / "pack.toml"
    manifest.write_text("\n".join(line for line in manifest.read_text().splitlines() if not line.startswith("files")))
    assert load(copy, cache=False).name == "dice-race"
    return copy


@pytest.mark.parametrize("cache", [False, None])
def test_a_pack_file_named_in_bytes_that_are_not_utf8_is_a_located_error(pack: Path, cache: bool | None) -> None:
    odd_name(pack, b"\xff.rk")
    with pytest.raises(PackError, match=r"the name of the pack file '\\xff.rk' in the folder is not UTF-8") as caught:
        load(pack, cache=cache)
    assert caught.value.file is not None and caught.value.file.endswith("pack.toml")


def test_ruleskit_check_names_the_file_without_a_traceback(pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd_name(pack, b"\xffrules.rk")
    assert main(["check", str(pack)]) == 1
    err = capsys.readouterr().err
    assert "not UTF-8" in err and "\\xffrules.rk" in err and "Traceback" not in err


def test_a_file_not_listed_in_files_is_not_read(pack: Path) -> None:
    (pack / "pack.toml").write_text((DICE / "pack.toml").read_text())
    odd_name(pack, b"\xff.rk")
    assert load(pack, cache=False).name == "dice-race"


@pytest.mark.parametrize("backend", ["compiled", "closures"])
@pytest.mark.parametrize("cache", [False, None])
def test_a_pack_folder_named_in_bytes_that_are_not_utf8_is_an_error_naming_it(
        tmp_path: Path, backend: str, cache: bool | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULESKIT_CACHE_DIR", str(tmp_path / "cache"))  # the load cache keys the folder's path too
    folder = odd_name(tmp_path, b"p\xff", directory=True)
    for name in ("pack.toml", "game.toml", "rules.rk"):
        shutil.copy(DICE / name, folder / name)
    with pytest.raises(PackError, match="the pack folder's path is not UTF-8") as caught:
        load(folder, backend=backend, cache=cache)
    assert caught.value.file is not None and caught.value.file.endswith("p\\xff")
