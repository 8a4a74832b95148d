"""The generated code against the closure backend: the same games, values and errors.

`ruleskit.load(pack, backend="closures")` builds the reference: every
expression a tree of closures, as the language was first compiled. The default
backend generates Python code. For every built-in pack, toy pack and variant,
random games are played under both with the same seeds and choices, and every
legal set, chance outcome, message, state and result must agree. The
LANGUAGE.md examples and the bad-pack corpus must give the same values and the
same located errors.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import ruleskit
from ruleskit.errors import RulesError
from ruleskit.game import GameBuilder
from ruleskit.lang.parser import Origin
from ruleskit.packs import PackReader
from ruleskit.runtime.context import Ctx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "docs"))
sys.path.insert(0, str(ROOT / "tests" / "hostile"))

from test_bad_packs import CASES, cpu_limit, exercise, expected  # noqa: E402
from test_language_examples import ALL, SAMPLER, _expr_lines  # noqa: E402

PACKS = ["ophir", *(str(p) for p in sorted((ROOT / "tests" / "packs").iterdir()) if (p / "pack.toml").exists()),
         *(str(p) for p in sorted((ROOT / "examples" / "variants").iterdir()) if (p / "pack.toml").exists())]
GAMES = int(os.environ.get("RULESKIT_BACKEND_GAMES", "2"))


def _play(game: ruleskit.Game, players: int, seed: int) -> list[Any]:
    """A random game, recorded step by step: whose decision, the legal ids, the messages."""
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    record: list[Any] = [state.history[0]]
    while not state.is_terminal:
        legal = state.legal_actions()
        record.append((state.current_player, state.prompt, [(a.id, a.label, a.player) for a in legal]))
        state.apply(chooser.choice(legal))
        record.append((state.history[-1], state.messages))
    record.append((state.result, state.raw))
    return record


@pytest.mark.parametrize("pack", PACKS, ids=[Path(p).name for p in PACKS])
def test_random_games_agree(pack: str) -> None:
    compiled, closures = ruleskit.load(pack, backend="compiled"), ruleskit.load(pack, backend="closures")
    assert compiled.backend == "compiled" and closures.backend == "closures"
    for players in range(compiled.min_players, min(compiled.max_players, 4) + 1):
        for seed in range(GAMES):
            fast, reference = _play(compiled, players, seed), _play(closures, players, seed)
            assert len(fast) == len(reference)
            for step, (got, want) in enumerate(zip(fast, reference, strict=True)):
                assert got == want, f"{pack} {players} players seed {seed}: first difference at step {step}"


@pytest.mark.parametrize("example", [e for e in ALL if e.kind == "expr"], ids=str)
def test_language_examples_give_the_same_values(example: Any) -> None:
    values = []
    for backend in ("compiled", "closures"):
        builder = GameBuilder(PackReader().read(SAMPLER), backend)
        game = builder.build()
        state = game.new_game(players=2, seed=1)
        row = []
        for line, code, _ in _expr_lines(example):
            fn = builder.compiler.expr(code, Origin("LANGUAGE.md", line), None, "example")
            try:
                row.append(fn(Ctx(builder.compiler.program, state.raw, 0)))
            except RulesError as exc:
                row.append(("error", str(exc)))
        values.append(row)
    assert values[0] == values[1]


def _outcome(folder: Path, load: str) -> str:
    try:
        with cpu_limit(2.0):
            exercise(folder, load)
    except RulesError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "no error"


@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_bad_packs_fail_alike(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load = expected(folder).get("load", "pack")
    outcomes = []
    for backend in ("compiled", "closures"):
        monkeypatch.setenv("RULESKIT_BACKEND", backend)
        outcomes.append(_outcome(folder, load))
    assert outcomes[0] == outcomes[1]


GOLDEN = Path(__file__).resolve().parent / "golden" / "dice_race.py.txt"


def test_generated_code_of_a_small_pack_is_as_recorded() -> None:
    """The code generated for dice_race, read by a person once; regenerate with RULESKIT_GOLDEN=1."""
    code = ruleskit.load(ROOT / "tests" / "packs" / "dice_race", backend="compiled").code
    if os.environ.get("RULESKIT_GOLDEN"):
        GOLDEN.write_text(code, encoding="utf-8")
    assert code == GOLDEN.read_text(encoding="utf-8")


@pytest.mark.parametrize("pack", ["connect_four", "envoys", "ophir"])
def test_generated_code_names_no_value_it_does_not_read_again(pack: str) -> None:
    # `(x := value)` is kept only where x is read: a name no code reads costs a store at every evaluation.
    import ast

    for function in ast.walk(ast.parse(ruleskit.load(pack).code)):
        if isinstance(function, ast.FunctionDef):
            nodes = list(ast.walk(function))
            read = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            named = {n.target.id for n in nodes if isinstance(n, ast.NamedExpr)}  # type: ignore[union-attr]
            assert named <= read, (function.name, named - read)


def test_generated_code_reaches_no_python_builtin() -> None:
    game = ruleskit.load("ophir")
    for token in ("import", "__", "eval", "exec", "open(", "getattr", "globals"):
        assert token not in game.code


def test_compile_command_prints_and_writes_the_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ruleskit.cli import main

    pack = str(ROOT / "tests" / "packs" / "dice_race")
    out = tmp_path / "dice_race.py"
    assert main(["compile", pack, "--emit", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed == ruleskit.load(pack, backend="compiled").code == out.read_text(encoding="utf-8")
    assert "def rule_" in printed and "def hook_" in printed
    assert main(["compile", pack]) == 0
    assert "generated functions" in capsys.readouterr().out


def test_compile_command_shows_a_function_too_deep_to_print(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    # A sum of 150 calls, each checked for overflow, nests deeper than `ast.unparse` can recurse: the code
    # is compiled and runs, and the listing shows that function's signature alone.
    from engine_support import TINY_GAME, write_pack

    from ruleskit.cli import main

    rules = "rule b(a) = a * 2\nrule q(a) = " + " + ".join("b(a)" for _ in range(150)) + "\n"
    game = TINY_GAME.replace("me.points += double(1)", "me.points += q(1) - 299")
    pack = write_pack(tmp_path / "long_sum", game=game, rules=rules)
    assert main(["compile", str(pack), "--emit"]) == 0
    printed = capsys.readouterr().out
    assert "nested too deeply to print as Python source" in printed and "def rule_b_" in printed
    state = ruleskit.load(pack, cache=False).new_game(players=2, seed=1)
    state.apply(state.legal_actions()[0])
    assert state.data["pv"][0]["points"] == 1


def test_compiled_code_keeps_pack_text_out_of_its_comments(tmp_path: Path) -> None:
    # A line break in the version or an action's name ended the comment naming it, and the rest of the line was
    # Python code in the listing that `compile --emit` prints.
    import ast

    from engine_support import TINY_GAME, TINY_MANIFEST, write_pack

    injected = "\\nINJECTED = 1\\r#"
    manifest = TINY_MANIFEST.replace('version = "0.1"', f'version = "0.1{injected}"')
    game = TINY_GAME.replace("[actions.score]", f'[actions."score{injected}"]')
    pack = write_pack(tmp_path / "broken_lines", manifest=manifest, game=game)
    code = ruleskit.load(pack, backend="compiled", cache=False).code
    names = {node.id for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Name)}
    assert "INJECTED" not in names
    assert "# action score\\nINJECTED = 1\\r# (" in code
