"""Packs of very many or very long definitions: their chains of calls are checked without recursion, and the
compiled backend refuses code past `MAX_GENERATED_NODES` with a located error instead of taking minutes and
gigabytes to load."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import TINY_GAME, TINY_MANIFEST, line_of, write_pack
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


def _long_lists(files: int, lines: int) -> dict[str, str]:
    """`.rk` files, each a rule giving a list of 1,000 ones a line (2,000 tokens)."""
    return {f"list{k}.rk": f"rule ones{k}() = count([\n" + ("1, " * 1000 + "\n") * lines + "1])\n"
            for k in range(files)}


def test_a_pack_of_more_tokens_than_the_limit_is_refused_before_it_is_parsed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Twenty files of a list as long as a file may hold (four megabytes) took 67 s and 1.8 GB to parse before
    # the generated code's limit was met; the whole pack's text is counted as it is read, cache or not.
    from ruleskit.lang import parser

    monkeypatch.setattr(parser, "MAX_PACK_TOKENS", 9_000)
    files = _long_lists(3, 2)  # 4,000 tokens each: the third passes 9,000 at its first line of ones
    manifest = TINY_MANIFEST.replace('"rules.rk"]', '"rules.rk", ' + ", ".join(f'"{n}"' for n in files) + "]")
    root = write_pack(tmp_path / "lists", files=files, manifest=manifest, game=GO)
    for cache in (False, True, True):  # the second with the parse trees in the load cache
        for backend in BACKENDS:
            with pytest.raises(LanguageError, match="more than 9,000 tokens") as caught:
                ruleskit.load(root, backend=backend, cache=cache)
            assert caught.value.file is not None and caught.value.file.endswith("list2.rk")
            assert caught.value.line == 2


def test_toml_snippets_are_counted_against_the_token_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ruleskit.lang import parser

    monkeypatch.setattr(parser, "MAX_PACK_TOKENS", 300)
    effect = "\\n".join(["me.points += 0"] * 100 + ["end turn"])
    game = TINY_GAME.replace('effect = "me.points += double(1)\\nend turn"', f'effect = "{effect}"')
    root = write_pack(tmp_path / "snippet", game=game)
    with pytest.raises(LanguageError, match="more than 300 tokens") as caught:
        ruleskit.load(root, backend="closures", cache=False)
    assert caught.value.file is not None and caught.value.file.endswith("game.toml")
    assert caught.value.line == line_of(root / "game.toml", "effect =")


@pytest.mark.parametrize("pack", ["ophir", "nereus", "valdora", "navoria", "envoys", "connect_four"])
def test_every_built_in_pack_parses_a_tenth_of_the_token_limit(pack: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from ruleskit.lang import parser
    from ruleskit.limits import MAX_PACK_TOKENS

    monkeypatch.setattr(parser, "MAX_PACK_TOKENS", MAX_PACK_TOKENS // 10)
    assert ruleskit.load(pack, backend="closures", cache=False)


def test_each_snippet_costs_tokens_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Compiling a snippet takes about half a millisecond however short it is: a pack of a hundred thousand one-word
    # invariants held few tokens and took minutes to load.
    from ruleskit.lang import parser

    monkeypatch.setattr(parser, "MAX_PACK_TOKENS", 40 * parser.TEXT_TOKENS)
    game = TINY_GAME + "".join(f'\n[invariants.i{i}]\ncheck = "true"\n' for i in range(60))
    root = write_pack(tmp_path / "checks", game=game)
    with pytest.raises(LanguageError, match="tokens") as caught:
        ruleskit.load(root, backend="closures", cache=False)
    assert caught.value.file is not None and caught.value.file.endswith("game.toml")
    line = caught.value.line
    assert line is not None and (root / "game.toml").read_text().splitlines()[line - 1].startswith("check =")
