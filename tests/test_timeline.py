"""A timeline gives the state after any step of a game while keeping only every few of them."""

from __future__ import annotations

import random

import ruleskit
from ruleskit.timeline import Timeline


def test_every_step_is_the_state_the_game_had_whatever_the_order_asked() -> None:
    game = ruleskit.load("envoys")
    rng = random.Random(5)
    state = game.new_game(players=4, seed=5)
    states, decisions = [state.clone()], []
    while not state.is_terminal:
        player = state.players_to_decide()[0]
        action = rng.choice(state.legal_actions(player))
        decisions.append((action.id, player))
        state.apply(action)
        states.append(state.clone())
    timeline = Timeline(states[0], decisions, every=3)
    assert len(timeline) == len(states) and len(timeline.kept) == (len(states) + 2) // 3
    order = list(range(len(states)))
    rng.shuffle(order)
    for index in order + list(range(len(states))) + list(reversed(range(len(states)))):
        assert timeline[index] == states[index]
        assert timeline[index].history == states[index].history
    assert timeline[-1] == states[-1] and list(timeline) == states and timeline[1:3] == states[1:3]
    # A state handed out is the caller's: changing it changes no other step.
    handed = timeline[len(states) - 2]
    handed.apply(handed.legal_actions()[0])
    assert timeline[len(states) - 2] == states[-2] and timeline[len(states) - 1] == states[-1]
