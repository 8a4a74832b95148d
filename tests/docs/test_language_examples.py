"""Every rule-language example in docs/LANGUAGE.md compiles (or fails as it says).

Fenced blocks tagged `rk` are whole .rk files, added to a variant of the
sampler pack; `rk error` blocks must fail to load with the message on their
first line (`# error: ...`); `rk stmts` blocks compile as an effect; `rk expr`
blocks hold one expression per line, and a trailing `# => value` is checked by
evaluating both sides in a new two-player game of the sampler.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

import ruleskit
from ruleskit.errors import PackError
from ruleskit.game import GameBuilder
from ruleskit.lang.parser import Origin
from ruleskit.packs import PackReader
from ruleskit.runtime.context import Ctx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from builtins_table import LANGUAGE_MD, current, render  # noqa: E402

SAMPLER = Path(__file__).resolve().parent / "sampler"
SHOWN = "docs/LANGUAGE.md"
# Names an `rk stmts` block may use without defining them.
STMT_NAMES = {"p": "player", "n": "int"}


@attrs.frozen
class Example:
    kind: str  # "module", "error", "stmts" or "expr"
    line: int  # line of the block's first source line in LANGUAGE.md
    text: str

    def __str__(self) -> str:
        return f"{self.kind}@{self.line}"


def examples() -> list[Example]:
    found: list[Example] = []
    lines = LANGUAGE_MD.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        fence = re.fullmatch(r"```rk(?:\s+(\w+))?\s*", lines[i])
        if fence is None:
            i += 1
            continue
        start = i + 1
        end = start
        while lines[end] != "```":
            end += 1
        found.append(Example(fence.group(1) or "module", start + 1, "\n".join(lines[start:end]) + "\n"))
        i = end + 1
    return found


ALL = examples()


@pytest.fixture(scope="module")
def builder() -> GameBuilder:
    builder = GameBuilder(PackReader().read(SAMPLER))
    builder.build()
    return builder


def load_with(tmp_path: Path, text: str) -> ruleskit.Game:
    """The sampler extended by one more .rk file holding `text` (a base is named relative to its variant,
    so the sampler and its own base are copied beside the example)."""
    shutil.copytree(SAMPLER, tmp_path / "docs" / "sampler")
    shutil.copytree(SAMPLER.parents[1] / "packs" / "dice_race", tmp_path / "packs" / "dice_race")
    example = tmp_path / "docs" / "example"
    example.mkdir()
    (example / "pack.toml").write_text(
        'name = "example"\nversion = "1"\nplayers = { min = 2, max = 4 }\n'
        'extends = "../sampler"\nfiles = ["example.rk"]\n', encoding="utf-8")
    (example / "example.rk").write_text(text, encoding="utf-8")
    return ruleskit.load(example)


def test_there_are_examples_of_every_sort() -> None:
    kinds = {e.kind for e in ALL}
    assert kinds == {"module", "error", "stmts", "expr"}
    assert len(ALL) >= 30


@pytest.mark.parametrize("example", [e for e in ALL if e.kind == "module"], ids=str)
def test_module_example_loads(example: Example, tmp_path: Path) -> None:
    try:
        game = load_with(tmp_path, example.text)
    except PackError as exc:
        pytest.fail(f"{SHOWN}:{example.line}: example does not load: {exc}")
    game.new_game(players=2, seed=1)  # and a game can start with it


@pytest.mark.parametrize("example", [e for e in ALL if e.kind == "error"], ids=str)
def test_error_example_fails_as_documented(example: Example, tmp_path: Path) -> None:
    first, _, rest = example.text.partition("\n")
    expected = re.fullmatch(r"#\s*error:\s*(.+)", first.strip())
    assert expected, f"{SHOWN}:{example.line}: an rk error block starts with '# error: MESSAGE'"
    with pytest.raises(PackError) as caught:
        load_with(tmp_path, rest)
    assert expected.group(1) in str(caught.value), f"{SHOWN}:{example.line}"
    assert caught.value.line is not None, "load errors are located"


@pytest.mark.parametrize("example", [e for e in ALL if e.kind == "stmts"], ids=str)
def test_statement_example_compiles(example: Example, builder: GameBuilder) -> None:
    builder.compiler.block(example.text, Origin(SHOWN, example.line), dict(STMT_NAMES), "example")


def _expr_lines(example: Example) -> list[tuple[int, str, str | None]]:
    result = []
    for offset, raw in enumerate(example.text.splitlines()):
        code, arrow, expected = raw.partition("# =>")
        if code.strip() and not code.strip().startswith("#"):
            result.append((example.line + offset, code, expected.strip() if arrow else None))
    return result


@pytest.mark.parametrize("example", [e for e in ALL if e.kind == "expr"], ids=str)
def test_expression_example_gives_what_it_says(example: Example, builder: GameBuilder) -> None:
    game = ruleskit.load(SAMPLER)
    state = game.new_game(players=2, seed=1)
    lines = _expr_lines(example)
    assert lines

    def value(text: str, line: int) -> Any:
        fn = builder.compiler.expr(text, Origin(SHOWN, line), None, "example")
        return fn(Ctx(builder.compiler.program, state.data, 0))

    for line, code, expected in lines:
        got = value(code, line)
        if expected is not None:
            assert got == value(expected, line), f"{SHOWN}:{line}: {code.strip()} gave {got!r}"


def test_builtins_table_is_current() -> None:
    text = LANGUAGE_MD.read_text(encoding="utf-8")
    assert current(text) == render(), "run `python tests/docs/builtins_table.py` to regenerate the table"
