"""Logs and saves written by an earlier version of the engine still replay and load.

The files under `data/` were written by ruleskit before its runtime was
rebuilt (plain nested data, every job re-run on each answer). They pin the
external formats: a log replays to the same chance outcomes and result, and a
save (one of them in the middle of a choice, one in the middle of a
simultaneous pick) loads and continues to the same decisions and result as the
earlier version gave (`continuations.json`, recorded with the policy below).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ruleskit
from ruleskit.log import replay

DATA = Path(__file__).parent / "data"
PACKS = {"ophir": "ophir", "card_duel": str(Path(__file__).parents[1] / "packs" / "card_duel")}


def _game(file_name: str) -> ruleskit.Game:
    return ruleskit.load(PACKS[file_name.split("-")[0]])


@pytest.mark.parametrize("file_name", ["ophir-3p-seed11.jsonl", "card_duel-seed9.jsonl"])
def test_old_log_replays(file_name: str) -> None:
    state = replay(DATA / file_name, _game(file_name))
    recorded = [json.loads(line) for line in (DATA / file_name).read_text().splitlines()]
    assert state.is_terminal
    assert state.result == {k: v for k, v in recorded[-1].items() if k != "type"}
    assert len(state.history) == len(recorded) - 2  # every line but the header and the result


GOLDEN = json.loads((DATA / "continuations.json").read_text())


@pytest.mark.parametrize("file_name", sorted(GOLDEN))
def test_old_save_loads_and_continues_as_before(file_name: str) -> None:
    game = _game(file_name)
    state = ruleskit.State.from_json(game, (DATA / file_name).read_text())
    expected = GOLDEN[file_name]
    taken = []
    k = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        action = legal[(k * 7) % len(legal)]
        taken.append(action.id)
        state.apply(action)
        k += 1
        assert k <= len(expected["decisions"]), "the game runs longer than it did"
    assert taken == expected["decisions"]
    assert state.result == expected["result"]


def test_saved_pending_choice_matches_a_replay_of_its_history() -> None:
    game = _game("ophir-4p-pending.save.json")
    saved = json.loads((DATA / "ophir-4p-pending.save.json").read_text())
    state = ruleskit.State.from_json(game, saved)
    assert state.prompt is not None
    again = game.new_game(players=saved["data"]["n"], seed=saved["data"]["seed"])
    for entry in saved["history"][1:]:
        again.apply(entry["action"], player=entry["player"])
    assert again.prompt == state.prompt
    assert [a.id for a in again.legal_actions()] == [a.id for a in state.legal_actions()]
    assert again.view(0) == state.view(0)
