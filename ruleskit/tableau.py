"""One player's view of a state as plain rows, cards and a board graph, for any front end.

The terminal draws rich tables; a browser draws boxes and a board. Both read a
state the same way: every name, value and zone text comes from `Display`, and
everything shown comes from `state.view(player)` (or, for a finished game's
replay, from `full_view`), so what is hidden stays hidden.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .digits import plain_digits
from .display import Display
from .model import edge_key
from .runtime.engine import Action, action_label
from .story import answered

if TYPE_CHECKING:
    from .game import Game
    from .runtime.state import State

_LAYOUT_CELL = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# Pairs of int fields that place a board space on a grid, as (across, down).
_GRID_FIELDS = (("x", "y"), ("col", "row"), ("column", "row"), ("file", "rank"))
_SPRING_ROUNDS = 120


def full_view(state: State) -> dict[str, Any]:
    """Everything in a state, shaped like `state.view()`: for replays and finished games only."""
    data = state.raw
    flow = {k: v for k, v in data["flow"].items() if k not in ("simul", "usage", "entered", "idle")}
    return {"viewer": None, "players": data["n"], "vars": dict(data["v"]), "player_vars": list(data["pv"]),
            "items": dict(data["ev"]), "zones": dict(data["z"]), "blocked": list(data["blocked"]),
            "flow": flow, "result": data["result"]}


HIDDEN = "(hidden)"
_TOKEN = re.compile(r"\w+|\W")  # a word, or one character of no word
_WORD = re.compile(r"\w")


class Redaction:
    """Texts about one state as a seat may read them: the id and the name of every item the seat cannot see
    now replaced by HIDDEN (`without_names`). Each seat's hidden names are worked out once, from a view of
    the state, for all the texts about it."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._names: dict[tuple[int, ...], dict[str, list[str]]] = {}

    def text(self, text: str, *seats: int) -> str:
        """`text` as every one of `seats` may read it."""
        names = self._names.get(seats)
        if names is None:
            model = self.state.game.model
            hidden: set[str] = set()
            for seat in seats:
                hidden |= secret_items(self.state, seat)
            named = [str(model.item_data.get(item, {}).get("name", item)) for item in hidden]
            names = self._names[seats] = name_index([*hidden, *named])
        return without_names(text, names)

    def decision(self, action: Action, prompt: str | None, *seats: int) -> str:
        """A decision taken where `prompt` was asked (None: no choice was open) as every one of `seats` may read
        it: a choice's answer after its question, both the pack code's text, read whole; an action by `label`."""
        if prompt:
            return self.text(answered(prompt, action.label), *seats)
        return self.label(action, *seats)

    def label(self, action: Action, *seats: int) -> str:
        """The label of `action`, taken in this state's game, as every one of `seats` may read it: only the
        values bound to its parameters are looked at (a card's name written in the pack's label,
        "Spy: Player 1 holds a 7", named hidden cards too and was hidden). A choice's answer, whose label the pack's
        code wrote, is read whole, as any text."""
        payload = action.internal_payload()
        game = self.state.game
        compiled = game.actions.get(payload["action"]) if "action" in payload else None
        if compiled is None:
            return self.text(action.label, *seats)
        args = payload["args"]
        if action_label(game.model, compiled, args) != action.label:  # not written from these values: as text
            return self.text(action.label, *seats)
        return action_label(game.model, compiled, args, lambda value: self.text(value, *seats))


def name_index(names: Iterable[str]) -> dict[str, list[str]]:
    """Names by their first word (their first character when that is no word character), longest first."""
    index: dict[str, list[str]] = {}
    for name in set(names):
        if name:
            index.setdefault(_TOKEN.match(name).group(), []).append(name)  # type: ignore[union-attr]
    for found in index.values():
        found.sort(key=lambda n: (-len(n), n))
    return index


def without_names(text: str, index: dict[str, list[str]]) -> str:
    """`text` with each name of `index` that stands there as a whole (no word character just before or just
    after it) replaced by HIDDEN, the longest first where several start at one place. Names are looked up by
    the word at each place, so ten thousand messages about a state with a hundred thousand hidden pieces cost
    what the messages say, not a pattern of every name tried at every letter of each."""
    if not index:
        return text
    parts: list[str] = []
    done = 0  # the text before this is in `parts`
    for token in _TOKEN.finditer(text):
        start = token.start()
        if start < done or _word_at(text, start - 1):
            continue  # inside a name replaced, or inside a word
        for name in index.get(token.group(), ()):
            end = start + len(name)
            if text.startswith(name, start) and not _word_at(text, end):
                parts += [text[done:start], HIDDEN]
                done = end
                break
    return "".join(parts) + text[done:] if parts else text


