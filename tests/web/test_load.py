"""A loaded save goes on as the saved game: each seat's story so far, its own pending pick, nothing of others'."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

DUEL = "tests/packs/card_duel"
CLASH = Path(__file__).resolve().parent.parent / "test_simultaneous_clash.py"


def clash_pack(folder: Path) -> Path:
    """The tiny pack of `test_simultaneous_clash.py`: a stage where every player picks a gem in secret."""
    spec = importlib.util.spec_from_file_location("clash", CLASH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (folder / "pack.toml").write_text(module.MANIFEST)
    (folder / "game.toml").write_text(module.GAME)
    return folder


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


@pytest.mark.parametrize("pack", [DUEL, "nereus"])
def test_a_seat_that_picked_before_the_save_is_shown_its_pick_after_the_load(served: Any, pack: str) -> None:
    table = served(pack, ["human", "human"], seed=1)
    seat, pick = play_to_a_secret_pick(table)
    screens = [drawn(table.payload(p)) for p in (0, 1)]
    assert pick
    load(table, table.client.get(table.host + "/save").content)
    mine, other = table.payload(seat), table.payload(1 - seat)
    assert mine["myPick"] == pick and not mine["deciding"]
    assert other["myPick"] is None and other["deciding"]
    assert other["waitingFor"] == [other["name"]]  # the picker is no longer waited for
    assert pick not in json.dumps(other["feed"])
    # Each seat's screen is the live one: no seat learns more of the other's pick or hand.
    for p in (0, 1):
        assert drawn(table.payload(p)) == screens[p]
    # The game goes on from the pick: the other's pick resolves the stage.
    action = other["actions"][0]["options"][0]["id"]
    assert table.act(1 - seat, action).status_code == 200
    assert table.table.state.raw["flow"]["simul"] is None or not table.table.state.raw["flow"]["simul"]["picks"]


def test_a_pick_in_a_shared_pool_is_told_back_to_its_seat_alone(served: Any, tmp_path: Path) -> None:
    table = served(str(clash_pack(tmp_path)), ["human", "human", "human"], seed=1)
    assert table.act(1, "take:ruby").status_code == 200
    load(table, table.client.get(table.host + "/save").content)
    assert [table.payload(p)["myPick"] for p in range(3)] == [None, "Take ruby", None]
    for p in (0, 2):
        assert "ruby" not in json.dumps(table.payload(p)["feed"])
