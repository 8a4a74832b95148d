"""A game at a web table: seats with their own tokens, bots, the feed of events, undo, save and log.

Each seat reaches the game through its own secret token and is sent only its
`view()`, its own legal actions and the events as told to it. Undo follows
`ruleskit play`: a human takes back their own last decision, never past a
chance outcome, past hidden information shown since, or past others' secret
picks shown since. Every change bumps
`version`; a request made against an older version is refused as stale.
"""

from __future__ import annotations

import json
import secrets
import threading
from typing import Any

import attrs

from ..bots import Bot, bot_decision, check_seat_names, derive_seed, make_bot, out_of_turn_choice
from ..errors import IllegalAction, PackError
from ..game import Game
from ..log import log_lines, pack_ref
from ..play import BOT_SEED_SALT, HUMAN, PICKS_SHOWN, others_picks_shown, picks_shown, revealed
from ..runtime.engine import action_label
from ..runtime.state import State
from ..saves import SAVE_FORMAT
from ..tableau import Tableau
from .events import Told, decision_events, opening_events

FEED_LENGTH = 80  # events sent with each payload
# Bots alone would play the whole game inside the request that starts or loads it, answering only at its end.
NO_HUMAN = ("every seat is a bot: a table needs a human seat, or the bots would play the whole game before the "
            "page could answer (to watch bots play, write a log with 'ruleskit simulate PACK --games 1 --log-dir DIR' "
            "and replay it with 'ruleskit serve --log LOG')")


