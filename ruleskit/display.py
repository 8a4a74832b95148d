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

from .digits import plain_digits
from .errors import PackError, did_you_mean
from .safetext import clean

if TYPE_CHECKING:
    from .game import Game
    from .runtime.state import State

HINT_KEYS = ("title", "players", "symbols", "labels", "hide", "board")
_CELL = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# Values the compact layout leaves out: empty zones and values.
EMPTY = ("-", "0 hidden")


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
        """The hints of `game`, checked; a mistake is an error at the key it is about, for `play`, `serve` and
        `replay --show` as for `check` (they named the pack alone)."""
        try:
            return cls._checked(game)
        except PackError as exc:
            raw = game.source.defs.get(("display", ""))
            if raw is not None and exc.file is None:
                key = _key_named(exc.message)
                line = raw.doc.line_of(raw.keypath + (key,)) if key else None
                exc.file, exc.line = raw.source.file, line or raw.source.line
            raise

    @classmethod
    def _checked(cls, game: Game) -> DisplayHints:
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
        for name in hints.players:
            if not isinstance(name, str):
                raise PackError(f"{where}: players should list names, not {name!r}")
        known = _known_names(game)
        for table in ("symbols", "labels"):
            for name in getattr(hints, table):
                if name not in known:
                    raise PackError(f"{where}: {table} names unknown '{name}'", hint=did_you_mean(name, known))
        for name in hints.hide:
            if not isinstance(name, str):
                raise PackError(f"{where}: hide should list names, not {name!r}")
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


def _key_named(message: str) -> str | None:
    """The hint key an error about `[display]` is about ("symbols names unknown 'x'" is about symbols)."""
    for key in ("symbols", "labels", "hide", "board", "players", "title"):
        if f": {key} " in message or f"'{key}'" in message or f": {key}." in message:
            return key
    return None


def _known_names(game: Game) -> set[str]:
    model = game.model
    names = set(model.kinds) | set(model.item_kind) | set(model.game_vars) | set(model.player_vars) | set(model.zones)
    for kind in model.kinds.values():
        names |= set(kind.vars)
    return names


