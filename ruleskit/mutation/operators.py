"""Generating mutants of a pack from its rule-language code and its TOML.

Each operator makes one small change of the kind an author's slip makes, at a
place the rule-language lexer finds (so comments and texts are never touched):

- numbers one more or one less (in code, and the numbers of the TOML data);
- comparisons flipped (`<` and `<=`, `>` and `>=`, `==` and `!=`);
- `and` and `or` swapped, `not` dropped, `true` and `false` swapped,
  `+` and `-` swapped (`+=` and `-=` too);
- statements of procedures, hooks and effects dropped, one line at a time;
- an action's `when`, `require`, `cost` or `limit` removed;
- a hook disabled (`when false`).

Only the pack's own folder is mutated (a variant's, not its base's).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import LarkError

from ..game import Game
from ..resources import grammar_path
from .edits import Edit, Mutant

_FLIPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
_SWAPS = {"and": "or", "or": "and", "true": "false", "false": "true", "+": "-", "-": "+", "+=": "-=", "-=": "+="}
_DROPPED_KEYS = ("when", "require", "cost", "limit")
_TOML_NUMBER = re.compile(r"(?<![\w.\-])(-?\d+)(?![\w.])")
_TOML_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# TOML keys whose strings are names, labels or texts, never rule-language code.
_TEXT_KEYS = {"name", "label", "message", "description", "deck", "title", "prompt", "type", "of", "owner", "visible",
              "stage", "below_min", "above_max", "nodes", "symbols", "start", "version", "reason", "next", "heuristic",
              "groups"}
_KEY_BEFORE = re.compile(r"([A-Za-z_][\w-]*)\s*=")
_HOOK = re.compile(r"^(hook\s+\w+\s+(?:on|modify)\s+\w+\([^)]*\))(\s+when\s+.*?)?(\s*(?:=|\{))")


@lru_cache(maxsize=1)
def _lexer() -> Lark:
    return Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr", lexer="basic",
                start=["module", "block", "expr"])


def _tokens(text: str) -> list[Token]:
    try:
        return list(_lexer().lex(text))
    except LarkError:
        return []


def pack_files(game: Game) -> list[Path]:
    """The .rk and .toml files of the pack's own folder that define rules (pack.toml aside)."""
    root = game.source.root
    names = game.source.manifest.files or sorted(p.name for p in root.iterdir() if p.suffix in (".rk", ".toml"))
    return [root / name for name in names if (root / name).is_file() and name != "pack.toml"]


def generate(game: Game) -> list[Mutant]:
    """Every mutant the operators make of the pack, in file and line order."""
    root = game.source.root
    found: list[Mutant] = []
    for path in pack_files(game):
        name = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".rk":
            found += _code_mutants(name, text, 0, text)
            found += _statement_drops(name, text)
            found += _hook_disables(name, text)
        else:
            found += _toml_mutants(name, text)
    return [Mutant(f"M{index + 1:04d}", m.description, m.edits, operator=m.operator, file=m.file, line=m.line)
            for index, m in enumerate(found)]


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _mutant(file: str, whole: str, offset: int, old: str, new: str, operator: str) -> Mutant:
    line = _line_of(whole, offset)
    shown = whole.splitlines()[line - 1].strip() if whole else old
    return Mutant("", f"{operator}: {old!r} -> {new!r} in `{shown[:100]}`", (Edit(file, old, new, offset),),
                  operator=operator, file=file, line=line)


def _code_mutants(file: str, whole: str, base: int, code: str) -> list[Mutant]:
    """Token-level mutants of rule-language `code`, found at offset `base` of the file text `whole`."""
    found = []
    for token in _tokens(code):
        value = str(token)
        at = base + (token.start_pos or 0)
        if token.type == "INT":
            number = int(value)
            found.append(_mutant(file, whole, at, value, str(number + 1), "number +1"))
            if number > 0:
                found.append(_mutant(file, whole, at, value, str(number - 1), "number -1"))
        elif token.type == "COMPARE" and value in _FLIPS:
            found.append(_mutant(file, whole, at, value, _FLIPS[value], "comparison flipped"))
        elif value in _SWAPS and token.type in ("AND", "OR", "TRUE", "FALSE", "ADDOP", "MINUS") or value in ("+=", "-="):
            if token.type == "MINUS" and _unary(code, token.start_pos or 0):
                continue
            found.append(_mutant(file, whole, at, value, _SWAPS[value], f"'{value}' swapped"))
        elif token.type == "NOT":
            end = (token.start_pos or 0) + len(value)
            spaces = len(code[end:]) - len(code[end:].lstrip(" "))
            found.append(_mutant(file, whole, at, code[token.start_pos or 0:end + spaces], "", "'not' dropped"))
    return found