class Refusal(Exception):
    """A request the table turns down; the game is left as it was."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@attrs.define
class Event:
    number: int
    kind: str  # decision, message, chance, undo, start, end
    texts: list[str]  # one per seat
    by: int | None = None  # the player whose decision this is


@attrs.define
class Snapshot:
    """The table before a human decision, for undo."""

    player: int
    state: State
    history_length: int
    events_length: int


def new_token() -> str:
    return secrets.token_urlsafe(16)


class WebTable:
    """One game for a fixed set of seats (humans and bots)."""

    def __init__(self, game: Game, state: State, seats: list[str], seed: int = 0,
                 tableau: Tableau | None = None, story: list[Told] | None = None) -> None:
        """`story` is the feed so far of a game continued (a loaded save); without it the game is new."""
        if len(seats) != state.players:
            raise PackError(f"{len(seats)} seats for a game of {state.players} players")
        check_seat_names(seats, HUMAN)
        if HUMAN not in seats and not state.is_terminal:
            raise PackError(NO_HUMAN)
        self.game = game
        self.state = state
        self.seats = seats
        self.seed = seed
        self.tableau = tableau or Tableau(game)
        self.tokens = [new_token() for _ in seats]
        self.humans = [p for p, name in enumerate(seats) if name == HUMAN]
        self.bots: dict[int, Bot] = {p: make_bot(name, game, derive_seed(seed, BOT_SEED_SALT, p))
                                     for p, name in enumerate(seats) if name != HUMAN}
        self.undo_stack: list[Snapshot] = []
        # (history length after a decision, the seats whose secret picks it showed), for undo
        self.picks_shown: list[tuple[int, set[int]]] = []
        self.events: list[Event] = []
        self.version = 0
        self.lock = threading.RLock()
        if story is None:
            story = opening_events(self.tableau, state, f"New game of {self.tableau.title} for {state.players} players")
        for kind, texts, by in story:
            self.add_event(kind, texts, by)
        self.advance()

    # ------------------------------------------------------------- seats

    def seat_of(self, token: str) -> int:
        for seat, known in enumerate(self.tokens):
            if secrets.compare_digest(known.encode(), token.encode()):  # as bytes: any text compares
                return seat
        raise Refusal("no seat has this address (the game may have been replaced by a new one)", 404)

    def name(self, seat: int) -> str:
        return self.tableau.display.player_name(seat)

    # ------------------------------------------------------------- moving the game on

    def add_event(self, kind: str, texts: list[str], by: int | None = None) -> None:
        if len(texts) == 1:
            texts = texts * self.state.players
        self.events.append(Event(len(self.events) + 1, kind, texts, by))

    def advance(self) -> None:
        """Let the bots decide until a human must, or the game ends.

        Before each decision a bot that is not to decide may take an `anytime` action, as in
        `ruleskit play` (a bot takes part through its optional `intervene`).
        """
        seated: list[Any] = [self.bots.get(p) for p in range(self.state.players)]
        in_a_row = 0
        while not self.state.is_terminal:
            extra = out_of_turn_choice(self.state, seated, in_a_row)
            if extra is not None:
                self.apply(extra.id, extra.player)
                in_a_row += 1
                continue
            in_a_row = 0
            player = self.state.players_to_decide()[0]
            bot = self.bots.get(player)
            if bot is None:
                break
            self.apply(bot_decision(bot, self.state, player).id, player)
        self.version += 1

    def apply(self, action_id: str, player: int) -> None:
        before = self.state
        chosen = next((a for a in self.actions_of(before, player) if a.id == action_id), None)
        if chosen is None:
            raise Refusal(f"'{action_id}' is not one of {self.name(player)}'s actions now", 409)
        after = before.clone()
        try:
            after.apply(chosen)
        except IllegalAction as exc:
            raise Refusal(f"Not allowed: {exc.message}", 409) from None
        self.state = after
        self.version += 1
        shown = picks_shown(before, after)
        if shown:
            self.picks_shown.append((len(after.history), shown))
        for kind, texts, by in decision_events(self.tableau, before, after, chosen):
            self.add_event(kind, texts, by)

    @staticmethod
    def actions_of(state: State, seat: int) -> list[Any]:
        """What `seat` may do now: its decision's actions, or else the `anytime` actions open to it."""
        if seat in state.players_to_decide():
            return state.legal_actions(seat)
        return state.out_of_turn_actions(seat)

    def check_version(self, version: Any) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise Refusal("'version' must be the integer the page was sent")
        if version != self.version:
            raise Refusal("the game has moved on since this page was drawn; it is shown again as it is now", 409)

    def act(self, seat: int, action_id: Any, version: Any) -> None:
        """A human seat takes one of its legal actions."""
        if not isinstance(action_id, str) or not action_id:
            raise Refusal("'action' must be the id of one of your actions")
        with self.lock:
            self.check_version(version)
            if seat in self.bots:
                raise Refusal(f"{self.name(seat)} is played by a bot", 403)
            if seat not in self.state.players_to_decide() and \
                    all(a.id != action_id for a in self.state.out_of_turn_actions(seat)):
                raise Refusal(f"it is not {self.name(seat)}'s decision now", 409)
            snapshot = Snapshot(seat, self.state, len(self.state.history), len(self.events))
            self.apply(action_id, seat)
            self.undo_stack.append(snapshot)
            self.advance()

    def undo(self, seat: int, version: Any) -> None:
        """Take back `seat`'s last decision, under the rules of `ruleskit play`."""
        with self.lock:
            self.check_version(version)
            refusal = self.undo_refusal(seat)
            if refusal:
                raise Refusal(refusal, 409)
            snapshot = self.undo_stack.pop()
            self.picks_shown = [(at, seats) for at, seats in self.picks_shown if at <= snapshot.history_length]
            self.state = snapshot.state
            del self.events[snapshot.events_length:]
            self.add_event("undo", [f"{self.name(seat)} took back a decision"])
            self.version += 1

    def undo_refusal(self, seat: int) -> str | None:
        """Why `seat` may not undo now, or None if it may."""
        if self.state.is_terminal:
            return "The game is over."
        if not self.undo_stack:
            return "Nothing to undo."
        snapshot = self.undo_stack[-1]
        if snapshot.player != seat:
            return (f"The last decision was {self.name(snapshot.player)}'s; "
                    "only your own decisions can be taken back.")
        since = self.state.history[snapshot.history_length:]
        if any(entry.get("chance") for entry in since):
            return "Cannot undo: a chance outcome (a roll, a shuffle, a random draw) has happened since."
        if any(revealed(snapshot.state, self.state, p) for p in self.humans):
            return "Cannot undo: hidden information has been revealed since."
        if others_picks_shown(self.picks_shown, snapshot.history_length, seat):
            return PICKS_SHOWN
        return None

    # ------------------------------------------------------------- what a seat is sent

    def payload(self, seat: int) -> dict[str, Any]:
        """Everything `seat` is sent: its view drawn as a table, its own actions, and the feed as told to it."""
        with self.lock:
            state = self.state
            deciders = state.players_to_decide()
            view = state.view(seat)
            deciding = seat in deciders
            actions = state.legal_actions(seat) if deciding else []
            # Out of turn, a seat may still take an `anytime` action while it waits.
            anytime = state.out_of_turn_actions(seat) if not deciding and seat not in self.bots else []
            simultaneous = view["flow"].get("simultaneous")
            mine = simultaneous.get("mine") if simultaneous else None
            return {
                "mode": "seat",
                "seat": seat,
                "name": self.name(seat),
                "version": self.version,
                "humans": self.humans,
                "seats": [{"seat": p, "name": self.name(p), "kind": kind} for p, kind in enumerate(self.seats)],
                "table": self.tableau.of(view, deciders),
                "deciding": deciding,
                "deciders": deciders,
                "waitingFor": [self.name(p) for p in deciders],
                "prompt": view["pending"]["prompt"] if deciding and "pending" in view else None,
                "actions": self.grouped(actions),
                "outOfTurn": self.grouped(anytime),
                "myPick": pick_label(self.game, mine) if mine else None,
                "feed": [{"n": e.number, "kind": e.kind, "text": e.texts[seat], "by": e.by} for e in self.events[-FEED_LENGTH:]],
                "canUndo": self.undo_refusal(seat) is None,
                "over": state.is_terminal,
            }

    def grouped(self, actions: list[Any]) -> list[dict[str, Any]]:
        """Actions grouped by the pack's action (or by the question asked), in the engine's order."""
        groups: dict[str, dict[str, Any]] = {}
        for action in actions:
            payload = action.payload
            if "choice" in payload:
                title = str(payload["choice"])
            else:
                title = self.action_title(str(payload.get("action", "")))
            group = groups.setdefault(title, {"title": title, "options": []})
            group["options"].append({"id": action.id, "label": action.label})
        return list(groups.values())

    def action_title(self, name: str) -> str:
        """An action's name for a group of its options: its label with the blanks left out."""
        compiled = self.game.actions.get(name)
        if compiled is None:
            return self.tableau.display.label(name)
        title = compiled.label
        for param in compiled.params:
            title = title.replace("{" + param.name + "}", "…")
        return title

    # ------------------------------------------------------------- save, load and log

    def save_text(self) -> str:
        """The game as `ruleskit play`'s save file: `ruleskit play --load FILE` continues it."""
        with self.lock:
            data = {"format": SAVE_FORMAT, "ref": pack_ref(self.game), "seats": self.seats,
                    "state": self.state.to_json()}
            return json.dumps(data, separators=(",", ":"))

    def log_text(self) -> str:
        with self.lock:
            try:
                lines = log_lines(self.state)
            except PackError as exc:  # a game set up at a scenario's position: saved, not logged
                raise Refusal(exc.message) from None
            return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def pick_label(game: Game, pick: dict[str, Any]) -> str:
    """The label of a secret pick kept in the state (`{"action": NAME, "args": {...}}`), as the action's own:
    read from the state, it is told back after a load as it was when the pick was made."""
    return action_label(game.model, game.actions[pick["action"]], pick["args"])
