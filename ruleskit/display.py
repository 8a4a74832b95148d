"""Showing a state to one player in the terminal, from the model and the pack's display hints.

Everything shown comes from `state.view(player)`, so hidden information stays
hidden. Without hints a pack is still shown in full: game counters and zones,
a row per player, items with changing values, and the board as a list of
spaces. The optional `[display]` table (see docs/DISPLAY.md) adds a title,
seat names, symbols, labels, hidden entries and a board layout.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import attrs
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .errors import PackError, did_you_mean

if TYPE_CHECKING:
    from .game import Game
    from .runtime.state import State

HINT_KEYS = ("title", "players", "symbols", "labels", "hide", "board")
_CELL = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@attrs.define
class DisplayHints:
    """The pack's `[display]` table, checked."""

    title: str = ""
    players: list[str] = attrs.Factory(list)
    symbols: dict[str, str] = attrs.Factory(dict)
    labels: dict[str, str] = attrs.Factory(dict)
    hide: list[str] = attrs.Factory(list)
    board: str = ""

    @classmethod
    def of(cls, game: Game) -> DisplayHints:
        raw = game.display or {}
        where = "[display] of pack " + game.name
        for key in raw:
            if key not in HINT_KEYS:
                raise PackError(f"{where}: unknown key '{key}'", hint=did_you_mean(key, HINT_KEYS)
                                or "known keys: " + ", ".join(HINT_KEYS))
        hints = cls()
        for key, kind in (("title", str), ("board", str), ("players", list), ("hide", list),
                          ("symbols", dict), ("labels", dict)):
            if key in raw:
                if not isinstance(raw[key], kind):
                    raise PackError(f"{where}: '{key}' should be a {_KIND_NAMES[kind]}")
                setattr(hints, key, raw[key])
        for key in ("symbols", "labels"):
            for name, value in getattr(hints, key).items():
                if not isinstance(value, str):
                    raise PackError(f"{where}: {key}.{name} should be a string, not {value!r}")
        known = _known_names(game)
        for table in ("symbols", "labels"):
            for name in getattr(hints, table):
                if name not in known:
                    raise PackError(f"{where}: {table} names unknown '{name}'", hint=did_you_mean(name, known))
        for name in hints.hide:
            if name not in known:
                raise PackError(f"{where}: hide names unknown '{name}'", hint=did_you_mean(str(name), known))
        if hints.board:
            nodes = set(game.model.items_of(game.model.board.nodes)) if game.model.board else set()
            for cell in _CELL.findall(hints.board):
                if cell not in nodes:
                    raise PackError(f"{where}: board layout names '{{{cell}}}', which is not a board space",
                                    hint=did_you_mean(cell, nodes))
        return hints


_KIND_NAMES = {str: "string", list: "list", dict: "table"}


def _known_names(game: Game) -> set[str]:
    model = game.model
    names = set(model.kinds) | set(model.item_kind) | set(model.game_vars) | set(model.player_vars) | set(model.zones)
    for kind in model.kinds.values():
        names |= set(kind.vars)
    return names


