"""Game logs as JSON Lines, and replaying them.

A log starts with a header (pack name, version, content hash, the variant
chain, players, seed, options), then one line for setup and one per decision,
each with the chance outcomes it led to, and ends with the result.
`replay` re-runs a log and raises ReplayMismatch at the first difference.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .atomic import write_text_atomically
from .errors import IllegalAction, PackError, ReplayMismatch, RulesError, unusable_json
from .game import Game, load
from .jsonlocate import json_path_position
from .limits import MAX_LOG_LINE_BYTES, MAX_RETOLD_STEPS
from .resources import builtin_packs
from .runtime.state import State
from .tomlfile import BYTE_ORDER_MARK
from .validation import (
    InvalidData,
    check_int,
    check_keys,
    check_list,
    check_options,
    check_plain,
    check_str,
    check_table,
)


def pack_ref(game: Game) -> str:
    """How to find this pack again: its built-in name, or its folder."""
    builtins = builtin_packs()
    root = game.source.root.resolve()
    if game.name in builtins and builtins[game.name].resolve() == root:
        return game.name
    return str(root)


SCENARIO_NOT_LOGGED = ("a game set up at a scenario's position cannot be written as a log: a log replays from "
                       "the pack's setup, which does not lead to that position; save the game instead")


def log_lines(state: State, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    if state.from_scenario:
        raise PackError(SCENARIO_NOT_LOGGED)
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


def history_replays(state: State, most_steps: int = MAX_RETOLD_STEPS) -> bool:
    """Whether the decisions of `state`'s history, replayed from the pack's setup with its seed, lead to `state`.
    A save edited by hand may hold a history that does not: a log written from it would not replay.

    A history that runs more than `most_steps` steps of the pack's code is a PackError: a save of a pack whose
    decisions each run near their step budget replayed for about 40 minutes (as `serve` bounds retelling it).
    """
    try:
        fresh = state.game.new_game(players=state.players, seed=state.raw["seed"])
    except RulesError:
        return False
    for entry in state.history[1:]:
        try:
            fresh.apply(entry["action"], player=entry["player"])
        except RulesError:
            return False
        if fresh.work > most_steps:
            raise PackError(f"its decisions run more than {most_steps:,} steps of the pack's code to replay")
    return fresh == state


def write_log(state: State, path: str | Path, options: dict[str, Any] | None = None) -> None:
    """The game's log, written whole or not at all (an existing file is left as it was if writing fails)."""
    write_text_atomically(path, "".join(json.dumps(line, separators=(",", ":")) + "\n"
                                        for line in log_lines(state, options)))


def iter_log(path: str | Path) -> Iterator[dict[str, Any]]:
    """The lines of a log one by one, each a checked JSON object with its line number in `_line`.

    The file is read as a stream with a cap on each line, so a huge or
    endless file ends in a located error at its first bad line rather than
    filling memory first.
    """
    name = str(path)
    stream = _open_log(path, name)
    with stream:
        try:
            if stat.S_ISDIR(os.fstat(stream.fileno()).st_mode):
                raise PackError("a folder, not a log file", file=name)
            number = 0
            while True:
                raw = stream.readline(MAX_LOG_LINE_BYTES + 1)
                if not raw:
                    break
                number += 1
                if len(raw) > MAX_LOG_LINE_BYTES:
                    raise PackError(f"line longer than {MAX_LOG_LINE_BYTES} bytes", file=name, line=number)
                if number == 1 and raw[:2] == b"\x1f\x8b":
                    raise PackError("a gzip-compressed file, not a JSON Lines log: decompress it first",
                                    file=name, line=1)
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise PackError(f"not UTF-8 text: byte {raw[exc.start]:#04x} cannot be decoded "
                                    "(a binary file?)", file=name, line=number, column=exc.start + 1) from None
                if number == 1 and text.startswith(BYTE_ORDER_MARK):  # as at the start of a pack file (`decode_text`)
                    text = text[1:]
                if not text.strip():
                    continue
                yield parse_log_line(text, name, number)
        except OSError as exc:
            raise PackError(f"cannot read log: {exc.strerror}", file=name) from None


