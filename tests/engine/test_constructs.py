"""Constructs checked on a small pack of gadgets: capacities with piece sizes, counter bounds,
`require`, action limits, stage entry, turn orders, automatic passing, chance, the step budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engine_support import line_of, write_pack

import ruleskit
from ruleskit.errors import BudgetExceeded, IllegalAction, LanguageError, PackError

MANIFEST = """\
name = "gadgets"
version = "0.1"
players = { min = 2, max = 3 }
files = ["game.toml", "rules.rk"]
"""

GAME = """\
[kinds.token]
fields = { size = "int" }
items.pebble = { size = 1 }
items.boulder = { size = 3 }

[zones.heap]
type = "pool"
of = "token"
start = { pebble = 10, boulder = 2 }

# Each box holds 2 (more with a bonus), by size.
[zones.box]
type = "pool"
of = "token"
owner = "player"
capacity = "2 + me.bonus"
size = "size"

[counters.coins]
owner = "player"
start = 2
min = 0

[counters.soft]
owner = "player"
min = 0
below_min = "clamp"

[counters.strict]
owner = "player"
max = 3
above_max = "error"

[counters.bonus]
owner = "player"

[counters.moves]
owner = "turn"

[vars.secret]
visible = "none"
start = 7

[vars.goal]
start = 100

[dice.coin]
faces = [0, 1]

[stages.main]
[stages.idle]
[stages.side]
on_enter = "moves += 10"

[phases.one]
stage = "main"
order = "counterclockwise"
first = "player_count - 1"
rounds = 2
next = "two"

[phases.two]
stage = "main"
first = "0"

[flow]
start = "one"
max_turns = 12

[actions.grab]
stage = "main"
params = { t = "[pebble, boulder]" }
effect = "move 1 of t from heap to me.box"

[actions.spend]
stage = "main"
effect = "me.coins -= 3"

[actions.drain]
stage = "main"
effect = "me.soft -= 5"

[actions.pump]
stage = "main"
effect = "me.strict += 5"

[actions.insist]
stage = "main"
effect = 'require me.coins > 5, "you need more than five coins"'

[actions.peek]
stage = "main"
limit = { visit = 1 }
effect = "moves += 1"

[actions.visit]
stage = "main"
effect = "goto side"

[actions.back]
stage = "side"
effect = "goto main"

[actions.sleep]
stage = "main"
effect = "goto idle"

[actions.wake]
stage = "idle"
when = "me.index == 0"
effect = "goto main"

[actions.spin]
stage = "main"
effect = "emit spun()"

[actions.gamble]
stage = "main"
effect = "let x = roll coin\\nlet y = random [1, 2, 3]\\nlet z = shuffled [pebble, boulder]\\nlet w = sample [1, 2, 3, 4], 2\\nsay \\"gambled\\""

[actions.wager]
stage = "main"
effect = '''
let x = roll coin
let y = choose me number 1..3 prompt "Stake?"
let z = roll coin
me.coins += x + y + z
'''

[actions.quit]
stage = "main"
effect = 'finish "someone quit"'

[actions.pass]
stage = "main"
effect = "end turn"

