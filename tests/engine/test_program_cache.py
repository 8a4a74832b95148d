"""The compiled pack kept in the load cache: a warm load plays, logs and fails exactly as a cold one."""

from __future__ import annotations

import base64
import json
import marshal
import os
import random
import shutil
import sys
from pathlib import Path

import pytest

import ruleskit
from ruleskit.cache import Cache
from ruleskit.errors import RulesError
from ruleskit.game import DeferredSource
from ruleskit.log import log_lines
from ruleskit.programcache import Decoder, entry_key, fetch
from ruleskit.resources import builtin_packs

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
from test_bad_packs import CASES, cpu_limit, exercise, expected  # noqa: E402

DICE_RACE = Path(__file__).resolve().parents[1] / "packs" / "dice_race"
# The built-in packs whose compiled code can be stored: all of them.
STORED = {"connect_four", "envoys", "navoria", "nereus", "ophir", "valdora"}


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULESKIT_CACHE_DIR", str(folder))
    monkeypatch.delenv("RULESKIT_NO_CACHE", raising=False)
    monkeypatch.delenv("RULESKIT_BACKEND", raising=False)
    return folder


def programs(folder: Path) -> list[Path]:
    return sorted(folder.glob("program-*.json"))


def history(game: ruleskit.Game, players: int, seed: int, limit: int = 400) -> list[str]:
    """A random game's every legal set, choice, message and final state, as text."""
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    trace = []
    while not state.is_terminal and len(trace) < limit:
        player = state.players_to_decide()[0]
        actions = state.legal_actions(player)
        action = chooser.choice(actions)
        trace.append(f"{player}:{[a.id for a in actions]}->{action.id}")
        state.apply(action)
    return trace + [json.dumps(state.to_json(), sort_keys=True), json.dumps(state.result, sort_keys=True),
                    json.dumps(log_lines(state), sort_keys=True)]


@pytest.mark.parametrize("pack", sorted(builtin_packs()))
def test_every_built_in_pack_plays_the_same_games_warm_and_cold(cache_dir: Path, pack: str) -> None:
    cold = ruleskit.load(pack)
    warm = ruleskit.load(pack)
    uncached = ruleskit.load(pack, cache=False)
    assert isinstance(warm.source, DeferredSource) == (pack in STORED)
    assert not isinstance(cold.source, DeferredSource) and not isinstance(uncached.source, DeferredSource)
    for players in sorted({warm.min_players, warm.max_players}):
        for seed in (1, 2):
            assert history(warm, players, seed) == history(cold, players, seed) == history(uncached, players, seed)
    assert (warm.name, warm.version, warm.content_hash, warm.chain) == (cold.name, cold.version,
                                                                        cold.content_hash, cold.chain)
    assert warm.summary() == cold.summary()


def test_a_warm_game_still_gives_its_code_definitions_and_property_checks(cache_dir: Path) -> None:
    ruleskit.load("ophir")
    warm = ruleskit.load("ophir")
    assert isinstance(warm.source, DeferredSource)
    uncached = ruleskit.load("ophir", cache=False)
    assert warm.code == uncached.code and "def " in warm.code
    assert sorted(warm.definitions) == sorted(uncached.definitions)
    assert warm.definitions["end"].keys() == uncached.definitions["end"].keys()
    assert warm.source.defs.keys() == uncached.source.defs.keys()
    checking = warm.with_property_checks()
    assert checking.check_properties and checking.decision_checks
    assert history(checking, 3, 4, 120) == history(uncached.with_property_checks(), 3, 4, 120)


