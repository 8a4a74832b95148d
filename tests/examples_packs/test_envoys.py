"""The Envoys pack (games/envoys): each card's rule and the round's end, hidden information, random
games, and agreement with the hand-written baseline."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from packs_support import baseline, ids, scenario

import ruleskit
from ruleskit import IllegalAction

CARDS = ["courier_1", "courier_2", "courier_3", "courier_4", "courier_5", "informant_1", "informant_2",
         "rival_1", "rival_2", "bodyguard_1", "bodyguard_2", "emissary_1", "emissary_2", "diplomat",
         "steward", "treaty"]


def position(folder: Path, hands: dict[int, list[str]], *, players: int | None = None, active: int = 0,
             deck: list[str] | None = None, aside: list[str] | None = None,
             played: dict[int, list[str]] | None = None, out: tuple[int, ...] = (),
             protected: tuple[int, ...] = ()) -> ruleskit.State:
    """A position of a round: the given hands (the active player's holds two cards: it has drawn),
    played piles, players out or protected. Without `deck`, every card not placed lies in the
    draw pile in the order of CARDS; with `deck`, the pile is exactly that (other cards are left
    out of the scenario)."""
    players = players or len(hands)
    given_deck = deck is not None
    played = played or {}
    placed = [c for cards in [*hands.values(), *played.values()] for c in cards]
    if aside is None:
        aside = [[c for c in CARDS if c not in placed][-1]]
    if deck is None:
        deck = [c for c in CARDS if c not in placed and c not in aside]
    zones: dict[str, Any] = {"deck": deck, "aside": aside}
    for p in range(players):
        zones[f"hand@{p}"] = hands.get(p, [])
        zones[f"played@{p}"] = played.get(p, [])
    player_vars = {str(p): {"out": p in out, "protected": p in protected} for p in range(players)}
    # A deck given leaves the other cards out: a partial position on purpose, not held to the invariants.
    partial = {"invariants": False} if given_deck else {}
    return scenario(folder, "position", pack="envoys", players=players, seed=1, zones=zones,
                    players_vars=player_vars, flow={"active": active}, **partial)


def hand(state: ruleskit.State, player: int) -> list[str]:
    return list(state.view(player)["zones"][f"hand@{player}"])


def played(state: ruleskit.State, player: int) -> list[str]:
    return list(state.view(player)["zones"][f"played@{player}"])


def is_out(state: ruleskit.State, player: int) -> bool:
    return bool(state.view(player)["player_vars"][player]["out"])


# ----------------------------------------------------------------------------- setup and turns


def test_setup_sets_one_card_aside_deals_one_each_and_the_first_player_draws(envoys: ruleskit.Game) -> None:
    state = envoys.new_game(players=3, seed=5)
    view = state.view(0)
    assert view["zones"]["aside"] == {"hidden": True, "count": 1}
    assert view["zones"]["deck"] == {"hidden": True, "count": 16 - 1 - 3 - 1}
    assert len(hand(state, 0)) == 2
    assert len(hand(state, 1)) == len(hand(state, 2)) == 1
    assert state.current_player == 0


def test_a_turn_is_draw_one_play_one_then_the_next_player(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["steward", "courier_1"], 1: ["rival_1"], 2: ["bodyguard_1"]},
                     deck=["emissary_1", "informant_1"])
    state.apply("wait")
    assert played(state, 0) == ["steward"]
    assert hand(state, 0) == ["courier_1"]
    assert state.current_player == 1
    assert hand(state, 1) == ["rival_1", "emissary_1"]  # drew the top card


# ----------------------------------------------------------------------------- the cards


def test_courier_a_right_guess_puts_the_target_out(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["courier_1", "steward"], 1: ["rival_1"], 2: ["bodyguard_1"]})
    state.apply("accuse:1,3")
    assert is_out(state, 1)
    assert played(state, 1) == ["rival_1"]  # the hand of a player who is out lies face up
    assert hand(state, 1) == []
    assert state.current_player == 2  # a player who is out takes no more turns


def test_courier_a_wrong_guess_does_nothing(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["courier_1", "steward"], 1: ["rival_1"], 2: ["bodyguard_1"]})
    state.apply("accuse:1,4")
    assert not is_out(state, 1)
    assert hand(state, 1)[0] == "rival_1"
    assert state.current_player == 1


def test_courier_names_another_player_and_a_rank_from_2_to_8(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["courier_1", "courier_2"], 1: ["rival_1"]})
    assert ids(state) == [f"accuse:1,{rank}" for rank in range(2, 9)]  # two Couriers, offered once


def test_informant_shows_the_target_card_to_its_player_only(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["informant_1", "steward"], 1: ["diplomat"], 2: ["bodyguard_1"]})
    state.apply("inform:1")
    assert state.view(0)["player_vars"][0]["seen"] == "diplomat"
    assert "seen" not in state.view(2)["player_vars"][0]
    assert "diplomat" not in json.dumps(state.view(2))


@pytest.mark.parametrize(("mine", "theirs", "loser"), [
    ("emissary_1", "informant_1", 1),   # 5 against 2: the target is out
    ("courier_1", "informant_1", 0),    # 1 against 2: the player of the Rival is out
    ("informant_2", "informant_1", None),  # a tie: nobody
])
def test_rival_the_lower_card_is_out(tmp_path: Path, mine: str, theirs: str, loser: int | None) -> None:
    state = position(tmp_path, {0: ["rival_1", mine], 1: [theirs], 2: ["bodyguard_1"]})
    state.apply("challenge:1")
    assert [p for p in (0, 1) if is_out(state, p)] == ([] if loser is None else [loser])
    if loser is not None:
        assert played(state, loser)[-1] == (mine if loser == 0 else theirs)


def test_bodyguard_protects_until_its_player_next_turn(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["bodyguard_1", "steward"], 1: ["courier_1"], 2: ["rival_1"]},
                     deck=["informant_1", "courier_2", "courier_3", "courier_4"])
    state.apply("guard")
    assert state.view(1)["player_vars"][0]["protected"]
    # Seat 1 holds a Courier and the Informant it drew: neither may name seat 0.
    assert ids(state) == [f"accuse:2,{rank}" for rank in range(2, 9)] + ["inform:2"]
    state.apply("inform:2")
    state.apply("wait" if "wait" in ids(state) else ids(state)[0])
    assert state.current_player == 0
    assert not state.view(1)["player_vars"][0]["protected"]


def test_with_every_other_player_protected_a_targeted_card_is_played_for_nothing(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["courier_1", "rival_1"], 1: ["diplomat"]}, protected=(1,))
    assert ids(state) == ["idle:1", "idle:3"]
    state.apply("idle:3")
    assert played(state, 0) == ["rival_1"] and not is_out(state, 1)


def test_emissary_may_only_target_yourself_when_the_others_are_protected(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["emissary_1", "steward"], 1: ["diplomat"]}, protected=(1,))
    assert ids(state) == ["send:0", "wait"]


def test_emissary_the_target_discards_and_draws(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["emissary_1", "steward"], 1: ["informant_1"], 2: ["bodyguard_1"]},
                     deck=["courier_5", "courier_4"])
    state.apply("send:1")
    assert played(state, 1) == ["informant_1"]
    assert hand(state, 1)[0] == "courier_5"


def test_emissary_on_yourself(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["emissary_1", "steward"], 1: ["informant_1"], 2: ["bodyguard_1"]},
                     deck=["courier_5", "courier_4"])
    state.apply("send:0")
    assert played(state, 0) == ["emissary_1", "steward"]
    assert hand(state, 0) == ["courier_5"]


def test_emissary_making_the_target_discard_the_treaty_puts_them_out(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["emissary_1", "steward"], 1: ["treaty"], 2: ["bodyguard_1"]})
    state.apply("send:1")
    assert is_out(state, 1)
    assert played(state, 1) == ["treaty"]


def test_emissary_with_an_empty_draw_pile_gives_the_set_aside_card(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["emissary_1", "steward"], 1: ["informant_1"], 2: ["bodyguard_1"]},
                     deck=[], aside=["diplomat"])
    state.apply("send:1")
    assert hand(state, 1) == ["diplomat"]
    assert state.view(0)["zones"]["aside"]["count"] == 0
    assert state.result is not None and state.result["reason"] == "the draw pile ran out"


def test_diplomat_trades_hands(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["diplomat", "courier_1"], 1: ["treaty"], 2: ["bodyguard_1"]})
    state.apply("trade:1")
    assert hand(state, 0) == ["treaty"]
    assert hand(state, 1)[0] == "courier_1"


def test_playing_the_treaty_puts_you_out(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["treaty", "courier_1"], 1: ["informant_1"], 2: ["bodyguard_1"]})
    state.apply("give_up")
    assert is_out(state, 0)
    assert played(state, 0) == ["treaty", "courier_1"]


def test_an_action_for_a_card_not_held_is_refused(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["steward", "courier_1"], 1: ["informant_1"]})
    with pytest.raises(IllegalAction):
        state.apply("trade:1")
    assert hand(state, 0) == ["steward", "courier_1"]


# ----------------------------------------------------------------------------- the end of the round


def test_the_last_envoy_standing_wins(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["courier_1", "steward"], 1: ["rival_1"]})
    state.apply("accuse:1,3")
    assert state.result is not None
    assert state.result["reason"] == "one envoy is left"
    assert state.result["winners"] == [0]


def test_when_the_draw_pile_runs_out_the_highest_card_wins(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["steward", "courier_1"], 1: ["diplomat"], 2: ["rival_1"]}, deck=[])
    state.apply("wait")
    assert state.result is not None
    assert state.result["reason"] == "the draw pile ran out"
    assert state.result["scores"] == [1, 6, 3]
    assert state.result["winners"] == [1]


def test_a_tie_goes_to_the_higher_total_of_played_cards(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["steward", "rival_2"], 1: ["rival_1"]}, deck=[],
                     played={1: ["bodyguard_1", "courier_3"]})
    state.apply("wait")
    assert state.result is not None
    assert state.result["scores"] == [3, 3]
    assert state.result["tiebreaks"] == [[7], [5]]
    assert state.result["winners"] == [0]


def test_a_player_who_is_out_scores_nothing(tmp_path: Path) -> None:
    state = position(tmp_path, {0: ["steward", "courier_1"], 1: [], 2: ["rival_1"]}, deck=[], out=(1,),
                     played={1: ["treaty"]})
    state.apply("wait")
    assert state.result is not None
    assert state.result["scores"] == [1, 0, 3]


# ----------------------------------------------------------------------------- hidden information


def others_hands_and_deck(state: ruleskit.State, viewer: int) -> set[str]:
    """Every card the viewer may not know: the draw pile, the set-aside card, the others' hands
    (less the card the viewer last saw with an Informant, if it is still there)."""
    zones = state.to_json()["data"]["z"]
    secret = set(zones["deck"]) | set(zones["aside"])
    for p in range(state.players):
        if p != viewer:
            secret |= set(zones[f"hand@{p}"])
    secret.discard(state.view(viewer)["player_vars"][viewer].get("seen"))
    return secret


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_view_never_shows_another_hand_the_deck_order_or_the_set_aside_card(envoys: ruleskit.Game,
                                                                                players: int) -> None:
    checked = 0
    for seed in range(25):
        state = envoys.new_game(players=players, seed=seed)
        chooser = random.Random(seed)
        while True:
            for viewer in range(players):
                shown = json.dumps(state.view(viewer))
                leaked = [card for card in others_hands_and_deck(state, viewer) if f'"{card}"' in shown]
                assert leaked == [], (seed, viewer, leaked)
                checked += 1
            if state.is_terminal:
                break
            actions = state.legal_actions()
            state.apply(actions[chooser.randrange(len(actions))])
    assert checked > 100


# ----------------------------------------------------------------------------- random games


def test_random_games_end_within_the_deck(envoys: ruleskit.Game) -> None:
    endings = set()
    for seed in range(90):
        players = 2 + seed % 3
        state = envoys.new_game(players=players, seed=seed)
        chooser = random.Random(seed)
        decisions = 0
        while not state.is_terminal:
            actions = state.legal_actions()
            assert actions, "a player in the round always has a card to play"
            state.apply(actions[chooser.randrange(len(actions))])
            decisions += 1
        assert decisions <= 16 - 1 - players  # one play per card drawn
        assert state.result is not None
        endings.add(state.result["reason"])
    assert endings == {"one envoy is left", "the draw pile ran out"}


def test_random_games_keep_every_invariant(ruleskit_check: Any) -> None:
    report = ruleskit_check("envoys", games=30, seed=5)
    assert report.ok


# ----------------------------------------------------------------------------- the baseline


def dealt_baseline(game: ruleskit.Game, players: int, seed: int) -> tuple[ruleskit.State, Any, Any]:
    """A pack game and the baseline dealt the same cards."""
    plain, deals = baseline("envoys"), baseline("pack_deals")
    ranks = deals.card_ranks("envoys")
    state = game.new_game(players=players, seed=seed)
    return state, plain, plain.new_game(players, seed, order=[ranks[c] for c in deals.deck_order(state)])


def action_id(action: tuple[Any, ...]) -> str:
    return action[0] + (":" + ",".join(str(x) for x in action[1:]) if len(action) > 1 else "")


@pytest.mark.parametrize("seed", range(45))
def test_the_baseline_agrees_with_the_pack_along_random_games(envoys: ruleskit.Game, seed: int) -> None:
    players = 2 + seed % 3
    state, plain, hand_written = dealt_baseline(envoys, players, seed)
    chooser = random.Random(seed)
    while not state.is_terminal:
        assert ids(state) == [action_id(a) for a in plain.legal_actions(hand_written)]
        choice = chooser.randrange(len(ids(state)))
        state.apply(state.legal_actions()[choice])
        plain.apply(hand_written, plain.legal_actions(hand_written)[choice])
    assert plain.is_terminal(hand_written)
    assert state.result is not None
    assert state.result["reason"] == hand_written.reason
    assert state.result["winners"] == plain.winners(hand_written)
    assert state.result["scores"] == [plain.score(hand_written, p)[0] for p in range(players)]


def test_the_baseline_shuffles_its_own_deck_and_refuses_illegal_plays() -> None:
    plain = baseline("envoys")
    first, again, other = plain.new_game(3, 7), plain.new_game(3, 7), plain.new_game(3, 8)
    assert first.deck == again.deck and first.hands == again.hands
    assert sorted(first.deck + first.aside + sum(first.hands, [])) == sorted(plain.DECK)
    assert (first.deck, first.hands) != (other.deck, other.hands)
    with pytest.raises(ValueError):
        plain.apply(first, ("trade", 0))  # nobody trades with themselves
    copy = plain.clone(first)
    plain.apply(copy, plain.legal_actions(copy)[0])
    assert first.hands == again.hands  # a clone is independent


def test_the_baseline_plays_complete_legal_games_with_its_own_shuffle() -> None:
    plain = baseline("envoys")
    for seed in range(60):
        players = 2 + seed % 3
        game = plain.new_game(players, seed)
        chooser = random.Random(seed)
        plays = 0
        while not plain.is_terminal(game):
            moves = plain.legal_actions(game)
            assert moves and len(set(moves)) == len(moves)
            plain.apply(game, moves[chooser.randrange(len(moves))])
            plays += 1
            cards = game.deck + game.aside + sum(game.hands, []) + sum(game.played, [])
            assert sorted(cards) == sorted(plain.DECK)  # no card lost or made
        assert plays <= 16 - 1 - players
        assert game.reason in ("one envoy is left", "the draw pile ran out")
        assert plain.legal_actions(game) == []
        assert plain.winners(game) and all(not game.out[p] for p in plain.winners(game))


@pytest.mark.parametrize("seed", range(30))
def test_the_guarded_baseline_plays_the_plain_baselines_games(seed: int) -> None:
    plain, guarded = baseline("envoys"), baseline("envoys_guarded")
    players = 2 + seed % 3
    first, second = plain.new_game(players, seed), guarded.new_game(players, seed)
    chooser = random.Random(seed)
    while not plain.is_terminal(first):
        moves, actions = plain.legal_actions(first), guarded.legal_actions(second)
        assert actions == moves  # an Action equals the plain game's tuple for it
        assert [a.id for a in actions] == [":".join(map(str, m)) for m in moves]
        choice = chooser.randrange(len(moves))
        plain.apply(first, moves[choice])
        guarded.apply(second, actions[choice].id)
    assert guarded.is_terminal(second) and second.reason == first.reason
    assert guarded.winners(second) == plain.winners(first)
    history, decisions = second.history, 0
    while history is not None:
        history, decisions = history[0], decisions + 1
    assert decisions > 0


def test_the_guarded_baseline_keeps_the_game_when_an_action_fails_or_is_refused(monkeypatch: Any) -> None:
    guarded = baseline("envoys_guarded")
    state = guarded.new_game(3, 5)
    copy = guarded.clone(state)
    before = (list(state.deck), [list(h) for h in state.hands], [list(p) for p in state.played], list(state.out))
    with pytest.raises(guarded.RulesError):
        guarded.apply(state, "trade:9")  # not a legal action
    chosen = guarded.legal_actions(state)[-1]  # listed with the full budget
    monkeypatch.setattr(guarded, "BUDGET", 4)  # the budget runs out part-way through the effect
    with pytest.raises(guarded.RulesError, match="steps"):
        guarded.apply(state, chosen)
    assert (state.deck, state.hands, state.played, state.out) == before
    monkeypatch.setattr(guarded, "BUDGET", 200_000)
    guarded.apply(copy, guarded.legal_actions(copy)[0])
    assert (state.deck, state.hands, state.played, state.out) == before  # a clone's play leaves it be
