"""Loading a pack into a Game: reading, checking and compiling it once.

`load(pack)` returns a `Game`, which holds the compiled pack and creates
states with `new_game(players=N, seed=S)`.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from .cache import default_cache, digest
from .errors import PackError, did_you_mean
from .model import Model, at_key, located, written_at
from .runtime.state import State
from .runtime.values import MAX_INT
from .schema import ActionDef, LimitDef, ReportDef, Source

# The compiler (Lark, the code generator) and the pack reader (cattrs) are imported by the first
# load, not by `import ruleskit`: reading a log, a save or the command line's help needs neither.
if TYPE_CHECKING:
    from .lang.parser import Origin
    from .packs import PackSource
    from .runtime.program import Fn, Program

_LABEL_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# The static types an expression slot of the pack accepts ("any" is known only when the game runs).
_SLOT_TYPES = {
    "a number": {"int", "player", "any"},
    "a player": {"player", "int", "any"},
    "a list of players": {"list:player", "list:int", "list:any", "any"},
}


@attrs.define
class Param:
    name: str
    options: Fn
    type: str
    where: str  # "action NAME parameter NAME (file:line)", for run-time errors about its options


@attrs.define
class CompiledAction:
    name: str
    stages: list[str]
    label: str
    params: list[Param]
    when: Fn | None
    requires: list[tuple[Fn, str]]
    costs: list[tuple[str, Fn]]
    effect: Fn
    limit: LimitDef
    source: Source | None
    where: str = ""  # "action NAME (file:line)", for run-time errors about the action
    anytime: bool = False  # offered to every player at every decision point, not only to the one to decide
    checks: list[Any] = attrs.Factory(list)  # its properties, checked by `ruleskit test` only
    # The effect as a generator that stops at a choice and goes on from there once answered (generated
    # code only, for an effect that may stop); None: an answer runs the job again from its start.
    resumable: Any = None
    # For an action with parameters and no cost, generated code only: its last parameter's bindings that pass
    # every `require`, listed in one loop (see `Compiler.lister`); None: the engine binds and checks each.
    lister: Any = None
    # "NAME@SEAT" for each seat: what the engine counts the action's uses by, per player, written once.
    player_keys: list[str] = attrs.Factory(list)
    # Whether it has a `limit` (per turn, visit or game): the listing tests the usage counts only then. For
    # each seat, what it tests: (scope, what the scope's usage counts, the most uses allowed) per limit.
    limited: bool = attrs.field(init=False, eq=False, repr=False)
    limit_checks: list[list[tuple[str, str, int]]] = attrs.field(init=False, eq=False, repr=False)
    # For each seat, the Actions made so far by their bound values (one shared object per id and player),
    # and what makes one with a single value bound when there is none yet (made by the engine on first use).
    tables: list[dict[Any, Any]] = attrs.field(init=False, eq=False, repr=False)
    makers: list[Any] = attrs.field(init=False, eq=False, repr=False)
    # The options of its one parameter when `lister` lists that parameter's bindings (the listing calls the
    # two in turn); None otherwise.
    single_options: Any = attrs.field(init=False, eq=False, repr=False)
    # With `single_options`, when those options are always the same list (a kind's items, each once): that
    # list, which the listing passes to `lister` as it is (it only reads it); None otherwise.
    fixed_options: list[Any] | None = attrs.field(init=False, eq=False, repr=False)
    # Its parameters' names, in order: what a listing binds its earlier values to (`dict(zip(...))`).
    param_names: tuple[str, ...] = attrs.field(init=False, eq=False, repr=False)
    # Whether it has two parameters, the second listed by `lister`: the listing binds the first in one loop
    # of its own (`engine._bind_pair`) rather than through `engine._bind`.
    paired: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self.param_names = tuple(p.name for p in self.params)
        self.single_options = self.params[0].options if self.lister is not None and len(self.params) == 1 else None
        self.paired = self.lister is not None and len(self.params) == 2
        self.fixed_options = getattr(self.lister, "fixed_options", None) if self.single_options is not None else None
        limit = self.limit
        self.limited = limit.turn is not None or limit.visit is not None or limit.game is not None
        self.limit_checks = []
        for seat_key in self.player_keys:
            counted = seat_key if self.anytime else self.name  # `engine.usage_key`: per seat for anytime actions
            limits = [("turn", counted, limit.turn), ("visit", counted, limit.visit), ("game", seat_key, limit.game)]
            self.limit_checks.append([(scope, key, most) for scope, key, most in limits if most is not None])
        self.tables = [{} for _ in self.player_keys]
        self.makers = [None for _ in self.player_keys]


def stage_actions(actions: dict[str, CompiledAction], stage: str) -> list[CompiledAction]:
    """A stage's own actions (not the `anytime` ones), in the order they are declared: its legal set is built
    from these."""
    return [a for a in actions.values() if stage in a.stages and not a.anytime]


def untested(actions: list[CompiledAction]) -> bool:
    """Whether no action of these has a limit or a `when`: the listing has nothing to test before binding."""
    return all(a.when is None and not a.limited for a in actions)


@attrs.define
class CompiledStage:
    name: str
    label: str
    on_enter: Fn
    simultaneous: Fn | None
    resolve: Fn
    where: str = ""  # "stage NAME (file:line)", for run-time errors about the stage


@attrs.define
class CompiledPhase:
    name: str
    stage: str
    order: str | Fn
    first: Fn
    next: str | None
    end_when: Fn | None
    rounds: int | None
    on_enter: Fn
    on_turn_start: Fn
    on_turn_end: Fn
    on_round_end: Fn
    where: str = ""  # "phase NAME (file:line)", for run-time errors about the phase


@attrs.define
class Game:
    """A compiled pack, ready to create games."""

    name: str
    version: str
    min_players: int
    max_players: int
    content_hash: str
    source: PackSource
    model: Model
    program: Program
    actions: dict[str, CompiledAction]
    stages: dict[str, CompiledStage]
    phases: dict[str, CompiledPhase]
    start_phase: str
    setup: Fn
    max_turns: int
    ends: list[tuple[Fn, str]]
    score: Fn
    tiebreaks: list[Fn]
    before_scoring: Fn
    invariants: dict[str, tuple[Fn, str, Source | None]]
    groups: dict[str, Fn]
    heuristic: Fn | None
    display: dict[str, Any]
    definitions: dict[str, Any]
    backend: str = "compiled"
    generated: Any = None  # the code generator, with the compiled backend
    # Properties over the game ([properties] with `at`), and whether games check them (ruleskit test).
    decision_checks: list[Any] = attrs.Factory(list)
    end_checks: list[Any] = attrs.Factory(list)
    check_properties: bool = False
    properties_installed: bool = True  # False: built for play only; with_property_checks() builds them in
    # Whether the end conditions may read the flow (`active`, `turn_number`, a var reset each turn...), found
    # from their names at load (lang/reads.py): if not, a turn passing with no pack code run cannot change them.
    ends_read_flow: bool = True
    actions_by_stage: dict[str, list[CompiledAction]] = attrs.field(init=False)
    turn_starts: list[tuple[str, Any, bool]] = attrs.field(init=False, eq=False, repr=False)
    anytime_by_stage: dict[str, list[CompiledAction]] = attrs.field(init=False)
    # Stages with an action that is always legal (no parameters, `when`, cost, `require` or limit).
    open_stages: set[str] = attrs.field(init=False, eq=False, repr=False)
    # Phases whose turns end with no pack code: a fixed rotation, no rounds or end condition, no snippet or
    # hook at a turn's or a round's end (engine._next_turn).
    plain_phases: set[str] = attrs.field(init=False, eq=False, repr=False)
    # Stages that offer one action and no `anytime` one, and not always: the listing the flow begins there
    # lists everything at once.
    one_action_stages: set[str] = attrs.field(init=False, eq=False, repr=False)
    # Of those, the stages whose action has no limit or `when` and one parameter listed by generated code:
    # the action, which the flow lists there itself (engine.settle).
    listed_alone: dict[str, CompiledAction] = attrs.field(init=False, eq=False, repr=False)
    # Plain phases whose turns also start with no pack code run and no var reset: a game of only such phases
    # may have a simple flow (`simple_flow`).
    quiet_starts: set[str] = attrs.field(init=False, eq=False, repr=False)
    # The tables every game of a number of players starts from, made at its first game (engine.initial_data).
    initial_tables: dict[int, dict[str, Any]] = attrs.field(init=False, eq=False, repr=False)
    # Per stage, generated code that yields the stage's own actions passing their limits and `when`, in
    # order (`Compiler.stage_filter`); `stage_tests` says what tests a stage without one.
    stage_filters: dict[str, Fn] = attrs.Factory(dict)
    # Whether a turn passing with no pack code run may skip the end conditions (`ends_read_flow`).
    ends_skippable: bool = attrs.field(init=False, eq=False, repr=False)
    # Whether every turn passes and starts with no pack code run, every stage is entered with nothing to run
    # (no `on_enter`, not simultaneous, no `anytime` action) and the ends read no flow value: the flow after
    # an action then runs as `engine.settle_simply` (Connect Four).
    simple_flow: bool = attrs.field(init=False, eq=False, repr=False)
    # Per stage, what tests its own actions' limits and `when`s for the listing (`engine._offer`): its filter,
    # `engine.every_action` when none has either, or None for the engine's own loop.
    stage_tests: dict[str, Any] = attrs.field(init=False, eq=False, repr=False)
    # The generated definitions of the `turn_start` hooks, in order, for the flow to call directly (as
    # `Program.emit` calls them through their entry points); None when any is not one (engine._start_turn).
    turn_start_calls: tuple[Callable[..., Any], ...] | None = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # The actions offered in each stage, in the order they are declared: the legal set is built from these.
        self.actions_by_stage = {stage: stage_actions(self.actions, stage) for stage in self.stages}
        # Actions any player may take whenever someone is to decide (runtime/anytime.py).
        self.anytime_by_stage = {stage: [a for a in self.actions.values() if stage in a.stages and a.anytime]
                                 for stage in self.stages}
        from .runtime.engine import start_value

        # What each game var reset each turn starts a turn with, worked out once: (name, value, whether it is a
        # list to copy).
        self.turn_starts = [(name, value, type(value) is list) for name, var in self.model.game_vars.items()
                            if var.owner == "turn" for value in [start_value(var)]]
        from .runtime.context import nothing

        hooks = self.program.hooks
        from .lang.support import entry_definition

        starts = [entry_definition(hook) for hook in hooks.get("turn_start", [])]
        self.turn_start_calls = tuple(d for d in starts if d is not None) if None not in starts else None
        self.plain_phases = {name for name, phase in self.phases.items() if
                             isinstance(phase.order, str) and phase.rounds is None and phase.end_when is None
                             and phase.on_turn_end is nothing and phase.on_round_end is nothing
                             and not {"turn_end", "round_end"} & set(hooks)}
        self.quiet_starts = {name for name in self.plain_phases if not self.turn_starts and "turn_start" not in hooks
                             and self.phases[name].on_turn_start is nothing}
        self.ends_skippable = bool(self.ends) and not self.ends_read_flow
        self.initial_tables = {}
        self.open_stages = {stage for stage, actions in self.actions_by_stage.items() if any(
            not a.params and a.when is None and not a.costs and not a.requires and not a.limited for a in actions)}
        self.one_action_stages = {stage for stage, actions in self.actions_by_stage.items() if len(actions) == 1
                                  and not self.anytime_by_stage[stage] and stage not in self.open_stages}
        from .runtime.engine import every_action

        self.stage_tests = {stage: every_action if untested(actions) else self.stage_filters.get(stage)
                            for stage, actions in self.actions_by_stage.items()}
        self.simple_flow = self.quiet_starts == set(self.phases) and (self.ends_skippable or not self.ends) \
            and all(stage.on_enter is nothing and stage.simultaneous is None and not self.anytime_by_stage[name]
                    for name, stage in self.stages.items())
        self.listed_alone = {stage: actions[0] for stage, actions in self.actions_by_stage.items()
                             if stage in self.one_action_stages and self.stage_tests[stage] is every_action
                             and actions[0].single_options is not None}

    @property
    def code(self) -> str:
        """The Python code generated for the pack's programs ("" with the closure backend)."""
        if self.generated is None and self.backend == "compiled":  # loaded from the cache: generate it again
            return GameBuilder(self.source, self.backend, properties=False).build().code
        return self.generated.module_source() if self.generated is not None else ""

    def with_property_checks(self) -> Game:
        """The same compiled pack, whose games check every `ensure` and property (what `ruleskit test` plays).

        Games of the pack itself skip them: normal play pays nothing for the checks.
        """
        if self.check_properties:
            return self
        if not self.properties_installed:  # built for play: build it again with its properties attached
            if isinstance(self.source, DeferredSource):  # from the cache: read it again, trees from the cache
                return load(self.source.root, self.backend, check_properties=True)
            return GameBuilder(self.source, self.backend, properties=True).build().with_property_checks()
        return attrs.evolve(self, check_properties=True)

    @property
    def chain(self) -> list[str]:
        return self.source.chain

    @property
    def player_range(self) -> str:
        """The player counts as messages write them: "2-4", or "2" for a pack of exactly two."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"

    def players_refused(self, count: object) -> PackError:
        """The error for a player count outside the pack's range, as every front end words it."""
        return PackError(f"{self.name} is for {self.player_range} players, not {count}")

    def new_game(self, players: int | None = None, seed: int = 0, options: dict[str, Any] | None = None) -> State:
        """A new game, set up and run to its first decision."""
        return State.new(self, players if players is not None else self.min_players, seed, options)

    def summary(self) -> str:
        parts = [
            f"{len(self.actions)} actions", f"{len(self.stages)} stages", f"{len(self.phases)} phases",
            f"{len(self.model.kinds)} kinds", f"{len(self.model.item_kind)} items", f"{len(self.model.zones)} zones",
            f"{len(self.program.rules)} rules", f"{len(self.program.procs)} procedures",
            f"{sum(1 for group, _ in self.source.definitions if group == 'hook')} hooks",
        ]
        return (f"{self.name} {self.version}: ok ({self.player_range} players; "
                + ", ".join(parts) + ")")


