"""A stack with `visible = "top"` shows its first item and its size, and hides the order below."""

from pathlib import Path

import pytest

import ruleskit
from ruleskit import PackError
from ruleskit.testing.invariants import check_views

MANIFEST = 'name = "pages"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
GAME = """
[kinds.page]
items.p1 = {}
items.p2 = {}
items.p3 = {}
items.p4 = {}

[zones.book]
type = "stack"
of = "page"
visible = "top"
start = ["p1", "p2", "p3", "p4"]

[zones.read]
type = "stack"
of = "page"
owner = "player"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
setup = "shuffle book"

[actions.turn_page]
stage = "main"
when = "count(book) > 0"
effect = "draw 1 from book to me.read\\nend turn"

[end.done]
when = "count(book) == 0"
reason = "the book is read"

[scoring]
score = "count(p.read)"
"""


def load(tmp_path: Path, game: str = GAME) -> ruleskit.Game:
    (tmp_path / "pack.toml").write_text(MANIFEST)
    (tmp_path / "game.toml").write_text(game)
    return ruleskit.load(tmp_path)


def test_view_shows_the_top_and_the_count_only(tmp_path: Path) -> None:
    state = load(tmp_path).new_game(players=2, seed=4)
    book = state.data["z"]["book"]
    shown = state.view(0)["zones"]["book"]
    assert shown == {"hidden": True, "count": 4, "top": book[0]}
    check_views(state)  # the property tester's view check accepts exactly this summary
    state.apply("turn_page")
    assert state.view(1)["zones"]["book"] == {"hidden": True, "count": 3, "top": state.data["z"]["book"][0]}
    check_views(state)


def test_a_determinized_copy_keeps_the_top_and_redraws_the_rest(tmp_path: Path) -> None:
    state = load(tmp_path).new_game(players=2, seed=4)
    book = state.data["z"]["book"]
    orders = set()
    for seed in range(12):
        copy = state.determinized(0, seed)
        assert copy.data["z"]["book"][0] == book[0]
        assert sorted(copy.data["z"]["book"]) == sorted(book)
        orders.add(tuple(copy.data["z"]["book"][1:]))
    assert len(orders) > 1  # what lies under the top is a guess, not the real order


def test_only_a_stack_can_show_its_top(tmp_path: Path) -> None:
    game = GAME.replace('type = "stack"\nof = "page"\nvisible = "top"', 'type = "pool"\nof = "page"\nvisible = "top"')
    game = game.replace('start = ["p1", "p2", "p3", "p4"]', 'start = { p1 = 1 }')
    with pytest.raises(PackError, match="only a stack can show its top") as caught:
        load(tmp_path, game)
    assert caught.value.file is not None and caught.value.file.endswith("game.toml")
    assert caught.value.line is not None
