"""How much of the listing of legal actions could be reused from an earlier listing: a bound, measured.

    python benchmarks/listing_reuse.py                               # Connect Four, Envoys, Ophir
    python benchmarks/listing_reuse.py --packs ophir:4:3 --json reuse.json

The engine lists each action's legal bindings anew at every decision. Reusing an action's bindings from
an earlier listing would save the time of its rules. This script plays random games (game i has seed i
and takes its choices from `random.Random(i)`) and, at each decision with one player to decide and no
pending choice, lists each action of the stage on its own, timing it, and sorts that time into:

- **same result**: the action's bindings are those of its last listing for the same player in the same
  stage (any earlier decision). No reuse scheme can save more than this share: it is the bound.
- **reusable by names**: what a scheme based on the names the code reads could prove unchanged. The
  action's `when`, parameter lists, `require`s and costs, with every rule, procedure and `modify` hook
  they reach and the `capacity` and `shows` of the zones they name (`lang/reads.py`, as the end checks
  use it), read no flow value but `me`, and nothing they name was written since that last listing: no
  var, player var, item var field or zone of that name (found by comparing the data's containers, which
  copy on write replaces when a job changes them), nor the blocked edges if they call a builtin that
  reads those. The script checks that such an action's bindings are indeed the same.
- **reusable by containers read**: what exact read sets could prove, recorded as the action is listed on a
  copy of the data whose tables log every read: every zone, game var, player's var, item's var, flow value
  and usage count it looked at holds an equal value now. This is the finest grain a reuse of a whole
  action's bindings could have; the script checks that such an action's bindings are the same.

Each figure is a share of the time spent listing the stages' actions this way. Only the rules' work and
the engine's loop around them count here, not the rest of the decision.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import ruleskit
from ruleskit.lang.reads import FLOW_WORDS, words_reached
from ruleskit.runtime.engine import enumerate_action_bindings

DEFAULT_PACKS = "connect_four:2:30,envoys:3:30,ophir:4:3"
# Builtins that read the blocked edges without naming them.
READS_BLOCKED = frozenset({"is_blocked", "blocked_edges", "reachable", "edges"})


def action_words(game: ruleskit.Game, name: str) -> set[str]:
    """Every name the listing of action `name` may read (see the module's docstring)."""
    raw = game.source.defs[("actions", name)].data
    texts: list[Any] = [raw.get("when"), *raw.get("params", {}).values(), *raw.get("cost", {}).values(),
                        *raw.get("cost", {}).keys()]
    texts += [r.get("check") if isinstance(r, dict) else r for r in raw.get("require", [])]
    definitions = list(game.source.definitions.values())
    words = words_reached([t for t in texts if isinstance(t, str)], definitions)
    while True:  # a zone named reads its capacity and `shows` too, which may name other zones
        extra = [s for zone_name, zone in game.model.zones.items() if zone_name in words
                 for s in (zone.capacity, zone.shows) if isinstance(s, str)]
        grown = words | words_reached(extra, definitions)
        if grown == words:
            return words
        words = grown


def written_names(game: ruleskit.Game, old: dict[str, Any], new: dict[str, Any]) -> set[str]:
    """The names of what changed from `old` to `new` game data: vars, item var fields, zones."""
    names = {k for k, v in new["v"].items() if old["v"].get(k) != v}
    if new["pv"] is not old["pv"]:
        for before, after in zip(old["pv"], new["pv"], strict=True):
            if before is not after:
                names |= {k for k, v in after.items() if before.get(k) != v}
    if new["ev"] is not old["ev"]:
        for item, after in new["ev"].items():
            before = old["ev"].get(item) or {}
            if before is not after:
                names |= {k for k, v in after.items() if before.get(k) != v}
    if new["z"] is not old["z"]:
        names |= {key.partition("@")[0] for key, content in new["z"].items() if old["z"].get(key) is not content}
    if new.get("blocked") != old.get("blocked"):
        names |= READS_BLOCKED
    return names


class LoggedDict(dict):  # type: ignore[type-arg]
    """A table of game data that logs each key read (`"*"` for the whole table) into `log` as (part, key)."""

    __slots__ = ("log", "part")

    def __getitem__(self, key: Any) -> Any:
        self.log.append((self.part, key))
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.log.append((self.part, key))
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self.log.append((self.part, key))
        return dict.__contains__(self, key)

    def _whole(self) -> None:
        self.log.append((self.part, "*"))

    def __iter__(self) -> Any:
        self._whole()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._whole()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._whole()
        return dict.keys(self)

    def values(self) -> Any:
        self._whole()
        return dict.values(self)

    def items(self) -> Any:
        self._whole()
        return dict.items(self)


class LoggedList(list):  # type: ignore[type-arg]
    """A list of game data (the players' vars, the blocked edges), logging each index read (`"*"` for the whole list)."""

    __slots__ = ("log", "part")

    def __getitem__(self, index: Any) -> Any:
        self.log.append((self.part, index))
        return list.__getitem__(self, index)

    def __iter__(self) -> Any:
        self.log.append((self.part, "*"))
        return list.__iter__(self)

    def __len__(self) -> int:
        self.log.append((self.part, "*"))
        return list.__len__(self)


def logged(value: Any, part: tuple[Any, ...], log: list[tuple[tuple[Any, ...], Any]]) -> Any:
    table: Any = LoggedDict(value) if type(value) is dict else LoggedList(value)
    table.log, table.part = log, part
    return table


# The parts whose tables hold tables: each inner table logs its own reads (a player's var, an item's var, a
# usage count), so a read of the outer one by key is not a read of its own.
NESTED = ("pv", "ev")


def logged_data(data: dict[str, Any], log: list[tuple[tuple[Any, ...], Any]]) -> dict[str, Any]:
    """A copy of `data` whose tables log every read as (path of the table, key)."""
    copied: dict[str, Any] = {}
    for part, value in data.items():
        if part in NESTED:
            inner = value.items() if type(value) is dict else enumerate(value)
            nested = {key: logged(table, (part, key), log) for key, table in inner}
            value = nested if type(value) is dict else [nested[i] for i in range(len(value))]
        if type(value) in (dict, list) and part != "flow":
            value = logged(value, (part,), log)
        copied[part] = value
    flow = dict(data["flow"])
    flow["usage"] = {scope: logged(counts, ("flow", "usage", scope), log) for scope, counts in flow["usage"].items()}
    copied["flow"] = logged(flow, ("flow",), log)
    return copied


MISSING = object()


def read_value(data: dict[str, Any], path: tuple[Any, ...], key: Any) -> Any:
    """What reading `key` of the table at `path` gives in `data` now (MISSING if nothing)."""
    try:
        table: Any = data
        for step in path:
            table = table[step]
        return table if key == "*" else table[key]
    except (KeyError, IndexError, TypeError):
        return MISSING


def skipped(path: tuple[Any, ...], key: Any) -> bool:
    """A read of a table whose own reads are logged: not a read of a value."""
    return (path == ("flow",) and key == "usage") or (len(path) == 1 and path[0] in NESTED and key != "*")


def read_set(data: dict[str, Any], log: list[tuple[tuple[Any, ...], Any]]) -> list[tuple[tuple[Any, ...], Any, Any]]:
    """Each distinct read of `log` with what it read in `data`. Copy on write never changes a container of
    a state once its job is done, so keeping the container keeps what was read."""
    reads: dict[tuple[tuple[Any, ...], str], tuple[tuple[Any, ...], Any, Any]] = {}
    for path, key in log:
        if (path, repr(key)) not in reads and not skipped(path, key):
            reads[(path, repr(key))] = (path, key, read_value(data, path, key))
    return list(reads.values())


def same_reads(data: dict[str, Any], reads: list[tuple[tuple[Any, ...], Any, Any]]) -> bool:
    """Whether every read of `reads` gives an equal value in `data` (the same container, or an equal one)."""
    for path, key, before in reads:
        now = read_value(data, path, key)
        if now is not before and (type(now) is not type(before) or now != before):
            return False
    return True


def measure(pack: str, players: int, games: int) -> dict[str, Any]:
    game = ruleskit.load(pack)
    words = {name: action_words(game, name) for name in game.actions}
    flow_read = {name: bool(w & (FLOW_WORDS - {"me"})) for name, w in words.items()}
    total = same = by_names = by_reads = 0.0
    listings = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(players=players, seed=seed)
        last: dict[tuple[int, str, str], tuple[list[str], dict[str, Any], Any]] = {}
        while not state.is_terminal:
            data, flow = state.data, state.data["flow"]
            if state.pending is None and flow["simul"] is None:
                player, stage = flow["active"], flow["stage"]
                for action in game.actions_by_stage.get(stage, []):
                    began = time.perf_counter()
                    ids = [a.id for a in enumerate_action_bindings(game, data, player, action)]
                    spent = time.perf_counter() - began
                    total += spent
                    listings += 1
                    log: list[tuple[tuple[Any, ...], Any]] = []
                    logged_ids = [a.id for a in enumerate_action_bindings(game, logged_data(data, log), player, action)]
                    if logged_ids != ids:
                        raise SystemExit(f"{pack}: action {action.name} listed otherwise on the logged data")
                    key = (player, stage, action.name)
                    earlier = last.get(key)
                    if earlier is not None and earlier[0] == ids:
                        same += spent
                    if earlier is not None and not flow_read[action.name] \
                            and not words[action.name] & written_names(game, earlier[1], data):
                        if earlier[0] != ids:
                            raise SystemExit(f"{pack}: action {action.name} changed with nothing it names written")
                        by_names += spent
                    if earlier is not None and same_reads(data, earlier[2]):
                        if earlier[0] != ids:
                            raise SystemExit(f"{pack}: action {action.name} changed with nothing it read changed")
                        by_reads += spent
                    last[key] = (ids, data, read_set(data, log))
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return {"pack": pack, "players": players, "games": games, "listings": listings,
            "listing_s": round(total, 3), "same_result_share": round(same / total, 3) if total else 0.0,
            "reusable_by_names_share": round(by_names / total, 3) if total else 0.0,
            "reusable_by_reads_share": round(by_reads / total, 3) if total else 0.0}


def parse_packs(text: str) -> list[tuple[str, int, int]]:
    packs = []
    for spec in text.split(","):
        name, _, games = spec.strip().rpartition(":")
        pack, _, players = name.rpartition(":")
        if not pack or not players.isdigit() or not games.isdigit() or int(games) < 1:
            raise SystemExit(f"--packs: '{spec}' is not NAME_OR_PATH:PLAYERS:GAMES (GAMES at least 1)")
        packs.append((pack, int(players), int(games)))
    return packs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--packs", default=DEFAULT_PACKS, help="NAME_OR_PATH:PLAYERS:GAMES, comma-separated "
                                                                f"(default {DEFAULT_PACKS})")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    rows = []
    print(f"{'pack':>14} {'players':>7} {'games':>5} {'listings':>8} {'same result':>11} {'by names':>8} "
          f"{'by containers read':>18}")
    for pack, players, games in parse_packs(args.packs):
        try:
            row = measure(pack, players, games)
        except ruleskit.RulesError as exc:
            raise SystemExit(f"{pack}: {exc}") from None
        rows.append(row)
        print(f"{pack:>14} {players:>7} {games:>5} {row['listings']:>8} {row['same_result_share']:>11.0%} "
              f"{row['reusable_by_names_share']:>8.0%} {row['reusable_by_reads_share']:>18.0%}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"python": sys.version.split()[0], "rows": rows}, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
