"""Parsing work kept between processes: the parser's tables and the trees of a pack's texts.

Both are stored as plain JSON in the user's cache (`ruleskit/cache.py`) and
rebuilt here into Lark's own objects: a cached entry is data, and data can
only become a parse tree (or parse tables), which the compiler then checks as
it checks any tree. A tree is found by the digest of its text, the entry point
and the grammar, so a file that changed simply misses.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import lark
from lark import Lark, Token, Tree
from lark.grammar import Rule
from lark.lexer import TerminalDef
from lark.tree import Meta

from ..cache import Cache, digest

TREE_FORMAT = "3"  # 3: trees checked with each elif a level deeper than the one before
META_FIELDS = ("line", "column", "end_line", "end_column", "start_pos", "end_pos", "container_line",
               "container_column", "container_end_line", "container_end_column", "container_start_pos",
               "container_end_pos")
PAIRS = "#pairs"
MAX_DEPTH = 400  # deeper than the parser accepts (parser.MAX_TREE_DEPTH), so a real tree always fits


class BadEntry(ValueError):
    """A cache entry that is not what this module writes."""


def grammar_key(grammar: str) -> str:
    """What the parser and its trees depend on: the grammar, Lark, this format and Python."""
    return digest(grammar, lark.__version__, TREE_FORMAT, sys.version.split()[0])


# ------------------------------------------------------------------ the parser's tables

def plain(value: Any) -> Any:
    """Lark's serialized tables as JSON: tuples become lists (Lark only unpacks and iterates them), and
    the dicts keyed by numbers (parse states) become {"#pairs": [[key, value], ...]}."""
    if isinstance(value, dict):
        if value and not all(isinstance(k, str) for k in value):
            return {PAIRS: [[k, plain(v)] for k, v in value.items()]}
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    raise TypeError(f"cannot store a {type(value).__name__} in the cache")


def unpaired(table: dict[str, Any]) -> Any:
    """The `object_hook` that turns {"#pairs": ...} back into a dict keyed by numbers or strings."""
    if len(table) == 1 and PAIRS in table:
        pairs = table[PAIRS]
        if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], int | str)
                                                   for p in pairs):
            raise BadEntry("bad pairs")
        return {key: value for key, value in pairs}
    return table


def build_parser(grammar: str, cache: Cache | None, **options: Any) -> Lark:
    """The LALR parser of `grammar`, from the cache's tables when they are there (building it takes ~0.1 s)."""
    key = digest(grammar_key(grammar), repr(sorted(options.items())))
    if cache is not None:
        stored = cache.get("grammar", key, object_hook=unpaired)
        if stored is not None:
            try:
                data, memo = stored
                return Lark._load_from_dict(data, memo)  # the options come back with the tables
            except Exception:  # noqa: BLE001 - any damage in an entry means: build it again
                pass
    parser = Lark(grammar, **options)
    if cache is not None:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        cache.put("grammar", key, plain([data, memo]))
    return parser


# ------------------------------------------------------------------ trees

def encode_tree(node: Tree | Token | None) -> Any:
    if node is None:
        return None
    if isinstance(node, Token):
        return [1, node.type, str(node), node.start_pos, node.line, node.column, node.end_line, node.end_column,
                node.end_pos]
    meta = node.meta
    positions = None if getattr(meta, "empty", True) else [getattr(meta, f, None) for f in META_FIELDS]
    data = node.data
    rule = isinstance(data, Token)
    return [0, str(data), rule, positions, [encode_tree(child) for child in node.children]]


def decode_tree(value: Any, depth: int = 0) -> Tree | Token | None:
    """The tree `encode_tree` wrote. Shapes and names are checked; positions only feed error messages."""
    if value is None:
        return None
    if depth > MAX_DEPTH or type(value) is not list:
        raise BadEntry("bad node")
    if len(value) == 9 and value[0] == 1:
        _, kind, text, start_pos, line, column, end_line, end_column, end_pos = value
        if type(kind) is not str or type(text) is not str:
            raise BadEntry("bad token")
        return Token(kind, text, start_pos, line, column, end_line, end_column, end_pos)
    if len(value) == 5 and value[0] == 0:
        _, name, rule, positions, children = value
        if type(name) is not str or type(children) is not list:
            raise BadEntry("bad tree")
        meta = Meta()
        if positions is not None:
            if type(positions) is not list or len(positions) != len(META_FIELDS):
                raise BadEntry("bad meta")
            meta.empty = False
            meta.__dict__.update(zip(META_FIELDS, positions, strict=True))
        depth += 1
        return Tree(Token("RULE", name) if rule is True else name,
                    [None if child is None else decode_tree(child, depth) for child in children], meta)
    raise BadEntry("bad node")


class TreeMemo:
    """The trees one load parsed or found, by the digest of (grammar, entry point, text)."""

    def __init__(self, grammar: str, stored: Any = None) -> None:
        self.grammar = grammar_key(grammar)
        self.stored: dict[str, Any] = stored if isinstance(stored, dict) else {}
        self.used: dict[str, Any] = {}
        self.missed = 0

    def key(self, start: str, text: str) -> str:
        return digest(self.grammar, start, text)

    def find(self, start: str, text: str) -> Tree | None:
        key = self.key(start, text)
        encoded = self.stored.get(key)
        if encoded is None:
            return None
        try:
            tree = decode_tree(encoded)
        except (BadEntry, TypeError, ValueError, RecursionError):
            return None
        if not isinstance(tree, Tree):
            return None
        self.used[key] = encoded
        return tree

    def keep(self, start: str, text: str, tree: Tree) -> None:
        self.missed += 1
        self.used[self.key(start, text)] = encode_tree(tree)


_ACTIVE: list[TreeMemo] = []


def active_memo() -> TreeMemo | None:
    return _ACTIVE[-1] if _ACTIVE else None


@contextmanager
def remembering(memo: TreeMemo) -> Iterator[TreeMemo]:
    """Parse through `memo` inside the block."""
    _ACTIVE.append(memo)
    try:
        yield memo
    finally:
        _ACTIVE.pop()
