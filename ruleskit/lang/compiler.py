"""Compiling a pack's rule-language definitions into a Program.

The work is split by layer: `expressions.py` (values), `statements.py`
(effects), `decisions.py` (chance and choices); this module adds the entry
points used by the game builder, the compiling of rules, procedures and hooks,
and the static rejection of recursion.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import LanguageError, did_you_mean
from ..model import RESERVED
from ..runtime.context import Ctx, Return, nothing
from . import coverage
from .definitions import Definition, read_module
from .ensure import EnsureCompiler
from .expressions import SPECIALS
from .parser import Origin, parse
from .scope import ANY, Fn, Program, Scope, element_type, type_of, types_agree, written_type
from .support import check_arguments, checked_types, fits_type, wrong_type

__all__ = ["ANY", "Compiler", "Definition", "Fn", "Program", "Scope", "element_type", "read_module"]


class Compiler(EnsureCompiler):
    """Compiles a pack's definitions against its model into a Program."""

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
        for definition in self._rules_callees_first():
            self._compile_rule(definition)
        for definition in self.proc_defs.values():
            self._compile_proc(definition)
        for definition in self.hook_defs:
            self._compile_hook(definition)
        self._check_recursion()
        return self.program

    def expr(self, text: str | int | bool, origin: Origin, names: dict[str, str] | None = None,
             what: str = "expression", listed: bool = False) -> Fn:
        """Compile an expression written inline in TOML (`listed`: a list taken element by element, a
        parameter's options, as `compile_listed` says)."""
        if isinstance(text, bool | int):
            value = text
            self.last_type = "bool" if isinstance(text, bool) else "int"
            return lambda ctx: value
        self.origin = origin
        self.current = what
        tree = parse(text, "expr", origin)
        compile_expr = self.compile_listed if listed else self.compile_expr
        fn, self.last_type = compile_expr(tree, Scope(names))
        self._note_calls(what)
        return fn

    def resumable_block(self, text: str, origin: Origin, names: dict[str, str] | None = None,
                        what: str = "effect") -> Fn | None:
        """The block as code that can stop at a choice and go on from there once it is answered; None
        when this backend makes none (the reference closures: a choice answered runs its job again)."""
        return None

    def stage_filter(self, stage: str, entries: list[Any]) -> Fn | None:
        """A generator of the stage's actions that pass their limits and `when`; None when this backend makes
        none (the reference closures: the engine's own loop tests each)."""
        return None

    def lister(self, action: str, param: str, checks: list[tuple[str, Origin]], names: dict[str, str], where: str,
               options: tuple[str, Origin] | None = None) -> Fn | None:
        """A function listing the bindings of an action's last parameter that pass its checks in one loop;
        None when this backend makes none (the reference closures: the engine binds and checks each option
        itself)."""
        return None

    def block(self, text: str, origin: Origin, names: dict[str, str] | None = None, what: str = "effect") -> Fn:
        """Compile a block of statements written inline in TOML."""
        self.origin = origin
        self.current = what
        if not text.strip():
            return nothing
        tree = parse(text, "block", origin)
        body = self.compile_block(tree, Scope(names))
        self._note_calls(what)

        def run(ctx: Ctx) -> None:
            try:
                body(ctx)
            except Return:  # `return` ends an inline effect early, as it ends a procedure
                pass

        return run

    # ------------------------------------------------------------- definitions


    def _compile_rule(self, definition: Definition) -> None:
        self.origin, self.current = definition.origin, f"rule {definition.name}"
        scope = Scope({n: type_of(t) for n, t in definition.params})
        body, result_type = self.compile_expr(definition.body, scope)
        self.settle_rule_type(definition, result_type)
        body = self._counted(body, "rule", definition)
        self._note_calls(f"rule:{definition.name}")
        names = [p for p, _ in definition.params]
        # Its `modify` hooks: `when`, value, parameter names, the parameters to check and where.
        modifiers: list[tuple[Fn | None, Fn, list[str], list[tuple[int, str]], str]] = []
        where = f"rule {definition.name} ({definition.location})"
        checks = self.argument_checks(definition)
        result_check = self.result_check(definition, result_type)

        def call(ctx: Ctx, args: list[Any]) -> Any:
            ctx.tick(where)  # every call is a step: nested rules calling each other cannot multiply unseen
            ctx.enter(where)
            if checks:
                check_arguments(ctx, checks, names, args, where)
            saved = ctx.env
            ctx.env = dict(zip(names, args, strict=True))
            try:
                value = body(ctx)
                for when, expr, mod_names, mod_checks, mod_where in modifiers:
                    if mod_checks:  # the hook's own types for the rule's arguments
                        check_arguments(ctx, mod_checks, mod_names, args, mod_where)
                    ctx.env = dict(zip(mod_names, args, strict=True))
                    ctx.env["base"] = value
                    if when is None or when(ctx):
                        value = expr(ctx)
                if result_check is not None and not fits_type(ctx, value, result_check, where):
                    wrong_type(ctx, value, result_check, "its result", where)
                return value
            finally:
                ctx.env = saved
                ctx.leave()

        call.modifiers = modifiers  # type: ignore[attr-defined]
        self.program.rules[definition.name] = call

    def _rules_callees_first(self) -> list[Definition]:
        """The rules in an order where each comes after the rules its body names, so that a call's result
        type is known where it is compiled (names are read from the syntax tree; a cycle, reported later as
        recursion, keeps the written order)."""
        from lark import Token  # imported when something is parsed (lang/parser.py)

        order: list[Definition] = []
        seen: set[str] = set()

        def named_rules(name: str) -> Iterator[str]:
            body = self.rule_defs[name].body
            return iter(sorted({str(t) for t in body.scan_values(lambda v: isinstance(v, Token))}
                               & self.rule_defs.keys()))

        # Depth first, each rule placed after the rules it names: walked with a stack of its own, not by
        # recursion, since a chain of rules may be longer than Python's stack is deep.
        for root in self.rule_defs:
            if root in seen:
                continue
            seen.add(root)
            stack = [(root, named_rules(root))]
            while stack:
                name, pending = stack[-1]
                for token in pending:
                    if token not in seen:
                        seen.add(token)
                        stack.append((token, named_rules(token)))
                        break
                else:
                    stack.pop()
                    order.append(self.rule_defs[name])
        return order

    def settle_rule_type(self, definition: Definition, inferred: str) -> None:
        """Record a rule's result type: the declared one, which the body must give, or the body's own."""
        if definition.result is None:
            self.rule_types[definition.name] = inferred
            return
        written = definition.result
        inner = written[5:-1] if written.startswith("list[") and written.endswith("]") else written
        plain = ("int", "bool", "str", "player") + (("list",) if inner == written else ())
        if inner != ANY and inner not in plain and inner not in self.model.kinds:
            raise LanguageError(f"rule '{definition.name}' declares unknown result type '{written}'",
                                file=definition.origin.file, line=definition.line,
                                hint=did_you_mean(inner, ["int", "bool", "str", "player"]
                                                  + list(self.model.kinds)))
        declared = type_of(definition.result)
        if not types_agree(declared, inferred):
            raise LanguageError(f"rule '{definition.name}' declares it gives {definition.result}, but its body "
                                f"gives a value of type {written_type(inferred)}", file=definition.origin.file,
                                line=definition.line)
        self.rule_types[definition.name] = declared

    def argument_checks(self, definition: Definition) -> list[tuple[int, str]]:
        """The parameters of `definition` whose arguments its entry checks: those typed `player` or a kind."""
        return checked_types([type_of(t) for _, t in definition.params], self.model.kinds)

    def result_check(self, definition: Definition, inferred: str) -> str | None:
        """The type a rule's result is checked for as it returns: a declared `player` or kind that its body is
        not known to give (a body of type `any`)."""
        if definition.result is None:
            return None
        declared = type_of(definition.result)
        return declared if declared != inferred and checked_types([declared], self.model.kinds) else None

    def check_modifier_type(self, hook: Definition, rule: Definition, given: str) -> None:
        """A modifier must give what its rule gives, or callers typed by the rule would be wrong."""
        expected = self.rule_type(rule.name)
        if not types_agree(expected, given):
            raise LanguageError(f"hook '{hook.name}' modifies rule '{rule.name}', which gives {written_type(expected)}, "
                                f"with a value of type {written_type(given)}", file=hook.origin.file, line=hook.line)

    def _compile_proc(self, definition: Definition) -> None:
        self.origin, self.current = definition.origin, f"proc {definition.name}"
        body = self.compile_block(definition.body, Scope({n: type_of(t) for n, t in definition.params}))
        body = self._counted(body, "procedure", definition)
        self._note_calls(f"proc:{definition.name}")
        names = [p for p, _ in definition.params]
        where = f"proc {definition.name} ({definition.location})"
        checks = self.argument_checks(definition)

        def call(ctx: Ctx, args: list[Any]) -> None:
            ctx.tick(where)
            ctx.enter(where)
            if checks:
                check_arguments(ctx, checks, names, args, where)
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
            scope = Scope({n: type_of(t) for n, t in definition.params})
            scope.names["base"] = self.rule_type(rule.name)
            when = self.compile_expr(definition.when, scope)[0] if definition.when is not None else None
            expr, given = self.compile_expr(definition.body, scope)
            self.check_modifier_type(definition, rule, given)
            expr = self._counted(expr, "hook", definition)
            self._note_calls(f"hook:{definition.name}")
            self.calls.setdefault(f"rule:{rule.name}", set()).add(f"hook:{definition.name}")
            self.program.rules[rule.name].modifiers.append(  # type: ignore[attr-defined]
                (when, expr, names, self.argument_checks(definition), f"hook {definition.name} ({definition.location})"))
            return
        scope = Scope({n: type_of(t) for n, t in definition.params})
        when = self.compile_expr(definition.when, scope)[0] if definition.when is not None else None
        body = self.compile_block(definition.body, scope)
        body = self._counted(body, "hook", definition)
        self._note_calls(f"hook:{definition.name}")
        self.calls.setdefault(f"event:{definition.target}", set()).add(f"hook:{definition.name}")
        where = f"hook {definition.name} ({definition.location})"
        checks = self.argument_checks(definition)

        def run(ctx: Ctx, args: list[Any]) -> None:
            ctx.tick(where)
            ctx.enter(where)
            if checks:
                check_arguments(ctx, checks, names, args, where)
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




    def _counted(self, body: Fn, kind: str, definition: Definition) -> Fn:
        """`body`, counted when `ruleskit test --coverage` compiles the pack (unchanged otherwise)."""
        probe = coverage.active()
        if probe is None:
            return body
        return probe.wrap(body, kind, f"{kind} {definition.name}", definition.origin.file, definition.line)

    def _check_recursion(self) -> None:
        """Refuse a definition that calls itself, directly or through others (walked depth first with a
        stack of its own: a chain of calls may be longer than Python's stack is deep)."""
        state: dict[str, int] = {}  # 1: on the walk's current path; 2: done, no cycle through it
        for root in sorted(self.calls):
            if state.get(root) is not None:
                continue
            state[root] = 1
            path = [root]
            stack = [iter(sorted(self.calls.get(root, ())))]
            while stack:
                for target in stack[-1]:
                    if state.get(target) == 1:
                        node = path[-1]
                        cycle = path[path.index(target):] + [target] if target in path else [node, target]
                        raise self._cycle_error(cycle)
                    if state.get(target) is None:
                        state[target] = 1
                        path.append(target)
                        stack.append(iter(sorted(self.calls.get(target, ()))))
                        break
                else:
                    stack.pop()
                    state[path.pop()] = 2

    def _check_params(self, definition: Definition) -> None:
        seen: set[str] = set()
        for name, type_name in definition.params:
            where = LanguageError("", file=definition.origin.file, line=definition.line)
            if name in seen:
                raise LanguageError(f"parameter '{name}' is listed twice in {definition.name}",
                                    file=where.file, line=where.line)
            seen.add(name)
            if name in RESERVED or name in SPECIALS:
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
