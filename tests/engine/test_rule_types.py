"""A rule's result type: inferred from its body or declared, and used where the rule is called."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import TINY_GAME, line_of, write_pack

import ruleskit
from ruleskit.errors import PackError

BACKENDS = ["closures", "compiled"]

GIFTS = TINY_GAME.replace("[end.enough]", '''[actions.gift]
stage = "main"
params = { to = "rivals()" }
effect = "to.points += 1\\nend turn"

[actions.pick]
stage = "main"
effect = "let q = choose me from rivals() prompt \\"Who?\\"\\nq.points += 1\\nend turn"

[end.enough]''')

# `rivals` is written after the rule that calls it: the order must not matter.
RIVAL_RULES = """\
rule double(x) = x * 2
rule first_rival() = rivals()[0]
rule rivals() = [p for p in players if p != me]
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_parameter_over_a_rule_giving_players_shows_their_names(tmp_path: Path, backend: str) -> None:
    game = ruleskit.load(write_pack(tmp_path, game=GIFTS, rules=RIVAL_RULES), backend=backend)
    state = game.new_game(players=2, seed=1)
    labels = {action.id: action.label for action in state.legal_actions()}
    assert labels["gift:1"] == "gift (Player 2)"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_choice_over_a_rule_giving_players_shows_their_names(tmp_path: Path, backend: str) -> None:
    game = ruleskit.load(write_pack(tmp_path, game=GIFTS, rules=RIVAL_RULES), backend=backend)
    state = game.new_game(players=2, seed=1)
    state.apply("pick")
    assert [(action.id, action.label) for action in state.legal_actions()] == [("1", "Player 2")]
    state.apply("1")
    assert state.data["pv"][1]["points"] == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_field_reads_through_a_rule_are_checked_at_load(tmp_path: Path, backend: str) -> None:
    rules = RIVAL_RULES + "rule rival_score() = first_rival().pointz\n"
    root = write_pack(tmp_path, rules=rules)
    with pytest.raises(PackError) as caught:
        ruleskit.load(root, backend=backend)
    error = caught.value
    assert "pointz" in str(error) and "points" in str(error)
    assert error.file is not None and error.file.endswith("rules.rk")
    assert error.line == line_of(root / "rules.rk", "rival_score")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_declared_result_type_is_used_and_checked(tmp_path: Path, backend: str) -> None:
    rules = "rule double(x): int = x * 2\nrule rivals(): list[player] = [p for p in players if p != me]\n"
    game = ruleskit.load(write_pack(tmp_path, game=GIFTS, rules=rules), backend=backend)
    assert {a.id: a.label for a in game.new_game(players=2, seed=1).legal_actions()}["gift:1"] == "gift (Player 2)"

    wrong = "rule double(x) = x * 2\n\nrule rivals(): list[int] = [p for p in players if p != me]\n"
    root = write_pack(tmp_path / "wrong", game=GIFTS, rules=wrong)
    with pytest.raises(PackError) as caught:
        ruleskit.load(root, backend=backend)
    assert "declares it gives list[int], but its body gives a value of type list[player]" in str(caught.value)
    assert caught.value.line == 3


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("written, inner", [("plaer", "plaer"), ("list[plaer]", "plaer"), ("list[list]", "list")])
def test_an_unknown_declared_type_is_an_error_with_a_hint(tmp_path: Path, backend: str, written: str,
                                                          inner: str) -> None:
    root = write_pack(tmp_path, rules=f"rule double(x): {written} = x * 2\n")
    with pytest.raises(PackError) as caught:
        ruleskit.load(root, backend=backend)
    assert f"unknown result type '{written}'" in str(caught.value)
    assert caught.value.line == 1
    if inner == "plaer":
        assert "player" in (caught.value.hint or "")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_modifier_must_give_the_rules_type(tmp_path: Path, backend: str) -> None:
    rules = RIVAL_RULES + 'hook odd modify double(x) when x > 5 = "many"\n'
    root = write_pack(tmp_path, rules=rules)
    with pytest.raises(PackError) as caught:
        ruleskit.load(root, backend=backend)
    assert "hook 'odd' modifies rule 'double', which gives int, with a value of type str" in str(caught.value)
    assert caught.value.line == line_of(root / "rules.rk", "hook odd")

    fine = RIVAL_RULES + "hook more modify double(x) when x > 0 = base + 1\n"
    game = ruleskit.load(write_pack(tmp_path / "fine", rules=fine), backend=backend)
    state = game.new_game(players=2, seed=1)
    state.apply("score")
    assert state.data["pv"][0]["points"] == 3
