"""What a test run exercised: actions, end conditions, action limits, rules, procedures, hooks and `if` arms.

`Coverage` watches the games of a run (it is a `Watcher`) and counts, per
player count, the actions taken by name, the end conditions that ended games,
the action limits reached, and, when the pack was compiled with counters
(`instrumented(pack)`), every rule, procedure, hook and `if` arm that ran on
the path of the game (not inside the checks' trial moves on copies).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import attrs

from ..game import Game, load
from ..lang.coverage import Probe, counting
from ..runtime.engine import Action
from ..runtime.state import State
from .strategies import GameRun, Watcher

KINDS = ("action", "end", "limit", "rule", "procedure", "hook", "branch")
TURN_LIMIT = "turn limit"  # the engine's own end reason once [flow] max_turns is passed


def instrumented(pack: str | Path | Game) -> tuple[Game, Probe]:
    """The pack compiled afresh with coverage counters (closure backend), and the probe they count into."""
    where = pack.source.root if isinstance(pack, Game) else pack
    checking = isinstance(pack, Game) and pack.check_properties
    probe = Probe()
    with counting(probe):
        game = load(where, backend="closures", check_properties=checking)
    return game, probe


@attrs.define
class Item:
    """One thing a run can reach, and how often it was reached at each player count."""

    kind: str
    name: str
    file: str | None
    line: int | None
    hits: dict[int, int] = attrs.Factory(dict)

    @property
    def where(self) -> str:
        if self.file is None:
            return ""
        return f"{self.file}:{self.line}" if self.line else self.file

    @property
    def total(self) -> int:
        return sum(self.hits.values())


class Coverage(Watcher):
    """Counts what the games of a run reach; see the module's docstring."""

    def __init__(self, game: Game, counts: list[int], probe: Probe | None = None) -> None:
        self.game = game
        self.counts = list(counts)
        self.probe = probe
        self.actions: dict[int, Counter[str]] = {c: Counter() for c in counts}
        self.ends: dict[int, Counter[str]] = {c: Counter() for c in counts}
        self.limits: dict[int, Counter[str]] = {c: Counter() for c in counts}
        self.games: Counter[int] = Counter()
        size = len(probe.sites) if probe is not None else 0
        self.sites: dict[int, list[int]] = {c: [0] * size for c in counts}
        # The sites each action (by name) has run when taken, per count: exploration prefers rare ones.
        self.touched: dict[int, dict[str, set[int]]] = {c: {} for c in counts}
        self._changed: list[int] = []
        self._mark: list[int] = []
        self.limited = {name: action.limit for name, action in game.actions.items() if action.limited}

    # ------------------------------------------------------------- watching

    def starting(self, run: GameRun) -> None:
        self._mark = list(self.probe.hits) if self.probe is not None else []

    def started(self, run: GameRun, state: State) -> None:
        self._count_since_mark(run.players)  # the setup

    def applying(self, run: GameRun, action: Action, state: State) -> None:
        if self.probe is not None:
            self._mark = list(self.probe.hits)

    def applied(self, run: GameRun, action: Action, state: State) -> None:
        self._count_since_mark(run.players)
        name = action_name(action)
        if name is None:
            return
        self.actions[run.players][name] += 1
        if self._changed:
            self.touched[run.players].setdefault(name, set()).update(self._changed)
        limit = self.limited.get(name)
        if limit is not None:
            usage = state.raw["flow"]["usage"]
            reached = ((limit.turn is not None and usage["turn"].get(name, 0) >= limit.turn)
                       or (limit.visit is not None and usage["visit"].get(name, 0) >= limit.visit)
                       or (limit.game is not None and usage["game"].get(f"{name}@{action.player}", 0) >= limit.game))
            if reached:
                self.limits[run.players][name] += 1

    def ended(self, run: GameRun, state: State) -> None:
        self.games[run.players] += 1
        result = state.result
        if result is not None:
            self.ends[run.players][result["reason"]] += 1

    def _count_since_mark(self, players: int) -> None:
        if self.probe is None:
            return
        totals = self.sites[players]
        mark = self._mark
        changed = self._changed = []
        for index, hits in enumerate(self.probe.hits):
            if hits != mark[index]:
                totals[index] += hits - mark[index]
                changed.append(index)

    # ------------------------------------------------------------- reporting

    def items(self) -> list[Item]:
        """Everything the run could reach, with its hits per player count, in the pack's order."""
        found: list[Item] = []
        for name, action in self.game.actions.items():
            source = action.source
            found.append(Item("action", name, source.file if source else None, source.line if source else None,
                              {c: self.actions[c][name] for c in self.counts}))
        for name, end in (self.game.definitions.get("end") or {}).items():
            source = end.source
            found.append(Item("end", f"{name} ({end.reason})", source.file if source else None,
                              source.line if source else None, {c: self.ends[c][end.reason] for c in self.counts}))
        if any(self.ends[c][TURN_LIMIT] for c in self.counts):  # the engine's safety net: listed once reached
            found.append(Item("end", f"past max_turns ({TURN_LIMIT})", None, None,
                              {c: self.ends[c][TURN_LIMIT] for c in self.counts}))
        for name, limit in self.limited.items():
            source = self.game.actions[name].source
            per = ", ".join(f"{n} per {what}" for what, n in (("turn", limit.turn), ("visit", limit.visit),
                                                              ("game", limit.game)) if n is not None)
            found.append(Item("limit", f"{name} ({per})", source.file if source else None,
                              source.line if source else None, {c: self.limits[c][name] for c in self.counts}))
        if self.probe is not None:
            for index, site in enumerate(self.probe.sites):
                found.append(Item(site.kind, site.name, site.file, site.line,
                                  {c: self.sites[c][index] for c in self.counts}))
        return sorted(found, key=lambda item: KINDS.index(item.kind))

    def unreached(self) -> list[Item]:
        """Items no game reached at some player count, with the counts where they were missed."""
        return [item for item in self.items() if any(item.hits[c] == 0 for c in self.counts)]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.counts,
            "games": {str(c): self.games[c] for c in self.counts},
            "branches_counted": self.probe is not None,
            "items": [{"kind": item.kind, "name": item.name, "file": item.file, "line": item.line,
                       "hits": {str(c): n for c, n in item.hits.items()}} for item in self.items()],
        }

    def table(self) -> str:
        """A plain-text table: one line per item, hits per player count, then the items never reached."""
        items = self.items()
        counts = self.counts
        name_width = min(60, max(len(item.name) for item in items) if items else 10)
        head = f"{'kind':<10}{'name':<{name_width + 2}}" + "".join(f"{str(c) + 'p':>8}" for c in counts) + "  where"
        lines = [f"coverage of {self.game.name}: " + ", ".join(f"{self.games[c]} games at {c}p" for c in counts), head]
        for item in items:
            name = item.name if len(item.name) <= name_width else item.name[:name_width - 1] + "~"
            lines.append(f"{item.kind:<10}{name:<{name_width + 2}}"
                         + "".join(f"{item.hits[c]:>8}" for c in counts) + f"  {item.where}")
        missed = self.unreached()
        reached = len(items) - len(missed)
        lines.append(f"reached at every player count: {reached} of {len(items)}"
                     + ("" if self.probe is not None else " (rules, procedures, hooks and branches not counted)"))
        if missed:
            lines.append("never reached:")
            for item in missed:
                absent = [f"{c}p" for c in counts if item.hits[c] == 0]
                where = f" at {item.where}" if item.where else ""
                when = "" if len(absent) == len(counts) else f" (at {', '.join(absent)})"
                lines.append(f"  {item.kind} {item.name}{where}{when}")
        return "\n".join(lines)


def action_name(action: Action) -> str | None:
    """The pack's name of an action, or None for an answer to a choice inside one."""
    name = action.payload.get("action")
    return name if isinstance(name, str) else None
