"""Packs of very many or very long definitions: their chains of calls are checked without recursion, and the
compiled backend refuses code past `MAX_GENERATED_NODES` with a located error instead of taking minutes and
gigabytes to load."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import TINY_GAME, line_of, write_pack
from test_call_frames import BACKENDS, outcome

import ruleskit
from ruleskit.errors import LanguageError
from ruleskit.lang import codegen
from ruleskit.limits import MAX_GENERATED_NODES

GO = TINY_GAME.replace("me.points += double(1)", "go()")
LENGTH = 1200  # longer than Python's default recursion limit (1000)

CHAINS = {
    "rules": "proc go() {\n    say r0(1)\n}\n" + "".join(f"rule r{i}(x) = r{i + 1}(x)\n" for i in range(LENGTH))
             + f"rule r{LENGTH}(x) = x\n",
    "procedures": "proc go() {\n    q0()\n}\n" + "".join(f"proc q{i}() {{ q{i + 1}() }}\n" for i in range(LENGTH))
                  + f"proc q{LENGTH}() {{ say 1 }}\n",
    "events": "proc go() {\n    emit e0()\n}\n" + "".join(f"hook h{i} on e{i}() {{ emit e{i + 1}() }}\n"
                                                       for i in range(LENGTH))
              + f"hook h{LENGTH} on e{LENGTH}() {{ say 1 }}\n",
    "modify hooks": "proc go() {\n    say r0(1)\n}\n" + "".join(
        f"rule r{i}(x) = x\nhook m{i} modify r{i}(x) = r{i + 1}(x)\n" for i in range(LENGTH))
        + f"rule r{LENGTH}(x) = x\n",
}


@pytest.mark.parametrize("kind", sorted(CHAINS))
def test_a_chain_longer_than_pythons_stack_loads_and_stops_at_the_nesting_limit(tmp_path: Path, kind: str) -> None:
    root = write_pack(tmp_path / "chain", game=GO, rules=CHAINS[kind])
    messages = [outcome(root, backend) for backend in BACKENDS]
    assert messages[0] == messages[1]
    assert "nesting limit of 48 calls exceeded" in messages[0]


def test_a_cycle_at_the_end_of_a_long_chain_is_still_recursion(tmp_path: Path) -> None:
    rules = CHAINS["procedures"].replace(f"proc q{LENGTH}() {{ say 1 }}", f"proc q{LENGTH}() {{ q7() }}")
    root = write_pack(tmp_path / "cycle", game=GO, rules=rules)
    for backend in BACKENDS:
        with pytest.raises(LanguageError, match="recurs"):
            ruleskit.load(root, backend=backend, cache=False)


def long_procedure(statements: int) -> str:
    return "rule double(x) = x * 2\n\nproc go() {\n" + "    me.points += 0\n" * statements + "}\n"


def test_code_past_the_limit_is_refused_at_the_definition_that_passed_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codegen, "MAX_GENERATED_NODES", 5_000)
    root = write_pack(tmp_path / "long", game=GO, rules=long_procedure(400))
    with pytest.raises(LanguageError, match="too large to compile") as caught:
        ruleskit.load(root, backend="compiled", cache=False)
    assert caught.value.file is not None and caught.value.file.endswith("rules.rk")
    assert caught.value.line == line_of(root / "rules.rk", "proc go()")
    assert "proc go" in caught.value.message
    # The reference backend makes no Python code: the limit is the generated code's.
    assert ruleskit.load(root, backend="closures", cache=False).new_game(players=2, seed=1)


def test_a_snippet_that_passes_the_limit_is_named_by_its_own_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codegen, "MAX_GENERATED_NODES", 5_000)
    effect = "\\n".join(["me.points += 0"] * 400 + ["end turn"])
    game = TINY_GAME.replace('effect = "me.points += double(1)\\nend turn"', f'effect = "{effect}"')
    root = write_pack(tmp_path / "snippet", game=game)
    with pytest.raises(LanguageError, match="too large to compile") as caught:
        ruleskit.load(root, backend="compiled", cache=False)
    assert caught.value.file is not None and caught.value.file.endswith("game.toml")
    assert caught.value.line == line_of(root / "game.toml", "effect =")


def test_ten_thousand_statements_are_refused_under_the_real_limit(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "huge", game=GO, rules=long_procedure(10_000))
    with pytest.raises(LanguageError, match=f"passed {MAX_GENERATED_NODES:,} syntax nodes"):
        ruleskit.load(root, backend="compiled", cache=False)


@pytest.mark.parametrize("pack", ["ophir", "nereus", "valdora", "navoria", "envoys", "connect_four"])
def test_every_built_in_pack_is_well_under_the_limit(pack: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codegen, "MAX_GENERATED_NODES", MAX_GENERATED_NODES // 4)
    assert ruleskit.load(pack, backend="compiled", cache=False).code