BACKENDS = ("compiled", "closures")


def load(pack: str | Path, backend: str | None = None, cache: bool | None = None,
         check_properties: bool = False) -> Game:
    """Load, check and compile a pack given by folder path or built-in name.

    `backend` chooses how its programs run: "compiled" generates Python code
    (the default, and the fast one); "closures" builds a tree of closures,
    the reference the generated code is tested against. The environment
    variable RULESKIT_BACKEND sets the default. `cache=False` neither reads
    nor writes the user's load cache (ruleskit/cache.py), which
    RULESKIT_NO_CACHE=1 turns off for every load. `check_properties=True` gives
    a game whose games check every `ensure` and property, as `ruleskit test` does.
    """
    backend = backend or os.environ.get("RULESKIT_BACKEND") or "compiled"
    if backend not in BACKENDS:
        raise PackError(f"unknown backend '{backend}'", hint=did_you_mean(backend, BACKENDS))
    store = default_cache() if cache is not False else None
    with collector_paused():
        if store is not None and backend == "compiled" and not check_properties:
            return _load_compiled(pack, store)
        from .lang.parsecache import TreeMemo, remembering
        from .lang.parser import grammar_text
        from .packs import PackReader, find_pack

        if store is None:
            game = GameBuilder(PackReader().read(pack), backend, check_properties).build()
            return game.with_property_checks() if check_properties else game
        # The parse trees of the pack's texts are the costly part of loading; keep them for the next process.
        entry = digest(str(find_pack(pack)))
        memo = TreeMemo(grammar_text(), store.get("trees", entry))
        with remembering(memo):
            game = GameBuilder(PackReader().read(pack), backend, check_properties).build()
    if memo.missed or memo.used.keys() != memo.stored.keys():
        store.put("trees", entry, memo.used)
    return game.with_property_checks() if check_properties else game


