"""Counting which parts of a pack's program run: rules, procedures, hooks and `if` arms.

Off unless asked for: the closure compiler asks `active()` while it compiles a
construct, and only a pack compiled inside `counting(probe)` gets counters
wrapped around those constructs. Every other pack compiles to exactly the
code it would have without this module, so counting costs nothing when off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import attrs

Fn = Callable[[Any], Any]


@attrs.define
class Site:
    """One countable place in a pack's program."""

    kind: str  # "rule", "procedure", "hook" or "branch"
    name: str  # what a pack author calls it: "proc sail_to", "hook on_turn_end: if arm", ...
    file: str
    line: int | None


@attrs.define
class Probe:
    """The sites of one compiled pack and how often each ran."""

    sites: list[Site] = attrs.Factory(list)
    hits: list[int] = attrs.Factory(list)

    def wrap(self, fn: Fn, kind: str, name: str, file: str, line: int | None) -> Fn:
        """`fn` that first counts a hit at a new site."""
        index = len(self.sites)
        self.sites.append(Site(kind, name, file, line))
        self.hits.append(0)
        hits = self.hits

        def counted(ctx: Any) -> Any:
            hits[index] += 1
            return fn(ctx)

        return counted

    def reset(self) -> None:
        for index in range(len(self.hits)):
            self.hits[index] = 0


_ACTIVE: ContextVar[Probe | None] = ContextVar("ruleskit_coverage_probe", default=None)


def active() -> Probe | None:
    """The probe the pack being compiled counts into, if any."""
    return _ACTIVE.get()


@contextmanager
def counting(probe: Probe) -> Iterator[Probe]:
    """Compile packs inside this block with counters feeding `probe`."""
    token = _ACTIVE.set(probe)
    try:
        yield probe
    finally:
        _ACTIVE.reset(token)
