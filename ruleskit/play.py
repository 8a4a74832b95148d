"""Terminal play: humans (hot-seat) and bots at one table.

Each human sees only their own view. When the decision passes to another
human, the screen is handed over behind a prompt, so nothing private is shown
to the wrong player. At the prompt a human types the number of an action (or
its id), or a command: `undo`, `save FILE`, `show`, `help`, `quit`.

`undo` goes back to before the human's last decision, but never past a chance
outcome (a roll, a shuffle, a random pick), past information that was
hidden from a human player and is now shown to them, or past the end of a
simultaneous stage where another player picked in secret.
"""

from __future__ import annotations

import json
import secrets
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import attrs
from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.text import Text

from .atomic import write_text_atomically
from .bots import Bot, bot_decision, derive_seed, make_bot, out_of_turn_choice
from .digits import plain_digits
from .display import Display
from .errors import IllegalAction, PackError
from .game import Game
from .log import pack_ref, write_log
from .resources import builtin_packs
from .runtime.engine import Action
from .runtime.state import State
from .runtime.visibility import NO_VIEWER, roll_visibility
from .safetext import plain, shell_word
from .saves import SAVE_FORMAT
from .story import (
    SeatLine,
    answered,
    changes,
    decision_line,
    flow_events,
    flow_mark,
    is_secret_pick,
    outcome_events,
    read_by,
    seat_lines,
)
from .tableau import Redaction, known_items, secret_items

HUMAN = "human"
BOT_SEED_SALT = 104729
MAX_SEED = 2**63 - 1
LAYOUTS = ("auto", "compact", "full")
# Below this size the table is drawn compactly (a few wrapped lines per section).
FULL_LAYOUT_SIZE = (100, 40)
# In the compact layout, past this many actions they are listed in columns.
ACTIONS_IN_COLUMNS = 3
# At most this many characters of a line typed at the prompt are repeated in a refusal.
ECHOED = 60
# Erases the lines scrolled off the screen (xterm's "erase saved lines", which `clear` sends too).
ERASE_SCROLLBACK = "\x1b[3J"
# In the compact layout, at most this many lines of what happened since a human's last screen are shown.
STORY_LINES = 8

HELP_TEXT = """\
Type the number of an action to take it (or its id). Commands:
  undo        take back your last decision (not past dice, shuffles, revealed cards or others' secret picks)
  save FILE   save the game; continue it later with: ruleskit play --load FILE
  show        show the table again
  as N        act out of turn as player N: the actions they may take at any time
  log         what happened so far in this session, in full
  help        this text
  quit        leave the game (it is saved to the log file if you gave --log)"""


@attrs.define
class Snapshot:
    """The state before a human decision, for undo."""

    player: int
    state: State
    history_length: int
    told_length: int  # the lines told so far, for `log`: a decision taken back is no longer part of the game


