"""Parsing rule-language text with the Lark grammar.

Parse errors become LanguageErrors that carry the file, line and column, with
the offending line and a caret under the error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import TYPE_CHECKING

import attrs

from ..cache import default_cache
from ..errors import LanguageError
from ..limits import MAX_PACK_TOKENS
from ..resources import grammar_path

if TYPE_CHECKING:  # lark is imported when something is parsed: a pack loaded from the cache parses nothing
    from lark import Lark, Token, Tree

MAX_SOURCE_CHARS = 200_000
MAX_NESTING = 60
MAX_TREE_DEPTH = 200
# Python compiles at most 20 blocks (loops, try) nested in one function; generated code adds a few of its own.
MAX_LOOP_NESTING = 12


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from .parsecache import build_parser

    return build_parser(grammar_text(), default_cache(), parser="lalr", start=["module", "block", "expr"],
                        propagate_positions=True)


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")


_FRIENDLY = {
    "RBRACE": "'}'", "LBRACE": "'{'", "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['",
    "NAME": "a name", "INT": "a number", "STRING": "a string", "COMMA": "','", "EQUAL": "'='",
    "DOT": "'.'", "$END": "end of text",
}


def _expected(names: set[str]) -> str:
    shown = sorted({_FRIENDLY.get(n) or _anonymous(n) or n.lower() for n in names})
    if len(shown) > 8:
        shown = shown[:8] + ["..."]
    return ", ".join(shown)


def _anonymous(name: str) -> str | None:
    """A terminal the grammar writes as a bare pattern (`"+="`), which Lark names `__ANON_N`: as written."""
    if not name.startswith("__ANON"):
        return None
    try:
        pattern = _parser().get_terminal(name).pattern.value
    except KeyError:
        return None
    return "'" + re.sub(r"\\(.)", r"\1", pattern) + "'"


@attrs.frozen
class Origin:
    """Where a piece of source text came from: its file and the line it starts on."""

    file: str
    line: int = 1
    column: int = 1
    flat: bool = False  # one line of the file, whatever escaped newlines the text holds

    def at(self, line: int | None, column: int | None = None) -> tuple[int | None, int | None]:
        if line is None:
            return self.line, None
        if self.flat:
            return self.line, (column or 1) + self.column - 1 if line == 1 else None
        real_line = self.line + line - 1
        real_column = (column or 1) + (self.column - 1 if line == 1 else 0)
        return real_line, real_column


def _check_nesting(text: str, origin: Origin) -> None:
    depth = 0
    line = 1
    for char in text:
        if char in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise LanguageError(f"nesting deeper than {MAX_NESTING} levels", file=origin.file,
                                    line=origin.line + line - 1)
        elif char in ")]}":
            depth -= 1
        elif char == "\n":
            line += 1


# What the lexer makes a token of, near enough to count them before parsing: a comment (not counted), a string, a
# name or number, or one other sign.
_TOKEN = re.compile(r'#[^\n]*|"(?:[^"\\\n]|\\.)*"|\w+|\S')


# What each text parsed costs besides its tokens: compiling a snippet takes about half a millisecond however short
# it is, and a pack of 100,000 one-word invariants took a minute to load.
TEXT_TOKENS = 25


@attrs.define
class TokenBudget:
    """The tokens parsed so far for one pack, against `MAX_PACK_TOKENS`."""

    used: int = 0

    def charge(self, text: str, origin: Origin) -> None:
        tokens = _TOKEN.findall(text)
        counted = self.used + TEXT_TOKENS
        self.used = counted + len(tokens) - sum(1 for token in tokens if token[0] == "#")
        if self.used <= MAX_PACK_TOKENS:
            return
        line: int | None = origin.line
        if counted <= MAX_PACK_TOKENS:
            for found in _TOKEN.finditer(text):  # the line of the token that passes the limit
                counted += found.group()[0] != "#"
                if counted > MAX_PACK_TOKENS:
                    line, _ = origin.at(text.count("\n", 0, found.start()) + 1)
                    break
        raise LanguageError(f"the pack's rule-language text is too long: more than {MAX_PACK_TOKENS:,} tokens "
                            "by here (the largest built-in pack has about 7,000)", file=origin.file, line=line,
                            hint="split the pack, or write long lists of data as items in TOML")


_BUDGET: ContextVar[TokenBudget | None] = ContextVar("ruleskit_token_budget", default=None)


@contextmanager
def token_budget() -> Iterator[TokenBudget]:
    """Count the tokens of every text parsed inside, for one pack: a text past the limit is refused before it is
    parsed, whether or not its tree is in the load cache."""
    budget = TokenBudget()
    reset = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(reset)


def parse(text: str, start: str, origin: Origin) -> Tree:
    """Parse `text` as a `module`, a `block` of statements, or an `expr`."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    from .parsecache import active_memo

    if len(text) > MAX_SOURCE_CHARS:
        raise LanguageError(f"source longer than {MAX_SOURCE_CHARS} characters", file=origin.file, line=origin.line)
    budget = _BUDGET.get()
    if budget is not None:
        budget.charge(text, origin)
    _check_nesting(text, origin)
    source = "{" + text + "\n}" if start == "block" else text
    shift = 1 if start == "block" else 0
    memo = active_memo()
    if memo is not None:
        found = memo.find(start, source)
        if found is not None:
            return found  # parsed (and its depth checked) when it was stored
    try:
        tree = _parser().parse(source, start=start)
    except UnexpectedInput as exc:
        line, column = origin.at(exc.line if exc.line and exc.line > 0 else None,
                                 (exc.column - shift if exc.line == 1 else exc.column) if exc.column and exc.column > 0 else None)
        if isinstance(exc, UnexpectedCharacters):
            message = f"unexpected character {text_at(source, exc.pos_in_stream)!r}"
        elif isinstance(exc, UnexpectedEOF):
            message = f"unexpected end of text; expected {_expected(set(exc.expected))}"
        elif isinstance(exc, UnexpectedToken):
            token = exc.token
            shown = "end of text" if token.type == "$END" else repr(str(token))
            message = f"unexpected {shown}; expected {_expected(set(exc.expected))}"
        else:  # pragma: no cover - lark has no other kinds today
            message = str(exc)
        try:
            context = exc.get_context(source, span=60)
        except Exception:  # noqa: BLE001 - context is a nicety only
            context = None
        raise LanguageError(message, file=origin.file, line=line, column=column, context=context) from None
    except RecursionError:
        raise LanguageError("source nested too deeply", file=origin.file, line=origin.line) from None
    _check_depth(tree, origin, shift)
    if memo is not None:
        memo.keep(start, source, tree)
    return tree


