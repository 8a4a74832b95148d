"""What happened, as each seat is told: refused simultaneous picks, rolls, shuffles."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def test_a_refused_simultaneous_pick_is_told_to_every_seat(served: Any, clash_pack: Path) -> None:
    table = served(str(clash_pack), ["human", "human"], seed=1)
    assert table.act(0, "take:ruby").status_code == 200
    mid = table.payload(1)
    assert mid["feed"][-1]["text"] == "Player 1 makes a secret choice"
    assert table.payload(0)["myPick"] == "Take ruby"
    assert table.act(1, "take:ruby").status_code == 200
    for seat in (0, 1):
        texts = [e["text"] for e in table.payload(seat)["feed"]]
        assert "Player 2's choice was refused: table holds 0 ruby, not 1" in texts


def test_rolls_are_told_with_their_value_and_shuffles_without_their_order(served: Any) -> None:
    table = served("tests/packs/dice_race", ["human", "human"], seed=3)
    assert table.act(0, "roll").status_code == 200
    rolled = table.table.state.history[-1]["chance"][0]["value"]
    for seat in (0, 1):
        chance = [e["text"] for e in table.payload(seat)["feed"] if e["kind"] == "chance"]
        assert chance == [f"d6 rolled {rolled}"]
    duel = served("tests/packs/card_duel", ["human", "human"], seed=3)
    first = duel.payload(0)["feed"]
    assert [e["text"] for e in first if e["kind"] == "chance"] == ["deck shuffled"]
