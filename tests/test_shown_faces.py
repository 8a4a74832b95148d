"""A zone with `shows` lists items by their face only: a two-sided card's top shows one side, not its id."""

from pathlib import Path
from typing import Any

import pytest

import ruleskit
from ruleskit import PackError
from ruleskit.display import Display
from ruleskit.runtime.state import State
from ruleskit.runtime.visibility import hidden_summary
from ruleskit.tableau import Tableau
from ruleskit.testing.invariants import InvariantFailure, check_views

MANIFEST = 'name = "two_sided"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
# Six two-sided cards; the faces repeat, so a face does not tell which card shows it.
GAME = """
[kinds.card]
fields = { front = "str", back = "str" }
vars.marked = { type = "bool" }
items.k1 = { front = "sun", back = "moon" }
items.k2 = { front = "sun", back = "star" }
items.k3 = { front = "sun", back = "moon" }
items.k4 = { front = "rain", back = "star" }
items.k5 = { front = "rain", back = "moon" }
items.k6 = { front = "rain", back = "star" }

# The right side shows the front of its top card; turning a card puts it on the left, back up.
[zones.right]
type = "stack"
of = "card"
visible = "top"
shows = "it.front"
redraw = "self"
start = ["k1", "k2", "k3", "k4", "k5", "k6"]

[zones.left]
type = "stack"
of = "card"
visible = "top"
shows = "it.back"
redraw = "self"

# A face-up row: every card shows its front, none its back.
[zones.table]
type = "stack"
of = "card"
shows = "it.front"

[zones.hand]
type = "stack"
of = "card"
owner = "player"
visible = "owner"
shows = "it.front"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
setup = "shuffle right\\nfor c in card { set c.marked = true }"
max_turns = 30

[actions.turn]
stage = "main"
when = "count(right) > 0"
effect = "move first(right) from right to left top\\nend turn"

[actions.lay]
stage = "main"
when = "count(left) > 0"
effect = "move first(left) from left to table\\nend turn"

[actions.take]
stage = "main"
when = "count(table) > 0"
effect = "move first(table) from table to me.hand\\nend turn"

[end.done]
when = "count(right) == 0 and count(left) == 0 and count(table) == 0"
reason = "every card is taken"

[scoring]
score = "count(p.hand)"
"""


def load(tmp_path: Path, game: str = GAME, backend: str | None = None) -> ruleskit.Game:
    (tmp_path / "pack.toml").write_text(MANIFEST)
    (tmp_path / "game.toml").write_text(game)
    return ruleskit.load(tmp_path, backend=backend)


def front(item: str) -> str:
    return {"k1": "sun", "k2": "sun", "k3": "sun", "k4": "rain", "k5": "rain", "k6": "rain"}[item]


def back(item: str) -> str:
    return {"k1": "moon", "k2": "star", "k3": "moon", "k4": "star", "k5": "moon", "k6": "star"}[item]


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_the_top_shows_its_face_and_no_id(tmp_path: Path, backend: str) -> None:
    state = load(tmp_path, backend=backend).new_game(players=2, seed=3)
    top = state.data["z"]["right"][0]
    view = state.view(0)
    assert view["zones"]["right"] == {"hidden": True, "count": 6, "top": {"shows": front(top)}}
    # The cards' vars would tie a face to an id: they are left out wherever the id is not shown.
    assert not set(view["items"]) & {"k1", "k2", "k3", "k4", "k5", "k6"}
    check_views(state)
    state.apply("turn")
    turned = state.data["z"]["left"][0]
    assert turned == top
    assert state.view(1)["zones"]["left"]["top"] == {"shows": back(turned)}
    check_views(state)


def test_a_face_up_zone_lists_faces_and_the_owner_of_a_hand_sees_ids(tmp_path: Path) -> None:
    state = load(tmp_path).new_game(players=2, seed=3)
    for action in ("turn", "lay", "turn", "lay"):
        state.apply(action)
    table = state.data["z"]["table"]
    assert state.view(0)["zones"]["table"] == [{"shows": front(item)} for item in table]
    state.apply("take")  # player 1 takes the table's first card
    taken = state.data["z"]["hand@0"][0]
    assert state.view(0)["zones"]["hand@0"] == [taken]
    assert state.view(0)["items"][taken] == {"marked": True}
    assert state.view(1)["zones"]["hand@0"] == {"hidden": True, "count": 1}
    assert taken not in state.view(1)["items"]
    check_views(state)