def _load_compiled(pack: str | Path, store: Any) -> Game:
    """A pack for play with generated code: the stored compiled game if its files are unchanged, else
    compiled here (and stored for the next process). See ruleskit/programcache.py."""
    from . import programcache

    root = programcache.pack_folder(pack)
    if root is not None:
        game = programcache.fetch(store, programcache.entry_key(root, "compiled"), "compiled")
        if game is not None:
            return game
    from .lang.parsecache import TreeMemo, remembering
    from .lang.parser import grammar_text
    from .packs import find_pack

    root = find_pack(pack)  # and its errors
    key = programcache.entry_key(root, "compiled")

    entry = digest(str(root))
    memo = TreeMemo(grammar_text(), store.get("trees", entry))
    reader = programcache.recording_reader()
    with remembering(memo):
        game = GameBuilder(reader.read(root), "compiled", properties=False).build()
    if memo.missed or memo.used.keys() != memo.stored.keys():
        store.put("trees", entry, memo.used)
    programcache.store(store, key, game, reader.files, reader.folders)  # type: ignore[attr-defined]
    return game


class DeferredSource:
    """The source of a game loaded from the cache: what is known at once, and the rest read on demand."""

    def __init__(self, root: Path, manifest: Any, chain: list[str], content_hash: str) -> None:
        self.root = root
        self.manifest = manifest
        self.chain = chain
        self.content_hash = content_hash
        self._read: PackSource | None = None

    def loaded(self) -> PackSource:
        if self._read is None:
            from .packs import PackReader

            self._read = PackReader().read(self.root)
        return self._read

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.loaded(), name)

    def structured(self) -> DeferredDefinitions:
        return DeferredDefinitions(self)


