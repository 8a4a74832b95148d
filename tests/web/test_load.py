"""A loaded save goes on as the saved game: each seat's story so far, its own pending pick, nothing of others'."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import ruleskit
from ruleskit.web.loaded import file_name
from ruleskit.web.lobby import Lobby

DUEL = "tests/packs/card_duel"


def texts(served: Any, seat: int) -> list[str]:
    return [event["text"] for event in served.payload(seat)["feed"]]


def drawn(payload: dict[str, Any]) -> dict[str, Any]:
    """A seat's screen but its feed, the version and undo (a loaded game has nothing to undo, as in `play`)."""
    return {key: value for key, value in payload.items() if key not in ("feed", "version", "canUndo")}


def load(served: Any, saved: bytes, name: str | None = None) -> Any:
    response = served.client.post(served.host + "/load", content=saved, params={"name": name} if name else None)
    assert response.status_code == 200, response.text
    return response


def play_to_a_secret_pick(served: Any) -> tuple[int, str]:
    """Random decisions until the first simultaneous stage, where the first seat to choose picks: its seat and
    the pick's label as that seat is told it."""
    rng = random.Random(3)
    for _ in range(200):
        state = served.table.state
        if state.raw["flow"]["simul"] is not None and len(state.players_to_decide()) == served.table.state.players:
            seat = state.players_to_decide()[0]
            assert served.act(seat, state.legal_actions(seat)[0].id).status_code == 200
            return seat, served.payload(seat)["myPick"]
        assert served.play_randomly(rng) is not None
    raise AssertionError("no simultaneous stage came up")


def test_a_loaded_game_tells_each_seat_its_story_so_far_and_where_it_came_from(served: Any) -> None:
    table = served(DUEL, ["human", "human"], seed=1)
    seat, _ = play_to_a_secret_pick(table)
    live = [texts(table, p) for p in (0, 1)]
    screens = [drawn(table.payload(p)) for p in (0, 1)]
    decisions = len(table.table.state.history) - 1
    flow = table.table.state.raw["flow"]
    load(table, table.client.get(table.host + "/save").content, "duel-save.json")
    for p in (0, 1):
        told = texts(table, p)
        assert not any("New game" in text for text in told)
        assert told[0] == "The game of card-duel for 2 players began"
        # Every decision, roll and message as this seat was told it at the live table: another's secret pick as
        # a secret choice, cards it could not see as hidden.
        assert told[1:-1] == live[p][1:]
        assert told[-1] == (f"Loaded duel-save.json: card-duel for 2 players after {decisions} decisions, "
                            f"at turn {flow['turn']} (round {flow['round']})")
        assert drawn(table.payload(p)) == screens[p]
    assert texts(table, 1 - seat)[-2] == f"Player {seat + 1} makes a secret choice"
    assert any("(hidden)" in text for text in texts(table, 0)), "the other's hidden draws stay hidden"


@pytest.mark.parametrize("pack", [DUEL, "nereus"])
def test_a_seat_that_picked_before_the_save_is_shown_its_pick_after_the_load(served: Any, pack: str) -> None:
    table = served(pack, ["human", "human"], seed=1)
    seat, pick = play_to_a_secret_pick(table)
    screens = [drawn(table.payload(p)) for p in (0, 1)]
    live = [texts(table, p) for p in (0, 1)]
    assert pick
    load(table, table.client.get(table.host + "/save").content)
    mine, other = table.payload(seat), table.payload(1 - seat)
    assert mine["myPick"] == pick and not mine["deciding"]
    assert other["myPick"] is None and other["deciding"]
    assert other["waitingFor"] == [other["name"]]  # the picker is no longer waited for
    assert pick not in json.dumps(other["feed"])
    # Each seat's screen and story are the live ones: no seat learns more of the other's pick or hand.
    for p in (0, 1):
        assert drawn(table.payload(p)) == screens[p]
        assert texts(table, p)[1:-1] == live[p][1:]
    # The game goes on from the pick: the other's pick resolves the stage.
    action = other["actions"][0]["options"][0]["id"]
    assert table.act(1 - seat, action).status_code == 200
    assert table.table.state.raw["flow"]["simul"] is None or not table.table.state.raw["flow"]["simul"]["picks"]