[scoring]
score = "p.coins"
"""

RULES = """\
# Far too much work for one event.
hook whirl on spun() {
    for i in range(10000) {
        for j in range(10000) { moves += 1 }
    }
}
"""


@pytest.fixture(scope="module")
def gadgets(tmp_path_factory: pytest.TempPathFactory) -> ruleskit.Game:
    root = write_pack(tmp_path_factory.mktemp("gadgets"), manifest=MANIFEST, game=GAME, rules=RULES)
    return ruleskit.load(root)


def refused(state: ruleskit.State, action: str, reason: str) -> None:
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_turn_orders_rounds_phases_and_turn_limit(gadgets: ruleskit.Game) -> None:
    state = gadgets.new_game(players=3)
    seen = []
    while not state.is_terminal:
        seen.append((state.data["flow"]["phase"], state.current_player))
        state.apply("pass")
    # Two counterclockwise rounds from the last seat, then clockwise from the first: 12 turns in all.
    assert seen == [("one", 2), ("one", 1), ("one", 0)] * 2 + [("two", 0), ("two", 1), ("two", 2)] * 2
    assert state.result["reason"] == "turn limit"


def test_capacity_with_piece_sizes_is_enforced(gadgets: ruleskit.Game) -> None:
    state = gadgets.new_game(players=2)
    player = state.current_player
    refused(state, "grab:boulder", f"Player {player + 1}'s box is full \\(capacity 2\\)")
    state.apply("grab:pebble")
    state.apply("grab:pebble")
    assert state.data["z"][f"box@{player}"] == {"pebble": 2, "boulder": 0}
    assert state.data["z"]["heap"]["pebble"] == 8
    refused(state, "grab:pebble", "is full \\(capacity 2\\)")
    state.data["pv"][player]["bonus"] = 2  # the capacity is an expression over its owner
    state._legal = None
    state.apply("grab:pebble")
    refused(state, "grab:boulder", "is full \\(capacity 4\\)")


def test_limited_pool_runs_out(gadgets: ruleskit.Game) -> None:
    state = gadgets.new_game(players=2)
    player = state.current_player
    state.data["pv"][player]["bonus"] = 10
    state.data["z"]["heap"]["boulder"] = 1
    state._legal = None
    state.apply("grab:boulder")
    refused(state, "grab:boulder", "heap holds 0 boulder, not 1")


def test_counter_floor_forbids_and_clamp_floor_and_error_cap(gadgets: ruleskit.Game) -> None:
    state = gadgets.new_game(players=2)
    player = state.current_player
    refused(state, "spend", "'coins' cannot go below 0")
    refused(state, "pump", "'strict' cannot exceed 3")
    state.apply("drain")
    assert state.data["pv"][player]["soft"] == 0


def test_require_refuses_with_its_message(gadgets: ruleskit.Game) -> None:
    refused(gadgets.new_game(players=2), "insist", "not allowed: you need more than five coins")


def test_visit_limit_resets_when_a_stage_is_entered(gadgets: ruleskit.Game) -> None:
    state = gadgets.new_game(players=2)
    state.apply("peek")
    assert "peek" not in [a.id for a in state.legal_actions()]
    state.apply("visit")
    assert state.stage == "side" and state.data["v"]["moves"] == 11  # on_enter ran
    state.apply("back")
    assert "peek" in [a.id for a in state.legal_actions()]


def test_turn_passes_when_the_player_has_no_legal_action(gadgets: ruleskit.Game) -> None:
    state = gadgets.new_game(players=3)
    assert state.current_player == 2
    state.apply("sleep")  # Player 3 cannot wake up: the turn passes by itself
    assert state.current_player == 1 and state.stage == "main"
    assert state.data["flow"]["turn"] == 2


def test_finish_ends_the_game_with_its_reason(gadgets: ruleskit.Game) -> None:
    state = gadgets.new_game(players=2)
    state.apply("quit")
    assert state.is_terminal and state.result["reason"] == "someone quit"
    assert state.result["scores"] == [2, 2] and state.result["winners"] == [0, 1]


def test_every_chance_outcome_is_recorded(gadgets: ruleskit.Game) -> None:
    state = gadgets.new_game(players=2, seed=9)
    state.apply("gamble")
    chance = state.history[-1]["chance"]
    assert [sorted(c) for c in chance] == [["roll", "value"], ["random"], ["shuffled"], ["sample"]]
    assert chance[0]["value"] in (0, 1) and chance[1]["random"] in ("1", "2", "3")
    assert sorted(chance[2]["shuffled"]) == ["boulder", "pebble"] and len(chance[3]["sample"]) == 2
    assert state.history[-1]["messages"] == ["gambled"]


def test_choice_between_rolls_resumes_with_the_same_outcomes(gadgets: ruleskit.Game, tmp_path: Path) -> None:
    from ruleskit.log import replay, write_log
    from ruleskit.runtime.state import State

    for seed in range(6):
        state = gadgets.new_game(players=2, seed=seed)
        player = state.current_player
        state.apply("wager")
        [first] = state.history[-1]["chance"]
        assert state.prompt == "Stake?" and state.data["pv"][player]["coins"] == 2
        restored = State.from_json(gadgets, state.dumps())
        copy = state.clone()
        for s in (state, restored, copy):
            s.apply("3")
        assert state == restored == copy
        [second] = state.history[-1]["chance"]  # the first roll is not logged twice
        assert state.data["pv"][player]["coins"] == 2 + first["value"] + 3 + second["value"]
        path = tmp_path / f"wager{seed}.jsonl"
        write_log(state, path)
        assert replay(path, gadgets) == state


def test_hidden_game_var_and_options(gadgets: ruleskit.Game) -> None:
    state = gadgets.new_game(players=2, options={"goal": 5})
    assert state.data["v"]["goal"] == 5
    assert "secret" not in state.view(0)["vars"] and state.view(1)["vars"]["goal"] == 5


def test_options_are_each_games_own(gadgets: ruleskit.Game) -> None:
    """Games start from tables shared by every game of as many players: one game's options change no other."""
    optioned = gadgets.new_game(players=2, seed=4, options={"goal": 5})
    plain = gadgets.new_game(players=2, seed=4)
    assert optioned.data["v"]["goal"] == 5 and plain.data["v"]["goal"] != 5
    assert gadgets.new_game(players=2, seed=4).dumps() == plain.dumps()


