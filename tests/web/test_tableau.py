"""A view as plain data: the board's layout, zones as cards, players, and the full view of a replay."""

from __future__ import annotations

from pathlib import Path

import ruleskit
from ruleskit.tableau import Tableau, full_view, secret_items


def test_ophir_hexes_sit_where_the_layout_hint_draws_them() -> None:
    game = ruleskit.load("ophir")
    board = Tableau(game).of(game.new_game(players=3, seed=1).view(0))["board"]
    at = {node["id"]: (node["x"], node["y"]) for node in board["nodes"]}
    # h1 h2 on the top row, h6 h0 h3 in the middle, h5 h4 below; the centre in the centre.
    assert at["h1"][1] == at["h2"][1] == 0.0 and at["h5"][1] == at["h4"][1] == 1.0
    assert at["h6"][1] == at["h0"][1] == at["h3"][1] == 0.5
    assert at["h6"][0] == 0.0 and at["h3"][0] == 1.0 and at["h0"][0] == 0.5
    assert at["h1"][0] < at["h2"][0] and at["h5"][0] < at["h4"][0]
    assert len(board["edges"]) == 12


def test_a_board_without_a_layout_is_spread_out_by_springs() -> None:
    game = ruleskit.load("tests/packs/dice_race")
    board = Tableau(game).of(game.new_game(players=2).view(0))["board"]
    points = [(n["x"], n["y"]) for n in board["nodes"]]
    assert all(0.0 <= x <= 1.0 and 0.0 <= y <= 1.0 for x, y in points)
    closest = min(abs(complex(*a) - complex(*b)) for i, a in enumerate(points) for b in points[i + 1:])
    assert closest > 0.1
    # Both pawns start on the start space, as pills of their owners.
    start = next(n for n in board["nodes"] if n["id"] == "start")
    assert [p["owner"] for p in start["pieces"]] == [0, 1]
    # The same pack lays out the same way in any process.
    assert Tableau(game).positions == Tableau(ruleskit.load("tests/packs/dice_race")).positions


def test_a_space_kind_with_x_and_y_fields_is_drawn_as_a_grid(tmp_path: Path) -> None:
    cells = "\n".join(f"items.c{x}{y} = {{ x = {x}, y = {y} }}" for x in range(3) for y in range(2))
    (tmp_path / "pack.toml").write_text('name = "grid"\nversion = "1"\nplayers = { min = 2, max = 2 }\n')
    (tmp_path / "game.toml").write_text(
        f'[kinds.cell]\nfields = {{ x = "int", y = "int" }}\n{cells}\n'
        '[board]\nnodes = "cell"\nedges = [["c00", "c10"], ["c10", "c20"], ["c01", "c11"]]\n'
        '[stages.go]\n[phases.play]\nstage = "go"\n[flow]\nstart = "play"\nmax_turns = 2\n'
        '[actions.pass]\nstage = "go"\neffect = "end turn"\n[scoring]\nscore = "0"\n')
    game = ruleskit.load(tmp_path)
    board = Tableau(game).of(game.new_game(players=2).view(0))["board"]
    at = {n["id"]: (n["x"], n["y"]) for n in board["nodes"]}
    assert at["c00"] == (0.0, 0.0) and at["c21"] == (1.0, 1.0) and at["c10"] == (0.5, 0.0)


def test_zones_become_cards_and_hidden_ones_face_down_piles() -> None:
    game = ruleskit.load("tests/packs/card_duel")
    state = game.new_game(players=2, seed=1)
    drawn = Tableau(game).of(state.view(0))
    rows = {row["label"]: row for row in drawn["game"]}
    assert rows["deck"]["zone"] == {"type": "hidden", "count": 9, "text": "9 hidden", "cards": []}  # 16 - 2 hands - 3
    assert [c["text"] for c in rows["lineup"]["zone"]["cards"]] == state.data["z"]["lineup"]
    assert rows["bank"]["zone"]["cards"] == [{"text": "Pearl", "owner": None, "count": 6},
                                             {"text": "Ruby", "owner": None, "count": 2}]
    mine, theirs = drawn["players"]
    my_hand = next(z for z in mine["zones"] if z["label"] == "hand")
    their_hand = next(z for z in theirs["zones"] if z["label"] == "hand")
    assert [c["text"] for c in my_hand["cards"]] == state.data["z"]["hand@0"]
    assert their_hand["type"] == "hidden" and their_hand["cards"] == []
    fame = next(r for r in theirs["rows"] if r["label"] == "fame")
    assert fame == {"label": "fame", "value": "?", "secret": True}
    assert secret_items(state, 0) == set(state.data["z"]["deck"]) | set(state.data["z"]["hand@1"])


def test_the_full_view_shows_everything() -> None:
    game = ruleskit.load("tests/packs/card_duel")
    state = game.new_game(players=2, seed=1)
    drawn = Tableau(game).of(full_view(state))
    deck = next(r for r in drawn["game"] if r["label"] == "deck")["zone"]
    assert [c["text"] for c in deck["cards"]] == state.data["z"]["deck"]
    hands = [next(z for z in p["zones"] if z["label"] == "hand") for p in drawn["players"]]
    assert [[c["text"] for c in h["cards"]] for h in hands] == [state.data["z"]["hand@0"], state.data["z"]["hand@1"]]
