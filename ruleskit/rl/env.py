"""A PettingZoo AEC environment for any pack: `ruleskit.rl.env("PACK", players=3)`.

Agents are `player_0` .. `player_{N-1}`. The agent to act is the player the
engine waits for; at a simultaneous stage the players pick one after another,
each seeing only its own view, so no one sees the others' secret picks.

- out of turn: in a pack with `anytime` actions, before each decision every
  other player who may act out of turn is asked first, in seat order: its mask
  holds those actions and the wait slot (`index.wait_slot`), which declines.
  An action taken out of turn starts the asking again; after
  `MAX_OUT_OF_TURN_IN_A_ROW` of them the decider goes on, as with bots.
- observation: `{"observation": float32 vector (see layout.py),
  "action_mask": int8 vector over the action index (see actions.py)}`;
  only the acting agent's mask has ones.
- action: a number of the action index whose mask entry is 1.
- reward: 0 until the end; then, for each player, 2 x (share of opponents it
  beats by final place, ties a half) - 1: +1 for a two-player win, -1 for a
  loss, 0 for a draw.
- termination: the game ended; truncation: it ran past `max_decisions`.
- `reset(seed=S)` starts the game with seed S, so equal seeds and actions give
  equal games; without a seed, each reset draws the next seed from the last.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..bots import MAX_OUT_OF_TURN_IN_A_ROW
from ..errors import PackError
from ..game import Game, load
from ..mcts import rewards
from ..runtime.state import State
from ..safetext import clean
from .actions import ActionIndex
from .layout import ObservationLayout

MAX_DECISIONS = 20_000
SHARED = frozenset({"game", "layout", "index"})
"""What copies of an environment share: fixed by the pack and the number of players."""
RENDER_MODES = ("human", "ansi")


_INDEXES: dict[tuple[str, int], ActionIndex] = {}


def action_index(game: Game, players: int) -> ActionIndex:
    """The pack's action index, built once per pack content and player count (it plays sample games)."""
    key = (game.content_hash, players)
    if key not in _INDEXES:
        _INDEXES[key] = ActionIndex(game, players)
    return _INDEXES[key]


