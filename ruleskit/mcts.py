"""Monte Carlo tree search for any pack (`--bots mcts:2000`, `--bots mcts:0.5s`).

One search serves every kind of pack:

- *Perfect information*: plain UCT with random playouts. Each iteration
  copies the root with `State.determinized`, which only re-seeds the random
  stream when nothing is hidden, so the tree is the usual game tree.
- *Hidden information or chance*: single-observer information-set MCTS. Each
  iteration searches a fresh determinized copy (hidden zones redrawn, the
  random stream re-seeded), so the bot never peeks. The tree is keyed by
  decisions only ("open loop"); an edge's UCB counts how often it was
  *available*, since different copies allow different actions.
- *Simultaneous stages*: decoupled UCT. Every player still to pick chooses
  from their own statistics at the node, blind to the others' choices; the
  child is keyed by the joint pick. At the root, picks already made by
  others are forgotten first (`blind_copy`), so the bot does not see them.

A playout plays random legal actions to the end of the game; if the pack has a
heuristic, it stops after `playout_depth` decisions and the heuristic scores
the position. Rewards lie in [0, 1]: the share of opponents a player beats by
final place (ties a half), or, when cut short, a smooth step of its heuristic
lead over each opponent.

The bot draws everything from its own seeded `random.Random`, so a game with
the same seed and an iteration budget replays identically; a time budget
depends on the machine. Whatever the budget, one decision's copies run at
most `MAX_SEARCH_STEPS` steps of pack code, or that much for each 1,000
iterations asked for (a built-in pack's search takes a tenth of it at most),
and its tree holds at most `MAX_TREE_EDGES` edges: the search stops there (a
playout is scored as it stands) and goes by what it has found. The tree is kept between moves when the new position
lies inside it and it is still exact: nothing hidden from the bot and no
chance outcome since the tree was built.
"""

from __future__ import annotations

import math
import random
import re
import time
from typing import Any

import attrs

from .errors import PackError, RulesError
from .game import Game
from .limits import MAX_SEARCH_STEPS
from .runtime.engine import Action
from .runtime.state import State

DEFAULT_ITERATIONS = 1000
HEURISTIC_PLAYOUT_DEPTH = 20
MAX_PLAYOUT_DECISIONS = 5000
"""A playout still running after this many decisions is scored as it stands."""
EXPLORATION = 0.7
MAX_TREE_EDGES = 500_000
"""A search stops once its tree holds this many edges (each action seen at each node): a pack whose actions
differ at every guess of the hidden cards made a tree of 2 GB within the step bound."""
WIN_CHECK_SAMPLES = 4
MAX_ITERATIONS = 100_000
MAX_SECONDS = 600.0
"""The largest budget a spec (`mcts:N`, `mcts:Ns`) may ask for per decision: a hundred times the default
already takes seconds a decision, and `mcts:99999999` left a game running for hours as if hung."""

Key = tuple[tuple[int, str], ...]
"""A tree edge: the (player, action id) pairs taken at a node, one pair unless the stage is simultaneous."""


@attrs.define
class Budget:
    """How long one decision may search: a number of iterations, or seconds of wall time."""

    iterations: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str | None) -> Budget:
        """`2000` (iterations) or `0.5s` (seconds); empty means the default iterations."""
        if text is None or not text.strip():
            return cls(iterations=DEFAULT_ITERATIONS)
        text = text.strip()
        if re.fullmatch(r"[0-9]+", text):  # ASCII digits: `\d` takes full-width ones too
            if int(text) < 1:
                raise PackError("an mcts budget needs at least 1 iteration")
            if int(text) > MAX_ITERATIONS:
                raise PackError(f"an mcts budget of {text} iterations would be searching without end: "
                                f"at most {MAX_ITERATIONS:,} a decision")
            return cls(iterations=int(text))
        match = re.fullmatch(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)s", text)
        if match and float(match.group(1)) > MAX_SECONDS:
            raise PackError(f"an mcts budget of {text} would be searching without end: "
                            f"at most {MAX_SECONDS:g}s a decision")
        if match and float(match.group(1)) > 0:
            return cls(seconds=float(match.group(1)))
        raise PackError(f"bad mcts budget '{text}': give iterations (mcts:2000) or seconds (mcts:0.5s)")

    def __str__(self) -> str:
        return f"{self.seconds}s" if self.seconds is not None else str(self.iterations)