def _check_depth(tree: Tree, origin: Origin, shift: int) -> None:
    """Refuse trees so deep (a chain of thousands of `+`) that compiling or running them would overflow the
    stack, and `for` loops nested so deep that Python cannot compile the code made of them."""
    from lark import Tree

    stack: list[tuple[Tree, int, int]] = [(tree, 1, 0)]
    while stack:
        node, depth, loops = stack.pop()
        if depth > MAX_TREE_DEPTH:
            line, column = origin.at(*position(node))
            raise LanguageError(f"expression too long or too deeply nested (more than {MAX_TREE_DEPTH} levels)",
                                file=origin.file, line=line, column=column,
                                hint="split it with let, or add up a list with sum()")
        if node.data == "for_stmt":
            loops += 1
            if loops > MAX_LOOP_NESTING:
                line, column = origin.at(*position(node))
                raise LanguageError(f"for loops nested more than {MAX_LOOP_NESTING} deep", file=origin.file,
                                    line=line, column=column, hint="move the inner loops into a procedure")
        # Each `elif` is one level deeper than the one before: the generated code nests it in the last one's
        # `else`, and 3,000 of them overflowed the stack while making that code.
        branches = 0
        for child in node.children:
            if isinstance(child, Tree):
                branches += child.data == "elif_part"
                if depth + branches > MAX_TREE_DEPTH:
                    line, column = origin.at(*position(child))
                    raise LanguageError(f"too many elif branches in one if (more than {MAX_TREE_DEPTH} levels deep)",
                                        file=origin.file, line=line, column=column,
                                        hint="split the branches over procedures, or look the value up in a list")
                stack.append((child, depth + max(1, branches), loops))


def text_at(text: str, pos: int | None) -> str:
    if pos is None or pos >= len(text):
        return ""
    return text[pos]


def position(node: Tree | Token) -> tuple[int | None, int | None]:
    """Line and column of a node inside its own source text."""
    from lark import Token, Tree

    if isinstance(node, Token):
        return node.line, node.column
    meta = node.meta
    if getattr(meta, "empty", True):
        for child in node.children:
            if isinstance(child, Tree | Token):
                line, column = position(child)
                if line is not None:
                    return line, column
        return None, None
    return meta.line, meta.column
