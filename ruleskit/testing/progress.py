"""Showing a test run as it goes: games, decisions, the player count playing, the time spent.

On a terminal it draws a rich status line; otherwise (a log file, CI) it
writes a plain line to stderr every few seconds. Either way it says when a
failure was found and while it is being shrunk.
"""

from __future__ import annotations

import sys
import time
from typing import IO, Any


class ProgressDisplay:
    """Called with the run's report as it changes; use as a context manager."""

    def __init__(self, total: int | None, budget: float | None, *, enabled: bool = True,
                 stream: IO[str] | None = None, every: float = 5.0) -> None:
        self.total = total
        self.budget = budget
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.every = every
        self.live: Any = None
        self.task: Any = None
        self.last_line = 0.0
        self.last_status = ""

    def __enter__(self) -> ProgressDisplay:
        if self.enabled and self.stream.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.live = Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                                 console=Console(file=self.stream), transient=True)
            self.live.__enter__()
            self.task = self.live.add_task("testing", total=self.total)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.live is not None:
            self.live.__exit__(*exc)

    def __call__(self, report: Any) -> None:
        if not self.enabled:
            return
        status = describe_progress(report, self.total, self.budget)
        if self.live is not None:
            self.live.update(self.task, completed=sum(report.games.values()), description=status)
            return
        now = time.monotonic()
        important = report.failure is not None and not self.last_status.startswith(("found", "shrinking"))
        if important or now - self.last_line >= self.every:
            self.last_line = now
            self.last_status = status
            print(status, file=self.stream, flush=True)


def describe_progress(report: Any, total: int | None, budget: float | None) -> str:
    done = sum(report.games.values())
    games = f"{done}/{total} games" if total else f"{done} games"
    elapsed = f"{report.elapsed:.0f}s" + (f" of {budget:.0f}s" if budget else "")
    playing = f", playing {report.players_now}p" if report.players_now and report.failure is None else ""
    if report.failure is not None:
        what = "shrinking" if report.shrinking else "found"
        return (f"{what} a failure ({report.failure.name}): shortest game so far {len(report.failure.steps)} "
                f"decisions, {report.shrink_attempts} tried, {elapsed}")
    return f"testing: {games}, {report.decisions + report.decisions_now} decisions{playing}, {elapsed}"
