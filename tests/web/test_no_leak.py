"""Hidden information holds in the browser: a seat is sent its own view, its own actions and nothing else."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from ruleskit.runtime.state import State
from ruleskit.tableau import Tableau


def hidden_from(state: State, seat: int) -> set[str]:
    """Items the engine keeps from `seat`: in zones its view shows only as counts, and seen nowhere else."""
    view = state.view(seat)
    kept: set[str] = set()
    shown: set[str] = set()
    for key, content in state.data["z"].items():
        seen = view["zones"][key]
        items = ([i for i, n in content.items() if n] if isinstance(content, dict)
                 else [i for i in content if i is not None])
        if isinstance(seen, dict) and seen.get("hidden") is True:
            kept.update(i for i in items if i != seen.get("top"))
            if seen.get("top") is not None:
                shown.add(seen["top"])
        else:
            shown.update(items)
    return kept - shown


def mentions(text: str, state: State, items: set[str]) -> list[str]:
    found = []
    for item in items:
        for word in {item, str(state.game.model.item_data[item]["name"])}:
            if re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", text):
                found.append(word)
    return found


def check_seat(served: Any, seat: int, seen_events: dict[int, int], hidden_vars: list[str]) -> None:
    state = served.table.state
    payload = served.payload(seat)
    secret = hidden_from(state, seat)
    # The table drawn for the seat names no item hidden from it, and nothing else is sent with it.
    drawn = json.dumps({k: v for k, v in payload.items() if k != "feed"}, ensure_ascii=False)
    assert not mentions(drawn, state, secret), f"seat {seat} is sent hidden items"
    assert not {"state", "data", "history", "rng", "pending", "chance"} & set(payload)
    # New events are told without the items hidden from the seat when they happened
    # (a seat's own decisions are told to it in full: it made them).
    new = [e for e in payload["feed"] if e["n"] > seen_events.get(seat, 0)]
    for event in new:
        if event["by"] == seat:
            continue
        assert not mentions(event["text"], state, secret), f"seat {seat} is told a hidden item: {event['text']}"
    if new:
        seen_events[seat] = new[-1]["n"]
    # Only the seat's own actions, exactly the engine's; none for a seat not deciding.
    sent = sorted(o["id"] for group in payload["actions"] for o in group["options"])
    assert sent == sorted(a.id for a in state.legal_actions(seat))
    assert payload["deciding"] == (seat in state.players_to_decide())
    # Another player's secret counters show as '?'.
    for player in payload["table"]["players"]:
        for row in player["rows"]:
            if row["label"] in hidden_vars and player["seat"] != seat:
                assert row["value"] == "?" and row["secret"]


def same_drawing_when_hidden_things_differ(state: State, tableau: Tableau, seat: int, seed: int) -> None:
    """Redraw what the seat cannot know: what it is shown does not change."""
    other = state.determinized(seat, seed)
    assert tableau.of(other.view(seat)) == tableau.of(state.view(seat))


@pytest.mark.parametrize("seed", [1, 2])
def test_card_duel_seats_see_only_their_own_hands(served: Any, seed: int) -> None:
    table = served("tests/packs/card_duel", ["human", "human"], seed=seed)
    rng = random.Random(seed)
    seen: dict[int, int] = {}
    checked_hidden_hand = False
    for step in range(120):
        for seat in range(2):
            check_seat(table, seat, seen, ["fame"])
            same_drawing_when_hidden_things_differ(table.table.state, table.table.tableau, seat, step)
            other_hand = [z for p in table.payload(seat)["table"]["players"] if p["seat"] != seat
                          for z in p["zones"] if z["label"] == "hand"]
            checked_hidden_hand |= bool(other_hand) and other_hand[0]["type"] == "hidden" and other_hand[0]["count"] > 0
        if table.play_randomly(rng) is None:
            break
    assert checked_hidden_hand
    assert table.table.state.is_terminal


def test_ophir_seats_see_neither_the_decks_nor_others_vp(served: Any) -> None:
    table = served("ophir", ["human", "human", "human"], seed=5)
    rng = random.Random(5)
    seen: dict[int, int] = {}
    for step in range(60):
        for seat in range(3):
            check_seat(table, seat, seen, ["VP"])
        if step % 10 == 0:
            for seat in range(3):
                same_drawing_when_hidden_things_differ(table.table.state, table.table.tableau, seat, step)
        if table.play_randomly(rng) is None:
            break
    assert hidden_from(table.table.state, 0), "the decks are hidden"


def test_a_secret_pick_is_told_to_the_others_only_as_a_secret_choice(served: Any) -> None:
    table = served("tests/packs/card_duel", ["human", "human"], seed=1)
    rng = random.Random(3)
    for _ in range(200):
        state = table.table.state
        if state.is_terminal:
            break
        if state.data["flow"]["simul"] is not None and len(state.players_to_decide()) == 2:
            seat = state.players_to_decide()[0]
            action = state.legal_actions(seat)[0]
            assert table.act(seat, action.id).status_code == 200
            other = 1 - seat
            last = table.payload(other)["feed"][-1]["text"]
            assert last.endswith("makes a secret choice")
            assert action.label not in last
            assert table.payload(seat)["myPick"]
            return
        table.play_randomly(rng)
    pytest.fail("no simultaneous pick came up")
