"""A fixed, numbered index of a pack's decisions, for an action mask.

The index depends only on the pack and the number of players. In order:

1. **Actions with enumerable parameters**: for each action of the pack, in the
   order the pack defines them, every combination of its parameters whose
   types are item kinds (the kind's items, in pack order) or players (seats
   0..N-1), as the engine's action id (`drop:col1`, `play:red8`, `pass`). An
   action with more combinations than the index has room left for (it holds
   at most `MAX_INDEXED` ids: four parameters over a kind of 200 items are
   1.6 billion) is left to the sample games.
2. **Actions seen in sample games**: ids of actions whose parameters are
   numbers, text or computed values (`accuse:1,4`, `sell_specialty:2`) are
   collected from `SAMPLE_GAMES` random games with fixed seeds, sorted, as
   many as the index has room for. The sample games stop early once they have
   run `MAX_SEARCH_STEPS` steps of pack code in all.
3. **Choice slots**: a pending choice (a `choose` in the rules, asked in the
   middle of an action) offers options; option k takes choice slot k, in the
   engine's order. There are as many slots as the most options seen in the
   sample games (at most `MAX_CHOICE_SLOTS`).
4. **Spare slots**: a legal action not in the index (an id the samples never
   met, or option k past the choice slots) takes the next spare slot, in the
   engine's order, so every legal action stays playable; its meaning then
   varies from state to state.
5. **Wait** (only for a pack with `anytime` actions): the last slot, offered
   with a player's out-of-turn actions when the environment asks a player who
   is not to decide whether to act now; it declines.
"""

from __future__ import annotations

import itertools
import math
import random

from ..game import Game
from ..limits import MAX_SEARCH_STEPS
from ..runtime.engine import Action
from ..runtime.state import State

SAMPLE_GAMES = 4
SAMPLE_DECISIONS = 3000
MAX_CHOICE_SLOTS = 64
SPARE_SLOTS = 16
MAX_INDEXED = 100_000


class ActionIndex:
    """Numbers for a pack's decisions (see the module notes)."""

    def __init__(self, game: Game, players: int) -> None:
        self.players = players
        ids = self.enumerable_ids(game, players)
        seen, most_options = self.sample(game, players)
        known = set(ids)
        ids += sorted(i for i in seen if i not in known)[:MAX_INDEXED - len(ids)]
        self.ids = ids
        self.position = {action_id: i for i, action_id in enumerate(ids)}
        self.choice_base = len(ids)
        self.choice_slots = max(1, min(MAX_CHOICE_SLOTS, most_options))
        self.spare_base = self.choice_base + self.choice_slots
        self.size = self.spare_base + SPARE_SLOTS
        # The slot that declines an out-of-turn offer; None when the pack has no `anytime` action.
        self.wait_slot: int | None = None
        if any(action.anytime for action in game.actions.values()):
            self.wait_slot = self.size
            self.size += 1

    @staticmethod
    def enumerable_ids(game: Game, players: int) -> list[str]:
        model = game.model
        ids: list[str] = []
        for action in game.actions.values():
            domains: list[list[str]] = []
            for param in action.params:
                if param.type in model.kinds:
                    domains.append(model.items_of(param.type, players))
                elif param.type == "player":
                    domains.append([str(p) for p in range(players)])
                else:
                    break
            else:
                if math.prod(len(domain) for domain in domains) > MAX_INDEXED - len(ids):
                    continue  # too many to number: its ids come from the sample games
                for values in itertools.product(*domains):
                    ids.append(action.name if not values else f"{action.name}:{','.join(values)}")
        return ids

    @staticmethod
    def sample(game: Game, players: int) -> tuple[set[str], int]:
        """Top-level action ids and the most options of a pending choice, met in seeded random games."""
        seen: set[str] = set()
        most = 0
        spent = 0
        for seed in range(SAMPLE_GAMES):
            if spent >= MAX_SEARCH_STEPS:
                break
            state = game.new_game(players=players, seed=seed)
            rng = random.Random(seed)
            for _ in range(SAMPLE_DECISIONS):
                if state.is_terminal or spent + state.work >= MAX_SEARCH_STEPS:
                    break
                player = state.players_to_decide()[0]
                actions = state.legal_actions(player)
                if not actions:
                    break
                if state.pending is not None:
                    most = max(most, len(actions))
                elif len(seen) < MAX_INDEXED:  # no more than the index could take
                    seen.update(a.id for a in actions)
                state.apply(actions[rng.randrange(len(actions))])
            spent += state.work
        return seen, most

    def slots(self, state: State, player: int, out_of_turn: bool = False) -> dict[int, Action]:
        """The legal actions of `player` now, by their number in the index (with `out_of_turn`, the
        `anytime` actions it may take while another player is to decide; the wait slot is not included)."""
        result: dict[int, Action] = {}
        spare = self.spare_base
        actions = state.out_of_turn_actions(player) if out_of_turn else state.legal_actions(player)
        for k, action in enumerate(actions):
            if state.pending is not None:
                slot = self.choice_base + k if k < self.choice_slots else None
            else:
                slot = self.position.get(action.id)
            if slot is None or slot in result:
                if spare >= self.spare_base + SPARE_SLOTS:
                    continue  # more unknown actions than spare slots: the rest cannot be chosen
                slot, spare = spare, spare + 1
            result[slot] = action
        return result
