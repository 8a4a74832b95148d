"""`l[i] += x`, `l[i] -= x` and `set l[i][j] = x` read an element before writing: the read is an index like any
other, refused with a located error when `i` is out of range or not a number (it was a Python IndexError or
TypeError in both backends, and `l[-1] += 1` read the last element)."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import IllegalAction, ProgramError

MANIFEST = """\
name = "element-updates"
version = "0.1"
players = { min = 2, max = 2 }
files = ["game.toml", "rules.rk"]
"""

GAME = """\
[kinds.card]
items = { a = {}, b = {} }

[zones.display]
type = "row"
of = "card"
slots = 2

[vars.l]
type = "list"
start = [1, 2]

[vars.n]
type = "int"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"

%(actions)s

[scoring]
score = "n"
"""

RULES = """\
proc empty_list() { set l = []
  l[0] += 1 }
proc past_the_end() { l[2] += 1 }
proc negative() { l[-1] -= 1 }
proc text_index() { l["a"] += 1 }
proc local_list() { let v = [1]
  v[3] -= 1
  set n = v[0] }
proc nested() { set l = [[1]]
  set l[5][0] = 1 }
proc row_slot() { display[7] += 1 }
proc fine() { l[1] += 40
  set l = [[1], l[1]]
  set l[0][0] = 5
  set n = l[0][0] + l[1] }
"""

FAILING = {
    "empty_list": "rules.rk:2: error: index 0 out of range",
    "past_the_end": "rules.rk:3: error: index 2 out of range 0..1",
    "negative": "rules.rk:4: error: index -1 out of range 0..1",
    "text_index": "rules.rk:5: error: index 'a' out of range 0..1",
    "local_list": "rules.rk:7: error: index 3 out of range 0..0",
    "nested": "rules.rk:10: error: index 5 out of range 0..0",
    "row_slot": "rules.rk:11: error: index 7 out of range 0..1",
}


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("element-updates")
    names = [*FAILING, "fine"]
    actions = "\n".join(f'[actions.{name}]\nstage = "main"\neffect = "{name}()\\nend turn"\n' for name in names)
    (folder / "pack.toml").write_text(MANIFEST, encoding="utf-8")
    (folder / "game.toml").write_text(GAME % {"actions": actions}, encoding="utf-8")
    (folder / "rules.rk").write_text(RULES, encoding="utf-8")
    return folder


@pytest.mark.parametrize("backend", ["compiled", "closures"])
@pytest.mark.parametrize("action", sorted(FAILING))
def test_a_bad_index_read_before_a_write_is_a_located_error(pack: Path, backend: str, action: str) -> None:
    state = ruleskit.load(pack, backend=backend, cache=False).new_game(players=2, seed=1)
    before = state.to_json()
    with pytest.raises((ProgramError, IllegalAction)) as raised:
        state.apply(action)
    assert FAILING[action] in str(raised.value)
    assert state.to_json() == before


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_good_indexes_still_update_in_place(pack: Path, backend: str) -> None:
    state = ruleskit.load(pack, backend=backend, cache=False).new_game(players=2, seed=1)
    state.apply("fine")
    assert state.data["v"]["l"] == [[5], 42]
    assert state.data["v"]["n"] == 47
