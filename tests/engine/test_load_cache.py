"""The load cache: what a warm load reuses, and that no cache file can change what runs."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from lark import Token, Tree
from lark.exceptions import UnexpectedInput

import ruleskit
from ruleskit.cache import FORMAT, KEY_FILE, Cache, cache_folder, default_cache, digest
from ruleskit.lang.parsecache import BadEntry, build_parser, decode_tree, encode_tree, plain, unpaired
from ruleskit.lang.parser import Origin, grammar_text, parse
from ruleskit.resources import builtin_packs

DICE_RACE = Path(__file__).parent.parent / "packs" / "dice_race"
OPTIONS = {"parser": "lalr", "start": ["module", "block", "expr"], "propagate_positions": True}


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULESKIT_CACHE_DIR", str(folder))
    monkeypatch.delenv("RULESKIT_NO_CACHE", raising=False)
    return folder


def entries(folder: Path, kind: str) -> list[Path]:
    return sorted(folder.glob(f"{kind}-*.json"))


def play(game: ruleskit.Game, seed: int, decisions: int = 60) -> list[str]:
    """The ids chosen in a random game, with the legal set size at each step (the game's fingerprint)."""
    state = game.new_game(players=game.min_players, seed=seed)
    chooser = random.Random(seed)
    trace = []
    while not state.is_terminal and len(trace) < decisions:
        actions = state.legal_actions()
        action = chooser.choice(actions)
        trace.append(f"{len(actions)}:{action.id}")
        state.apply(action)
    return trace + [json.dumps(state.to_json(), sort_keys=True)]


def test_the_folder_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RULESKIT_NO_CACHE", raising=False)
    monkeypatch.setenv("RULESKIT_CACHE_DIR", str(tmp_path / "here"))
    assert cache_folder() == tmp_path / "here"
    monkeypatch.delenv("RULESKIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if os.name == "posix" and os.uname().sysname == "Linux":
        assert cache_folder() == tmp_path / "xdg" / "ruleskit"
        monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # the XDG rule: ignored
        assert cache_folder() == Path.home() / ".cache" / "ruleskit"
    monkeypatch.setenv("RULESKIT_NO_CACHE", "1")
    assert cache_folder() is None and default_cache() is None


def test_a_warm_load_plays_the_same_games(cache_dir: Path) -> None:
    cold = ruleskit.load("ophir")
    trees = entries(cache_dir, "trees")
    assert len(trees) == 1
    written = trees[0].read_bytes()
    warm = ruleskit.load("ophir")
    assert trees[0].read_bytes() == written  # nothing missed, so nothing rewritten
    uncached = ruleskit.load("ophir", cache=False)
    for seed in (1, 2):
        assert play(warm, seed) == play(cold, seed) == play(uncached, seed)
    assert warm.code == uncached.code


def test_no_cache_writes_nothing(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleskit.load(DICE_RACE, cache=False)
    assert not cache_dir.exists() or entries(cache_dir, "trees") == []
    monkeypatch.setenv("RULESKIT_NO_CACHE", "1")
    ruleskit.load(DICE_RACE)
    assert not cache_dir.exists() or entries(cache_dir, "trees") == []


def test_a_changed_file_misses_and_the_entry_follows_it(cache_dir: Path, tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    source = DICE_RACE
    pack.mkdir()
    for path in source.iterdir():
        if path.is_file():
            (pack / path.name).write_bytes(path.read_bytes())
    first = ruleskit.load(pack)
    rk = next(pack.glob("*.rk"))
    rk.write_text(rk.read_text(encoding="utf-8") + "\nrule added_for_the_test() = 41 + 1\n", encoding="utf-8")
    second = ruleskit.load(pack)
    assert "added_for_the_test" in second.program.rules and "added_for_the_test" not in first.program.rules
    third = ruleskit.load(pack)  # from the rewritten entry
    assert "added_for_the_test" in third.program.rules


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "junk", "directory"])
def test_a_damaged_entry_is_a_miss(cache_dir: Path, damage: str) -> None:
    reference = play(ruleskit.load(DICE_RACE, cache=False), 3)
    ruleskit.load(DICE_RACE)
    entry = entries(cache_dir, "trees")[0]
    raw = entry.read_bytes()
    if damage == "flip":
        middle = len(raw) // 2
        entry.write_bytes(raw[:middle] + bytes([raw[middle] ^ 1]) + raw[middle + 1:])
    elif damage == "truncate":
        entry.write_bytes(raw[: len(raw) // 3])
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "junk":
        entry.write_bytes(os.urandom(4096))
    else:
        entry.unlink()
        entry.mkdir()
    assert play(ruleskit.load(DICE_RACE), 3) == reference


def test_an_edited_entry_with_its_old_mac_is_refused(cache_dir: Path) -> None:
    """Someone who can write the folder but not read the key cannot make an entry the cache accepts."""
    ruleskit.load(DICE_RACE)
    entry = entries(cache_dir, "trees")[0]
    head, mac, payload = entry.read_bytes().split(b"\n", 2)
    trees = json.loads(payload)
    key = next(iter(trees))
    trees[key] = encode_tree(Tree("module", []))
    entry.write_bytes(head + b"\n" + mac + b"\n" + json.dumps(trees).encode())
    store = Cache(cache_dir)
    assert store.get("trees", entry.name.removeprefix("trees-").removesuffix(".json")) is None


def test_an_entry_signed_with_the_key_still_only_gives_trees(cache_dir: Path) -> None:
    """Even an entry written with the key holds JSON that becomes a parse tree or nothing."""
    for bad in ([0, "module", True, None, [[2, "x"]]], [1, "NAME", 7, 0, 1, 1, 1, 1, 1], {"__class__": 1},
                [0, "module", "yes", None, "children"], "print(1)", [[[[[]]]]]):
        with pytest.raises(BadEntry):
            decode_tree(bad)
    deep: list = [0, "expr", False, None, []]
    node = deep
    for _ in range(500):
        child: list = [0, "expr", False, None, []]
        node[4].append(child)
        node = child
    with pytest.raises(BadEntry):
        decode_tree(deep)


def test_the_key_is_private_and_a_shared_key_turns_the_cache_off(cache_dir: Path) -> None:
    store = Cache(cache_dir)
    name = digest("an entry")
    assert store.put("trees", name, {"x": 1})
    key = cache_dir / KEY_FILE
    assert key.stat().st_mode & 0o777 == 0o600
    assert Cache(cache_dir).get("trees", name) == {"x": 1}
    if os.name == "posix":
        key.chmod(0o644)
        assert Cache(cache_dir).get("trees", name) is None


def test_entries_are_json_behind_a_format_line(cache_dir: Path) -> None:
    ruleskit.load(DICE_RACE)
    for entry in cache_dir.glob("*.json"):
        head, _, rest = entry.read_bytes().partition(b"\n")
        assert head == FORMAT
        _, _, payload = rest.partition(b"\n")
        json.loads(payload)  # plain JSON: nothing to unpickle or import


def test_the_folder_is_bounded_least_recently_used_first(cache_dir: Path) -> None:
    store = Cache(cache_dir)
    names = [digest(f"k{index}") for index in range(6)]
    for index, name in enumerate(names):
        assert store.put("trees", name, "x" * 1000)
        os.utime(store.path("trees", name), (1_000_000 + index, 1_000_000 + index))
    assert store.get("trees", names[0]) == "x" * 1000  # read: now the most recent
    store.prune(limit=3 * 1100)
    left = {p.name for p in entries(cache_dir, "trees")}
    assert left == {f"trees-{names[i]}.json" for i in (0, 4, 5)}
    assert store.clear() == 3 and entries(cache_dir, "trees") == []


def test_entry_names_are_made_here_only(cache_dir: Path) -> None:
    for kind, key in (("trees", "../../etc/passwd"), ("trees", "ab12"), ("my", "dataset"), ("../x", digest("x"))):
        with pytest.raises(ValueError):
            Cache(cache_dir).path(kind, key)


def test_trees_come_back_exactly() -> None:
    """Every .rk file of every built-in pack: the same tree, token types and every position."""
    checked = 0
    for root in builtin_packs().values():
        for path in sorted(root.glob("*.rk")):
            tree = parse(path.read_text(encoding="utf-8"), "module", Origin(path.name))
            back = decode_tree(json.loads(json.dumps(encode_tree(tree))))
            assert isinstance(back, Tree)
            assert back == tree
            for a, b in zip(tree.iter_subtrees(), back.iter_subtrees(), strict=True):
                assert type(a.data) is type(b.data) and a.meta.__dict__ == b.meta.__dict__
                for x, y in zip(a.children, b.children, strict=True):
                    if isinstance(x, Token):
                        assert isinstance(y, Token) and x.type == y.type and vars_of(x) == vars_of(y)
            checked += 1
    assert checked >= 5


def vars_of(token: Token) -> tuple:
    return (token.start_pos, token.line, token.column, token.end_line, token.end_column, token.end_pos)


def test_the_parser_from_cached_tables_parses_the_same(cache_dir: Path) -> None:
    store = Cache(cache_dir)
    built = build_parser(grammar_text(), store, **OPTIONS)
    assert len(entries(cache_dir, "grammar")) == 1
    restored = build_parser(grammar_text(), store, **OPTIONS)
    assert restored is not built
    for root in builtin_packs().values():
        for path in sorted(root.glob("*.rk")):
            text = path.read_text(encoding="utf-8")
            assert restored.parse(text, start="module") == built.parse(text, start="module")
    assert restored.parse("1 + 2 * max(y, 3)", start="expr") == built.parse("1 + 2 * max(y, 3)", start="expr")


def test_parse_errors_are_the_same_from_cached_tables(cache_dir: Path) -> None:
    built = build_parser(grammar_text(), Cache(cache_dir), **OPTIONS)
    restored = build_parser(grammar_text(), Cache(cache_dir), **OPTIONS)
    found = []
    for parser in (built, restored):
        with pytest.raises(UnexpectedInput) as caught:
            parser.parse("rule f() = 1 +\n", start="module")
        found.append((type(caught.value), caught.value.line, caught.value.column, sorted(caught.value.expected)))
    assert found[0] == found[1]


def test_tables_keep_their_number_keys() -> None:
    value = {1: ("a", [2, (3, None)]), "k": {"j": "x"}, "e": {}}
    back = json.loads(json.dumps(plain(value)), object_hook=unpaired)
    assert back == {1: ["a", [2, [3, None]]], "k": {"j": "x"}, "e": {}}
    for bad in ({"#pairs": 1}, {"#pairs": [[[], 1]]}, {"#pairs": [1]}):
        with pytest.raises(BadEntry):
            json.loads(json.dumps(bad), object_hook=unpaired)

def test_the_command_line_can_turn_the_cache_off(cache_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from ruleskit.cli import main

    monkeypatch.setenv("RULESKIT_NO_CACHE", "0")  # restored after the test, whatever main sets
    assert main(["--no-cache", "check", str(DICE_RACE)]) == 0
    assert not cache_dir.exists() or entries(cache_dir, "trees") == []
    monkeypatch.setenv("RULESKIT_NO_CACHE", "0")
    assert main(["check", str(DICE_RACE)]) == 0
    assert len(entries(cache_dir, "trees")) == 1


def test_an_unusable_folder_means_no_cache_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("RULESKIT_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.delenv("RULESKIT_NO_CACHE", raising=False)
    game = ruleskit.load(DICE_RACE)
    assert play(game, 4) == play(ruleskit.load(DICE_RACE, cache=False), 4)
    assert blocker.read_text(encoding="utf-8") == "not a folder"
