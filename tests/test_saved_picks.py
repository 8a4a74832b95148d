"""A saved round of secret picks holds only picks the seat was offered (`validation.check_picks_offered`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ruleskit
from ruleskit import PackError
from ruleskit.jsonlocate import json_path_position
from ruleskit.play import save_game
from ruleskit.runtime.state import State
from ruleskit.saves import load_saved

PACKS = Path(__file__).resolve().parent / "packs"
DUEL = str(PACKS / "card_duel")
MARKET = str(PACKS / "street_market")
PICK = "$.state.data.flow.simul.picks.0"


def at_open_round(pack: str) -> State:
    """A game of `pack` played to its first round of secret picks, nobody having picked yet."""
    state = ruleskit.load(pack).new_game(players=2, seed=3)
    for step in range(400):
        if state.data["flow"]["simul"] is not None:
            return state
        acts = state.legal_actions(state.players_to_decide()[0])
        state.apply(acts[step % len(acts)])
    raise AssertionError("no round of secret picks")


def saved_with_a_pick(tmp_path: Path, pack: str, pick: str) -> tuple[Path, dict[str, Any]]:
    state = at_open_round(pack)
    state.apply(next(a for a in state.legal_actions(0) if a.id == pick))
    path = tmp_path / "save.json"
    save_game(state, ["human", "human"], path)
    return path, json.loads(path.read_text())


def edited(tmp_path: Path, data: dict[str, Any], pick: Any) -> Path:
    data["state"]["data"]["flow"]["simul"]["picks"]["0"] = pick
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data, indent=1))
    return path


def refusal(path: Path, pack: str) -> PackError:
    with pytest.raises(PackError) as caught:
        load_saved(path, pack)
    return caught.value


def test_a_real_save_with_a_pick_loads_and_plays_on(tmp_path: Path) -> None:
    path, _ = saved_with_a_pick(tmp_path, DUEL, "play:red5")
    _, state, _ = load_saved(path, DUEL)
    assert state.data["flow"]["simul"]["picks"] == {"0": {"action": "play", "args": {"c": "red5"}}}
    assert state.players_to_decide() == [1]
    state.apply(state.legal_actions(1)[0])  # the last pick: the round is resolved
    assert state.data["flow"]["simul"] in (None, {"players": [0, 1], "picks": {}})  # a new round, or none
    assert "red5" not in state.data["z"]["hand@0"]


@pytest.mark.parametrize("card", ["red7", "blue1", "red2"])
def test_a_pick_of_a_card_not_in_the_hand_is_refused_where_it_is_written(tmp_path: Path, card: str) -> None:
    path, data = saved_with_a_pick(tmp_path, DUEL, "play:red5")
    elsewhere = [c for zone, cards in data["state"]["data"]["z"].items() if zone != "hand@0" and isinstance(cards, list)
                 for c in cards if c]
    card = card if card in elsewhere else elsewhere[0]
    path = edited(tmp_path, data, {"action": "play", "args": {"c": card}})
    error = refusal(path, DUEL)
    assert error.file == str(path)
    assert (error.line, error.column) == json_path_position(path.read_text(), PICK)
    assert error.message.startswith(f"{PICK}: Player 1's secret pick ")
    assert "is not one of the actions the seat was offered at this position" in error.message
    assert error.hint is not None and error.hint.startswith("offered: play:")


def test_a_card_in_the_other_seats_hand_is_refused(tmp_path: Path) -> None:
    path, data = saved_with_a_pick(tmp_path, DUEL, "play:red5")
    theirs = data["state"]["data"]["z"]["hand@1"][0]
    error = refusal(edited(tmp_path, data, {"action": "play", "args": {"c": theirs}}), DUEL)
    assert repr(theirs) in error.message and PICK in error.message


def test_the_other_seats_pick_is_checked_against_its_own_hand(tmp_path: Path) -> None:
    path, data = saved_with_a_pick(tmp_path, DUEL, "play:red5")
    picks = data["state"]["data"]["flow"]["simul"]["picks"]
    picks["1"] = picks.pop("0")  # seat 1 "picks" a card of seat 0's hand; seat 0 is still to pick
    path.write_text(json.dumps(data))
    error = refusal(path, DUEL)
    assert "$.state.data.flow.simul.picks.1: Player 2's secret pick" in error.message


@pytest.mark.parametrize("pick, message", [
    ({"action": "take", "args": {}}, "the arguments of 'take'"),  # an action of another stage
    ({"action": "play", "args": {"c": 5}}, "5 is not an item of kind 'card'"),
    ({"action": "play", "args": {"c": "red5", "d": 1}}, "the arguments of 'play' are c"),
    ({"action": "play", "args": {"c": ["red5"]}}, "is not an item of kind 'card'"),
    ({"action": "play", "args": {"c": "x" * 100_000}}, "is not an item of kind 'card'"),
    ({"action": "play" * 10_000, "args": {}}, "unknown action"),
    ({"action": "play"}, "args"),
])
def test_odd_picks_are_refused_with_their_path(tmp_path: Path, pick: Any, message: str) -> None:
    _, data = saved_with_a_pick(tmp_path, DUEL, "play:red5")
    error = refusal(edited(tmp_path, data, pick), DUEL)
    assert PICK in error.message and message in error.message and len(error.message) < 400


def test_a_bid_then_a_trade_still_loads(tmp_path: Path) -> None:
    # A bid made, then coins traded away by an `anytime` action: a position the game reaches, whose bid the
    # round refuses when it is resolved. The save must load as it is.
    state = at_open_round(MARKET)
    coins = state.data["pv"][0]["coins"]
    assert coins >= 3
    state.apply(next(a for a in state.legal_actions(0) if a.id == f"bid:{coins}"))
    state.apply(next(a for a in state.out_of_turn_actions(0) if a.id == "trade"))
    path = tmp_path / "save.json"
    save_game(state, ["human", "human"], path)
    _, loaded, _ = load_saved(path, MARKET)
    assert loaded.data["flow"]["simul"]["picks"]["0"]["args"] == {"n": coins}
    loaded.apply(loaded.legal_actions(1)[0])
    assert loaded.data["flow"]["simul"] is None or loaded.is_terminal


def test_in_a_stage_with_anytime_actions_a_pick_of_another_stage_is_refused(tmp_path: Path) -> None:
    path, data = saved_with_a_pick(tmp_path, MARKET, "bid:1")
    error = refusal(edited(tmp_path, data, {"action": "work", "args": {}}), MARKET)
    assert f"{PICK}: Player 1's secret pick" in error.message and "is not an action of stage 'auction'" in error.message
    assert error.hint == "its actions: bid"
    error = refusal(edited(tmp_path, data, {"action": "trade", "args": {}}), MARKET)
    assert "is not an action of stage 'auction'" in error.message


def test_a_bid_the_seat_cannot_pay_is_refused_where_nothing_else_could_have_run(tmp_path: Path) -> None:
    # The same pack with its `anytime` actions taken away: the saved position is the one the bid was made at.
    pack = tmp_path / "market"
    pack.mkdir()
    for name in ("pack.toml", "game.toml"):
        text = (PACKS / "street_market" / name).read_text()
        if name == "game.toml":  # every `anytime` action offered in the work stage alone, as a stage's own
            text = text.replace('anytime = true\nstage = "work"', 'stage = "work"')
            text = text.replace("anytime = true", 'stage = "work"')
        (pack / name).write_text(text)
    for extra in (PACKS / "street_market").iterdir():
        if extra.name not in ("pack.toml", "game.toml") and extra.is_file():
            (pack / extra.name).write_bytes(extra.read_bytes())
    path, data = saved_with_a_pick(tmp_path, str(pack), "bid:1")
    coins = data["state"]["data"]["pv"][0]["coins"]
    for n in (coins + 1, 10 ** 18, -1):
        error = refusal(edited(tmp_path, data, {"action": "bid", "args": {"n": n}}), str(pack))
        assert f"{PICK}: Player 1's secret pick" in error.message, n
    _, state, _ = load_saved(edited(tmp_path, data, {"action": "bid", "args": {"n": coins}}), str(pack))
    assert state.players_to_decide() == [1]