class Display:
    """Renders views of one game's states.

    Every string this class returns is cleaned of control characters and escape sequences
    (`safetext.clean`), and every renderable shows pack text literally, never as markup.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.model = game.model
        self.hints = DisplayHints.of(game)

    # ------------------------------------------------------------- names

    def player_name(self, p: int) -> str:
        if 0 <= p < len(self.hints.players):
            return clean(f"{self.hints.players[p]} (P{p + 1})")
        return f"Player {p + 1}"

    def label(self, name: str) -> str:
        return clean(self.hints.labels.get(name) or name.replace("_", " "))

    def item(self, item: Any) -> str:
        if isinstance(item, dict) and "shows" in item:  # an item shown by its face only (runtime.faces)
            return self.value(item["shows"])
        data = self.model.item_data.get(item)
        if data is None:
            return clean(item)
        symbol = self.hints.symbols.get(item) or self.hints.symbols.get(self.model.item_kind[item], "")
        name = str(data["name"])
        if data.get("owner") is not None and name == item:
            name = f"{self.label(self.model.item_kind[item])} {int(data['owner']) + 1}"
        return clean(f"{symbol} {name}" if symbol else name)

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
        return clean(value)

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

    def stage_label(self, stage: str) -> str:
        definition = self.game.stages.get(stage)
        return clean(definition.label) if definition is not None and definition.label else self.label(stage)

    # ------------------------------------------------------------- the whole view

    def render(self, state: State, viewer: int, compact: bool = False, width: int = 80) -> RenderableType:
        """The table as `viewer` sees it: bordered tables, or (compact) a few wrapped lines per section."""
        view = state.view(viewer)
        if compact:
            return self.render_compact(state, view, viewer, width)
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
        title = clean(self.hints.title or self.game.name)
        stage = self.game.stages.get(flow["stage"])
        text = Text(f"{title}: turn {flow['turn']}, round {flow['round']}, {self.label(flow['phase'])}",
                    style="bold")
        if stage is not None and stage.label:
            text.append(f", {clean(stage.label)}", style="bold")
        if not state.is_terminal:
            deciders = ", ".join(self.player_name(p) for p in state.players_to_decide())
            text.append(f" — {deciders} to decide")
        return text

    def _hidden(self, name: str) -> bool:
        return name in self.hints.hide

    def game_rows(self, view: dict[str, Any]) -> list[tuple[str, str]]:
        rows = []
        for name, value in view["vars"].items():
            if not self._hidden(name):
                rows.append((self.label(name), self.value(value, self.model.game_vars[name].type == "player")))
        for key, content in view["zones"].items():
            name, _, owner = key.partition("@")
            if plain_digits(owner) or self._hidden(name):
                continue  # players' zones are in the players' table
            label = self.label(name) if not owner else f"{self.item(owner)}: {self.label(name)}"
            rows.append((label, self.zone(name, content)))
        return rows

    def game_table(self, view: dict[str, Any]) -> Table | None:
        return _pairs_table("Game", "what", "value", self.game_rows(view))

    def player_columns(self) -> list[tuple[str, str]]:
        """(kind of column, name) of each column of the players' table after the name."""
        model = self.model
        columns = [("var", n) for n in model.player_vars if not self._hidden(n)]
        columns += [("zone", n) for n, z in model.zones.items() if z.owner == "player" and not self._hidden(n)]
        columns += [("item", f"{kind}.{var}") for kind, var in self._owned_item_vars()]
        return columns

    def column_label(self, column: tuple[str, str]) -> str:
        what, name = column
        if what == "item":
            kind, _, var = name.partition(".")
            return f"{self.label(kind)} {self.label(var)}"
        return self.label(name)

    def player_cells(self, view: dict[str, Any], p: int) -> list[str]:
        model = self.model
        values = view["player_vars"][p]
        cells = []
        for what, name in self.player_columns():
            if what == "var":
                cells.append(self.value(values[name], model.player_vars[name].type == "player")
                             if name in values else "?")
            elif what == "zone":
                cells.append(self.zone(name, view["zones"][f"{name}@{p}"]))
            else:
                kind, _, var = name.partition(".")
                shown = view["items"].get(f"{kind}_{p}", {})
                cells.append(self.value(shown[var]) if var in shown else "?")
        return cells

    def players_table(self, view: dict[str, Any], viewer: int) -> Table:
        model = self.model
        table = Table(title="Players", title_justify="left")
        table.add_column("player", style="bold", no_wrap=True)
        for column in self.player_columns():
            right = column[0] == "var" and model.player_vars[column[1]].type == "int"
            table.add_column(Text(self.column_label(column)), justify="right" if right else "left")
        for p in range(view["players"]):
            name = ("▶ " if p == viewer else "") + self.player_name(p)
            table.add_row(*(Text(cell) for cell in [name, *self.player_cells(view, p)]))
        return table

    def _owned_item_vars(self) -> list[tuple[str, str]]:
        return [(kind_name, var) for kind_name, kind in self.model.kinds.items() if kind.per_player
                for var in kind.vars if not self._hidden(kind_name) and not self._hidden(var)]

    def item_rows(self, view: dict[str, Any], board_shown: bool = False) -> list[tuple[str, str]]:
        """Items with values to show; a board space's own values are left out when the board shows them."""
        model = self.model
        rows = []
        for item, values in view["items"].items():
            kind = model.item_kind[item]
            if model.kinds[kind].per_player and model.item_data[item].get("owner") is not None:
                continue
            if self._hidden(kind) or self._hidden(item):
                continue
            if board_shown and model.board is not None and kind == model.board.nodes:
                continue
            shown = ", ".join(f"{self.label(k)} {self.value(v)}" for k, v in values.items() if not self._hidden(k))
            if shown:
                rows.append((self.item(item), shown))
        return rows

    def items_table(self, view: dict[str, Any]) -> Table | None:
        return _pairs_table("Pieces", "piece", "state", self.item_rows(view, board_shown=bool(self.hints.board)))

    # ------------------------------------------------------------- compact layout

    def render_compact(self, state: State, view: dict[str, Any], viewer: int, width: int) -> RenderableType:
        """A few wrapped lines per section, for small terminals (80x24)."""
        parts: list[RenderableType] = [self.header(state, view)]
        board = self.board_lines(view, width)
        if board is not None:
            parts.append(board)
        rows = [(name, value) for name, value in self.game_rows(view) if value not in EMPTY]
        if rows:
            parts.append(_flow_pairs("Game", rows))
        columns = [self.column_label(c) for c in self.player_columns()]
        for p in range(view["players"]):
            line = Text("▶ " if p == viewer else "  ", style="bold")
            line.append(self.player_name(p), style="bold")
            for label, cell in zip(columns, self.player_cells(view, p), strict=True):
                if cell in EMPTY:
                    continue
                line.append(f" · {label} ", style="dim")
                line.append(cell)
            parts.append(line)
        items = self.item_rows(view, board_shown=True)
        if items:
            parts.append(_flow_pairs("Pieces", items))
        return Group(*parts)

    def board_lines(self, view: dict[str, Any], width: int) -> RenderableType | None:
        """The board's layout when it fits the width, else one wrapped line of the spaces that hold something."""
        board = self.model.board
        if board is None:
            return None
        if self.hints.board:
            laid_out = self.board(view)
            body = laid_out.renderable if isinstance(laid_out, Panel) else None
            # A layout with nothing in it (blank lines) is no layout: the spaces are listed instead.
            if isinstance(body, Text) and body.plain.strip() \
                    and max(len(line) for line in body.plain.splitlines()) <= width - 4:
                return laid_out
        at = self.pieces_at(view)
        line = Text("Board: ", style="bold")
        shown = []
        for node in self.model.items_of(board.nodes):
            facts = [self.value(v) for k, v in view["items"].get(node, {}).items() if not self._hidden(k)]
            if node in at or facts:
                cell = self.item(node) + (f" ({', '.join(facts)})" if facts else "")
                shown.append((cell, " ".join(at.get(node, []))))
        for number, (cell, pieces) in enumerate(shown):
            line.append((" · " if number else "") + cell)
            if pieces:
                line.append(f" [{pieces}]", style="bold")
        blocked = ["–".join(self.item(n) for n in edge.split("|")) for edge in view["blocked"]]
        if blocked:
            line.append("  blocked: " + ", ".join(blocked), style="red")
        return line

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
            return clean(symbol + (str(owner + 1) if owner is not None else ""))
        if owner is not None:
            return f"P{owner + 1}"
        return clean(data["name"])

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

            body = Text(_CELL.sub(cell, clean(self.hints.board, newlines=True).strip("\n")))
            if blocked:
                body.append("\nblocked: " + ", ".join(blocked), style="red")
            return Panel(body, title="Board", title_align="left", expand=False)
        table = Table(title="Board", title_justify="left")
        table.add_column("space", style="bold")
        table.add_column("next to")
        table.add_column("pieces")
        for node in self.model.items_of(board.nodes):
            table.add_row(Text(self.item(node)),
                          Text(", ".join(self.item(n) for n in self.model.adjacency.get(node, []))),
                          Text(" ".join(at.get(node, []))))
        if blocked:
            table.caption = Text("blocked: " + ", ".join(blocked))
        return table

    # ------------------------------------------------------------- results

    def result(self, state: State) -> Table:
        result = state.result
        assert result is not None
        table = Table(title=Text(f"Game over: {clean(result['reason'])}", style="bold"), title_justify="left")
        table.add_column("place", justify="right")
        table.add_column("player", style="bold", no_wrap=True)
        table.add_column("score", justify="right")
        for p in result["ranking"]:
            table.add_row(str(result["places"][p]), Text(self.player_name(p)), Text(clean(result["scores"][p])))
        return table


def _flow_pairs(title: str, rows: list[tuple[str, str]]) -> Text:
    """`title: name value · name value ...` as one wrapped paragraph."""
    line = Text(f"{title}: ", style="bold")
    for number, (name, value) in enumerate(rows):
        line.append((" · " if number else "") + name + " ", style="dim")
        line.append(value)
    return line


def _pairs_table(title: str, left: str, right: str, rows: list[tuple[str, str]]) -> Table | None:
    """A headerless two-column table of names and values, or None when there is nothing to show."""
    if not rows:
        return None
    table = Table(title=title, title_justify="left", show_header=False)
    table.add_column(left, style="bold")
    table.add_column(right)
    for left_cell, right_cell in rows:
        table.add_row(Text(left_cell), Text(right_cell))
    return table
