"""Text files that begin with a UTF-8 byte-order mark, as some editors (Notepad) save them: the mark is
invisible there, and a pack file holding one was refused with "unexpected character '\\ufeff'" (a `.rk`
file) or "Invalid statement" (TOML) at line 1, a log with "not JSON"."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import PackError
from ruleskit.log import replay, write_log

GAMES = Path(__file__).resolve().parents[2] / "games"
BOM = b"\xef\xbb\xbf"


def with_bom(path: Path) -> None:
    path.write_bytes(BOM + path.read_bytes())


def test_pack_files_with_a_byte_order_mark_load_as_without(tmp_path: Path) -> None:
    pack = tmp_path / "envoys"
    shutil.copytree(GAMES / "envoys", pack)
    for name in ("pack.toml", "rules.rk", "actions.toml"):
        with_bom(pack / name)
    game = ruleskit.load(pack)
    plain = ruleskit.load(GAMES / "envoys")
    assert [a.id for a in game.new_game(players=3, seed=2).legal_actions()] == \
        [a.id for a in plain.new_game(players=3, seed=2).legal_actions()]


def test_errors_after_the_mark_keep_their_line_and_column(tmp_path: Path) -> None:
    pack = tmp_path / "envoys"
    shutil.copytree(GAMES / "envoys", pack)
    rules = pack / "rules.rk"
    rules.write_text(rules.read_text().replace("rule in_round() = [p for p", "rule in_round() = [p fro p", 1))
    with_bom(rules)
    with pytest.raises(PackError) as refused:
        ruleskit.load(pack)
    assert (refused.value.line, refused.value.column) == (1, 22)


def test_a_mark_anywhere_but_the_start_is_still_refused(tmp_path: Path) -> None:
    pack = tmp_path / "envoys"
    shutil.copytree(GAMES / "envoys", pack)
    rules = pack / "rules.rk"
    rules.write_bytes(rules.read_bytes() + b"\n" + BOM + b"rule z() = 1\n")
    with pytest.raises(PackError, match="ufeff"):
        ruleskit.load(pack)


def test_a_log_with_a_byte_order_mark_replays(tmp_path: Path) -> None:
    game = ruleskit.load("envoys")
    state, rng = game.new_game(players=2, seed=8), random.Random(8)
    while not state.is_terminal:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    log = tmp_path / "game.jsonl"
    write_log(state, log)
    with_bom(log)
    assert replay(log).result == state.result


def test_a_save_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    from ruleskit.saves import load_saved

    game = ruleskit.load("envoys")
    state = game.new_game(players=2, seed=8)
    save = tmp_path / "game.json"
    save.write_bytes(BOM + json.dumps({"format": "ruleskit-save", "ref": "envoys", "seats": ["human", "random"],
                                        "state": state.to_json()}).encode())
    _, loaded, seats = load_saved(save)
    assert loaded == state and seats == ["human", "random"]
