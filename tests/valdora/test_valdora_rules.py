"""Valdora's rules one at a time, and every "easily forgotten rule", each pinned by a scenario or a seeded setup."""

from __future__ import annotations

import tomllib
from collections import deque
from pathlib import Path

import pytest
from valdora_helpers import at, ids, item, play, pool, pv, scenario, zone

import ruleskit
from ruleskit import IllegalAction
from ruleskit.testing.invariants import check_views

PACK = Path(__file__).resolve().parents[2] / "games" / "valdora"
# Each page's (front, back), from the pack's cards.
FACES = {page: (v["front"], v["back"])
         for page, v in tomllib.loads((PACK / "cards.toml").read_text())["kinds"]["page"]["items"].items()}


@pytest.fixture(scope="module")
def game() -> ruleskit.Game:
    return ruleskit.load("valdora")


# ------------------------------------------------------------------ setup

@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup(game: ruleskit.Game, players: int) -> None:
    state = game.new_game(players=players, seed=players)
    # Pawns on the harbour city; a gold pan each; no provisions; 1, 2, 3... coins from the start player.
    assert all(at(state, p) == "hub" for p in range(players))
    assert [zone(state, f"equipment@{p}") for p in range(players)] == [[f"pan_{p}"] for p in range(players)]
    assert [pv(state, p, "coins") for p in range(players)] == list(range(1, players + 1))
    assert not any(pv(state, p, "provisions") for p in range(players))
    assert state.data["flow"]["active"] == 0 and state.stage == "move"
    # 6 random gemstones on each of the 13 road spaces: the bag is empty.
    deposits = [f"dep_{i}" for i in range(1, 14)]
    assert all(sum(zone(state, f"gems@{d}").values()) == 6 for d in deposits)
    assert sum(zone(state, "bag").values()) == 0
    totals = {g: sum(zone(state, f"gems@{d}")[g] for d in deposits) for g in ("ruby", "sapphire", "amethyst", "emerald", "gold")}
    assert totals == {"ruby": 13, "sapphire": 13, "amethyst": 15, "emerald": 15, "gold": 22}
    # The four books: each pile shuffled onto the right side of its city.
    sizes = {b: (len(zone(state, f"right@{b}")), len(zone(state, f"left@{b}"))) for b in ("catalog_a", "catalog_b", "book_c", "book_d")}
    assert sizes == {"catalog_a": (18, 0), "catalog_b": (18, 0), "book_c": (27, 0), "book_d": (27, 0)}
    assert all(p.startswith("e") for p in zone(state, "right@catalog_a") + zone(state, "right@catalog_b"))
    assert all(p.startswith("c") for p in zone(state, "right@book_c") + zone(state, "right@book_d"))
    # Craftsmen: with 3 players one violet, red, blue and green tile are removed.
    expected = {"grey": 9, "yellow": 9, "white": 5, "violet": 4, "red": 4, "blue": 4, "green": 4}
    if players == 3:
        expected.update(violet=3, red=3, blue=3, green=3)
    assert pool(state, "craftsmen") == expected
    assert pool(state, "workshops") == dict.fromkeys(expected, 1) and state.data["v"]["bonus_supply"] == 13


def test_books_show_only_the_top_page(game: ruleskit.Game) -> None:
    state = game.new_game(players=4, seed=2)
    view = state.view(1)["zones"]
    top = zone(state, "right@catalog_a")[0]
    front = FACES[top][0]
    assert view["right@catalog_a"] == {"hidden": True, "count": 18, "top": {"shows": front}}
    assert view["right@book_c"]["count"] == 27 and view["left@book_c"] == {"hidden": True, "count": 0, "top": None}


def test_a_book_shows_the_face_on_top_and_never_the_page(game: ruleskit.Game) -> None:
    # The right side shows the front of its top page, the left side the back: not the page itself,
    # whose id would tell its other face (rulebook: pages are two-sided; only the top faces are visible).
    state = scenario("andreas_pages")
    play(state, "turn_page:right")  # c01 onto the left side, back up; c14 on top of the right
    for viewer in range(4):
        view = state.view(viewer)
        assert view["zones"]["left@book_c"]["top"] == {"shows": "ask_amethyst"}  # c01's back
        assert view["zones"]["right@book_c"]["top"] == {"shows": "ask_gold"}  # c14's front
        shown = str(view["zones"]) + str(list(view["items"]))
        assert not any(page in shown for page in ("c01", "c14", "c07", "c21", "c22"))
    # The player's own choices name a side and a face, not a page.
    assert {a for a in ids(state) if a.startswith("buy:")} == {"buy:right,ask_gold,none", "buy:left,ask_amethyst,none"}
    check_views(state)


