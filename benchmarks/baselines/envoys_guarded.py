"""Envoys by hand, keeping the promises the engine keeps for every pack: what those promises cost a game
written by hand (benchmarks/guarantees.py compares it with envoys.py, the plain baseline).

The rules and the API are envoys.py's, and it plays the same games (the same legal actions in the same
order, the same winners). What it adds is what ruleskit promises of any pack's game (docs/SECURITY.md,
docs/ARCHITECTURE.md), each written the way one would write it by hand, with no engine code:

- **A step budget.** Each statement of the rules and each element a loop looks at counts a step against
  a budget of 200,000 a decision; past it the decision stops with an error naming the rule.
- **An atomic `apply`.** An action that fails part-way leaves the game as it was: a decision works on a
  shell of the state whose lists are shared, copying each list before its first change, and the state
  takes the shell's lists only when the decision has run to its end. `clone` shares every list too.
- **Actions as values with ids.** Legal actions are `Action` objects with a stable text id (as a log
  writes them) and a label made when first read, one object per id and player; the list is worked out
  once per position and kept; `apply` takes an action of that list (or its id) and refuses any other.
- **Checked values.** A player given as a parameter is checked to be a seat before it is used.
- **A history.** Each decision appends (player, action id) to a history that clones share.

The deck order, the hands and the rest are as in envoys.py: cards are their ranks.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType


def _plain_game() -> ModuleType:
    """envoys.py beside this file (the baselines are a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("baseline_envoys_plain", Path(__file__).with_name("envoys.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The cards and the scoring are the plain game's: it reads the same lists of a state (`hands`, `played`, `out`).
_PLAIN = _plain_game()
CARDS, TARGETED, DECK = _PLAIN.CARDS, _PLAIN.TARGETED, _PLAIN.DECK
score, winners = _PLAIN.score, _PLAIN.winners
BUDGET = 200_000
RANKS = {"accuse": 1, "inform": 2, "challenge": 3, "guard": 4, "send": 5, "trade": 6, "wait": 7, "give_up": 8}
LABELS = {"accuse": "Courier: {0} holds a {1}", "inform": "Informant: look at {0}'s hand",
          "challenge": "Rival: compare hands with {0}", "guard": "Bodyguard: protect yourself",
          "send": "Emissary: {0} discards and draws", "trade": "Diplomat: trade hands with {0}",
          "wait": "Steward: no effect", "give_up": "Treaty: play it and leave the round",
          "idle": "Play a card of rank {0} with no effect"}


class RulesError(Exception):
    """A decision the rules cannot make: over its budget, a value that is not a seat, an illegal action."""


class Action:
    __slots__ = ("id", "player", "name", "args", "_label")

    def __init__(self, player: int, name: str, args: tuple) -> None:
        self.player = player
        self.name = name
        self.args = args
        self.id = ":".join((name, *map(str, args)))
        self._label: str | None = None

    @property
    def label(self) -> str:
        if self._label is None:
            self._label = LABELS[self.name].format(*self.args)
        return self._label

    def __eq__(self, other: object) -> bool:
        if isinstance(other, tuple):  # the plain baseline's actions, for comparing the two
            return (self.name, *self.args) == other
        return isinstance(other, Action) and other.id == self.id and other.player == self.player

    def __hash__(self) -> int:
        return hash(self.id)


_ACTIONS: dict[tuple, Action] = {}  # one Action per player, name and arguments


def _action(player: int, name: str, *args: int) -> Action:
    key = (player, name, args)
    found = _ACTIONS.get(key)
    if found is None:
        found = _ACTIONS[key] = Action(player, name, args)
    return found


class State:
    """`deck` has its top card at the end. The lists are shared with clones and copied before a change."""

    __slots__ = ("players", "deck", "aside", "hands", "played", "out", "protected", "seen", "active", "reason",
                 "history", "legal", "steps", "owned")

    def __init__(self, players: int) -> None:
        self.players = players
        self.deck: list[int] = []
        self.aside: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.played: list[list[int]] = [[] for _ in range(players)]
        self.out = [False] * players
        self.protected = [False] * players
        self.seen: list[int | None] = [None] * players
        self.active = 0
        self.reason: str | None = None
        self.history: tuple | None = None  # (earlier, (player, action id)): shared by clones
        self.legal: list[Action] | None = None  # the legal actions, once worked out
        self.steps = 0  # the running decision's steps
        self.owned: set[int] = set()  # ids of the lists this shell copied and may change in place

    def shell(self) -> State:
        """A copy sharing every list, owning none: a clone, or the state a decision works on."""
        copy = State.__new__(State)
        copy.players = self.players
        copy.deck, copy.aside, copy.hands, copy.played = self.deck, self.aside, self.hands, self.played
        copy.out, copy.protected, copy.seen = self.out, self.protected, self.seen
        copy.active, copy.reason, copy.history, copy.legal = self.active, self.reason, self.history, self.legal
        copy.steps = 0
        copy.owned = set()
        return copy


def tick(state: State, where: str) -> None:
    state.steps += 1
    if state.steps > BUDGET:
        raise RulesError(f"{where}: more than {BUDGET} steps in one decision")


def own(state: State, name: str) -> list:
    """The list `name` of this shell, copied before its first change."""
    value = getattr(state, name)
    if id(value) not in state.owned:
        value = list(value)
        setattr(state, name, value)
        state.owned.add(id(value))
    return value


def own_in(state: State, name: str, player: int) -> list:
    """A player's list in the list of lists `name` (a hand, a pile of played cards), copied before a change."""
    outer = own(state, name)
    inner = outer[player]
    if id(inner) not in state.owned:
        inner = outer[player] = list(inner)
        state.owned.add(id(inner))
    return inner


def seat(state: State, value: object, where: str) -> int:
    if type(value) is not int or not 0 <= value < state.players:
        raise RulesError(f"{where}: {value!r} is not a player")
    return value


def new_game(players: int = 2, seed: int = 0, order: list[int] | None = None) -> State:
    if not 2 <= players <= 4:
        raise ValueError("Envoys is for 2 to 4 players")
    state = State(players)
    shuffled = list(DECK)
    random.Random(seed).shuffle(shuffled)
    if order is None:
        order = shuffled
    state.deck = list(reversed(order))
    state.aside.append(state.deck.pop())
    for p in range(players):
        state.hands[p].append(state.deck.pop())
    start_turn(state, 0)
    return state


def start_turn(state: State, player: int) -> None:
    tick(state, "hook begin_turn")
    state.active = player
    own(state, "protected")[player] = False
    tick(state, "hook begin_turn")
    own_in(state, "hands", player).append(own(state, "deck").pop())


def is_terminal(state: State) -> bool:
    return state.reason is not None


def targets(state: State, player: int) -> list[int]:
    tick(state, "rule targets")
    found = []
    for q in range(state.players):
        tick(state, "rule targets")
        if q != player and not state.out[q] and not state.protected[q]:
            found.append(q)
    return found


def legal_actions(state: State) -> list[Action]:
    legal = state.legal
    if legal is None:
        state.steps = 0
        legal = state.legal = _list(state)
    return legal


def _list(state: State) -> list[Action]:
    if is_terminal(state):
        return []
    me = state.active
    hand = state.hands[me]
    others = targets(state, me)
    actions: list[Action] = []
    for rank in range(1, 9):
        tick(state, "stage play")
        if rank not in hand:
            continue
        if rank == 1:
            actions += [_action(me, "accuse", t, guess) for t in others for guess in range(2, 9)]
        elif rank == 2:
            actions += [_action(me, "inform", t) for t in others]
        elif rank == 3:
            actions += [_action(me, "challenge", t) for t in others]
        elif rank == 4:
            actions.append(_action(me, "guard"))
        elif rank == 5:
            actions += [_action(me, "send", q) for q in range(state.players)
                        if not state.out[q] and (q == me or not state.protected[q])]
        elif rank == 6:
            actions += [_action(me, "trade", t) for t in others]
        elif rank == 7:
            actions.append(_action(me, "wait"))
        else:
            actions.append(_action(me, "give_up"))
    state.steps += len(actions)  # each binding listed is a step
    if not others:
        idle: list[Action] = []
        for rank in hand:
            tick(state, "action idle")
            if rank in TARGETED and _action(me, "idle", rank) not in idle:
                idle.append(_action(me, "idle", rank))
        actions += idle
    return actions


def knock_out(state: State, player: int) -> None:
    tick(state, "proc knock_out")
    own(state, "out")[player] = True
    tick(state, "proc knock_out")
    hand = own_in(state, "hands", player)
    own_in(state, "played", player).extend(hand)
    state.steps += len(hand)
    hand.clear()


def apply(state: State, action: Action | str) -> None:
    """Apply a legal action (or its id). A refused or failing action leaves `state` as it was."""
    legal = legal_actions(state)
    wanted = action if isinstance(action, str) else action.id
    for chosen in legal:
        if chosen.id == wanted:
            break
    else:
        raise RulesError(f"{wanted!r} is not a legal action here")
    job = state.shell()
    job.legal = None
    _effect(job, chosen)
    end_of_play(job)
    job.history = (state.history, (chosen.player, chosen.id))
    # The decision ran to its end: the state takes the job's lists.
    state.deck, state.aside, state.hands, state.played = job.deck, job.aside, job.hands, job.played
    state.out, state.protected, state.seen = job.out, job.protected, job.seen
    state.active, state.reason, state.history, state.legal = job.active, job.reason, job.history, None


def _effect(job: State, action: Action) -> None:
    me = job.active
    name = action.name
    rank = RANKS.get(name) or action.args[0]
    tick(job, "play_rank")
    hand = own_in(job, "hands", me)
    job.steps += hand.index(rank)
    hand.remove(rank)
    own_in(job, "played", me).append(rank)
    tick(job, name)
    if name == "accuse":
        target = seat(job, action.args[0], name)
        tick(job, name)
        if job.hands[target][0] == action.args[1]:
            knock_out(job, target)
    elif name == "inform":
        target = seat(job, action.args[0], name)
        own(job, "seen")[me] = job.hands[target][0]
    elif name == "challenge":
        target = seat(job, action.args[0], name)
        tick(job, name)
        mine, theirs = job.hands[me][0], job.hands[target][0]
        tick(job, name)
        if mine < theirs:
            knock_out(job, me)
        elif theirs < mine:
            knock_out(job, target)
    elif name == "guard":
        own(job, "protected")[me] = True
    elif name == "send":
        target = seat(job, action.args[0], name)
        tick(job, name)
        old = own_in(job, "hands", target).pop(0)
        own_in(job, "played", target).append(old)
        tick(job, name)
        if old == 8:
            own(job, "out")[target] = True
        elif job.deck:
            own_in(job, "hands", target).append(own(job, "deck").pop())
        else:
            own_in(job, "hands", target).append(own(job, "aside").pop())
    elif name == "trade":
        target = seat(job, action.args[0], name)
        tick(job, name)
        hands = own(job, "hands")
        hands[me], hands[target] = hands[target], hands[me]
    elif name == "give_up":
        knock_out(job, me)


def end_of_play(job: State) -> None:
    tick(job, "proc after_play")
    job.steps += job.players
    if job.out.count(False) == 1:
        job.reason = "one envoy is left"
    elif not job.deck:
        job.reason = "the draw pile ran out"
    else:
        player = (job.active + 1) % job.players
        while job.out[player]:
            player = (player + 1) % job.players
        start_turn(job, player)


def clone(state: State) -> State:
    return state.shell()
