"""Hand-written mutant corpora are data: an edit stays inside the pack copy, a bad value is a located error,
and a mutant whose edit fails leaves no copy behind."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.errors import PackError
from ruleskit.game import load
from ruleskit.mutation.edits import Edit, Mutant, apply_edits, load_corpus, mutant_copy
from ruleskit.mutation.scoring import INVALID, try_mutant

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests" / "packs" / "dice_race"


def write_corpus(tmp_path: Path, edits: str, header: str = 'id = "m1"\ndescription = "d"\n') -> Path:
    corpus = tmp_path / "corpus.toml"
    corpus.write_text(f"[[mutant]]\n{header}edits = {edits}\n")
    return corpus


def pack_copy(tmp_path: Path) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(DICE, pack)
    return pack


@pytest.fixture
def own_tempdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Temporary folders of this test only, so that what a copy leaves behind can be seen."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


# ---------------------------------------------------------------- where an edit may write


@pytest.mark.parametrize("name", ["{victim}", "../../victim.txt", "rules.rk/../../victim.txt", "..\\victim.txt",
                                  "C:\\victim.txt", ".", "./", ""])
def test_a_corpus_edit_outside_the_pack_is_refused_at_its_line(tmp_path: Path, name: str) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("SECRET=1")
    corpus = write_corpus(tmp_path, f'[{{ file = "{name.format(victim=victim)}", old = "SECRET=1", new = "x" }}]'
                          .replace("\\", "\\\\"))
    with pytest.raises(PackError, match="mutant 'm1', edit 1: ") as caught:
        load_corpus(corpus)
    assert caught.value.file == str(corpus) and caught.value.line == 4
    assert victim.read_text() == "SECRET=1"


def test_an_edit_never_writes_outside_the_folder_it_edits(tmp_path: Path) -> None:
    # Edits made through the API are held to the same rule, links followed.
    victim = tmp_path / "victim.txt"
    victim.write_text("SECRET=1")
    folder = tmp_path / "copy"
    folder.mkdir()
    os.symlink(tmp_path, folder / "out")
    os.symlink(victim, folder / "victim.rk")
    for name in (str(victim), "../victim.txt", "out/victim.txt", "victim.rk"):
        with pytest.raises(PackError, match="absolute path|climbs out|leads out"):
            apply_edits(folder, [Edit(name, "SECRET=1", "SECRET=pwned")])
    assert victim.read_text() == "SECRET=1"


def test_a_corpus_edit_through_a_link_out_of_the_pack_is_not_applied(tmp_path: Path, own_tempdir: Path) -> None:
    victim = tmp_path / "outside" / "victim.txt"
    victim.parent.mkdir()
    victim.write_text("SECRET=1")
    pack = pack_copy(tmp_path)
    os.symlink("../outside", pack / "data")
    corpus = write_corpus(tmp_path, '[{ file = "data/victim.txt", old = "SECRET=1", new = "SECRET=pwned" }]')
    (mutant,) = load_corpus(corpus)
    with pytest.raises(PackError):
        mutant_copy(pack, mutant)
    assert victim.read_text() == "SECRET=1"
    assert not list(own_tempdir.iterdir())


# ---------------------------------------------------------------- the shape of a corpus


@pytest.mark.parametrize(("edits", "header", "message"), [
    ("[]", None, "mutant 'm1' needs 'edits', a non-empty list"),
    ('"rules.rk"', None, "mutant 'm1' needs 'edits', a non-empty list"),
    ('["rules.rk"]', None, "mutant 'm1', edit 1 should be a table"),
    ('[{ file = 5, old = "x", new = "y" }]', None, "mutant 'm1', edit 1 needs 'file', a string"),
    ('[{ file = "rules.rk", old = 5, new = "y" }]', None, "mutant 'm1', edit 1 needs 'old', a string"),
    ('[{ file = "rules.rk", old = "x" }]', None, "mutant 'm1', edit 1 needs 'new', a string"),
    ('[{ file = "rules.rk", old = "", new = "y" }]', None, "'old' is empty"),
    ('[{ file = "rules.rk", old = "x", new = "y" }]', 'id = 7\ndescription = "d"\n', "mutant 1 needs 'id'"),
    ('[{ file = "rules.rk", old = "x", new = "y" }]', 'id = "m1"\n', "mutant 1 needs 'description'"),
    ('[{ file = "rules.rk", old = "x", new = "y" }]', 'id = "m1"\ndescription = "d"\nrule = 3\n',
     "'rule' should be a string"),
])
def test_a_corpus_value_of_the_wrong_shape_is_a_located_error(tmp_path: Path, edits: str, header: str | None,
                                                             message: str) -> None:
    corpus = write_corpus(tmp_path, edits, header) if header else write_corpus(tmp_path, edits)
    with pytest.raises(PackError, match=message) as caught:
        load_corpus(corpus)
    assert caught.value.file == str(corpus) and caught.value.line is not None


def test_a_corpus_whose_mutants_are_not_tables_is_a_located_error(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.toml"
    corpus.write_text("mutant = 3\n")
    with pytest.raises(PackError, match="list of \\[\\[mutant\\]\\] tables") as caught:
        load_corpus(corpus)
    assert caught.value.line == 1


def test_a_missing_file_is_named_by_the_corpus_line_not_a_temporary_path(tmp_path: Path,
                                                                         own_tempdir: Path) -> None:
    corpus = write_corpus(tmp_path, '[{ file = "rules.rk", old = "steps -= 1", new = "steps -= 2" },\n'
                                    '  { file = "nope.rk", old = "x", new = "y" }]')
    (mutant,) = load_corpus(corpus)
    with pytest.raises(PackError) as caught:
        mutant_copy(DICE, mutant)
    text = str(caught.value)
    assert text.startswith(f"{corpus}:4: error: mutant edit 2 of 'nope.rk': file not found")
    assert str(own_tempdir) not in text and "ruleskit-mutant-" not in text


def test_the_command_reports_a_bad_corpus_without_a_traceback(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_corpus(tmp_path, '[{ file = 5, old = "x", new = "y" }]')
    assert main(["mutate", str(DICE), "--corpus", str(corpus), "-q"]) == 1
    assert f"{corpus}:4: error: mutant 'm1', edit 1 needs 'file', a string" in capsys.readouterr().err


# ---------------------------------------------------------------- no copy left behind


def test_a_mutant_whose_edit_fails_leaves_no_copy(tmp_path: Path, own_tempdir: Path) -> None:
    stale = Mutant("a", "d", (Edit("rules.rk", "no such text", "y"),))
    with pytest.raises(PackError, match="occurs 0 times"):
        mutant_copy(DICE, stale)
    assert not list(own_tempdir.iterdir())
    outcome = try_mutant(load(DICE), stale, seconds=1, lockstep_seconds=1)
    assert outcome.status == INVALID and "occurs 0 times" in outcome.witness
    assert not list(own_tempdir.iterdir())


def test_a_copy_into_a_named_folder_never_replaces_what_is_there(tmp_path: Path) -> None:
    where = tmp_path / "where"
    (where / DICE.name).mkdir(parents=True)
    (where / DICE.name / "mine.txt").write_text("kept")
    with pytest.raises(FileExistsError):
        mutant_copy(DICE, Mutant("a", "d", ()), where=where)
    assert (where / DICE.name / "mine.txt").read_text() == "kept"
    stale = Mutant("a", "d", (Edit("rules.rk", "no such text", "y"),))
    with pytest.raises(PackError):
        mutant_copy(DICE, stale, where=tmp_path / "other")
    assert not (tmp_path / "other" / DICE.name).exists()


# ---------------------------------------------------------------- mutate --players


@pytest.mark.parametrize("players", ["abc", ",", "2,x"])
def test_mutate_refuses_player_counts_that_are_not_numbers(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["mutate", str(DICE), "--players", players, "--list"])
    assert exited.value.code == 2
    assert "argument --players:" in capsys.readouterr().err


def test_mutate_reads_player_counts_as_test_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", str(DICE), "--players", "2,", "--list"]) == 0
    assert "M0001" in capsys.readouterr().out
