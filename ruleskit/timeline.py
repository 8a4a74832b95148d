"""Every state of one replayed game, without keeping each one.

`replay --show` and `serve --log` step back and forth through a logged game. Keeping the state after each
decision cost what each state holds that the one before did not share: a log of 2,000 decisions, each
changing one element of a 99,000-element list, kept 1.6 GB. A timeline keeps every `KEPT_EVERY`-th state
and finds the others by taking the decisions again from the one kept before (the last state found is kept
too, so stepping forward costs one decision).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from .runtime.state import State

KEPT_EVERY = 50


class Timeline(Sequence[State]):
    """The state after setup (index 0) and after each of `decisions` ((action id, player), in order)."""

    def __init__(self, start: State, decisions: list[tuple[str, int]], every: int = KEPT_EVERY) -> None:
        self.decisions = decisions
        self.every = every
        self.kept: list[State] = []
        self._last: tuple[int, State] | None = None
        for index, state in enumerate(self._walk(start.clone(), 0)):
            if index % every == 0:
                self.kept.append(state.clone())

    def _walk(self, state: State, first: int) -> Iterator[State]:
        """`state`, the state after `first` decisions, then each state after it in turn (the same object)."""
        yield state
        for action, player in self.decisions[first:]:
            state.apply(action, player=player)
            yield state

    def __len__(self) -> int:
        return len(self.decisions) + 1

    @overload
    def __getitem__(self, index: int) -> State: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[State]: ...

    def __getitem__(self, index: int | slice) -> State | Sequence[State]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("no such step")
        kept_at = index - index % self.every
        last = self._last
        if last is not None and kept_at <= last[0] <= index:  # nearer than the state kept: stepping forward
            at, state = last[0], last[1].clone()
        else:
            at, state = kept_at, self.kept[kept_at // self.every].clone()
        for action, player in self.decisions[at:index]:
            state.apply(action, player=player)
        self._last = (index, state)
        return state.clone()

    def __iter__(self) -> Iterator[State]:
        """The states in order, each found from the one before (a copy of each)."""
        for state in self._walk(self.kept[0].clone(), 0):
            yield state.clone()
