"""A pack's own scenario tests: scenario files with expectations, kept in the pack's `tests/` folder.

A scenario test is a scenario file (docs/SCENARIOS.md) that also says what
must be true of the position it reaches:

    then = ["roll"]

    [expect]
    checks = ["steps == 2", "players[1].score == 0"]   # rule-language expressions
    refused = ["roll"]                                   # not offered, and refused
    legal = ["step:a"]

    [[step]]                        # more decisions, then more expectations
    do = ["step:a"]
    stage = "walk"

Every name is checked when the file is run; a failed expectation is reported
with the file and line it is written on. A test never chooses a pack: it runs
against the pack whose `tests/` folder holds it (or the pack its caller names).
"""

from __future__ import annotations

import re
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import Any

import attrs

from ..errors import IllegalAction, PackError, RulesError, did_you_mean
from ..game import Game
from ..lang.compiler import Compiler, Fn
from ..lang.parser import Origin
from ..model import ZoneRef
from ..packs import display_path, find_base
from ..runtime.context import Ctx
from ..runtime.state import State
from ..scenarios import build_scenario, read_decision
from ..tomlfile import TomlDoc, read_toml
from .action_ids import id_mistake

TESTS_FOLDER = "tests"
# Keys of an expectation, in [expect] and in each [[step]].
EXPECT_KEYS = ("checks", "legal", "legal_exactly", "refused", "stage", "phase", "to_decide", "prompt",
               "finished", "reason", "scores", "winners", "rolled")
STEP_KEYS = ("name", "from", "do") + EXPECT_KEYS
TEST_KEYS = ("expect", "step")
# The most files a pack's tests folder may hold: each one is read and run.
MAX_TEST_FILES = 2000
# The most different refusals one file checks: each is tried on a copy and the state compared whole after it
# (5 ms a refusal on a state of 100,000 pieces; 110,000 refusals in a 1 MB file took 20 minutes).
MAX_REFUSALS = 1000
_COMPARISONS = ("==", "!=", "<=", ">=", "<", ">")


