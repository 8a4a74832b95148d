"""The three Ophir variants: each rule they change, shown on a position where base and variant differ."""

from __future__ import annotations

import random

import pytest
from variant_helpers import (
    ALL,
    BASE_SCENARIOS,
    CALM,
    ONLINE,
    PROMO,
    cargo,
    ids,
    pv,
    scenario,
)

import ruleskit
from ruleskit.diff import diff_packs

# ------------------------------------------------------------------ ophir-online


def test_online_has_no_draft_and_everyone_starts_with_two_favor() -> None:
    for players in (2, 3, 4):
        base = ruleskit.load("ophir").new_game(players=players, seed=3)
        online = ruleskit.load(str(ONLINE)).new_game(players=players, seed=3)
        base_prompts = set()
        while base.prompt and "barrier" in base.prompt:
            base.apply(base.legal_actions()[0])
        base_prompts.add(base.prompt)
        while online.prompt and "barrier" in online.prompt:
            online.apply(online.legal_actions()[0])
        assert "Choose your specialist" in base_prompts
        assert online.stage == "navigate"  # straight into the first turn: no specialist to choose
        assert [pv(online, p, "favor") for p in range(players)] == [2] * players
        assert [pv(online, p, "specialist") for p in range(players)] == [None] * players


def test_online_failed_second_move_loses_the_actions() -> None:
    # R2: base game, the ship stays in the wood hex after a successful first sail and may act there.
    base = scenario("success_then_failure", folder=BASE_SCENARIOS)
    assert base.stage == "act" and "acquire:wood" in ids(base)
    online = scenario("success_then_failure", ONLINE, folder=BASE_SCENARIOS)
    assert online.data["ev"]["ship_0"]["at"] == "h2"
    assert online.current_player == 1 and online.stage == "navigate"  # Yellow's turn is over


def test_online_game_ends_when_no_future_card_can_be_revealed() -> None:
    # R6: base game, an empty deck leaves the Future space empty and play goes on.
    base = scenario("market_last_future", folder=BASE_SCENARIOS)
    assert not base.is_terminal
    online = scenario("market_last_future", ONLINE, folder=BASE_SCENARIOS)
    assert online.is_terminal and online.result["reason"] == "the market deck ran out"
    assert online.data["z"]["market_row"] == [None, "b08", "a15", "a06"]


def test_online_cargo_goes_overboard_at_any_time_of_ones_turn() -> None:
    base = scenario("overboard")
    assert not any(a.startswith("drop_cargo") for a in ids(base))
    online = scenario("overboard", ONLINE)
    assert {"drop_cargo:wood", "drop_cargo:gold", "drop_cargo:stone"} <= set(ids(online))
    moves = online.data["v"]["moves"]
    online.apply("drop_cargo:gold")
    assert cargo(online, 0) == {"wood": 1, "stone": 1}
    assert online.data["z"]["supply"]["gold"] == 5  # back to the limited supply
    assert online.stage == "navigate" and online.data["v"]["moves"] == moves  # a free action
    online.apply("sail:h2")
    online.apply("stop")
    assert online.stage == "act" and "drop_cargo:wood" in ids(online)


def test_online_favor_may_be_spent_while_a_move_remains() -> None:
    # R3: base game, no Influence Move or Anchor after a successful sail.
    base = scenario("influence_success", folder=BASE_SCENARIOS)
    assert "influence_move" not in ids(base)
    online = scenario("influence_success", ONLINE, folder=BASE_SCENARIOS)
    assert online.data["v"]["moves"] == 1 and {"influence_move", "anchor"} <= set(ids(online))


# ------------------------------------------------------------------ ophir-promo-specialists


def test_promo_draft_offers_the_new_specialists() -> None:
    offered_base: set[str] = set()
    offered_promo: set[str] = set()
    for seed in range(12):
        for pack, offered in (("ophir", offered_base), (str(PROMO), offered_promo)):
            state = ruleskit.load(pack).new_game(players=4, seed=seed)
            while state.prompt != "Choose your specialist":
                state.apply(state.legal_actions()[0])
            offered.update(ids(state))
    assert not offered_base & {"postmaster", "peddler"}
    assert {"postmaster", "peddler"} <= offered_promo


