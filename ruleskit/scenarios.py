"""Scenario files: a pack's setup with parts of the state set by hand.

A scenario pins a position for a test, a tutorial or a bug report:

    pack = "my_game"            # a built-in pack's name (a pack folder is named by the caller)
    players = 3
    seed = 7
    setup = ["first"]           # setup decisions by id, in order; "first" takes the first option
    then = ["move:h3"]          # decisions applied after the overrides below

    [vars]                      # game vars
    [players_vars.0]            # player vars of the first player (players count from 0)
    [items.ship_0]              # item vars
    [zones]                     # zone contents; a player's zone is "name@0"
    blocked = [["a", "b"]]      # the blocked edges (replaces them all)
    [flow]                      # active player, stage, turn, round
    [rolls]                     # the next results of each die, before the random stream

Every name is checked against the pack; mistakes are located errors. A
scenario never chooses a pack folder to load: it names a built-in pack, or
the caller passes the pack (`ruleskit.scenario(FILE, PACK)`, `ruleskit play
PACK --scenario FILE`). The finished state is checked as a whole against the
pack, as a save is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .digits import plain_digits
from .errors import IllegalAction, PackError, did_you_mean
from .game import Game, load
from .limits import MAX_INT_DIGITS
from .model import Model
from .resources import builtin_packs
from .runtime.data import copy_data
from .runtime.state import State
from .scenariozones import Note, balance_zones, extra_pieces, held
from .tomlfile import TomlDoc, read_toml
from .validation import InvalidData, check_data, check_deciders_can_act, check_invariants_hold, check_options

TOP_KEYS = {"pack", "players", "seed", "options", "setup", "then", "vars", "players_vars", "items", "zones",
            "blocked", "flow", "rolls", "description", "invariants",
            "expect", "step"}  # a scenario test's expectations (ruleskit/testing/scenario_tests.py); not read here
FLOW_KEYS = {"active", "stage", "turn", "round", "phase"}


def load_scenario(path: str | Path, pack: str | Game | None = None, seed: int | None = None) -> State:
    """Read a scenario file and return the state it describes. `seed` deals the game when the file writes no
    seed of its own (else 0 does)."""
    path = Path(path)
    doc = read_toml(path)
    return build_scenario(doc, path.parent, pack, seed)


def build_scenario(doc: TomlDoc, folder: Path, pack: str | Game | None = None, seed: int | None = None) -> State:
    data = doc.data
    for key in data:
        if key not in TOP_KEYS:
            raise doc.error((key,), f"unknown scenario key '{key}'", did_you_mean(key, TOP_KEYS))
    game = pack if isinstance(pack, Game) else _load_pack(doc, folder, pack)
    players = data.get("players", game.min_players)
    if isinstance(players, dict):
        raise doc.error(("players",), "'players' is the number of players; per-player values go in [players_vars.N]")
    # A game among people (`play`, `serve`) passes a seed nobody can guess: dealt from 0, every game of a
    # scenario that writes no seed held the same hidden hands and deck order, known to anyone with the file.
    seed = data.get("seed", 0 if seed is None else seed)
    if not isinstance(players, int) or isinstance(players, bool):
        raise doc.error(("players",), "'players' must be an integer")
    if not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) >= 10 ** MAX_INT_DIGITS:
        raise doc.error(("seed",), f"'seed' must be an integer of at most {MAX_INT_DIGITS} digits")
    if not game.min_players <= players <= game.max_players:
        raise doc.error(("players",), f"{game.name} is for {game.player_range} players, "
                        f"not {players}")
    options = _table(doc, ("options",))
    try:
        check_options(game, options, players)
    except InvalidData as exc:
        raise doc.error(("options",) + _json_keys(exc.path)[1:2], exc.message, exc.hint) from None
    try:
        state = game.new_game(players=players, seed=seed, options=options or None)
    except PackError as exc:
        raise doc.error(("players",), exc.message, exc.hint) from None
    _play(doc, state, "setup", only_pending=True)
    _auto_finish_setup(state)
    model = game.model
    state.data.setdefault("script", {})
    _set_vars(doc, state, model)
    _set_player_vars(doc, state, model)
    _set_items(doc, state, model)
    before = copy_data(state.data["z"])
    unbalanced = _set_zones(doc, state, model, before)
    _set_blocked(doc, state, model)
    _set_flow(doc, state, game)
    _set_rolls(doc, state, model)
    state.pending = None
    state._legal = None
    state.mark_from_scenario()  # its log could not replay: a log starts from the pack's setup
    try:
        check_data(game, state.data, "$")
    except InvalidData as exc:
        keys = _json_keys(exc.path)
        section = {"v": "vars", "pv": "players_vars", "ev": "items", "z": "zones", "script": "rolls"}.get(keys[0], keys[0]) if keys else ""
        raise doc.error((section,) + keys[1:2], f"the scenario's state does not fit the pack: {exc.message}",
                        exc.hint) from None
    if state.result is None:
        try:  # as a save is refused for it: the engine never stops where the player to decide cannot act
            check_deciders_can_act(game, state.data, "$")
        except InvalidData as exc:
            where = next((key for key in ("flow", "zones", "vars", "players_vars", "items") if key in doc.data), "")
            hint = "set the stage before it, and reach this one by the decisions of 'then'" \
                if exc.path.endswith(".simul") else None  # a round of picks is opened by the engine alone
            raise doc.error((where,) if where else (), f"the scenario's state cannot go on: {exc.message}",
                            hint) from None
    _check_invariants(doc, game, state, before, unbalanced)
    _play(doc, state, "then", only_pending=False)
    return state


def _check_invariants(doc: TomlDoc, game: Game, state: State, before: dict[str, Any],
                      unbalanced: list[Note]) -> None:
    """The position set by hand holds the pack's invariants, as a save must: a test of a rule in a position no
    game reaches tests nothing. The decisions of `then` and of a test's steps start from it, so they need no
    check of their own. Nor does it hold a piece twice, or leave one setup made in no zone, which no game does
    whatever the pack's invariants count (`before`: the zones after setup). `invariants = false` opts out, for a
    position that is partial on purpose."""
    wanted = doc.data.get("invariants", True)
    if not isinstance(wanted, bool):
        raise doc.error(("invariants",), "'invariants' is true or false (false: the position need not hold the "
                        "pack's invariants)")
    if not wanted:
        return
    try:
        check_invariants_hold(game, state.data, None, "$")
    except InvalidData as exc:
        if unbalanced:
            keypath: tuple[str, ...] = ("zones", unbalanced[0].zone)
            hint = "; ".join(note.text for note in unbalanced[:5]) + (f"; and {len(unbalanced) - 5} more" if len(unbalanced) > 5 else "")
            hint = f"the scenario moved pieces it did not balance: {hint}. Write the zones they come from or go to"
        else:
            keypath = next(((key,) for key in ("zones", "items", "players_vars", "vars", "flow") if key in doc.data), ())
            hint = None
        raise doc.error(keypath, f"the scenario's position {exc.detail}", hint or "if the position is partial on "
                        "purpose, write invariants = false at the top of the file") from None
    extra = extra_pieces(game.model, before, state.data["z"])
    if extra:
        item, now, had = extra[0]
        zones = [key for key, content in state.data["z"].items() if held(content, item)]
        zone = next((key for key in doc.data.get("zones", {}) if key in zones), zones[0])
        raise doc.error(("zones", zone), f"the scenario's position holds {now} '{item}' (in "
                        f"{', '.join(repr(key) for key in zones)}), but the game has only {had}: a game moves "
                        "pieces, never copies them", "write each piece in one zone, or invariants = false for a "
                        "position that is partial on purpose")
    lost = [note for note in unbalanced if note.lost]
    if lost:
        # Whatever the pack's invariants count: a game's moves take pieces from one zone to another, and only
        # an unlimited pool takes them out of play (the balancing has sent them there already).
        count = sum(note.lost for note in lost)
        texts = "; ".join(note.text for note in lost[:5]) + (f"; and {len(lost) - 5} more" if len(lost) > 5 else "")
        raise doc.error(("zones", lost[0].zone), f"the scenario's position leaves {count} piece"
                        f"{'' if count == 1 else 's'} setup made in no zone ({texts}): a game moves pieces, never "
                        "loses them", "write the zone they go to, or invariants = false at the top of the file for "
                        "a position that is partial on purpose (a deck or bag written short to fix the draws), "
                        "with a comment saying why")


def _json_keys(path: str) -> tuple[str, ...]:
    """The keys of a JSON path such as `$.z.hand@0[2]` ("z", "hand@0", "2")."""
    return tuple(part for part in path.removeprefix("$").replace("[", ".").replace("]", "").split(".") if part)


def _load_pack(doc: TomlDoc, folder: Path, override: str | None) -> Game:
    if override is not None:
        return load(override)
    ref = doc.data.get("pack")
    if not isinstance(ref, str):
        raise doc.error(("pack",), "a scenario names its pack: pack = \"NAME\" (built-in), or the caller names "
                        "a pack folder")
    builtins = builtin_packs()
    if ref not in builtins:
        raise doc.error(("pack",), f"no pack found at '{ref}': a scenario may only name a built-in pack; name a "
                        "pack folder yourself (ruleskit.scenario(FILE, PACK), ruleskit play PACK --scenario FILE)",
                        did_you_mean(ref, builtins))
    try:
        return load(builtins[ref])
    except PackError as exc:
        if exc.file is None:
            raise doc.error(("pack",), exc.message, exc.hint) from None
        raise


def _table(doc: TomlDoc, keypath: tuple[str, ...]) -> dict[str, Any]:
    value: Any = doc.data
    for key in keypath:
        value = value.get(key, {}) if isinstance(value, dict) else {}
    if not isinstance(value, dict):
        raise doc.error(keypath, f"'{'.'.join(keypath)}' should be a table")
    return value


def read_decision(decision: Any) -> tuple[str, int | None]:
    """A decision of `setup`, `then` or a test's `do`, as the action id and the player taking it: an id, or
    `{ action = "ID", player = N }` for a simultaneous pick. A ValueError says what is wrong with it."""
    if isinstance(decision, str):
        return decision, None
    if isinstance(decision, dict) and set(decision) <= {"action", "player"} and isinstance(decision.get("action"), str):
        player = decision.get("player")
        if player is not None and (type(player) is not int or not 0 <= player < 64):
            raise ValueError("a decision's player is a seat number from 0")
        return decision["action"], player
    raise ValueError(f"a decision is an action id, or {{ action = \"ID\", player = N }}; not {decision!r}")


def _play(doc: TomlDoc, state: State, key: str, only_pending: bool) -> None:
    decisions = doc.data.get(key, [])
    if not isinstance(decisions, list):
        raise doc.error((key,), f"'{key}' should be a list of decision ids")
    for number, decision in enumerate(decisions, start=1):
        try:
            action_id, player = read_decision(decision)
        except ValueError as exc:
            raise doc.error((key,), f"decision {number}: {exc}") from None
        if only_pending and state.pending is None:
            raise doc.error((key,), f"setup decision {number} ('{action_id}') given, but setup asks no more decisions")
        if action_id == "first":
            actions = state.legal_actions(player)
            if not actions:
                raise doc.error((key,), f"decision {number}: nothing to decide")
            state.apply(actions[0], player=player)
            continue
        try:
            state.apply(action_id, player=player)
        except IllegalAction as exc:
            raise doc.error((key,), f"decision {number} ('{action_id}'): {exc.message}") from None


def _auto_finish_setup(state: State) -> None:
    """Remaining setup decisions take their first option."""
    guard = 0
    while state.pending is not None and state.pending["job"]["kind"] == "setup" and guard < 1000:
        state.apply(state.legal_actions()[0])
        guard += 1


def _check_value(doc: TomlDoc, keypath: tuple[str, ...], model: Model, var: Any, value: Any, what: str) -> Any:
    var_type = var.type
    if var_type == "int" or var_type == "player":
        if not isinstance(value, int) or isinstance(value, bool):
            raise doc.error(keypath, f"{what} is a number; got {value!r}")
    elif var_type == "bool":
        if not isinstance(value, bool):
            raise doc.error(keypath, f"{what} is true or false; got {value!r}")
    elif var_type in model.kinds:
        if value == "":
            return None
        if not isinstance(value, str) or value not in model.item_kind or model.item_kind[value] != var_type:
            raise doc.error(keypath, f"{what} must be an item of kind '{var_type}', not {value!r}",
                            did_you_mean(str(value), model.items_of(var_type)))
    elif var_type.startswith("list") and not isinstance(value, list):
        raise doc.error(keypath, f"{what} is a list; got {value!r}")
    if var_type == "int":
        if var.min is not None and value < var.min or var.max is not None and value > var.max:
            raise doc.error(keypath, f"{what} must be within {var.min}..{var.max}; got {value}")
    return value


def _set_vars(doc: TomlDoc, state: State, model: Model) -> None:
    for name, value in _table(doc, ("vars",)).items():
        if name not in model.game_vars:
            raise doc.error(("vars", name), f"unknown game var '{name}'", did_you_mean(name, model.game_vars))
        state.data["v"][name] = _check_value(doc, ("vars", name), model, model.game_vars[name], value, f"'{name}'")


def _set_player_vars(doc: TomlDoc, state: State, model: Model) -> None:
    for index, values in _table(doc, ("players_vars",)).items():
        keypath = ("players_vars", index)
        if not plain_digits(index) or int(index) >= state.players:
            raise doc.error(keypath, f"players_vars.{index}: players count from 0 to {state.players - 1}")
        if not isinstance(values, dict):
            raise doc.error(keypath, f"[players_vars.{index}] should be a table of player vars")
        for name, value in values.items():
            if name not in model.player_vars:
                raise doc.error(keypath + (name,), f"unknown player var '{name}'", did_you_mean(name, model.player_vars))
            checked = _check_value(doc, keypath + (name,), model, model.player_vars[name], value, f"'{name}'")
            state.data["pv"][int(index)][name] = checked


def _set_items(doc: TomlDoc, state: State, model: Model) -> None:
    for item, values in _table(doc, ("items",)).items():
        keypath = ("items", item)
        if item not in state.data["ev"]:
            raise doc.error(keypath, f"no item '{item}' with vars in this game", did_you_mean(item, state.data["ev"]))
        if not isinstance(values, dict):
            raise doc.error(keypath, f"[items.{item}] should be a table of item vars")
        kind = model.kinds[model.item_kind[item]]
        for name, value in values.items():
            if name not in kind.vars:
                raise doc.error(keypath + (name,), f"item '{item}' has no var '{name}'", did_you_mean(name, kind.vars))
            state.data["ev"][item][name] = _check_value(doc, keypath + (name,), model, kind.vars[name], value,
                                                        f"'{item}.{name}'")


def _set_zones(doc: TomlDoc, state: State, model: Model, before: dict[str, Any]) -> list[Note]:
    """Write the scenario's zones over `before`, a copy of what setup left in them, taking their pieces from
    where setup put them (see scenariozones); returns what could not be balanced so."""
    written: dict[str, set[str] | None] = {}
    for key, content in _table(doc, ("zones",)).items():
        keypath = ("zones", key)
        if key not in state.data["z"]:
            raise doc.error(keypath, f"unknown zone '{key}' (a player's zone is written name@seat, an item's name@item)",
                            did_you_mean(key, state.data["z"]))
        zone = model.zones[key.partition("@")[0]]
        current = state.data["z"][key]
        if zone.type == "pool":
            if not isinstance(content, dict):
                raise doc.error(keypath, f"zone '{key}' is a pool: give counts like {{ item = 2 }}")
            for item, count in content.items():
                _check_item(doc, keypath, model, zone.of, item)
                if not isinstance(count, int) or count < 0:
                    raise doc.error(keypath, f"count of '{item}' in '{key}' must be a number >= 0")
                current[item] = count
            written[key] = set(content)  # a pool's other counts are setup's
            continue
        if not isinstance(content, list):
            raise doc.error(keypath, f"zone '{key}' is a {zone.type}: give a list of item ids")
        items = [None if item == "" else item for item in content]
        for item in items:
            if item is None and zone.type != "row":
                raise doc.error(keypath, f"only rows have empty slots (\"\"); '{key}' is a {zone.type}")
            if item is not None:
                _check_item(doc, keypath, model, zone.of, item)
        if zone.type == "row":
            if len(items) > zone.slots:
                raise doc.error(keypath, f"row '{key}' has {zone.slots} slots, not {len(items)}")
            items += [None] * (zone.slots - len(items))
        state.data["z"][key] = items
        written[key] = None
    return balance_zones(model, before, state.data["z"], written)


def _check_item(doc: TomlDoc, keypath: tuple[str, ...], model: Model, kind: str, item: Any) -> None:
    if not isinstance(item, str) or item not in model.item_kind or (kind and model.item_kind[item] != kind):
        raise doc.error(keypath, f"'{item}' is not an item of kind '{kind}'",
                        did_you_mean(str(item), model.items_of(kind) if kind else model.item_kind))


def _set_blocked(doc: TomlDoc, state: State, model: Model) -> None:
    if "blocked" not in doc.data:
        return
    from .model import edge_key

    blocked = doc.data["blocked"]
    keys = []
    for edge in blocked if isinstance(blocked, list) else [None]:
        if not isinstance(edge, list) or len(edge) != 2:
            raise doc.error(("blocked",), "blocked should be a list of [a, b] edges")
        a, b = edge
        if not isinstance(a, str) or not isinstance(b, str) or a not in model.adjacency or b not in model.adjacency[a]:
            raise doc.error(("blocked",), f"there is no edge between '{a}' and '{b}'")
        keys.append(edge_key(a, b))
    state.data["blocked"] = sorted(set(keys))


def _set_flow(doc: TomlDoc, state: State, game: Game) -> None:
    flow = state.data["flow"]
    for key, value in _table(doc, ("flow",)).items():
        keypath = ("flow", key)
        if key not in FLOW_KEYS:
            raise doc.error(keypath, f"unknown flow key '{key}'", did_you_mean(key, FLOW_KEYS))
        if key in ("stage", "phase") and not isinstance(value, str):
            raise doc.error(keypath, f"flow.{key} is a name, not {value!r}")
        if key == "stage" and value not in game.stages:
            raise doc.error(keypath, f"unknown stage '{value}'", did_you_mean(str(value), game.stages))
        if key == "phase" and value not in game.phases:
            raise doc.error(keypath, f"unknown phase '{value}'", did_you_mean(str(value), game.phases))
        if key in ("active", "turn", "round") and (type(value) is not int or value < 0):
            raise doc.error(keypath, f"flow.{key} must be a number >= 0")
        if key == "active" and value >= state.players:
            raise doc.error(keypath, f"flow.active: players count from 0 to {state.players - 1}")
        flow[key] = value
    if "active" in _table(doc, ("flow",)) and state.data["flow"]["active"] in flow["order"]:
        flow["pos"] = flow["order"].index(flow["active"])
    if _table(doc, ("flow",)):
        flow["simul"] = None  # a turn or stage set by hand starts no round of secret picks
    flow["entered"] = False
    flow["end_turn"] = False


def _set_rolls(doc: TomlDoc, state: State, model: Model) -> None:
    script: dict[str, list[int]] = {}
    for die, values in _table(doc, ("rolls",)).items():
        keypath = ("rolls", die)
        if die not in model.dice:
            raise doc.error(keypath, f"unknown die '{die}'", did_you_mean(die, model.dice))
        faces = model.dice[die].faces
        if not isinstance(values, list) or not all(type(v) is int and v in faces for v in values):
            raise doc.error(keypath, f"rolls of '{die}' must be a list of its faces {faces}")
        script[die] = list(values)
    state.data["script"] = script
