"""What just happened, told to each seat without giving away what it may not see.

A player's own decisions are told in full. Another player's decision is told
by its label, with every item the seat cannot see now replaced by "(hidden)";
a simultaneous pick is told only as a secret choice until its effects show (an
`anytime` action at that stage is no pick: it is told as any decision).
Dice rolls are public, but a secret die's (`visible = "owner"` or `"none"`),
whose value only the seat that may see it is told; a shuffle or a random draw
is told without its result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..digits import plain_digits
from ..runtime.visibility import roll_seen, roll_visibility, roller
from ..story import answered, is_secret_pick
from ..tableau import Redaction, Tableau

if TYPE_CHECKING:
    from ..runtime.engine import Action
    from ..runtime.state import State

# An event of the feed: its kind, its text (one for every seat, or one per seat) and the player deciding.
Told = tuple[str, list[str], int | None]


def opening_events(tableau: Tableau, state: State, text: str) -> list[Told]:
    """A game's first events: `text`, then the setup's chance outcomes."""
    setup = state.history[0]["chance"] if state.history and state.history[0].get("setup") else []
    return [("start", [text], None), *(("chance", chance_texts(tableau, outcome, state.players), None)
                                      for outcome in setup)]


def decision_events(tableau: Tableau, before: State, after: State, action: Action) -> list[Told]:
    """The events of one decision, `action` taken in `before` and leading to `after`, each told to every seat
    as it may read it: the decision, its chance outcomes, its messages and the game's end."""
    redaction = Redaction(after)  # each seat's view worked out once for all the texts
    told: list[Told] = [("decision", decision_texts(tableau, before, after, action, redaction), action.player)]
    told.extend(("chance", chance_texts(tableau, outcome, after.players), None)
                for outcome in after.history[-1]["chance"])
    told.extend(("message", message_texts(after, message, redaction), None) for message in after.messages)
    if after.is_terminal:
        told.append(("end", [f"Game over: {after.result['reason'] if after.result else ''}"], None))
    return told


def decision_texts(tableau: Tableau, before: State, after: State, action: Action, redaction: Redaction) -> list[str]:
    """How the decision `action`, taken in `before` and leading to `after`, is told to each seat (`redaction`
    hides what each cannot see in `after`)."""
    who = tableau.display.player_name(action.player)
    told = answered(before.prompt, action.label)
    secret_pick = is_secret_pick(before, action.id)
    texts = []
    for seat in range(after.players):
        if seat == action.player:
            texts.append(f"{who}: {told}")
        elif secret_pick:
            texts.append(f"{who} makes a secret choice")
        else:
            texts.append(f"{who}: {redaction.decision(action, before.prompt, seat)}")
    return texts


def message_texts(state: State, message: str, redaction: Redaction) -> list[str]:
    """A pack's message is public; items a seat cannot see are still kept out of it."""
    return [redaction.text(message, seat) for seat in range(state.players)]


def chance_texts(tableau: Tableau, outcome: dict[str, Any], players: int) -> list[str]:
    """A chance outcome as told to each seat."""
    return [chance_text(tableau, outcome, seat) for seat in range(players)]


def chance_text(tableau: Tableau, outcome: dict[str, Any], seat: int | None) -> str:
    """A chance outcome as told to `seat`: the roll of a die (a secret die's without its value, but to its
    roller), or only that something was drawn; to a reader who sees everything (`seat` None), in full."""
    label = tableau.display.label
    if "roll" in outcome:
        model = tableau.model
        if roll_visibility(model, outcome) == "all":
            return f"{label(str(outcome['roll']))} rolled {outcome['value']}"
        rolled_by = roller(outcome)
        who = f"{tableau.display.player_name(rolled_by)} rolled" if rolled_by is not None else "Rolled"
        if roll_seen(model, outcome, seat):
            return f"{who} {label(str(outcome['roll']))}: {outcome['value']} (secret)"
        return f"{who} {label(str(outcome['roll']))}"
    full = seat is None
    if "shuffle" in outcome:
        name = str(outcome["shuffle"])
        zone, _, owner = name.partition("@")
        whose = f" of {tableau.display.player_name(int(owner))}" if plain_digits(owner) else ""
        order = f": {', '.join(tableau.display.item(i) for i in outcome['order'])}" if full else ""
        return f"{label(zone)}{whose} shuffled{order}"
    if full:
        shown = outcome.get("random") or outcome.get("sample") or outcome.get("shuffled")
        return f"random draw: {shown}"
    return "a random draw"