def test_a_pick_in_a_shared_pool_is_told_back_to_its_seat_alone(served: Any, clash_pack: Path) -> None:
    table = served(str(clash_pack), ["human", "human", "human"], seed=1)
    assert table.act(1, "take:ruby").status_code == 200
    load(table, table.client.get(table.host + "/save").content)
    assert [table.payload(p)["myPick"] for p in range(3)] == [None, "Take ruby", None]
    for p in (0, 2):
        assert texts(table, p)[-2] == "Player 2 makes a secret choice"
        assert "ruby" not in json.dumps(table.payload(p)["feed"])
    assert texts(table, 1)[-2] == "Player 2: Take ruby"


def test_a_save_made_during_a_choice_goes_on_as_the_game_would_have(served: Any) -> None:
    table = served(DUEL, ["human", "human"], seed=5)
    rng = random.Random(5)
    while not (table.table.state.pending is not None and len(table.table.state.history) > 3):
        assert table.play_randomly(rng) is not None
    live = table.table.state.clone()
    chooser = live.players_to_decide()[0]
    answer = live.legal_actions(chooser)[-1]
    live.apply(answer)
    load(table, table.client.get(table.host + "/save").content)
    payload = table.payload(chooser)
    assert payload["deciding"] and payload["prompt"] == table.table.state.pending["prompt"]
    assert texts(table, chooser)[-1].startswith("Loaded a saved game: card-duel for 2 players after ")
    assert table.act(chooser, answer.id).status_code == 200
    assert table.table.state.dumps() == live.dumps()


def test_a_finished_game_loads_as_over(served: Any) -> None:
    table = served("tests/packs/dice_race", ["human", "random"], seed=2)
    rng = random.Random(2)
    while table.play_randomly(rng) is not None:
        pass
    reason = table.table.state.result["reason"]
    load(table, table.client.get(table.host + "/save").content, "done.json")
    payload = table.payload(0)
    assert payload["over"] and not payload["canUndo"] and payload["actions"] == []
    decisions = len(table.table.state.history) - 1
    assert texts(table, 0)[-2:] == [f"Game over: {reason}",
                                    f"Loaded done.json: dice-race for 2 players after {decisions} decisions; "
                                    "the game is over"]
    refused = table.act(0, "roll")
    assert refused.status_code == 409
    assert table.client.get(table.host + "/log").status_code == 200


def test_a_game_whose_story_cannot_be_told_again_says_so(served: Any) -> None:
    table = served(DUEL, ["human", "human"], seed=1)
    play_to_a_secret_pick(table)
    saved = json.loads(table.client.get(table.host + "/save").content)
    decisions = len(saved["state"]["history"]) - 1
    where = f"at turn {saved['state']['data']['flow']['turn']} (round 1)"
    untold = "(what happened before is not told: its saved decisions do not lead to its position from the pack's setup)"
    cut = json.loads(json.dumps(saved))
    del cut["state"]["history"][1:]  # the position kept, the decisions leading to it gone
    renamed = json.loads(json.dumps(saved))
    renamed["state"]["history"][3]["action"] = "no-such-action"  # a decision the game never offered
    for edited, count in ((cut, 0), (renamed, decisions)):
        load(table, json.dumps(edited).encode())
        for p in (0, 1):
            assert texts(table, p) == [f"Loaded a saved game: card-duel for 2 players after {count} decisions, "
                                       f"{where} {untold}"]


