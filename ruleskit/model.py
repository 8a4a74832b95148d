"""The static model of a loaded pack: kinds, items, vars, zones, board and dice.

Built once from the structured definitions; it validates cross-references
(an item's fields, a zone's kind, an edge's nodes) and answers the questions
the compiler and the runtime ask about names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from .digits import plain_digits
from .errors import PackError, did_you_mean
from .schema import BoardDef, DieDef, KindDef, Source, VarDef, ZoneDef

BASE_TYPES = ("int", "bool", "str", "player", "any")
MAX_SLOTS = 10_000  # slots of a row, faces of a die
MAX_COUNT = 10 ** 12  # start values, bounds, pool counts and die faces
RESERVED = {
    "me", "active", "players", "player_count", "base", "true", "false", "none", "turn_number",
    "round_number", "stage", "phase", "if", "then", "else", "and", "or", "not", "in", "for", "let", "set",
}


def located(source: Source | None, message: str, hint: str | None = None) -> PackError:
    if source is None:
        return PackError(message, hint=hint)
    return PackError(message, file=source.file, line=source.line, hint=hint)


def _writes(doc: Any, keypath: tuple[str, ...]) -> bool:
    size = len(keypath)
    return keypath in doc.lines or any(path[:size] == keypath for path in doc.lines)


def written_at(source: Source, keys: tuple[str, ...]) -> Source:
    """The table of an updated definition that writes `keys`: the update's own when it does, else the newest
    table it was merged over that does (an error in a key the update left as it was is at the base's line)."""
    if not source.layers or not keys or source.doc is None or _writes(source.doc, source.keypath + keys):
        return source
    for doc, keypath in reversed(source.layers):
        if _writes(doc, keypath + keys):
            return Source(doc.path, doc.line_of(keypath), source.pack, doc, keypath)
    return source


def at_key(source: Source | None, *keys: str) -> Source | None:
    """`source` narrowed to the line of one of its keys (`start` of a zone), where that key is written: a
    mistake in a key is reported at its own line, not at its table's header several lines above."""
    if source is None or source.doc is None or not keys:
        return source
    source = written_at(source, keys)
    line = source.doc.line_of(source.keypath + keys)
    return source if line is None else attrs.evolve(source, line=line, keypath=source.keypath + keys)


@attrs.define
class ZoneRef:
    """A zone as a value: its name and its owner (a player's seat or an item's id), if any."""

    name: str
    owner: int | str | None = None
    # The zone's key in the game data, made once: zones are read far more often than they are named.
    key: str = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self.key = self.name if self.owner is None else f"{self.name}@{self.owner}"


@attrs.define
class Model:
    name: str
    version: str
    min_players: int
    max_players: int
    kinds: dict[str, KindDef]
    game_vars: dict[str, VarDef]
    player_vars: dict[str, VarDef]
    zones: dict[str, ZoneDef]
    dice: dict[str, DieDef]
    board: BoardDef | None
    item_kind: dict[str, str] = attrs.Factory(dict)
    item_data: dict[str, dict[str, Any]] = attrs.Factory(dict)
    adjacency: dict[str, list[str]] = attrs.Factory(dict)
    edges: list[tuple[str, str]] = attrs.Factory(list)
    _sizes_cache: dict[str, dict[str, int]] = attrs.field(factory=dict, init=False, eq=False, repr=False)
    _items_cache: dict[tuple[str, int | None], list[str]] = attrs.field(factory=dict, init=False, eq=False,
                                                                         repr=False)

    # ------------------------------------------------------------- building

    @classmethod
    def build(cls, name: str, version: str, min_players: int, max_players: int, kinds: dict[str, KindDef],
              variables: dict[str, VarDef], zones: dict[str, ZoneDef], dice: dict[str, DieDef],
              board: BoardDef | None) -> Model:
        game_vars = {k: v for k, v in variables.items() if v.owner in ("game", "turn")}
        player_vars = {k: v for k, v in variables.items() if v.owner == "player"}
        model = cls(name, version, min_players, max_players, kinds, game_vars, player_vars, zones, dice, board)
        model._index_items()
        model._check_types()
        model._check_vars()
        model._check_zones()
        model._check_dice()
        model._build_board()
        return model

    def _index_items(self) -> None:
        for kind_name, kind in self.kinds.items():
            if kind_name in RESERVED or kind_name in BASE_TYPES:
                raise located(kind.source, f"'{kind_name}' is a reserved word and cannot name a kind")
            ids = list(kind.items)
            if kind.per_player:
                ids = [f"{kind_name}_{p}" for p in range(self.max_players)] + ids
            for item_id in ids:
                fields = kind.items.get(item_id, {})
                source = kind.item_lines.get(item_id, kind.source)
                if item_id in self.item_kind:
                    raise located(source, f"item id '{item_id}' of kind '{kind_name}' is already used by kind "
                                          f"'{self.item_kind[item_id]}'", "item ids are unique across a pack")
                if item_id in RESERVED:
                    raise located(source, f"'{item_id}' is a reserved word and cannot name an item")
                for field in fields:
                    if field not in kind.fields and field != "name":
                        raise located(at_key(source, field), f"item '{item_id}' sets unknown field '{field}' of kind '{kind_name}'",
                                      did_you_mean(field, kind.fields))
                if not isinstance(fields.get("name", item_id), str):
                    raise located(source, f"item '{item_id}' has a name that is not text: {fields['name']!r}",
                                  "write name = \"...\"")
                data: dict[str, Any] = {"id": item_id, "name": fields.get("name", item_id)}
                for field, ftype in kind.fields.items():
                    if field in fields:
                        data[field] = fields[field]
                    else:
                        data[field] = default_of(ftype)
                if kind.per_player and item_id.startswith(f"{kind_name}_") and item_id not in kind.items:
                    data["owner"] = int(item_id.rsplit("_", 1)[1])
                else:
                    data.setdefault("owner", None)
                self.item_kind[item_id] = kind_name
                self.item_data[item_id] = data

    def check_type(self, type_name: str, source: Source | None, what: str) -> None:
        inner = type_name[5:-1] if type_name.startswith("list[") and type_name.endswith("]") else type_name
        if inner == "list":
            return
        if inner not in BASE_TYPES and inner not in self.kinds:
            raise located(source, f"{what} has unknown type '{type_name}'",
                          did_you_mean(inner, list(BASE_TYPES) + list(self.kinds)))

    def _check_types(self) -> None:
        for kind_name, kind in self.kinds.items():
            for field, ftype in kind.fields.items():
                self.check_type(ftype, at_key(kind.source, "fields", field), f"field '{kind_name}.{field}'")
                for item_id, values in kind.items.items():
                    if field in values:
                        self._check_value(values[field], ftype, at_key(kind.item_lines.get(item_id, kind.source), field),
                                          f"field '{field}' of item '{item_id}'")
            for var_name, var in kind.vars.items():
                self.check_type(var.type, var.source or kind.source, f"var '{kind_name}.{var_name}'")
        for var_name, var in list(self.game_vars.items()) + list(self.player_vars.items()):
            self.check_type(var.type, var.source, f"var '{var_name}'")

    def _check_value(self, value: Any, ftype: str, source: Source | None, what: str) -> None:
        if ftype.startswith("list"):
            if not isinstance(value, list):
                raise located(source, f"{what} should be a list, not {value!r}")
            inner = ftype[5:-1] if ftype.startswith("list[") else "any"
            for element in value:
                self._check_value(element, inner, source, what)
            return
        if ftype == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise located(source, f"{what} should be an integer, not {value!r}")
        if ftype == "bool" and not isinstance(value, bool):
            raise located(source, f"{what} should be true or false, not {value!r}")
        if ftype == "str" and not isinstance(value, str):
            raise located(source, f"{what} should be a string, not {value!r}")
        if ftype in self.kinds and value is not None:
            if not isinstance(value, str) or value not in self.item_kind or self.item_kind[value] != ftype:
                raise located(source, f"{what} names '{value}', which is not an item of kind '{ftype}'",
                              did_you_mean(str(value), self.items_of(ftype)))

    def _check_vars(self) -> None:
        """Bounds in order and every start value of its var's type and within its bounds."""
        everything = [(name, var, var.source) for name, var in list(self.game_vars.items()) + list(self.player_vars.items())]
        for kind_name, kind in self.kinds.items():
            everything += [(f"{kind_name}.{name}", var, var.source or kind.source) for name, var in kind.vars.items()]
        for name, var, source in everything:
            for bound in ("min", "max"):
                value = getattr(var, bound)
                if value is not None and abs(value) > MAX_COUNT:
                    raise located(source, f"var '{name}': {bound} {value} is out of range (beyond +-{MAX_COUNT})")
            if var.min is not None and var.max is not None and var.min > var.max:
                raise located(source, f"var '{name}': min {var.min} is greater than max {var.max}")
            if var.start is None:
                continue
            self._check_value(var.start, var.type, source, f"start of var '{name}'")
            if var.type == "int" and isinstance(var.start, int):
                if abs(var.start) > MAX_COUNT:
                    raise located(source, f"var '{name}': start {var.start} is out of range (beyond +-{MAX_COUNT})")
                if var.min is not None and var.start < var.min or var.max is not None and var.start > var.max:
                    raise located(source, f"var '{name}': start {var.start} is outside min..max "
                                          f"({var.min}..{var.max})")
            if var.type == "player" and isinstance(var.start, int) and not 0 <= var.start < self.min_players:
                raise located(source, f"var '{name}': start {var.start} is not a seat of every game "
                                      f"(0..{self.min_players - 1})")

    def _check_dice(self) -> None:
        for name, die in self.dice.items():
            if not die.faces:
                raise located(at_key(die.source, "faces"), f"die '{name}' has no faces")
            if len(die.faces) > MAX_SLOTS:
                raise located(at_key(die.source, "faces"), f"die '{name}' has more than {MAX_SLOTS} faces")
            for face in die.faces:
                if abs(face) > MAX_COUNT:
                    raise located(at_key(die.source, "faces"), f"die '{name}': face {face} is out of range (beyond +-{MAX_COUNT})")

    def _check_zones(self) -> None:
        for zone_name, zone in self.zones.items():
            if not 0 <= zone.slots <= MAX_SLOTS:
                raise located(at_key(zone.source, "slots"), f"zone '{zone_name}': slots must be within 0..{MAX_SLOTS}, not {zone.slots}")
            if zone.type == "row" and isinstance(zone.start, list) and len(zone.start) > zone.slots:
                raise located(at_key(zone.source, "start"), f"row zone '{zone_name}' starts with {len(zone.start)} items in "
                                           f"{zone.slots} slots")
            if zone.start is not None and not isinstance(zone.start, dict | list):
                raise located(at_key(zone.source, "start"), f"zone '{zone_name}': start should be a list of items (or, for a pool, "
                                           f"a table of counts), not {zone.start!r}")
            if isinstance(zone.start, dict) and zone.type != "pool":
                raise located(at_key(zone.source, "start"), f"zone '{zone_name}' is a {zone.type}: start with a list of items")
            if isinstance(zone.capacity, int) and not isinstance(zone.capacity, bool) and zone.capacity < 0:
                raise located(at_key(zone.source, "capacity"), f"zone '{zone_name}': capacity {zone.capacity} is negative")
            if type(zone.capacity) is int and not zone.unlimited:
                self._check_start_fits(zone_name, zone, zone.capacity)
            if zone.owner not in ("game", "player") and zone.owner not in self.kinds:
                raise located(at_key(zone.source, "owner"), f"zone '{zone_name}' has unknown owner '{zone.owner}' "
                                           "(\"game\", \"player\" or a kind)",
                              did_you_mean(zone.owner, ["game", "player"] + list(self.kinds)))
            if zone.of and zone.of not in self.kinds:
                raise located(at_key(zone.source, "of"), f"zone '{zone_name}' holds unknown kind '{zone.of}'",
                              did_you_mean(zone.of, self.kinds))
            if zone.type == "row" and zone.slots <= 0:
                raise located(at_key(zone.source, "slots"), f"row zone '{zone_name}' needs slots > 0")
            if zone.visible == "top" and zone.type != "stack":
                raise located(at_key(zone.source, "visible"), f"zone '{zone_name}' is a {zone.type}: only a stack can show its top")
            if zone.shows is not None and (zone.type == "pool" or not zone.of):
                raise located(at_key(zone.source, "shows"), f"zone '{zone_name}': `shows` needs a stack or row of one kind (`of`)")
            if zone.size is not None and zone.of and zone.size not in self.kinds[zone.of].fields:
                raise located(at_key(zone.source, "size"), f"zone '{zone_name}' sizes items by unknown field '{zone.size}'",
                              did_you_mean(zone.size, self.kinds[zone.of].fields))
            if isinstance(zone.start, dict):
                for item, count in zone.start.items():
                    self._check_member(zone_name, zone, item)
                    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_COUNT:
                        raise located(at_key(zone.source, "start", item), f"zone '{zone_name}' starts with a bad count for '{item}' "
                                                   f"(a number within 0..{MAX_COUNT})")
            elif isinstance(zone.start, list):
                for item in zone.start:
                    self._check_member(zone_name, zone, item)

    def _check_member(self, zone_name: str, zone: ZoneDef, item: Any) -> None:
        if not isinstance(item, str) or item == "":  # a number, a list, a table: no item's id
            raise located(at_key(zone.source, "start"), f"zone '{zone_name}' starts with {item!r}, not an item's id (a string)")
        if item not in self.item_kind or (zone.of and self.item_kind[item] != zone.of):
            raise located(at_key(zone.source, "start"), f"zone '{zone_name}' starts with '{item}', not an item of kind '{zone.of}'",
                          did_you_mean(item, self.items_of(zone.of) if zone.of else self.item_kind))

    def _build_board(self) -> None:
        if self.board is None:
            return
        if self.board.nodes not in self.kinds:
            raise located(at_key(self.board.source, "nodes"), f"board nodes name unknown kind '{self.board.nodes}'",
                          did_you_mean(self.board.nodes, self.kinds))
        nodes = self.items_of(self.board.nodes)
        for node in nodes:
            if "|" in node:  # an edge's key is its two ends joined by "|" (`edge_key`): a|b then c, or a then b|c?
                kind = self.kinds[self.board.nodes]
                raise located(kind.item_lines.get(node, kind.source),
                              f"board node '{node}' has '|' in its id, which joins the two ends of an edge's key",
                              "name board nodes without '|'")
        self.adjacency = {node: [] for node in nodes}
        for edge in self.board.edges:
            if len(edge) != 2:
                raise located(at_key(self.board.source, "edges"), f"an edge joins exactly two nodes, not {edge!r}")
            a, b = edge
            for end in (a, b):
                if end not in self.adjacency:
                    raise located(at_key(self.board.source, "edges"), f"edge {edge!r} names unknown node '{end}'",
                                  did_you_mean(end, nodes))
            if b in self.adjacency[a]:
                raise located(at_key(self.board.source, "edges"), f"edge {edge!r} is listed twice")
            self.adjacency[a].append(b)
            self.adjacency[b].append(a)
            self.edges.append((a, b))

    # ------------------------------------------------------------- queries

    def items_of(self, kind: str, players: int | None = None) -> list[str]:
        """The items of a kind (those of seats below `players`, for a per-player kind), in declared order."""
        known = self._items_cache.get((kind, players))
        if known is None:
            known = [i for i, k in self.item_kind.items() if k == kind]
            # Only a per-player kind's items belong to seats: another kind may have a field named `owner`.
            if players is not None and kind in self.kinds and self.kinds[kind].per_player:
                known = [i for i in known
                         if self.item_data[i]["owner"] is None or self.item_data[i]["owner"] < players]
            self._items_cache[(kind, players)] = known
        return list(known)

    def item_sizes(self, field: str) -> dict[str, int]:
        """The room each item takes in a zone whose `size` is `field` (0 for an item without it), for the items
        whose field is a plain int or missing: any other value is left to whoever reads it (see `zones`)."""
        sizes = self._sizes_cache.get(field)
        if sizes is None:
            values = {i: d.get(field) or 0 for i, d in self.item_data.items()}
            sizes = self._sizes_cache[field] = {i: v for i, v in values.items() if type(v) is int}
        return sizes

    def zone_owner_player(self, key: str) -> int | None:
        """The player who owns the zone with this key: its seat, or the owner of the item it belongs to."""
        name, _, owner = key.partition("@")
        if not owner:
            return None
        zone = self.zones.get(name)
        if zone is not None and zone.owner == "player":
            return int(owner) if plain_digits(owner) else None
        # An item's zone: its owner's, whatever its id is made of (an item may be named "1").
        item_owner = self.item_data.get(owner, {}).get("owner")
        return item_owner if isinstance(item_owner, int) else None

    def room_taken(self, zone: ZoneDef, held: Iterable[tuple[Any, int]]) -> int | None:
        """The places these (item, count) pairs take in `zone`: one a piece, or each piece's size where the zone
        sizes them. None when an item is not one whose size is a plain number: it is refused elsewhere."""
        if zone.size is None:
            return sum(count for _, count in held)
        sizes = self.item_sizes(zone.size)
        total = 0
        for item, count in held:
            size = sizes.get(item) if type(item) is str else None
            if size is None:
                return None
            total += size * count
        return total

    def _check_start_fits(self, zone_name: str, zone: ZoneDef, capacity: int) -> None:
        start = zone.start
        if isinstance(start, list):
            held: list[tuple[Any, int]] = [(item, 1) for item in start if item is not None]
        elif isinstance(start, dict) and all(type(count) is int for count in start.values()):
            held = list(start.items())
        else:
            return  # not yet known to be well formed: its own checks say what is wrong
        taken = self.room_taken(zone, held)
        if taken is None or taken <= capacity:
            return
        if zone.size is None:
            raise located(at_key(zone.source, "start"), f"zone '{zone_name}' starts with {taken} pieces, more than its "
                                       f"capacity of {capacity}")
        raise located(at_key(zone.source, "start"), f"zone '{zone_name}' starts with pieces of total {zone.size} {taken}, more "
                                   f"than its capacity of {capacity}")

    def per_player_kinds(self) -> list[str]:
        return [k for k, d in self.kinds.items() if d.per_player]


def default_of(type_name: str) -> Any:
    if type_name == "int":
        return 0
    if type_name == "bool":
        return False
    if type_name.startswith("list"):
        return []
    return None


def edge_key(a: str, b: str) -> str:
    return f"{a}|{b}" if a <= b else f"{b}|{a}"
