"""Rule-language definitions as written in `.rk` files: rules, procedures and hooks.

`read_module` parses a file into Definition records (and the names a variant
removes); the compiler turns them into callables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from ..textlines import file_lines
from .parser import Origin, parse, position

if TYPE_CHECKING:  # lark is imported when something is parsed (lang/parser.py)
    from lark import Tree

ANY = "any"


@attrs.define
class Definition:
    """A rule, procedure or hook as written in a .rk file."""

    kind: str  # "rule", "proc", "on", "modify"
    name: str
    params: list[tuple[str, str]]
    body: Tree
    origin: Origin
    target: str = ""  # the event or rule a hook attaches to
    when: Tree | None = None
    line: int | None = None
    replace: bool = False
    pack: str = ""
    text: str = ""
    result: str | None = None  # a rule's declared result type, as written (`rule r(): player = ...`)

    @property
    def location(self) -> str:
        return f"{self.origin.file}:{self.line}" if self.line else self.origin.file


def read_module(text: str, origin: Origin, pack: str = "") -> tuple[list[Definition], list[tuple[str, str, int | None]]]:
    """Parse a .rk file into definitions and removals (kind, name, line)."""
    tree = parse(text, "module", origin)
    definitions: list[Definition] = []
    removals: list[tuple[str, str, int | None]] = []
    lines = file_lines(text)
    for node in tree.children:
        replace = False
        if node.data == "remove_def":
            kind_token, name_token = node.children
            line, _ = origin.at(getattr(name_token, "line", None))
            removals.append((str(kind_token), str(name_token), line))
            continue
        if node.data == "replace_def":
            replace = True
            node = node.children[0]
        definition = _definition(node, origin)
        definition.replace = replace
        definition.pack = pack
        start, _ = position(node)
        end = getattr(node.meta, "end_line", start)
        if start is not None:
            definition.text = "\n".join(lines[start - 1:end])
        definitions.append(definition)
    return definitions, removals


def _params(node: Tree | None) -> list[tuple[str, str]]:
    if node is None:
        return []
    result = []
    for param in node.children:
        name, type_node = param.children
        result.append((str(name), _type_name(type_node) if type_node is not None else ANY))
    return result


def _type_name(node: Tree) -> str:
    """A written type as text: `player`, `card`, `list[player]`."""
    outer, inner = node.children
    return f"{outer}[{inner}]" if inner is not None else str(outer)


def _definition(node: Tree, origin: Origin) -> Definition:
    line, _ = origin.at(position(node)[0])
    kind = node.data
    children = node.children
    if kind == "rule_def":
        name, params, result, body = children
        return Definition("rule", str(name), _params(params), body, origin, line=line,
                          result=_type_name(result) if result is not None else None)
    if kind == "proc_def":
        name, params, body = children
        return Definition("proc", str(name), _params(params), body, origin, line=line)
    if kind == "hook_on":
        name, event, params, when, body = children
        return Definition("on", str(name), _params(params), body, origin, target=str(event),
                          when=when.children[0] if when is not None else None, line=line)
    name, rule, params, when, body = children
    return Definition("modify", str(name), _params(params), body, origin, target=str(rule),
                      when=when.children[0] if when is not None else None, line=line)
