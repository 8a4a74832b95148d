"""Legal actions listed on demand: the flow finds only the first; `apply` by id binds only the named action.

Nothing a caller can see changes: the same actions in the same order, the same
states and messages, whether or not the actions were listed before `apply`.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_support import PACKS, TINY_GAME, line_of, write_pack

import ruleskit
from ruleskit import IllegalAction, ProgramError, State


def _random_ids(game: ruleskit.Game, players: int, seed: int) -> list[tuple[str, int]]:
    """The decisions of one random game, as (id, player), chosen from fully listed states."""
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    taken = []
    while not state.is_terminal:
        moves = state.legal_actions(state.players_to_decide()[0])
        move = moves[chooser.randrange(len(moves))]
        taken.append((move.id, move.player))
        state.apply(move)
    return taken


@pytest.mark.parametrize(("pack", "players", "seed"), [
    (PACKS / "street_market", 3, 4), (PACKS / "card_duel", 2, 1), (PACKS / "keep_three", 2, 3),
    ("connect_four", 2, 5), ("envoys", 4, 2), ("ophir", 3, 7),
])
def test_apply_by_id_without_listing_gives_the_same_game(pack: str | Path, players: int, seed: int) -> None:
    game = ruleskit.load(pack)
    taken = _random_ids(game, players, seed)
    listed = game.new_game(players=players, seed=seed)
    unlisted = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    wrong_tried = 0
    for step, (action_id, player) in enumerate(taken):
        legal = [a.id for a in listed.legal_actions()]
        if step % 7 == 0:
            # An id of the right shape that is not legal now is refused alike, and changes nothing.
            name = action_id.partition(":")[0]
            wrong = f"{name}:nowhere" if ":" in action_id else f"{name}:x"
            if step % 14 == 0 and step:
                wrong = taken[chooser.randrange(step)][0]
            if wrong not in legal and wrong not in [a.id for a in listed.out_of_turn_actions()]:
                before = unlisted.dumps(history=False), len(unlisted.history)
                with pytest.raises(IllegalAction) as from_listed:
                    listed.clone().apply(wrong)
                with pytest.raises(IllegalAction) as from_unlisted:
                    unlisted.apply(wrong)
                assert from_unlisted.value.message == from_listed.value.message
                assert (unlisted.dumps(history=False), len(unlisted.history)) == before
                wrong_tried += 1
        listed.apply(action_id, player=player)
        unlisted.apply(action_id, player=player)
        assert unlisted.raw == listed.raw and unlisted.pending == listed.pending
        assert unlisted.messages == listed.messages
    assert unlisted.dumps() == listed.dumps()  # the whole history too
    assert unlisted.result == listed.result is not None
    assert wrong_tried > 0


def test_the_listing_the_flow_began_is_the_whole_listing(tmp_path: Path) -> None:
    """Ids taken from a partly listed state, then the rest, equal a listing made from the saved state."""
    game = ruleskit.load("ophir")
    state = game.new_game(players=4, seed=11)
    chooser = random.Random(11)
    for _ in range(150):
        restored = State.from_json(game, state.to_json())
        copy = state.clone()
        assert [a.id for a in copy.legal_actions()] == [a.id for a in restored.legal_actions()]
        assert [a.label for a in copy.legal_actions()] == [a.label for a in restored.legal_actions()]
        moves = state.legal_actions()
        state.apply(moves[chooser.randrange(len(moves))])
        if state.is_terminal:
            break


BROKEN_WHEN = TINY_GAME + """
[actions.peek]
stage = "main"
when = "broken(me)"
effect = "end turn"
"""

BROKEN_RULES = """\
# Twice a number.
rule double(x) = x * 2
rule broken(p) = [1, 2][p + 5] > 0
"""


def test_an_error_in_a_later_action_is_raised_by_the_listing_located(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "tiny", game=BROKEN_WHEN, rules=BROKEN_RULES)
    game = ruleskit.load(root)
    # The flow only needs one legal action (score) to stop: the broken `when` of peek is not run yet.
    state = game.new_game(players=2, seed=1)
    with pytest.raises(ProgramError, match="out of range") as caught:
        state.legal_actions()
    assert caught.value.file is not None and caught.value.file.endswith("rules.rk")
    assert caught.value.line == line_of(root / "rules.rk", "rule broken")
    with pytest.raises(ProgramError, match="out of range"):
        state.legal_actions()  # again: the failed listing is not taken for a complete one
    # Taking the action the flow found runs none of the other actions' rules.
    before = state.dumps()
    state.apply("score")
    assert state.dumps() != before and state.players_to_decide() == [1]
    # An id that is not legal lists everything to say what is: the error comes out, located.
    with pytest.raises(ProgramError, match="out of range"):
        state.apply("nothing")



def test_a_choice_of_an_action_taken_by_its_id_saves_and_loads_with_a_later_action_broken(tmp_path: Path) -> None:
    """A saved choice is checked by taking its job's action again at its base, as `apply` took it: by its id,
    binding that action alone. Listing every action there raised the later action's error, so a game that
    went on here could not be saved ("the recorded answers do not replay: ... out of range")."""
    chosen = BROKEN_WHEN.replace('effect = "me.points += double(1)\\nend turn"',
                                 'effect = "let n = choose me number 1..2\\nme.points += n\\nend turn"')
    assert chosen != BROKEN_WHEN
    root = write_pack(tmp_path / "chosen", game=chosen, rules=BROKEN_RULES)
    for backend in ("compiled", "closures"):
        game = ruleskit.load(root, backend=backend, cache=False)
        state = game.new_game(players=2, seed=1).apply("score")
        assert state.prompt == "Choose a number"
        loaded = State.from_json(game, state.to_json())
        assert loaded == state
        assert loaded.apply("2").to_json() == state.apply("2").to_json()
        assert state.raw["pv"][0]["points"] == 2

def _broken_first(score_when: str | None) -> str:
    """The tiny game with the broken action declared before `score` (which may have a `when` of its own)."""
    head, score = TINY_GAME.split("[actions.score]")
    peek = '[actions.peek]\nstage = "main"\nwhen = "broken(me)"\neffect = "end turn"\n\n'
    if score_when is not None:
        score = score.replace('stage = "main"\n', f'stage = "main"\nwhen = "{score_when}"\n', 1)
    return head + peek + "[actions.score]" + score


def test_a_stage_with_an_action_always_legal_runs_no_rule_to_know_the_player_can_act(tmp_path: Path) -> None:
    # `score` has no parameters, `when`, cost, `require` or limit: the broken `when` before it waits for a listing.
    root = write_pack(tmp_path / "open", game=_broken_first(None), rules=BROKEN_RULES)
    state = ruleskit.load(root).new_game(players=2, seed=1)
    state.apply("score")
    with pytest.raises(ProgramError, match="out of range") as caught:
        state.legal_actions()
    assert caught.value.line == line_of(root / "rules.rk", "rule broken")


def test_the_flow_still_runs_the_rules_it_needs_to_know_the_player_can_act(tmp_path: Path) -> None:
    # With a `when` on `score`, the flow must run the broken `when` declared first: the error comes from new_game.
    root = write_pack(tmp_path / "closed", game=_broken_first("me.points >= 0"), rules=BROKEN_RULES)
    with pytest.raises(ProgramError, match="out of range") as caught:
        ruleskit.load(root).new_game(players=2, seed=1)
    assert caught.value.line == line_of(root / "rules.rk", "rule broken")


@pytest.mark.parametrize(("pack", "players", "seed"), [
    ("connect_four", 2, 3), (PACKS / "take_turns", 2, 1), (PACKS / "card_duel", 2, 2),
    (PACKS / "street_market", 3, 5),
])
def test_a_stage_of_one_action_is_listed_whole_by_the_flow(pack: str | Path, players: int, seed: int) -> None:
    """Where a stage offers one action (and no `anytime` one), the flow lists it whole as it stops; the
    actions, and what `apply` finds by id and by object, are those of a listing made from the saved state."""
    game = ruleskit.load(pack)
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    while not state.is_terminal:
        restored = State.from_json(game, state.to_json())
        by_id = state.clone()
        listed = state.legal_actions()
        assert [(a.id, a.player) for a in listed] == [(a.id, a.player) for a in restored.legal_actions()]
        assert [(a.id, a.player) for a in state.out_of_turn_actions()] == \
            [(a.id, a.player) for a in restored.out_of_turn_actions()]
        move = listed[chooser.randrange(len(listed))]
        by_id.apply(move.id, player=move.player)
        state.apply(move)
        assert by_id.raw == state.raw and by_id.pending == state.pending