@attrs.define
class Problem:
    """One failed expectation (or a file that could not be run), at its file and line."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: failed: {self.message}"


@attrs.define
class FileResult:
    """The outcome of one scenario test file."""

    path: str
    checks: int = 0  # expectations checked (each check, each listed action, each result field)
    steps: int = 0
    seconds: float = 0.0
    problems: list[Problem] = attrs.Factory(list)
    description: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


@attrs.define
class ScenarioReport:
    """The outcome of a pack's scenario tests."""

    pack: str
    files: list[FileResult] = attrs.Factory(list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(f.ok for f in self.files)

    @property
    def checks(self) -> int:
        return sum(f.checks for f in self.files)

    @property
    def problems(self) -> list[Problem]:
        return [p for f in self.files for p in f.problems]

    def summary(self) -> str:
        failed = sum(1 for f in self.files if not f.ok)
        status = "ok" if self.ok else f"FAILED ({failed} of {len(self.files)} files)"
        files = "file" if len(self.files) == 1 else "files"
        expectations = "expectation" if self.checks == 1 else "expectations"
        return (f"{self.pack}: {len(self.files)} scenario test {files}, {self.checks} {expectations}, "
                f"{self.seconds:.1f}s: {status}")

    def to_json(self) -> dict[str, Any]:
        return {"files": len(self.files), "expectations": self.checks, "ok": self.ok,
                "seconds": round(self.seconds, 3), "problems": [str(p) for p in self.problems]}


# ---------------------------------------------------------------- finding the tests


def scenario_test_files(pack_root: Path) -> list[Path]:
    """The scenario test files of a pack: `tests/**/*.toml` in its folder, in name order.

    Links are not followed, so a pack's tests are files of the pack itself.
    """
    folder = pack_root / TESTS_FOLDER
    if folder.is_symlink() or not folder.is_dir():
        return []
    found: list[Path] = []
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            entries = sorted(current.iterdir())
            for entry in entries:
                if entry.is_symlink():
                    continue
                if entry.is_dir():
                    stack.append(entry)
                elif entry.suffix == ".toml" and entry.is_file():
                    found.append(entry)
                    if len(found) > MAX_TEST_FILES:
                        raise PackError(f"more than {MAX_TEST_FILES} scenario test files", file=display_path(folder))
        except OSError as exc:  # a folder nested past the system's longest path, or one that cannot be read
            raise _unreadable(folder, current, exc) from None
    return sorted(found)


def _unreadable(folder: Path, current: Path, exc: OSError) -> PackError:
    inside = current.relative_to(folder).parts
    where = "/".join(part if len(part) <= 20 else part[:20] + "..." for part in inside[:3])
    if len(inside) > 3:
        where += f"/... ({len(inside)} folders deep)"
    return PackError(f"cannot read a folder of the scenario tests{' (' + where + ')' if where else ''}: "
                     f"{exc.strerror or exc}", file=display_path(folder),
                     hint="keep scenario test files in a few levels of short folder names")


def base_roots(pack_root: Path) -> list[Path]:
    """The folders of the packs a variant extends, its own base first."""
    roots: list[Path] = []
    root = pack_root
    while len(roots) < 16:
        manifest = read_toml(root / "pack.toml", display_path(root / "pack.toml")).data
        base = manifest.get("extends")
        if not isinstance(base, str):
            break
        root = find_base(base, root)
        roots.append(root)
    return roots


def run_pack_tests(pack: str | Path | Game, *, with_bases: bool = False) -> ScenarioReport:
    """Run every scenario test file of a pack (and of its bases, with `with_bases`) against the pack."""
    from .strategies import game_of

    game = game_of(pack)
    root = game.source.root
    roots = [root] + (base_roots(root) if with_bases else [])
    runner = ScenarioTester(game)
    report = ScenarioReport(game.name)
    started = time.perf_counter()
    for folder in roots:
        for path in scenario_test_files(folder):
            report.files.append(runner.run_file(path))
    report.seconds = time.perf_counter() - started
    return report


# ---------------------------------------------------------------- running one file


class ScenarioTester:
    """Runs scenario test files against one compiled pack."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._compiler: Compiler | None = None

    def compile_check(self, text: str, origin: Origin, what: str) -> Fn:
        """Compile a rule-language expression against the pack (its rules are the pack's compiled ones)."""
        if self._compiler is None:
            game = self.game
            compiler = Compiler(game.model, list(game.source.definitions.values()), set(game.stages))
            compiler.program = game.program
            self._compiler = compiler
        return self._compiler.expr(text, origin, None, what)

    def run_file(self, path: Path) -> FileResult:
        shown = display_path(path)
        result = FileResult(shown)
        started = time.perf_counter()
        try:
            doc = read_toml(path, shown)
            result.description = str(doc.data.get("description", ""))
            _FileRun(self, doc, path.parent, result).run()
        except RulesError as exc:
            result.problems.append(Problem(exc.file or shown, exc.line, _message(exc)))
        result.seconds = time.perf_counter() - started
        return result


def _message(exc: RulesError) -> str:
    return exc.message + (f" ({exc.hint})" if exc.hint else "")


class _Failed(Exception):
    """An expectation failed: the step stops there (later ones would read a position the test did not mean)."""


class _FileRun:
    def __init__(self, tester: ScenarioTester, doc: TomlDoc, folder: Path, result: FileResult) -> None:
        self.tester = tester
        self.game = tester.game
        self.doc = doc
        self.folder = folder
        self.result = result
        self.refusals = 0  # different refusals checked so far (`MAX_REFUSALS`)

    def fail(self, keypath: tuple[str, ...], message: str, line: int | None = None) -> _Failed:
        self.result.problems.append(Problem(self.doc.path, line or self.doc.line_of(keypath), message))
        return _Failed(message)

    def run(self) -> None:
        doc, data = self.doc, self.doc.data
        self._check_pack_name()
        steps = data.get("step", [])
        if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
            raise doc.error(("step",), "steps are tables: write each as [[step]]")
        expect = data.get("expect", {})
        if not isinstance(expect, dict):
            raise doc.error(("expect",), "[expect] should be a table of expectations")
        self._check_keys(("expect",), expect, EXPECT_KEYS)
        for index, step in enumerate(steps):
            self._check_keys(("step", str(index)), step, STEP_KEYS)
        if not expect and not steps:
            raise doc.error((), "a scenario test states what to expect: add an [expect] table or [[step]] tables")
        position = {key: value for key, value in data.items() if key not in TEST_KEYS and key != "then"}
        start = build_scenario(attrs.evolve(doc, data=position), self.folder, self.game)
        self.start_history = len(start.history)
        named: dict[str, State] = {"start": start.clone()}
        state = start
        broken = False
        try:
            self._do(state, ("then",), data.get("then", []))
        except _Failed:
            return
        named["then"] = state.clone()
        try:
            self._expect(state, ("expect",), expect)
        except _Failed:
            broken = True
        for index, step in enumerate(steps):
            keypath = ("step", str(index))
            origin = step.get("from")
            if origin is None and broken:
                continue  # it would continue from a position that failed its expectations
            if origin is not None:
                if not isinstance(origin, str) or origin not in named:
                    raise doc.error(keypath + ("from",), f"'from' names the start, the position after 'then' or an "
                                    f"earlier step: {', '.join(repr(n) for n in named)}",
                                    did_you_mean(str(origin), named))
                state = named[origin].clone()
            broken = False
            try:
                self._do(state, keypath + ("do",), step.get("do", []))
                self.result.steps += 1
                self._expect(state, keypath, step)
            except _Failed:
                broken = True
                continue
            name = step.get("name")
            if name is not None:
                if not isinstance(name, str) or name in named:
                    raise doc.error(keypath + ("name",), f"a step's name is a text used once and not "
                                    f"{', '.join(repr(n) for n in ('start', 'then'))}")
                named[name] = state.clone()
        if self.result.checks == 0 and not self.result.problems:
            # Only empty tables and lists (`[[step]]`, `legal = []`): counted as passed, it would pass whatever the rules did.
            raise doc.error(("expect",) if expect else ("step",), "this test checks nothing: its expectations are "
                            "all missing or empty; add a check, or an action that must be legal or refused")

    def _check_pack_name(self) -> None:
        name = self.doc.data.get("pack")
        if name is not None and name not in self.game.chain:
            raise self.doc.error(("pack",), f"this test is for pack '{name}', but it is run against "
                                 f"'{self.game.name}' (a pack's tests may name the pack or a pack it extends)")

    def _check_keys(self, keypath: tuple[str, ...], table: dict[str, Any], allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                raise self.doc.error(keypath + (key,), f"unknown expectation '{key}'", did_you_mean(key, allowed))

    # ------------------------------------------------------------- decisions

    def _do(self, state: State, keypath: tuple[str, ...], decisions: Any) -> None:
        if not isinstance(decisions, list):
            raise self.doc.error(keypath, f"'{keypath[-1]}' should be a list of decision ids")
        lines = self._element_lines(keypath, decisions)
        for number, decision in enumerate(decisions, start=1):
            line = lines[number - 1]
            action_id, player = self._decision(keypath, decision, line)
            legal = state.legal_actions(player)
            if action_id == "first":
                if not legal:
                    raise self.fail(keypath, f"decision {number} ('first'): nothing to decide", line)
                action_id = legal[0].id
            try:
                state.apply(action_id, player=player)
            except IllegalAction as exc:
                raise self.fail(keypath, f"decision {number} ('{action_id}'): {exc.message}", line) from None
            except RulesError as exc:
                raise self.fail(keypath, f"decision {number} ('{action_id}') failed: {exc}", line) from None

    def _decision(self, keypath: tuple[str, ...], decision: Any, line: int | None) -> tuple[str, int | None]:
        try:
            return read_decision(decision)
        except ValueError as exc:
            raise PackError(str(exc), file=self.doc.path, line=line) from None

    def _element_lines(self, keypath: tuple[str, ...], values: list[Any]) -> list[int | None]:
        """The line each element of a list is written on (a list may span several lines)."""
        first = self.doc.line_of(keypath)
        if first is None or not self.doc.text:
            return [first] * len(values)
        text = self.doc.text
        starts = [0, *accumulate(len(line) + 1 for line in text.split("\n"))]  # where each line begins (as line_of counts)
        if first > len(starts):
            return [first] * len(values)
        pos = starts[first - 1]
        # Each element is looked for after the one before, within 200 lines, and the text looked through for
        # them all is at most twice the file: an id written with escapes (\u00e9) is never found as text, and
        # each such one looked through the 200 lines after it again (a 1 MB list of them took 18 s).
        budget = 2 * len(text)
        lines: list[int | None] = []
        for value in values:
            needle = value if isinstance(value, str) else (value.get("action") if isinstance(value, dict) else None)
            found: list[int] = []
            if isinstance(needle, str) and needle and budget > 0:
                line = bisect_right(starts, pos)
                window = starts[line + 200] if line + 200 < len(starts) else len(text)
                forms = (needle, needle.replace("\\", "\\\\").replace('"', '\\"'))
                found = [i for i in (text.find(form, pos, window) for form in forms) if i >= 0]
                if found:
                    budget -= min(found) + len(needle) - pos
                    pos = min(found) + len(needle)
                else:
                    budget -= window - pos
            lines.append(bisect_right(starts, min(found)) if found else first)
        return lines

    # ------------------------------------------------------------- expectations

    def _expect(self, state: State, keypath: tuple[str, ...], table: dict[str, Any]) -> None:
        failed = False
        for key in EXPECT_KEYS:
            if key not in table:
                continue
            try:
                getattr(self, f"_expect_{key}")(state, keypath + (key,), table[key])
            except _Failed:
                failed = True
        if failed:
            raise _Failed()

    def _count(self, n: int = 1) -> None:
        self.result.checks += n

    def _strings(self, keypath: tuple[str, ...], value: Any, what: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.doc.error(keypath, f"'{keypath[-1]}' should be a list of {what}")
        return value

    def _expect_checks(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        texts = self._strings(keypath, value, "rule-language expressions")
        lines = self._element_lines(keypath, texts)
        me = _acting(state)
        failed = False
        for text, line in zip(texts, lines, strict=True):
            origin = Origin(self.doc.path, line or 1)
            fn = self.tester.compile_check(text, origin, "check")
            self._count()
            ctx = Ctx(self.game.program, state.raw, me)
            try:
                held = fn(ctx)
            except RulesError as exc:
                self.fail(keypath, f"check `{text}` could not be evaluated: {exc.message}", line)
                failed = True
                continue
            if held is not True:
                self.fail(keypath, f"check `{text}` is {_show(state, held)}{self._explain(state, text, origin)}", line)
                failed = True
        if failed:
            raise _Failed()

    def _explain(self, state: State, text: str, origin: Origin) -> str:
        """The values of the sides of the failed comparisons in a check, for the message."""
        shown: list[str] = []
        parts = _split_top(text, " and ")
        for part in parts:
            sides = _comparison_sides(part)
            if len(parts) > 1 and self._value(state, part, origin) is True:
                continue
            if sides is None:
                negated = part.strip().startswith("not ")
                sides = [part.strip()[4:]] if negated else ([part] if len(parts) > 1 else [])
            for side in sides:
                if _is_literal(side):
                    continue
                value = self._value(state, side, origin)
                if value is _UNKNOWN:
                    continue
                entry = f"{side.strip()} is {_show(state, value)}"
                if entry not in shown:
                    shown.append(entry)
        return ": " + "; ".join(shown) if shown else ""

    def _value(self, state: State, text: str, origin: Origin) -> Any:
        try:
            fn = self.tester.compile_check(text, origin, "check")
            return fn(Ctx(self.game.program, state.raw, _acting(state)))
        except RulesError:
            return _UNKNOWN

    def _expect_legal(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        wanted = self._strings(keypath, value, "action ids (a trailing * matches any action starting so)")
        offered = [a.id for a in state.legal_actions()]
        is_offered = _offered_matcher(offered)
        missing = [w for w in wanted if not is_offered(w)]
        self._count(len(wanted))
        if missing:
            raise self.fail(keypath, f"not offered: {_list(missing)}; offered: {_list(offered)}")

    def _expect_legal_exactly(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        wanted = self._strings(keypath, value, "action ids")
        offered = [a.id for a in state.legal_actions()]
        self._count()
        if sorted(wanted) != sorted(offered):
            # By sets, and a dozen of each shown: a list of 68,000 ids against 9,900 offered took 10 s and
            # printed every id.
            wanted_ids, offered_ids = set(wanted), set(offered)
            missing = [w for w in wanted if w not in offered_ids]
            extra = [o for o in offered if o not in wanted_ids]
            parts = ([f"not offered: {_list(missing)}"] if missing else []) + (
                [f"also offered: {_list(extra)}"] if extra else [])
            if not parts:
                parts = ["the same ids, but not the same number of each"]
            raise self.fail(keypath, f"the legal actions differ: {'; '.join(parts)}")

    def _expect_refused(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        if not isinstance(value, list):
            raise self.doc.error(keypath, "'refused' should be a list of action ids or { action, message } tables")
        offered = [a.id for a in state.legal_actions()]
        is_offered = _offered_matcher(offered)
        lines = self._element_lines(keypath, value)
        failed = False
        before: str | None = None  # the state as text, made once for all the refusals
        checked: set[tuple[str, str | None]] = set()  # an entry written twice is checked once
        for entry, line in zip(value, lines, strict=True):
            action_id, message = self._refusal(entry, line)
            self._check_refusable(action_id, line, state)
            self._count()
            if (action_id, message) in checked:
                continue
            checked.add((action_id, message))
            self.refusals += 1
            if self.refusals > MAX_REFUSALS:
                raise PackError(f"a test file checks at most {MAX_REFUSALS} refusals", file=self.doc.path, line=line)
            offered_now = [o for o in offered if _matches(action_id, o)] if is_offered(action_id) else []
            if offered_now:
                self.fail(keypath, f"'{action_id}' should be refused, but {_list(offered_now)} is offered", line)
                failed = True
                continue
            if action_id.endswith("*"):
                continue
            copy = state.clone()
            try:
                copy.apply(action_id)
            except IllegalAction:
                pass
            except RulesError as exc:
                self.fail(keypath, f"'{action_id}' should be refused as illegal, but applying it failed: {exc}", line)
                failed = True
                continue
            else:
                self.fail(keypath, f"'{action_id}' is not listed but was accepted", line)
                failed = True
                continue
            if before is None:
                before = state.dumps(sort_keys=True)
            if copy.dumps(sort_keys=True) != before:
                self.fail(keypath, f"refusing '{action_id}' changed the state", line)
                failed = True
                continue
            if message is not None:
                reason = refusal_reason(state, action_id)
                if message.lower() not in reason.lower():
                    self.fail(keypath, f"'{action_id}' is refused, but because {reason}, not {message!r}", line)
                    failed = True
        if failed:
            raise _Failed()

    def _check_refusable(self, action_id: str, line: int | None, state: State) -> None:
        """A refused action must be one some position could offer: a misspelt id would be refused and pass unseen.

        While a question is pending the ids are its options, which only the game knows.
        """
        if state.pending is not None or state.is_terminal:
            return
        mistake = id_mistake(self.game, action_id, state.players)
        if mistake is not None:
            message, hint = mistake
            raise PackError(message, file=self.doc.path, line=line, hint=hint)

    def _refusal(self, entry: Any, line: int | None) -> tuple[str, str | None]:
        if isinstance(entry, str) and entry:
            return entry, None
        if (isinstance(entry, dict) and set(entry) <= {"action", "message"} and isinstance(entry.get("action"), str)
                and isinstance(entry.get("message", ""), str)):
            return entry["action"], entry.get("message")
        raise PackError(f"a refused action is an id or {{ action = \"ID\", message = \"TEXT\" }}; not {entry!r}",
                        file=self.doc.path, line=line)

    def _equal(self, keypath: tuple[str, ...], what: str, got: Any, wanted: Any) -> None:
        self._count()
        if got != wanted:
            raise self.fail(keypath, f"{what} is {got!r}, not {wanted!r}")

    def _expect_stage(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        if not isinstance(value, str) or value not in self.game.stages:
            raise self.doc.error(keypath, f"unknown stage {value!r}", did_you_mean(str(value), self.game.stages))
        self._equal(keypath, "the stage", state.stage, value)

    def _expect_phase(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        if not isinstance(value, str) or value not in self.game.phases:
            raise self.doc.error(keypath, f"unknown phase {value!r}", did_you_mean(str(value), self.game.phases))
        self._equal(keypath, "the phase", state.raw["flow"]["phase"], value)

    def _expect_to_decide(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        wanted = value if isinstance(value, list) else [value]
        if not all(type(p) is int and 0 <= p < state.players for p in wanted):
            raise self.doc.error(keypath, f"'to_decide' is a seat (0 to {state.players - 1}) or a list of seats")
        self._equal(keypath, "the players to decide", state.players_to_decide(), wanted)

    def _expect_prompt(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        if not isinstance(value, str):
            raise self.doc.error(keypath, "'prompt' is the text of the question asked (\"\" for none)")
        self._equal(keypath, "the question asked", state.prompt or "", value)

    def _expect_finished(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        if not isinstance(value, bool):
            raise self.doc.error(keypath, "'finished' is true or false")
        self._count()
        if state.is_terminal != value:
            raise self.fail(keypath, "the game is over" if state.is_terminal else "the game is not over")

    def _result(self, state: State, keypath: tuple[str, ...]) -> dict[str, Any]:
        if state.result is None:
            raise self.fail(keypath, f"the game is not over, so it has no {keypath[-1]}")
        return state.result

    def _expect_reason(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        if not isinstance(value, str):
            raise self.doc.error(keypath, "'reason' is the text the game ended with")
        self._equal(keypath, "the end reason", self._result(state, keypath)["reason"], value)

    def _numbers(self, keypath: tuple[str, ...], value: Any, state: State) -> list[int]:
        if not isinstance(value, list) or not all(type(v) is int for v in value):
            raise self.doc.error(keypath, f"'{keypath[-1]}' is a list of numbers")
        return value

    def _expect_scores(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        wanted = self._numbers(keypath, value, state)
        if len(wanted) != state.players:
            raise self.doc.error(keypath, f"'scores' has one number per player ({state.players})")
        self._equal(keypath, "the scores", self._result(state, keypath)["scores"], wanted)

    def _expect_winners(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        wanted = self._numbers(keypath, value, state)
        self._equal(keypath, "the winners", self._result(state, keypath)["winners"], sorted(wanted))

    def _expect_rolled(self, state: State, keypath: tuple[str, ...], value: Any) -> None:
        wanted = self._numbers(keypath, value, state)
        rolled = [c["value"] for entry in state.history[self.start_history:] for c in entry.get("chance", [])
                  if "roll" in c]
        self._equal(keypath, "the dice rolled since the position was set", rolled, wanted)


# ---------------------------------------------------------------- helpers


def _acting(state: State) -> int:
    """`me` in a check: the player to decide, else the player whose turn it is."""
    deciders = state.players_to_decide()
    return deciders[0] if deciders else int(state.raw["flow"]["active"])


def _offered_matcher(offered: list[str]) -> Callable[[str], bool]:
    """Whether a pattern (`_matches`) matches one of `offered`: by a set for an id, by a search of the sorted ids
    for a prefix, so that a test listing thousands of patterns against thousands of actions stays quick."""
    ids = set(offered)
    ordered = sorted(ids)

    def is_offered(pattern: str) -> bool:
        if not pattern.endswith("*"):
            return pattern in ids
        prefix = pattern[:-1]
        at = bisect_left(ordered, prefix)
        return at < len(ordered) and ordered[at].startswith(prefix)

    return is_offered


def _matches(pattern: str, action_id: str) -> bool:
    if pattern.endswith("*"):
        return action_id.startswith(pattern[:-1])
    return action_id == pattern


def _list(ids: list[str], most: int = 12) -> str:
    if not ids:
        return "nothing"
    return ", ".join(ids[:most]) + (" ..." if len(ids) > most else "")


def _show(state: State, value: Any) -> str:
    """A value as a pack author writes it: items by id, zones by their contents."""
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, ZoneRef):
        content = state.raw["z"].get(value.key)
        if isinstance(content, dict):
            content = {k: n for k, n in content.items() if n}
        return f"{value.key} {_show(state, content)}"
    if isinstance(value, list):
        return "[" + ", ".join(_show(state, v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_show(state, v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        return value if value in state.game.model.item_kind else f'"{value}"'
    return str(value)


def _split_top(text: str, separator: str) -> list[str]:
    """`text` split at `separator` where it stands outside brackets and strings."""
    parts: list[str] = []
    depth, quote, start, i = 0, "", 0, 0
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(separator, i):
            parts.append(text[start:i])
            start = i + len(separator)
            i = start
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _comparison_sides(text: str) -> list[str] | None:
    for operator in _COMPARISONS:
        parts = _split_top(text, operator)
        if len(parts) == 2 and not any(p.rstrip().endswith(("=", "!", "<", ">")) for p in parts[:1]):
            left, right = parts
            if right.startswith("="):
                continue
            return [left, right]
    return None


_UNKNOWN = object()  # a part of a check that cannot be evaluated on its own
_LITERAL = re.compile(r"""^\s*(-?\d+|true|false|none|"[^"]*"|'[^']*')\s*$""")


def _is_literal(text: str) -> bool:
    return bool(_LITERAL.match(text))


# ---------------------------------------------------------------- why an action is refused


def refusal_reason(state: State, action_id: str) -> str:
    """Why `action_id` is not legal now, in words (for matching a test's expected message)."""
    game = state.game
    if state.is_terminal:
        return "the game is over"
    if state.pending is not None:
        return f"the question '{state.pending['prompt']}' waits for an answer"
    name = action_id.partition(":")[0]
    action = game.actions.get(name)
    if action is None:
        return f"there is no action '{name}'"
    flow = state.raw["flow"]
    if flow["stage"] not in action.stages:
        return f"'{name}' is not an action of stage '{flow['stage']}'"
    player = _acting(state)
    limit = action.limit
    usage = flow["usage"]
    for scope, bound, used in (("a turn", limit.turn, usage["turn"].get(name, 0)),
                               ("a visit", limit.visit, usage["visit"].get(name, 0)),
                               ("a game", limit.game, usage["game"].get(f"{name}@{player}", 0))):
        if bound is not None and used >= bound:
            return f"'{name}' is limited to {bound} {scope}, used {used}"
    ctx = Ctx(game.program, state.raw, player)
    try:
        if action.when is not None and not action.when(ctx):
            return f"its 'when' is false for Player {player + 1}"
        if action.params:
            args = _bind_args(game, ctx, action, action_id.partition(":")[2])
            if args is None:
                return f"'{action_id}' is not one of the options of '{name}'"
            ctx.env = args
        for var, amount in action.costs:
            floor = game.model.player_vars[var].min or 0
            if state.raw["pv"][player][var] - amount(ctx) < floor:
                return f"Player {player + 1} cannot pay its cost in {var}"
        for check, message in action.requires:
            if not check(ctx):
                return f"it requires: {message}"
    except RulesError as exc:
        return f"checking it failed: {exc.message}"
    return "it is not offered"


def _bind_args(game: Game, ctx: Ctx, action: Any, text: str) -> dict[str, Any] | None:
    """The parameter values whose ids make `text` (as in `sail:h3` or `buy:gold,coins`), if any."""
    from ..lang.values import as_list, option_id

    wanted = text.split(",")
    if len(wanted) != len(action.params):
        return None
    args: dict[str, Any] = {}
    for param, want in zip(action.params, wanted, strict=True):
        ctx.env = dict(args)
        options = as_list(game.model, ctx.data, param.options(ctx), f"action {action.name} parameter {param.name}")
        match = [v for v in options if option_id(v) == want]
        if not match:
            return None
        args[param.name] = match[0]
    return args


# ---------------------------------------------------------------- `ruleskit test` options


def add_arguments(parser: Any) -> None:
    """The options of `ruleskit test` about a pack's scenario tests."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--scenarios-only", action="store_true",
                       help="run only the pack's scenario tests (its tests/ folder), no random games")
    group.add_argument("--no-scenarios", action="store_true", help="skip the pack's scenario tests")
    parser.add_argument("--base-tests", action="store_true",
                        help="also run the scenario tests of the packs a variant extends, against the variant")


def run_for_command(args: Any, game: Game, quiet: bool = False) -> ScenarioReport | None:
    """Run the scenario tests `ruleskit test` asks for; print what failed unless `quiet`."""
    import sys

    if getattr(args, "no_scenarios", False):
        return None
    report = run_pack_tests(game, with_bases=getattr(args, "base_tests", False))
    if quiet:
        return report
    if report.files:
        print(report.summary())
    elif getattr(args, "scenarios_only", False):
        print(f"{game.name}: no scenario tests (scenario files with expectations in "
              f"{display_path(game.source.root / TESTS_FOLDER)}/, see docs/SCENARIOS.md)")
    for problem in report.problems:
        print(problem, file=sys.stderr)
    return report
