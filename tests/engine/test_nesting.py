"""The nesting count left out of generated code where no chain of calls can come near the limit
(ruleskit/lang/nesting.py), and kept wherever one might."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from engine_support import TINY_GAME, write_pack
from test_call_frames import BACKENDS, chain, outcome

import ruleskit
from ruleskit.lang.nesting import SHALLOW, longest_chain, strip_nesting_counts
from ruleskit.runtime.context import MAX_DEPTH


def counts_nesting(code: str) -> bool:
    """Whether generated code counts or tests the nesting depth (a choice still saves and restores it whole)."""
    return any(f"ctx.depth {op}" in code for op in ("+=", "-=", ">", "<")) or \
        re.search(r"(?<!\w)depth = ctx\.depth\n", code) is not None


def test_the_longest_chain_counts_definitions_only() -> None:
    calls = {
        "action go effect": {"proc:a"},
        "proc:a": {"rule:b", "event:moved"},
        "event:moved": {"hook:h"},
        "hook:h": {"rule:c"},
        "rule:c": {"rule:b"},
        "rule:b": set(),
    }
    assert longest_chain(calls) == 4  # a, h, c, b: neither the effect nor the event is a level
    assert longest_chain({}) == 0
    assert longest_chain({"action x when": set()}) == 0


def test_the_longest_chain_of_a_hostile_length_is_worked_out_without_recursion() -> None:
    calls = {f"rule:r{i}": {f"rule:r{i - 1}"} for i in range(1, 20000)}
    assert longest_chain(calls) == 20000


def test_stripping_leaves_the_rest_of_a_function() -> None:
    source = (
        "def f(ctx):\n"
        "    ctx.depth += 1\n"
        "    if ctx.depth > 48:\n"
        "        ctx.too_deep('here')\n"
        "    depth = ctx.depth\n"
        "    try:\n"
        "        x = 1\n"
        "        for i in y:\n"
        "            if ctx.depth >= 48:\n"
        "                ctx.depth += 1\n"
        "                ctx.too_deep('there')\n"
        "            x += i\n"
        "    finally:\n"
        "        ctx.depth = depth\n"
        "    try:\n"
        "        z = 2\n"
        "    except Return:\n"
        "        pass\n"
        "    ctx.depth -= 1\n"
        "    return x\n"
    )
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    strip_nesting_counts(function)
    assert ast.unparse(function) == (
        "def f(ctx):\n    x = 1\n    for i in y:\n        x += i\n    try:\n        z = 2\n    except Return:\n"
        "        pass\n    return x"
    )


@pytest.mark.parametrize("pack", ["connect_four", "envoys", "ophir", "nereus", "valdora", "navoria"])
def test_the_built_in_packs_count_no_nesting(pack: str) -> None:
    assert not counts_nesting(ruleskit.load(pack).code)


def test_a_chain_as_long_as_the_shallow_bound_counts_nothing_and_plays_the_same(tmp_path: Path) -> None:
    game = TINY_GAME.replace("me.points += double(1)", f"me.points += r{SHALLOW - 1}() - {SHALLOW - 1}")
    # The effect's chain: `r{SHALLOW - 1}` down to `r0`, SHALLOW levels (the effect itself is none).
    root = write_pack(tmp_path / "short", game=game, rules=chain("r", SHALLOW, "1"))
    assert not counts_nesting(ruleskit.load(root, backend="compiled", cache=False).code)
    results = [outcome(root, backend) for backend in BACKENDS]
    assert results[0] == results[1] and results[0].startswith("result ")


def test_a_longer_chain_keeps_its_count_and_its_error(tmp_path: Path) -> None:
    game = TINY_GAME.replace("me.points += double(1)", f"me.points += r{MAX_DEPTH + 4}() - {MAX_DEPTH + 4}")
    root = write_pack(tmp_path / "long", game=game, rules=chain("r", MAX_DEPTH + 5, "1"))
    assert counts_nesting(ruleskit.load(root, backend="compiled", cache=False).code)
    messages = [outcome(root, backend) for backend in BACKENDS]
    assert messages[0] == messages[1]
    assert f"nesting limit of {MAX_DEPTH} calls exceeded" in messages[0]


def test_a_chain_just_past_the_shallow_bound_keeps_its_count(tmp_path: Path) -> None:
    game = TINY_GAME.replace("me.points += double(1)", f"me.points += r{SHALLOW}() - {SHALLOW}")
    root = write_pack(tmp_path / "past", game=game, rules=chain("r", SHALLOW + 1, "1"))
    assert counts_nesting(ruleskit.load(root, backend="compiled", cache=False).code)