def test_an_edited_rule_is_never_run_from_an_old_entry(cache_dir: Path, tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(DICE_RACE, pack)
    first = ruleskit.load(pack)
    assert isinstance(ruleskit.load(pack).source, DeferredSource)
    rules = pack / "rules.rk"
    text = rules.read_text(encoding="utf-8")
    assert "rule roll_value(p, r) = r\n" in text
    rules.write_text(text.replace("rule roll_value(p, r) = r\n", "rule roll_value(p, r) = 1\n"), encoding="utf-8")
    edited = ruleskit.load(pack)
    assert not isinstance(edited.source, DeferredSource)  # a miss: compiled again
    again = ruleskit.load(pack)
    assert isinstance(again.source, DeferredSource)  # from the entry written for the new text

    def steps_after_rolling(game: ruleskit.Game) -> list[int]:
        """The first player's steps after a roll (the lesser of 3 and the rule's value, plus 1 for luck)."""
        found = []
        for seed in range(8):
            state = game.new_game(players=2, seed=seed)
            state.apply("roll")
            found.append(state.data["v"]["steps"])
        return found

    assert 3 in steps_after_rolling(first)
    assert steps_after_rolling(edited) == steps_after_rolling(again) == [2] * 8
    (pack / "extra.rk").write_text("rule unused_here() = 1\n", encoding="utf-8")  # a new file in the folder
    assert not isinstance(ruleskit.load(pack).source, DeferredSource)


def test_a_file_named_differently_misses(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Errors name files relative to the working folder, and the generated code holds those names."""
    pack = tmp_path / "pack"
    shutil.copytree(DICE_RACE, pack)
    monkeypatch.chdir(tmp_path)
    ruleskit.load(pack)
    assert isinstance(ruleskit.load(pack).source, DeferredSource)
    monkeypatch.chdir(pack)
    assert not isinstance(ruleskit.load(pack).source, DeferredSource)
    assert isinstance(ruleskit.load(pack).source, DeferredSource)  # one entry for each working folder
    monkeypatch.chdir(tmp_path)
    assert isinstance(ruleskit.load(pack).source, DeferredSource)


@pytest.mark.parametrize("damage", ["flip", "truncate", "junk"])
def test_a_damaged_program_entry_is_a_miss(cache_dir: Path, damage: str) -> None:
    reference = history(ruleskit.load(DICE_RACE, cache=False), 2, 3)
    ruleskit.load(DICE_RACE)
    entry = programs(cache_dir)[0]
    raw = entry.read_bytes()
    if damage == "flip":
        middle = len(raw) // 2
        entry.write_bytes(raw[:middle] + bytes([raw[middle] ^ 1]) + raw[middle + 1:])
    elif damage == "truncate":
        entry.write_bytes(raw[: len(raw) // 3])
    else:
        entry.write_bytes(b"ruleskit-cache 1\n" + b"0" * 64 + b"\n" + json.dumps({"code": "x"}).encode())
    game = ruleskit.load(DICE_RACE)
    assert not isinstance(game.source, DeferredSource)
    assert history(game, 2, 3) == reference


def signed_entry(cache_dir: Path) -> tuple[Cache, str, dict]:
    ruleskit.load(DICE_RACE)
    store = Cache(cache_dir)
    key = entry_key(DICE_RACE.resolve(), "compiled")
    entry = store.get("program", key)
    assert isinstance(entry, dict)
    return store, key, entry


def test_an_entry_signed_with_the_key_still_names_only_ruleskit(cache_dir: Path) -> None:
    """Even with the key, an entry can describe only ruleskit's own classes and functions, and code
    compiled for the pack: anything else is a miss, never run."""
    store, key, entry = signed_entry(cache_dir)
    assert fetch(store, key, "compiled") is not None
    tables = entry["tables"]
    forged = [
        tables.replace('"c":"ruleskit.model:Model"', '"c":"os:system"', 1),
        tables.replace('"m":"ruleskit.', '"m":"subprocess.', 1),
        tables.replace('"#":"fn","n":"', '"#":"fn","n":"__builtins__', 1),
        "[" + tables,
    ]
    for bad in forged:
        assert bad != tables
        store.put("program", key, dict(entry, tables=bad))
        assert fetch(store, key, "compiled") is None
    code = marshal.loads(base64.b64decode(entry["code"]))
    name = next(iter(code))
    foreign = dict(code, **{name: compile("import os", "elsewhere.py", "exec")})
    store.put("program", key, dict(entry, code=base64.b64encode(marshal.dumps(foreign)).decode()))
    assert fetch(store, key, "compiled") is None
    store.put("program", key, dict(entry, code=base64.b64encode(b"junk").decode()))
    assert fetch(store, key, "compiled") is None
    store.put("program", key, entry)
    assert fetch(store, key, "compiled") is not None


def test_the_decoder_builds_only_ruleskit_classes() -> None:
    decoder = Decoder({})
    for bad in ('{"#":"obj","c":"builtins:dict","f":{},"i":0}', '{"#":"obj","c":"os:PathLike","f":{},"i":0}',
                '{"#":"code","m":"os","q":"system","w":["system",-1],"c":[],"d":null,"i":0}',
                '{"#":"ref","i":7}', '{"#":"eval","v":"1"}'):
        with pytest.raises(Exception):  # noqa: B017 - any refusal: the caller treats all as a miss
            json.loads(bad, object_hook=decoder.hook)


def test_no_cache_and_the_closure_backend_store_no_program(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleskit.load(DICE_RACE, cache=False)
    ruleskit.load(DICE_RACE, backend="closures")
    ruleskit.load(DICE_RACE, check_properties=True)
    monkeypatch.setenv("RULESKIT_NO_CACHE", "1")
    ruleskit.load(DICE_RACE)
    assert programs(cache_dir) == []


def _outcome(folder: Path, load: str) -> str:
    try:
        with cpu_limit(2.0):
            exercise(folder, load)
    except RulesError as exc:
        return f"{type(exc).__name__}: {exc} @ {exc.file}:{exc.line}"
    return "no error"


@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_bad_packs_fail_alike_cold_warm_and_uncached(folder: Path, cache_dir: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    load = expected(folder).get("load", "pack")
    outcomes = [_outcome(folder, load), _outcome(folder, load)]
    monkeypatch.setenv("RULESKIT_NO_CACHE", "1")
    outcomes.append(_outcome(folder, load))
    assert outcomes[0] == outcomes[1] == outcomes[2]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pack_file_swapped_for_a_pipe_is_a_miss_not_a_hang(cache_dir: Path, tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(DICE_RACE, pack)
    ruleskit.load(pack)
    (pack / "rules.rk").unlink()
    os.mkfifo(pack / "rules.rk")
    with cpu_limit(2.0), pytest.raises(RulesError) as warm:
        ruleskit.load(pack)
    with pytest.raises(RulesError) as uncached:
        ruleskit.load(pack, cache=False)
    assert "not a regular file" in str(warm.value) and str(warm.value) == str(uncached.value)


@pytest.mark.parametrize("pack", sorted(STORED))
def test_a_warm_load_parses_nothing_and_so_imports_no_parser(cache_dir: Path, pack: str) -> None:
    # The parser library is most of a warm load's time when it is imported; only reading packs needs it.
    import subprocess

    script = (f"import sys, ruleskit; game = ruleskit.load({pack!r}); state = game.new_game(seed=1)\n"
              "while not state.is_terminal and len(state.history) < 30: state.apply(state.legal_actions()[0])\n"
              "print(sorted(m for m in sys.modules if m == 'lark' or m.startswith('lark.')))")
    env = {**os.environ, "RULESKIT_CACHE_DIR": str(cache_dir)}
    cold = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout.strip() != "[]"  # compiling the pack parsed it
    warm = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.strip() == "[]"
