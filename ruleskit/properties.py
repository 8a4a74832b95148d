"""A pack's `[properties]`: compiled once, and installed where they are checked.

A property is a rule-language condition checked only by `ruleskit test` (see
docs/TESTING.md). `after = "ACTION"`, `"hook NAME"` or `"proc NAME"` checks it
when that action, hook or procedure ends, with its parameters and `me` in
scope and `old(EXPR)` reading the data as it began; `at = "decision"` checks
it after every decision (`old(...)`: the data before the decision; `over`:
whether the game has ended); `at = "end"` once when a game ends (`reason`,
`winners`, `scores`).

Hooks and procedures that have properties, or whose own `ensure`s read
`old(...)`, are wrapped so that they keep a snapshot of the data as they begin;
the wrapper costs one test when properties are not checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import PackError, did_you_mean
from .lang.ensure import EnsureCompiler
from .lang.parser import Origin
from .lang.scope import Program, Scope, type_of
from .model import located
from .runtime.checks import Check, checked_definition
from .schema import PropertyDef, Source

if TYPE_CHECKING:
    from .game import CompiledAction

_AT = {"decision": {"over": "bool"}, "end": {"reason": "str", "winners": "list:player", "scores": "list:int"}}


def install_properties(compiler: EnsureCompiler, program: Program, actions: dict[str, CompiledAction],
                       defs: dict[str, PropertyDef],
                       origin_of: Callable[[Source | None, tuple[str, ...]], Origin],
                       install: bool = True) -> dict[str, list[Check]]:
    """Compile `defs`, attach them to the actions, hooks and procedures they follow, and wrap the hooks
    and procedures that need a snapshot. Returns the checks over the game: {"decision": [...], "end": [...]}.

    With `install=False` the properties are compiled for their errors only, and nothing is attached or
    wrapped: a game that never checks them runs exactly the same code without them."""
    compiler.discard_code = not install  # checked for errors only: no code to make
    try:
        over_game, after = _compile_properties(compiler, actions, defs, origin_of)
    finally:
        compiler.discard_code = False
    if not install:
        return {"decision": [], "end": []}
    for action in actions.values():
        action.checks = after.get(f"action {action.name}", [])
    for proc_name, definition in compiler.proc_defs.items():
        key = f"proc {proc_name}"
        if key in after or key in compiler.old_users:
            program.procs[proc_name] = checked_definition(
                program.procs[proc_name], after.get(key, []), [p for p, _ in definition.params], None)
            compiler.procedure_replaced(proc_name, program.procs[proc_name])
    _wrap_hooks(compiler, program, after)
    return over_game


def _compile_properties(compiler: EnsureCompiler, actions: dict[str, CompiledAction], defs: dict[str, PropertyDef],
                        origin_of: Callable[[Source | None, tuple[str, ...]], Origin],
                        ) -> tuple[dict[str, list[Check]], dict[str, list[Check]]]:
    """The checks over the game ({"decision": [...], "end": [...]}) and those after each action, hook
    and procedure (by "action NAME", "hook NAME", "proc NAME")."""
    over_game: dict[str, list[Check]] = {"decision": [], "end": []}
    after: dict[str, list[Check]] = {}
    hooks = {d.name: d for d in compiler.hook_defs}
    for name, prop in sorted(defs.items()):
        what = f"property {name}"
        if (prop.after is None) == (prop.at is None):
            raise located(prop.source, f"property '{name}' needs either `after` (an action, \"hook NAME\" or "
                                       f"\"proc NAME\") or `at` (\"decision\" or \"end\"), not both or neither")
        if not isinstance(prop.check, str):
            raise located(prop.source, f"property '{name}': check should be an expression (a string)")
        origin = origin_of(prop.source, ("check",))
        if prop.at is not None:
            if prop.at not in _AT:
                raise located(prop.source, f"property '{name}': at is \"decision\" or \"end\", not {prop.at!r}",
                              did_you_mean(str(prop.at), _AT))
            over_game[prop.at].append(compiler.compile_property(
                prop.check, origin, dict(_AT[prop.at]), what, what, prop.message, old=prop.at == "decision"))
            continue
        target, names = _target(compiler, actions, hooks, prop, name)
        after.setdefault(target, []).append(
            compiler.compile_property(prop.check, origin, names, what, what, prop.message, old=True))
    return over_game, after


def _target(compiler: EnsureCompiler, actions: dict[str, CompiledAction], hooks: dict[str, Any],
            prop: PropertyDef, name: str) -> tuple[str, dict[str, str]]:
    """What a property follows ("action X", "hook X", "proc X") and the names its check may use."""
    text = str(prop.after).strip()
    kind, _, rest = text.partition(" ")
    rest = rest.strip()
    if kind == "hook" and rest:
        hook = hooks.get(rest)
        if hook is None or hook.kind != "on":
            known = [h for h, d in hooks.items() if d.kind == "on"]
            raise located(prop.source, f"property '{name}' follows unknown hook '{rest}' (an `on` hook)",
                          did_you_mean(rest, known))
        return f"hook {rest}", {n: type_of(t) for n, t in hook.params}
    if kind == "proc" and rest:
        proc = compiler.proc_defs.get(rest)
        if proc is None:
            raise located(prop.source, f"property '{name}' follows unknown procedure '{rest}'",
                          did_you_mean(rest, compiler.proc_defs))
        return f"proc {rest}", {n: type_of(t) for n, t in proc.params}
    action = actions.get(text)
    if action is None:
        raise located(prop.source, f"property '{name}' follows unknown action '{text}' (write \"hook NAME\" or "
                                   "\"proc NAME\" for a hook or a procedure)", did_you_mean(text, actions))
    return f"action {text}", {p.name: p.type for p in action.params}


def _wrap_hooks(compiler: EnsureCompiler, program: Program, after: dict[str, list[Check]]) -> None:
    """Wrap each `on` hook that has properties or reads old(...); hooks are listed per event in order."""
    position: dict[str, int] = {}
    for definition in compiler.hook_defs:
        if definition.kind != "on":
            continue
        index = position.get(definition.target, 0)
        position[definition.target] = index + 1
        key = f"hook {definition.name}"
        if key not in after and key not in compiler.old_users:
            continue
        names = [p for p, _ in definition.params]
        when = None
        if definition.when is not None:
            compiler.origin, compiler.current = definition.origin, key
            when = compiler.compile_expr(definition.when, Scope({n: type_of(t) for n, t in definition.params}))[0]
        hooks = program.hooks[definition.target]
        if len(hooks) <= index:  # pragma: no cover - every `on` hook is compiled into its event's list
            raise PackError(f"hook '{definition.name}' was not compiled")
        hooks[index] = checked_definition(hooks[index], after.get(key, []), names, when)
