"""The replay viewer: every step of a log, from any seat's point of view or in full."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import ruleskit
from ruleskit.errors import ReplayMismatch
from ruleskit.log import write_log
from ruleskit.web.app import replay_app
from ruleskit.web.replay import LogReplay

DUEL = "tests/packs/card_duel"  # a log names only built-in packs: the folder is given with it


@pytest.fixture
def card_duel_log(tmp_path: Path) -> Path:
    state = ruleskit.load(DUEL).new_game(players=2, seed=6)
    rng = random.Random(6)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "duel.jsonl"
    write_log(state, path)
    return path


def test_every_step_is_the_state_after_that_many_decisions(card_duel_log: Path) -> None:
    log = LogReplay(card_duel_log, DUEL)
    final = ruleskit.log.replay(card_duel_log, DUEL)
    assert log.steps == len(final.history) - 1
    assert log.states[-1].data == final.data
    assert log.states[0].history == final.history[:1]
    for number in (0, log.steps // 2, log.steps):
        assert log.states[number].history == final.history[:number + 1]


def test_a_seat_sees_its_own_hand_and_everything_shows_all_hands(card_duel_log: Path) -> None:
    log = LogReplay(card_duel_log, DUEL)
    step = next(n for n, s in enumerate(log.states) if s.data["z"]["hand@1"])
    hand = log.states[step].data["z"]["hand@1"]

    def hand_of_second_player(payload: dict[str, Any]) -> dict[str, Any]:
        return next(z for z in payload["table"]["players"][1]["zones"] if z["label"] == "hand")

    as_first = hand_of_second_player(log.step(step, 0))
    assert as_first["type"] == "hidden" and as_first["count"] == len(hand)
    as_second = hand_of_second_player(log.step(step, 1))
    assert [c["text"] for c in as_second["cards"]] == hand
    everything = hand_of_second_player(log.step(step, None))
    assert [c["text"] for c in everything["cards"]] == hand
    setup = log.step(0, None)["feed"][0]["text"]
    assert setup.startswith("deck shuffled: ")  # in full, the deal is shown
    assert log.step(0, 0)["feed"][0]["text"] == "deck shuffled"


def test_the_viewer_serves_steps_and_refuses_bad_ones(card_duel_log: Path) -> None:
    log = LogReplay(card_duel_log, DUEL)
    client = TestClient(replay_app(log))
    summary = client.get("/api/replay").json()
    assert summary["steps"] == log.steps and summary["names"] == ["Player 1", "Player 2"]
    assert client.get(f"/api/replay/{log.steps}?seat=1").json()["table"]["result"] is not None
    assert client.get("/api/replay/0?seat=all").json()["seat"] is None
    assert client.get(f"/api/replay/{log.steps + 1}").status_code == 404
    assert client.get("/api/replay/-1").status_code == 404
    assert client.get("/api/replay/1?seat=5").status_code == 400
    assert client.get("/api/replay/1?seat=x").status_code == 400
    # '²' passes str.isdigit but not int(); int() of thousands of digits is refused: neither is an error
    assert client.get("/api/replay/%C2%B2").status_code == 404
    assert client.get("/api/replay/" + "9" * 5000).status_code == 404
    assert client.get("/api/replay/1?seat=%C2%B2").status_code == 400
    assert client.get("/api/replay/1?seat=" + "1" * 5000).status_code == 400
    assert client.get("/replay").status_code == 200


def test_a_log_that_does_not_replay_is_refused_with_its_line(card_duel_log: Path, tmp_path: Path) -> None:
    lines = card_duel_log.read_text().splitlines()
    lines[3] = lines[3].replace('"action":"', '"action":"x', 1)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayMismatch) as caught:
        LogReplay(broken, DUEL)
    assert caught.value.line == 4


def test_a_log_read_from_a_pipe_is_replayed(card_duel_log: Path) -> None:
    # `serve --log <(zcat game.jsonl.gz)`: the header was read a second time, once the pipe was empty.
    import os

    read_end, write_end = os.pipe()
    os.write(write_end, card_duel_log.read_bytes())
    os.close(write_end)
    log = LogReplay(f"/dev/fd/{read_end}", DUEL)
    assert log.states[-1].data == ruleskit.log.replay(card_duel_log, DUEL).data