@attrs.define
class Edge:
    """Statistics of one player's action at one node."""

    visits: int = 0
    reward: float = 0.0
    available: int = 0


@attrs.define(eq=False)
class Node:
    """A point in the open-loop tree: reached by a sequence of decisions, whatever the hidden cards were."""

    edges: dict[tuple[int, str], Edge] = attrs.Factory(dict)
    children: dict[Key, Node] = attrs.Factory(dict)
    visits: int = 0


def check_option(option: str) -> None:
    """Refuse a bad `mcts:OPTION` (budget, then settings) when the spec is named, not when its first decision
    is due (in a worker, or after a human's moves)."""
    budget, _, settings = option.partition(":")
    Budget.parse(budget)
    if settings:
        parse_settings(settings, None, EXPLORATION)


def parse_settings(text: str, depth: int | None, exploration: float) -> tuple[int | None, float]:
    """`depth=N` (playout decisions before the heuristic scores) and `c=X` (exploration), `:`-separated."""
    for setting in text.split(":"):
        key, _, value = setting.partition("=")
        if not value.isascii():  # int() and float() read full-width digits, which no other budget takes
            value = ""
        try:
            if key == "depth" and 0 <= int(value) <= MAX_PLAYOUT_DECISIONS:
                depth = int(value)
                continue
            if key == "depth" and int(value) > MAX_PLAYOUT_DECISIONS:
                # Playouts are cut there anyway: a larger depth let one playout run the whole step bound.
                raise PackError(f"bad mcts setting '{setting}': playouts stop after at most "
                                f"{MAX_PLAYOUT_DECISIONS:,} decisions (depth=0 to {MAX_PLAYOUT_DECISIONS})")
            if key == "c" and 0 <= float(value) < math.inf:  # infinite exploration made every score NaN
                exploration = float(value)
                continue
        except ValueError:
            pass
        raise PackError(f"bad mcts setting '{setting}': use depth=N or c=X (mcts:200:depth=8:c=0.7)")
    return depth, exploration


def rewards(state: State, measure: Any) -> list[float]:
    """Each player's reward in [0, 1], averaged over its opponents.

    At the end: 1 against an opponent it placed above, 0 below, a half for a
    tie. Cut short: a smooth step of the heuristic difference (a logistic of
    the difference over the values' size), so a bigger lead is worth more and
    a small gain counts even far ahead or behind.
    """
    n = state.players
    result = state.result
    if n < 2:
        return [1.0 if result is not None and 0 in result["winners"] else 0.5]
    if result is not None:
        places = result["places"]
        return [sum(1.0 if places[p] < places[q] else 0.5 if places[p] == places[q] else 0.0
                    for q in range(n) if q != p) / (n - 1) for p in range(n)]
    # A heuristic that fails (a division by zero) is the pack's error, at its line, as under greedy: scored as
    # a draw it left the search playing at random without a word.
    values = [float(state.evaluate(measure, p)) for p in range(n)]
    return [sum(lead(values[p], values[q]) for q in range(n) if q != p) / (n - 1) for p in range(n)]


def lead(mine: float, theirs: float) -> float:
    """How far ahead `mine` is, in (0, 1): 0.5 when equal, scaled by the size of the values."""
    scale = 1.0 + 0.25 * (abs(mine) + abs(theirs))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, (mine - theirs) / scale))))


def is_simultaneous(state: State) -> bool:
    return isinstance(state.current_player, tuple)


def blind_copy(state: State, viewer: int) -> State:
    """A copy in which the simultaneous picks other players have made are not yet made.

    The picks are secret until the stage resolves; `State.view` hides them but
    `State.determinized` keeps them, so a search would see them. A pick only
    records the choice until all have picked, so dropping it is the position
    the viewer believes it is in.
    """
    if not is_simultaneous(state):
        return state
    saved = state.to_json()  # a copy
    picks = saved["data"]["flow"]["simul"]["picks"]
    if all(key == str(viewer) for key in picks):
        return state
    saved["data"]["flow"]["simul"]["picks"] = {k: v for k, v in picks.items() if k == str(viewer)}
    return State.from_json(state.game, saved)


