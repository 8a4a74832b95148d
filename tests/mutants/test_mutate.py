"""Mutation testing on a toy pack, and the Ophir mutant corpus as data."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from ruleskit.cli import main
from ruleskit.game import load
from ruleskit.mutation.edits import Edit, Mutant, apply_edits, load_corpus, mutant_copy
from ruleskit.mutation.killing import describe_checks
from ruleskit.mutation.operators import generate
from ruleskit.mutation.scoring import INVALID, KILLED, NO_DIFFERENCE, SURVIVED, score_mutants, try_mutant

HERE = Path(__file__).resolve().parent
BUY = HERE / "packs" / "buy_points"
CORPUS = HERE / "ophir.toml"
REPO = HERE.parent.parent


def _find(mutants: list[Mutant], operator: str, line_text: str) -> Mutant:
    found = [m for m in mutants if m.operator == operator and line_text in m.description]
    assert len(found) == 1, [m.description for m in mutants]
    return found[0]


def test_operators_make_the_changes_authors_slip_into() -> None:
    mutants = generate(load(BUY))
    operators = {m.operator for m in mutants}
    assert {"number +1", "number -1", "comparison flipped", "when removed", "cost removed"} <= operators
    cost = _find(mutants, "number -1", "cost = { coins = 2 }")
    assert cost.where == "game.toml:23"
    assert all(m.file == "game.toml" for m in mutants)  # pack.toml and comments are never mutated


def test_a_rule_no_check_pins_down_survives_until_a_check_states_it(tmp_path: Path) -> None:
    pack = tmp_path / "buy_points"
    shutil.copytree(BUY, pack)
    game = load(pack)
    cheaper = _find(generate(game), "number -1", "cost = { coins = 2 }")
    outcome = try_mutant(game, cheaper, seconds=60, lockstep_seconds=30, games=6)
    # The mutant changes the game (a buy leaves 4 coins, not 3) and the pack's one invariant does not notice.
    assert outcome.status == SURVIVED
    assert "players[0].coins: 4 != 3" in outcome.witness
    # A check stating the rule (each point cost 2 of the 5 coins) kills it.
    with open(pack / "checks.toml", "a", encoding="utf-8") as handle:
        handle.write('\n[invariants.coins_paid]\ncheck = "all([p.coins + 2 * p.points == 5 for p in players])"\n'
                     'message = "each point cost 2 of the 5 starting coins"\n')
    game = load(pack)
    cheaper = _find(generate(game), "number -1", "cost = { coins = 2 }")
    outcome = try_mutant(game, cheaper, seconds=60, lockstep_seconds=30, games=6)
    assert outcome.status == KILLED and outcome.verdict is not None
    assert outcome.verdict.by == "invariant coins_paid"


def test_equivalent_and_invalid_mutants_are_not_counted() -> None:
    game = load(BUY)
    mutants = generate(game)
    # Coins go 5, 3, 1: buying at 3 or more instead of 2 or more changes nothing.
    same = _find(mutants, "number +1", 'when = "me.coins >= 2"')
    broken = Mutant("X1", "an unknown name", (Edit("game.toml", 'score = "p.points"', 'score = "p.pointz"'),))
    report = score_mutants(game, [same, broken], seconds=10, lockstep_seconds=2, games=2)
    assert [o.status for o in report.outcomes] == [NO_DIFFERENCE, INVALID]
    assert report.score is None and "0 killed" in report.summary()


def test_the_command_lists_survivors_with_file_and_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", str(BUY), "--limit", "6", "--seed", "3", "--time", "5s", "--lockstep-time", "2s",
                 "-q"]) == 0
    out = capsys.readouterr().out
    assert "mutation score" in out and "mutants tried of 22" in out
    for line in out.splitlines():
        if line.startswith("a rule no check pins down"):
            assert "game.toml:" in line
    assert main(["mutate", str(BUY), "--list"]) == 0
    assert "M0001 game.toml:3" in capsys.readouterr().out


def test_the_command_refuses_a_pack_whose_own_tests_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A scenario test that fails on the pack itself caught every mutant: the score read 100%."""
    pack = tmp_path / "buy_points"
    shutil.copytree(BUY, pack)
    (pack / "tests").mkdir()
    (pack / "tests" / "wrong.toml").write_text('players = 2\n[expect]\nchecks = ["1 == 2"]\n', encoding="utf-8")
    assert main(["mutate", str(pack), "--limit", "2", "--time", "2s", "--lockstep-time", "1s", "-q"]) == 1
    out, err = capsys.readouterr()
    assert "mutation score" not in out
    assert "the pack's own scenario tests fail on the pack itself" in err and "wrong.toml:3: failed" in err


