"""The project's own error types.

Every mistake a user can make (in a pack, a scenario, a log or a decision)
ends in one of these, carrying where it happened and what is wrong.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable


class RulesError(Exception):
    """Base of all errors ruleskit reports to users."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        context: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.hint = hint
        self.context = context

    def where(self) -> str:
        if self.file is None:
            return ""
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def __str__(self) -> str:
        text = self.message
        where = self.where()
        if where:
            text = f"{where}: error: {text}"
        if self.hint:
            text += f" ({self.hint})"
        if self.context:
            text += "\n" + self.context.rstrip("\n")
        return text


class PackError(RulesError):
    """A pack (or scenario, or log) cannot be read or is inconsistent."""


class LanguageError(PackError):
    """Rule-language source that does not parse or does not check."""


class RuleViolation(RulesError):
    """A rule forbids what an effect tried to do (a floor, a capacity, a `require`)."""


class ProgramError(RulesError):
    """A program did something meaningless at run time (a field of none, an empty min)."""


class IllegalAction(RulesError):
    """A decision that is not legal now; the state is left as it was."""


class BudgetExceeded(RulesError):
    """A program ran past its step budget or nesting limit."""


class PropertyFailure(RulesError):
    """An `ensure` or a pack property did not hold (raised only while properties are checked)."""

    def __init__(self, name: str, detail: str, *, file: str | None = None, line: int | None = None) -> None:
        super().__init__(f"{name}: {detail}", file=file, line=line)
        self.name = name
        self.detail = detail


class ReplayMismatch(RulesError):
    """A replayed log diverged from what it recorded."""


_WHERE = re.compile(r"\(([^()\s]+):(\d+)\)")


def locate(error: RulesError) -> RulesError:
    """Give a run-time error the file and line its message names ("... in hook h (rules.rk:3)")."""
    if error.file is None:
        found = _WHERE.search(error.message)
        if found:
            error.file, error.line = found.group(1), int(found.group(2))
    return error


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidate, if one is close enough."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def unusable_json(exc: RecursionError | ValueError) -> str:
    """Why text `json.loads` parsed could not be read: nested past the parser's depth, or a number of more
    digits than Python converts."""
    return "nested too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
