"""Where in a JSON text the value a JSON path names begins, so an error about it can give its line.

The paths are those `validation.InvalidData` writes: `$`, then `.key` for a key of a table and `[index]` for
an element of a list (`$.state.data.pv[1].coins`, `$.state.data.z.hand@0[2]`). A key is written as it is,
dots and brackets included, so at each table the longest key the rest of the path begins with is taken.

The text is scanned, not parsed into values: only the tables and lists on the way are read, and whatever
lies beside them is skipped a string or a bracket at a time.
"""

from __future__ import annotations

import json
import re

_SPACE = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
# Anything up to the next bracket outside a string, and that bracket: strings are taken whole, so a bracket in
# one does not count; possessive, so a long run of text is read once, by the regex engine.
_TO_BRACKET = re.compile(r'(?:[^"\[\]{}]++|"(?:[^"\\]|\\.)*+")*+([\[\]{}])', re.DOTALL)
_SCALAR = re.compile(r"[^,\]}\s]*")
_INDEX = re.compile(r"\[(\d+)\]")
_DIGITS_KEY = re.compile(r"\.(\d+)(?=$|[.\[])")


def json_path_position(text: str, path: str) -> tuple[int, int] | None:
    """The line and column (both from 1) where the value at `path` begins in `text`.

    When the path goes where the text does not (a key that is missing, an index past the end), the
    position of the innermost table or list it reached; None when `path` is no JSON path or `text` holds
    no value.
    """
    if not path.startswith("$"):
        return None
    offset = _skip_space(text, 0)
    if offset >= len(text):
        return None
    rest = path[1:]
    try:
        while rest:
            step = _step_into(text, offset, rest)
            if step is None:
                break
            offset, rest = step
    except (ValueError, IndexError):  # text that is not JSON after all: the place reached so far
        pass
    return _line_and_column(text, offset)


def _step_into(text: str, offset: int, rest: str) -> tuple[int, str] | None:
    """The offset of the value the first part of `rest` names inside the value at `offset`, and the rest."""
    opening = text[offset]
    index = _INDEX.match(rest) or (_DIGITS_KEY.match(rest) if opening == "[" else None)
    if opening == "[" and index is not None:
        found = _element(text, offset, int(index.group(1)))
        return None if found is None else (found, rest[index.end():])
    if opening == "{" and rest.startswith("."):
        return _entry(text, offset, rest[1:])
    return None


def _element(text: str, offset: int, wanted: int) -> int | None:
    """The offset of element `wanted` of the list opening at `offset`."""
    position = _skip_space(text, offset + 1)
    if text[position] == "]":
        return None
    for _ in range(wanted):
        position = _skip_space(text, _value_end(text, position))
        if text[position] != ",":
            return None
        position = _skip_space(text, position + 1)
    return position


def _entry(text: str, offset: int, rest: str) -> tuple[int, str] | None:
    """The offset of the value of the longest key `rest` begins with, in the table opening at `offset`, and
    what follows that key in `rest` (of keys written twice, the last, as `json.loads` keeps it)."""
    best: tuple[int, str] | None = None
    best_length = -1
    position = _skip_space(text, offset + 1)
    while text[position] != "}":
        key_token = _STRING.match(text, position)
        if key_token is None:
            return best
        key = json.loads(key_token.group())
        position = _skip_space(text, key_token.end())
        value = _skip_space(text, position + 1)  # past the ':'
        if _names(rest, key) and len(key) >= best_length:
            best, best_length = (value, rest[len(key):]), len(key)
        position = _skip_space(text, _value_end(text, value))
        if text[position] == ",":
            position = _skip_space(text, position + 1)
    return best


def _names(rest: str, key: str) -> bool:
    """Whether `rest` starts with `key` as a whole part of a path."""
    return rest.startswith(key) and (len(rest) == len(key) or rest[len(key)] in ".[")


def _value_end(text: str, offset: int) -> int:
    """The offset just past the value beginning at `offset`."""
    opening = text[offset]
    if opening == '"':
        token = _STRING.match(text, offset)
        if token is None:
            raise ValueError("an unclosed string")
        return token.end()
    if opening not in "[{":
        return _SCALAR.match(text, offset).end()  # type: ignore[union-attr]  # matches even nothing
    depth, position = 0, offset
    while True:
        bracket = _TO_BRACKET.match(text, position)
        if bracket is None:
            raise ValueError("an unclosed list or table")
        position = bracket.end()
        depth += 1 if bracket.group(1) in "[{" else -1
        if depth == 0:
            return position


def _skip_space(text: str, offset: int) -> int:
    return _SPACE.match(text, offset).end()  # type: ignore[union-attr]  # matches even nothing


def _line_and_column(text: str, offset: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1
