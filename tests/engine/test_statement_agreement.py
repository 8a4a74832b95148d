"""Statements the two backends once ran differently, found by differential fuzzing of effects: each case runs
under both and must give the same state and messages, or the same located error.

- `owner.field += value` reads the field (and checks its owner) before working out `value`; the generated code
  worked `value` out first, so its error came first.
- A target through a field of none (`who.pawn.hp -= 1`, `who` none) is "cannot read '.pawn' of none"; the
  reference read on to an item `pawn_None`.
- A value typed `player`, an item kind or a list of them is checked where it gets its type: a var written, a
  parameter given (a `modify` hook's own parameters too), a declared result returned. Unchecked, `g(7)` and `set who = 7` read past the seats (a
  Python IndexError in both backends) or, at -1, wrote the last player's score.
- `draw 1 from S to S` with one piece in S turns it no times: the generated code drew and put back the piece,
  testing the capacity (refused when the stack was over it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import PackError, RulesError

MANIFEST = """\
name = "statement-agreement"
version = "0.1"
players = { min = 2, max = 2 }
files = ["game.toml", "rules.rk"]
"""

GAME = """\
[kinds.tok]
vars.cnt = { type = "int" }
vars.av = { type = "any" }
items.t1 = {}

[kinds.pawn]
per_player = true
vars.hp = { type = "int", start = 4 }

[kinds.card]
fields = { rank = "int" }
items = { c1 = { rank = 1 }, c2 = { rank = 2 } }

[counters.score]
owner = "player"
start = 3

[zones.hand]
owner = "player"

[zones.deck]
of = "card"
start = ["c1"]
capacity = "count(card)"

[zones.full]
of = "card"
start = ["c1"]
capacity = "n"

[zones.pile]
of = "card"
start = ["c1"]
capacity = "1 // n"

[vars.a]
type = "any"

[vars.n]
type = "int"

[vars.who]
type = "player"

[vars.ps]
type = "list[player]"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"

%(actions)s