class Display:
    """Renders views of one game's states."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.model = game.model
        self.hints = DisplayHints.of(game)

    # ------------------------------------------------------------- names

    def player_name(self, p: int) -> str:
        if p < len(self.hints.players):
            return f"{self.hints.players[p]} (P{p + 1})"
        return f"Player {p + 1}"

    def label(self, name: str) -> str:
        return self.hints.labels.get(name) or name.replace("_", " ")

    def item(self, item: str) -> str:
        data = self.model.item_data.get(item)
        if data is None:
            return str(item)
        symbol = self.hints.symbols.get(item) or self.hints.symbols.get(self.model.item_kind[item], "")
        name = str(data["name"])
        if data.get("owner") is not None and name == item:
            name = f"{self.label(self.model.item_kind[item])} {int(data['owner']) + 1}"
        return f"{symbol} {name}" if symbol else name

    def value(self, value: Any, player_type: bool = False) -> str:
        if value is None:
            return "-"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int):
            return self.player_name(value) if player_type else str(value)
        if isinstance(value, str):
            return self.item(value)
        if isinstance(value, list):
            return ", ".join(self.value(v, player_type) for v in value) if value else "-"
        return str(value)

    def zone(self, name: str, content: Any) -> str:
        if isinstance(content, dict) and content.get("hidden") is True:
            if content.get("top") is not None:
                return f"{self.item(content['top'])} on top, {content['count']} in all"
            return f"{content['count']} hidden"
        zone = self.model.zones[name]
        if zone.type == "pool":
            if zone.unlimited:
                return "unlimited"
            parts = [f"{self.item(item)}×{count}" for item, count in content.items() if count]
            return ", ".join(parts) if parts else "-"
        if zone.type == "row":
            return " | ".join(self.item(i) if i is not None else "·" for i in content)
        return ", ".join(self.item(i) for i in content) if content else "-"

    # ------------------------------------------------------------- the whole view

    def render(self, state: State, viewer: int) -> RenderableType:
        view = state.view(viewer)
        parts: list[RenderableType] = [self.header(state, view)]
        board = self.board(view)
        if board is not None:
            parts.append(board)
        game_table = self.game_table(view)
        if game_table is not None:
            parts.append(game_table)
        parts.append(self.players_table(view, viewer))
        items = self.items_table(view)
        if items is not None:
            parts.append(items)
        return Group(*parts)

    def header(self, state: State, view: dict[str, Any]) -> Text:
        flow = view["flow"]
        title = self.hints.title or self.game.name
        stage = self.game.stages.get(flow["stage"])
        text = Text(f"{title}: turn {flow['turn']}, round {flow['round']}, {self.label(flow['phase'])}",
                    style="bold")
        if stage is not None:
            text.append(f", {stage.label}", style="bold")
        if not state.is_terminal:
            deciders = ", ".join(self.player_name(p) for p in state.players_to_decide())
            text.append(f" — {deciders} to decide")
        return text

    def _hidden(self, name: str) -> bool:
        return name in self.hints.hide

    def game_table(self, view: dict[str, Any]) -> Table | None:
        rows = []
        for name, value in view["vars"].items():
            if not self._hidden(name):
                rows.append((self.label(name), self.value(value, self.model.game_vars[name].type == "player")))
        for key, content in view["zones"].items():
            name, _, owner = key.partition("@")
            if owner.isdigit() or self._hidden(name):
                continue  # players' zones are in the players' table
            label = self.label(name) if not owner else f"{self.item(owner)}: {self.label(name)}"
            rows.append((label, self.zone(name, content)))
        return _pairs_table("Game", "what", "value", rows)

    def players_table(self, view: dict[str, Any], viewer: int) -> Table:
        model = self.model
        table = Table(title="Players", title_justify="left")
        table.add_column("player", style="bold", no_wrap=True)
        var_names = [n for n in model.player_vars if not self._hidden(n)]
        zone_names = [n for n, z in model.zones.items() if z.owner == "player" and not self._hidden(n)]
        owned = self._owned_item_vars()
        for name in var_names:
            table.add_column(self.label(name), justify="right" if model.player_vars[name].type == "int" else "left")
        for name in zone_names:
            table.add_column(self.label(name))
        for kind, var in owned:
            table.add_column(f"{self.label(kind)} {self.label(var)}")
        for p in range(view["players"]):
            values = view["player_vars"][p]
            row = [("▶ " if p == viewer else "") + self.player_name(p)]
            for name in var_names:
                row.append(self.value(values[name], model.player_vars[name].type == "player")
                           if name in values else "?")
            for name in zone_names:
                row.append(self.zone(name, view["zones"][f"{name}@{p}"]))
            for kind, var in owned:
                item = f"{kind}_{p}"
                shown = view["items"].get(item, {})
                row.append(self.value(shown[var]) if var in shown else "?")
            table.add_row(*row)
        return table

    def _owned_item_vars(self) -> list[tuple[str, str]]:
        return [(kind_name, var) for kind_name, kind in self.model.kinds.items() if kind.per_player
                for var in kind.vars if not self._hidden(kind_name) and not self._hidden(var)]

    def items_table(self, view: dict[str, Any]) -> Table | None:
        model = self.model
        rows = []
        for item, values in view["items"].items():
            kind = model.item_kind[item]
            if model.kinds[kind].per_player and model.item_data[item].get("owner") is not None:
                continue
            if self._hidden(kind) or self._hidden(item):
                continue
            shown = ", ".join(f"{self.label(k)} {self.value(v)}" for k, v in values.items() if not self._hidden(k))
            if shown:
                rows.append((self.item(item), shown))
        return _pairs_table("Pieces", "piece", "state", rows)

    # ------------------------------------------------------------- the board

    def pieces_at(self, view: dict[str, Any]) -> dict[str, list[str]]:
        """Pieces on each board space: items with a var holding that space."""
        model = self.model
        board = model.board
        assert board is not None
        at: dict[str, list[str]] = {}
        for item, values in view["items"].items():
            kind = model.kinds[model.item_kind[item]]
            for var, value in values.items():
                if kind.vars[var].type == board.nodes and isinstance(value, str):
                    at.setdefault(value, []).append(self.piece(item))
        return at

    def piece(self, item: str) -> str:
        data = self.model.item_data[item]
        kind = self.model.item_kind[item]
        symbol = self.hints.symbols.get(item) or self.hints.symbols.get(kind)
        owner = data.get("owner")
        if symbol:
            return symbol + (str(owner + 1) if owner is not None else "")
        if owner is not None:
            return f"P{owner + 1}"
        return str(data["name"])

    def board(self, view: dict[str, Any]) -> RenderableType | None:
        board = self.model.board
        if board is None:
            return None
        at = self.pieces_at(view)
        blocked = ["–".join(self.item(n) for n in edge.split("|")) for edge in view["blocked"]]
        if self.hints.board:
            def cell(match: re.Match[str]) -> str:
                node = match.group(1)
                pieces = at.get(node, [])
                facts = [self.value(v) for k, v in view["items"].get(node, {}).items() if not self._hidden(k)]
                return (self.item(node) + (f" ({', '.join(facts)})" if facts else "")
                        + (f"[{' '.join(pieces)}]" if pieces else ""))

            body = Text(_CELL.sub(cell, self.hints.board.strip("\n")))
            if blocked:
                body.append("\nblocked: " + ", ".join(blocked), style="red")
            return Panel(body, title="Board", title_align="left", expand=False)
        table = Table(title="Board", title_justify="left")
        table.add_column("space", style="bold")
        table.add_column("next to")
        table.add_column("pieces")
        for node in self.model.items_of(board.nodes):
            table.add_row(self.item(node), ", ".join(self.item(n) for n in self.model.adjacency.get(node, [])),
                          " ".join(at.get(node, [])))
        if blocked:
            table.caption = "blocked: " + ", ".join(blocked)
        return table

    # ------------------------------------------------------------- results

    def result(self, state: State) -> Table:
        result = state.result
        assert result is not None
        table = Table(title=f"Game over: {result['reason']}", title_justify="left")
        table.add_column("place", justify="right")
        table.add_column("player", style="bold", no_wrap=True)
        table.add_column("score", justify="right")
        for p in result["ranking"]:
            table.add_row(str(result["places"][p]), self.player_name(p), str(result["scores"][p]))
        return table


def _pairs_table(title: str, left: str, right: str, rows: list[tuple[str, str]]) -> Table | None:
    """A headerless two-column table of names and values, or None when there is nothing to show."""
    if not rows:
        return None
    table = Table(title=title, title_justify="left", show_header=False)
    table.add_column(left, style="bold")
    table.add_column(right)
    for row in rows:
        table.add_row(*row)
    return table
