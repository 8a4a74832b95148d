"""The card duel pack, played step by step: hidden hands, a hidden deck, a row that slides, pools,
capacities, choices of every shape, a phase change with a computed order, a simultaneous reveal,
events and hooks, end conditions and scoring with tie-breaks."""

from __future__ import annotations

import json
import random

import pytest
from engine_support import play_random

import ruleskit
from ruleskit.runtime.context import Ctx
from ruleskit.runtime.engine import finish

N_CARDS = 16


def start(game: ruleskit.Game, players: int = 2, seed: int = 3, first: int = 0) -> ruleskit.State:
    state = game.new_game(players=players, seed=seed)
    state.apply(str(first))  # the setup decision: who drafts first
    return state


def take_first(state: ruleskit.State) -> str:
    take = next(a for a in state.legal_actions() if a.id.startswith("take:"))
    state.apply(take)
    return take.payload["args"]["c"]


def draft_all(state: ruleskit.State) -> None:
    while state.data["flow"]["phase"] == "draft":
        take_first(state)


def bid(state: ruleskit.State, amounts: dict[int, int]) -> None:
    while state.data["flow"]["phase"] == "bidding":
        player = state.current_player
        assert isinstance(player, int)
        state.apply("bid")
        state.apply(str(amounts[player]))


def cards_everywhere(state: ruleskit.State) -> int:
    z = state.data["z"]
    total = len(z["deck"]) + len(z["discard"]) + sum(1 for c in z["lineup"] if c is not None)
    return total + sum(len(z[f"hand@{p}"]) + len(z[f"table@{p}"]) for p in range(state.players))


def test_setup_deals_hidden_hands_and_asks_who_starts(card_duel: ruleskit.Game) -> None:
    state = card_duel.new_game(players=3, seed=11)
    z = state.data["z"]
    assert [len(z[f"hand@{p}"]) for p in range(3)] == [2, 2, 2]
    assert None not in z["lineup"] and len(z["lineup"]) == 3
    assert len(z["deck"]) == N_CARDS - 6 - 3
    assert z["deck"] != card_duel.model.zones["deck"].start[: len(z["deck"])]  # shuffled
    # Setup stops at a decision for player 1, with the partial setup visible.
    assert state.current_player == 0 and state.prompt == "Who drafts first?"
    assert [a.id for a in state.legal_actions()] == ["0", "1", "2"]
    assert [a.label for a in state.legal_actions()] == ["Player 1", "Player 2", "Player 3"]
    assert "options" in state.view(0)["pending"] and "options" not in state.view(1)["pending"]
    # The game_start hook ran once the setup finished.
    state.apply("2")
    assert state.data["v"]["first_drafter"] == 2
    assert state.current_player == 2 and state.data["flow"]["phase"] == "draft"
    assert "Cards are dealt" in state.history[-1]["messages"]


def test_views_hide_hands_deck_and_secret_counters(card_duel: ruleskit.Game) -> None:
    state = start(card_duel, players=3)
    for viewer in range(3):
        view = state.view(viewer)
        assert view["zones"]["deck"] == {"hidden": True, "count": len(state.data["z"]["deck"])}
        assert view["zones"][f"hand@{viewer}"] == state.data["z"][f"hand@{viewer}"]
        for other in range(3):
            if other != viewer:
                assert view["zones"][f"hand@{other}"] == {"hidden": True, "count": 2}
                assert "fame" not in view["player_vars"][other]
        assert view["player_vars"][viewer]["fame"] == 0
        assert view["zones"]["lineup"] == state.data["z"]["lineup"]  # the row is face up
        assert "rng" not in view and "history" not in view
    # A card in another's hand appears nowhere in the view, not even by id.
    shown = json.dumps(state.view(0))
    for other in (1, 2):
        for card in state.data["z"][f"hand@{other}"]:
            assert f'"{card}"' not in shown


def test_taking_slides_the_row_and_refills_from_the_deck(card_duel: ruleskit.Game) -> None:
    state = start(card_duel)
    before = list(state.data["z"]["lineup"])
    deck_top = state.data["z"]["deck"][0]
    taken = before[1]
    state.apply(f"take:{taken}")
    z = state.data["z"]
    # The taken slot empties, the row slides one step: the last card is discarded, the deck fills slot 0.
    assert z["lineup"] == [deck_top, before[0], None]
    assert z["discard"] == [before[2]]
    assert taken in z["hand@0"] and len(z["hand@0"]) == 3
    assert state.current_player == 1  # `end turn` passed the turn
    assert cards_everywhere(state) == N_CARDS


def test_hand_capacity_limits_drafting(card_duel: ruleskit.Game) -> None:
    state = start(card_duel)
    state.data["z"]["hand@0"] += state.data["z"]["deck"][:2]
    del state.data["z"]["deck"][:2]
    state._legal = None
    ids = [a.id for a in state.legal_actions()]
    assert not any(i.startswith("take:") for i in ids)  # the hand is full (capacity 4)
    assert "mulligan" in ids


