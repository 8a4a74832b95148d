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


def measure(pack: str, players: int, games: int) -> dict[str, Any]:
    game = ruleskit.load(pack)
    words = {name: action_words(game, name) for name in game.actions}
    flow_read = {name: bool(w & (FLOW_WORDS - {"me"})) for name, w in words.items()}
    total = same = by_names = 0.0
    listings = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(players=players, seed=seed)
        last: dict[tuple[int, str, str], tuple[list[str], dict[str, Any]]] = {}
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
                    key = (player, stage, action.name)
                    earlier = last.get(key)
                    if earlier is not None and earlier[0] == ids:
                        same += spent
                    if earlier is not None and not flow_read[action.name] \
                            and not words[action.name] & written_names(game, earlier[1], data):
                        if earlier[0] != ids:
                            raise SystemExit(f"{pack}: action {action.name} changed with nothing it names written")
                        by_names += spent
                    last[key] = (ids, data)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return {"pack": pack, "players": players, "games": games, "listings": listings,
            "listing_s": round(total, 3), "same_result_share": round(same / total, 3) if total else 0.0,
            "reusable_by_names_share": round(by_names / total, 3) if total else 0.0}


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
    print(f"{'pack':>14} {'players':>7} {'games':>5} {'listings':>8} {'same result':>11} {'by names':>8}")
    for pack, players, games in parse_packs(args.packs):
        try:
            row = measure(pack, players, games)
        except ruleskit.RulesError as exc:
            raise SystemExit(f"{pack}: {exc}") from None
        rows.append(row)
        print(f"{pack:>14} {players:>7} {games:>5} {row['listings']:>8} {row['same_result_share']:>11.0%} "
              f"{row['reusable_by_names_share']:>8.0%}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"python": sys.version.split()[0], "rows": rows}, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
