"""Structure-aware fuzzing of logs, saves and scenario files: real files, mutated.

Each example takes a real file (a log or save from tests/compat/data, a
scenario of games/ophir/tests), changes it where it is parsed (a value
replaced by one of another kind, a key removed or added, a list element
repeated) or as bytes (a slice deleted, repeated or overwritten), and loads
it. The outcome must be a state or the project's own RulesError: never
another exception.

The CI budget is small. For a long run:

    RULESKIT_FUZZ_EXAMPLES=5000 python -m pytest tests/hostile/test_fuzz_files.py
"""

from __future__ import annotations

import copy
import json
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ruleskit
from ruleskit.errors import RulesError
from ruleskit.log import replay
from ruleskit.saves import load_saved

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "compat" / "data"
EXAMPLES = int(os.environ.get("RULESKIT_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

GAMES = {"card": ROOT / "tests" / "packs" / "card_duel", "ophir": "ophir"}
LOG = DATA / "card_duel-seed9.jsonl"
SAVES = [DATA / "card_duel-simultaneous.save.json", DATA / "ophir-4p-pending.save.json"]
SCENARIOS = sorted((ROOT / "games" / "ophir" / "tests").glob("*.toml"))[:6]
ODD_VALUES = [None, True, False, 0, -1, 1, 7, 2 ** 70, -(10 ** 30), "", "x", "0", "__class__", "h0", "red1",
              [], [None], [[[]]], {}, {"a": 1}, 1.5, "\x1b[2J", "[/bold]"]


@pytest.fixture(scope="module")
def games() -> dict[str, ruleskit.Game]:
    return {key: ruleskit.load(ref) for key, ref in GAMES.items()}


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON-like value, as a path of keys and indexes."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:8]):
            found += paths(item, prefix + (index,))
    return found


@st.composite
def mutated_data(draw: st.DrawFn, original: Any) -> Any:
    data = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in paths(data) if p]
        if not places:
            break
        place = draw(st.sampled_from(places))
        parent = data
        for key in place[:-1]:
            parent = parent[key]
        last = place[-1]
        how = draw(st.sampled_from(["replace", "delete", "add", "repeat"]))
        if how == "replace":
            parent[last] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
        elif how == "delete":
            del parent[last]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "__init__", "0", "player"]))] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
        elif isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
    return data


@st.composite
def mutated_bytes(draw: st.DrawFn, original: bytes) -> bytes:
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 3))):
        a = draw(st.integers(0, len(data)))
        b = draw(st.integers(a, min(len(data), a + 64)))
        how = draw(st.sampled_from(["delete", "repeat", "overwrite"]))
        if how == "delete":
            del data[a:b]
        elif how == "repeat":
            data[a:a] = data[a:b]
        else:
            data[a:b] = draw(st.binary(min_size=b - a, max_size=b - a))
    return bytes(data)


def log_lines() -> list[Any]:
    return [json.loads(line) for line in LOG.read_text(encoding="utf-8").splitlines()]


@FUZZ
@given(st.data())
def test_mutated_logs_replay_or_fail_cleanly(tmp_path: Path, games: dict[str, ruleskit.Game], data: st.DataObject) -> None:
    path = tmp_path / "log.jsonl"
    if data.draw(st.booleans()):
        lines = data.draw(mutated_data(log_lines()))
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    else:
        path.write_bytes(data.draw(mutated_bytes(LOG.read_bytes())))
    try:
        replay(path, games["card"])
    except RulesError as error:
        assert error.file == str(path) and error.line is not None, str(error)


@FUZZ
@given(st.data())
def test_mutated_saves_load_or_fail_cleanly(tmp_path: Path, games: dict[str, ruleskit.Game], data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(SAVES))
    game = games["card" if source.name.startswith("card") else "ophir"]
    state = json.loads(source.read_text(encoding="utf-8"))
    saved = {"format": "ruleskit-save", "ref": "x", "seats": ["human"] * state["data"]["n"], "state": state}
    path = tmp_path / "save.json"
    if data.draw(st.booleans()):
        path.write_text(json.dumps(data.draw(mutated_data(saved))))
    else:
        path.write_bytes(data.draw(mutated_bytes(json.dumps(saved).encode())))
    try:
        _, state, _ = load_saved(path, game)
    except RulesError as error:
        assert error.file == str(path), str(error)
        return
    if state.players_to_decide():  # a state that loads is one the engine can carry on with
        try:
            state.apply(state.legal_actions()[0])
        except RulesError:
            pass


@FUZZ
@given(st.data())
def test_mutated_scenarios_build_or_fail_cleanly(tmp_path: Path, games: dict[str, ruleskit.Game],
                                                 data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(SCENARIOS))
    path = tmp_path / "scenario.toml"
    if data.draw(st.booleans()):
        mutated = data.draw(mutated_data(tomllib.loads(source.read_text(encoding="utf-8"))))
        try:
            path.write_text(tomli_w.dumps(_tomlable(mutated)))
        except (TypeError, ValueError):
            return  # not writable as TOML (a None somewhere): nothing to load
    else:
        path.write_bytes(data.draw(mutated_bytes(source.read_bytes())))
    try:
        ruleskit.scenario(str(path), "ophir")
    except RulesError as error:
        assert error.file == str(path), str(error)


def _tomlable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _tomlable(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_tomlable(v) for v in value if v is not None]
    return value