[scoring]
score = "0"
"""

RULES = """\
rule rank_of(c: card) = c.rank
rule score_of(p: player) = p.score
rule as_player(x): player = x
rule total(ps: list[player]) = sum([q.score for q in ps])
proc raise_score(p: player) { p.score += 1 }
proc set_score(p: player) { set p.score = 9 }
rule bonus(p) = 1
hook added modify bonus(p: player) = base + p.score
"""

EFFECTS = {
    # the field's owner is checked before the value is worked out
    "seat_before_value": "let x = 5\\nx.score += [1][3]",
    "number_before_value": "t1.av += [1][3]",
    "owner_before_division": "let x = a\\nx.cnt -= 1 // 0",
    "owner_before_budget": "let x = a\\nx.cnt += count(flatten([range(10000) for i in range(20)]))",
    "good_field_update": "t1.cnt += 2\\nt1.cnt -= 5\\nsay t1.cnt",
    # a target through none
    "through_none_update": "who.pawn.hp -= 1",
    "through_none_set": "set who.pawn.hp = 1",
    "through_none_read": "say who.pawn.hp",
    # typed values
    "parameter_past_the_seats": "raise_score(7)",
    "parameter_negative": "raise_score(-1)",
    "set_through_negative": "set_score(-1)",
    "rule_parameter": "say score_of(7)",
    "kind_parameter_text": 'say rank_of(\\"x\\")',
    "kind_parameter_number": "set a = 5\\nsay rank_of(a)",  # of no type known at load (`rank_of(5)` is refused there)
    "kind_parameter_none": "say rank_of(none)",
    "declared_result": "say as_player(7).score",
    "var_past_the_seats": "set who = 7\\nsay who.score",
    "var_negative": "set who = -1\\nsay who.score",
    "var_zone": "set who = 5\\nsay count(who.hand)",
    "list_var": "set ps = [0, 7]\\nfor q in ps {\\n    say q.score\\n}",
    "list_parameter": "say total([0, 1, 7])",
    "modifier_parameter": "say bonus(7)",
    "good_modifier": "say bonus(1)",
    "good_typed_values": "raise_score(1)\\nset who = 1\\nset ps = [0, 1]\\nsay total(ps) + rank_of(c2) + as_player(0).score",
    # a draw of one piece into its own stack
    "draw_into_itself": "draw 1 from deck to deck\\nsay count(deck)",
    "draw_into_itself_over_capacity": "draw 1 from full to full\\nsay count(full)",
    "draw_into_itself_bad_capacity": "draw 1 from pile to pile top\\nsay count(pile)",
}

ERRORS = {
    "seat_before_value": "5 is not a player (the players are 0 to 1)",
    "number_before_value": "expected a number, got None",
    "owner_before_division": "none has no variable 'cnt'",
    "owner_before_budget": "none has no variable 'cnt'",
    "through_none_update": "cannot read '.pawn' of none",
    "through_none_set": "cannot read '.pawn' of none",
    "through_none_read": "cannot read '.pawn' of none",
    "parameter_past_the_seats": "parameter 'p' is a player, not 7 (the players are 0 to 1) in proc raise_score",
    "parameter_negative": "parameter 'p' is a player, not -1 (the players are 0 to 1) in proc raise_score",
    "set_through_negative": "parameter 'p' is a player, not -1",
    "rule_parameter": "parameter 'p' is a player, not 7 (the players are 0 to 1) in rule score_of",
    "kind_parameter_text": "parameter 'c' is an item of kind 'card', not 'x' in rule rank_of",
    "kind_parameter_number": "parameter 'c' is an item of kind 'card', not 5 in rule rank_of",
    "kind_parameter_none": "cannot read '.rank' of none in rule rank_of",
    "declared_result": "its result is a player, not 7 (the players are 0 to 1) in rule as_player",
    "var_past_the_seats": "7 is not a player (the players are 0 to 1)",
    "var_negative": "-1 is not a player (the players are 0 to 1)",
    "var_zone": "5 is not a player (the players are 0 to 1)",
    "list_var": "'ps' holds a list of player, not one holding 7",
    "list_parameter": "parameter 'ps' is a list of player, not [0, 1, 7] in rule total",
    "modifier_parameter": "parameter 'p' is a player, not 7 (the players are 0 to 1) in hook added",
}

SAID = {
    "good_field_update": ["-3"],
    "good_typed_values": [str(3 + 4 + 2 + 3)],
    "good_modifier": ["4"],
    "draw_into_itself": ["1"],
    "draw_into_itself_over_capacity": ["1"],
    "draw_into_itself_bad_capacity": ["1"],
}


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("statement-agreement")
    actions = "\n".join(f'[actions.{name}]\nstage = "main"\neffect = "{effect}"\n' for name, effect in EFFECTS.items())
    (folder / "pack.toml").write_text(MANIFEST, encoding="utf-8")
    (folder / "game.toml").write_text(GAME % {"actions": actions}, encoding="utf-8")
    (folder / "rules.rk").write_text(RULES, encoding="utf-8")
    return folder


def outcome(pack: Path, backend: str, action: str) -> tuple[str, object]:
    state = ruleskit.load(pack, backend=backend, cache=False).new_game(players=2, seed=1)
    before = state.to_json()
    try:
        state.apply(action)
    except RulesError as exc:
        assert state.to_json() == before
        return "error", str(exc)
    return "said", (state.messages, state.to_json()["data"])


@pytest.mark.parametrize("action", sorted(EFFECTS))
def test_both_backends_run_the_statement_alike(pack: Path, action: str) -> None:
    compiled, closures = (outcome(pack, backend, action) for backend in ("compiled", "closures"))
    assert compiled == closures
    if action in ERRORS:
        assert compiled[0] == "error" and ERRORS[action] in str(compiled[1]), compiled
    else:
        assert compiled[0] == "said" and compiled[1][0] == SAID[action], compiled  # type: ignore[index]


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_a_number_for_a_kind_parameter_is_refused_at_load(tmp_path: Path, backend: str) -> None:
    (tmp_path / "pack.toml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "game.toml").write_text(GAME % {"actions": '[actions.x]\nstage = "main"\neffect = "say rank_of(5)"\n'},
                                        encoding="utf-8")
    (tmp_path / "rules.rk").write_text(RULES, encoding="utf-8")
    with pytest.raises(PackError, match="rule 'rank_of' takes c: card, not a value of type int") as caught:
        ruleskit.load(tmp_path, backend=backend, cache=False)
    assert caught.value.line is not None and Path(caught.value.file or "").name == "game.toml"
