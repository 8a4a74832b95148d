"""Reading saved games (`save FILE` in `ruleskit play`) without trusting them.

A save names its pack, but only a built-in pack is loaded on its word; a
save of a pack folder needs the folder named again on the command line. The
file is read with a size cap, its JSON with a depth cap, and the state is
checked against the pack (`State.from_json` runs `validation.check_state`)
before anything of the game runs.
"""

from __future__ import annotations

import json
import re
from itertools import islice
from pathlib import Path
from typing import Any

from .bots import BOTS
from .errors import PackError, RulesError, unusable_json
from .game import Game, load
from .jsonlocate import json_path_position
from .limits import MAX_SAVE_BYTES, MAX_SAVE_LISTS
from .log import unnamed_pack
from .resources import builtin_packs
from .runtime.state import State
from .tomlfile import BYTE_ORDER_MARK, read_bytes
from .validation import InvalidData, check_list, check_str

SAVE_FORMAT = "ruleskit-save"
HUMAN = "human"


def read_json_text(path: str | Path, limit: int = MAX_SAVE_BYTES) -> str:
    """The text of a JSON file of at most `limit` bytes; anything unreadable is a located error."""
    name = str(path)
    try:
        raw = read_bytes(Path(path), name, limit)
    except PackError as exc:
        raise PackError(f"cannot read saved game: {exc.message}", file=name) from None
    if raw[:2] == b"\x1f\x8b":
        raise PackError("a gzip-compressed file, not JSON: decompress it first", file=name, line=1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise PackError(f"not UTF-8 text: byte {raw[exc.start]:#04x} cannot be decoded (a binary file?)",
                        file=name, line=line) from None
    if text.startswith(BYTE_ORDER_MARK):  # as at the start of a pack file (`decode_text`)
        text = text[1:]
    if text.count("[") + text.count("{") > MAX_SAVE_LISTS:  # counted before parsing: each costs memory to read
        passing = next(islice(re.finditer(r"[\[{]", text), MAX_SAVE_LISTS, None)).start()
        raise PackError(f"more than {MAX_SAVE_LISTS:,} lists and tables", file=name,
                        line=text.count("\n", 0, passing) + 1)
    return text


def parse_json(text: str, name: str) -> Any:
    """The value of JSON text read from the file `name`; text that is not JSON is a located error."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PackError(f"not JSON: {exc.msg}", file=name, line=exc.lineno, column=exc.colno) from None
    except (RecursionError, ValueError) as exc:
        raise PackError(f"not usable JSON: {unusable_json(exc)}", file=name, line=1) from None


def located(error: InvalidData, text: str, name: str, path: str | None = None) -> PackError:
    """`error` about a value of the JSON `text` of the file `name`, at the line and column of that value.

    `path` is the value's JSON path in the whole file when the error's own path is relative to a part of it.
    """
    where = json_path_position(text, path or error.path)
    line, column = where if where is not None else (None, None)
    return PackError(error.message if path is None else f"{path}: {error.detail}", file=name, line=line,
                     column=column, hint=error.hint)


def load_saved(path: str | Path, pack: str | Path | Game | None = None) -> tuple[Game, State, list[str]]:
    """A saved game: its pack (`pack` if given, else the built-in pack the save names), state and seats."""
    name = str(path)
    text = read_json_text(path)
    data = parse_json(text, name)
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or not isinstance(data.get("state"), dict):
        raise PackError("not a saved ruleskit game (written by 'save FILE' in ruleskit play)", file=name)
    try:
        seats = [check_str(f"$.seats[{i}]", seat) for i, seat in enumerate(check_list("$.seats", data.get("seats")))]
        for index, seat in enumerate(seats):
            if seat != HUMAN and seat not in BOTS:
                raise InvalidData(f"$.seats[{index}]", f"unknown seat {seat!r}: {HUMAN} or a bot ({', '.join(BOTS)})")
    except InvalidData as exc:
        raise located(exc, text, name) from None
    game = _saved_game(data, name, pack)
    try:
        state = State.from_json(game, data["state"])
    except InvalidData as exc:  # its path starts at the state
        raise located(exc, text, name, "$.state" + exc.path.removeprefix("$")) from None
    except RulesError as exc:
        message = "$.state" + exc.message[1:] if exc.message.startswith("$") else exc.message
        raise PackError(message, file=name, hint=exc.hint) from None
    if len(seats) != state.players:
        raise located(InvalidData("$.seats", f"{len(seats)} seats for a game of {state.players} players"), text, name)
    return game, state, seats


def _saved_game(data: dict[str, Any], name: str, pack: str | Path | Game | None) -> Game:
    if isinstance(pack, Game):
        return pack
    if pack is not None:
        return load(pack)
    builtins = builtin_packs()
    ref = data.get("ref")
    if isinstance(ref, str) and ref in builtins:
        return load(builtins[ref])
    raise PackError(unnamed_pack("this game was saved with", data["state"].get("pack"), ref,
                                 "ruleskit play PACK --load FILE"), file=name)
