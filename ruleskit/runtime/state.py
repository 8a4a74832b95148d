"""The public State: whose decision it is, the legal actions, applying them.

A State is plain data (a dict of JSON values), a pending decision (also plain
data) and the history of decisions and chance outcomes. The data is copied on
write: a job copies only the containers it changes, and the state it started
from is never changed, so an illegal action leaves the state exactly as it was
and a clone shares everything until one side changes it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn

from ..errors import (
    BudgetExceeded,
    IllegalAction,
    PackError,
    ProgramError,
    RulesError,
    RuleViolation,
    locate,
    unusable_json,
)
from ..validation import check_state
from .checks import check_decision
from .context import MAX_GAME_SAID, Ctx, Suspend, fork
from .data import copy_data
from .engine import (
    Action,
    act,
    enumerate_actions,
    enumerate_anytime,
    find_action,
    initial_data,
    resume_job,
    run_job,
)

if TYPE_CHECKING:
    from ..game import Game

FORMAT = 1


class Listing:
    """The legal actions of a position, found as far as someone has needed them.

    The flow finds the first action with legal bindings (the player can act);
    the other actions are listed on the first call that needs them all
    (`State.legal_actions` takes `rest` and adds what it lists to `actions`,
    or sets `actions` to None if the listing fails). Clones share the listing,
    and so its result.
    """

    __slots__ = ("actions", "rest", "ctx")

    def __init__(self, first: list[Action], rest: Iterator[list[Action]], ctx: Ctx) -> None:
        self.actions: list[Action] | None = first
        self.rest: Iterator[list[Action]] | None = rest
        # The context the rest is listed on, whose steps are work (`State.work`); let go once the rest is listed.
        self.ctx: Ctx | None = ctx

    def find(self, wanted: str) -> tuple[Action | None, bool]:
        """The first action listed so far with id `wanted`, and whether that answer is final.

        It is not when the listing has not reached the action the id names yet (or
        failed before): that action must then be looked for on its own.
        """
        actions = self.actions
        if actions is None:
            return None, False
        for action in actions:
            if action.id == wanted:
                return action, True
        # Each action's bindings are listed together: if the last one listed is the action the id names,
        # the id is not among its bindings.
        return None, self.rest is None or (bool(actions) and
                                           actions[-1].id.partition(":")[0] == wanted.partition(":")[0])


def reported(exc: BaseException) -> BaseException:
    """The error a decision reports for one raised while running the pack: located, in the engine's terms."""
    if isinstance(exc, IllegalAction):
        return exc
    if isinstance(exc, RuleViolation):
        return IllegalAction(f"not allowed: {exc.message}")
    if isinstance(exc, ProgramError | BudgetExceeded):
        error = locate(type(exc)(exc.message))
        if error.file is None:  # raised by runtime code that knows no place: the pack code running then
            where = _innermost_where(exc)
            if where is not None:
                error = locate(type(exc)(f"{exc.message} in {where}"))
        return error
    if isinstance(exc, RecursionError):
        where = _innermost_where(exc)
        return locate(BudgetExceeded("programs nested too deeply" + (f" in {where}" if where else "")))
    return exc


def _innermost_where(exc: BaseException) -> str | None:
    """Where in the pack the deepest code running when `exc` was raised is: the location a generated
    definition (`FRAME`) or a closure of the reference backend (`where`) holds."""
    frames = []
    trace = exc.__traceback__
    while trace is not None:
        frames.append(trace.tb_frame)
        trace = trace.tb_next
    for frame in reversed(frames):
        names = frame.f_locals
        for name in ("FRAME", "where"):
            value = names.get(name)
            if isinstance(value, str) and value.endswith(")") and ":" in value:
                return value
        params = getattr(names.get("action"), "params", None)  # the listing of an action's bindings
        if params and isinstance(getattr(params[-1], "where", None), str):
            return str(params[-1].where)
    return None


def raise_reported(exc: BaseException) -> NoReturn:
    """Raise the error a decision reports for `exc` (see `reported`)."""
    error = reported(exc)
    if error is exc:
        raise exc
    raise error from None