def has_hidden_information(state: State, viewer: int) -> bool:
    """Whether anything of the position is hidden from `viewer` now (secret zones, vars or picks)."""
    view = state.view(viewer)
    data = state.raw
    if len(view["vars"]) != len(data["v"]):
        return True
    if any(len(shown) != len(real) for shown, real in zip(view["player_vars"], data["pv"], strict=True)):
        return True
    if any(item not in view["items"] or len(view["items"][item]) != len(values) for item, values in data["ev"].items()):
        return True
    if any(isinstance(content, dict) and content.get("hidden") for content in view["zones"].values()):
        return True
    if any(isinstance(content, list) and any(isinstance(x, dict) for x in content) for content in view["zones"].values()):
        return True  # items shown by their face only
    return is_simultaneous(state)


class MCTSBot:
    """UCT / information-set MCTS with decoupled selection at simultaneous stages (see the module notes)."""

    name = "mcts"

    def __init__(self, game: Game, seed: int, budget: str | Budget | None = None,
                 playout_depth: int | None = None, exploration: float = EXPLORATION) -> None:
        self.game = game
        self.rng = random.Random(seed)
        if isinstance(budget, str) and ":" in budget:  # mcts:200:depth=8:c=1.0
            budget, settings = budget.split(":", 1)
            playout_depth, exploration = parse_settings(settings, playout_depth, exploration)
        self.budget = budget if isinstance(budget, Budget) else Budget.parse(budget)
        self.name = f"mcts:{self.budget}"
        self.measure: Any = game.heuristic or game.score
        if playout_depth is None:
            playout_depth = HEURISTIC_PLAYOUT_DEPTH if game.heuristic is not None else MAX_PLAYOUT_DECISIONS
        self.playout_depth = playout_depth
        self.exploration = exploration
        self.kept: Node | None = None
        self.kept_history = 0
        self.kept_action: tuple[int, str] | None = None
        self.last_iterations = 0
        self.spent = 0  # the steps this decision's copies have run (`State.work`)
        self.edges = 0  # the edges this decision's search has added to its tree
        iterations = self.budget.iterations
        self.step_limit = MAX_SEARCH_STEPS if iterations is None else \
            max(MAX_SEARCH_STEPS, iterations * (MAX_SEARCH_STEPS // DEFAULT_ITERATIONS))

    # ------------------------------------------------------------- deciding

    def choose(self, state: State, player: int) -> Action:
        actions = state.legal_actions(player)
        if not actions:
            raise PackError(f"Player {player + 1} has no legal action to choose from")
        if len(actions) == 1:
            return actions[0]
        self.spent = self.edges = 0
        # A time budget covers the look for a win too: 10,000 actions to try made `mcts:0.5s` take 3 s.
        deadline = time.perf_counter() + self.budget.seconds if self.budget.seconds is not None else None
        root_state = blind_copy(state, player)
        root = self.reused_root(state, player) or Node()
        winning = self.immediate_win(root_state, player, actions, deadline)
        if winning is not None:
            self.kept = None
            return winning
        self.search(root, root_state, player, deadline)
        by_id = {a.id: a for a in actions}
        stats = [(edge.visits, edge.reward / edge.visits if edge.visits else 0.0, aid)
                 for (who, aid), edge in root.edges.items() if who == player and aid in by_id]
        if not stats:
            return actions[self.rng.randrange(len(actions))]
        best = max(stats, key=lambda s: (s[0], s[1]))
        chosen = by_id[best[2]]
        self.keep(root, state, player, chosen)
        return chosen

    def immediate_win(self, state: State, player: int, actions: list[Action],
                      deadline: float | None = None) -> Action | None:
        """An action that wins the game at once (alone) in every sampled copy, if there is one found before the
        step limit or the deadline."""
        seeds = [self.rng.getrandbits(63) for _ in range(WIN_CHECK_SAMPLES)]
        for action in actions:
            if self.spent >= self.step_limit or (deadline is not None and time.perf_counter() >= deadline):
                return None
            for seed in seeds:
                copy = state.determinized(player, seed)
                try:
                    copy.apply(action.id, player=player)
                except RulesError:
                    break
                finally:
                    self.spent += copy.work
                result = copy.result
                if result is None or result["winners"] != [player]:
                    break
            else:
                return action
        return None

    # ------------------------------------------------------------- the search

    def search(self, root: Node, state: State, player: int, deadline: float | None = None) -> None:
        """Iterate until the budget is spent: its iterations, or `deadline` (the decision's, for a time budget)."""
        if deadline is None and self.budget.seconds is not None:
            deadline = time.perf_counter() + self.budget.seconds
        iterations = 0
        while True:
            if deadline is not None:
                if iterations > 0 and time.perf_counter() >= deadline:
                    break
            elif iterations >= (self.budget.iterations or DEFAULT_ITERATIONS):
                break
            if self.spent >= self.step_limit or self.edges >= MAX_TREE_EDGES:
                break
            copy = state.determinized(player, self.rng.getrandbits(63))
            self.iterate(root, copy)
            self.spent += copy.work
            iterations += 1
        self.last_iterations = iterations

    def iterate(self, root: Node, state: State) -> None:
        """Select down the tree on one determinized copy, add one node, play out, back up."""
        path: list[tuple[Node, Key, list[tuple[int, str]]]] = []
        node: Node | None = root
        while node is not None and not state.is_terminal:
            offered = self.offered(state)
            if not offered:
                break
            key = tuple(self.select(node, player, options) for player, options in offered)
            path.append((node, key, [(p, a.id) for p, options in offered for a in options]))
            if not self.play(state, key, offered):
                break
            child = node.children.get(key)
            if child is None:
                node.children[key] = Node()
                node = None
            else:
                node = child
        values = self.playout(state)
        for visited, key, available in path:
            visited.visits += 1
            edges = visited.edges
            for pair in available:
                edge = edges.get(pair)
                if edge is None:
                    edge = edges[pair] = Edge()
                    self.edges += 1
                edge.available += 1
            for who, aid in key:
                edge = visited.edges[(who, aid)]
                edge.visits += 1
                edge.reward += values[who]

    def offered(self, state: State) -> list[tuple[int, list[Action]]]:
        """Who decides at this node and what each may do; several players at a simultaneous stage."""
        deciders = state.players_to_decide()
        if not is_simultaneous(state):
            deciders = deciders[:1]
        return [(p, actions) for p in sorted(deciders) if (actions := state.legal_actions(p))]

    def select(self, node: Node, player: int, options: list[Action]) -> tuple[int, str]:
        """UCB over the player's available actions; an untried one first (chosen at random)."""
        untried = [a for a in options if (player, a.id) not in node.edges or not node.edges[(player, a.id)].visits]
        if untried:
            return (player, untried[self.rng.randrange(len(untried))].id)
        best_value = -math.inf
        best: tuple[int, str] = (player, options[0].id)
        for action in options:
            edge = node.edges[(player, action.id)]
            value = edge.reward / edge.visits + self.exploration * math.sqrt(
                math.log(max(edge.available, 1)) / edge.visits)
            if value > best_value:
                best_value, best = value, (player, action.id)
        return best

    def play(self, state: State, key: Key, offered: list[tuple[int, list[Action]]]) -> bool:
        """Apply the chosen actions in seat order; False if the rules refuse one (the copy is then left)."""
        try:
            for player, aid in key:
                state.apply(aid, player=player)
        except RulesError:
            return False
        return True

    def playout(self, state: State) -> list[float]:
        rng = self.rng
        for _ in range(self.playout_depth):
            if state.is_terminal or self.spent + state.work >= self.step_limit:
                break
            player = state.players_to_decide()[0]
            actions = state.legal_actions(player)
            if not actions:
                break
            try:
                state.apply(actions[rng.randrange(len(actions))])
            except RulesError:
                break
        return rewards(state, self.measure)

    # ------------------------------------------------------------- keeping the tree

    def keep(self, root: Node, state: State, player: int, chosen: Action) -> None:
        """Keep the subtree under our choice, if the tree is exact for this pack and position."""
        self.kept = None
        if has_hidden_information(state, player) or is_simultaneous(state):
            return
        child = root.children.get(((player, chosen.id),))
        if child is not None:
            self.kept = child
            self.kept_history = len(state.history) + 1
            self.kept_action = (player, chosen.id)

    def reused_root(self, state: State, player: int) -> Node | None:
        """The kept subtree for this position: follow the decisions taken since, if none drew chance."""
        node, self.kept = self.kept, None
        if node is None or has_hidden_information(state, player) or len(state.history) < self.kept_history:
            return None
        since = state.history[self.kept_history - 1:]
        if not since or since[0].get("chance") or (since[0].get("player"), since[0].get("action")) != self.kept_action:
            return None  # chance was drawn, or this is not the game the tree was built for
        for entry in since[1:]:
            if entry.get("chance") or "action" not in entry:
                return None
            node = node.children.get(((entry["player"], entry["action"]),))
            if node is None:
                return None
        return node
