"""Plain game data: the JSON-like dicts and lists a state is made of."""

from __future__ import annotations

from typing import Any


def copy_data(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists and scalars), faster than copy.deepcopy.

    Every apply copies the game data, so this is hot: a container is copied
    in C with .copy() and only its nested containers are replaced, which is
    about twice as fast as rebuilding each one with a comprehension.
    """
    kind = type(value)
    if kind is dict:
        out = value.copy()
        for key, item in value.items():
            if type(item) is dict or type(item) is list:
                out[key] = copy_data(item)
        return out
    if kind is list:
        copied = value.copy()
        for index, item in enumerate(value):
            if type(item) is dict or type(item) is list:
                copied[index] = copy_data(item)
        return copied
    return value


def restore_into(target: Any, source: Any) -> None:
    """Make `target` equal to `source` in place.

    Nested containers that both sides have keep their identity, so code that
    holds a reference into the data (the flow table, say) sees the restored
    values rather than a stale copy.
    """
    if type(target) is dict:
        for key in [k for k in target if k not in source]:
            del target[key]
        for key, value in source.items():
            old = target.get(key)
            if type(old) is type(value) and type(value) in (dict, list):
                restore_into(old, value)
            else:
                target[key] = copy_data(value)
    elif type(target) is list:
        if len(target) != len(source):
            target[:] = copy_data(source)
            return
        for index, value in enumerate(source):
            old = target[index]
            if type(old) is type(value) and type(value) in (dict, list):
                restore_into(old, value)
            else:
                target[index] = copy_data(value)
