"""What a decision did, told as events: chance outcomes, messages, refused picks, new turns and phases.

Built from the state's public record: each `state.history` entry holds the
decision, its chance outcomes and its messages; the flow before and after
tells turn, round and phase changes. Outcomes that could reveal hidden
information (a shuffle's order, a random card) are told without their value,
and a secret die's roll without its value to all but the seat that may see it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs
from rich.text import Text

from .runtime.visibility import roll_seen, roll_visibility, roller
from .safetext import clean

if TYPE_CHECKING:
    from .display import Display
    from .runtime.state import State

FLOW_KEYS = ("phase", "turn", "round", "active")


def flow_mark(state: State) -> dict[str, Any]:
    """The parts of the flow whose change is worth telling."""
    flow = state.raw["flow"]
    return {key: flow.get(key) for key in FLOW_KEYS}


def chance_event(display: Display, outcome: dict[str, Any], told: Callable[[str], str] | None = None,
                 seat: int | None = None) -> str:
    """A chance outcome as told; `told` gives a text as the readers may read it (a random pick they cannot
    see, a space kept in a hidden var, is told without its value), and `seat` is the reader a secret die's
    roll is told to (None: a reader who sees everything)."""
    if "roll" in outcome:
        scripted = " (scripted)" if outcome.get("scripted") else ""
        rolled = f"rolls {clean(outcome['roll'])}: {clean(outcome['value'])}{scripted}"
        if roll_visibility(display.model, outcome) == "all":
            return rolled
        return f"{rolled} (secret)" if roll_seen(display.model, outcome, seat) else f"rolls {clean(outcome['roll'])}"
    if "random" in outcome:
        picked = outcome["random"]
        board = display.model.board
        if isinstance(picked, int) or (board is not None and display.model.item_kind.get(picked) == board.nodes):
            if told is None or told(str(picked)) == str(picked):
                return f"picked at random: {display.value(picked)}"
        return "a random pick is made"
    if "shuffle" in outcome:
        name = str(outcome["shuffle"]).partition("@")[0]
        return f"{display.label(name)} is shuffled"
    if "shuffled" in outcome:
        return "a random order is drawn"
    if "sample" in outcome:
        return f"{len(outcome['sample'])} picked at random"
    return "a chance outcome"


def events(display: Display, entry: dict[str, Any], before: dict[str, Any] | None, after: State,
           told: Callable[[str], str] | None = None, seat: int | None = None) -> list[Text]:
    """The lines telling one history entry's consequences (not the decision itself)."""
    return outcome_events(display, entry, told, seat) + flow_events(display, before, after)


def outcome_events(display: Display, entry: dict[str, Any], told: Callable[[str], str] | None = None,
                   seat: int | None = None) -> list[Text]:
    """Chance outcomes and messages of one history entry; `told` gives each text as the readers may read it
    (`tableau.Redaction`: the items they cannot see replaced), None for a reader who sees everything; `seat`
    is the reader told a secret die's roll (None: a reader who sees everything)."""
    player = entry.get("player")
    lines = []
    for outcome in entry.get("chance", []):
        # A secret die's roll is told as its roller's, who may not be the one who decided (a hook's roll).
        rolled_by = roller(outcome) if roll_visibility(display.model, outcome) != "all" else None
        by = rolled_by if rolled_by is not None else player
        who = display.player_name(by) + " " if isinstance(by, int) else ""
        lines.append(Text(f"  ⚄ {who}{chance_event(display, outcome, told, seat)}", style="cyan"))
    for message in entry.get("messages", []):
        if told is not None:
            message = told(str(message))
        style = "yellow" if "refused" in str(message) else ""
        # `say ITEM` records the item's id: show it by its name.
        shown = display.item(message) if message in display.model.item_data else clean(message)
        lines.append(Text("  · " + shown, style=style))
    return lines


@attrs.frozen
class SeatLine:
    """A line each reader at a shared screen reads differently (a secret die's roll, its value told to its
    roller alone): `texts[seat]` for each seat told it, `others` for any other reader."""

    texts: dict[int, Text]
    others: Text