def test_a_guess_at_the_books_keeps_the_faces_shown_and_each_side_its_pages(game: ruleskit.Game) -> None:
    state = scenario("andreas_pages")
    play(state, "turn_page:right", "turn_page:right")
    books = [f"{side}@{b}" for side in ("right", "left") for b in ("catalog_a", "catalog_b", "book_c", "book_d")]
    tops = set()
    for seed in range(12):
        copy = state.determinized(1, seed)
        assert copy.view(1)["zones"] == state.view(1)["zones"]  # the faces on top are kept
        for key in books:
            assert sorted(zone(copy, key)) == sorted(zone(state, key))  # no page crosses into another pile
        tops.add(zone(copy, "right@catalog_a")[0])  # 18 shuffled pages, several with each front
    assert len(tops) > 1  # which page shows the face is a guess


# ------------------------------------------------------------------ movement

def _python_reach(edges: list[list[str]], cities: set[str], start: str, passes: int) -> set[str]:
    """Spaces a move may end on, passing through at most `passes` cities (a plain breadth-first search).
    Leaving the start space is not passing it."""
    near: dict[str, set[str]] = {}
    for a, b in edges:
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    seen: set[tuple[str, int]] = set()
    queue = deque((nxt, 0) for nxt in near[start])
    while queue:
        here, used = queue.popleft()
        if (here, used) in seen:
            continue
        seen.add((here, used))
        onward = used + (1 if here in cities else 0)
        if onward <= passes:
            queue.extend((nxt, onward) for nxt in near[here])
    return {here for here, _ in seen} - {start}


def test_moves_reach_every_space_up_to_the_next_city(game: ruleskit.Game) -> None:
    # The pack's walk along the roads matches a search of the graph from every space.
    state = game.new_game(players=3, seed=1)
    board = tomllib.loads((PACK / "board.toml").read_text())
    edges = board["board"]["edges"]
    spaces = board["kinds"]["space"]["items"]
    cities = {s for s, v in spaces.items() if v["type"] == "city"}
    for s in spaces:
        assert set(item(state, s)["near"]) - {s} == _python_reach(edges, cities, s, 0), s
        assert set(item(state, s)["far"]) - {s} == _python_reach(edges, cities, s, 1), s


def test_a_move_stops_at_the_next_city(game: ruleskit.Game) -> None:
    state = game.new_game(players=4, seed=1)
    targets = {a.removeprefix("move:") for a in ids(state)}
    # From the harbour city: every space of the four roads out of it, up to and including each outer city.
    assert targets == {"road_1", "mine_1", "road_2", "city_a", "road_3", "house_c", "road_4", "city_c",
                       "road_5", "mine_2", "road_6", "city_b", "road_7", "house_g", "road_8", "city_d"}
    assert "move:hub" not in ids(state)  # never the space the move began on


def test_provisions_carry_a_move_through_one_city(game: ruleskit.Game) -> None:
    state = scenario("provisions")
    targets = set(ids(state))
    assert {"move:house_a", "move:house_f", "move:road_3"} <= targets  # through city_a or the hub
    assert "move:hub" not in targets  # three pawns there and 1 coin
    assert "move:road_9" in targets and "move:harbor_1" in targets
    # Passing through the city uses the provisions up.
    after = play(state.clone(), "move:house_a")
    assert at(after, 0) == "house_a" and pv(after, 0, "provisions") is False
    # A move that passes no city keeps them.
    kept = play(state.clone(), "move:road_2")
    assert pv(kept, 0, "provisions") is True


def test_without_provisions_the_city_is_as_far_as_a_move_goes() -> None:
    state = scenario("empty_book")
    assert set(ids(state)) == {"move:house_c", "move:city_c", "move:road_3"}  # not beyond city_c, nor the hub


def test_encounters_pay_each_pawn_and_a_coin_to_a_full_player_goes_to_the_bank() -> None:
    state = scenario("encounter")
    play(state, "move:city_a")
    assert [pv(state, p, "coins") for p in range(3)] == [0, 6, 4]  # player 2's 7th coin went to the bank


