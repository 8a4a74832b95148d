"""Helpers for driving the command line with scripted input."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest


@pytest.fixture()
def script(monkeypatch: pytest.MonkeyPatch) -> Callable[[Iterable[str]], list[str]]:
    """Feed lines to `input()`; EOF once they run out. Returns the prompts asked."""

    def feed(lines: Iterable[str]) -> list[str]:
        pending = list(lines)
        prompts: list[str] = []

        def fake_input(prompt: str = "") -> str:
            prompts.append(prompt)
            if not pending:
                raise EOFError
            return pending.pop(0)

        monkeypatch.setattr("builtins.input", fake_input)
        return prompts

    return feed
