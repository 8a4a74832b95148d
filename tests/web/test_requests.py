"""Every request is checked; a refused one leaves the game as it was."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import ruleskit
import ruleskit.web.app as web_app
from ruleskit.runtime.state import State
from ruleskit.web.table import Refusal, WebTable

STATIC = Path(web_app.__file__).parent / "static"


def snapshot(served: Any) -> tuple[str, int]:
    table = served.table
    return table.state.dumps(), table.version


def test_unknown_tokens_are_refused(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "random"])
    before = snapshot(table)
    assert table.client.get("/api/seat/not-a-token").status_code == 404
    assert table.client.get("/api/host/not-a-token").status_code == 404
    assert table.client.get("/api/host/not-a-token/save").status_code == 404
    assert table.client.get("/api/host/not-a-token/log").status_code == 404
    response = table.client.post("/api/host/nope/new", json={"players": 2})
    assert response.status_code == 404 and "error" in response.json()
    # A token that is not ASCII is unknown too (compared as text, it raised a TypeError: a 500).
    assert table.client.get("/api/seat/%C3%A9").status_code == 404
    assert table.client.get("/api/host/%C3%A9").status_code == 404
    assert table.client.post("/api/seat/%C3%A9/act", json={"action": "x"}).status_code == 404
    assert snapshot(table) == before


def test_bad_bodies_get_clear_refusals(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"])
    seat = table.table.state.players_to_decide()[0]
    url = table.seat_urls()[seat] + "/act"
    version = table.payload(seat)["version"]
    before = snapshot(table)
    cases = [
        (b"not json", 400, "JSON object"),
        (b"[1, 2]", 400, "JSON object"),
        (json.dumps({"action": 7, "version": version}).encode(), 400, "'action'"),
        (json.dumps({"action": "x", "version": "1"}).encode(), 400, "'version'"),
        (json.dumps({"action": "no-such-action", "version": version}).encode(), 409, "not one of"),
        (json.dumps({"action": "x", "version": version + 5}).encode(), 409, "moved on"),
    ]
    for body, status, words in cases:
        response = table.client.post(url, content=body, headers={"Content-Type": "application/json"})
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["error"]
        assert snapshot(table) == before
    too_big = b"{" + b" " * (web_app.MAX_BODY + 10) + b"}"
    assert table.client.post(url, content=too_big).status_code == 413
    assert snapshot(table) == before


def test_a_seat_cannot_act_out_of_turn_or_for_another(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"])
    state = table.table.state
    decider = state.players_to_decide()[0]
    other = 1 - decider
    action = state.legal_actions(decider)[0].id
    before = snapshot(table)
    response = table.act(other, action)
    assert response.status_code == 409 and "not Player" in response.json()["error"]
    assert snapshot(table) == before
    assert table.act(decider, action).status_code == 200


def test_a_stale_page_is_refused_after_the_game_moves_on(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"])
    decider = table.table.state.players_to_decide()[0]
    old = table.payload(decider)
    first = old["actions"][0]["options"][0]["id"]
    assert table.act(decider, first, old["version"]).status_code == 200
    state_now = snapshot(table)
    again = table.act(table.table.state.players_to_decide()[0], first, old["version"])
    assert again.status_code == 409
    assert snapshot(table) == state_now


def test_new_game_checks_players_seats_and_seed(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "random"])
    host = table.host
    for body, words in [
        ({"players": 9, "seats": ["human"] * 9}, "for 2-4 players, not 9"),
        ({"players": 2, "seats": ["human", "robot"]}, "unknown seat 'robot'"),
        ({"players": 2, "seats": ["human"]}, "1 seats named for 2 players"),
        ({"players": 2, "seats": "human,human"}, "list of names"),
        ({"players": 2, "seats": ["human", "human"], "seed": -1}, "seed"),
        ({"players": "2", "seats": ["human", "human"]}, "whole number"),
    ]:
        response = table.client.post(host + "/new", json=body)
        assert response.status_code == 400, body
        assert words in response.json()["error"], (body, response.json())
    response = table.client.post(host + "/new", json={"players": 2, "seats": ["random", "human"], "seed": 9})
    assert response.status_code == 200
    seats = response.json()["game"]["seats"]
    assert [s["kind"] for s in seats] == ["random", "human"]
    assert seats[0]["link"] is None and seats[1]["link"].startswith("/seat/")
    assert table.table.state.data["seed"] == 9


def test_old_seat_addresses_stop_working_after_a_new_game(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"])
    old = table.seat_urls()
    assert table.client.post(table.host + "/new", json={}).status_code == 200
    assert table.client.get(old[0]).status_code == 404
    assert table.client.get(table.seat_urls()[0]).status_code == 200


def test_save_then_load_continues_the_same_game(served: Any, tmp_path: Path) -> None:
    table = served("tests/packs/card_duel", ["human", "human"], seed=4)
    import random

    rng = random.Random(4)
    for _ in range(6):
        table.play_randomly(rng)
    saved = table.client.get(table.host + "/save")
    assert saved.status_code == 200 and "attachment" in saved.headers["content-disposition"]
    before = table.table.state.dumps()
    for _ in range(4):
        table.play_randomly(rng)
    assert table.table.state.dumps() != before
    loaded = table.client.post(table.host + "/load", content=saved.content)
    assert loaded.status_code == 200, loaded.text
    assert table.table.state.dumps() == before
    # The file is `ruleskit play`'s save: `play --load` reads it.
    from ruleskit.saves import load_saved

    path = tmp_path / "save.json"
    path.write_bytes(saved.content)
    _, state, seats = load_saved(path, table.table.game)
    assert state.dumps() == before and seats == ["human", "human"]


def test_a_loaded_save_seeds_its_bots_afresh() -> None:
    # From a fixed seed, the bots' moves after every load of one save would repeat and could be foreseen.
    from ruleskit.web.loaded import table_from_save

    game = ruleskit.load("tests/packs/card_duel")
    first = table_from_save(game, WebTable(game, game.new_game(players=2, seed=4), ["human", "random"], seed=4)
                            .save_text())
    second = table_from_save(game, first.save_text())
    assert first.state.dumps() == second.state.dumps()
    assert len({first.seed, second.seed, 0}) == 3


def test_loading_something_else_is_refused(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"])
    before = snapshot(table)
    for body in [b"{", b"[]", b'{"format": "ruleskit-save", "seats": ["human", "human"], "state": {}}',
                 json.dumps({"format": "ruleskit-save", "seats": ["human", "android"],
                             "state": table.table.state.to_json()}).encode()]:
        response = table.client.post(table.host + "/load", content=body)
        assert response.status_code == 400, body
        assert response.json()["error"]
    assert snapshot(table) == before
    damaged = json.loads(table.client.get(table.host + "/save").content)
    del damaged["state"]["data"]["flow"]
    response = table.client.post(table.host + "/load", content=json.dumps(damaged).encode())
    # refused with the JSON path of what is wrong in it, from the file's top, and its line
    assert response.status_code == 400 and "$.state.data.flow (line 1, column " in response.json()["error"]
    assert response.json()["error"].endswith(": missing")
    assert snapshot(table) == before
    other = served("tests/packs/dice_race", ["human", "human"])
    response = table.client.post(table.host + "/load", content=other.client.get(other.host + "/save").content)
    assert response.status_code == 400 and "other content" in response.json()["error"]


def test_the_log_downloads_and_replays(served: Any, tmp_path: Path) -> None:
    from ruleskit.log import replay

    table = served("tests/packs/dice_race", ["human", "random"], seed=2)
    import random

    rng = random.Random(2)
    while table.play_randomly(rng) is not None:
        pass
    response = table.client.get(table.host + "/log")
    assert response.status_code == 200
    path = tmp_path / "game.jsonl"
    path.write_bytes(response.content)
    final = replay(path, "tests/packs/dice_race")  # a log never chooses a folder: the pack is named
    assert final.is_terminal and final.data == table.table.state.data


def test_the_page_sets_pack_text_as_text_never_as_markup() -> None:
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    for risky in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert risky not in script
    script = script.replace('"http://www.w3.org/2000/svg"', "")  # a namespace name, not an address
    assert "http://" not in script and "https://" not in script  # nothing is fetched from elsewhere
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    assert "http" not in page.replace('lang="en"', "")


def test_hostile_names_reach_the_page_as_plain_json(served: Any, tmp_path: Path) -> None:
    pack = tmp_path / "hostile"
    pack.mkdir()
    (pack / "pack.toml").write_text('name = "hostile"\nversion = "1"\nplayers = { min = 2, max = 2 }\n')
    (pack / "game.toml").write_text(
        '[kinds.gem]\nitems.ruby = { name = "<img src=x onerror=alert(1)>" }\n'
        '[zones.table]\ntype = "pool"\nof = "gem"\nstart = { ruby = 1 }\n'
        '[zones.stash]\ntype = "pool"\nof = "gem"\nowner = "player"\n'
        '[stages.grab]\n[phases.play]\nstage = "grab"\n[flow]\nstart = "play"\nmax_turns = 4\n'
        '[actions.take]\nstage = "grab"\nparams = { g = "distinct(items(table))" }\nlabel = "<script>alert(2)</script> {g}"\n'
        'effect = "move 1 of g from table to me.stash\\nend turn"\n'
        '[end.empty]\nwhen = "count(table) == 0"\nreason = "</li><b>done"\n'
        '[scoring]\nscore = "count(p.stash)"\n'
        '[display]\nplayers = ["<b>Bold</b>", "x"]\n')
    table = served(str(pack), ["human", "human"])
    response = table.client.get(table.seat_urls()[0])
    assert response.headers["content-type"].startswith("application/json")
    labels = [o["label"] for g in response.json()["actions"] for o in g["options"]]
    assert labels == ["<script>alert(2)</script> <img src=x onerror=alert(1)>"]


def test_state_json_is_never_sent(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"])
    payload = table.payload(0)
    deck = State.view(table.table.state, 0)["zones"]["deck"]
    assert deck["hidden"] is True
    assert "rng" not in json.dumps(payload) and '"z"' not in json.dumps(payload)


def test_a_scenario_starts_every_game_and_sets_the_seats(served: Any) -> None:
    import ruleskit
    from ruleskit.web.lobby import Lobby

    scenario = Path("examples/scenarios/ophir-failed-check.toml")
    lobby = Lobby(ruleskit.load("ophir"), scenario=scenario)
    table = lobby.start()
    expected = ruleskit.scenario(scenario)
    assert table.state.players == 3 and table.seats == ["human", "random", "random"]
    assert expected.players_to_decide() == [0]  # the human decides first: no bot has moved
    assert table.state.data == expected.data
    assert lobby.info()["scenario"] == scenario.name
    with pytest.raises(Refusal, match="cannot be written as a log"):  # a log could not replay it; a save can
        table.log_text()
    assert json.loads(table.save_text())["state"]["history"][0]["scenario"] is True


def test_a_waiting_seat_may_take_an_anytime_action(served: Any) -> None:
    # Nereus lets a player sell gems at any time: the seat that waits is offered its sales and may make one.
    table = served("nereus", ["human", "human"], seed=1)
    rng = random.Random(0)
    while not table.table.state.out_of_turn_actions():
        assert table.play_randomly(rng) is not None
    state = table.table.state
    decider = state.players_to_decide()[0]
    waiting = 1 - decider
    offered = [o["id"] for group in table.payload(waiting)["outOfTurn"] for o in group["options"]]
    assert offered == [a.id for a in state.out_of_turn_actions(waiting)]
    assert table.payload(decider)["outOfTurn"] == []
    not_offered = state.legal_actions(decider)[0].id
    before = snapshot(table)
    response = table.act(waiting, not_offered)
    assert response.status_code == 409 and "decision now" in response.json()["error"]
    assert snapshot(table) == before
    assert table.act(waiting, offered[0]).status_code == 200
    after = table.table.state
    assert after.history[-1]["player"] == waiting and after.history[-1]["action"] == offered[0]
    assert after.players_to_decide() == [decider]


def test_a_loaded_save_names_only_humans_and_built_in_bots(served: Any, capsys: Any) -> None:
    # A seat naming a module would import it and call what it names; a bot's option could set it searching
    # without end. `ruleskit play --load` refuses such seats, and so does the page.
    table = served("tests/packs/card_duel", ["human", "human"])
    before = snapshot(table)
    saved = json.loads(table.client.get(table.host + "/save").content)
    for seat in ["builtins:print:PWNED", "this:x", "mcts:1000000000", "greedy:1000000000", "random:2", 7, None]:
        saved["seats"] = [seat, "human"]
        response = table.client.post(table.host + "/load", content=json.dumps(saved).encode())
        assert response.status_code == 400, (seat, response.text)
        assert "unknown seat" in response.json()["error"]
        assert snapshot(table) == before
    assert "PWNED" not in capsys.readouterr().out


def test_unreadable_json_bodies_are_refused_not_errors(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"])
    seat = table.table.state.players_to_decide()[0]
    before = snapshot(table)
    for body in [b"[" * 100_000 + b"]" * 100_000, b'{"players": ' + b"9" * 5000 + b"}"]:
        for url in [table.seat_urls()[seat] + "/act", table.host + "/new", table.host + "/load"]:
            response = table.client.post(url, content=body)
            assert response.status_code == 400, (url, response.text[:200])
            assert snapshot(table) == before


def test_numbers_in_addresses_that_are_not_plain_digits_are_refused(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"])
    for at in ["%C2%B2", "9" * 5000]:  # '²' passes str.isdigit, and int() refuses it; so does 5000 digits
        response = table.client.get(table.host + f"/screen?at={at}")
        assert response.status_code < 500, response.text[:200]


def test_an_error_in_the_packs_code_while_answering_is_its_located_message(served: Any, tmp_path: Path) -> None:
    """A face that divides by zero fails every view of its zone: the server answers with the pack's error,
    where it was a traceback and an empty 500."""
    (tmp_path / "pack.toml").write_text('name = "bad-face"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                        'files = ["game.toml"]\n')
    (tmp_path / "game.toml").write_text(
        '[kinds.card]\nfields = { v = "int" }\nitems.k1 = { v = 0 }\nitems.k2 = { v = 1 }\n\n'
        '[zones.table]\ntype = "stack"\nof = "card"\nshows = "10 // it.v"\nstart = ["k2", "k1"]\n\n'
        '[stages.main]\n\n[phases.play]\nstage = "main"\n\n[flow]\nstart = "play"\nmax_turns = 4\n\n'
        '[actions.pass]\nstage = "main"\neffect = "end turn"\n\n[scoring]\nscore = "0"\n')
    table = served(str(tmp_path), ["human", "human"])
    for url in (table.seat_urls()[0], f"{table.host}/screen"):
        response = table.client.get(url)
        assert response.status_code == 500
        assert "division by zero in shows of zone table" in response.json()["error"]
        assert "game.toml:9" in response.json()["error"]


def test_a_game_not_given_a_seed_draws_one_nobody_can_guess() -> None:
    """`serve` dealt its first game from seed 0, and each "New game" from the last game's seed: a player at a
    seat's address could deal the same game at home and read every hidden hand. A seed given is kept for the
    game it is given to only."""
    import ruleskit
    from ruleskit.web.lobby import Lobby

    game = ruleskit.load("tests/packs/card_duel")
    lobby = Lobby(game, 2, ["human", "human"])
    seeds = [lobby.start().state.data["seed"], lobby.start().state.data["seed"]]
    assert 0 not in seeds and seeds[0] != seeds[1]
    given = Lobby(game, 2, ["human", "human"], 4)
    assert given.start().state.data["seed"] == 4
    assert given.info()["defaults"]["seed"] == 4
    assert given.start().state.data["seed"] != 4
    assert given.start(seed=4).state.data["seed"] == 4


def test_a_scenario_that_writes_no_seed_is_dealt_from_the_games_seed(tmp_path: Path) -> None:
    """Every game of `serve --scenario` (and `play --scenario`) was dealt from the scenario's seed, 0 when it
    wrote none, whatever seed the game was given: anyone with the file dealt the same hands and deck at home."""
    import ruleskit
    from ruleskit.web.lobby import Lobby

    game = ruleskit.load("tests/packs/card_duel")
    scenario = tmp_path / "duel.toml"
    scenario.write_text("players = 2\n")
    lobby = Lobby(game, seats=["human", "human"], scenario=scenario)
    first, second = lobby.start().state, lobby.start().state
    at_home = ruleskit.scenario(scenario, game)
    assert first.data["seed"] != 0 and first.data["seed"] != second.data["seed"]
    assert first.data["z"] != second.data["z"] and first.data["z"] != at_home.data["z"]
    from ruleskit.scenarios import load_scenario

    assert lobby.start(seed=11).state.data["z"] == load_scenario(scenario, game, 11).data["z"]
    assert lobby.info()["defaults"]["seed"] == 11
    # A scenario that writes its seed is dealt from it, as its author pinned it.
    scenario.write_text("players = 2\nseed = 5\n")
    assert lobby.start().state.data["z"] == ruleskit.scenario(scenario, game).data["z"]
    assert lobby.info()["defaults"]["seed"] == 5


def test_a_lone_surrogate_in_a_body_is_refused_not_an_error(served: Any) -> None:
    # JSON's "\ud800" escape reads as a lone surrogate: repeated in a refusal, it failed to encode (a 500).
    table = served("tests/packs/card_duel", ["human", "human"])
    seat = table.table.state.players_to_decide()[0]
    version = table.payload(seat)["version"]
    before = snapshot(table)
    for url, body in [
        (table.seat_urls()[seat] + "/act", b'{"action": "\\ud800", "version": %d}' % version),
        (table.host + "/new", b'{"seats": ["\\ud800", "human"]}'),
    ]:
        response = table.client.post(url, content=body, headers={"Content-Type": "application/json"})
        assert response.status_code == 400, (url, response.text)
        assert "valid Unicode" in response.json()["error"]
        assert snapshot(table) == before


def test_a_lone_surrogate_in_an_answer_is_written_as_its_json_escape() -> None:
    response = web_app.refused(Refusal("unknown seat '\ud800'"))
    assert response.body == b'{"error":"unknown seat \'\\ud800\'"}'
    assert json.loads(response.body) == {"error": "unknown seat '\ud800'"}


def test_a_refused_save_is_told_with_the_line_of_its_bad_value() -> None:
    """The browser's load named `$.data.pv[1].out`, with no line: `play --load` names `$.state...` and the line."""
    from ruleskit.web.loaded import table_from_save

    game = ruleskit.load("envoys")
    saved = game.new_game(players=2, seed=4).to_json()
    saved["data"]["pv"][1]["out"] = 7
    text = json.dumps({"format": "ruleskit-save", "seats": ["human", "random"], "state": saved}, indent=1)
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if '"out": 7' in row)
    with pytest.raises(Refusal) as refused:
        table_from_save(game, text)
    assert f"$.state.data.pv[1].out (line {line}, column " in str(refused.value)


