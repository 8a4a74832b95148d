"""Checking and compiling rule-language trees into Python closures.

Each expression compiles to `fn(ctx) -> value` and each statement to
`fn(ctx) -> None`. Names, fields, arities and simple types are checked while
compiling, against the pack's model, so a pack that compiles cannot meet an
unknown name at run time. Nothing here hands user text to `eval` or `exec`:
the closures reach only the game data and the builtins in `builtins.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import attrs
from lark import Token, Tree

from ..errors import IllegalAction, LanguageError, ProgramError, RuleViolation, did_you_mean
from ..model import RESERVED, Model, ZoneRef, edge_key
from ..runtime import rng
from ..runtime import zones as zone_ops
from ..runtime.context import Ctx, GameOver, Return, Suspend
from . import builtins
from .parser import Origin, parse, position
from .values import as_list, checked_int, label_of, option_id

Fn = Callable[[Ctx], Any]
ANY = "any"
BUILTIN_EVENTS = {"game_start": 0, "turn_start": 1, "turn_end": 1, "round_end": 0}
MAX_SUBSET = 12
MAX_ORDER = 6
MAX_NUMBER_OPTIONS = 1000
MAX_LIST = 100_000


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

    @property
    def location(self) -> str:
        return f"{self.origin.file}:{self.line}" if self.line else self.origin.file


def read_module(text: str, origin: Origin, pack: str = "") -> tuple[list[Definition], list[tuple[str, str, int | None]]]:
    """Parse a .rk file into definitions and removals (kind, name, line)."""
    tree = parse(text, "module", origin)
    definitions: list[Definition] = []
    removals: list[tuple[str, str, int | None]] = []
    lines = text.splitlines()
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
        name, type_token = param.children
        result.append((str(name), str(type_token) if type_token is not None else ANY))
    return result


def _definition(node: Tree, origin: Origin) -> Definition:
    line, _ = origin.at(position(node)[0])
    kind = node.data
    children = node.children
    if kind == "rule_def":
        name, params, body = children
        return Definition("rule", str(name), _params(params), body, origin, line=line)
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


@attrs.define
class Program:
    """The compiled logic of a pack, called by the runtime."""

    model: Model
    rules: dict[str, Callable[[Ctx, list[Any]], Any]] = attrs.Factory(dict)
    procs: dict[str, Callable[[Ctx, list[Any]], None]] = attrs.Factory(dict)
    hooks: dict[str, list[Callable[[Ctx, list[Any]], None]]] = attrs.Factory(dict)
    capacities: dict[str, Fn] = attrs.Factory(dict)
    stages: set[str] = attrs.Factory(set)

    def emit(self, ctx: Ctx, event: str, args: list[Any]) -> None:
        for hook in self.hooks.get(event, ()):
            hook(ctx, args)


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


class Compiler:
    """Compiles a pack's definitions against its model into a Program."""

    def __init__(self, model: Model, definitions: list[Definition], stages: set[str]) -> None:
        self.model = model
        self.program = Program(model, stages=set(stages))
        self.rule_defs = {d.name: d for d in definitions if d.kind == "rule"}
        self.proc_defs = {d.name: d for d in definitions if d.kind == "proc"}
        self.hook_defs = [d for d in definitions if d.kind in ("on", "modify")]
        self.event_arity: dict[str, tuple[int, str]] = {k: (v, "built-in") for k, v in BUILTIN_EVENTS.items()}
        self.origin = Origin("<pack>")
        self.calls: dict[str, set[str]] = {}
        self.current = ""
        self.last_type = ANY

    # ------------------------------------------------------------- entry points

    def compile_all(self) -> Program:
        for definition in self.rule_defs.values():
            if definition.name in self.proc_defs:
                raise self.error(definition.body, f"'{definition.name}' is defined both as a rule and a procedure",
                                 origin=definition.origin)
        for definition in list(self.rule_defs.values()) + list(self.proc_defs.values()) + self.hook_defs:
            self._check_params(definition)
        for definition in self.hook_defs:
            if definition.kind == "on":
                self._note_event(definition.target, len(definition.params), definition.origin, definition.body)
        for definition in self.rule_defs.values():
            self._compile_rule(definition)
        for definition in self.proc_defs.values():
            self._compile_proc(definition)
        for definition in self.hook_defs:
            self._compile_hook(definition)
        self._check_recursion()
        return self.program

    def expr(self, text: str | int | bool, origin: Origin, names: dict[str, str] | None = None,
             what: str = "expression") -> Fn:
        """Compile an expression written inline in TOML."""
        if isinstance(text, bool | int):
            value = text
            self.last_type = "bool" if isinstance(text, bool) else "int"
            return lambda ctx: value
        self.origin = origin
        self.current = what
        tree = parse(text, "expr", origin)
        fn, self.last_type = self.compile_expr(tree, Scope(names))
        self._note_calls(what)
        return fn

    def block(self, text: str, origin: Origin, names: dict[str, str] | None = None, what: str = "effect") -> Fn:
        """Compile a block of statements written inline in TOML."""
        self.origin = origin
        self.current = what
        if not text.strip():
            return lambda ctx: None
        tree = parse(text, "block", origin)
        body = self.compile_block(tree, Scope(names))
        self._note_calls(what)

        def run(ctx: Ctx) -> None:
            try:
                body(ctx)
            except Return:  # `return` ends an inline effect early, as it ends a procedure
                pass

        return run

    # ------------------------------------------------------------- errors

    def error(self, node: Tree | Token | None, message: str, hint: str | None = None,
              origin: Origin | None = None) -> LanguageError:
        origin = origin or self.origin
        line, column = position(node) if node is not None else (None, None)
        real_line, real_column = origin.at(line, column)
        return LanguageError(message, file=origin.file, line=real_line, column=real_column, hint=hint)

    def where(self, node: Tree | Token) -> str:
        line, _ = position(node)
        real_line, _ = self.origin.at(line)
        return f"{self.current} ({self.origin.file}:{real_line})"

    # ------------------------------------------------------------- definitions

    def _note_event(self, event: str, arity: int, origin: Origin, node: Tree | Token) -> None:
        known = self.event_arity.get(event)
        if known is None:
            self.event_arity[event] = (arity, f"{origin.file}")
        elif known[0] != arity:
            raise self.error(node, f"event '{event}' takes {known[0]} argument(s) ({known[1]}), not {arity}",
                             origin=origin)

    def _compile_rule(self, definition: Definition) -> None:
        self.origin, self.current = definition.origin, f"rule {definition.name}"
        scope = Scope({n: _type_of(t) for n, t in definition.params})
        body, _ = self.compile_expr(definition.body, scope)
        self._note_calls(f"rule:{definition.name}")
        names = [p for p, _ in definition.params]
        modifiers: list[tuple[Fn | None, Fn, list[str]]] = []
        where = f"rule {definition.name} ({definition.location})"

        def call(ctx: Ctx, args: list[Any]) -> Any:
            ctx.enter(where)
            saved = ctx.env
            ctx.env = dict(zip(names, args, strict=True))
            try:
                value = body(ctx)
                for when, expr, mod_names in modifiers:
                    ctx.env = dict(zip(mod_names, args, strict=True))
                    ctx.env["base"] = value
                    if when is None or when(ctx):
                        value = expr(ctx)
                return value
            finally:
                ctx.env = saved
                ctx.leave()

        call.modifiers = modifiers  # type: ignore[attr-defined]
        self.program.rules[definition.name] = call

    def _compile_proc(self, definition: Definition) -> None:
        self.origin, self.current = definition.origin, f"proc {definition.name}"
        body = self.compile_block(definition.body, Scope({n: _type_of(t) for n, t in definition.params}))
        self._note_calls(f"proc:{definition.name}")
        names = [p for p, _ in definition.params]
        where = f"proc {definition.name} ({definition.location})"

        def call(ctx: Ctx, args: list[Any]) -> None:
            ctx.enter(where)
            saved = ctx.env
            ctx.env = dict(zip(names, args, strict=True))
            try:
                body(ctx)
            except Return:
                pass
            finally:
                ctx.env = saved
                ctx.leave()

        self.program.procs[definition.name] = call

    def _compile_hook(self, definition: Definition) -> None:
        self.origin, self.current = definition.origin, f"hook {definition.name}"
        names = [p for p, _ in definition.params]
        if definition.kind == "modify":
            rule = self.rule_defs.get(definition.target)
            if rule is None:
                raise self.error(definition.body, f"hook '{definition.name}' modifies unknown rule '{definition.target}'",
                                 did_you_mean(definition.target, self.rule_defs))
            if len(rule.params) != len(definition.params):
                raise self.error(definition.body, f"hook '{definition.name}' gives rule '{rule.name}' "
                                 f"{len(definition.params)} parameter(s); it takes {len(rule.params)}")
            scope = Scope({n: _type_of(t) for n, t in definition.params})
            scope.names["base"] = ANY
            when = self.compile_expr(definition.when, scope)[0] if definition.when is not None else None
            expr, _ = self.compile_expr(definition.body, scope)
            self._note_calls(f"hook:{definition.name}")
            self.calls.setdefault(f"rule:{rule.name}", set()).add(f"hook:{definition.name}")
            self.program.rules[rule.name].modifiers.append((when, expr, names))  # type: ignore[attr-defined]
            return
        scope = Scope({n: _type_of(t) for n, t in definition.params})
        when = self.compile_expr(definition.when, scope)[0] if definition.when is not None else None
        body = self.compile_block(definition.body, scope)
        self._note_calls(f"hook:{definition.name}")
        self.calls.setdefault(f"event:{definition.target}", set()).add(f"hook:{definition.name}")
        where = f"hook {definition.name} ({definition.location})"

        def run(ctx: Ctx, args: list[Any]) -> None:
            ctx.enter(where)
            saved = ctx.env
            ctx.env = dict(zip(names, args, strict=True))
            try:
                if when is None or when(ctx):
                    body(ctx)
            except Return:
                pass
            finally:
                ctx.env = saved
                ctx.leave()

        self.program.hooks.setdefault(definition.target, []).append(run)

    # calls made by the definition being compiled, for the recursion check
    _pending_calls: set[str]

    def _call(self, target: str) -> None:
        if not hasattr(self, "_pending_calls"):
            self._pending_calls = set()
        self._pending_calls.add(target)

    def _note_calls(self, owner: str) -> None:
        self.calls.setdefault(owner, set()).update(getattr(self, "_pending_calls", set()))
        self._pending_calls = set()

    def _check_recursion(self) -> None:
        state: dict[str, int] = {}

        def visit(node: str, path: list[str]) -> None:
            state[node] = 1
            for target in sorted(self.calls.get(node, ())):
                if state.get(target) == 1:
                    cycle = path[path.index(target):] + [target] if target in path else [node, target]
                    raise self._cycle_error(cycle)
                if state.get(target) is None:
                    visit(target, path + [target])
            state[node] = 2

        for node in sorted(self.calls):
            if state.get(node) is None:
                visit(node, [node])

    def _check_params(self, definition: Definition) -> None:
        seen: set[str] = set()
        for name, type_name in definition.params:
            where = LanguageError("", file=definition.origin.file, line=definition.line)
            if name in seen:
                raise LanguageError(f"parameter '{name}' is listed twice in {definition.name}",
                                    file=where.file, line=where.line)
            seen.add(name)
            if name in RESERVED or name in _SPECIALS:
                raise LanguageError(f"'{name}' is a reserved word and cannot name a parameter of {definition.name}",
                                    file=where.file, line=where.line)
            inner = type_name[5:-1] if type_name.startswith("list[") and type_name.endswith("]") else type_name
            if type_name != ANY and inner not in ("int", "bool", "str", "player", "list", ANY) \
                    and inner not in self.model.kinds:
                raise LanguageError(f"parameter '{name}' of {definition.name} has unknown type '{type_name}'",
                                    file=where.file, line=where.line,
                                    hint=did_you_mean(inner, ["int", "bool", "str", "player"] + list(self.model.kinds)))

    def _cycle_error(self, cycle: list[str]) -> LanguageError:
        first = cycle[0]
        kind, _, name = first.partition(":")
        definition: Definition | None = None
        if kind == "rule":
            definition = self.rule_defs.get(name)
        elif kind == "proc":
            definition = self.proc_defs.get(name)
        elif kind == "hook":
            definition = next((d for d in self.hook_defs if d.name == name), None)
        shown = " -> ".join(cycle)
        message = f"recursion is not allowed: {shown}"
        if definition is None:  # the cycle starts at an event: point at the first definition in it
            for step in cycle:
                step_kind, _, step_name = step.partition(":")
                candidates = {"rule": self.rule_defs, "proc": self.proc_defs,
                              "hook": {d.name: d for d in self.hook_defs}}.get(step_kind, {})
                definition = candidates.get(step_name)
                if definition is not None:
                    break
        if definition is not None:
            return LanguageError(message, file=definition.origin.file, line=definition.line,
                                 hint="loop over a finite list instead")
        return LanguageError(message, hint="loop over a finite list instead")

    # ------------------------------------------------------------- expressions

    def compile_expr(self, node: Tree | Token, scope: Scope) -> tuple[Fn, str]:
        if isinstance(node, Token):  # pragma: no cover - grammar wraps tokens
            raise self.error(node, f"unexpected {node!r}")
        method = getattr(self, f"e_{node.data}", None)
        if method is None:
            raise self.error(node, f"'{node.data}' cannot be used as a value here")
        return method(node, scope)

    def e_int_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        value = int(str(node.children[0]))
        if value > 2**53:
            raise self.error(node, "number too large")
        return (lambda ctx: value), "int"

    def e_str_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        value = _unquote(str(node.children[0]))
        return (lambda ctx: value), "str"

    def e_true_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        return (lambda ctx: True), "bool"

    def e_false_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        return (lambda ctx: False), "bool"

    def e_none_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        return (lambda ctx: None), "none"

    def e_name(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        name = str(node.children[0])
        return self.resolve_name(name, node, scope)

    def resolve_name(self, name: str, node: Tree | Token, scope: Scope) -> tuple[Fn, str]:
        model = self.model
        local = scope.lookup(name)
        if local is not None:
            where = self.where(node)

            def read_local(ctx: Ctx) -> Any:
                try:
                    return ctx.env[name]
                except KeyError:
                    raise ProgramError(f"'{name}' has no value yet in {where}") from None

            return read_local, local
        special = _SPECIALS.get(name)
        if special is not None:
            return special
        if name in model.game_vars:
            var_type = model.game_vars[name].type
            return (lambda ctx: ctx.data["v"][name]), _type_of(var_type)
        if name in model.zones and model.zones[name].owner == "game":
            ref = ZoneRef(name)
            return (lambda ctx: ref), f"zone:{model.zones[name].of}"
        if name in self.rule_defs:
            definition = self.rule_defs[name]
            if definition.params:
                raise self.error(node, f"rule '{name}' takes {len(definition.params)} argument(s); call it as {name}(...)")
            self._call(f"rule:{name}")
            rules = self.program.rules
            return (lambda ctx: rules[name](ctx, [])), ANY
        if name in model.item_kind:
            kind = model.item_kind[name]
            return (lambda ctx: name), kind
        if name in model.kinds:
            per_player = model.kinds[name].per_player
            if per_player:
                return (lambda ctx: model.items_of(name, ctx.data["n"])), f"list:{name}"
            items = model.items_of(name)
            return (lambda ctx: list(items)), f"list:{name}"
        if name in model.player_vars or (name in model.zones and model.zones[name].owner == "player"):
            raise self.error(node, f"'{name}' belongs to each player; write me.{name} or p.{name}")
        candidates = (scope.all_names() + list(_SPECIALS) + list(model.game_vars) + list(model.zones)
                      + list(self.rule_defs) + list(model.item_kind) + list(model.kinds))
        raise self.error(node, f"unknown name '{name}'", did_you_mean(name, candidates))

    def e_field(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        base_node, field_token = node.children
        field = str(field_token)
        base, base_type = self.compile_expr(base_node, scope)
        reader, result_type = self.field_reader(base_type, field, field_token)
        where = self.where(node)

        def read(ctx: Ctx) -> Any:
            value = base(ctx)
            if value is None:
                raise ProgramError(f"cannot read '.{field}' of none in {where}")
            return reader(ctx, value)

        return read, result_type

    def field_reader(self, base_type: str, field: str, node: Tree | Token) -> tuple[Callable[[Ctx, Any], Any], str]:
        model = self.model
        if field.startswith("_"):
            raise self.error(node, f"unknown field '{field}'")
        if base_type == "player":
            return self._player_field(field, node)
        if base_type in model.kinds:
            return self._item_field(base_type, field, node)
        if base_type.startswith("zone:"):
            raise self.error(node, f"a zone has no field '{field}'; use count(...), free(...) or items(...)")
        if base_type in ("int", "bool", "str", "none") or base_type.startswith("list:"):
            raise self.error(node, f"a value of type {base_type} has no field '{field}'")
        # Unknown static type: the field must exist somewhere, and is found at run time.
        known = self._all_fields()
        if field not in known:
            raise self.error(node, f"unknown field '{field}'", did_you_mean(field, known))
        readers: dict[str, Callable[[Ctx, Any], Any]] = {}
        player_reader = None
        if field in model.player_vars or field in model.zones or field in model.kinds or field in ("index", "name"):
            try:
                player_reader = self._player_field(field, node)[0]
            except LanguageError:
                player_reader = None
        for kind in model.kinds:
            if field in model.kinds[kind].fields or field in model.kinds[kind].vars or field in ("id", "name", "owner"):
                readers[kind] = self._item_field(kind, field, node)[0]
        where = self.where(node)

        def read(ctx: Ctx, value: Any) -> Any:
            if isinstance(value, bool):
                raise ProgramError(f"a truth value has no field '{field}' in {where}")
            if isinstance(value, int):
                if player_reader is None:
                    raise ProgramError(f"a player has no field '{field}' in {where}")
                return player_reader(ctx, value)
            if isinstance(value, str):
                kind = model.item_kind.get(value)
                reader = readers.get(kind) if kind else None
                if reader is None:
                    raise ProgramError(f"'{value}' has no field '{field}' in {where}")
                return reader(ctx, value)
            raise ProgramError(f"{label_of(model, value)} has no field '{field}' in {where}")

        return read, ANY

    def _all_fields(self) -> list[str]:
        model = self.model
        names = set(model.player_vars) | set(model.zones) | {"index", "name", "id", "owner"}
        names |= set(model.per_player_kinds())
        for kind in model.kinds.values():
            names |= set(kind.fields) | set(kind.vars)
        return sorted(names)

    def _player_field(self, field: str, node: Tree | Token) -> tuple[Callable[[Ctx, Any], Any], str]:
        model = self.model
        if field in model.player_vars:
            return (lambda ctx, p: ctx.data["pv"][p][field]), _type_of(model.player_vars[field].type)
        if field in model.zones and model.zones[field].owner == "player":
            return (lambda ctx, p: ZoneRef(field, p)), f"zone:{model.zones[field].of}"
        if field in model.kinds and model.kinds[field].per_player:
            return (lambda ctx, p: f"{field}_{p}"), field
        if field == "index":
            return (lambda ctx, p: p), "int"
        if field == "name":
            return (lambda ctx, p: f"Player {p + 1}"), "str"
        candidates = list(model.player_vars) + [z for z, d in model.zones.items() if d.owner == "player"]
        candidates += model.per_player_kinds() + ["index", "name"]
        raise self.error(node, f"players have no field '{field}'", did_you_mean(field, candidates))

    def _item_field(self, kind: str, field: str, node: Tree | Token) -> tuple[Callable[[Ctx, Any], Any], str]:
        model = self.model
        definition = model.kinds[kind]
        item_data = model.item_data
        if field in definition.vars:
            return (lambda ctx, i: ctx.data["ev"][i][field]), _type_of(definition.vars[field].type)
        if field in definition.fields or field in ("id", "name"):
            ftype = definition.fields.get(field, "str")
            return (lambda ctx, i: item_data[i][field]), _type_of(ftype)
        if field == "owner":
            return (lambda ctx, i: item_data[i]["owner"]), "player"
        candidates = list(definition.fields) + list(definition.vars) + ["id", "name", "owner"]
        raise self.error(node, f"kind '{kind}' has no field '{field}'", did_you_mean(field, candidates))

    def e_index(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        base, base_type = self.compile_expr(node.children[0], scope)
        index, _ = self.compile_expr(node.children[1], scope)
        where = self.where(node)
        model = self.model
        element = base_type[5:] if base_type.startswith("list:") else (
            base_type[5:] if base_type.startswith("zone:") and base_type[5:] else ANY)

        def read(ctx: Ctx) -> Any:
            value = base(ctx)
            i = index(ctx)
            if isinstance(value, ZoneRef):
                if model.zones[value.name].type == "pool":
                    raise ProgramError(f"a pool cannot be indexed in {where}")
                value = ctx.data["z"][value.key]
            if not isinstance(value, list):
                raise ProgramError(f"only lists and zones can be indexed in {where}")
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(value):
                raise ProgramError(f"index {i!r} out of range 0..{len(value) - 1} in {where}")
            return value[i]

        return read, element or ANY

    def e_call(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        name_token, args_node = node.children
        name = str(name_token)
        arg_nodes = args_node.children if args_node is not None else []
        compiled = [self.compile_expr(a, scope) for a in arg_nodes]
        fns = [f for f, _ in compiled]
        types = [t for _, t in compiled]
        if name in self.rule_defs:
            definition = self.rule_defs[name]
            if len(fns) != len(definition.params):
                raise self.error(node, f"rule '{name}' takes {len(definition.params)} argument(s), not {len(fns)}")
            self._call(f"rule:{name}")
            rules = self.program.rules
            return (lambda ctx: rules[name](ctx, [f(ctx) for f in fns])), ANY
        if name in self.proc_defs:
            raise self.error(node, f"procedure '{name}' has effects and gives no value; call it as a statement")
        spec = builtins.BUILTINS.get(name)
        if spec is None:
            candidates = list(builtins.BUILTINS) + list(self.rule_defs)
            raise self.error(node, f"unknown function '{name}'", did_you_mean(name, candidates))
        if not spec.min_args <= len(fns) <= spec.max_args:
            expected = str(spec.min_args) if spec.min_args == spec.max_args else f"{spec.min_args}-{spec.max_args}"
            raise self.error(node, f"{name}() takes {expected} argument(s), not {len(fns)}")
        impl = spec.fn
        where = self.where(node)
        result_type = spec.result(types)

        model = self.model

        def call(ctx: Ctx) -> Any:
            args = [f(ctx) for f in fns]
            try:
                return impl(ctx, where, *args)
            except (TypeError, ValueError):
                # A value of the wrong kind (a text where a number belongs, a list for a node).
                shown = ", ".join(label_of(model, a) for a in args)
                raise ProgramError(f"{name}() cannot take ({shown}) in {where}") from None

        return call, result_type

    def e_list_lit(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        args = node.children[0]
        if args is None:
            return (lambda ctx: []), "list:any"
        compiled = [self.compile_expr(a, scope) for a in args.children]
        fns = [f for f, _ in compiled]
        types = {t for _, t in compiled}
        element = types.pop() if len(types) == 1 else ANY
        return (lambda ctx: [f(ctx) for f in fns]), f"list:{element}"

    def e_comprehension(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        body_node, var_token, source_node, cond_node = node.children
        source, source_type = self.compile_expr(source_node, scope)
        inner = scope.child()
        var = str(var_token)
        inner.names[var] = _element_type(source_type)
        body, body_type = self.compile_expr(body_node, inner)
        cond = self.compile_expr(cond_node, inner)[0] if cond_node is not None else None
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> list[Any]:
            items = as_list(model, ctx.data, source(ctx), where)
            had, old = var in ctx.env, ctx.env.get(var)
            result = []
            try:
                for item in items:
                    ctx.tick(where)
                    ctx.env[var] = item
                    if cond is None or cond(ctx):
                        result.append(body(ctx))
            finally:
                if had:
                    ctx.env[var] = old
                else:
                    ctx.env.pop(var, None)
            return result

        return run, f"list:{body_type}"

    def e_neg(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        operand, operand_type = self.compile_expr(node.children[0], scope)
        self._expect_int(operand_type, node.children[0], "-")
        where = self.where(node)
        return (lambda ctx: -_int(operand(ctx), where)), "int"

    def e_binop(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, left_type = self.compile_expr(node.children[0], scope)
        op = str(node.children[1])
        right, right_type = self.compile_expr(node.children[2], scope)
        where = self.where(node)
        if op == "+" and (left_type.startswith("list") or right_type.startswith("list")):
            model = self.model
            return (lambda ctx: _joined(as_list(model, ctx.data, left(ctx), where),
                                        as_list(model, ctx.data, right(ctx), where), where)), left_type
        self._expect_int(left_type, node.children[0], op)
        self._expect_int(right_type, node.children[2], op)
        if op == "+":
            def add(ctx: Ctx) -> Any:
                a, b = left(ctx), right(ctx)
                if isinstance(a, list) and isinstance(b, list):
                    return _joined(a, b, where)
                return checked_int(_num(a, where) + _num(b, where), where)

            return add, "int" if left_type == "int" and right_type == "int" else ANY
        if op == "-":
            return (lambda ctx: checked_int(_int(left(ctx), where) - _int(right(ctx), where), where)), "int"
        if op == "*":
            return (lambda ctx: checked_int(_int(left(ctx), where) * _int(right(ctx), where), where)), "int"

        def divide(ctx: Ctx) -> int:
            a, b = _int(left(ctx), where), _int(right(ctx), where)
            if b == 0:
                raise ProgramError(f"division by zero in {where}")
            return a // b if op == "//" else a % b

        return divide, "int"

    def _expect_int(self, type_name: str, node: Tree, op: str) -> None:
        if type_name in ("bool", "str", "none", "player") or type_name in self.model.kinds or type_name.startswith("zone:"):
            raise self.error(node, f"'{op}' needs numbers, not a value of type {type_name}")

    def e_compare(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, _ = self.compile_expr(node.children[0], scope)
        op = str(node.children[1])
        right, _ = self.compile_expr(node.children[2], scope)
        where = self.where(node)
        if op == "==":
            return (lambda ctx: left(ctx) == right(ctx)), "bool"
        if op == "!=":
            return (lambda ctx: left(ctx) != right(ctx)), "bool"
        compare = _ORDERINGS[op]

        def ordered(ctx: Ctx) -> bool:
            a, b = left(ctx), right(ctx)
            if not (isinstance(a, int) and isinstance(b, int)):
                raise ProgramError(f"'{op}' compares numbers only, got {a!r} and {b!r} in {where}")
            return compare(a, b)

        return ordered, "bool"

    def e_in_op(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, _ = self.compile_expr(node.children[0], scope)
        right, _ = self.compile_expr(node.children[1], scope)
        where = self.where(node)
        return (lambda ctx: builtins.contains(ctx, where, right(ctx), left(ctx))), "bool"

    def e_not_in_op(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        test, _ = self.e_in_op(node, scope)
        return (lambda ctx: not test(ctx)), "bool"

    def e_and_op(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, _ = self.compile_expr(node.children[0], scope)
        right, _ = self.compile_expr(node.children[1], scope)
        return (lambda ctx: bool(left(ctx)) and bool(right(ctx))), "bool"

    def e_or_op(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, _ = self.compile_expr(node.children[0], scope)
        right, _ = self.compile_expr(node.children[1], scope)
        return (lambda ctx: bool(left(ctx)) or bool(right(ctx))), "bool"

    def e_not_op(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        operand, _ = self.compile_expr(node.children[0], scope)
        return (lambda ctx: not operand(ctx)), "bool"

    def e_cond_expr(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        cond, _ = self.compile_expr(node.children[0], scope)
        then, then_type = self.compile_expr(node.children[1], scope)
        other, other_type = self.compile_expr(node.children[2], scope)
        result_type = then_type if then_type == other_type or other_type == "none" else ANY
        return (lambda ctx: then(ctx) if cond(ctx) else other(ctx)), result_type

    # ------------------------------------------------------------- statements

    def compile_block(self, node: Tree, scope: Scope) -> Fn:
        stmts_node = node.children[0]
        inner = scope.child()
        compiled = [self.compile_stmt(stmt, inner) for stmt in stmts_node.children]

        def run(ctx: Ctx) -> None:
            for stmt in compiled:
                stmt(ctx)

        return run

    def compile_stmt(self, node: Tree, scope: Scope) -> Fn:
        method = getattr(self, f"s_{node.data}", None)
        if method is None:
            raise self.error(node, f"'{node.data}' is not a statement")
        body = method(node, scope)
        where = self.where(node)

        def run(ctx: Ctx) -> None:
            ctx.tick(where)
            body(ctx)

        return run

    def s_let_stmt(self, node: Tree, scope: Scope) -> Fn:
        name_token, value_node = node.children
        name = str(name_token)
        self._check_local_name(name, name_token)
        if value_node.data in _CHANCE or value_node.data in _CHOICES:
            value, value_type = getattr(self, f"c_{value_node.data}")(value_node, scope)
        else:
            value, value_type = self.compile_expr(value_node, scope)
        scope.names[name] = value_type

        def run(ctx: Ctx) -> None:
            ctx.env[name] = value(ctx)

        return run

    def _check_local_name(self, name: str, node: Tree | Token) -> None:
        model = self.model
        if name in _SPECIALS or name == "base":
            raise self.error(node, f"'{name}' is a built-in name and cannot be redefined")
        if name in RESERVED:
            raise self.error(node, f"'{name}' is a reserved word and cannot name a variable")
        if name in model.game_vars or name in model.item_kind or name in model.kinds or name in model.zones:
            raise self.error(node, f"'{name}' already names something in the pack; choose another local name")

    def s_set_stmt(self, node: Tree, scope: Scope) -> Fn:
        target_node, value_node = node.children
        write, _ = self.compile_target(target_node, scope)
        value, _ = self.compile_expr(value_node, scope)
        return lambda ctx: write(ctx, value(ctx))

    def s_add_stmt(self, node: Tree, scope: Scope) -> Fn:
        return self._update(node, scope, 1)

    def s_sub_stmt(self, node: Tree, scope: Scope) -> Fn:
        return self._update(node, scope, -1)

    def _update(self, node: Tree, scope: Scope, sign: int) -> Fn:
        target_node, value_node = node.children
        write, read = self.compile_target(target_node, scope)
        value, value_type = self.compile_expr(value_node, scope)
        self._expect_int(value_type, value_node, "+=" if sign > 0 else "-=")
        where = self.where(node)

        def run(ctx: Ctx) -> None:
            current = read(ctx)
            write(ctx, checked_int(_int(current, where) + sign * _int(value(ctx), where), where))

        return run

    def compile_target(self, node: Tree, scope: Scope) -> tuple[Callable[[Ctx, Any], None], Fn]:
        """A writer and a reader for the place named by a `set`/`+=` target."""
        parts = node.children
        first = str(parts[0])
        model = self.model
        where = self.where(node)
        if len(parts) == 1:
            if scope.lookup(first) is not None:
                def write_local(ctx: Ctx, value: Any) -> None:
                    ctx.env[first] = value
                return write_local, lambda ctx: ctx.env[first]
            if first in model.game_vars:
                var = model.game_vars[first]
                bound = _bounds(var, f"'{first}'")
                return ((lambda ctx, value: ctx.data["v"].__setitem__(first, bound(value, where))),
                        (lambda ctx: ctx.data["v"][first]))
            raise self.error(parts[0], f"cannot set '{first}': not a local or a game variable",
                             did_you_mean(first, scope.all_names() + list(model.game_vars)))
        # Build the base value from all but the last part, then write the last part.
        base_fn, base_type = self.resolve_name(first, parts[0], scope)
        for part in parts[1:-1]:
            base_fn, base_type = self._step(base_fn, base_type, part, scope)
        last = parts[-1]
        if isinstance(last, Token):
            return self._field_writer(base_fn, base_type, str(last), last, where)
        index_fn, _ = self.compile_expr(last, scope)

        def write_slot(ctx: Ctx, value: Any) -> None:
            ref = base_fn(ctx)
            if not isinstance(ref, ZoneRef) or model.zones[ref.name].type != "row":
                raise ProgramError(f"only the slots of a row can be set in {where}")
            slots = ctx.data["z"][ref.key]
            i = index_fn(ctx)
            if not isinstance(i, int) or not 0 <= i < len(slots):
                raise ProgramError(f"slot {i!r} out of range in {where}")
            if value is not None and model.zones[ref.name].of and model.item_kind.get(value) != model.zones[ref.name].of:
                raise ProgramError(f"{label_of(model, value)} cannot go into {ref.name} in {where}")
            slots[i] = value

        def read_slot(ctx: Ctx) -> Any:
            ref = base_fn(ctx)
            return ctx.data["z"][ref.key][index_fn(ctx)]

        return write_slot, read_slot

    def _step(self, base_fn: Fn, base_type: str, part: Tree | Token, scope: Scope) -> tuple[Fn, str]:
        if isinstance(part, Token):
            reader, result_type = self.field_reader(base_type, str(part), part)
            return (lambda ctx: reader(ctx, base_fn(ctx))), result_type
        index_fn, _ = self.compile_expr(part, scope)
        model = self.model

        def read(ctx: Ctx) -> Any:
            value = base_fn(ctx)
            if isinstance(value, ZoneRef):
                value = ctx.data["z"][value.key]
            return value[index_fn(ctx)]

        del model
        return read, ANY

    def _field_writer(self, base_fn: Fn, base_type: str, field: str, node: Token,
                      where: str) -> tuple[Callable[[Ctx, Any], None], Fn]:
        model = self.model
        player_var = model.player_vars.get(field)
        kinds_with_var = {k: d.vars[field] for k, d in model.kinds.items() if field in d.vars}
        if base_type == "player" and player_var is None:
            raise self.error(node, f"players have no variable '{field}'", did_you_mean(field, model.player_vars))
        if base_type in model.kinds and base_type not in kinds_with_var:
            static = field in model.kinds[base_type].fields
            reason = "is a fixed field" if static else "is not a variable"
            raise self.error(node, f"'{field}' of kind '{base_type}' {reason} and cannot be set",
                             did_you_mean(field, model.kinds[base_type].vars))
        if player_var is None and not kinds_with_var:
            raise self.error(node, f"no player or item has a variable '{field}'")
        player_bound = _bounds(player_var, f"'{field}'") if player_var else None
        item_bounds = {k: _bounds(v, f"'{field}'") for k, v in kinds_with_var.items()}

        def write(ctx: Ctx, value: Any) -> None:
            owner = base_fn(ctx)
            if isinstance(owner, int) and not isinstance(owner, bool) and player_bound is not None:
                ctx.data["pv"][owner][field] = player_bound(value, where)
                return
            if isinstance(owner, str) and model.item_kind.get(owner) in item_bounds:
                bound = item_bounds[model.item_kind[owner]]
                ctx.data["ev"][owner][field] = bound(value, where)
                return
            raise ProgramError(f"{label_of(model, owner)} has no variable '{field}' in {where}")

        def read(ctx: Ctx) -> Any:
            owner = base_fn(ctx)
            if isinstance(owner, int) and not isinstance(owner, bool):
                return ctx.data["pv"][owner][field]
            return ctx.data["ev"][owner][field]

        return write, read

    def s_if_stmt(self, node: Tree, scope: Scope) -> Fn:
        children = node.children
        branches: list[tuple[Fn, Fn]] = []
        cond, _ = self.compile_expr(children[0], scope)
        branches.append((cond, self.compile_block(children[1], scope)))
        otherwise: Fn | None = None
        for part in children[2:]:
            if part is None:
                continue
            if part.data == "elif_part":
                c, _ = self.compile_expr(part.children[0], scope)
                branches.append((c, self.compile_block(part.children[1], scope)))
            else:
                otherwise = self.compile_block(part.children[0], scope)

        def run(ctx: Ctx) -> None:
            for c, body in branches:
                if c(ctx):
                    body(ctx)
                    return
            if otherwise is not None:
                otherwise(ctx)

        return run

    def s_for_stmt(self, node: Tree, scope: Scope) -> Fn:
        var_token, source_node, body_node = node.children
        var = str(var_token)
        self._check_local_name(var, var_token)
        source, source_type = self.compile_expr(source_node, scope)
        inner = scope.child()
        inner.names[var] = _element_type(source_type)
        body = self.compile_block(body_node, inner)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> None:
            items = list(as_list(model, ctx.data, source(ctx), where))
            for item in items:
                ctx.tick(where)
                ctx.env[var] = item
                body(ctx)

        return run

    def _zone(self, node: Tree, scope: Scope) -> Fn:
        fn, type_name = self.compile_expr(node, scope)
        if type_name != ANY and not type_name.startswith("zone:"):
            raise self.error(node, f"expected a zone here, not a value of type {type_name}")
        where = self.where(node)

        def zone(ctx: Ctx) -> ZoneRef:
            value = fn(ctx)
            if not isinstance(value, ZoneRef):
                raise ProgramError(f"expected a zone, got {label_of(self.model, value)!r} in {where}")
            return value

        return zone

    def s_move_stmt(self, node: Tree, scope: Scope) -> Fn:
        first, count_of, source_node, dest_node, position_node = node.children
        if count_of is not None:
            count_fn, _ = self.compile_expr(first, scope)
            what_fn, _ = self.compile_expr(count_of.children[0], scope)
        else:
            count_fn = None
            what_fn, _ = self.compile_expr(first, scope)
        source = self._zone(source_node, scope)
        dest = self._zone(dest_node, scope)
        top = position_node is not None and str(position_node.children[0]) == "top"
        where = self.where(node)

        def run(ctx: Ctx) -> None:
            what = what_fn(ctx)
            src, dst = source(ctx), dest(ctx)
            if count_fn is not None:
                count = _int(count_fn(ctx), where)
                if count == 0:
                    return
                zone_ops.remove(ctx, src, what, count, where)
                zone_ops.add(ctx, dst, what, count, top, where)
                return
            for item in what if isinstance(what, list) else [what]:
                zone_ops.remove(ctx, src, item, 1, where)
                zone_ops.add(ctx, dst, item, 1, top, where)

        return run

    def s_draw_stmt(self, node: Tree, scope: Scope) -> Fn:
        count_node, source_node, dest_node, position_node = node.children
        count_fn, _ = self.compile_expr(count_node, scope)
        source = self._zone(source_node, scope)
        dest = self._zone(dest_node, scope)
        top = position_node is not None and str(position_node.children[0]) == "top"
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> None:
            src, dst = source(ctx), dest(ctx)
            if model.zones[src.name].type != "stack":
                raise ProgramError(f"draw takes from a stack, and '{src.name}' is a {model.zones[src.name].type}"
                                   f" in {where}")
            for _ in range(_int(count_fn(ctx), where)):
                content = ctx.data["z"][src.key]
                if not content:
                    return
                item = content.pop(0)
                zone_ops.add(ctx, dst, item, 1, top, where)

        return run

    def s_shuffle_stmt(self, node: Tree, scope: Scope) -> Fn:
        zone = self._zone(node.children[0], scope)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> None:
            ref = zone(ctx)
            if model.zones[ref.name].type != "stack":
                raise ProgramError(f"only stacks can be shuffled in {where}")
            content = ctx.data["z"][ref.key]
            content[:] = rng.shuffled(ctx.data, content)
            ctx.chance.append({"shuffle": ref.key, "order": list(content)})

        return run

    def s_slide_stmt(self, node: Tree, scope: Scope) -> Fn:
        row = self._zone(node.children[0], scope)
        discard = self._zone(node.children[1], scope)
        source = self._zone(node.children[2], scope)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> None:
            ref = row(ctx)
            if model.zones[ref.name].type != "row":
                raise ProgramError(f"slide moves along a row, and '{ref.name}' is not one in {where}")
            slots = ctx.data["z"][ref.key]
            leaving = slots[-1]
            slots[1:] = slots[:-1]
            slots[0] = None
            if leaving is not None:
                zone_ops.add(ctx, discard(ctx), leaving, 1, True, where)
            deck = ctx.data["z"][source(ctx).key]
            if deck:
                slots[0] = deck.pop(0)

        return run

    def s_block_stmt(self, node: Tree, scope: Scope) -> Fn:
        return self._edge_change(node, scope, True)

    def s_unblock_stmt(self, node: Tree, scope: Scope) -> Fn:
        return self._edge_change(node, scope, False)

    def _edge_change(self, node: Tree, scope: Scope, blocked: bool) -> Fn:
        if self.model.board is None:
            raise self.error(node, "this pack has no board")
        a_fn, _ = self.compile_expr(node.children[0], scope)
        b_fn, _ = self.compile_expr(node.children[1], scope)
        where = self.where(node)
        adjacency = self.model.adjacency

        def run(ctx: Ctx) -> None:
            a, b = a_fn(ctx), b_fn(ctx)
            if a not in adjacency or b not in adjacency.get(a, ()):
                raise ProgramError(f"there is no edge between {a!r} and {b!r} in {where}")
            key = edge_key(a, b)
            current = ctx.data["blocked"]
            if blocked and key not in current:
                current.append(key)
                current.sort()
            elif not blocked and key in current:
                current.remove(key)

        return run

    def s_require_stmt(self, node: Tree, scope: Scope) -> Fn:
        cond, _ = self.compile_expr(node.children[0], scope)
        message = _unquote(str(node.children[1]))

        def run(ctx: Ctx) -> None:
            if not cond(ctx):
                raise RuleViolation(message)

        return run

    def s_emit_stmt(self, node: Tree, scope: Scope) -> Fn:
        name_token, args_node = node.children
        event = str(name_token)
        fns = [self.compile_expr(a, scope)[0] for a in (args_node.children if args_node is not None else [])]
        self._note_event(event, len(fns), self.origin, node)
        self._call(f"event:{event}")
        program = self.program

        def run(ctx: Ctx) -> None:
            program.emit(ctx, event, [f(ctx) for f in fns])

        return run

    def s_finish_stmt(self, node: Tree, scope: Scope) -> Fn:
        reason = _unquote(str(node.children[0]))

        def run(ctx: Ctx) -> None:
            raise GameOver(reason)

        return run

    def s_goto_stmt(self, node: Tree, scope: Scope) -> Fn:
        stage = str(node.children[0])
        if stage not in self.program.stages:
            raise self.error(node, f"unknown stage '{stage}'", did_you_mean(stage, self.program.stages))

        def run(ctx: Ctx) -> None:
            flow = ctx.data["flow"]
            flow["stage"] = stage
            flow["usage"]["visit"] = {}
            flow["entered"] = True

        return run

    def s_end_turn_stmt(self, node: Tree, scope: Scope) -> Fn:
        def run(ctx: Ctx) -> None:
            ctx.data["flow"]["end_turn"] = True

        return run

    def s_return_stmt(self, node: Tree, scope: Scope) -> Fn:
        def run(ctx: Ctx) -> None:
            raise Return()

        return run

    def s_call_stmt(self, node: Tree, scope: Scope) -> Fn:
        name_token, args_node = node.children
        name = str(name_token)
        fns = [self.compile_expr(a, scope)[0] for a in (args_node.children if args_node is not None else [])]
        if name not in self.proc_defs:
            if name in self.rule_defs or name in builtins.BUILTINS:
                raise self.error(node, f"'{name}' gives a value and has no effect; use it in an expression")
            raise self.error(node, f"unknown procedure '{name}'", did_you_mean(name, self.proc_defs))
        definition = self.proc_defs[name]
        if len(fns) != len(definition.params):
            raise self.error(node, f"procedure '{name}' takes {len(definition.params)} argument(s), not {len(fns)}")
        self._call(f"proc:{name}")
        procs = self.program.procs

        def run(ctx: Ctx) -> None:
            procs[name](ctx, [f(ctx) for f in fns])

        return run

    def s_log_stmt(self, node: Tree, scope: Scope) -> Fn:
        value, _ = self.compile_expr(node.children[0], scope)
        model = self.model

        def run(ctx: Ctx) -> None:
            shown = value(ctx)
            ctx.messages.append(shown if isinstance(shown, str) else label_of(model, shown))

        return run

    # ------------------------------------------------------------- chance and choices

    def c_roll(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        die = str(node.children[0])
        if die not in self.model.dice:
            raise self.error(node, f"unknown die '{die}'", did_you_mean(die, self.model.dice))
        faces = list(self.model.dice[die].faces)

        def run(ctx: Ctx) -> int:
            scripted = ctx.data.get("script", {}).get(die)
            if scripted:
                # Scenarios may fix the next results of a die; the stream is left untouched.
                value = scripted.pop(0)
                ctx.chance.append({"roll": die, "value": value, "scripted": True})
                return value
            value = faces[rng.below(ctx.data, len(faces))]
            ctx.chance.append({"roll": die, "value": value})
            return value

        return run, "int"

    def c_random_pick(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        source, source_type = self.compile_expr(node.children[0], scope)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> Any:
            items = as_list(model, ctx.data, source(ctx), where)
            if not items:
                raise ProgramError(f"random pick from an empty list in {where}")
            value = items[rng.below(ctx.data, len(items))]
            ctx.chance.append({"random": option_id(value)})
            return value

        return run, _element_type(source_type)

    def c_shuffled(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        source, source_type = self.compile_expr(node.children[0], scope)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> list[Any]:
            items = rng.shuffled(ctx.data, as_list(model, ctx.data, source(ctx), where))
            ctx.chance.append({"shuffled": [option_id(v) for v in items]})
            return items

        return run, source_type if source_type.startswith("list:") else "list:any"

    def c_sample(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        source, source_type = self.compile_expr(node.children[0], scope)
        count, _ = self.compile_expr(node.children[1], scope)
        where = self.where(node)
        model = self.model

        def run(ctx: Ctx) -> list[Any]:
            items = as_list(model, ctx.data, source(ctx), where)
            n = _int(count(ctx), where)
            if not 0 <= n <= len(items):
                raise ProgramError(f"cannot sample {n} from {len(items)} in {where}")
            picked = rng.shuffled(ctx.data, items)[:n]
            ctx.chance.append({"sample": [option_id(v) for v in picked]})
            return picked

        return run, source_type if source_type.startswith("list:") else "list:any"

    def _prompt(self, node: Tree | None, default: str) -> str:
        if node is None:
            return default
        return _unquote(str(node.children[0]))

    def _chooser(self, node: Tree, scope: Scope) -> Fn:
        fn, type_name = self.compile_expr(node, scope)
        if type_name not in (ANY, "player"):
            raise self.error(node, f"the one who chooses must be a player, not a value of type {type_name}")
        return fn

    def _decide(self, who: Fn, prompt: str, options: Callable[[Ctx], list[tuple[str, str, Any]]], where: str) -> Fn:
        def run(ctx: Ctx) -> Any:
            player = who(ctx)
            if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < ctx.data["n"]:
                raise ProgramError(f"{player!r} is not a player who can choose in {where}")
            listed = options(ctx)
            if not listed:
                raise ProgramError(f"a choice with no options in {where}")
            if ctx.pos < len(ctx.answers):
                answer = ctx.answers[ctx.pos]
                ctx.pos += 1
                if ctx.reseed is not None and ctx.pos == ctx.reseed["after"]:
                    ctx.apply_reseed()
                for option_key, _, value in listed:
                    if option_key == answer:
                        return value
                raise IllegalAction(f"'{answer}' is not one of the options: {prompt}")
            raise Suspend(player, prompt, listed)

        return run

    def _unique(self, values: list[Any], player_labels: bool) -> list[tuple[str, str, Any]]:
        seen: set[str] = set()
        result = []
        for value in values:
            key = option_id(value)
            if key not in seen:
                seen.add(key)
                result.append((key, label_of(self.model, value, player_labels), value))
        return result

    def c_choose_one(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        who = self._chooser(node.children[0], scope)
        source, source_type = self.compile_expr(node.children[1], scope)
        prompt = self._prompt(node.children[2], "Choose one")
        where = self.where(node)
        model = self.model
        players = source_type == "list:player"

        def options(ctx: Ctx) -> list[tuple[str, str, Any]]:
            return self._unique(as_list(model, ctx.data, source(ctx), where), players)

        return self._decide(who, prompt, options, where), _element_type(source_type)

    def c_choose_number(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        who = self._chooser(node.children[0], scope)
        low, _ = self.compile_expr(node.children[1], scope)
        high, _ = self.compile_expr(node.children[2], scope)
        prompt = self._prompt(node.children[3], "Choose a number")
        where = self.where(node)

        def options(ctx: Ctx) -> list[tuple[str, str, Any]]:
            a, b = _int(low(ctx), where), _int(high(ctx), where)
            if b - a + 1 > MAX_NUMBER_OPTIONS:
                raise ProgramError(f"a number choice with more than {MAX_NUMBER_OPTIONS} options in {where}")
            return [(str(n), str(n), n) for n in range(a, b + 1)]

        return self._decide(who, prompt, options, where), "int"

    def c_choose_subset(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        who = self._chooser(node.children[0], scope)
        source, source_type = self.compile_expr(node.children[1], scope)
        prompt = self._prompt(node.children[2], "Choose any")
        where = self.where(node)
        model = self.model

        def options(ctx: Ctx) -> list[tuple[str, str, Any]]:
            items = as_list(model, ctx.data, source(ctx), where)
            if len(items) > MAX_SUBSET:
                raise ProgramError(f"a subset choice over more than {MAX_SUBSET} items in {where}")
            subsets: list[list[Any]] = []
            for size in range(len(items) + 1):
                subsets.extend(_combinations(items, size))
            return self._unique(subsets, source_type == "list:player")

        return self._decide(who, prompt, options, where), source_type

    def c_choose_order(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        who = self._chooser(node.children[0], scope)
        source, source_type = self.compile_expr(node.children[1], scope)
        prompt = self._prompt(node.children[2], "Choose an order")
        where = self.where(node)
        model = self.model

        def options(ctx: Ctx) -> list[tuple[str, str, Any]]:
            items = as_list(model, ctx.data, source(ctx), where)
            if len(items) > MAX_ORDER:
                raise ProgramError(f"an order choice over more than {MAX_ORDER} items in {where}")
            return self._unique(_permutations(items), source_type == "list:player")

        return self._decide(who, prompt, options, where), source_type


# ---------------------------------------------------------------- helpers

_CHANCE = {"roll", "random_pick", "shuffled", "sample"}
_CHOICES = {"choose_one", "choose_number", "choose_subset", "choose_order"}
_ORDERINGS: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}
_SPECIALS: dict[str, tuple[Fn, str]] = {
    "me": (lambda ctx: ctx.me, "player"),
    "active": (lambda ctx: ctx.data["flow"]["active"], "player"),
    "players": (lambda ctx: list(range(ctx.data["n"])), "list:player"),
    "player_count": (lambda ctx: ctx.data["n"], "int"),
    "turn_number": (lambda ctx: ctx.data["flow"]["turn"], "int"),
    "round_number": (lambda ctx: ctx.data["flow"]["round"], "int"),
    "stage": (lambda ctx: ctx.data["flow"]["stage"], "str"),
    "phase": (lambda ctx: ctx.data["flow"]["phase"], "str"),
}


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(text: str) -> str:
    """The value of a string literal; escapes are decoded in one pass (\\n, \\t, \\", \\\\)."""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text[1:-1])


def _type_of(declared: str) -> str:
    if declared.startswith("list[") and declared.endswith("]"):
        return f"list:{declared[5:-1]}"
    if declared == "list":
        return "list:any"
    return declared


def _element_type(type_name: str) -> str:
    if type_name.startswith("list:") or type_name.startswith("zone:"):
        return type_name[5:] or ANY
    return ANY


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProgramError(f"expected a number, got {value!r} in {where}")
    return value


def _joined(a: list[Any], b: list[Any], where: str) -> list[Any]:
    # Doubling a list in a loop would exhaust memory long before the step budget stops it.
    if len(a) + len(b) > MAX_LIST:
        raise ProgramError(f"list too long (more than {MAX_LIST} elements) in {where}")
    return a + b


def _num(value: Any, where: str) -> int:
    return _int(value, where)


def _bounds(var: Any, what: str) -> Callable[[Any, str], Any]:
    """Apply a var's bounds to a written value: the cap may discard, the floor may forbid."""
    if var is None or var.type != "int" or (var.min is None and var.max is None):
        return lambda value, where: value
    low, high = var.min, var.max

    def bound(value: Any, where: str) -> Any:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ProgramError(f"{what} takes numbers, not {value!r} in {where}")
        if high is not None and value > high:
            if var.above_max == "error":
                raise RuleViolation(f"{what} cannot exceed {high}")
            value = high
        if low is not None and value < low:
            if var.below_min == "error":
                raise RuleViolation(f"{what} cannot go below {low}")
            value = low
        return value

    return bound


def _combinations(items: list[Any], size: int) -> list[list[Any]]:
    if size == 0:
        return [[]]
    result = []
    for i in range(len(items) - size + 1):
        for rest in _combinations(items[i + 1:], size - 1):
            result.append([items[i]] + rest)
    return result


def _permutations(items: list[Any]) -> list[list[Any]]:
    if len(items) <= 1:
        return [list(items)]
    result = []
    for i, item in enumerate(items):
        for rest in _permutations(items[:i] + items[i + 1:]):
            result.append([item] + rest)
    return result
