"""What a TOML snippet may read, found from the names it and the rules it calls write.

The engine uses it to know that an end condition cannot change when only the
flow moved on (a turn passed with no pack code run): such a condition reads no
flow value (`me`, `active`, `turn_number`, `round_number`, `stage`, `phase`, the
usage counts behind `uses`) and no var the turn resets. The test is on names,
so it errs on the side of "reads": a word in a string, a field or a local that
shares a flow word's name counts as a read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from lark import Token, Tree

# The names through which a program reads the flow table or `me` (which the engine sets to the active player).
FLOW_WORDS = frozenset({"me", "active", "turn_number", "round_number", "stage", "phase", "uses"})
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _words_of_tree(tree: Tree | None) -> set[str]:
    if tree is None:
        return set()
    words: set[str] = set()
    for token in tree.scan_values(lambda v: isinstance(v, Token)):
        words.update(_WORD.findall(str(token)))
    return words


def words_reached(texts: Iterable[Any], definitions: Iterable[Any]) -> set[str]:
    """Every name in `texts` and in the rules, procedures and `modify` hooks they name, transitively.

    `definitions` are the pack's parsed definitions (`lang.definitions.Definition`).
    """
    by_name: dict[str, list[Any]] = {}
    for definition in definitions:
        key = definition.target if definition.kind == "modify" else definition.name
        if definition.kind in ("rule", "proc", "modify"):
            by_name.setdefault(key, []).append(definition)
    words: set[str] = set()
    for text in texts:
        if isinstance(text, str):
            words.update(_WORD.findall(text))
    todo = list(words)
    done: set[str] = set()
    while todo:
        name = todo.pop()
        if name in done:
            continue
        done.add(name)
        for definition in by_name.get(name, ()):
            found = _words_of_tree(definition.body) | _words_of_tree(definition.when)
            todo.extend(found - words)
            words |= found
    return words


def reads_flow(texts: Iterable[Any], definitions: Iterable[Any], turn_vars: Iterable[str]) -> bool:
    """Whether code reached from `texts` may read a flow value or a var reset each turn."""
    words = words_reached(texts, definitions)
    return not words.isdisjoint(FLOW_WORDS) or not words.isdisjoint(turn_vars)