class PlaySession:
    """One game at the terminal."""

    def __init__(self, game: Game, state: State, seats: list[str], console: Console,
                 ask: Callable[[str], str] | None = None, seed: int = 0, log_path: str | None = None,
                 layout: str = "auto") -> None:
        if len(seats) != state.players:
            raise PackError(f"{len(seats)} seats for a game of {state.players} players")
        self.game = game
        self.state = state
        self.seats = seats
        self.console = console
        self.ask = ask or _read_line
        self.log_path = log_path
        self.display = Display(game)
        self.bots: dict[int, Bot] = {p: make_bot(name, game, derive_seed(seed, BOT_SEED_SALT, p))
                                     for p, name in enumerate(seats) if name != HUMAN}
        self.humans = [p for p, name in enumerate(seats) if name == HUMAN]
        self.undo_stack: list[Snapshot] = []
        self.at_screen: int | None = None  # the human who may see the screen now
        self.layout = layout
        # (history length after a decision, the seats whose secret picks it showed), for undo
        self.picks_shown: list[tuple[int, set[int]]] = []
        self.story: list[Text | SeatLine] = []  # what happened since a human last saw the table
        self.told: list[Text | SeatLine] = []  # everything told in this session, for `log`

    @property
    def compact(self) -> bool:
        if self.layout != "auto":
            return self.layout == "compact"
        width, height = self.console.size
        return width < FULL_LAYOUT_SIZE[0] or height < FULL_LAYOUT_SIZE[1]

    def render(self, viewer: int) -> RenderableType:
        return self.display.render(self.state, viewer, compact=self.compact, width=self.console.size[0])

    # ------------------------------------------------------------- the loop

    def run(self) -> int:
        """Play until the game ends or a human quits; 0 either way."""
        if len(self.state.history) == 1 and self.state.history[0].get("setup"):
            setup = [*self.outcome_lines(self.state), *flow_events(self.display, None, self.state)]
            if self.humans:
                self.story.extend(setup)
            else:
                for line in setup:
                    self.console.print(line)
        try:
            return self.play_on()
        except KeyboardInterrupt:  # Ctrl-C: the game so far is kept in the log asked for, as `quit` keeps it
            self.console.print("Game left unfinished.")
            self.write_log()
            raise

    def play_on(self) -> int:
        """The game's decisions, from where it stands, until it ends or a human quits; 0 either way."""
        in_a_row = 0  # out-of-turn actions by bots since the last decision
        seated = [self.bots.get(p) for p in range(self.state.players)]
        while not self.state.is_terminal:
            extra = out_of_turn_choice(self.state, seated, in_a_row)
            if extra is not None:  # a bot acts out of turn (an `anytime` action), then the decider goes on
                in_a_row += 1
                before = self.state.clone()
                self.state.apply(extra, player=extra.player)
                self.tell(extra.player, self.seats[extra.player], extra, False, before)
                continue
            in_a_row = 0
            player = self.state.players_to_decide()[0]
            if player in self.bots:
                self.bot_turn(player)
            elif not self.human_turn(player):
                self.console.print("Game left unfinished.")
                self.write_log()
                return 0
        self.finished()
        return 0

    def bot_turn(self, player: int) -> None:
        action = bot_decision(self.bots[player], self.state, player)
        secret = is_secret_pick(self.state, action.id)
        before = self.state.clone()
        self.state.apply(action)
        self.tell(player, self.seats[player], action, secret, before)

    def tell(self, player: int, seat: str, action: Action, secret: bool, before: State) -> None:
        """The decision just taken, then its consequences; kept for the next human screen when humans play.
        The humans who did not take it read its label without the items they cannot see now (a card passed
        between two hidden hands)."""
        shown = picks_shown(before, self.state)
        if shown:
            self.picks_shown.append((len(self.state.history), shown))
        others = [human for human in self.humans if human != player]
        redaction = Redaction(self.state)
        label = redaction.decision(action, before.prompt, *others) if others and not secret \
            else answered(before.prompt, action.label)
        lines = [decision_line(self.display, player, seat, label, secret),
                 *self.outcome_lines(self.state, redaction),
                 *self.visible_changes(before),
                 *flow_events(self.display, flow_mark(before), self.state)]
        self.told.extend(lines)
        if self.humans:
            self.story.extend(lines)
        else:
            for line in lines:
                self.console.print(line)

    def outcome_lines(self, state: State, redaction: Redaction | None = None) -> list[Text | SeatLine]:
        """The chance outcomes and messages of `state`'s last entry as told at this table: a secret die's roll is
        told with its value to the human who rolled it alone (a `SeatLine`, read by whoever is at the screen
        when it is shown); everything else alike to every human."""
        entry = state.history[-1]
        told = self.told_to_humans(state, redaction)
        model = self.game.model
        if not self.humans or all(roll_visibility(model, o) == "all" for o in entry.get("chance", [])):
            return list(outcome_events(self.display, entry, told))
        return seat_lines({seat: outcome_events(self.display, entry, told, seat) for seat in self.humans},
                          outcome_events(self.display, entry, told, NO_VIEWER))

    def told_to_humans(self, state: State, redaction: Redaction | None = None) -> Callable[[str], str] | None:
        """How the pack's messages and chance outcomes about `state` are told at this table: without the items
        some human cannot see (the next screen may be theirs); as they are when no human plays."""
        if not self.humans:
            return None
        shown = redaction or Redaction(state)
        return lambda text: shown.text(text, *self.humans)

    def visible_changes(self, before: State) -> list[Text]:
        """Changed values every human at the table may see (so a hand-over never shows another's secrets)."""
        viewers = self.humans or [0]
        common: list[Text] | None = None
        for viewer in viewers:
            seen = changes(self.display, before.view(viewer), self.state.view(viewer))
            common = seen if common is None else [line for line in common if line.plain in {s.plain for s in seen}]
        return common or []

    def tell_story(self, reader: int) -> None:
        """What happened since a human last saw the table, as `reader`, at the screen, is told it."""
        lines, self.story = self.story, []
        if self.compact and len(lines) > STORY_LINES:
            self.console.print(plain(f"  … {len(lines) - STORY_LINES} earlier lines", style="dim"))
            lines = lines[-STORY_LINES:]
        for line in lines:
            self.console.print(read_by(line, reader))

    def human_turn(self, player: int) -> bool:
        """Ask `player` until they decide; False if they quit."""
        if not self.hand_over(player):
            return False
        self.show(player)
        while True:
            try:
                line = self.ask(f"{self.display.player_name(player)}> ").strip()
            except EOFError:
                return False
            if not line:
                continue
            command, _, rest = line.partition(" ")
            command = command.lower()
            if command in ("quit", "exit", "q"):
                return False
            if command in ("help", "?", "h"):
                self.console.print(HELP_TEXT, highlight=False, markup=False)
            elif command in ("show", "board"):
                self.show(player)
            elif command == "log":
                for told in self.told or [Text("Nothing has happened yet.")]:
                    self.console.print(read_by(told, player))
            elif command == "undo":
                if self.undo(player):
                    return True
            elif command == "save":
                self.save(rest.strip())
            elif command == "as":
                if self.out_of_turn(rest.strip(), player):
                    return True  # the game goes on from where that action left it (it may have ended)
            else:
                action = self.pick(line, player)
                if action is not None:
                    self.take(action, player)
                    return True

    def out_of_turn(self, text: str, decider: int) -> bool:
        """A human who is not to decide takes one of their `anytime` actions; True if they took one. The decider
        is asked again from the state it leaves: it may have ended the game or changed what the decider may do."""
        humans = [p + 1 for p in self.humans if p != decider]
        if not plain_digits(text) or int(text) - 1 not in self.humans or int(text) - 1 == decider:
            others = ", ".join(str(n) for n in humans) or "none"
            self.console.print(plain(f"Act out of turn as another human player: as N (N: {others})."))
            return False
        player = int(text) - 1
        # Handed over before anything is said: whether a player may act out of turn can tell what they hold.
        if not self.hand_over(player):
            return False
        chosen = self.choose_out_of_turn(player)
        if chosen is None:
            if self.hand_over(decider):
                self.show(decider)
            return False
        before = self.state.clone()
        self.state.apply(chosen, player=player)
        self.undo_stack.append(Snapshot(player, before, len(before.history), len(self.told)))
        self.tell(player, "", chosen, False, before)
        return True

    def choose_out_of_turn(self, player: int) -> Action | None:
        """The `anytime` action `player`, at the screen, takes now; None if they have none or go back."""
        name = self.display.player_name(player)
        self.console.print(self.render(player))
        actions = self.state.out_of_turn_actions(player)
        if actions:
            self.console.print(plain(f"{name}, out of turn (Enter to go back):", style="bold"))
        else:
            self.console.print(plain(f"{name} has nothing to do out of turn now (Enter to go back).", style="bold"))
        for number, action in enumerate(actions, start=1):
            self.console.print(Text("  ") + plain(f"{number:>2}. {action.label}"))
        try:
            line = self.ask(f"{name}> ").strip()
        except EOFError:
            line = ""
        return next((a for n, a in enumerate(actions, start=1) if line in (str(n), a.id)), None) if line else None

    def hand_over(self, player: int) -> bool:
        if self.at_screen == player:
            return True
        if self.at_screen is not None or len(self.humans) > 1:
            if self.console.is_terminal:
                self.clear_screen()
            self.console.print(plain(f"Pass the screen to {self.display.player_name(player)}, then press Enter."))
            try:
                self.ask("")
            except EOFError:
                return False
        self.at_screen = player
        return True

    def clear_screen(self) -> None:
        """Clear the screen and the lines scrolled off it: the last player's hand was a scroll away from the next
        player (a terminal keeps what a clear of the screen pushes off it)."""
        self.console.clear()
        if not self.console.legacy_windows:  # a Windows console of old takes no escape sequences
            self.console.file.write(ERASE_SCROLLBACK)
            self.console.file.flush()

    def show(self, player: int) -> None:
        self.console.print(self.render(player))
        self.tell_story(player)
        if self.state.prompt:
            self.console.print(plain(self.state.prompt, style="bold"))
        entries = [plain(f"{number:>2}. {action.label}")
                   for number, action in enumerate(self.state.legal_actions(player), start=1)]
        if self.compact and len(entries) > ACTIONS_IN_COLUMNS:
            self.console.print(Columns(entries, padding=(0, 2)))
        else:
            for entry in entries:
                self.console.print(Text("  ") + entry)

    def pick(self, text: str, player: int) -> Action | None:
        actions = self.state.legal_actions(player)
        if plain_digits(text):
            number = int(text)
            if 1 <= number <= len(actions):
                return actions[number - 1]
            self.console.print(f"There is no action {number}; choose 1-{len(actions)}, or type help.")
            return None
        for action in actions:
            if action.id == text:
                return action
        self.console.print(plain(f"Unknown command '{as_typed(text)}'. Type a number from 1 to {len(actions)}, or help."))
        return None

    def take(self, action: Action, player: int) -> None:
        before = self.state.clone()
        secret = is_secret_pick(self.state, action.id)
        try:
            self.state.apply(action)
        except IllegalAction as exc:
            self.console.print(plain(f"Not allowed: {exc.message}"))
            return
        self.undo_stack.append(Snapshot(player, before, len(before.history), len(self.told)))
        self.tell(player, "", action, secret and len(self.humans) > 1, before)

    # ------------------------------------------------------------- undo, save, log

    def undo(self, player: int) -> bool:
        if not self.undo_stack:
            self.console.print("Nothing to undo.")
            return False
        snapshot = self.undo_stack[-1]
        if snapshot.player != player:
            self.console.print(plain(f"The last decision was {self.display.player_name(snapshot.player)}'s; "
                                     "only your own decisions can be taken back."))
            return False
        since = self.state.history[snapshot.history_length:]
        if any(entry.get("chance") for entry in since):
            self.console.print("Cannot undo: a chance outcome (a roll, a shuffle, a random draw) has happened since.")
            return False
        if any(revealed(snapshot.state, self.state, p) for p in self.humans):
            self.console.print("Cannot undo: hidden information has been revealed since.")
            return False
        if others_picks_shown(self.picks_shown, snapshot.history_length, player):
            self.console.print(PICKS_SHOWN)
            return False
        self.undo_stack.pop()
        self.picks_shown = [(at, seats) for at, seats in self.picks_shown if at <= snapshot.history_length]
        self.state = snapshot.state
        del self.told[snapshot.told_length:]
        self.told.append(plain(f"{self.display.player_name(player)} takes back a decision", style="dim"))
        self.console.print("Undone.")
        return True

    def save(self, path: str) -> None:
        if not path:
            self.console.print("Say where: save FILE")
            return
        from .outputs import check_not_input
        from .packs import pack_folders

        try:
            check_not_input(Path(path), "save", pack_folders(self.state.game.source.root))
            save_game(self.state, self.seats, path)
        except PackError as exc:  # a file of the pack being played
            self.console.print(plain(exc.message))
            return
        except OSError as exc:
            self.console.print(plain(f"Cannot save to {as_typed(path)}: {exc.strerror}"))
            return
        except ValueError:  # a name the system cannot take (a NUL character): the game goes on
            self.console.print(plain(f"Cannot save to {as_typed(repr(path))}: not a usable file name"))
            return
        command = f"ruleskit play --load {shell_word(path)}"
        ref = pack_ref(self.state.game)
        if ref not in builtin_packs():  # a save never chooses a folder to load: it must be named again
            command += f" {shell_word(ref)}"
        # Not wrapped, so that the command copies whole.
        self.console.print(plain(f"Saved to {path}; continue with: {command}"), soft_wrap=True)

    def write_log(self) -> None:
        if self.log_path:
            write_log(self.state, self.log_path)
            self.console.print(plain(f"Log written to {self.log_path}"))

    def finished(self) -> None:
        viewer = self.at_screen if self.at_screen is not None else self.first_viewer()
        self.console.print(self.render(viewer))
        self.tell_story(viewer)
        self.console.print(self.display.result(self.state))
        self.write_log()

    def first_viewer(self) -> int:
        """Whose view the table is drawn from when no human has had the screen yet (the game ended first): the
        only human's; what every player sees, when several humans share the screen; the first seat's, among
        bots alone (it was the first seat's always, a bot's hidden hand shown to the human beside it)."""
        if len(self.humans) == 1:
            return self.humans[0]
        return NO_VIEWER if self.humans else 0