def test_subset_choice_puts_cards_back_and_redraws(card_duel: ruleskit.Game) -> None:
    state = start(card_duel)
    hand = list(state.data["z"]["hand@0"])
    deck = list(state.data["z"]["deck"])
    state.apply("mulligan")
    assert state.prompt == "Which cards go back?"
    options = [a.id for a in state.legal_actions()]
    assert options == ["-", hand[0], hand[1], f"{hand[0]}+{hand[1]}"]
    state.apply(hand[0])
    z = state.data["z"]
    assert z["hand@0"] == [hand[1], deck[0]]
    assert z["deck"] == deck[1:] + [hand[0]]
    # Once per game, and the turn goes on.
    assert state.current_player == 0 and "mulligan" not in [a.id for a in state.legal_actions()]


def test_order_choice_rearranges_the_row(card_duel: ruleskit.Game) -> None:
    state = start(card_duel)
    row = list(state.data["z"]["lineup"])
    state.apply("arrange")
    options = state.legal_actions()
    assert len(options) == 6
    wanted = [row[2], row[0], row[1]]
    state.apply("+".join(wanted))
    assert state.data["z"]["lineup"] == wanted
    assert "arrange" not in [a.id for a in state.legal_actions()]


def test_buying_from_a_limited_pool_into_a_sized_vault(card_duel: ruleskit.Game) -> None:
    state = start(card_duel)
    assert state.data["pv"][0]["chips"] == 4  # 3 to start, +1 from the payday hook
    state.apply("buy")
    assert state.data["pv"][0]["chips"] == 2
    assert state.data["z"]["bank"]["pearl"] == 5 and state.data["z"]["vault@0"]["pearl"] == 1
    assert "buy" not in [a.id for a in state.legal_actions()]  # once per turn
    # A vault holds gems by weight: a ruby (2) and a pearl (1) fill it.
    other = start(card_duel)
    other.data["z"]["vault@0"]["ruby"] = 1
    other.data["z"]["vault@0"]["pearl"] = 1
    other._legal = None
    assert "buy" not in [a.id for a in other.legal_actions()]
    # An empty bank offers nothing either.
    empty = start(card_duel)
    empty.data["z"]["bank"]["pearl"] = 0
    empty._legal = None
    assert "buy" not in [a.id for a in empty.legal_actions()]


def test_cost_floor_forbids_buying_without_chips(card_duel: ruleskit.Game) -> None:
    state = start(card_duel)
    state.data["pv"][0]["chips"] = 1
    state._legal = None
    assert "buy" not in [a.id for a in state.legal_actions()]
    with pytest.raises(ruleskit.IllegalAction):
        state.apply("buy")


def test_chip_cap_discards_the_excess(card_duel: ruleskit.Game) -> None:
    state = start(card_duel)
    state.data["pv"][1]["chips"] = 5
    take_first(state)  # player 2's turn starts: payday +1, capped at 5
    assert state.data["pv"][1]["chips"] == 5


def test_phases_change_with_computed_turn_order(card_duel: ruleskit.Game) -> None:
    state = start(card_duel, players=3, first=1)
    turns = []
    while state.data["flow"]["phase"] == "draft":
        turns.append(state.current_player)
        take_first(state)
    assert turns == [1, 2, 0, 1, 2, 0]  # two clockwise rounds from the first drafter
    assert [len(state.data["z"][f"hand@{p}"]) for p in range(3)] == [4, 4, 4]
    assert state.data["flow"]["phase"] == "bidding"
    bidders = []
    while state.data["flow"]["phase"] == "bidding":
        player = state.current_player
        bidders.append(player)
        state.apply("bid")
        assert state.prompt == "How many chips do you bid?"
        chips = state.data["pv"][player]["chips"]
        assert [a.id for a in state.legal_actions()] == [str(n) for n in range(chips + 1)]
        state.apply(str({0: 1, 1: 0, 2: 2}[player]))
    assert bidders == [1, 0, 2]  # counterclockwise from the first drafter
    assert [state.data["pv"][p]["bid"] for p in range(3)] == [1, 0, 2]
    assert state.data["flow"]["phase"] == "duel"
    assert state.data["flow"]["order"] == [2, 0, 1]  # highest bid leads
    assert state.data["pv"][2]["chips"] == 5 - 2


