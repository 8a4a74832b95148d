"""A test run's time budget: `--time 3m`, `90s`, `2m30s`, `1h`.

The run checks the deadline between decisions; when time is up it stops with
what it found so far (a failure found is already written as a log).
"""

from __future__ import annotations

import re
import time

from ..errors import PackError

_PART = re.compile(r"(\d+(?:\.\d+)?)(h|m|s)")
_SECONDS = {"h": 3600.0, "m": 60.0, "s": 1.0}


class OutOfTime(BaseException):
    """The run's time is up. A BaseException, so no check or test harness mistakes it for a failure."""


def parse_duration(text: str) -> float:
    """Seconds in a duration such as `3m`, `90s`, `2m30s`, `1h` or a bare number of seconds."""
    cleaned = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"\d+(?:\.\d+)?", cleaned):
        seconds = float(cleaned)
    else:
        parts = _PART.findall(cleaned)
        if not parts or "".join(number + unit for number, unit in parts) != cleaned:
            raise PackError(f"a duration is like 90s, 3m, 2m30s or 1h, not {text!r}")
        seconds = sum(float(number) * _SECONDS[unit] for number, unit in parts)
    if seconds <= 0:
        raise PackError(f"a duration must be more than nothing, not {text!r}")
    return seconds


class Deadline:
    """The moment a run must stop; `check()` raises `OutOfTime` once it has passed."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.started = time.perf_counter()
        self.passed = False

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def check(self) -> None:
        if self.seconds is not None and self.elapsed >= self.seconds:
            self.passed = True
            raise OutOfTime()