class RulesEnv(AECEnv):
    """Any ruleskit pack as a PettingZoo AEC environment (see the module notes)."""

    # "human" prints what "ansi" returns: a position is text, and PettingZoo's render test makes every
    # environment with render_mode="human" before it reads these modes.
    metadata = {"render_modes": list(RENDER_MODES), "name": "ruleskit_v0", "is_parallelizable": False}

    def __init__(self, game: Game, players: int, render_mode: str | None = None,
                 max_decisions: int = MAX_DECISIONS) -> None:
        super().__init__()
        # A whole number, as for a seed: "3" failed comparing text with a number.
        if not _whole(players):
            raise TypeError(f"the number of players must be an integer, not {players!r}")
        players = int(players)  # NumPy's integers too, which the engine takes as Python's
        # At least one decision: with none, reset chose no agent and truncated nothing, so nothing could step.
        if not _whole(max_decisions) or max_decisions < 1:
            raise ValueError(f"max_decisions must be a whole number of at least 1, not {max_decisions!r}")
        # Refused here, as PettingZoo's own environments do: any other mode rendered nothing, silently.
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not supported: the supported ones are "
                             f"{', '.join(repr(m) for m in RENDER_MODES)} and None")
        if not game.min_players <= players <= game.max_players:
            raise game.players_refused(players)
        self.game = game
        self.players = players
        self.render_mode = render_mode
        self.max_decisions = int(max_decisions)
        self.layout = ObservationLayout(game, players)
        self.index = action_index(game, players)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agent_name_mapping = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.index.size,), np.int8),
        }) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(self.index.size) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state_: State | None = None
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[self._known(agent)]

    def _known(self, agent: str) -> str:
        """`agent`, one of this game's (a bare KeyError named only the agent)."""
        if agent not in self.agent_name_mapping:
            raise KeyError(f"no agent {agent!r} in this game: its agents are {', '.join(self.possible_agents)}")
        return agent

    # ------------------------------------------------------------- the game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            # A whole number only (NumPy's too): 1.5 was dealt as seed 1 with another stream of next seeds, and
            # NumPy's int64 failed inside `random`.
            if not _whole(seed):
                raise TypeError(f"the seed must be an integer, not {seed!r}")
            self._seeds = random.Random(int(seed))
            game_seed = int(seed)
        else:
            game_seed = self._seeds.getrandbits(63)
        self.state_ = self.game.new_game(players=self.players, seed=game_seed)
        self.decisions = 0
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._in_a_row = 0
        self._select_next()

    def _select_next(self, asked_after: int = -1) -> None:
        """The next agent: a player offered its out-of-turn actions (seats after `asked_after` that have
        some, in order), else the player to decide."""
        state = self.state_
        assert state is not None
        self._offer: int | None = None
        if state.is_terminal or self.decisions >= self.max_decisions:
            return
        if self.index.wait_slot is not None and self._in_a_row < MAX_OUT_OF_TURN_IN_A_ROW:
            offered = sorted({a.player for a in state.out_of_turn_actions() if a.player > asked_after})
            if offered:
                self._offer = offered[0]
                self.agent_selection = self.possible_agents[offered[0]]
                return
        self.agent_selection = self.possible_agents[state.players_to_decide()[0]]

    def legal_slots(self, agent: str) -> dict[int, Any]:
        """The selected agent's legal actions by slot (the wait slot maps to None)."""
        state = self.state_
        assert state is not None
        player = self.agent_name_mapping[agent]
        if self._offer == player:
            slots: dict[int, Any] = dict(self.index.slots(state, player, out_of_turn=True))
            slots[self.index.wait_slot] = None  # type: ignore[index]
            return slots
        return dict(self.index.slots(state, player))

    def _started(self) -> State:
        """The game since `reset`; a clear error before it or after `close` (an AttributeError or an
        AssertionError it was)."""
        if self.state_ is None:
            raise RuntimeError("no game: call reset() first")
        return self.state_

    def _playing(self) -> State:
        """The game being played: `_started`'s, and a clear error once every agent has stepped out of a finished
        game (a KeyError it was)."""
        state = self._started()
        if not self.agents:
            raise RuntimeError("the game is over and every agent has stepped out: call reset() to play again")
        return state

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._playing()
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._started()
        player = self.agent_name_mapping[self._known(agent)]
        mask = np.zeros(self.index.size, dtype=np.int8)
        deciding = not state.is_terminal and agent == self.agent_selection
        if deciding:
            for slot in self.legal_slots(agent):
                mask[slot] = 1
        pending_for_me = state.pending is not None and state.pending["player"] == player
        return {"observation": self.layout.encode(state.view(player), player, pending_for_me),
                "action_mask": mask}

    def step(self, action: int | None) -> None:
        state = self._playing()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self.agent_name_mapping[agent]
        legal = self.legal_slots(agent)
        # A slot is a whole number: 2.7, "3" and b"1" were read by `int()` as other slots and played.
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if action is None or not _whole(action) or int(action) not in legal:
            raise ValueError(f"action {action!r} is not legal for {agent} now; legal: {sorted(legal)}")
        self._cumulative_rewards[agent] = 0.0
        chosen = legal[int(action)]
        if chosen is None:  # declined to act out of turn: ask the next seat
            self._select_next(asked_after=player)
            self._accumulate_rewards()
            return
        out_of_turn = self._offer == player
        state.apply(chosen, player)
        self._in_a_row = self._in_a_row + 1 if out_of_turn else 0
        self.decisions += 1
        if state.is_terminal:
            values = rewards(state, None)
            for p, name in enumerate(self.possible_agents):
                self.rewards[name] = 2.0 * values[p] - 1.0
                self.terminations[name] = True
            self.infos = {name: {"result": state.result} for name in self.agents}
        elif self.decisions >= self.max_decisions:
            self.truncations = {name: True for name in self.agents}
        self._select_next()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The position and its legal actions as text: returned in "ansi" mode, printed in "human" mode."""
        if self.render_mode is None or self.state_ is None:
            return None
        state = self.state_
        text = f"{state!r}\n" + "\n".join(f"{a.id}: {a.label}" for a in state.legal_actions())
        if self.render_mode == "human":
            print(clean(text, newlines=True))  # pack text is never a terminal's escape sequences
            return None
        return text

    # ------------------------------------------------------------- copies

    def __deepcopy__(self, memo: dict[int, Any]) -> RulesEnv:
        """An environment that plays on from here alone: the game, its layout and its index are shared (play
        never changes them), the position is cloned. Copied field by field, the position's actions refused
        to be written and the copy failed (an AttributeError)."""
        twin = copy.copy(self)
        memo[id(self)] = twin
        for name, value in vars(self).items():
            if name in SHARED:
                continue
            setattr(twin, name, value.clone() if isinstance(value, State) else copy.deepcopy(value, memo))
        return twin

    def __getstate__(self) -> dict[str, Any]:
        """The environment for pickling (a vector of environments in worker processes): the pack by its
        folder and content, the position as its JSON. The game's compiled code cannot be pickled."""
        fields = {name: value for name, value in vars(self).items() if name not in SHARED and name != "state_"}
        fields["pack_"] = {"root": str(self.game.source.root), "backend": self.game.backend,
                           "hash": self.game.content_hash}
        fields["state_"] = None if self.state_ is None else self.state_.to_json()
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        pack = fields.pop("pack_")
        game = load(pack["root"], pack["backend"])
        if game.content_hash != pack["hash"]:
            raise PackError(f"the pack at {pack['root']} changed since this environment was pickled: "
                            "its position is of other rules")
        saved = fields.pop("state_")
        self.__dict__.update(fields)
        self.game = game
        self.layout = ObservationLayout(game, self.players)
        self.index = action_index(game, self.players)
        # written by `__getstate__` of this same game (a pickle is trusted code anyway)
        self.state_ = None if saved is None else State.from_json(game, saved, trusted=True)

    def close(self) -> None:
        self.state_ = None


def _whole(value: Any) -> bool:
    """An integer, Python's or NumPy's, and not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def env(pack: str | Game, players: int | None = None, render_mode: str | None = None,
        max_decisions: int = MAX_DECISIONS) -> RulesEnv:
    """A PettingZoo AEC environment for a pack (a name, a folder or a loaded Game)."""
    game = load(pack) if isinstance(pack, str) else pack
    return RulesEnv(game, players if players is not None else game.min_players, render_mode, max_decisions)
