"""Stepping through a game log in the terminal, forwards and backwards.

The log is first verified by `log.replay`; the game is then re-run from its
header, keeping the state after every decision, so any step can be shown at
once. Each step shows the decision, its consequences (chance, messages, turn
and phase changes) and the table as one seat saw it. With a seat chosen
(`seat N`), the decisions and messages are told as that seat was told them:
another player's secret pick as a secret choice, another player's roll of a
secret die without its value, and the items the seat cannot see replaced by
"(hidden)".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from .digits import plain_digits
from .display import Display
from .log import replay_from_start
from .runtime.engine import Action
from .runtime.state import State
from .safetext import plain
from .story import (
    answered,
    changes,
    decision_line,
    events,
    flow_events,
    flow_mark,
    is_secret_pick,
    outcome_events,
)
from .tableau import Redaction
from .timeline import Timeline

HELP_TEXT = """\
Enter or n: next step   p: previous step   g N: go to step N   first / last
seat N: the table and the story as player N saw them
all: follow whoever decides, the story told in full   q: quit"""


def replay_states(path: str | Path, progress: Callable[[int, int], None] | None = None,
                  pack: str | Path | None = None) -> tuple[Sequence[State], list[str]]:
    """The verified game of a log: the state after setup and after each decision (a `Timeline`), and each
    decision's label.

    `pack` is the pack folder the log was written with; a built-in pack is found from the log itself.
    """
    start, final = replay_from_start(path, pack)
    state = start.clone()
    labels = [""]
    decisions = [(entry["action"], entry["player"]) for entry in final.history if not entry.get("setup")]
    for number, (action, player) in enumerate(decisions, start=1):
        labels.append(_label_of(state.legal_actions(player), action))
        state.apply(action, player=player)
        if progress is not None:
            progress(number, len(decisions))
    return Timeline(start, decisions), labels


def _label_of(actions: list[Action], action_id: str) -> str:
    for action in actions:
        if action.id == action_id:
            return action.label
    return action_id


class ReplayViewer:
    """Shows one step of a replayed game at a time; commands move between steps."""

    def __init__(self, states: Sequence[State], labels: list[str], console: Console,
                 ask: Callable[[str], str] | None = None, compact: bool = True) -> None:
        self.states = states
        self.labels = labels
        self.console = console
        self.ask = ask or input
        self.compact = compact
        self.display = Display(states[0].game)
        self.step = 0
        self.seat: int | None = None  # None: the table as the player deciding next sees it

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def show(self) -> None:
        state = self.states[self.step]
        entry = state.history[-1]
        self.console.rule(plain(f"step {self.step}/{self.last}"), style="dim")
        viewer = self.viewer(state)
        redaction = Redaction(state) if self.seat is not None else None
        told = (lambda text: redaction.text(text, viewer)) if redaction is not None else None
        if self.step == 0:
            self.console.print(plain("Setup", style="bold"))
            lines = events(self.display, entry, None, state, told, self.seat)
        else:
            previous = self.states[self.step - 1]
            player = entry["player"]
            label = answered(previous.prompt, self.labels[self.step])
            secret = False
            if redaction is not None and player != viewer:
                secret = is_secret_pick(previous, str(entry["action"]))
                label = self.label_told(previous, entry, redaction, viewer)
            self.console.print(decision_line(self.display, player, "", label, secret))
            lines = [*outcome_events(self.display, entry, told, self.seat),
                     *changes(self.display, previous.view(viewer), state.view(viewer)),
                     *flow_events(self.display, flow_mark(previous), state)]
        for line in lines:
            self.console.print(line)
        self.console.print(self.display.render(state, viewer, compact=self.compact, width=self.console.size[0]))
        if state.is_terminal:
            self.console.print(self.display.result(state))

    def label_told(self, previous: State, entry: dict[str, Any], redaction: Redaction, seat: int) -> str:
        """Another player's decision as `seat` reads it: without the items it cannot see after it (a card passed
        between two hands it does not hold)."""
        action = next((a for a in previous.legal_actions(entry["player"]) if a.id == entry["action"]), None)
        if action is None:  # not offered as the log has it: its label, read as text
            return redaction.text(answered(previous.prompt, self.labels[self.step]), seat)
        return redaction.decision(action, previous.prompt, seat)

    def viewer(self, state: State) -> int:
        if self.seat is not None:
            return self.seat
        deciding = state.players_to_decide()
        return deciding[0] if deciding else 0

    def run(self) -> int:
        self.show()
        while True:
            try:
                line = self.ask(f"[{self.step}/{self.last}] n/p/g N/seat N/q> ").strip().lower()
            except EOFError:
                return 0
            command, _, rest = line.partition(" ")
            if command in ("q", "quit", "exit"):
                return 0
            target = self.target(command, rest.strip())
            if target is None:
                continue
            self.step = target
            self.show()

    def target(self, command: str, rest: str) -> int | None:
        """The step a command moves to, or None when it moves nowhere (messages say why)."""
        if command in ("", "n", "next"):
            if self.step == self.last:
                self.console.print("This is the last step.")
                return None
            return self.step + 1
        if command in ("p", "b", "prev", "previous", "back"):
            if self.step == 0:
                self.console.print("This is the first step.")
                return None
            return self.step - 1
        if command == "first":
            return 0
        if command in ("last", "end"):
            return self.last
        if command in ("g", "go", "goto") and plain_digits(rest):
            return min(int(rest), self.last)
        if plain_digits(command):
            return min(int(command), self.last)
        if command == "seat" and plain_digits(rest) and 1 <= int(rest) <= self.states[0].players:
            self.seat = int(rest) - 1
            return self.step
        if command == "all":
            self.seat = None
            return self.step
        self.console.print(HELP_TEXT, markup=False, highlight=False)
        return None
