"""`anytime` actions: taken by any player at any decision point, out of turn too (toy pack street_market).

Players work in turn for coins; anyone may trade 3 coins for a point at any
time, and tip the worker a coin once a turn; the game closes with a secret
all-pay auction.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from engine_support import PACKS
from rich.console import Console

import ruleskit
from ruleskit import IllegalAction, State
from ruleskit.errors import PackError
from ruleskit.play import PlaySession
from ruleskit.simulate import play_game
from ruleskit.testing import invariants
from ruleskit.testing.runner import check_log


@pytest.fixture(scope="module")
def market() -> ruleskit.Game:
    return ruleskit.load(PACKS / "street_market")


def coins(state: State) -> list[int]:
    return [pv["coins"] for pv in state.raw["pv"]]


def out_of_turn(state: State) -> list[tuple[int, str]]:
    return [(a.player, a.id) for a in state.out_of_turn_actions()]


def test_offered_to_players_who_are_not_to_decide(market: ruleskit.Game) -> None:
    state = market.new_game(players=3, seed=0)
    assert out_of_turn(state) == []  # nobody has a coin to tip with
    state.apply("work")
    assert state.players_to_decide() == [1]
    assert out_of_turn(state) == [(0, "tip")]
    # The decider's own list is unchanged and the others' lists stay empty: only the decider decides.
    assert [a.id for a in state.legal_actions()] == ["work", "hustle", "rest"]
    assert state.legal_actions(0) == []
    invariants.check_deciders(state)


def test_taking_one_out_of_turn_keeps_the_decision_waiting(market: ruleskit.Game) -> None:
    state = market.new_game(players=3, seed=0)
    state.apply("work")
    state.apply("tip", player=0)
    assert coins(state) == [1, 1, 0]
    assert state.players_to_decide() == [1]
    assert state.history[-1] == {"player": 0, "action": "tip", "chance": []}
    # Once a turn for each player: player 0 cannot tip again in player 1's turn.
    assert out_of_turn(state) == []
    with pytest.raises(IllegalAction):
        state.apply("tip", player=0)
    state.apply("work")
    assert state.players_to_decide() == [2]
    assert coins(state) == [1, 3, 0]
    assert out_of_turn(state) == [(0, "tip"), (1, "trade"), (1, "tip")]


def test_the_player_to_decide_has_anytime_actions_after_the_stage_actions(market: ruleskit.Game) -> None:
    state = market.new_game(players=2, seed=0)
    for _ in range(4):  # both work twice
        state.apply("work")
    assert state.players_to_decide() == [0] and coins(state) == [4, 4]
    assert [a.id for a in state.legal_actions()] == ["work", "hustle", "rest", "trade"]
    state.apply("trade")
    assert state.players_to_decide() == [0]  # still P1's turn
    assert state.raw["pv"][0]["points"] == 1 and coins(state) == [1, 4]


def test_an_id_open_to_several_players_needs_the_player(market: ruleskit.Game) -> None:
    state = market.new_game(players=3, seed=0)
    for _ in range(3):
        state.apply("work")
    assert out_of_turn(state) == [(1, "tip"), (2, "tip")]
    with pytest.raises(IllegalAction, match="several players"):
        state.apply("tip")
    with pytest.raises(IllegalAction, match="not Player 2's decision"):
        state.apply("work", player=1)
    before = state.clone()
    state.apply("tip", player=2)
    assert coins(state) == [3, 2, 1] and coins(before) == [2, 2, 2]


def test_none_while_a_choice_is_pending(market: ruleskit.Game) -> None:
    state = market.new_game(players=3, seed=0)
    state.apply("work")
    state.apply("hustle")
    assert state.prompt == "How hard?" and state.players_to_decide() == [1]
    assert out_of_turn(state) == []
    with pytest.raises(IllegalAction):
        state.apply("tip", player=0)
    state.apply("2")
    assert out_of_turn(state) == [(0, "tip"), (1, "tip")]


def test_at_a_simultaneous_stage_they_run_at_once_and_are_not_picks(market: ruleskit.Game) -> None:
    state = market.new_game(players=2, seed=0)
    for _ in range(6):  # three rounds of work: 6 coins each
        state.apply("work")
    assert state.stage == "auction" and sorted(state.players_to_decide()) == [0, 1]
    state.apply("bid:5", player=0)
    assert state.players_to_decide() == [1]
    # Player 1 has bid in secret; trading now runs at once, out of turn, and the bid stays hidden.
    assert "trade" in [a.id for a in state.out_of_turn_actions(0)]
    state.apply("trade", player=0)
    assert state.raw["pv"][0]["points"] == 1 and coins(state)[0] == 3
    assert "bid:5" not in json.dumps(state.view(1))
    # Player 2's own trade is an action in their list, and is not their pick either.
    state.apply("trade", player=1)
    assert state.players_to_decide() == [1]
    state.apply("bid:1", player=1)
    # Player 1 cannot pay 5 any more: that bid is refused alone; player 2's bid wins.
    assert state.is_terminal
    assert state.result["scores"] == [10 + 3, 10 + 20 + 2]


def test_replays_and_round_trips(market: ruleskit.Game) -> None:
    state = market.new_game(players=3, seed=4)
    state.apply("work")
    state.apply("tip", player=0)
    state.apply("hustle")
    state.apply("1")
    invariants.check_replay(market, state, 3, 4)
    again = State.from_json(market, json.loads(json.dumps(state.to_json())))
    assert again == state and out_of_turn(again) == out_of_turn(state)


def test_random_bots_act_out_of_turn_and_games_reproduce(market: ruleskit.Game, tmp_path: Path) -> None:
    records = [play_game(market, 3, seed, ["random"] * 3) for seed in range(12)]
    assert all(r.error is None and r.reason == "phase closing ended" for r in records)
    again = [play_game(market, 3, seed, ["random"] * 3) for seed in range(12)]
    assert [(r.decisions, r.places) for r in records] == [(r.decisions, r.places) for r in again]
    seen = 0
    for seed in range(12):
        play_game(market, 3, seed, ["random"] * 3, log_dir=tmp_path)
        log = tmp_path / "game-00000.jsonl"
        lines = [json.loads(x) for x in log.read_text().splitlines()]
        seen += sum(1 for line in lines if line.get("action") == "tip")  # a tip is always out of turn
        # The log replays with every engine check after every decision, out-of-turn ones included.
        assert check_log(log, market) is None
    assert seen > 0


def test_greedy_bots_finish(market: ruleskit.Game) -> None:
    records = [play_game(market, 2, seed, ["greedy", "greedy"]) for seed in range(4)]
    assert all(r.error is None for r in records)


def test_an_action_needs_a_stage_unless_it_is_anytime(tmp_path: Path) -> None:
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "pack.toml").write_text('name = "p"\nversion = "1"\nplayers = { min = 2, max = 2 }\n')
    (pack / "game.toml").write_text('[stages.s]\n[phases.a]\nstage = "s"\n[flow]\nstart = "a"\n'
                                    '[actions.go]\neffect = "end turn"\n[scoring]\nscore = "0"\n')
    with pytest.raises(PackError, match="action 'go' needs a stage") as error:
        ruleskit.load(pack)
    assert "game.toml" in str(error.value)


def test_anytime_actions_alone_make_no_decision_point(tmp_path: Path) -> None:
    pack = tmp_path / "q"
    pack.mkdir()
    (pack / "pack.toml").write_text('name = "q"\nversion = "1"\nplayers = { min = 2, max = 2 }\n')
    (pack / "game.toml").write_text(
        '[counters.pokes]\nowner = "player"\n[stages.s]\n[phases.a]\nstage = "s"\n[flow]\nstart = "a"\n'
        'max_turns = 8\n[actions.go]\nstage = "s"\nwhen = "turn_number <= 2"\neffect = "end turn"\n'
        '[actions.poke]\nanytime = true\neffect = "me.pokes += 1"\n'
        '[end.late]\nwhen = "turn_number > 6"\nreason = "late"\n[scoring]\nscore = "p.pokes"\n')
    state = ruleskit.load(pack).new_game(players=2, seed=0)
    assert [a.id for a in state.legal_actions()] == ["go", "poke"] and out_of_turn(state) == [(1, "poke")]
    state.apply("poke", player=1)
    state.apply("go")
    state.apply("go")
    # From turn 3 on only `poke` could be taken: the turns pass by themselves and the game ends.
    assert state.is_terminal and state.result["reason"] == "late" and state.result["scores"] == [0, 1]


def _session(market: ruleskit.Game, seats: list[str], answers: list[str]) -> tuple[PlaySession, io.StringIO]:
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, height=30)
    replies = iter(answers)
    # The hand-over screens ask for Enter (an empty prompt); every other prompt takes the next answer.
    session = PlaySession(market, market.new_game(players=len(seats), seed=0), seats, console,
                          ask=lambda prompt: "" if prompt == "" else next(replies))
    return session, buffer


def test_a_human_at_the_terminal_acts_out_of_turn_with_as(market: ruleskit.Game) -> None:
    # Player 1 works (2 coins); at player 2's decision, player 1 tips them out of turn, then player 2 works.
    session, buffer = _session(market, ["human", "human"], ["work", "as 1", "1", "work", "quit"])
    session.run()
    assert coins(session.state) == [1, 3]
    assert [(e["player"], e["action"]) for e in session.state.history if "action" in e][:3] == [
        (0, "work"), (0, "tip"), (1, "work")]
    text = buffer.getvalue()
    assert "Tip the worker" in text and "out of turn" in text


def test_as_names_another_human_seat(market: ruleskit.Game) -> None:
    session, buffer = _session(market, ["human", "random"], ["as 2", "as 1", "quit"])
    session.run()
    assert buffer.getvalue().count("Act out of turn as another human player") == 2
    assert len(session.state.history) == 1  # nothing was taken


def test_bots_at_the_table_act_out_of_turn(market: ruleskit.Game) -> None:
    session, _ = _session(market, ["random", "random", "random"], [])
    assert session.run() == 0 and session.state.is_terminal
    taken = [(e["player"], e["action"]) for e in session.state.history if "action" in e]
    turns = [i for i, (player, action) in enumerate(taken) if action in ("trade", "tip")]
    assert turns, "no bot acted out of turn in a whole game"


def test_uses_counts_a_players_own_anytime_actions(market: ruleskit.Game) -> None:
    from ruleskit.lang.builtins import uses
    from ruleskit.runtime.context import Ctx

    state = market.new_game(players=2, seed=0)
    state.apply("work")                     # Player 1 earns 2 coins; Player 2 is to decide
    state.apply("tip", player=0)            # Player 1 tips out of turn
    tipper, worker = (Ctx(market.program, state.raw, p) for p in (0, 1))
    assert uses(tipper, "test", "tip", "turn") == 1
    assert uses(worker, "test", "tip", "turn") == 0
    assert uses(tipper, "test", "tip", "game") == 1


def test_a_game_with_anytime_actions_taken_saves_and_loads(market: ruleskit.Game) -> None:
    """A turn's and a visit's counts of an anytime action are each player's (`tip@0`): a save holding them
    was refused as "not an action of the pack", so no such game could be saved."""
    from ruleskit.errors import PackError

    state = market.new_game(players=3, seed=0)
    state.apply("work")
    state.apply("tip", player=0)  # out of turn
    assert "tip@0" in state.raw["flow"]["usage"]["turn"]
    loaded = State.from_json(market, state.to_json())
    assert loaded == state
    loaded.apply("work")
    assert loaded.legal_actions() == state.apply("work").legal_actions()
    # A seat that the game does not have, or a seat on an action that is not anytime, is still refused.
    for forged in ("tip@7", "work@0"):
        table = state.to_json()
        table["data"]["flow"]["usage"]["turn"][forged] = 1
        with pytest.raises(PackError, match="not an action of the pack"):
            State.from_json(market, table)


def test_a_choice_inside_an_anytime_action_taken_out_of_turn_saves_and_loads(tmp_path: Path) -> None:
    """The saved job of a pending choice is checked by offering it again at its base: an anytime action taken
    out of turn is among the player's out-of-turn actions there, so such a save was refused as "not legal"."""
    pack = tmp_path / "r"
    pack.mkdir()
    (pack / "pack.toml").write_text('name = "r"\nversion = "1"\nplayers = { min = 2, max = 2 }\n')
    (pack / "game.toml").write_text(
        '[counters.pts]\nowner = "player"\n[stages.s]\n[phases.a]\nstage = "s"\n[flow]\nstart = "a"\n'
        '[actions.pass]\nstage = "s"\neffect = "end turn"\n'
        '[actions.tip]\nanytime = true\neffect = "let n = choose me number 1..2\\nme.pts += n"\n'
        '[scoring]\nscore = "p.pts"\n')
    game = ruleskit.load(pack, cache=False)
    state = game.new_game(players=2, seed=0)
    state.apply("tip", player=1)  # out of turn: player 1 answers the choice
    assert state.players_to_decide() == [1]
    loaded = State.from_json(game, state.to_json())
    assert loaded == state
    assert loaded.apply("2").to_json() == state.apply("2").to_json()
    assert state.raw["pv"][1]["pts"] == 2 and state.players_to_decide() == [0]
