"""The editor set-ups in editors/: the TextMate grammar knows the language's keywords; manifests point at real files."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from ruleskit.packindex import KEYWORDS

ROOT = Path(__file__).resolve().parents[2]
VSCODE = ROOT / "editors" / "vscode"


def documented_keywords() -> set[str]:
    text = (ROOT / "docs" / "LANGUAGE.md").read_text(encoding="utf-8")
    block = text.split("- Keywords: `", 1)[1].split("`", 1)[0]
    return set(block.split())


def test_the_index_and_the_docs_agree_on_keywords() -> None:
    assert set(KEYWORDS) == documented_keywords()


def test_grammar_colours_every_keyword_and_its_patterns_compile() -> None:
    grammar = json.loads((VSCODE / "syntaxes" / "ruleskit.tmLanguage.json").read_text(encoding="utf-8"))
    patterns = []

    def collect(node: object) -> None:
        if isinstance(node, dict):
            for key in ("match", "begin", "end"):
                if key in node:
                    patterns.append(node[key])
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(grammar)
    compiled = [re.compile(p) for p in patterns]
    for word in documented_keywords():
        assert any(p.fullmatch(word) or p.search(f" {word} ") for p in compiled if "\\b" in p.pattern), word
    assert grammar["scopeName"] == "source.ruleskit"


def test_vscode_manifest_points_at_its_files() -> None:
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    contributes = package["contributes"]
    assert (VSCODE / package["main"]).is_file()
    assert all((VSCODE / g["path"]).is_file() for g in contributes["grammars"])
    assert all((VSCODE / lang["configuration"]).is_file() for lang in contributes["languages"])
    assert contributes["languages"][0]["extensions"] == [".rk"]
    assert contributes["configuration"]["properties"]["ruleskit.command"]["default"] == ["ruleskit", "lsp"]


def test_helix_lines_are_valid_toml() -> None:
    config = tomllib.loads((ROOT / "editors" / "helix" / "languages.toml").read_text(encoding="utf-8"))
    assert config["language-server"]["ruleskit"] == {"command": "ruleskit", "args": ["lsp"]}
    assert config["language"][0]["file-types"] == ["rk"]