def test_a_game_from_a_scenario_is_loaded_without_its_story() -> None:
    from starlette.testclient import TestClient

    from ruleskit.web.app import play_app

    lobby = Lobby(ruleskit.load("ophir"), scenario=Path("examples/scenarios/ophir-failed-check.toml"))
    lobby.start()
    client = TestClient(play_app(lobby))
    host = f"/api/host/{lobby.host_token}"
    assert client.post(host + "/load", content=client.get(host + "/save").content).status_code == 200
    table = lobby.current()
    first = client.get(f"/api/seat/{table.tokens[table.humans[0]]}").json()["feed"][0]["text"]
    assert first.startswith("Loaded a saved game: ")
    assert first.endswith("(what happened before is not told: it was set up at a scenario's position)")


def test_the_feed_tells_only_the_last_part_of_a_long_story(served: Any, monkeypatch: Any) -> None:
    import ruleskit.web.loaded as loaded

    table = served(DUEL, ["human", "human"], seed=1)
    play_to_a_secret_pick(table)
    live = texts(table, 0)
    monkeypatch.setattr(loaded, "FEED_LENGTH", 3)
    load(table, table.client.get(table.host + "/save").content)
    told = texts(table, 0)
    decisions = len(table.table.state.history) - 1
    assert told[0] == f"The game of card-duel for 2 players began ({decisions - 3} decisions before these not shown)"
    assert told[1:-1] == live[len(live) - len(told) + 2:]


def test_an_uploaded_files_name_is_told_as_plain_text() -> None:
    assert file_name("C:\\Users\\me\\duel.json") == "duel.json"
    assert file_name("../../duel\x1b[31m.json") == "duel<U+001B>[31m.json"
    assert file_name("x" * 500) == "x" * 119 + "…"
    assert file_name("") is None and file_name(None) is None


LONG_GAME = """\
[counters.n]

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 1000000

[actions.pass]
stage = "main"
label = "Pass"
effect = "EFFECT"

[scoring]
score = "0"
"""


def long_save(folder: Path, effect: str, decisions: int) -> tuple[ruleskit.Game, str]:
    """A pack whose every decision runs `effect`, and a save of `decisions` of them."""
    from ruleskit.log import pack_ref
    from ruleskit.saves import SAVE_FORMAT

    folder.mkdir()
    (folder / "pack.toml").write_text('name = "long"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                      'files = ["game.toml"]\n')
    (folder / "game.toml").write_text(LONG_GAME.replace("EFFECT", effect))
    game = ruleskit.load(folder)
    state = game.new_game(players=2, seed=1)
    for _ in range(decisions):
        state.apply("pass")
    return game, json.dumps({"format": SAVE_FORMAT, "ref": pack_ref(game), "seats": ["human", "human"],
                             "state": state.to_json()})


@pytest.mark.parametrize("effect, decisions, why", [
    # Each decision near its step budget (180,000 steps): 70 of them run 12.6 million, a save of 100,000 of them
    # replayed for about 40 minutes.
    ("for i in range(10000) {\\n for j in range(5) {\\n  set n = j\\n }\\n}\\nend turn", 70,
     "more than 10,000,000 steps of the pack's code"),
    # Each decision one step: a history longer than a log's replay steps through.
    ("end turn", 100_001, "more than 100,000 decisions"),
])
def test_a_history_too_long_to_replay_is_loaded_without_its_story(tmp_path: Path, effect: str, decisions: int,
                                                                    why: str) -> None:
    from ruleskit.web.loaded import table_from_save

    game, saved = long_save(tmp_path / "long", effect, decisions)
    table = table_from_save(game, saved)
    assert [event.texts[0] for event in table.events] == [
        f"Loaded a saved game: long for 2 players after {decisions} decisions, at turn {decisions + 1} "
        f"(round {decisions // 2 + 1}) (what happened before is not told: its history is too long to replay ({why}))"]
    assert table.state.raw["flow"]["turn"] == decisions + 1, "the game itself goes on"
