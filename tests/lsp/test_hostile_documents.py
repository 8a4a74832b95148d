"""The editor's server on packs as they are while being written, or as a hostile pack is written.

It checks unsaved texts by reading them where their files are (so a variant finds its base as the loader
does), and indexes a pack within the loader's own limits.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from ruleskit.langserver import diagnose  # noqa: E402
from ruleskit.packindex import PackIndex  # noqa: E402

PACKS = Path(__file__).resolve().parents[1] / "packs"


@pytest.fixture()
def variant(tmp_path: Path) -> Path:
    for name in ("dice_race", "dice_race_shown"):
        shutil.copytree(PACKS / name, tmp_path / name)
    return tmp_path / "dice_race_shown"


def test_an_open_variant_is_checked_against_its_own_base(variant: Path) -> None:
    """Every variant opened with an unsaved change was reported as extending a path the loader refuses."""
    shown = variant / "shown.toml"
    text = shown.read_text()
    assert diagnose(variant, {shown: text}) == {}
    broken = diagnose(variant, {shown: text.replace("p.score * 2", "p.scroe * 2", 1)})
    assert list(broken) == [shown.resolve()] and "scroe" in broken[shown.resolve()][0].message
    assert shown.read_text() == text


def test_a_literal_string_extends_finds_the_base_the_loader_finds(variant: Path, tmp_path: Path) -> None:
    """`extends = '../dice_race'` (a literal TOML string) was left as written in a copy under the temporary
    folder, and its base read from there: a pack planted at `$TMPDIR/dice_race` was checked instead."""
    manifest = variant / "pack.toml"
    text = manifest.read_text().replace('extends = "../dice_race"', "extends = '../dice_race'")
    assert diagnose(variant, {manifest: text}) == {}
    index = PackIndex.build(variant, {manifest: text})
    assert (tmp_path / "dice_race" / "rules.rk").resolve() in index.files


def test_the_index_reads_each_listed_file_once(tmp_path: Path) -> None:
    """A manifest listing one file 3,000 times had every request read and index it 3,000 times."""
    folder = tmp_path / "dice_race"
    shutil.copytree(PACKS / "dice_race", folder)
    manifest = folder / "pack.toml"
    listed = 'files = [' + ', '.join(['"rules.rk"'] * 3000 + ['"game.toml"']) + ']'
    manifest.write_text(manifest.read_text().replace('files = ["game.toml", "rules.rk"]', listed))
    assert listed in manifest.read_text()
    index = PackIndex.build(folder)
    assert sorted(p.name for p in index.files) == ["game.toml", "pack.toml", "rules.rk"]
    assert all(len({s.place for s in found}) == len(found) for found in index.symbols.values())


def test_half_written_kind_lines_and_headers_are_skipped(tmp_path: Path) -> None:
    """A kind line typed half-way (`items.a"b" = {}`) made every request fail; a header-like line of many
    spaces and no `]` (valid inside a multi-line string) took a request 50 s."""
    folder = tmp_path / "dice_race"
    shutil.copytree(PACKS / "dice_race", folder)
    game = folder / "game.toml"
    text = game.read_text().replace("[kinds.pawn]", '[kinds.pawn]\nitems.a"b" = {}', 1)
    text += '\n[actions.wait]\nlabel = """\n[kinds.a.b' + " " * 5000 + 'x\n"""\n'
    index = PackIndex.build(folder, {game: text})
    assert "pawn" in index.symbols and "wait" in index.symbols and "ab" not in index.symbols


def test_a_line_separator_in_a_comment_moves_no_definition(tmp_path: Path) -> None:
    """U+2028 in a comment (allowed in the rule language) was a line break to the index, not to the loader or
    the editor: every later definition was put a line below where the editor shows it."""
    folder = tmp_path / "dice_race"
    shutil.copytree(PACKS / "dice_race", folder)
    rules = folder / "rules.rk"
    text = rules.read_text()
    plain = PackIndex.build(folder, {rules: text})
    marked = PackIndex.build(folder, {rules: "# one\u2028two\n" + text})
    names = [name for name, found in plain.symbols.items() if any(s.place.path == rules.resolve() for s in found)]
    assert names
    for name in names:
        before = [s.place.line for s in plain.symbols[name] if s.place.path == rules.resolve()]
        after = [s.place.line for s in marked.symbols[name] if s.place.path == rules.resolve()]
        assert after == [line + 1 for line in before], name  # one line added above, not two
