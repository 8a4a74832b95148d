"""A game log, stepped through: the state after setup and after each decision, from any seat or in full.

The log is first checked with `log.replay` (a mismatch is an error naming its
line), then re-run once, keeping each state so the viewer can jump anywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ReplayMismatch
from ..game import Game
from ..log import replay_from_start
from ..runtime.state import State
from ..story import answered
from ..tableau import Redaction, Tableau, full_view
from ..timeline import Timeline
from .events import chance_text, chance_texts, decision_texts, message_texts

MAX_STEPS = 100_000


class LogReplay:
    """Every state of one logged game."""

    def __init__(self, path: str | Path, pack: str | Path | Game | None = None) -> None:
        """`pack` is the pack folder the log was written with (a log never chooses one); a built-in pack is
        found from the log itself."""
        self.path = str(path)
        state, final = replay_from_start(path, pack)  # raises ReplayMismatch or PackError, located in the log
        self.game = final.game
        self.tableau = Tableau(self.game)
        self.told: list[list[dict[str, Any]]] = [self._setup_lines(state)]
        decisions: list[tuple[str, int]] = []
        before = state
        for entry in final.history[1:][:MAX_STEPS]:
            action = next((a for a in before.legal_actions(entry["player"]) if a.id == entry["action"]), None)
            if action is None:
                raise ReplayMismatch(f"decision '{entry['action']}' cannot be found again", file=self.path)
            after = before.clone()
            after.apply(action)
            decisions.append((action.id, action.player))
            self.told.append(self._step_lines(before, after, action))
            before = after
        # Not every state kept: a state per step cost gigabytes for a log of a big game (`Timeline`).
        self.states: Sequence[State] = Timeline(state, decisions)

    @property
    def steps(self) -> int:
        """The last step's number: 0 is the game just set up."""
        return len(self.states) - 1

    def _setup_lines(self, state: State) -> list[dict[str, Any]]:
        return [{"kind": "chance", "all": chance_text(self.tableau, o, None),
                 "seats": chance_texts(self.tableau, o, state.players)} for o in state.history[0]["chance"]]

    def _step_lines(self, before: State, after: State, action: Any) -> list[dict[str, Any]]:
        who = self.tableau.display.player_name(action.player)
        redaction = Redaction(after)
        lines = [{"kind": "decision", "all": f"{who}: {answered(before.prompt, action.label)}",
                  "seats": decision_texts(self.tableau, before, after, action, redaction)}]
        for outcome in after.history[-1]["chance"]:
            lines.append({"kind": "chance", "all": chance_text(self.tableau, outcome, None),
                          "seats": chance_texts(self.tableau, outcome, after.players)})
        for message in after.messages:
            lines.append({"kind": "message", "all": message, "seats": message_texts(after, message, redaction)})
        return lines

    def summary(self) -> dict[str, Any]:
        final = self.states[-1]
        return {"mode": "replay", "title": self.tableau.title, "log": Path(self.path).name,
                "steps": self.steps, "players": final.players,
                "names": [self.tableau.display.player_name(p) for p in range(final.players)]}

    def step(self, number: int, seat: int | None) -> dict[str, Any]:
        """The state after `number` steps, seen by `seat` (None: everything)."""
        state = self.states[number]
        view = full_view(state) if seat is None else state.view(seat)
        deciders = state.players_to_decide()
        feed = []
        for index in range(max(0, number - 20), number + 1):
            for line in self.told[index]:
                feed.append({"n": index, "kind": line["kind"],
                             "text": line["all"] if seat is None else line["seats"][seat]})
        return {"mode": "replay", "step": number, "steps": self.steps, "seat": seat,
                "table": self.tableau.of(view, deciders), "feed": feed,
                "deciders": deciders,
                "waitingFor": [self.tableau.display.player_name(p) for p in deciders]}