def test_simultaneous_reveal_hides_picks_until_all_have_chosen(card_duel: ruleskit.Game) -> None:
    state = start(card_duel, players=3)
    draft_all(state)
    bid(state, {0: 0, 1: 0, 2: 0})
    assert state.current_player == (0, 1, 2)
    assert {a.player for a in state.legal_actions()} == {0, 1, 2}
    hands = {p: list(state.data["z"][f"hand@{p}"]) for p in range(3)}
    pick0 = f"play:{hands[0][0]}"
    state.apply(pick0, player=0)
    assert state.current_player == (1, 2)
    assert state.data["z"]["hand@0"] == hands[0]  # nothing moves before the reveal
    mine = state.view(0)["flow"]["simultaneous"]
    theirs = state.view(1)["flow"]["simultaneous"]
    assert mine["mine"] == {"action": "play", "args": {"c": hands[0][0]}}
    assert theirs["decided"] == [0] and theirs["mine"] is None
    assert f'"{hands[0][0]}"' not in json.dumps(state.view(1))
    with pytest.raises(ruleskit.IllegalAction, match="not Player 1's decision"):
        state.apply(f"play:{hands[0][1]}", player=0)
    state.apply(f"play:{hands[1][0]}", player=1)
    stars_before = [state.data["z"][f"stars@{p}"]["gold_star"] for p in range(3)]
    state.apply(f"play:{hands[2][0]}", player=2)
    # Resolved: every played card is discarded, one duel counted, the strongest card won a star.
    played = {p: hands[p][0] for p in range(3)}
    ranks = {p: card_duel.model.item_data[c]["rank"] + (1 if c.startswith("blue") else 0) for p, c in played.items()}
    best = max(ranks.values())
    leader = 0  # everyone bid 0, so seat order leads
    winner = leader if ranks[leader] == best else min(p for p in ranks if ranks[p] == best)
    stars_after = [state.data["z"][f"stars@{p}"]["gold_star"] for p in range(3)]
    assert [a - b for a, b in zip(stars_after, stars_before, strict=True)] == [int(p == winner) for p in range(3)]
    assert state.data["z"]["sky"] == {"gold_star": 0}  # an unlimited pool never runs down
    assert state.data["pv"][winner]["fame"] == card_duel.model.item_data[played[winner]]["rank"]
    assert state.data["z"][f"vault@{winner}"]["ruby"] == 1 and state.data["z"]["bank"]["ruby"] == 1
    assert all(played[p] in state.data["z"]["discard"] for p in range(3))
    assert state.data["v"]["duels"] == 1
    assert state.current_player == (0, 1, 2)  # the next duel


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_score_and_conserve_cards(card_duel: ruleskit.Game, players: int) -> None:
    reasons = set()
    for seed in range(12):
        state = play_random(card_duel, players, seed)
        result = state.result
        assert result is not None
        reasons.add(result["reason"])
        assert cards_everywhere(state) == N_CARDS
        z, pv = state.data["z"], state.data["pv"]
        values = card_duel.model.item_data
        for p in range(players):
            vault = sum(values[g]["value"] * n for g, n in z[f"vault@{p}"].items())
            stars = z[f"stars@{p}"]["gold_star"]
            assert result["scores"][p] == vault + 2 * stars + pv[p]["fame"]
            assert result["tiebreaks"][p] == [stars, pv[p]["chips"]]
            assert sum(w * n for w, n in ((1, z[f"vault@{p}"]["pearl"]), (2, z[f"vault@{p}"]["ruby"]))) <= 3
            assert 0 <= pv[p]["chips"] <= 5 and 0 <= pv[p]["fame"] <= 10
        keys = [(result["scores"][p], *result["tiebreaks"][p]) for p in range(players)]
        assert result["winners"] == [p for p in range(players) if keys[p] == max(keys)]
        assert [keys[p] for p in result["ranking"]] == sorted(keys, reverse=True)
    assert reasons <= {"three stars", "phase duel ended"}
    assert len(reasons) == 2 or players > 2


def _final(game: ruleskit.Game, state: ruleskit.State, rows: list[tuple[int, int, int]]) -> dict:
    """Finish a copy of `state` with (pearls, stars, chips) per player and no fame."""
    data = state.clone().data
    for p, (pearls, stars, chips) in enumerate(rows):
        data["z"][f"vault@{p}"] = {"pearl": pearls, "ruby": 0}
        data["z"][f"stars@{p}"] = {"gold_star": stars}
        data["pv"][p]["chips"] = chips
        data["pv"][p]["fame"] = 0
    finish(game, Ctx(game.program, data, 0), "test")
    return data["result"]


def test_tiebreaks_order_equal_scores(card_duel: ruleskit.Game) -> None:
    state = start(card_duel, players=3)
    # Scores (pearls + 2 * stars + chips, as fame gains the chips before scoring) are all 5.
    result = _final(card_duel, state, [(2, 1, 1), (1, 1, 2), (3, 0, 2)])
    assert result["scores"] == [5, 5, 5]
    assert result["tiebreaks"] == [[1, 1], [1, 2], [0, 2]]
    assert result["ranking"] == [1, 0, 2] and result["places"] == [2, 1, 3] and result["winners"] == [1]
    # A tie that the tie-breaks cannot split shares the place.
    result = _final(card_duel, state, [(1, 1, 2), (1, 1, 2), (0, 0, 0)])
    assert result["places"] == [1, 1, 3] and result["winners"] == [0, 1]


def test_invariants_hold_through_random_games(card_duel: ruleskit.Game) -> None:
    for seed in range(6):
        state = card_duel.new_game(players=4, seed=seed)
        chooser = random.Random(seed)
        while not state.is_terminal:
            ctx = Ctx(card_duel.program, state.data, 0)
            for name, (check, message, _) in card_duel.invariants.items():
                assert check(ctx), f"{name}: {message}"
            state.apply(chooser.choice(state.legal_actions()))
