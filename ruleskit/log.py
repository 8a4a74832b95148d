"""Game logs as JSON Lines, and replaying them.

A log starts with a header (pack name, version, content hash, the variant
chain, players, seed, options), then one line for setup and one per decision,
each with the chance outcomes it led to, and ends with the result.
`replay` re-runs a log and raises ReplayMismatch at the first difference.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import IllegalAction, PackError, ReplayMismatch
from .game import Game, load
from .resources import builtin_packs
from .runtime.state import State


def pack_ref(game: Game) -> str:
    """How to find this pack again: its built-in name, or its folder."""
    builtins = builtin_packs()
    root = game.source.root.resolve()
    if game.name in builtins and builtins[game.name].resolve() == root:
        return game.name
    return str(root)


def log_lines(state: State, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    game = state.game
    lines: list[dict[str, Any]] = [{
        "type": "header", "pack": game.name, "version": game.version, "hash": game.content_hash,
        "chain": game.chain, "ref": pack_ref(game), "players": state.players, "seed": state.raw["seed"],
        "options": options or {},
    }]
    for entry in state.history:
        if entry.get("setup"):
            lines.append({"type": "setup", "chance": entry["chance"]})
        else:
            lines.append({"type": "decision", "player": entry["player"], "action": entry["action"],
                          "chance": entry["chance"]})
    if state.result is not None:
        lines.append({"type": "result", **state.result})
    return lines


def write_log(state: State, path: str | Path, options: dict[str, Any] | None = None) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for line in log_lines(state, options):
            out.write(json.dumps(line, separators=(",", ":")) + "\n")


def read_log(path: str | Path) -> list[dict[str, Any]]:
    lines = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PackError(f"cannot read log: {exc.strerror}", file=str(path)) from None
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise PackError(f"not JSON: {exc.msg}", file=str(path), line=number) from None
        if not isinstance(entry, dict) or "type" not in entry:
            raise PackError("each log line must be an object with a 'type'", file=str(path), line=number)
        entry["_line"] = number
        lines.append(entry)
    if not lines or lines[0]["type"] != "header":
        raise PackError("a log must start with a header line", file=str(path), line=1)
    return lines


def replay(path: str | Path, game: Game | None = None) -> State:
    """Re-run a log; raise ReplayMismatch where the game differs from the record."""
    lines = read_log(path)
    header = lines[0]
    name = str(path)
    for key in ("pack", "hash", "players", "seed"):
        if key not in header:
            raise PackError(f"log header has no '{key}'", file=name, line=1)
    if game is None:
        game = load(header.get("ref") or header["pack"])
    if game.content_hash != header["hash"]:
        raise ReplayMismatch(f"the pack '{game.name}' has changed since this log was written "
                             f"(content hash {game.content_hash[:12]} != {str(header['hash'])[:12]})", file=name, line=1)
    state = game.new_game(players=header["players"], seed=header["seed"], options=header.get("options") or None)
    history_index = 0
    for entry in lines[1:]:
        line = entry["_line"]
        if entry["type"] == "setup":
            _same_chance(state.history[0]["chance"], entry.get("chance", []), name, line)
            history_index = 1
        elif entry["type"] == "decision":
            try:
                state.apply(entry["action"], player=entry.get("player"))
            except IllegalAction as exc:
                raise ReplayMismatch(f"recorded action '{entry['action']}' is not legal here: {exc.message}",
                                     file=name, line=line) from None
            history_index = len(state.history)
            _same_chance(state.history[history_index - 1]["chance"], entry.get("chance", []), name, line)
        elif entry["type"] == "result":
            recorded = {k: v for k, v in entry.items() if k not in ("type", "_line")}
            if state.result != recorded:
                raise ReplayMismatch(f"result differs: replay gave {state.result}, log has {recorded}",
                                     file=name, line=line)
        else:
            raise PackError(f"unknown log line type '{entry['type']}'", file=name, line=line)
    return state


def _same_chance(got: list[Any], recorded: list[Any], name: str, line: int) -> None:
    if got != recorded:
        raise ReplayMismatch(f"chance outcomes differ: replay drew {got}, log has {recorded}", file=name, line=line)