def _unary(code: str, pos: int) -> bool:
    before = code[:pos].rstrip()
    return not before or before[-1] in "([,=<>!" or before.endswith(("and", "or", "not", "return", "then", "else"))


def _statement_drops(file: str, text: str) -> list[Mutant]:
    """Each single-line statement inside a block, dropped."""
    found = []
    depth = 0
    offset = 0
    for line in text.splitlines(keepends=True):
        code = line.split("#", 1)[0] if '"' not in line else line
        stripped = code.strip()
        if depth > 0 and stripped and "{" not in code and "}" not in code and not stripped.startswith(
                ("let ", "else", "elif", "return")) and not stripped.startswith("#"):
            found.append(Mutant("", f"statement dropped: `{stripped[:100]}`", (Edit(file, line, "", offset),),
                                operator="statement dropped", file=file, line=_line_of(text, offset)))
        depth += code.count("{") - code.count("}")
        offset += len(line)
    return found


def _hook_disables(file: str, text: str) -> list[Mutant]:
    found = []
    offset = 0
    for line in text.splitlines(keepends=True):
        match = _HOOK.match(line)
        if match:
            old = match.group(0)
            new = match.group(1) + " when false" + match.group(3)
            found.append(Mutant("", f"hook disabled: `{line.strip()[:100]}`", (Edit(file, old, new, offset),),
                                operator="hook disabled", file=file, line=_line_of(text, offset)))
        offset += len(line)
    return found


def _toml_mutants(file: str, text: str) -> list[Mutant]:
    """Mutants of a TOML file: its numbers, the rule-language text of its one-line strings, its action guards."""
    found: list[Mutant] = []
    offset = 0
    in_multiline = False
    section = ""
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if line.count('"""') % 2 == 1:
            in_multiline = not in_multiline
            offset += len(line)
            continue
        if in_multiline or stripped.startswith("#") or not stripped:
            offset += len(line)
            continue
        if stripped.startswith("["):
            section = stripped
            offset += len(line)
            continue
        if _is_check_or_look(section) or stripped.startswith(("label", "name =", "message")):
            offset += len(line)
            continue
        strings = [(m.start(1), m.end(1)) for m in _TOML_STRING.finditer(line)]
        comment = _comment_start(line, strings)
        for match in _TOML_NUMBER.finditer(line[:comment]):
            if any(start <= match.start() < end for start, end in strings):
                continue
            value = match.group(1)
            number = int(value)
            for new, operator in ((number + 1, "number +1"), (number - 1, "number -1")):
                found.append(_mutant(file, text, offset + match.start(1), value, str(new), operator))
        for start, end in strings:
            content = line[start:end]
            keys = _KEY_BEFORE.findall(line[:start])
            if "\\" in content or not _looks_like_code(content) or (keys and keys[-1] in _TEXT_KEYS):
                continue
            found += _code_mutants(file, text, offset + start, content)
        key = stripped.split("=", 1)[0].strip()
        if section.startswith("[actions.") and key in _DROPPED_KEYS and _balanced(stripped):
            found.append(Mutant("", f"{key} removed: `{stripped[:100]}`", (Edit(file, line, "", offset),),
                                operator=f"{key} removed", file=file, line=_line_of(text, offset)))
        offset += len(line)
    return found


def _is_check_or_look(section: str) -> bool:
    """Sections that state checks (invariants, properties) or looks (display, report), not rules of play."""
    parts = section.strip("[]").split(".")
    return any(part in ("display", "report", "invariants", "properties") for part in parts[:2])


def _comment_start(line: str, strings: list[tuple[int, int]]) -> int:
    for index, char in enumerate(line):
        if char == "#" and not any(start <= index < end for start, end in strings):
            return index
    return len(line)


def _looks_like_code(text: str) -> bool:
    """Whether a TOML string holds rule-language text worth mutating (not a plain name or label)."""
    return bool(re.search(r"[<>=!+\-()]|\band\b|\bor\b|\bnot\b|\d", text))


def _balanced(text: str) -> bool:
    return text.count("[") == text.count("]") and text.count("{") == text.count("}")