def _open_log(path: str | Path, name: str) -> BinaryIO:
    """The log open for reading. Opened without blocking, so that a FIFO no program writes to reads as empty
    (an error) rather than waiting forever; then read as usual, so that a pipe being written (`<(zcat x)`)
    is read as it comes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError) as exc:
        raise PackError(f"cannot read log: {getattr(exc, 'strerror', None) or exc}", file=name) from None
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except OSError as exc:
        os.close(fd)
        raise PackError(f"cannot read log: {exc.strerror}", file=name) from None


def parse_log_line(text: str, name: str, number: int) -> dict[str, Any]:
    """One line of a log as a checked JSON object."""
    try:
        entry = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PackError(f"not JSON: {exc.msg}", file=name, line=number, column=exc.colno) from None
    except (RecursionError, ValueError) as exc:
        raise PackError(f"not a usable JSON line: {unusable_json(exc)}", file=name, line=number) from None
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        raise PackError("each log line must be an object with a 'type'", file=name, line=number)
    try:
        check_plain("$", entry)
        check_log_entry(entry)
    except InvalidData as exc:
        where = json_path_position(text, exc.path)
        raise PackError(exc.message, file=name, line=number, column=where[1] if where else None) from None
    entry["_line"] = number
    return entry


def check_log_entry(entry: dict[str, Any]) -> None:
    """The shape of one log line (the header's pack, players and options are checked against the pack later)."""
    kind = entry["type"]
    if kind == "header":
        check_keys("$", entry, ("type", "pack", "hash", "players", "seed"),
                   ("version", "chain", "ref", "options"))
        check_str("$.pack", entry["pack"])
        check_str("$.hash", entry["hash"])
        check_int("$.players", entry["players"], 1)
        check_int("$.seed", entry["seed"])
        if entry.get("options") is not None:
            check_table("$.options", entry["options"])
    elif kind == "setup":
        check_keys("$", entry, ("type",), ("chance",))
        check_list("$.chance", entry.get("chance", []))
    elif kind == "decision":
        check_keys("$", entry, ("type", "action"), ("player", "chance"))
        check_str("$.action", entry["action"])
        if entry.get("player") is not None:
            check_int("$.player", entry["player"], 0)
        check_list("$.chance", entry.get("chance", []))
    elif kind != "result":
        raise InvalidData("$.type", f"unknown log line type {kind!r}")


def _after_the_result(entry: dict[str, Any], name: str) -> PackError:
    return PackError("nothing may follow the result line", file=name, line=entry["_line"])


def read_log(path: str | Path, limit: int = 1_000_000) -> list[dict[str, Any]]:
    """A whole log (at most `limit` lines), starting with its header and ending, if the game ended, with its
    result."""
    return list(log_entries(path, limit))


def log_entries(path: str | Path, limit: int = 1_000_000) -> Iterator[dict[str, Any]]:
    """The lines of a log one at a time, as `read_log` checks them (a header first, nothing after the result, at
    most `limit` lines): a reader that goes through a log once holds one line at a time."""
    count = 0
    ended = False
    for entry in iter_log(path):
        if not count and entry["type"] != "header":
            raise PackError("a log must start with a header line", file=str(path), line=entry["_line"])
        if ended:
            raise _after_the_result(entry, str(path))
        ended = entry["type"] == "result"
        count += 1
        if count > limit:
            raise PackError(f"more than {limit} lines", file=str(path), line=entry["_line"])
        yield entry
    if not count:
        raise PackError("a log must start with a header line", file=str(path), line=1)


def unnamed_pack(written: str, name: object, ref: object, commands: str) -> str:
    """Why a log or save needs its pack named: a folder's path, or a name that is not built in.

    A folder named like a built-in pack is not that pack, so "not built in" would be wrong for it.
    """
    if isinstance(ref, str) and ref not in builtin_packs() and ref != name:
        return f"{written} the pack folder {ref}, not a built-in pack: name that folder ({commands})"
    return f"{written} the pack '{name}', which is not built in: name its folder ({commands})"


def log_game(header: dict[str, Any], name: str, pack: str | Path | Game | None = None) -> Game:
    """The game a log replays: `pack` as the user named it, else the built-in pack its header names.

    A log never chooses a folder to load: one written with a pack folder
    needs that folder named again. The content hash is checked here, before
    anything of the pack runs.
    """
    if isinstance(pack, Game):
        game = pack
    elif pack is not None:
        game = load(pack)
    else:
        builtins = builtin_packs()
        ref = header.get("ref")
        if isinstance(ref, str) and ref in builtins:
            game = load(builtins[ref])
        elif header["pack"] in builtins and ref in (None, header["pack"]):
            game = load(builtins[header["pack"]])
        else:
            raise PackError(unnamed_pack("this log was written with", header["pack"], ref,
                                         "ruleskit replay LOG PACK, ruleskit test PACK --log LOG"),
                            file=name, line=1)
    if game.name != header["pack"]:  # another pack altogether, not this one changed
        raise ReplayMismatch(f"this log was written with pack '{header['pack']}', not '{game.name}'",
                             file=name, line=1)
    if game.content_hash != header["hash"]:
        raise ReplayMismatch(f"the pack '{game.name}' has changed since this log was written "
                             f"(content hash {game.content_hash[:12]} != {str(header['hash'])[:12]})",
                             file=name, line=1)
    return game


def log_start(header: dict[str, Any], game: Game, name: str) -> tuple[int, int, dict[str, Any] | None]:
    """Players, seed and options of a log's header, checked against the game."""
    players = header["players"]
    if not game.min_players <= players <= game.max_players:
        raise PackError(f"$.players: {game.name} is for {game.player_range} players, "
                        f"not {players}", file=name, line=1)
    try:
        options = check_options(game, header.get("options"), players)
    except InvalidData as exc:
        raise PackError(exc.message, file=name, line=1, hint=exc.hint) from None
    return players, header["seed"], options or None


def replay(path: str | Path, game: Game | str | Path | None = None) -> State:
    """Re-run a log; raise ReplayMismatch where the game differs from the record.

    `game` is the pack to replay with (a Game, a folder or a built-in name);
    without it the log's header must name a built-in pack.
    """
    return replay_from_start(path, game)[1]


def replay_from_start(path: str | Path, game: Game | str | Path | None = None) -> tuple[State, State]:
    """Re-run a log as `replay` does: the game as its header set it up (players, seed, options), and the game
    at its end.

    The log is read once: a second read of it, for its header, found nothing in a pipe (`<(zcat log.gz)`),
    and read a file changed since the replay without checking it again.
    """
    name = str(path)
    lines = iter_log(path)
    header = next(lines, None)
    if header is None or header["type"] != "header":
        raise PackError("a log must start with a header line", file=name, line=1 if header is None else header["_line"])
    game = log_game(header, name, game)
    players, seed, options = log_start(header, game, name)
    state = game.new_game(players=players, seed=seed, options=options)
    start = state.clone()
    ended = set_up = False
    for entry in lines:
        line = entry["_line"]
        if ended:  # a log ends at its result: lines copied after it would be read for nothing
            raise _after_the_result(entry, name)
        if entry["type"] == "setup":
            if set_up:
                raise PackError("a second setup line (a log has one, after its header)", file=name, line=line)
            set_up = True
            _same_chance(state.history[0]["chance"], entry.get("chance", []), name, line)
            continue
        if not set_up and entry["type"] != "header":
            raise PackError("the setup line is missing: a log's second line is its setup", file=name, line=line)
        if entry["type"] == "decision":
            try:
                state.apply(entry["action"], player=entry.get("player"))
            except IllegalAction as exc:
                raise ReplayMismatch(f"recorded action '{entry['action']}' is not legal here: {exc.message}",
                                     file=name, line=line) from None
            _same_chance(state.history[-1]["chance"], entry.get("chance", []), name, line)
        elif entry["type"] == "result":
            recorded = {k: v for k, v in entry.items() if k not in ("type", "_line")}
            if state.result != recorded:
                raise ReplayMismatch(f"result differs: replay gave {_shown(state.result)}, log has {_shown(recorded)}",
                                     file=name, line=line)
            ended = True
        else:
            raise PackError(f"a second header at line {line}", file=name, line=line)
    return start, state


def _same_chance(got: list[Any], recorded: list[Any], name: str, line: int) -> None:
    if got != recorded:
        raise ReplayMismatch(f"chance outcomes differ: replay drew {_shown(got)}, log has {_shown(recorded)}",
                             file=name, line=line)


def _shown(value: Any, most: int = 300) -> str:
    """A recorded value in a message, cut short: a line of a log may hold a megabyte."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= most else f"{text[:most]}... ({len(text):,} characters)"