def _word_at(text: str, at: int) -> bool:
    """Whether a word character (as a pattern's \\w) stands at `at` in `text`."""
    return 0 <= at < len(text) and _WORD.match(text, at) is not None


def secret_items(state: State, viewer: int) -> set[str]:
    """Items in the game's zones, or held by its vars, that `viewer` cannot see now (a secret goal kept in a
    var only its owner sees is as hidden as a card in a hand)."""
    data = state.raw
    present: set[str] = set()
    for content in data["z"].values():
        if isinstance(content, dict):
            present.update(item for item, count in content.items() if count)
        else:
            present.update(item for item in content if item is not None)
    items = state.game.model.item_kind
    present |= _items_held(items, [data["v"], data["pv"], data["ev"]])
    view = state.view(viewer)
    return present - visible_items(view) - _items_held(items, [view["vars"], view["player_vars"], view["items"]])


def known_items(state: State, viewer: int) -> set[str]:
    """Items `viewer` is shown now: in its view's zones and vars, and among the options of its own pending
    choice (a choice from the face-down deck shows the cards it offers)."""
    view = state.view(viewer)
    items = state.game.model.item_kind
    values: list[Any] = [view["vars"], view["player_vars"], view["items"]]
    pending = state.pending
    if pending is not None and pending["player"] == viewer:
        values += [value for _, _, value in pending["options"]]
    return visible_items(view) | _items_held(items, values)


def _items_held(items: dict[str, str], values: list[Any]) -> set[str]:
    """The item ids among `values` and the tables and lists nested in them."""
    found: set[str] = set()
    pending = list(values)
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if value in items:
                found.add(value)
        elif isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return found


def visible_items(view: dict[str, Any]) -> set[str]:
    """Items a view shows in its zones (a hidden stack's top card included)."""
    seen: set[str] = set()
    for content in view["zones"].values():
        if isinstance(content, dict):
            if content.get("hidden") is True:
                if isinstance(content.get("top"), str):  # a top shown by its face only names no item
                    seen.add(content["top"])
                continue
            seen.update(item for item, count in content.items() if count)
        else:
            seen.update(item for item in content if isinstance(item, str))
    return seen