class Paused:
    """An action's effect stopped at a choice, and its context: the job goes on from there once answered.

    Held beside a pending decision in this process only (a saved state has the decision as plain data,
    and an answer to it runs the job again). Clones share it; the first to answer takes it, and the
    others run the job again, which gives the same result.
    """

    __slots__ = ("effect", "ctx")

    def __init__(self, effect: Any, ctx: Ctx) -> None:
        self.effect = effect
        self.ctx = ctx

    def take(self) -> tuple[Any, Ctx] | None:
        effect, self.effect = self.effect, None
        return None if effect is None else (effect, self.ctx)


class State:
    """One game in progress (or finished)."""

    __slots__ = ("game", "_data", "_shared", "pending", "_history", "_history_length", "messages", "_legal",
                 "_paused", "_said", "_work")

    def __init__(self, game: Game, data: dict[str, Any], pending: dict[str, Any] | None,
                 history: list[dict[str, Any]]) -> None:
        self.game = game
        self._data = data
        # True while the data's containers may be shared with another state (a clone, or the base of a
        # pending decision): code outside the engine that asks for `data` then gets a private copy.
        self._shared = False
        self.pending = pending
        # The history list may be shared with clones: each state owns its first `_history_length` entries,
        # and appends in place only while it is the list's longest owner (entries are never changed).
        self._history = history
        self._history_length = len(history)
        self.messages: list[str] = []
        self._legal: list[Action] | Listing | None = None
        self._paused: Paused | None = None  # with a pending decision: the job, to go on from the choice
        self._said = 0  # the characters of the messages in the history (`MAX_GAME_SAID`)
        self._work = 0  # see `work`

    @property
    def data(self) -> dict[str, Any]:
        """The game data, this state's own: changing it changes no other state."""
        if self._shared:
            self._data = copy_data(self._data)
            self._shared = False
        return self._data

    @data.setter
    def data(self, value: dict[str, Any]) -> None:
        self._data = value
        self._shared = False

    @property
    def raw(self) -> dict[str, Any]:
        """The game data without copying it: it may be shared with other states, so only read it."""
        return self._data

    @property
    def work(self) -> int:
        """The steps of the pack's code run on this state since it was made or copied: its decisions (taken or
        refused), its listings of legal actions and its evaluations. A search (a bot, a sample game) copies a
        state and adds up its copies' work to bound its own; every budget of the engine is a number of steps."""
        return self._work

    def _count_work(self, ctx: Ctx) -> None:
        """Add the steps `ctx` ran to `work` (a context is counted once, but for the listing a job's context
        goes on with and a paused job's: see `legal_actions` and `_run`)."""
        self._work += ctx.steps

    @property
    def history(self) -> list[dict[str, Any]]:
        """One entry per decision (and one for setup): who took which action, and the chance it led to."""
        if len(self._history) != self._history_length:
            self._history = self._history[:self._history_length]
        return self._history

    @property
    def from_scenario(self) -> bool:
        """True for a game set up at a scenario's position rather than by the pack's setup. Its history does not
        lead to that position, so it can be saved and resumed but not written as a log to replay."""
        history = self.history
        return bool(history) and history[0].get("scenario") is True

    def mark_from_scenario(self) -> None:
        """Record in the setup's history entry that this game was set up at a scenario's position."""
        history = self.history
        if not history or not history[0].get("setup"):
            raise ValueError("only a game's setup can be marked as a scenario's")
        # A new list and a new entry: the list and its entries may be shared with copies of this state.
        self._history = [{**history[0], "scenario": True}, *history[1:]]

    # ------------------------------------------------------------- creation

    @classmethod
    def new(cls, game: Game, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if not isinstance(players, int) or isinstance(players, bool):
            raise PackError(f"the number of players must be an integer, not {players!r}")
        if not game.min_players <= players <= game.max_players:
            raise game.players_refused(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PackError(f"the seed must be an integer, not {seed!r}")
        return cls.setup_answered(game, initial_data(game, players, seed, options), [])

    @classmethod
    def setup_answered(cls, game: Game, base: dict[str, Any], answers: list[str],
                       reseed: dict[str, int] | None = None) -> State:
        """The state the setup reaches from `base` (the game's data before setup) given these answers to its
        decisions in turn: where a saved game paused in its setup must stand (`validation`)."""
        state = cls(game, base, None, [])
        state._run({"kind": "setup"}, list(answers), base, None, 0, reseed)
        return state

    # ------------------------------------------------------------- queries

    @property
    def players(self) -> int:
        return int(self._data["n"])

    @property
    def is_terminal(self) -> bool:
        return self._data["result"] is not None

    @property
    def result(self) -> dict[str, Any] | None:
        """Final scores, ranking, places, winners and the reason the game ended; None while it goes on."""
        return self._data["result"]

    @property
    def current_player(self) -> int | tuple[int, ...] | None:
        """The player to decide; a tuple of players for a simultaneous choice; None once the game is over."""
        deciders = self.players_to_decide()
        if not deciders:
            return None
        if len(deciders) == 1 and (self.pending is not None or self._data["flow"]["simul"] is None):
            return deciders[0]
        return tuple(deciders)

    def players_to_decide(self) -> list[int]:
        if self.is_terminal:
            return []
        if self.pending is not None:
            return [self.pending["player"]]
        simul = self._data["flow"]["simul"]
        if simul is not None:
            return [p for p in simul["players"] if str(p) not in simul["picks"]]
        return [self._data["flow"]["active"]]

    @property
    def stage(self) -> str:
        return str(self._data["flow"]["stage"])

    @property
    def prompt(self) -> str | None:
        return self.pending["prompt"] if self.pending else None

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The decisions open now (for one player, if given)."""
        legal = self._legal
        if type(legal) is not list:
            # Every legal action, finishing the listing the flow began (written out here rather than called:
            # this runs once a decision), with errors reported as `apply` reports them.
            try:
                found = None
                if type(legal) is Listing:
                    rest, found = legal.rest, legal.actions
                    ctx = legal.ctx  # the job's, whose steps so far are counted
                    if rest is not None and found is not None and ctx is not None:
                        legal.rest = legal.ctx = None
                        steps = ctx.steps
                        try:
                            for more in rest:
                                found.extend(more)
                        except BaseException:
                            legal.actions = None  # listed again from the start, for the error
                            raise
                        finally:
                            self._work += ctx.steps - steps
                legal = self._legal = found if found is not None else self._compute_legal()
            except (RulesError, RecursionError) as exc:
                raise_reported(exc)
        if player is None:
            return list(legal)
        return [a for a in legal if a.player == player]

    def out_of_turn_actions(self, player: int | None = None) -> list[Action]:
        """The `anytime` actions open now to players who are not to decide (to one of them, if given).

        They are offered while the game waits for someone else's decision (never
        during a pending `choose`); taking one runs it at once and the game goes
        on waiting for the same decision.
        """
        if self.is_terminal or self.pending is not None or not self.game.anytime_by_stage.get(self.stage):
            return []
        deciders = self.players_to_decide()
        others = [p for p in range(self.players) if p not in deciders and (player is None or p == player)]
        result: list[Action] = []
        ctx = Ctx.for_reading(self.game.program, self._data, 0)
        try:
            for p in others:
                result.extend(enumerate_anytime(self.game, self._data, p, ctx))
        finally:
            self._count_work(ctx)
        return result

    def _compute_legal(self) -> list[Action]:
        if self.is_terminal:
            return []
        if self.pending is not None:
            pending = self.pending
            return [Action(oid, label, pending["player"], {"choice": pending["prompt"], "value": value})
                    for oid, label, value in pending["options"]]
        result: list[Action] = []
        ctx = Ctx.for_reading(self.game.program, self._data, 0)
        try:
            for p in self.players_to_decide():
                result.extend(enumerate_actions(self.game, self._data, p, ctx))
        finally:
            self._count_work(ctx)
        return result

    # ------------------------------------------------------------- applying

    def apply(self, action: Action | str, player: int | None = None) -> State:
        """Take a decision. Raises IllegalAction, leaving the state as it was, if it is not legal now."""
        known = self._legal
        if type(known) is list and player is None and self.pending is None:
            # The usual call: one of the very objects `legal_actions` just listed (found as `_find` would).
            for chosen in known:
                if chosen is action:
                    break
            else:
                chosen = self._find(action, player)
        else:
            chosen = self._find(action, player)
        before = self._data
        if self.pending is not None:
            pending = self.pending
            answers = pending["answers"] + [chosen.id]
            # Kept only by a job run with no redraw pending and no properties checked (`_run`).
            taken = self._paused.take() if self._paused is not None else None
            self._run(pending["job"], answers, pending["base"], chosen, pending["logged"], pending.get("reseed"),
                      taken)
        else:
            flow = self._data["flow"]
            payload = chosen.raw_payload
            if type(payload) is not dict:
                payload = chosen.internal_payload()
            if flow["simul"] is None and not self.game.check_properties:
                self._act(chosen, payload["action"], payload["args"])  # the usual decision
                return self
            # An anytime action runs at once, even at a simultaneous stage: only the stage's own actions are
            # secret picks.
            kind = "pick" if flow["simul"] is not None and not self.game.actions[payload["action"]].anytime \
                else "action"
            job = {"kind": kind, "player": chosen.player, "action": payload["action"], "args": payload["args"]}
            self._run(job, [], self._data, chosen)
        if self.game.check_properties:
            check_decision(self.game, before, self._data, chosen.player)
        return self

    def _find(self, action: Action | str, player: int | None) -> Action:
        if self._data["result"] is not None:
            raise IllegalAction("the game is over")
        if isinstance(action, Action):
            wanted_id, player = action.id, action.player if player is None else player
        elif isinstance(action, str):
            wanted_id = action
        else:
            raise IllegalAction(f"an action must be an Action or an action id, not {type(action).__name__}")
        pending = self.pending
        if pending is not None and (player is None or player == pending["player"]):
            # A choice's answer: one of its options (the only legal actions while it is pending).
            for oid, label, value in pending["options"]:
                if oid == wanted_id:
                    return Action(oid, label, pending["player"], {"choice": pending["prompt"], "value": value})
        flow = self._data["flow"]
        if pending is None and flow["simul"] is None and (player is None or player == flow["active"]):
            # One player to decide, every legal action theirs: the first with this id is the only one.
            known = self._legal
            if type(known) is list:
                if wanted_id is not action:  # an Action, most often one of these very objects
                    for found in known:
                        if found is action:
                            return found
                for found in known:
                    if found.id == wanted_id:
                        return found
            else:
                # Not listed yet: list on only inside the action the id names, or bind that action alone.
                searched, final = known.find(wanted_id) if isinstance(known, Listing) else (None, False)
                if not final:
                    ctx = Ctx.for_reading(self.game.program, self._data, flow["active"])
                    try:
                        searched = find_action(self.game, self._data, flow["active"], wanted_id, ctx)
                    except (RulesError, RecursionError) as exc:
                        raise_reported(exc)
                    finally:
                        self._count_work(ctx)
                if searched is not None:
                    return searched
        deciders = self.players_to_decide()
        if player is not None and player not in deciders:
            outside = [a for a in self.out_of_turn_actions(player) if a.id == wanted_id]
            if outside:
                return outside[0]
            who = ", ".join(f"Player {p + 1}" for p in deciders)
            raise IllegalAction(f"it is not Player {player + 1}'s decision (waiting for {who})")
        matches = [a for a in self.legal_actions(player) if a.id == wanted_id]
        if not matches and player is None:
            matches = [a for a in self.out_of_turn_actions() if a.id == wanted_id]
        if not matches:
            legal = [a.id for a in self.legal_actions(player)]
            shown = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
            raise IllegalAction(f"'{wanted_id}' is not a legal action now; legal: {shown}")
        if len(matches) > 1:
            raise IllegalAction(f"'{wanted_id}' is open to several players; say which player")
        return matches[0]

    def _run(self, job: dict[str, Any], answers: list[str], base: dict[str, Any], chosen: Action | None,
             logged: int = 0, reseed: dict[str, int] | None = None, paused: tuple[Any, Ctx] | None = None) -> None:
        """Run the job with these answers from `base`, or go on with the paused one from its choice."""
        game = self.game
        if paused is None:
            ctx = Ctx(game.program, fork(base), 0, answers)
            if reseed is not None:
                ctx.reseed = reseed
            if game.check_properties:
                ctx.olds = []
        else:
            ctx = paused[1]
            ctx.answers = answers
            self._work -= ctx.steps  # counted when it paused: it is counted whole when it stops again
        try:
            if paused is None:
                run_job(game, ctx, job)
            else:
                resume_job(game, ctx, paused[0])
        except Suspend as wait:
            self._stopped(ctx, wait, job, answers, base, chosen, logged, reseed)
            return
        except (RulesError, RecursionError) as exc:
            self._count_work(ctx)  # refused, yet run
            raise_reported(exc)
        self._record(ctx, chosen, logged, None, None)

    def _act(self, chosen: Action, name: str, args: dict[str, Any]) -> None:
        """Take an action on its own, its properties unchecked (`apply`'s usual call): `_run` for its job, with
        no answers yet."""
        game = self.game
        base = self._data
        ctx = Ctx(game.program, fork(base), 0)
        try:
            act(game, ctx, chosen.player, name, args)
        except Suspend as wait:
            job = {"kind": "action", "player": chosen.player, "action": name, "args": args}
            self._stopped(ctx, wait, job, [], base, chosen, 0, None)
            return
        except (RulesError, RecursionError) as exc:
            self._count_work(ctx)  # refused, yet run
            raise_reported(exc)
        self._record(ctx, chosen, 0, None, None)

    def _stopped(self, ctx: Ctx, wait: Suspend, job: dict[str, Any], answers: list[str], base: dict[str, Any],
                 chosen: Action | None, logged: int, reseed: dict[str, int] | None) -> None:
        """Record a job that stopped at a choice with no answer yet: the choice is pending."""
        pending = {"job": job, "answers": answers, "base": base, "player": wait.player,
                   "prompt": wait.prompt, "options": [list(o) for o in wait.options],
                   "logged": len(ctx.chance)}
        keep: Paused | None = None
        if reseed is not None:
            pending["reseed"] = reseed  # later answers re-run the job: redraw at the same point
        elif wait.resume is not None:  # None while properties are checked: effects run as plain code then
            keep = Paused(wait.resume, ctx)
        # The paused effect's frame holds this exception: without its links back to the effect and to
        # the frames it passed, nothing forms a cycle that only the garbage collector could free.
        wait.resume = None
        wait.__traceback__ = None
        self._record(ctx, chosen, logged, pending, keep)

    def _record(self, ctx: Ctx, chosen: Action | None, logged: int, pending: dict[str, Any] | None,
                keep: Paused | None) -> None:
        """Make what a job did this state's: its data, its entry in the history, and what comes next."""
        self._work += ctx.steps  # `_count_work`, written out: once a decision
        data = ctx.data
        chance = ctx.chance[logged:] if logged else ctx.chance
        messages = ctx.messages
        if keep is not None:
            # The job goes on with this context: what it has so far is this state's, as copies. Its data
            # becomes shared with this state's (a checkpoint), so that going on changes this state in nothing.
            chance, messages = chance[:] if chance is ctx.chance else chance, messages[:]
            data = ctx.checkpoint()
        entry: dict[str, Any] = {"player": chosen.player, "action": chosen.id, "chance": chance} \
            if chosen is not None else {"setup": True, "chance": chance}
        if messages:
            said = self._said + sum(map(len, messages))
            if said > MAX_GAME_SAID:  # before anything of the job is this state's: refused whole
                raise ProgramError(f"the game's messages would hold more than {MAX_GAME_SAID} characters in all "
                                   f"(its history keeps every one), after {entry.get('action', 'the setup')}")
            self._said = said
            entry["messages"] = messages
        history = self._history
        if len(history) != self._history_length:  # a clone has gone on from here: branch off
            history = self._history = history[:self._history_length]
        history.append(entry)
        self._history_length += 1
        self.messages = messages
        self.pending = pending
        self._paused = keep
        # While a decision is pending, the effects so far are what the players see.
        self._data = data
        self._shared = True  # the containers the job did not change are the base's
        # The flow found the first legal action only when it stopped for a decision (not for a choice, nor
        # at the end of the game).
        found = ctx.found
        # The listing goes on on this context (`engine._offer`): the context lets go of it, or the two would
        # form a cycle that only the garbage collector frees.
        ctx.found = None
        self._legal = None if found is None else found[0] if found[1] is None else Listing(found[0], found[1], ctx)

    # ------------------------------------------------------------- copies, JSON, views

    def clone(self) -> State:
        copy = State(self.game, self._data, self.pending, self._history)
        copy._history_length = self._history_length
        copy._said = self._said
        copy._shared = self._shared = True
        copy._legal = self._legal
        copy._paused = self._paused
        return copy

    def determinized(self, viewer: int, seed: int) -> State:
        """A copy for `viewer` to search: what it cannot know is redrawn from `seed`.

        The random stream is re-seeded, items in zones hidden from the viewer
        are shuffled among them and every var it cannot see is reset (see
        `runtime.determinize`). During a pending choice this happens just
        after the next answer, since the choice's job re-runs from its start.
        """
        from .determinize import determinize

        copy = self.clone()
        if copy.pending is None:
            copy._work += determinize(self.game.model, copy.data, viewer, seed, self.game.program)
            copy._legal = None
        else:
            copy.pending = {**copy.pending, "reseed": {"viewer": viewer, "seed": seed,
                                                      "after": len(copy.pending["answers"]) + 1}}
            copy._paused = None  # the job runs again, to redraw once the next answer is used
        return copy

    def evaluate(self, fn: Callable[[Ctx], Any], player: int) -> Any:
        """Evaluate a compiled expression over `p` (such as the score or the heuristic) for `player`."""
        ctx = Ctx(self.game.program, self._data, player)
        ctx.env = {"p": player}
        try:
            return fn(ctx)
        finally:
            self._count_work(ctx)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.game.content_hash == other.game.content_hash and self._data == other._data
                and self.pending == other.pending and self.history == other.history)

    def __hash__(self) -> int:  # states are mutable: hash by identity
        return id(self)

    def to_json(self, *, history: bool = True) -> dict[str, Any]:
        """The state as JSON data, a copy (`history=False` leaves the decisions so far out)."""
        return {"format": FORMAT, "pack": self.game.name, "version": self.game.version,
                "hash": self.game.content_hash, "data": copy_data(self._data), "pending": copy_data(self.pending),
                # copied by the json module, in C: a history grows long
                "history": json.loads(json.dumps(self.history)) if history else []}

    def dumps(self, *, history: bool = True, sort_keys: bool = False) -> str:
        """The state as JSON text, written straight from the data (no copy is made first)."""
        saved = {"format": FORMAT, "pack": self.game.name, "version": self.game.version,
                 "hash": self.game.content_hash, "data": self._data, "pending": self.pending,
                 "history": self.history if history else []}
        return json.dumps(saved, separators=(",", ":"), sort_keys=sort_keys)

    @classmethod
    def from_json(cls, game: Game, data: dict[str, Any] | str, *, trusted: bool = False,
                  invariants: bool = True) -> State:
        """A state from `to_json()` data or `dumps()` text, checked against the pack before use: every part,
        then (unless `invariants` is False) the pack's `[invariants]`.

        `trusted=True` skips the check, for text this process has just written itself (the
        engine's own round-trip checks); never for anything read from a file or a caller.
        `invariants=False` is for a state that a property test found breaking one.
        """
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                raise PackError(f"saved state is not JSON: {exc}") from None
            except (RecursionError, ValueError) as exc:
                raise PackError(f"saved state is not usable JSON: {unusable_json(exc)}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PackError("not a saved ruleskit state (format mismatch)")
        if data.get("hash") != game.content_hash:
            raise PackError(f"saved state belongs to pack '{data.get('pack')}' {data.get('version')} "
                            f"with other content than the loaded {game.name} {game.version}")
        if not trusted:
            check_state(game, data, invariants=invariants)  # with the JSON path of the first bad value
        state = cls(game, copy_data(data["data"]), copy_data(data["pending"]), copy_data(data["history"]))
        state._said = sum(len(m) for entry in state._history for m in entry.get("messages", ()))
        return state

    def view(self, player: int) -> dict[str, Any]:
        """What `player` may know: hidden vars, zones and others' secret picks removed."""
        from .view import make_view

        return make_view(self, player)

    def __repr__(self) -> str:
        status = "over" if self.is_terminal else f"player {self.current_player} to decide"
        return f"<State {self.game.name} turn {self._data['flow']['turn']} {status}>"