def test_step_budget_stops_a_runaway_hook(gadgets: ruleskit.Game) -> None:
    state = gadgets.new_game(players=2)
    before = state.dumps()
    with pytest.raises(BudgetExceeded) as caught:
        state.apply("spin")
    message = caught.value.message
    rules = Path(gadgets.source.root) / "rules.rk"
    assert "step budget of 200000 exceeded" in message
    assert f"hook whirl ({rules}:{line_of(rules, 'moves += 1')})" in message
    assert state.dumps() == before
    state.apply("pass")  # the game goes on


def test_nesting_limit_is_a_located_error(tmp_path: Path) -> None:
    deep = "(" * 70 + "1" + ")" * 70
    root = write_pack(tmp_path / "deep", rules=f"rule double(x) = x * 2\n\nrule deep() = {deep}\n")
    with pytest.raises(LanguageError) as caught:
        ruleskit.load(root)
    assert "nesting deeper than 60 levels" in caught.value.message
    assert caught.value.line == 3 and caught.value.file.endswith("rules.rk")


def test_starting_without_flow_or_scoring_is_an_error(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "noflow", game=GAME.replace('[flow]\nstart = "one"\nmax_turns = 12\n', ""),
                      manifest=MANIFEST, rules="")
    with pytest.raises(PackError, match="no \\[flow\\] section") as caught:
        ruleskit.load(root)
    assert caught.value.file.endswith("pack.toml")


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_empty_blocks_are_valid_everywhere(tmp_path: Path, backend: str) -> None:
    """A procedure or a hook with nothing in it loaded under the reference backend and crashed the compiled
    one (Python has no empty block: "empty body on Try")."""
    from engine_support import TINY_GAME, TINY_RULES

    rules = TINY_RULES + """
proc nothing() { }
proc nothing_with(p) {
}
hook quiet on turn_end(p) { }
hook quiet_for on turn_start(p) when p == 0 { }
proc chooser(p) {
    let x = choose p from [1, 2]
    if x == 1 { } else { }
    for i in range(2) { }
}
"""
    game = TINY_GAME.replace('effect = "me.points += double(1)\\nend turn"',
                             'effect = "nothing()\\nnothing_with(me)\\nchooser(me)\\nme.points += double(1)\\nend turn"')
    assert game != TINY_GAME
    loaded = ruleskit.load(write_pack(tmp_path / "pack", game=game, rules=rules), backend=backend)
    state = loaded.new_game(players=2, seed=1)
    state.apply("score")
    assert state.prompt is not None
    state.apply(state.legal_actions()[0])
    assert state.raw["pv"][0]["points"] == 2 and state.players_to_decide() == [1]
