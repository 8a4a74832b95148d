"""Undo in the browser follows `ruleskit play`: your own last decision, never past chance or a reveal."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def undo(served: Any, seat: int) -> Any:
    version = served.payload(seat)["version"]
    return served.client.post(served.seat_urls()[seat] + "/undo", json={"version": version})


def test_a_player_takes_back_their_own_last_decision(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"], seed=1)
    state = table.table.state
    decider = state.players_to_decide()[0]
    before = state.dumps()
    assert not table.payload(decider)["canUndo"]
    assert table.act(decider, state.legal_actions(decider)[0].id).status_code == 200
    assert table.table.state.dumps() != before
    assert table.payload(decider)["canUndo"]
    other = 1 - decider
    refused = undo(table, other)
    assert refused.status_code == 409 and "only your own decisions" in refused.json()["error"]
    response = undo(table, decider)
    assert response.status_code == 200
    assert table.table.state.dumps() == before
    assert response.json()["feed"][-1]["text"].endswith("took back a decision")
    assert "Nothing to undo" in undo(table, decider).json()["error"]


TAKE_TURNS = Path(__file__).resolve().parents[1] / "packs" / "take_turns"


def test_undo_takes_back_the_bots_replies_too(served: Any) -> None:
    table = served(str(TAKE_TURNS), ["human", "random"], seed=2)
    before = table.table.state.dumps()
    assert table.act(0, "take:ruby").status_code == 200
    after = table.table.state
    assert [entry.get("player") for entry in after.history[1:]] == [0, 1]  # the bot has answered
    assert after.players_to_decide() == [0]
    assert undo(table, 0).status_code == 200
    assert table.table.state.dumps() == before


def test_no_undo_past_a_roll(served: Any) -> None:
    table = served("tests/packs/dice_race", ["human", "human"], seed=3)
    state = table.table.state
    decider = state.players_to_decide()[0]
    assert table.act(decider, "roll").status_code == 200
    response = undo(table, decider)
    assert response.status_code == 409 and "chance outcome" in response.json()["error"]
    assert not table.payload(decider)["canUndo"]


def test_no_undo_past_cards_drawn_into_a_hand(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"], seed=1)
    for _ in range(10):
        state = table.table.state
        decider = state.players_to_decide()[0]
        ids = [a.id for a in state.legal_actions(decider)]
        if "mulligan" in ids:
            break
        assert table.act(decider, ids[0]).status_code == 200
    else:
        raise AssertionError("no mulligan came up")
    assert table.act(decider, "mulligan").status_code == 200
    back = next(a for a in table.table.state.legal_actions(decider) if a.label != "nothing")
    assert table.act(decider, back.id).status_code == 200
    response = undo(table, decider)
    assert response.status_code == 409 and "hidden information" in response.json()["error"]


def test_hot_seat_screen_follows_the_human_to_decide(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"], seed=1)
    screen = table.client.get(table.host + "/screen").json()
    decider = table.table.state.players_to_decide()[0]
    assert screen["seat"] == decider and screen["hotSeat"] and screen["deciding"]
    assert screen["token"] == table.table.tokens[decider]
    action = screen["actions"][0]["options"][0]["id"]
    table.client.post(f"/api/seat/{screen['token']}/act", json={"action": action, "version": screen["version"]})
    now = table.table.state.players_to_decide()[0]
    assert table.client.get(table.host + "/screen").json()["seat"] == now


PEEKING = """
[kinds.card]
items.ace = { name = "Ace of Spades" }
items.two = { name = "Two of Hearts" }
items.three = { name = "Three of Clubs" }

[zones.deck]
of = "card"
visible = "none"
start = ["ace", "two", "three"]

[vars.seen]
type = "card"
owner = "player"
visible = "owner"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
setup = "shuffle deck"
max_turns = 6

[actions.spy]
stage = "main"
label = "Look at the top card of the deck"
effect = "set me.seen = first(deck)\\nend turn"

[actions.scry]
stage = "main"
label = "Look through the deck and put a card on top"
effect = "let c = choose me from items(deck) prompt \\"Put which card on top?\\"\\nmove c from deck to deck\\nend turn"

[actions.pass]
stage = "main"
label = "Pass"
effect = "end turn"

[scoring]
score = "0"
"""


def test_no_undo_past_a_card_seen_in_a_var_or_among_a_choices_options(served: Any, tmp_path: Path) -> None:
    """A look at the face-down deck kept in a var only its owner sees, or offered as the options of a choice,
    showed no new card in any zone, and the look could be taken back."""
    (tmp_path / "pack.toml").write_text('name = "peeking"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                        'files = ["game.toml"]\n')
    (tmp_path / "game.toml").write_text(PEEKING)
    for action in ("spy", "scry"):
        table = served(str(tmp_path), ["human", "random"], seed=3)
        assert table.act(0, action).status_code == 200
        assert table.table.state.players_to_decide() == [0]
        response = undo(table, 0)
        assert response.status_code == 409 and "revealed" in response.json()["error"], action
        assert not table.payload(0)["canUndo"]
    table = served(str(tmp_path), ["human", "random"], seed=3)  # a look at nothing hidden is taken back
    assert table.act(0, "pass").status_code == 200
    assert undo(table, 0).status_code == 200


def _market_that_goes_on(tmp_path: Path) -> Path:
    """The street market with its secret auction every fourth round, not once at the end."""
    import shutil

    pack = tmp_path / "market"
    shutil.copytree("tests/packs/street_market", pack)
    game = pack / "game.toml"
    game.write_text(game.read_text().replace('order = "[0]"\nrounds = 1\n', 'order = "[0]"\nrounds = 1\nnext = "market"\n'))
    return pack


def test_no_undo_past_the_others_secret_picks_shown(served: Any, tmp_path: Path) -> None:
    """A bid is a secret pick whose effect shows once all have bid (each pays it from the coins everyone sees).
    Undo went back past it: the human saw the bot's bid in its coins, took back their own and bid again."""
    pack = str(_market_that_goes_on(tmp_path))
    table = served(pack, ["human", "greedy"], seed=3)
    while "bid:0" not in [o["id"] for g in table.payload(0)["actions"] for o in g["options"]]:
        assert table.act(0, "work").status_code == 200
    assert table.act(0, "bid:0").status_code == 200
    assert table.table.state.raw["flow"]["simul"] is None  # the bot bid after, and the bids were settled
    assert not table.payload(0)["canUndo"]
    refused = undo(table, 0)
    assert refused.status_code == 409 and "secret choice has been revealed" in refused.json()["error"]
    # Two humans: the first may take back their bid while the other has not bid; once both have, neither may.
    both = served(pack, ["human", "human"], seed=3)
    while "bid:0" not in [o["id"] for g in both.payload(0)["actions"] for o in g["options"]]:
        assert both.act(both.table.state.players_to_decide()[0], "work").status_code == 200
    assert both.act(0, "bid:0").status_code == 200
    assert both.payload(0)["canUndo"] and undo(both, 0).status_code == 200
    assert both.act(0, "bid:1").status_code == 200
    assert both.act(1, "bid:0").status_code == 200
    assert "secret choice has been revealed" in undo(both, 1).json()["error"]
