"""Static scopes and types of the rule language (the compiled Program lives in runtime/program.py).

Types are strings: "int", "bool", "str", "none", "player", a kind's name,
"list:T", "zone:KIND" and "any" when only the run time can tell.
"""

from __future__ import annotations

from typing import Any

from ..runtime.program import Fn, Program

__all__ = ["ANY", "Fn", "Program", "Scope", "element_type", "type_of"]

ANY = "any"


class Scope:
    """Static names visible at a point of a program, with their types."""

    def __init__(self, names: dict[str, str] | None = None, parent: Scope | None = None) -> None:
        self.names = dict(names or {})
        self.parent = parent

    def lookup(self, name: str) -> str | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def all_names(self) -> list[str]:
        names: list[str] = []
        scope: Scope | None = self
        while scope is not None:
            names.extend(scope.names)
            scope = scope.parent
        return names

    def child(self) -> Scope:
        return Scope(parent=self)


def type_of(declared: str) -> str:
    if declared.startswith("list[") and declared.endswith("]"):
        return f"list:{declared[5:-1]}"
    if declared == "list":
        return "list:any"
    return declared


def element_type(type_name: str) -> str:
    if type_name.startswith("list:") or type_name.startswith("zone:"):
        return type_name[5:] or ANY
    return ANY


def joined_type(left: str, right: str) -> str:
    """The type of two lists joined (`a + b`): a list of the one type both sides' elements have (a side of nones
    takes the other's), else a list of any. The left side's type alone was wrong for `players + [c1]`, whose
    options an action's parameter then took for players only."""
    elements = {element_type(side) for side in (left, right)}
    if len(elements) > 1:
        elements.discard("none")
    return f"list:{elements.pop()}" if len(elements) == 1 else f"list:{ANY}"


def types_agree(declared: str, given: str) -> bool:
    """Whether a value of type `given` may stand where `declared` is expected ("any" agrees with all)."""
    if declared == ANY or given == ANY or declared == given:
        return True
    if declared.startswith("list:") and given.startswith(("list:", "zone:")):
        return types_agree(declared[5:], given[5:])
    return False


def written_type(type_name: str) -> str:
    """A type as a pack author writes it: `list[player]` rather than the compiler's `list:player`."""
    if type_name.startswith("list:"):
        return f"list[{written_type(type_name[5:])}]"
    if type_name.startswith("zone:"):
        return f"zone of {type_name[5:]}"
    return type_name


def may_take(kinds: Any, declared: str, given: str) -> bool:
    """Whether a parameter declared `declared` (the compiler's form) may take some value of the static type
    `given`."""
    if given in (ANY, "none") or types_agree(declared, given):
        return True
    if declared.startswith("list:"):
        return given.startswith(("list:", "zone:"))  # the elements are the run time's to tell
    return may_hold(kinds, declared, given)


def may_hold(kinds: Any, declared: str, given: str) -> bool:
    """Whether a var declared `declared` (as a pack writes it) may hold some value of the static type `given`:
    false only where the write's own check refuses every such value."""
    if given in (ANY, "none") or declared in (ANY, given):
        return True
    scalar = given in ("int", "bool", "str", "player") or given in kinds
    if declared == "int" or declared == "player":
        return given in ("int", "player")  # a seat is a number
    if declared == "bool":
        return False
    if declared == "str":
        return given == "str" or given in kinds  # an item is written as its id
    if declared in kinds:
        return given == "str"  # a text may be the id of one of its items
    if declared == "list" or declared.startswith("list["):
        return not scalar
    return True
