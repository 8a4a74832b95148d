"""Fuzzing the rule-language parser and compiler and the TOML loader.

Every input either compiles (and, for expressions and blocks, runs) or raises
the project's own RulesError: never another exception, never a hang. Inputs
are random text over the language's alphabet, and real sources (every `.rk`
file and inline snippet of the packs) mutated by deleting, repeating and
splicing pieces.

The CI budget is small. For a long fuzz run:

    RULESKIT_FUZZ_EXAMPLES=20000 python -m pytest tests/hostile/test_fuzz.py
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ruleskit
from ruleskit.errors import RulesError
from ruleskit.game import GameBuilder
from ruleskit.lang.compiler import read_module
from ruleskit.lang.parser import Origin
from ruleskit.packs import PackReader
from ruleskit.runtime.context import Ctx, GameOver, Return, Suspend
from ruleskit.tomlfile import parse_toml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("RULESKIT_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
# Control signals a block may raise on purpose: a choice to make, the game's end, `return`.
SIGNALS = (Suspend, GameOver, Return)

RK_FILES = sorted((ROOT / "games").glob("*/*.rk")) + sorted((ROOT / "tests" / "packs").glob("*/*.rk"))
RK_SOURCES = [p.read_text(encoding="utf-8") for p in RK_FILES]
TOML_FILES = sorted((ROOT / "games").glob("*/*.toml")) + sorted((ROOT / "tests" / "packs").glob("*/*.toml"))
TOML_SOURCES = [p.read_text(encoding="utf-8") for p in TOML_FILES]


def _inline_snippets() -> list[str]:
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value.strip():
            found.append(value)

    for text in TOML_SOURCES:
        walk(tomllib.loads(text))
    return found


SNIPPETS = _inline_snippets()
TOKENS = ["rule", "proc", "hook", "on", "modify", "when", "let", "set", "if", "elif", "else", "for", "in", "not",
          "and", "or", "then", "move", "of", "from", "to", "top", "draw", "shuffle", "slide", "into", "block",
          "require", "emit", "finish", "goto", "end", "turn", "return", "say", "roll", "random", "shuffled",
          "sample", "choose", "number", "subset", "order", "prompt", "true", "false", "none", "me", "players",
          "base", "__class__", "__import__", "eval", "import", "(", ")", "[", "]", "{", "}", ",", ".", "..",
          "=", "==", "!=", "<", "<=", "+", "-", "*", "//", "%", "+=", "-=", ":", ";", "\"x\"", "0", "1", "6",
          "99999999999999999999", "p", "x", "steps", "score", "goal", "pawn", "at", "d6", "count", "sum", "range",
          "adjacent", "lesser", "clamp", "abs", "min", "sort", "index_of", "\n", " "]


@pytest.fixture(scope="module")
def dice_race() -> tuple[GameBuilder, ruleskit.State]:
    builder = GameBuilder(PackReader().read(ROOT / "tests/packs/dice_race"))
    game = builder.build()
    state = game.new_game(players=3, seed=1)
    return builder, state


def token_soup() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join)


VALUES = ["1", "0", "-3", "\"a\"", "true", "none", "[]", "[1, 2]", "[\"a\", 1]", "[[1]]", "me", "players", "goal",
          "space", "me.pawn", "me.pawn.at", "edges()", "99999999999999", "[none]"]


def call_soup() -> st.SearchStrategy[str]:
    """Built-in calls on values of every kind: the wrong kinds must be refused, not crash."""
    from ruleskit.lang.builtins import BUILTINS

    names = sorted(BUILTINS)
    return st.builds(lambda name, args: f"{name}({', '.join(args)})", st.sampled_from(names),
                     st.lists(st.sampled_from(VALUES), max_size=3))


def mutated(sources: list[str]) -> st.SearchStrategy[str]:
    """A real source with pieces deleted, repeated or spliced in from another."""
    @st.composite
    def build(draw: st.DrawFn) -> str:
        text = draw(st.sampled_from(sources))
        for _ in range(draw(st.integers(1, 4))):
            if not text:
                break
            a = draw(st.integers(0, len(text)))
            b = draw(st.integers(a, min(len(text), a + 40)))
            how = draw(st.sampled_from(["delete", "repeat", "splice", "token", "char"]))
            if how == "delete":
                text = text[:a] + text[b:]
            elif how == "repeat":
                text = text[:b] + text[a:b] * draw(st.integers(1, 30)) + text[b:]
            elif how == "splice":
                other = draw(st.sampled_from(sources))
                c = draw(st.integers(0, len(other)))
                text = text[:a] + other[c:c + 60] + text[b:]
            elif how == "token":
                text = text[:a] + " " + draw(st.sampled_from(TOKENS)) + " " + text[a:]
            else:
                text = text[:a] + draw(st.characters()) + text[a:]
        return text

    return build()


def compile_and_run(builder: GameBuilder, state: ruleskit.State, text: str, entry: str) -> None:
    """Compile `text` against dice_race and run it on a copy of a real state."""
    origin = Origin("fuzz.rk")
    if entry == "module":
        read_module(text, origin)
        return
    compiler = builder.compiler
    fn = compiler.expr(text, origin) if entry == "expr" else compiler.block(text, origin)
    ctx = Ctx(state.game.program, state.clone().data, 0)
    try:
        fn(ctx)
    except SIGNALS:
        pass


def assert_rules_error_only(action) -> None:
    try:
        action()
    except RulesError:
        pass


@FUZZ
@given(text=st.one_of(token_soup(), call_soup(), st.text(max_size=200)),
       entry=st.sampled_from(["expr", "block", "module"]))
def test_random_text_compiles_or_raises_a_rules_error(dice_race, text: str, entry: str) -> None:
    builder, state = dice_race
    assert_rules_error_only(lambda: compile_and_run(builder, state, text, entry))


@FUZZ
@given(text=mutated(SNIPPETS), entry=st.sampled_from(["expr", "block"]))
def test_mutated_inline_snippets_compile_or_raise_a_rules_error(dice_race, text: str, entry: str) -> None:
    builder, state = dice_race
    assert_rules_error_only(lambda: compile_and_run(builder, state, text, entry))


@FUZZ
@given(text=mutated(RK_SOURCES))
def test_mutated_rk_files_parse_or_raise_a_rules_error(text: str) -> None:
    assert_rules_error_only(lambda: read_module(text, Origin("fuzz.rk")))


DICE_RACE_FILES = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "tests/packs/dice_race").iterdir()}


@settings(FUZZ, max_examples=max(10, EXAMPLES // 3))
@given(which=st.sampled_from(["game.toml", "rules.rk", "pack.toml"]), data=st.data())
def test_mutated_packs_load_and_play_or_raise_a_rules_error(tmp_path_factory: pytest.TempPathFactory,
                                                             which: str, data: st.DataObject) -> None:
    root = tmp_path_factory.mktemp("fuzzpack")
    sources = [DICE_RACE_FILES[which]] if which != "rules.rk" else [DICE_RACE_FILES[which]] + RK_SOURCES[:3]
    text = data.draw(mutated(sources))
    for name, original in DICE_RACE_FILES.items():
        # A lone surrogate the mutation made is written as the bytes it stands for: not UTF-8, as a file on
        # disk may be, and the pack must be refused with a rules error.
        (root / name).write_bytes((text if name == which else original).encode("utf-8", "surrogatepass"))

    def load_and_play() -> None:
        game = ruleskit.load(root)
        state = game.new_game(players=game.min_players, seed=0)
        for _ in range(10):
            if state.is_terminal:
                return
            state.apply(state.legal_actions()[0])

    assert_rules_error_only(load_and_play)


@FUZZ
@given(text=st.one_of(mutated(TOML_SOURCES), st.text(max_size=300)))
def test_toml_text_parses_or_raises_a_rules_error(text: str) -> None:
    assert_rules_error_only(lambda: parse_toml(text, "fuzz.toml"))


def test_the_seeds_are_real() -> None:
    assert len(RK_SOURCES) >= 5 and len(SNIPPETS) >= 50 and len(TOML_SOURCES) >= 5
    assert all(re.search(r"\brule\b|\bproc\b|\bhook\b", text) for text in RK_SOURCES)


OPHIR_FILES = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "games/ophir").iterdir())
               if p.suffix in (".toml", ".rk")}


@settings(FUZZ, max_examples=max(5, EXAMPLES // 8))
@given(which=st.sampled_from(sorted(n for n in OPHIR_FILES if n != "pack.toml")), data=st.data())
def test_mutated_ophir_files_load_and_play_or_raise_a_rules_error(tmp_path_factory: pytest.TempPathFactory,
                                                                   which: str, data: st.DataObject) -> None:
    root = tmp_path_factory.mktemp("fuzzophir")
    text = data.draw(mutated([OPHIR_FILES[which]]))
    for name, original in OPHIR_FILES.items():
        (root / name).write_text(text if name == which else original, encoding="utf-8")

    def load_and_play() -> None:
        game = ruleskit.load(root)
        state = game.new_game(players=3, seed=0)
        for _ in range(20):
            if state.is_terminal:
                return
            state.apply(state.legal_actions()[-1])

    assert_rules_error_only(load_and_play)