def fresh_seed() -> int:
    """A seed for a game among people that nobody can guess: with a known one (0, the default it was), anyone
    could deal the same game again and read every hidden hand and the deck's order."""
    return secrets.randbelow(MAX_SEED + 1)


def as_typed(text: str) -> str:
    """What a player typed, to repeat in a refusal: at most ECHOED characters (a megabyte pasted at the prompt
    came back as a screenful of lines that pushed the table out of sight)."""
    return text if len(text) <= ECHOED else text[:ECHOED] + "…"


def _read_line(prompt: str) -> str:
    return input(prompt)


PICKS_SHOWN = "Cannot undo: another player's secret choice has been revealed since."


def picks_shown(before: State, after: State) -> set[int]:
    """The seats whose secret picks at a simultaneous stage the decision from `before` to `after` showed: the
    picks made before it, and its own if it was one, when it ended the stage (or its round of picks). What
    they were shows in their effects (a bid paid from coins everyone sees), not as an item `revealed` finds."""
    simul = before.raw["flow"]["simul"]
    if simul is None:
        return set()
    picked = {int(p) for p in simul["picks"]}
    entry = after.history[-1] if after.history else {}
    if "player" in entry and is_secret_pick(before, str(entry["action"])):  # an `anytime` action is no pick
        picked.add(int(entry["player"]))
    now = after.raw["flow"]["simul"]
    return picked - ({int(p) for p in now["picks"]} if now is not None else set())