def test_promo_postmaster_contributes_from_beside_the_temple() -> None:
    base = scenario("no_postmaster")
    assert base.stage == "act" and not any("contribute" in a or "post_metal" in a for a in ids(base))
    promo = scenario("postmaster")
    assert promo.stage == "act" and "post_metal:gold" in ids(promo)
    promo.apply("post_metal:gold")
    assert cargo(promo, 0) == {} and pv(promo, 0, "vp") == 10
    assert promo.data["z"]["tier_metals"]["gold"] == 1


def test_promo_peddler_leaves_one_good_out_for_a_coin_less() -> None:
    base = scenario("no_peddler")
    assert base.stage == "act"
    assert "trade:a10" not in ids(base) and "trade:a15" in ids(base)
    promo = scenario("peddler")
    assert {"trade:a10", "trade:a15", "trade:a06"} <= set(ids(promo))  # each lacks at most one good
    promo.apply("trade:a10")
    assert cargo(promo, 0) == {}  # the stone is paid; the cloth is left out
    assert pv(promo, 0, "coins") == 1  # 2 coins, modifier 0, one coin less
    assert pv(promo, 0, "favor") == 0  # no favor spent for the missing good


# ------------------------------------------------------------------ ophir-calm-seas


def test_calm_seas_adds_one_to_every_influence_roll() -> None:
    base = scenario("calm_check")
    assert base.data["ev"]["ship_0"]["at"] == "h3" and base.data["ev"]["ship_0"]["influence"] == 4
    calm = scenario("calm_check", CALM)
    assert calm.data["ev"]["ship_0"]["at"] == "h0" and calm.data["ev"]["ship_0"]["influence"] == 5


def test_calm_seas_gives_the_temple_guard_two() -> None:
    state = scenario("temple_guard", CALM, folder=BASE_SCENARIOS)
    base = scenario("temple_guard", folder=BASE_SCENARIOS)
    rolled = [c["value"] for e in base.history for c in e.get("chance", []) if "roll" in c]
    assert base.data["ev"]["ship_0"]["influence"] == min(6, rolled[-1] + 1)
    assert state.data["ev"]["ship_0"]["influence"] == min(6, rolled[-1] + 2)


# ------------------------------------------------------------------ every variant


@pytest.mark.parametrize("variant", ALL, ids=lambda p: p.name)
def test_variant_checks_clean_and_diff_names_every_change(variant) -> None:  # type: ignore[no-untyped-def]
    game = ruleskit.load(str(variant))
    assert game.name == variant.name and (game.min_players, game.max_players) == (2, 4)
    _, _, differences = diff_packs("ophir", str(variant))
    assert differences
    for difference in differences:
        assert difference.where is None or difference.where.startswith("examples/variants/") or \
            str(variant.name) in difference.where
        if difference.change == "replaced":
            assert difference.before and difference.after and difference.base_where


def _play_out(game: ruleskit.Game, players: int, seed: int) -> ruleskit.State:
    """A random legal game. Overboard drops are taken only when nothing else is legal: a uniformly random
    player that keeps emptying its cargo would never finish a game."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    for _ in range(20_000):
        if state.is_terminal:
            break
        actions = state.legal_actions()
        useful = [a for a in actions if not a.id.startswith("drop_cargo")] or actions
        state.apply(useful[rng.randrange(len(useful))])
    return state


@pytest.mark.parametrize("variant", ALL, ids=lambda p: p.name)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_variant_plays_full_games(variant, players: int) -> None:  # type: ignore[no-untyped-def]
    state = _play_out(ruleskit.load(str(variant)), players, seed=players)
    assert state.is_terminal
    assert state.result["reason"] in {"the temple is complete", "the market cannot be refilled",
                                      "the market deck ran out"}
    assert state.result["winners"]