def test_the_view_check_catches_an_id_on_a_face_only_top(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = load(tmp_path).new_game(players=2, seed=3)
    honest = State.view

    def leaky(self: State, player: int) -> dict[str, Any]:
        view = honest(self, player)
        view["zones"]["right"] = hidden_summary("top", self.data["z"]["right"])  # the top by id
        return view

    monkeypatch.setattr(State, "view", leaky)
    with pytest.raises(InvariantFailure, match="right"):
        check_views(state)


def test_the_view_check_catches_the_vars_of_a_face_only_item(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = load(tmp_path).new_game(players=2, seed=3)
    honest = State.view

    def leaky(self: State, player: int) -> dict[str, Any]:
        view = honest(self, player)
        view["items"]["k4"] = {"marked": True}
        return view

    monkeypatch.setattr(State, "view", leaky)
    with pytest.raises(InvariantFailure, match="vars of k4"):
        check_views(state)


def test_determinized_copies_redraw_the_card_behind_a_face_consistently(tmp_path: Path) -> None:
    state = load(tmp_path).new_game(players=2, seed=3)
    for action in ("turn", "turn", "turn"):
        state.apply(action)
    right, left = state.data["z"]["right"], state.data["z"]["left"]
    tops = set()
    for seed in range(20):
        copy = state.determinized(0, seed)
        # Each side keeps its own cards (redraw = "self") and shows the same faces on top.
        assert sorted(copy.data["z"]["right"]) == sorted(right)
        assert sorted(copy.data["z"]["left"]) == sorted(left)
        assert front(copy.data["z"]["right"][0]) == front(right[0])
        assert back(copy.data["z"]["left"][0]) == back(left[0])
        assert copy.view(0)["zones"] == state.view(0)["zones"]
        tops.add((copy.data["z"]["right"][0], copy.data["z"]["left"][0]))
    assert len(tops) > 1  # which card shows the face is a guess, not the real card


def test_a_face_up_row_keeps_every_face_in_a_determinized_copy(tmp_path: Path) -> None:
    state = load(tmp_path).new_game(players=2, seed=3)
    for action in ("turn", "lay", "turn", "lay", "turn", "lay"):
        state.apply(action)
    faces = [front(item) for item in state.data["z"]["table"]]
    for seed in range(10):
        copy = state.determinized(1, seed)
        assert [front(item) for item in copy.data["z"]["table"]] == faces


def test_a_whole_game_holds_the_view_check(tmp_path: Path) -> None:
    state = load(tmp_path).new_game(players=2, seed=5)
    while not state.is_terminal:
        check_views(state)
        state.apply(state.legal_actions()[-1])
    check_views(state)


def test_the_display_names_the_face(tmp_path: Path) -> None:
    game = load(tmp_path)
    state = game.new_game(players=2, seed=3)
    top = state.data["z"]["right"][0]
    text = Display(game).zone("right", state.view(0)["zones"]["right"])
    assert text == f"{front(top)} on top, 6 in all"
    cards = Tableau(game).of(state.view(0))
    assert top not in str(cards)


def test_shows_on_a_pool_is_refused_at_its_line(tmp_path: Path) -> None:
    game = GAME.replace('[zones.table]\ntype = "stack"', '[zones.table]\ntype = "pool"')
    with pytest.raises(PackError, match="shows") as caught:
        load(tmp_path, game)
    assert caught.value.line is not None


def test_search_counts_faces_as_hidden_information(tmp_path: Path) -> None:
    from ruleskit.mcts import has_hidden_information

    state = load(tmp_path).new_game(players=2, seed=3)
    for action in ("turn", "lay"):
        state.apply(action)
    assert has_hidden_information(state, 0)


def test_an_observation_encodes_a_face_only_zone(tmp_path: Path) -> None:
    pytest.importorskip("gymnasium")
    from ruleskit.rl.layout import ObservationLayout

    game = load(tmp_path)
    state = game.new_game(players=2, seed=3)
    for action in ("turn", "lay", "turn", "lay"):
        state.apply(action)
    layout = ObservationLayout(game, 2)
    observation = layout.encode(state.view(0), 0, True)
    assert len(observation) == layout.size


def test_a_mistake_in_shows_is_reported_at_its_line(tmp_path: Path) -> None:
    game = GAME.replace('shows = "it.back"', 'shows = "it.bakc"')
    with pytest.raises(PackError, match="bakc") as caught:
        load(tmp_path, game)
    assert caught.value.line == GAME.splitlines().index('shows = "it.back"') + 1


def test_undo_is_refused_once_a_new_face_is_shown(tmp_path: Path) -> None:
    from ruleskit.play import revealed

    state = load(tmp_path).new_game(players=2, seed=3)
    for action in ("turn", "lay", "turn", "lay"):
        state.apply(action)
    before = state.clone()
    state.apply("take")  # a face-up card into player 1's hand: the other player sees nothing new
    assert not revealed(before, state, 1)
    assert revealed(before, state, 0)  # its owner now sees the card itself, both faces
    before = state.clone()
    state.apply("turn")  # the next card's front, and the turned card's back, are seen
    assert revealed(before, state, 0)


@pytest.mark.parametrize("backend", ["compiled", "closures"])
def test_one_view_works_out_its_faces_within_one_step_budget(tmp_path: Path, backend: str) -> None:
    """Each face used to get a budget of its own: 3,000 cards face up, each shown by a costly rule, took one
    view 20 s. Here a face costs some 60,000 steps: three fit in the budget of 200,000, four do not."""
    costly = GAME.replace('[zones.table]\ntype = "stack"\nof = "card"\nshows = "it.front"',
                          '[zones.table]\ntype = "stack"\nof = "card"\n'
                          'shows = "if sum([count(range(10000)) for k in range(3)]) > 0 then it.front else it.back"')
    assert costly != GAME
    state = load(tmp_path, costly, backend).new_game(players=2, seed=3)
    for _ in range(3):
        state.apply("turn")
        state.apply("lay")
    table = state.data["z"]["table"]
    assert state.view(0)["zones"]["table"] == [{"shows": front(item)} for item in table]
    state.apply("turn")
    state.apply("lay")
    with pytest.raises(ruleskit.RulesError, match="step budget"):
        state.view(0)
