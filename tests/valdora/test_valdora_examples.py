"""The worked examples of Valdora's rulebook, each replayed decision by decision from a scenario file."""

from __future__ import annotations

from valdora_helpers import ids, item, play, pool, pv, scenario, zone


def test_andreas_turns_pages_for_three_coins() -> None:
    # "Andreas buys a card, turns a page for free, then pays 1 coin to turn another page and buys a
    # second card. He then turns another two pages and pays another 2 coins ... he paid 3 coins."
    state = scenario("andreas_pages")
    play(state, "buy:right,ask_coin,none")  # c01, a commission: 1 coin
    assert pv(state, 0, "coins") == 5 and zone(state, "open@0") == ["c01"]
    play(state, "turn_page:right")  # the first page of the turn is free
    assert pv(state, 0, "coins") == 5
    play(state, "turn_page:right")  # the second costs 1 coin
    assert pv(state, 0, "coins") == 4
    # Two pages are visible now: the front of c21 on the right, the back of c07 on the left.
    assert zone(state, "right@book_c")[0] == "c21" and zone(state, "left@book_c")[0] == "c07"
    assert {"buy:right,ask_rse,none", "buy:left,ask_ruby,none"} <= set(ids(state))
    play(state, "buy:left,ask_ruby,none")
    assert pv(state, 0, "coins") == 3 and item(state, "c07")["flipped"] is True  # bought by its back
    play(state, "turn_page:right", "turn_page:left")
    assert pv(state, 0, "coins") == 1  # 6 - 2 for the cards - 3 for the pages
    assert zone(state, "open@0") == ["c01", "c07"]
    play(state, "done_shopping")
    assert state.data["flow"]["active"] == 1


def test_andreas_loads_ruby_sapphire_and_emerald_on_the_cart() -> None:
    # "2 gold, 1 ruby, 2 sapphires and 1 emerald ... he may load one of the corresponding gemstones onto
    # each of them. He decides to load the emerald onto his cart, paying 2 coins. Since he already has a
    # gold on his gold pan, he may not load any more gold."
    state = scenario("andreas_road")
    assert not any(a.startswith("load:pan_0") for a in ids(state))  # the pan already holds gold
    assert "load:e01,sapphire" not in ids(state)  # a pick holds rubies only
    play(state, "load:e01,ruby", "load:e08,sapphire", "load:e16,emerald")
    assert pv(state, 0, "coins") == 1  # the cart costs 2, the tools nothing
    assert [item(state, e)["load"] for e in ("pan_0", "e01", "e08", "e16")] == ["gold", "ruby", "sapphire", "emerald"]
    assert pool(state, "gems@dep_1") == {"gold": 2, "sapphire": 1}
    assert ids(state) == ["done_loading"]  # every card is full: no more gold


def test_andreas_hires_blue_then_green_for_two_red_commissions() -> None:
    # "There aren't any red craftsmen left ... he takes a tile from the next pile in clockwise order,
    # the blue tile. Since the blue pile has now also run out, he receives a green tile for the second."
    state = scenario("andreas_craftsmen")
    play(state, "deliver:c07", "e17")  # the ruby from the cart
    assert pool(state, "hired@0") == {"blue": 1}
    play(state, "deliver:c08")
    assert pool(state, "hired@0") == {"blue": 1, "green": 1}
    assert pool(state, "craftsmen") == {"violet": 2, "white": 5, "yellow": 9, "grey": 9}
    assert pool(state, "discard") == {"ruby": 2}
    assert item(state, "e01")["load"] is None and item(state, "e17")["load"] is None


def test_bernd_opens_the_violet_then_the_blue_workshop() -> None:
    # "He delivers the first amethyst and receives the last violet craftsman tile for it ... he receives
    # the violet workshop. He then delivers the second amethyst. Since he now has the violet workshop, he
    # receives a bonus tile ... he receives the last blue craftsman instead ... and the blue workshop."
    state = scenario("bernd")
    play(state, "deliver:c01")
    assert state.prompt == "Which card gives the gem?"  # both the hammer and the cart hold an amethyst
    play(state, "e16")
    assert item(state, "e16")["load"] is None and item(state, "e02")["load"] == "amethyst"
    assert pool(state, "hired@0") == {"violet": 2, "blue": 1}
    assert pool(state, "owned_workshops@0") == {"violet": 1}
    assert pv(state, 0, "bonus") == 0  # the workshop opened by this commission gives no bonus for it
    play(state, "deliver:c27")
    assert pv(state, 0, "bonus") == 1 and state.data["v"]["bonus_supply"] == 12
    assert pool(state, "hired@0") == {"violet": 2, "blue": 2}
    assert pool(state, "owned_workshops@0") == {"violet": 1, "blue": 1}
    assert pool(state, "discard") == {"amethyst": 2}
    assert zone(state, "done@0") == ["c01", "c27"] and zone(state, "open@0") == ["c07"]