def test_an_encounter_the_player_cannot_pay_is_not_allowed() -> None:
    state = scenario("encounter_broke")
    assert "move:city_a" not in ids(state)
    before = state.data
    with pytest.raises(IllegalAction):
        state.apply("move:city_a")
    assert state.data is before


def test_no_coins_are_paid_on_a_silver_mine() -> None:
    state = scenario("encounter_broke")
    play(state, "move:mine_1")
    assert pv(state, 0, "coins") == 1 and pv(state, 3, "coins") == 4
    assert state.stage == "act"


# ------------------------------------------------------------------ a) purchase

def test_one_action_per_turn_even_after_only_turning_a_page() -> None:
    # Easily forgotten: after turning a page the player may not take provisions.
    state = scenario("andreas_pages")
    assert "provisions" in ids(state)
    play(state, "turn_page:right")
    assert "provisions" not in ids(state) and state.stage == "shop"


def test_equipment_costs_one_gold_paid_to_the_discard_space() -> None:
    state = scenario("buy_equipment")
    assert "buy:right,pick,pan_0" in ids(state)  # e01
    play(state, "buy:right,pick,pan_0")
    assert zone(state, "equipment@0") == ["pan_0", "e11", "e01"]
    assert item(state, "pan_0")["load"] is None and pool(state, "discard") == {"gold": 1}
    assert pv(state, 0, "coins") == 2
    # No gold left: the cart on the left side cannot be bought any more.
    assert not any(a.startswith("buy:") for a in ids(state))


def test_only_one_of_each_equipment_item() -> None:
    state = scenario("buy_equipment")
    play(state, "turn_page:right")  # e01 (pick) turns over; e08 shows its chisel: the player owns one
    assert zone(state, "right@catalog_a")[0] == "e08"
    assert not any(a.startswith("buy:right") for a in ids(state))
    assert "buy:left,hammer,pan_0" in ids(state)  # e01 now shows its back, a hammer, which may be bought


def test_load_gold_before_buying_equipment() -> None:
    state = scenario("buy_without_gold")
    assert not any(a.startswith("buy:") for a in ids(state))
    assert "turn_page:right" in ids(state)


def test_only_the_top_page_of_a_side_may_be_bought() -> None:
    state = scenario("buy_equipment")
    # A purchase names a side, whose top page it takes: e08's chisel under e01 is not offered.
    assert {a for a in ids(state) if a.startswith("buy:")} == {"buy:right,pick,pan_0", "buy:left,cart,pan_0"}
    with pytest.raises(IllegalAction):
        state.apply("buy:right,chisel,pan_0")


def test_a_fourth_commission_needs_one_returned_first_without_refund() -> None:
    state = scenario("commission_limit")
    assert not any(a.startswith("buy:") for a in ids(state))
    play(state, "return_commission:c02,left")
    assert zone(state, "left@book_d")[:2] == ["c02", "c12"] and item(state, "c02")["flipped"] is True
    assert pv(state, 0, "coins") == 2  # no refund
    play(state, "buy:right,ask_gold,none")  # c11
    assert zone(state, "open@0") == ["c03", "c04", "c11"] and pv(state, 0, "coins") == 1


def test_an_empty_book_still_stops_the_pawn_and_provisions_may_be_taken() -> None:
    state = scenario("empty_book")
    play(state, "move:city_c")
    assert ids(state) == ["provisions"]
    play(state, "provisions")
    assert pv(state, 0, "provisions") is True and state.data["flow"]["active"] == 1


# ------------------------------------------------------------------ b) load

def test_a_harbour_loads_as_many_gems_as_ships_from_the_discard_space() -> None:
    state = scenario("harbor")
    play(state, "ship_load:pan_0,gold", "ship_load:e01,ruby")
    assert pool(state, "discard") == {"ruby": 1}
    assert ids(state) == ["done_loading"]  # two ships, two gems
    assert pv(state, 0, "coins") == 2


def test_the_harbour_city_loads_one_gem_or_takes_provisions() -> None:
    state = scenario("harbor_city")
    play(state, "ship_load:e01,ruby")
    assert ids(state) == ["done_loading"]


def test_harbours_cannot_load_while_the_discard_space_is_empty() -> None:
    state = scenario("harbor_empty")
    play(state, "move:harbor_1")
    # Nothing to load and nothing else to do on a harbour space: the turn passes.
    assert state.data["flow"]["active"] == 1 and item(state, "pan_0")["load"] is None