def test_a_table_of_bots_alone_is_refused_new_or_loaded(served: Any) -> None:
    """Bots alone played the whole game inside the request that started or loaded it (a game's thousands of
    turns, or an mcts bot's minutes a decision), and the page had no answer until its end."""
    table = served("tests/packs/card_duel", ["human", "human"], seed=1)
    before = snapshot(table)
    response = table.client.post(table.host + "/new", json={"players": 2, "seats": ["random", "greedy"]})
    assert response.status_code == 400, response.text
    assert "every seat is a bot: a table needs a human seat" in response.json()["error"]
    assert snapshot(table) == before
    saved = json.loads(table.client.get(table.host + "/save").content)
    saved["seats"] = ["random", "random"]
    response = table.client.post(table.host + "/load", content=json.dumps(saved).encode())
    assert response.status_code == 400, response.text
    assert response.json()["error"].startswith("cannot load this saved game: every seat is a bot")
    assert snapshot(table) == before


def test_a_finished_game_of_bots_alone_loads_to_be_looked_at(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"], seed=1)
    rng = random.Random(1)
    for _ in range(1000):
        if table.play_randomly(rng) is None:
            break
    assert table.table.state.is_terminal
    saved = json.loads(table.client.get(table.host + "/save").content)
    saved["seats"] = ["random", "random"]
    response = table.client.post(table.host + "/load", content=json.dumps(saved).encode())
    assert response.status_code == 200, response.text
    assert table.table.seats == ["random", "random"] and table.table.state.is_terminal