def others_picks_shown(shown: list[tuple[int, set[int]]], since: int, player: int) -> bool:
    """Whether a decision after history length `since` showed the secret pick of a player other than `player`:
    undoing their own pick then, a human would pick again knowing the others'."""
    return any(at > since and seats - {player} for at, seats in shown)


def revealed(before: State, after: State, viewer: int) -> bool:
    """True if `viewer` now sees an item, a stack's top or a face that was hidden from them before: in a zone,
    in a var it sees (a look at another's hand kept in `me.seen`) or among its own choice's options."""
    return (bool(_visible_items(after, viewer) - _visible_items(before, viewer))
            or bool(_shown_tops(after, viewer) - _shown_tops(before, viewer))
            or not known_items(after, viewer).isdisjoint(secret_items(before, viewer)))


def _shown_tops(state: State, viewer: int) -> Counter[str]:
    """Each zone's shown top (of a `top` stack) and each face it shows, as text keyed by the zone."""
    shown: Counter[str] = Counter()
    for key, content in state.view(viewer)["zones"].items():
        if isinstance(content, dict) and content.get("top") is not None:
            shown[json.dumps([key, content["top"]], sort_keys=True)] += 1
        elif isinstance(content, list):
            shown.update(json.dumps([key, x], sort_keys=True) for x in content if isinstance(x, dict))
    return shown


def _visible_items(state: State, viewer: int) -> set[str]:
    seen: set[str] = set()
    for content in state.view(viewer)["zones"].values():
        if isinstance(content, dict):
            if content.get("hidden") is True:
                continue
            seen.update(item for item, count in content.items() if count)
        else:
            seen.update(item for item in content if isinstance(item, str))  # faces only name no item
    return seen


# ---------------------------------------------------------------- saved games


def save_game(state: State, seats: list[str], path: str | Path) -> None:
    data = {"format": SAVE_FORMAT, "ref": pack_ref(state.game), "seats": seats, "state": state.to_json()}
    write_text_atomically(path, json.dumps(data, separators=(",", ":")))