class Tableau:
    """Turns views of one game's states into plain data: header, board, game, players and pieces."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.model = game.model
        self.display = Display(game)
        self.hints = self.display.hints
        self.positions, self.aspect = self._board_positions()

    # ------------------------------------------------------------- the whole view

    @property
    def title(self) -> str:
        """The game's title: the pack's display title, else its name."""
        return self.hints.title or self.game.name

    def of(self, view: dict[str, Any], deciders: list[int] | None = None) -> dict[str, Any]:
        return {
            "title": self.title,
            "header": self.header(view, deciders or []),
            "board": self.board(view),
            "game": self.game_rows(view),
            "players": self.players(view),
            "pieces": self.pieces(view),
            "result": self.result(view),
        }

    def header(self, view: dict[str, Any], deciders: list[int]) -> dict[str, Any]:
        flow = view["flow"]
        stage = self.game.stages.get(flow["stage"])
        return {"turn": flow["turn"], "round": flow["round"], "phase": self.display.label(flow["phase"]),
                "stage": stage.label if stage is not None else "",
                "deciders": [self.display.player_name(p) for p in deciders]}

    def hidden(self, name: str) -> bool:
        return name in self.hints.hide

    # ------------------------------------------------------------- zones as cards

    def zone(self, name: str, content: Any) -> dict[str, Any]:
        """A zone as cards: a hidden zone is a face-down pile, a pool is counted tokens."""
        text = self.display.zone(name, content)
        if isinstance(content, dict) and content.get("hidden") is True:
            top = content.get("top")
            return {"type": "hidden", "count": content["count"], "text": text,
                    "cards": [self.card(top)] if top is not None else []}
        zone = self.model.zones[name]
        if zone.type == "pool":
            if zone.unlimited:
                return {"type": "pool", "text": text, "cards": [], "unlimited": True}
            cards = [{**self.card(item), "count": count} for item, count in content.items() if count]
            return {"type": "pool", "text": text, "cards": cards}
        if zone.type == "row":
            return {"type": "row", "text": text,
                    "cards": [self.card(item) if item is not None else {"empty": True} for item in content]}
        return {"type": "stack", "text": text, "cards": [self.card(item) for item in content]}

    def card(self, item: Any) -> dict[str, Any]:
        if not isinstance(item, str):  # an item shown by its face only
            return {"text": self.display.item(item), "owner": None}
        values = self.model.item_data.get(item, {})
        owner = values.get("owner")
        return {"text": self.display.item(item), "owner": owner if isinstance(owner, int) else None}

    # ------------------------------------------------------------- the tables

    def game_rows(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for name, value in view["vars"].items():
            if not self.hidden(name):
                player_type = self.model.game_vars[name].type == "player"
                rows.append({"label": self.display.label(name), "value": self.display.value(value, player_type)})
        for key, content in view["zones"].items():
            name, _, owner = key.partition("@")
            if plain_digits(owner) or self.hidden(name):
                continue  # players' zones go with the players
            label = self.display.label(name) if not owner else f"{self.display.item(owner)}: {self.display.label(name)}"
            rows.append({"label": label, "zone": self.zone(name, content)})
        return rows

    def players(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        model = self.model
        zone_names = [n for n, z in model.zones.items() if z.owner == "player" and not self.hidden(n)]
        owned = [(kind_name, var) for kind_name, kind in model.kinds.items() if kind.per_player
                 for var in kind.vars if not self.hidden(kind_name) and not self.hidden(var)]
        players = []
        for p in range(view["players"]):
            values = view["player_vars"][p]
            rows = []
            for name, var_def in model.player_vars.items():
                if self.hidden(name):
                    continue
                shown = self.display.value(values[name], var_def.type == "player") if name in values else "?"
                rows.append({"label": self.display.label(name), "value": shown, "secret": name not in values})
            for kind, var in owned:
                item_values = view["items"].get(f"{kind}_{p}", {})
                shown = self.display.value(item_values[var]) if var in item_values else "?"
                rows.append({"label": f"{self.display.label(kind)} {self.display.label(var)}", "value": shown,
                             "secret": var not in item_values})
            zones = [{"label": self.display.label(name), **self.zone(name, view["zones"][f"{name}@{p}"])}
                     for name in zone_names if f"{name}@{p}" in view["zones"]]
            players.append({"seat": p, "name": self.display.player_name(p), "colour": self.colour(p),
                            "rows": rows, "zones": zones})
        return players

    def colour(self, p: int) -> str:
        """The seat's name when it names a colour (the page checks it), else ''."""
        name = self.hints.players[p] if p < len(self.hints.players) else ""
        return name.lower() if name.isalpha() else ""

    def pieces(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        model = self.model
        board_kind = model.board.nodes if model.board else None
        rows = []
        for item, values in view["items"].items():
            kind = model.item_kind[item]
            if kind == board_kind:
                continue  # a space's values are drawn on the board
            if model.kinds[kind].per_player and model.item_data[item].get("owner") is not None:
                continue
            if self.hidden(kind) or self.hidden(item):
                continue
            shown = ", ".join(f"{self.display.label(k)} {self.display.value(v)}"
                              for k, v in values.items() if not self.hidden(k))
            if shown:
                rows.append({"label": self.display.item(item), "value": shown})
        return rows

    def result(self, view: dict[str, Any]) -> dict[str, Any] | None:
        result = view["result"]
        if result is None:
            return None
        return {"reason": result["reason"],
                "rows": [{"place": result["places"][p], "name": self.display.player_name(p),
                          "score": result["scores"][p], "winner": p in result["winners"]}
                         for p in result["ranking"]]}

    # ------------------------------------------------------------- the board

    def board(self, view: dict[str, Any]) -> dict[str, Any] | None:
        board = self.model.board
        if board is None:
            return None
        at: dict[str, list[dict[str, Any]]] = {}
        for item, values in view["items"].items():
            kind = self.model.kinds[self.model.item_kind[item]]
            for var, value in values.items():
                if kind.vars[var].type == board.nodes and isinstance(value, str):
                    owner = self.model.item_data[item].get("owner")
                    at.setdefault(value, []).append({"text": self.display.piece(item),
                                                     "owner": owner if isinstance(owner, int) else None})
        blocked = set(view["blocked"])
        nodes = []
        for node, (x, y) in self.positions.items():
            facts = [self.display.value(v) for k, v in view["items"].get(node, {}).items() if not self.hidden(k)]
            nodes.append({"id": node, "name": self.display.item(node), "x": x, "y": y,
                          "facts": [f for f in facts if f != "-"], "pieces": at.get(node, [])})
        edges = [{"a": a, "b": b, "blocked": edge_key(a, b) in blocked} for a, b in self.model.edges]
        return {"nodes": nodes, "edges": edges, "aspect": self.aspect}

    def _board_positions(self) -> tuple[dict[str, tuple[float, float]], float]:
        """Where each space sits, scaled to 0..1 on each axis, and the board's height for a width of 1.

        From the layout hint (its rows spread out, since text cells are wide and
        flat), a grid of fields, or springs.
        """
        board = self.model.board
        if board is None:
            return {}, 0.0
        nodes = self.model.items_of(board.nodes)
        layout = self._layout_positions(nodes)
        if layout is not None:
            rows = len({y for _, y in layout.values()})
            return _normalised(layout), min(0.9, max(0.3, 0.12 * (rows + 1)))
        placed = self._grid_positions(nodes) or self._spring_positions(nodes)
        xs = [x for x, _ in placed.values()]
        ys = [y for _, y in placed.values()]
        aspect = (max(ys) - min(ys)) / ((max(xs) - min(xs)) or 1.0)
        return _normalised(placed), min(1.0, max(0.3, aspect))

    def _layout_positions(self, nodes: list[str]) -> dict[str, tuple[float, float]] | None:
        if not self.hints.board:
            return None
        placed: dict[str, tuple[float, float]] = {}
        for row, line in enumerate(self.hints.board.strip("\n").splitlines()):
            for match in _LAYOUT_CELL.finditer(line):
                # A text cell is about twice as tall as it is wide.
                placed[match.group(1)] = ((match.start() + match.end()) / 2, row * 2.0)
        missing = [n for n in nodes if n not in placed]
        for index, node in enumerate(missing):  # spaces the layout leaves out go in a line below it
            placed[node] = (index * 8.0, (len(self.hints.board.splitlines()) + 1) * 2.0)
        return placed

    def _grid_positions(self, nodes: list[str]) -> dict[str, tuple[float, float]] | None:
        fields = self.model.kinds[self.model.board.nodes].fields if self.model.board else {}
        for across, down in _GRID_FIELDS:
            if fields.get(across) == "int" and fields.get(down) == "int":
                data = self.model.item_data
                return {n: (float(data[n][across]), float(data[n][down])) for n in nodes}
        return None

    def _spring_positions(self, nodes: list[str]) -> dict[str, tuple[float, float]]:
        """A small deterministic force layout: neighbours pull together, all spaces push apart."""
        count = len(nodes)
        pos = {n: (math.cos(2 * math.pi * i / max(count, 1)), math.sin(2 * math.pi * i / max(count, 1)))
               for i, n in enumerate(nodes)}
        if count <= 2 or count > 200:
            return pos
        ideal = 2.0 / math.sqrt(count)
        step = 0.1
        for _ in range(_SPRING_ROUNDS):
            push = {n: [0.0, 0.0] for n in nodes}
            for i, a in enumerate(nodes):
                ax, ay = pos[a]
                for b in nodes[i + 1:]:
                    dx, dy = ax - pos[b][0], ay - pos[b][1]
                    dist = max(math.hypot(dx, dy), 1e-3)
                    force = ideal * ideal / dist
                    push[a][0] += dx / dist * force
                    push[a][1] += dy / dist * force
                    push[b][0] -= dx / dist * force
                    push[b][1] -= dy / dist * force
            for a, b in self.model.edges:
                dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
                dist = max(math.hypot(dx, dy), 1e-3)
                force = dist * dist / ideal
                push[a][0] -= dx / dist * force
                push[a][1] -= dy / dist * force
                push[b][0] += dx / dist * force
                push[b][1] += dy / dist * force
            for n in nodes:
                fx, fy = push[n]
                length = max(math.hypot(fx, fy), 1e-9)
                move = min(length, step)
                pos[n] = (pos[n][0] + fx / length * move, pos[n][1] + fy / length * move)
            step *= 0.97
        return pos


def _normalised(placed: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Positions scaled into 0..1 on each axis (0.5 where an axis does not vary)."""
    if not placed:
        return {}
    xs = [x for x, _ in placed.values()]
    ys = [y for _, y in placed.values()]
    x_span, y_span = max(xs) - min(xs), max(ys) - min(ys)
    return {n: (round((x - min(xs)) / x_span, 4) if x_span else 0.5,
                round((y - min(ys)) / y_span, 4) if y_span else 0.5) for n, (x, y) in placed.items()}
