"""The JSON Schemas of pack files: up to date, valid, accepting every shipped pack, rejecting what the loader rejects."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import ruleskit
from ruleskit.cli import main
from ruleskit.errors import PackError
from ruleskit.packschema import SCHEMA_FILES, schemas

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "schemas"
MANIFESTS = sorted([*ROOT.glob("games/*/pack.toml"), *ROOT.glob("tests/packs/*/pack.toml"),
                    *ROOT.glob("templates/*/pack.toml"), *ROOT.glob("tests/variants/**/pack.toml")])


def validator(which: str) -> object:
    schema = schemas()[SCHEMA_FILES[which]]
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def errors(which: str, data: dict) -> list[str]:
    return [e.message for e in validator(which).iter_errors(data)]  # type: ignore[attr-defined]


def pack_files(manifest: Path) -> list[Path]:
    listed = tomllib.loads(manifest.read_text(encoding="utf-8")).get("files")
    if listed is None:
        return sorted(p for p in manifest.parent.glob("*.toml") if p.name != "pack.toml")
    return [manifest.parent / name for name in listed if name.endswith(".toml")]


def test_the_shipped_schemas_are_the_generated_ones(tmp_path: Path) -> None:
    assert main(["schema", "--out", str(tmp_path)]) == 0
    for name in SCHEMA_FILES.values():
        assert (tmp_path / name).read_text() == (SHIPPED / name).read_text(), \
            f"schemas/{name} is out of date: run `ruleskit schema --out schemas`"


def test_descriptions_come_from_the_docs() -> None:
    manifest = schemas()[SCHEMA_FILES["pack"]]
    assert "logs and saved states" in manifest["properties"]["name"]["description"]
    defs = schemas()[SCHEMA_FILES["file"]]["$defs"]
    assert "one action is offered per combination" in defs["ActionDef"]["properties"]["params"]["description"]
    assert "seat names" in defs["DisplayHints"]["properties"]["players"]["description"]


@pytest.mark.parametrize("manifest", MANIFESTS, ids=lambda p: str(p.parent.relative_to(ROOT)))
def test_every_shipped_pack_validates(manifest: Path) -> None:
    assert errors("pack", tomllib.loads(manifest.read_text(encoding="utf-8"))) == []
    files = pack_files(manifest)
    for path in files:
        assert errors("file", tomllib.loads(path.read_text(encoding="utf-8"))) == [], path


def test_there_are_packs_to_validate() -> None:
    assert len(MANIFESTS) >= 5 and any("ophir" in str(m) for m in MANIFESTS)


GOOD_FILE = """
[stages.turn]
[phases.main]
stage = "turn"
[flow]
start = "main"
[actions.pass]
stage = "turn"
effect = "end turn"
[end.never]
when = "false"
reason = "never"
[scoring]
score = "0"
"""

# Mistakes of the kind a schema sees: each is refused by the loader and by the schema.
BAD_FILES = {
    "unknown key": ('[actions.pass]\nstage = "turn"\nefect = "end turn"\n', "efect"),
    "wrong type": ('[zones.row]\ntype = "row"\nslots = "3"\n', "'3' is not of type 'integer'"),
    "not in the enum": ('[counters.c]\nowner = "team"\n', "'team' is not one of"),
    "missing required key": ('[phases.other]\norder = "clockwise"\n', "'stage' is a required property"),
    "unknown section": ('[action.pass]\nstage = "turn"\n', "action"),
    "display typo": ('[display]\ntitel = "x"\n', "titel"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_schema_level_mistakes_are_rejected_by_schema_and_loader(case: str, tmp_path: Path) -> None:
    text, fragment = BAD_FILES[case]
    found = errors("file", tomllib.loads(text))
    assert found and any(fragment in message for message in found), found
    (tmp_path / "pack.toml").write_text('name = "bad"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                        'files = ["game.toml", "extra.toml"]\n')
    (tmp_path / "game.toml").write_text(GOOD_FILE)
    (tmp_path / "extra.toml").write_text(text)
    with pytest.raises(PackError):
        game = ruleskit.load(str(tmp_path))
        from ruleskit.display import DisplayHints  # display hints are checked when shown
        DisplayHints.of(game)


BAD_MANIFESTS = {
    "no version": ('name = "x"\nplayers = { min = 2, max = 2 }\n', "'version' is a required property"),
    "no players": ('name = "x"\nversion = "1"\n', "'players' is a required property"),
    "zero players": ('name = "x"\nversion = "1"\nplayers = { min = 0, max = 2 }\n', "less than the minimum"),
    "version a number": ('name = "x"\nversion = 1\nplayers = { min = 2, max = 2 }\n', "not of type 'string'"),
    "stray key": ('name = "x"\nversion = "1"\nplayers = { min = 2, max = 2 }\nauthor = "me"\n', "author"),
}


@pytest.mark.parametrize("case", sorted(BAD_MANIFESTS))
def test_bad_manifests_are_rejected_by_schema_and_loader(case: str, tmp_path: Path) -> None:
    text, fragment = BAD_MANIFESTS[case]
    found = errors("pack", tomllib.loads(text))
    assert found and any(fragment in message for message in found), found
    (tmp_path / "pack.toml").write_text(text + ('files = ["game.toml"]\n' if "files" not in text else ""))
    (tmp_path / "game.toml").write_text(GOOD_FILE)
    with pytest.raises(PackError):
        ruleskit.load(str(tmp_path))


def test_print_writes_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--print", "file"]) == 0
    assert json.loads(capsys.readouterr().out)["title"].startswith("ruleskit pack file")
