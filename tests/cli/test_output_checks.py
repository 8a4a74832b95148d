"""A path a command cannot write is refused before any game is played, and every error names the user's path,
never the temporary file written beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import PACKS

from ruleskit.atomic import write_text_atomically
from ruleskit.cli import main

RACE = str(PACKS / "dice_race")
# A folder no one may make files in, root included.
UNWRITABLE = Path("/proc")
needs_proc = pytest.mark.skipif(not UNWRITABLE.is_dir(), reason="needs /proc")


@needs_proc
@pytest.mark.parametrize("args", [
    ["simulate", RACE, "-n", "2", "-p", "2", "-w", "1", "-q", "--json", "/proc/x"],
    ["compare", RACE, RACE, "-n", "2", "-p", "2", "-w", "1", "-q", "--json", "/proc/x"],
    ["tournament", RACE, "--bots", "random,greedy", "-n", "1", "-w", "1", "-q", "--json", "/proc/x"],
    ["play", RACE, "--seats", "random,random", "--log", "/proc/version"],
    ["simulate", RACE, "-n", "2", "-p", "2", "-w", "1", "-q", "--log-dir", "/proc"],
    ["schema", "--out", "/proc"],
])
def test_an_unwritable_output_is_refused_first(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert out == ""  # no game was played, no summary shown
    assert f"'{args[-1]}': cannot write in the folder '/proc'" in err and ".part" not in err


def test_a_failed_atomic_write_names_the_target(tmp_path: Path) -> None:
    missing = tmp_path / "missing" / "game.json"
    with pytest.raises(OSError) as made:  # the file beside it cannot be made
        write_text_atomically(missing, "text")
    assert made.value.filename == str(missing)
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(OSError) as replaced:  # the file beside it cannot take the target's place
        write_text_atomically(folder, "text")
    assert replaced.value.filename == str(folder)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]
