"""`serve` and its replay tell a secret die's roll with its value to the seat that may see it alone
(`tests/packs/cup_dice`, described in `tests/test_secret_dice.py`); an ordinary die is told to all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ruleskit
from ruleskit.log import write_log
from ruleskit.web.replay import LogReplay

CUP = "tests/packs/cup_dice"


def chance(table: Any, seat: int) -> list[str]:
    return [e["text"] for e in table.payload(seat)["feed"] if e["kind"] == "chance"]


def test_each_seat_is_told_its_own_cup_and_the_open_die(served: Any) -> None:
    table = served(CUP, ["human", "human"], seed=1)
    history = table.table.state.history
    first_cup = history[0]["chance"][0]["value"]
    assert chance(table, 0) == [f"Player 1 rolled cup: {first_cup} (secret)"]
    assert chance(table, 1) == ["Player 1 rolled cup"]
    assert table.act(0, "throw").status_code == 200
    d6, second_cup = (c["value"] for c in table.table.state.history[-1]["chance"])
    assert chance(table, 0)[1:] == [f"d6 rolled {d6}", "Player 2 rolled cup"]
    assert chance(table, 1)[1:] == [f"d6 rolled {d6}", f"Player 2 rolled cup: {second_cup} (secret)"]
    assert table.act(1, "hide").status_code == 200
    third_cup = table.table.state.history[-1]["chance"][1]["value"]
    assert chance(table, 0)[3:] == ["Player 2 rolled blind", f"Player 1 rolled cup: {third_cup} (secret)"]
    assert chance(table, 1)[3:] == ["Player 2 rolled blind", "Player 1 rolled cup"]


def test_a_bots_cup_is_never_sent_to_the_human(served: Any) -> None:
    table = served(CUP, ["human", "random"], seed=4)
    for _ in range(3):
        if table.table.state.is_terminal:
            break
        assert table.act(0, "pass").status_code == 200
    texts = chance(table, 0)
    assert "Player 2 rolled cup" in texts
    assert not any(t.startswith("Player 2 rolled cup:") or t.startswith("Player 2 rolled blind:") for t in texts)


def test_the_replay_tells_each_seat_its_own_cup_and_everything_in_full(tmp_path: Path) -> None:
    state = ruleskit.load(CUP).new_game(players=2, seed=1)
    state.apply("throw")
    path = tmp_path / "cup.jsonl"
    write_log(state, path)
    d6, cup = (c["value"] for c in state.history[-1]["chance"])
    log = LogReplay(path, CUP)

    def told(seat: int | None) -> list[str]:
        return [line["text"] for line in log.step(1, seat)["feed"] if line["n"] == 1 and line["kind"] == "chance"]

    assert told(0) == [f"d6 rolled {d6}", "Player 2 rolled cup"]
    assert told(1) == [f"d6 rolled {d6}", f"Player 2 rolled cup: {cup} (secret)"]
    assert told(None) == told(1)