class DeferredDefinitions(dict[str, Any]):
    """A game's structured definitions, read from its pack the first time they are asked for."""

    def __init__(self, source: DeferredSource) -> None:
        super().__init__()
        self._source: DeferredSource | None = source

    def _fill(self) -> None:
        if self._source is not None:
            from .packs import structure_defs

            source, self._source = self._source, None
            self.update(structure_defs(source.loaded()))

    def __getitem__(self, key: str) -> Any:
        self._fill()
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._fill()
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self._fill()
        return super().__contains__(key)

    def __iter__(self) -> Any:
        self._fill()
        return super().__iter__()

    def __len__(self) -> int:
        self._fill()
        return super().__len__()

    def keys(self) -> Any:
        self._fill()
        return super().keys()

    def items(self) -> Any:
        self._fill()
        return super().items()

    def values(self) -> Any:
        self._fill()
        return super().values()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Loading makes tens of thousands of small objects (trees, code) and no cycles worth collecting;
    Python's cycle collector would walk every live object several times meanwhile (a third of a load)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class GameBuilder:
    """Turns a merged PackSource into a compiled Game."""

    def __init__(self, source: PackSource, backend: str = "compiled", properties: bool = True) -> None:
        from .packs import structure_defs

        self.source = source
        self.backend = backend
        self.properties = properties  # attach the pack's properties (else they are only checked for errors)
        self.defs = structure_defs(source)

    def build(self) -> Game:
        from .lang.parser import token_budget
        from .packs import changed_definition_hint, removal_hint

        try:
            with token_budget():  # the TOML snippets, counted apart from the .rk files read before
                return self._build()
        except PackError as exc:
            # A base's definition that names something a variant removed or replaced fails at the base's line:
            # say so.
            removed = removal_hint(exc.message, self.source.changes, exc.file) \
                or changed_definition_hint(exc.file, exc.line, self.source)
            if removed is not None:
                exc.hint = removed  # in place of a guess at what was meant
            raise

    def _build(self) -> Game:
        from .lang.codegen import GeneratingCompiler
        from .lang.compiler import Compiler

        defs = self.defs
        manifest = self.source.manifest
        variables = dict(defs["vars"])
        for name, counter in defs["counters"].items():
            if name in variables:
                raise located(counter.source, f"'{name}' is both a var and a counter")
            if counter.type != "int":
                raise located(counter.source, f"counter '{name}' must be an int")
            variables[name] = counter
        model = Model.build(manifest.name, manifest.version, manifest.players.min, manifest.players.max,
                            defs["kinds"], variables, defs["zones"], defs["dice"], defs["board"])
        self._check_names(model, variables)
        self._check_starts(model, variables)
        stage_names = set(defs["stages"])
        compiler_class = GeneratingCompiler if self.backend == "compiled" else Compiler
        compiler = compiler_class(model, list(self.source.definitions.values()), stage_names)
        program = compiler.compile_all()
        self.compiler = compiler
        self.model = model

        for zone_name, zone in model.zones.items():
            if zone.capacity is not None:
                program.capacities[zone_name] = self._expr(zone.capacity, zone.source, ("capacity",),
                                                           f"capacity of zone {zone_name}", expect="a number")
                written = self._origin(zone.source, ("capacity",))
                program.capacity_wheres[zone_name] = f"capacity of zone {zone_name} ({written.file}:{written.line})"
            if zone.shows is not None:
                program.shows[zone_name] = self._expr(zone.shows, zone.source, ("shows",), f"shows of zone {zone_name}",
                                                      {"it": zone.of})

        stages = {name: self._stage(name, d) for name, d in defs["stages"].items()}
        phases = {name: self._phase(name, d, stages) for name, d in defs["phases"].items()}
        actions = {name: self._action(name, d, stages) for name, d in defs["actions"].items()}
        stage_filters = self._stage_filters(actions, defs["actions"], stages)
        flow = defs["flow"]
        if flow is None:
            raise PackError("the pack has no [flow] section (it names the starting phase)", file=self._main_file(),
                            line=self._files_line())
        if flow.start not in phases:
            raise located(at_key(flow.source, "start"), f"[flow] start names unknown phase '{flow.start}'", did_you_mean(flow.start, phases))
        if type(flow.max_turns) is not int or flow.max_turns < 1:  # `turn limit` ended such a game at once
            raise located(at_key(flow.source, "max_turns"), f"[flow] max_turns must be at least 1, not {flow.max_turns}")
        setup = self._block(flow.setup, flow.source, ("setup",), "flow setup")
        scoring = defs["scoring"]
        if scoring is None:
            raise PackError("the pack has no [scoring] section", file=self._main_file(), line=self._files_line())
        score = self._expr(scoring.score, scoring.source, ("score",), "score", {"p": "player"}, "a number")
        tiebreaks = [self._expr(t, scoring.source, ("tiebreak",), "tiebreak", {"p": "player"}, "a number")
                     for t in scoring.tiebreak]
        before = self._block(scoring.before, scoring.source, ("before",), "scoring before")
        ends = [(self._expr(e.when, e.source, ("when",), f"end condition {name}"), e.reason)
                for name, e in defs["end"].items()]
        from .lang.reads import reads_flow
        from .properties import install_properties

        snippets = [e.when for e in defs["end"].values()]
        for zone in model.zones.values():  # a zone's capacity or `shows` runs when a condition reads the zone
            snippets += [zone.capacity, zone.shows]
        ends_read_flow = reads_flow(snippets, self.source.definitions.values(),
                                    [name for name, var in model.game_vars.items() if var.owner == "turn"])

        over_game = install_properties(compiler, program, actions, defs["properties"], self._origin,
                                       install=self.properties)
        invariants = {
            name: (self._expr(inv.check, inv.source, ("check",), f"invariant {name}"), inv.message or name, inv.source)
            for name, inv in defs["invariants"].items()
        }
        report: ReportDef = defs["report"] or ReportDef()
        groups = {name: self._expr(text, report.source, ("groups", name), f"group {name}", {"p": "player"})
                  for name, text in report.groups.items()}
        heuristic = (self._expr(report.heuristic, report.source, ("heuristic",), "heuristic", {"p": "player"},
                                "a number")
                     if report.heuristic else None)
        if isinstance(compiler, GeneratingCompiler):
            compiler.count_nesting_where_needed([*program.capacities.values(), *program.shows.values()])
        return Game(
            name=manifest.name, version=manifest.version, min_players=manifest.players.min,
            max_players=manifest.players.max, content_hash=self.source.content_hash, source=self.source,
            model=model, program=program, actions=actions, stages=stages, phases=phases, start_phase=flow.start,
            setup=setup, max_turns=flow.max_turns, ends=ends, score=score, tiebreaks=tiebreaks,
            before_scoring=before, invariants=invariants, groups=groups, heuristic=heuristic,
            display=defs["display"] or {}, definitions=defs, backend=self.backend,
            generated=compiler if isinstance(compiler, GeneratingCompiler) else None,
            decision_checks=over_game["decision"], end_checks=over_game["end"],
            properties_installed=self.properties, ends_read_flow=ends_read_flow, stage_filters=stage_filters,
        )

    def _stage_filters(self, actions: dict[str, CompiledAction], defs: dict[str, ActionDef],
                       stages: dict[str, CompiledStage]) -> dict[str, Fn]:
        """Per stage, what lists its own actions that pass their limits and `when` (generated code only)."""
        filters: dict[str, Fn] = {}
        for stage in stages:
            own = stage_actions(actions, stage)
            if untested(own):
                continue  # nothing to test (`Game.stage_tests`)
            made = self.compiler.stage_filter(stage, [
                (a.name, defs[a.name].when, self._origin(defs[a.name].source, ("when",)), a.limit_checks)
                for a in own])
            if made is not None:
                filters[stage] = made
        return filters

    # ------------------------------------------------------------- checks

    def _main_file(self) -> str:
        from .packs import display_path

        return display_path(self.source.root / "pack.toml")

    def _check_names(self, model: Model, variables: dict[str, Any]) -> None:
        taken: dict[str, str] = {}
        for kind in model.kinds:
            taken[kind] = "a kind"
        for item, kind_name in model.item_kind.items():
            if item in taken:
                kind_def = model.kinds[kind_name]
                raise located(kind_def.item_lines.get(item, kind_def.source), f"item id '{item}' is also {taken[item]}",
                               "item ids and kind names share one namespace")
            taken[item] = "an item"
        for name, var in variables.items():
            if name in taken and var.owner != "player":
                raise located(var.source, f"var '{name}' has the same name as {taken[name]}")
            taken.setdefault(name, "a var")
        for name, zone in model.zones.items():
            if zone.owner == "game" and name in taken:
                raise located(zone.source, f"zone '{name}' has the same name as {taken[name]}")

    def _files_line(self) -> int:
        """The line of pack.toml that lists the files, where a missing section belongs."""
        from .tomlfile import read_toml

        doc = read_toml(self.source.root / "pack.toml", self._main_file())
        return doc.line_of(("files",)) or doc.line_of(("name",)) or 1

    def _check_starts(self, model: Model, variables: dict[str, Any]) -> None:
        all_vars = list(variables.items())
        for kind_name, kind in model.kinds.items():
            all_vars += [(f"{kind_name}.{n}", v) for n, v in kind.vars.items()]
        for name, var in all_vars:
            for bound in ("start", "min", "max"):
                value = getattr(var, bound)
                if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
                    raise located(var.source, f"var '{name}': {bound} {value} is out of range (at most {MAX_INT})")
            start = var.start
            if start is None:
                continue
            if var.type == "int" and (not isinstance(start, int) or isinstance(start, bool)):
                raise located(var.source, f"var '{name}' is an int; its start must be a number, not {start!r}")
            if var.type in model.kinds and (start not in model.item_kind or model.item_kind[start] != var.type):
                raise located(var.source, f"var '{name}' starts as '{start}', not an item of kind '{var.type}'",
                               did_you_mean(str(start), model.items_of(var.type)))

    # ------------------------------------------------------------- compiling snippets

    def _origin(self, source: Source | None, keypath: tuple[str, ...]) -> Origin:
        from .lang.parser import Origin

        if source is None:
            return Origin("<pack>")
        source = written_at(source, keypath)
        if source.doc is not None:
            line, column, flat = source.doc.value_start(source.keypath + keypath)
            return Origin(source.file, line or source.line or 1, column, flat)
        return Origin(source.file, source.line or 1)

    def _expr(self, text: Any, source: Source | None, keypath: tuple[str, ...], what: str,
              names: dict[str, str] | None = None, expect: str | None = None, listed: bool = False) -> Fn:
        if not isinstance(text, str | int | bool):
            raise located(source, f"{what} should be an expression (a string), not {text!r}")
        origin = self._origin(source, keypath)
        fn = self.compiler.expr(text, origin, names, what, listed)
        if expect is not None:
            got = self.compiler.last_type
            if got not in _SLOT_TYPES[expect]:
                raise PackError(f"{what} should give {expect}, but this expression gives a value of type {got}",
                                file=origin.file, line=origin.line)
        return fn

    def _block(self, text: Any, source: Source | None, keypath: tuple[str, ...], what: str,
               names: dict[str, str] | None = None) -> Fn:
        if not isinstance(text, str):
            raise located(source, f"{what} should be rule-language statements (a string), not {text!r}")
        return self.compiler.block(text, self._origin(source, keypath), names, what)

    def _stage(self, name: str, d: Any) -> CompiledStage:
        where = f"stage {name}" + (f" ({d.source.file}:{d.source.line})" if d.source and d.source.line else "")
        return CompiledStage(
            name=name, label=d.label or name, where=where,
            on_enter=self._block(d.on_enter, d.source, ("on_enter",), f"stage {name} on_enter"),
            simultaneous=(self._expr(d.simultaneous, d.source, ("simultaneous",), f"stage {name} simultaneous",
                                     expect="a list of players")
                          if d.simultaneous else None),
            resolve=self._block(d.resolve, d.source, ("resolve",), f"stage {name} resolve"),
        )

    def _phase(self, name: str, d: Any, stages: dict[str, CompiledStage]) -> CompiledPhase:
        if d.stage not in stages:
            raise located(at_key(d.source, "stage"), f"phase '{name}' starts in unknown stage '{d.stage}'", did_you_mean(d.stage, stages))
        if d.next is not None and d.next not in self.defs["phases"]:
            raise located(at_key(d.source, "next"), f"phase '{name}' is followed by unknown phase '{d.next}'",
                           did_you_mean(d.next, self.defs["phases"]))
        if d.rounds is not None and (type(d.rounds) is not int or d.rounds < 1):
            # `rounds = 0` ended the phase after its first round, as 1 does: a mistake, not a phase of no rounds.
            raise located(at_key(d.source, "rounds"), f"phase '{name}': rounds must be at least 1, not {d.rounds}",
                          "leave rounds out for a phase that ends by end_when or next")
        order: str | Fn = d.order
        if d.order not in ("clockwise", "counterclockwise"):
            order = self._expr(d.order, d.source, ("order",), f"phase {name} order", expect="a list of players")
        where = f"phase {name}" + (f" ({d.source.file}:{d.source.line})" if d.source and d.source.line else "")
        return CompiledPhase(
            name=name, stage=d.stage, order=order, where=where,
            first=self._expr(d.first, d.source, ("first",), f"phase {name} first", expect="a player"),
            next=d.next,
            end_when=self._expr(d.end_when, d.source, ("end_when",), f"phase {name} end_when") if d.end_when else None,
            rounds=d.rounds,
            on_enter=self._block(d.on_enter, d.source, ("on_enter",), f"phase {name} on_enter"),
            on_turn_start=self._block(d.on_turn_start, d.source, ("on_turn_start",), f"phase {name} on_turn_start"),
            on_turn_end=self._block(d.on_turn_end, d.source, ("on_turn_end",), f"phase {name} on_turn_end"),
            on_round_end=self._block(d.on_round_end, d.source, ("on_round_end",), f"phase {name} on_round_end"),
        )

    def _action(self, name: str, d: ActionDef, stages: dict[str, CompiledStage]) -> CompiledAction:
        from .lang.scope import ANY, element_type

        if d.stage is None and not d.anytime:
            raise located(d.source, f"action '{name}' needs a stage (or anytime = true to offer it in every stage)")
        stage_list = list(stages) if d.stage is None else [d.stage] if isinstance(d.stage, str) else d.stage
        if not isinstance(stage_list, list) or not all(isinstance(s, str) for s in stage_list):
            raise located(at_key(d.source, "stage"), f"action '{name}': stage should be a stage name or a list of them")
        for stage in stage_list:
            if stage not in stages:
                raise located(at_key(d.source, "stage"), f"action '{name}' is offered in unknown stage '{stage}'",
                               did_you_mean(stage, stages))
        names: dict[str, str] = {}
        params = []
        for param, text in d.params.items():
            if param in ("me", "base"):
                raise located(at_key(d.source, "params", param), f"action '{name}': '{param}' cannot name a parameter")
            options = self._expr(text, d.source, ("params", param), f"action {name} parameter {param}", dict(names),
                                 listed=True)
            param_type = self.compiler.last_type
            origin = self._origin(d.source, ("params", param))
            if param_type != ANY and not param_type.startswith(("list:", "zone:")):
                raise PackError(f"action {name} parameter {param} should give a list or a zone of options, but this "
                                f"expression gives a value of type {param_type}", file=origin.file, line=origin.line)
            names[param] = element_type(param_type)
            params.append(Param(param, options, names[param],
                                f"action {name} parameter {param} ({origin.file}:{origin.line})"))
        when = self._expr(d.when, d.source, ("when",), f"action {name} when") if d.when is not None else None
        requires = [(self._expr(r.check, d.source, ("require",), f"action {name} require", names), r.message)
                    for r in d.require]
        costs = []
        for var, amount in d.cost.items():
            if var not in self.model.player_vars or self.model.player_vars[var].type != "int":
                raise located(at_key(d.source, "cost", var), f"action '{name}' costs unknown player counter '{var}'",
                               did_you_mean(var, self.model.player_vars))
            costs.append((var, self._expr(amount, d.source, ("cost", var), f"action {name} cost", names,
                                          "a number")))
        where = f"action {name}" + (f" ({d.source.file}:{d.source.line})" if d.source and d.source.line else "")
        # No cost: the last parameter's bindings can be listed by one generated loop (engine._offer, _bind).
        last = params[-1].name if params else ""
        lister = self.compiler.lister(name, last, [(r.check, self._origin(d.source, ("require",))) for r in d.require],
                                      names, where, (d.params[last], self._origin(d.source, ("params", last)))) \
            if params and not costs else None
        effect = self._block(d.effect, d.source, ("effect",), f"action {name}", names)
        resumable = self.compiler.resumable_block(d.effect, self._origin(d.source, ("effect",)), names,
                                                  f"action {name}")
        for field in _LABEL_FIELD.findall(d.label):
            if field not in names:
                raise located(at_key(d.source, "label"), f"action '{name}' label names unknown parameter '{field}'",
                               did_you_mean(field, names))
        stray = _LABEL_FIELD.sub("", d.label)
        if "{" in stray or "}" in stray:
            raise located(at_key(d.source, "label"), f"action '{name}' label has a brace that is not a {{parameter}}: {d.label!r}",
                           "a label names parameters as {name}, nothing else in braces")
        return CompiledAction(name, stage_list, d.label, params, when, requires, costs, effect, d.limit, d.source,
                              where, anytime=bool(d.anytime), resumable=resumable, lister=lister,
                              player_keys=[f"{name}@{seat}" for seat in range(self.model.max_players)])