def test_unloading_a_cart_to_reload_a_different_gem_pays_again() -> None:
    state = scenario("unload_cart")
    assert ids(state) == ["reload:e16,ruby"]  # not for another amethyst
    play(state, "reload:e16,ruby")
    assert pool(state, "discard") == {"amethyst": 1} and pool(state, "gems@dep_2") == {"amethyst": 2}
    assert pv(state, 0, "coins") == 2 and item(state, "e16")["load"] == "ruby"


# ------------------------------------------------------------------ c) complete

def test_only_commissions_the_player_holds_can_be_delivered() -> None:
    # Easily forgotten: no delivery without the incomplete commission.
    state = scenario("bernd")
    assert set(ids(state)) == {"deliver:c01", "deliver:c27"}  # c07 is a grey patron's


def test_completed_commissions_are_hidden_from_the_others() -> None:
    state = scenario("bernd")
    play(state, "deliver:c27", "e02")
    assert zone(state, "done@0") == ["c27"]
    assert "c27" not in str(state.view(1)["zones"]["done@0"])
    assert "c27" in str(state.view(0)["zones"]["done@0"])


def test_no_craftsman_when_the_board_is_empty_in_the_final_round() -> None:
    state = scenario("no_tiles_left")
    play(state, "deliver:c02")
    assert zone(state, "done@1") == ["c02"] and pool(state, "hired@1") == {}
    assert pv(state, 1, "coins") == 2  # the grey patron's coin went to the bank


# ------------------------------------------------------------------ d) replenish

def test_a_silver_mine_fills_coins_up_to_six() -> None:
    state = scenario("replenish")
    play(state, "replenish")
    assert pv(state, 0, "coins") == 6 and state.data["flow"]["active"] == 1


# ------------------------------------------------------------------ game end and scoring

def test_the_round_is_played_out_after_only_one_colour_is_left() -> None:
    state = scenario("last_round")
    play(state, "deliver:c11")
    assert pool(state, "craftsmen") == {"grey": 3} and state.data["v"]["last_round"] is True
    play(state, "done_delivering")
    assert not state.is_terminal and state.data["flow"]["active"] == 3
    while not state.is_terminal:
        assert state.data["flow"]["active"] == 3  # player 4 finishes the round; player 1 plays no more
        play(state, ids(state)[0])
    assert state.result["reason"] == "only one colour of craftsman tiles is left"


def test_scoring_and_the_coin_tiebreak() -> None:
    state = scenario("final_scoring")
    play(state, "provisions")  # the last turn of the round
    result = state.result
    assert result["scores"] == [40, 40, 10, 0]
    assert result["ranking"][:2] == [1, 0] and result["winners"] == [1]
    assert zone(state, "open@0") == [] and "c27" in zone(state, "box")  # returned, not scored


def test_a_tie_on_points_and_coins_shares_the_victory() -> None:
    state = scenario("shared_victory")
    play(state, "provisions")
    assert state.result["scores"][:2] == [40, 40] and state.result["winners"] == [0, 1]


def test_no_bonus_tile_once_the_supply_has_run_out() -> None:
    state = scenario("bonus_supply_empty")
    play(state, "deliver:c01", "e16", "deliver:c27")
    assert pool(state, "owned_workshops@0") == {"violet": 1, "blue": 1}  # the workshops still open
    assert pv(state, 0, "bonus") == 0 and state.data["v"]["bonus_supply"] == 0


def test_only_the_first_player_with_enough_craftsmen_opens_a_workshop() -> None:
    state = scenario("workshop_taken")
    play(state, "deliver:c07")
    assert pool(state, "hired@0") == {"red": 2}
    assert pool(state, "owned_workshops@0") == {} and pool(state, "owned_workshops@1") == {"red": 1}


def test_equipment_coins_tiles_and_incomplete_commissions_are_public() -> None:
    # Easily forgotten: everything but the completed commissions is visible to all players.
    state = scenario("bernd")
    view = state.view(2)
    assert view["player_vars"][0]["coins"] == 2
    assert view["zones"]["equipment@0"] == ["pan_0", "e02", "e16"]
    assert view["zones"]["open@0"] == ["c01", "c27", "c07"]
    assert view["zones"]["hired@0"]["violet"] == 1
    assert view["items"]["e16"]["load"] == "amethyst"