def seat_lines(per_seat: dict[int, list[Text]], others: list[Text]) -> list[Text | SeatLine]:
    """The lines of one event told to each seat, and to any other reader (one list each, line for line), as
    one list: a line every seat reads alike as it is, any other as a `SeatLine`."""
    merged: list[Text | SeatLine] = []
    for other, *texts in zip(others, *per_seat.values(), strict=True):
        if all(text.plain == other.plain for text in texts):
            merged.append(other)
        else:
            merged.append(SeatLine(dict(zip(per_seat, texts, strict=True)), other))
    return merged


def read_by(line: Text | SeatLine, seat: int) -> Text:
    """A line as `seat` reads it."""
    return line.texts.get(seat, line.others) if isinstance(line, SeatLine) else line


def flow_events(display: Display, before: dict[str, Any] | None, after: State) -> list[Text]:
    """The game's end, or a new phase, round or turn."""
    if after.is_terminal:
        result = after.result or {}
        return [Text(f"  ■ the game ends: {clean(result.get('reason', ''))}", style="bold")]
    lines = []
    now = flow_mark(after)
    if before is not None and before != now:
        if now["phase"] != before["phase"]:
            lines.append(Text(f"  ▸ phase: {display.label(str(now['phase']))}", style="bold magenta"))
        elif now["round"] != before["round"]:
            lines.append(Text(f"  ▸ round {now['round']}", style="magenta"))
        if now["turn"] != before["turn"]:
            lines.append(Text(f"  ▸ turn {now['turn']}: {display.player_name(int(now['active']))}",
                              style="magenta"))
    return lines


def answered(prompt: str | None, label: str) -> str:
    """A decision as told: its label, after the question it answers, if any (a choice's answer "2" alone
    tells nothing)."""
    if not prompt:
        return label
    return f"{prompt} {label}" if prompt.endswith(("?", ":")) else f"{prompt}: {label}"


def is_secret_pick(before: State, action_id: str) -> bool:
    """Whether the decision `action_id` taken in `before` is a secret pick of a simultaneous stage, told to the
    other seats only as a secret choice: not an answer to a question, nor an `anytime` action, which runs at
    once and shows in its effects."""
    if before.pending is not None or before.raw["flow"]["simul"] is None:
        return False
    action = before.game.actions.get(action_id.partition(":")[0])
    return action is None or not action.anytime


def decision_line(display: Display, player: int, seat: str, label: str, secret: bool) -> Text:
    line = Text(display.player_name(player), style="bold")
    if seat:
        line.append(f" ({clean(seat)})", style="dim")
    line.append(": " + ("makes a secret choice" if secret else clean(label)))
    return line


def changes(display: Display, before: dict[str, Any], after: dict[str, Any], limit: int = 6) -> list[Text]:
    """What a decision changed that the viewer can see: player counters, item values and game counters.

    `before` and `after` are `state.view(viewer)` around the decision; zones are left to the table.
    """
    model = display.model
    lines: list[str] = []
    for p, (old, new) in enumerate(zip(before["player_vars"], after["player_vars"], strict=False)):
        for name, value in new.items():
            if name in old and old[name] != value and name not in display.hints.hide:
                kind = model.player_vars[name].type == "player" if name in model.player_vars else False
                lines.append(f"{display.player_name(p)}: {display.label(name)} "
                             f"{display.value(old[name], kind)} → {display.value(value, kind)}")
    for item, values in after["items"].items():
        old_values = before["items"].get(item, {})
        for name, value in values.items():
            if name in old_values and old_values[name] != value and name not in display.hints.hide:
                lines.append(f"{display.item(item)}: {display.label(name)} "
                             f"{display.value(old_values[name])} → {display.value(value)}")
    for name, value in after["vars"].items():
        old_value = before["vars"].get(name)
        if name in before["vars"] and old_value != value and name not in display.hints.hide:
            kind = model.game_vars[name].type == "player" if name in model.game_vars else False
            lines.append(f"{display.label(name)} {display.value(old_value, kind)} → {display.value(value, kind)}")
    shown = [Text("  ↳ " + line, style="green") for line in lines[:limit]]
    if len(lines) > limit:
        shown.append(Text(f"  ↳ … and {len(lines) - limit} more changes", style="green"))
    return shown
