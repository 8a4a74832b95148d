"""A saved game continued at the web table: the save checked whole, then its story told again.

A save keeps the state with its history: every decision and chance outcome
since the setup. The decisions are replayed from the pack's setup with the
game's seed, and each is told to each seat as the live table told it
(`events.decision_events`): a seat reads after the load what it read before,
its own decisions in full, others' as it may see them, others' secret picks
as secret choices. A game set up at a scenario's position, or one whose
history does not lead to its state (a save edited by hand, a game begun with
options), or one whose history is too long to replay (`MAX_STEPS` decisions,
`limits.MAX_RETOLD_STEPS` steps), is continued without its story; the feed
says why.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from ..bots import BOTS
from ..errors import RulesError
from ..game import Game
from ..jsonlocate import json_path_position
from ..limits import MAX_RETOLD_STEPS
from ..play import HUMAN, fresh_seed
from ..runtime.state import State
from ..safetext import clean
from ..saves import SAVE_FORMAT
from ..tableau import Tableau
from ..validation import InvalidData
from .events import Told, decision_events, opening_events
from .replay import MAX_STEPS
from .table import FEED_LENGTH, NO_HUMAN, Refusal, WebTable

MAX_NAME = 120  # characters of an uploaded file's name told in the feed
NOT_REPLAYED = "its saved decisions do not lead to its position from the pack's setup"
TOO_LONG = "its history is too long to replay"


def table_from_save(game: Game, text: str, tableau: Tableau | None = None, name: str | None = None) -> WebTable:
    """A table continuing a game saved by `save_text` or by `ruleskit play`; `name` is the file's, if known."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Refusal(f"the saved game is not JSON: {exc.msg} (line {exc.lineno})") from None
    except (RecursionError, ValueError):
        raise Refusal("the saved game is not usable JSON (nested too deeply, or a number too long)") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or not isinstance(data.get("seats"), list):
        raise Refusal("not a saved ruleskit game")
    seats = data["seats"]
    # Only a human or a built-in bot by its plain name, as `ruleskit play --load` takes them: a seat naming a
    # module would import it and call what it names, and an option could set a bot searching without end.
    unknown = [s for s in seats if not isinstance(s, str) or (s != HUMAN and s not in BOTS)]
    if unknown:
        raise Refusal(f"unknown seat {unknown[0]!r} in the saved game: human, or a bot ({', '.join(BOTS)})")
    saved = data.get("state")
    if not isinstance(saved, dict):
        raise Refusal("the saved game holds no state")
    tableau = tableau or Tableau(game)
    try:
        state = State.from_json(game, saved)
        if len(seats) != state.players:
            raise Refusal(f"the saved game names {len(seats)} seats for its {state.players} players")
        if HUMAN not in seats and not state.is_terminal:  # before its story is replayed for nothing
            raise Refusal(f"cannot load this saved game: {NO_HUMAN}")
        story, untold = retold(tableau, state, FEED_LENGTH)
        story.append(("load", [loaded_text(tableau, state, name, untold)], None))
        # Bots seeded afresh, as `play --load` seeds them: from a fixed seed their moves after a load would repeat
        # and could be foreseen.
        table = WebTable(game, state, seats, seed=fresh_seed(), tableau=tableau, story=story)
        for seat in range(state.players):  # draw every seat's screen once: a damaged state fails here
            table.payload(seat)
            state.legal_actions(seat)
        return table
    except InvalidData as exc:  # its path starts at the state: told from the file's top, with its line
        path = "$.state" + exc.path.removeprefix("$")
        where = json_path_position(text, path)
        at = f" (line {where[0]}, column {where[1]})" if where is not None else ""
        raise Refusal(f"cannot load this saved game: {path}{at}: {exc.detail}") from None
    except RulesError as exc:
        raise Refusal(f"cannot load this saved game: {exc.message}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        # A save edited by hand can be valid JSON and still not be a game.
        raise Refusal("cannot load this saved game: its state is damaged") from None


def retold(tableau: Tableau, state: State, limit: int) -> tuple[list[Told], str | None]:
    """The events of `state`'s history as the live table told them (its last `limit` decisions), and None;
    or no events and why the story cannot be told."""
    if state.from_scenario:
        return [], "it was set up at a scenario's position"
    decisions = state.history[1:]
    if len(decisions) > MAX_STEPS:  # as many as a log's replay steps through
        return [], f"{TOO_LONG} (more than {MAX_STEPS:,} decisions)"
    skipped = max(0, len(decisions) - limit)
    spent = 0  # the steps of the states replayed and let go
    title = tableau.title
    try:
        replayed = state.game.new_game(players=state.players, seed=state.raw["seed"])
        begun = f"The game of {title} for {state.players} players began"
        told: list[Told] = opening_events(tableau, replayed, begun) if not skipped else \
            [("start", [f"{begun} ({skipped} decisions before these not shown)"], None)]
        for index, entry in enumerate(decisions):
            player = entry["player"]
            if index < skipped:  # beyond the feed's length: replayed, not told
                replayed.apply(entry["action"], player=player)
            else:
                chosen = next((a for a in WebTable.actions_of(replayed, player) if a.id == entry["action"]), None)
                if chosen is None:
                    return [], NOT_REPLAYED
                after = replayed.clone()
                after.apply(chosen)
                told.extend(decision_events(tableau, replayed, after, chosen))
                spent += replayed.work
                replayed = after
            if spent + replayed.work > MAX_RETOLD_STEPS:
                return [], f"{TOO_LONG} (more than {MAX_RETOLD_STEPS:,} steps of the pack's code)"
    except (RulesError, RecursionError, KeyError, IndexError, TypeError, ValueError):
        return [], NOT_REPLAYED
    if replayed != state:
        return [], NOT_REPLAYED
    return told, None


def loaded_text(tableau: Tableau, state: State, name: str | None, untold: str | None) -> str:
    """The feed's note that a saved game was loaded: from which file, how far it had gone, and why its story is
    not told, if it is not."""
    decisions = sum(1 for entry in state.history if not entry.get("setup"))
    flow = state.raw["flow"]
    if state.is_terminal:
        where = "; the game is over"
    else:
        where = f", at turn {flow['turn']}" + (f" (round {flow['round']})" if flow.get("round") else "")
    title = tableau.title
    text = (f"Loaded {name}" if name else "Loaded a saved game") + \
        f": {title} for {state.players} players after {decisions} decision{'' if decisions == 1 else 's'}{where}"
    return text + (f" (what happened before is not told: {untold})" if untold else "")


def file_name(text: str | None) -> str | None:
    """An uploaded file's name as the feed tells it: its last part, plain text, cut short; None if empty."""
    if not text:
        return None
    base = PureWindowsPath(PurePosixPath(text).name).name
    shown = clean(base).strip()
    if len(shown) > MAX_NAME:
        shown = shown[:MAX_NAME - 1] + "…"
    return shown or None