def test_the_checks_listed_count_the_scenario_tests_that_run(tmp_path: Path) -> None:
    """Tests in a subfolder of tests/ run against every mutant but were left out of the checks listed."""
    pack = tmp_path / "buy_points"
    shutil.copytree(BUY, pack)
    (pack / "tests" / "more").mkdir(parents=True)
    (pack / "tests" / "more" / "start.toml").write_text('players = 2\n[expect]\nchecks = ["1 == 1"]\n',
                                                        encoding="utf-8")
    assert "1 scenario test files" in describe_checks(load(pack))


@pytest.mark.parametrize("out", ["missing/outcomes.jsonl", "."])
def test_the_command_refuses_an_out_file_it_cannot_write_before_any_mutant(
        out: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing folder or a folder named as --out failed after the first mutant had run its minutes."""
    import ruleskit.mutation.scoring as scoring

    def no_mutants(*args: object, **kwargs: object) -> None:
        raise AssertionError("a mutant was tried")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(scoring, "score_mutants", no_mutants)
    assert main(["mutate", str(BUY), "--limit", "1", "--out", out, "-q"]) == 1
    assert "--out" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--time", "--lockstep-time"])
def test_the_command_refuses_a_budget_of_nothing(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", str(BUY), "--limit", "1", option, "0", "-q"]) == 1
    assert "a duration must be more than nothing, not '0'" in capsys.readouterr().err


def test_edits_apply_once_or_fail(tmp_path: Path) -> None:
    (tmp_path / "f.rk").write_text("a b a")
    with pytest.raises(Exception, match="occurs 2 times"):
        apply_edits(tmp_path, [Edit("f.rk", "a", "c")])
    apply_edits(tmp_path, [Edit("f.rk", "a", "c", at=4)])
    assert (tmp_path / "f.rk").read_text() == "a b c"


def test_the_ophir_corpus_is_at_least_20_mutants_each_passing_check() -> None:
    mutants = load_corpus(CORPUS)
    assert len(mutants) >= 20
    assert len({m.id for m in mutants}) == len(mutants)
    ophir = load("ophir", backend="closures")
    for mutant in mutants:
        assert mutant.description and mutant.rule, mutant.id
        copy = mutant_copy(ophir.source.root, mutant, name=f"ophir-{mutant.id}")
        try:
            game = load(copy, backend="closures")
            assert game.name == f"ophir-{mutant.id}"
            changed = [e.file for e in mutant.edits]
            assert any((copy / f).read_text() != (ophir.source.root / f).read_text() for f in changed)
        finally:
            shutil.rmtree(copy.parent)


@pytest.mark.skipif(not os.environ.get("RULESKIT_SLOW"), reason="the full corpus run takes long: RULESKIT_SLOW=1")
def test_every_corpus_mutant_is_caught_by_a_lockstep_run() -> None:
    from ruleskit.mutation.killing import differential

    ophir = load("ophir")
    for mutant in load_corpus(CORPUS):
        copy = mutant_copy(ophir.source.root, mutant)
        started = time.monotonic()
        try:
            verdict = differential(copy, ophir, 120)
        finally:
            shutil.rmtree(copy.parent)
        assert verdict.killed, (mutant.id, time.monotonic() - started)


ENDLESS_GAME = """\
[vars.total]
type = "int"
max = 100000

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 1000000000

[actions.tick]
stage = "main"
label = "Tick"
effect = "set total = total + 1\\nend turn"

[invariants.short]
check = "total < 20000"

[scoring]
score = "total"
"""


def test_the_checks_of_a_mutant_stop_a_game_that_does_not_end_at_the_budget(tmp_path: Path) -> None:
    # One round in three plays its game to the end: with max_turns of a billion it ran for hours past --time,
    # here until the invariant at decision 20,000 fails (the clock given never moves: only the budget stops it).
    from ruleskit.mutation.killing import own_checks

    pack = tmp_path / "endless"
    pack.mkdir()
    (pack / "pack.toml").write_text('name = "endless"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                    'files = ["game.toml"]\n', encoding="utf-8")
    (pack / "game.toml").write_text(ENDLESS_GAME, encoding="utf-8")
    verdict = own_checks(pack, 0.3, games=3, cut_at=10, clock=lambda: 0.0)
    assert not verdict.killed, verdict.detail
    assert verdict.games == 3
