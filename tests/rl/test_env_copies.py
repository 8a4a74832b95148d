"""An environment copied (`copy.deepcopy`) or pickled mid-game plays on alone from the same position: both
failed, the copy with an AttributeError from the position's actions, the pickle on the compiled game."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402

import ruleskit.rl  # noqa: E402


def play(env: Any, moves: int) -> list[Any]:
    """`moves` steps taking the first legal slot; what each step left (agent, observation, rewards)."""
    seen = []
    for _ in range(moves):
        if not env.agents:
            break
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
        if env.agents:
            seen.append((env.agent_selection, env.observe(env.agent_selection)["observation"].tolist(),
                         dict(env.rewards)))
    return seen


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda env: pickle.loads(pickle.dumps(env))],
                         ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("pack, players", [("ophir", 3), ("nereus", 2)])
def test_a_copy_plays_on_as_the_original_would(duplicate: Callable[[Any], Any], pack: str, players: int) -> None:
    env = ruleskit.rl.env(pack, players=players)
    env.reset(seed=7)
    play(env, 15)
    history = list(env.state_.history)
    twin = duplicate(env)
    ahead = play(twin, 40)
    assert env.state_.history == history  # the original did not move with its copy
    assert play(env, 40) == ahead  # the same draws, the same views
    assert twin.state_.history == env.state_.history


def test_a_copy_before_reset_is_reset_alone() -> None:
    env = ruleskit.rl.env("connect_four")
    twin = pickle.loads(pickle.dumps(env))
    twin.reset(seed=1)
    assert env.state_ is None and twin.state_ is not None
