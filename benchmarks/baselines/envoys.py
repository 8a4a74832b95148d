"""Envoys by hand, in plain Python: the baseline for the `envoys` pack (rules in games/envoys/README.md).

Sixteen cards of eight ranks; each player holds one card, draws one on their turn and plays one
of the two. The round ends when one player is left, or when the draw pile is empty after a turn:
then the highest card held wins, ties broken by the total rank of the cards each has played.

The API the benchmarks drive (the same for every baseline):

    state = new_game(players=3, seed=7)
    while not is_terminal(state):
        moves = legal_actions(state)          # tuples, in the pack's order (see below)
        apply(state, moves[rng.randrange(len(moves))])
    copy = clone(state)
    winners(state)

An action is a tuple: ("accuse", target, guess), ("inform", target), ("challenge", target),
("guard",), ("send", target), ("trade", target), ("wait",), ("give_up",) or ("idle", rank).
`new_game(..., order=[...])` deals from a given deck order (top card first), so a test or a benchmark
can deal the same cards as the pack. It still shuffles first, as every game does, so that a benchmark
dealing the pack's order charges the baseline the work of its own shuffle, as the pack is charged its.
"""

from __future__ import annotations

import random

# rank -> (card name, copies)
CARDS = {1: ("Courier", 5), 2: ("Informant", 2), 3: ("Rival", 2), 4: ("Bodyguard", 2),
         5: ("Emissary", 2), 6: ("Diplomat", 1), 7: ("Steward", 1), 8: ("Treaty", 1)}
TARGETED = (1, 2, 3, 6)
DECK = [rank for rank, (_, copies) in CARDS.items() for _ in range(copies)]


class State:
    """Cards are their ranks. `deck` has its top card at the end, so drawing is `deck.pop()`."""

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
    state.active = player
    state.protected[player] = False
    state.hands[player].append(state.deck.pop())


def is_terminal(state: State) -> bool:
    return state.reason is not None


def targets(state: State, player: int) -> list[int]:
    return [q for q in range(state.players)
            if q != player and not state.out[q] and not state.protected[q]]


def legal_actions(state: State) -> list[tuple]:
    if is_terminal(state):
        return []
    me = state.active
    hand = state.hands[me]
    others = targets(state, me)
    actions: list[tuple] = []
    if 1 in hand:
        actions += [("accuse", t, guess) for t in others for guess in range(2, 9)]
    if 2 in hand:
        actions += [("inform", t) for t in others]
    if 3 in hand:
        actions += [("challenge", t) for t in others]
    if 4 in hand:
        actions.append(("guard",))
    if 5 in hand:
        actions += [("send", q) for q in range(state.players)
                    if not state.out[q] and (q == me or not state.protected[q])]
    if 6 in hand:
        actions += [("trade", t) for t in others]
    if 7 in hand:
        actions.append(("wait",))
    if 8 in hand:
        actions.append(("give_up",))
    if not others:
        idle: list[tuple] = []
        for rank in hand:
            if rank in TARGETED and ("idle", rank) not in idle:
                idle.append(("idle", rank))
        actions += idle
    return actions


def knock_out(state: State, player: int) -> None:
    state.out[player] = True
    state.played[player].extend(state.hands[player])
    state.hands[player].clear()


def apply(state: State, action: tuple) -> None:
    if action not in legal_actions(state):
        raise ValueError(f"{action} is not legal here")
    me = state.active
    name = action[0]
    rank = {"accuse": 1, "inform": 2, "challenge": 3, "guard": 4, "send": 5, "trade": 6, "wait": 7,
            "give_up": 8}.get(name) or action[1]
    state.hands[me].remove(rank)
    state.played[me].append(rank)
    if name == "accuse":
        target, guess = action[1], action[2]
        if state.hands[target][0] == guess:
            knock_out(state, target)
    elif name == "inform":
        state.seen[me] = state.hands[action[1]][0]
    elif name == "challenge":
        target = action[1]
        mine, theirs = state.hands[me][0], state.hands[target][0]
        if mine < theirs:
            knock_out(state, me)
        elif theirs < mine:
            knock_out(state, target)
    elif name == "guard":
        state.protected[me] = True
    elif name == "send":
        target = action[1]
        old = state.hands[target].pop(0)
        state.played[target].append(old)
        if old == 8:
            state.out[target] = True
        elif state.deck:
            state.hands[target].append(state.deck.pop())
        else:
            state.hands[target].append(state.aside.pop())
    elif name == "trade":
        target = action[1]
        state.hands[me], state.hands[target] = state.hands[target], state.hands[me]
    elif name == "give_up":
        knock_out(state, me)
    end_of_play(state)


def end_of_play(state: State) -> None:
    if state.out.count(False) == 1:
        state.reason = "one envoy is left"
    elif not state.deck:
        state.reason = "the draw pile ran out"
    else:
        player = (state.active + 1) % state.players
        while state.out[player]:
            player = (player + 1) % state.players
        start_turn(state, player)


def clone(state: State) -> State:
    copy = State(state.players)
    copy.deck = list(state.deck)
    copy.aside = list(state.aside)
    copy.hands = [list(hand) for hand in state.hands]
    copy.played = [list(cards) for cards in state.played]
    copy.out = list(state.out)
    copy.protected = list(state.protected)
    copy.seen = list(state.seen)
    copy.active = state.active
    copy.reason = state.reason
    return copy


def score(state: State, player: int) -> tuple[int, int]:
    """The rank held (0 when out), then the total rank played."""
    held = state.hands[player][0] if not state.out[player] and state.hands[player] else 0
    return held, sum(state.played[player])


def winners(state: State) -> list[int]:
    best = max(score(state, p) for p in range(state.players))
    return [p for p in range(state.players) if score(state, p) == best]
