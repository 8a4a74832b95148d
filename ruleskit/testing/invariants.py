"""Checks that must hold at every step of every game of every pack.

Engine invariants (in the spirit of OpenSpiel's random-simulation test) hold
for any pack: copies and saved states equal the original, only the players to
decide have actions, every listed action applies, an unlisted one is refused
and leaves the state untouched, results are well formed, views hide what they
should. Pack invariants are the pack's own `[invariants]`, rule-language
expressions that must stay true.

Each check raises `InvariantFailure` naming what broke.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..errors import IllegalAction, PropertyFailure, RulesError
from ..runtime.checks import broken_invariant
from ..runtime.faces import is_token, token
from ..runtime.state import State
from ..runtime.visibility import hidden_summary, sees, zone_owner

if TYPE_CHECKING:
    from ..game import Game

# An action id no pack can produce: ids are made of names, numbers and + , : - @
UNOFFERED_ID = "no such action!"
# Decisions a single turn may take before a game counts as stuck inside it.
DEFAULT_DECISIONS_PER_TURN = 200
# Saved states include the whole history; round-trip it in full every so many decisions.
FULL_COPY_EVERY = 50


class InvariantFailure(Exception):
    """An invariant did not hold; `name` says which, `detail` what was seen."""

    def __init__(self, name: str, detail: str, source: str | None = None) -> None:
        super().__init__(f"{name}: {detail}")
        self.name = name
        self.detail = detail
        self.source = source


# ---------------------------------------------------------------- pack invariants


def check_pack_invariants(state: State) -> None:
    """Evaluate the pack's `[invariants]` on the state; raise on the first false one."""
    broken = broken_invariant(state.game, state.raw, _acting(state))
    if broken is not None:
        name, detail, where = broken
        raise InvariantFailure(f"invariant {name}", detail, where)


def _acting(state: State) -> int:
    if state.pending is not None:
        return int(state.pending["player"])
    return int(state.raw["flow"]["active"])


# ---------------------------------------------------------------- engine invariants


def check_copies(state: State, *, with_history: bool = True) -> None:
    """`clone()` and a JSON round trip give states equal to the original.

    The history grows with the game, so step-by-step checks may leave it out
    of the round trip and check it in full now and then.
    """
    if state.clone() != state:
        raise InvariantFailure("clone", "clone() differs from the original state")
    try:
        text = state.dumps(history=with_history, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise InvariantFailure("json", f"the state is not JSON data: {exc}") from None
    restored = State.from_json(state.game, text, trusted=True)
    if restored.raw != state.raw or restored.pending != state.pending:
        raise InvariantFailure("json", "a JSON round trip changed the state")
    if with_history and restored != state:
        raise InvariantFailure("json", "a JSON round trip changed the state's history")
    if restored.dumps(sort_keys=True) != text:
        raise InvariantFailure("json", "a JSON round trip is not stable")


def _fingerprint(state: State) -> str:
    return json.dumps([state.raw, state.pending, len(state.history)], sort_keys=True)


def check_deciders(state: State) -> None:
    """Only the players to decide have actions; each of them has one; ids are unique."""
    legal = state.legal_actions()
    if state.is_terminal:
        if legal:
            raise InvariantFailure("terminal", f"the game is over but {len(legal)} actions are offered")
        if state.current_player is not None:
            raise InvariantFailure("terminal", "the game is over but a player is still to decide")
        return
    deciders = state.players_to_decide()
    if not deciders:
        raise InvariantFailure("deciders", "the game is not over and nobody is to decide")
    for player in range(state.players):
        mine = state.legal_actions(player)
        if player not in deciders and mine:
            raise InvariantFailure("deciders", f"Player {player + 1} is not to decide but has "
                                   f"{len(mine)} actions, e.g. {mine[0].id!r}")
        if player in deciders and not mine:
            raise InvariantFailure("deciders", f"Player {player + 1} is to decide but has no legal action")
    for player in deciders:
        ids = [a.id for a in state.legal_actions(player)]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise InvariantFailure("unique ids", f"Player {player + 1} has duplicate action ids {duplicates}")


def check_out_of_turn(state: State, thorough: bool = True) -> None:
    """`anytime` actions are offered out of turn only to players not to decide, never during a pending
    choice, with unique ids; with `thorough`, each applies to a copy without error."""
    offered = state.out_of_turn_actions()
    if not offered:
        return
    if state.pending is not None:
        raise InvariantFailure("out of turn", "out-of-turn actions are offered during a pending choice")
    deciders = state.players_to_decide()
    for action in offered:
        if action.player in deciders:
            raise InvariantFailure("out of turn", f"Player {action.player + 1} is to decide but is offered "
                                   f"{action.id!r} as an out-of-turn action")
    keys = [(a.player, a.id) for a in offered]
    if len(set(keys)) != len(keys):
        raise InvariantFailure("unique ids", "an out-of-turn action id is offered twice to one player")
    if thorough:
        for action in offered:
            try:
                state.clone().apply(action.id, player=action.player)
            except RulesError as exc:
                raise InvariantFailure("listed action applies", f"{action.id!r} (Player {action.player + 1}, "
                                       f"out of turn) is offered but refused: {exc}") from None


def check_listed_apply(state: State, limit: int | None = None, *, skip: set[str] | None = None) -> None:
    """Every listed action (or the first `limit` of them) applies to a copy without error.

    Ids in `skip` are left out; the ids tried are added to it.
    """
    actions = state.legal_actions()
    if limit is not None:
        actions = actions[:limit]
    for action in actions:
        if skip is not None:
            if action.id in skip:
                continue
            skip.add(action.id)
        copy = state.clone()
        try:
            copy.apply(action)
        except PropertyFailure as exc:  # found on a copy: say which listed action broke it
            raise PropertyFailure(exc.name, f"{exc.detail} (applying {action.id!r} by Player {action.player + 1} "
                                  "to a copy of this state)", file=exc.file, line=exc.line) from None
        except RulesError as exc:
            raise InvariantFailure("listed action applies",
                                   f"{action.id!r} (Player {action.player + 1}) is offered but refused: {exc}") from None


def check_unoffered_refused(state: State, *, exact: bool = True) -> None:
    """An action that is not offered is refused with IllegalAction and the state stays as it was.

    `exact` also compares the state as JSON text, which tells apart values that compare equal as data
    (`1` and `true`); without it the state is compared as data only, which is much cheaper.
    """
    before = state.clone()
    before_json = _fingerprint(state) if exact else ""
    for action_id, player in ((UNOFFERED_ID, None), *_wrong_player_probes(state)):
        try:
            state.apply(action_id, player=player)
        except IllegalAction:
            pass
        except RulesError as exc:
            raise InvariantFailure("unoffered refused",
                                   f"{action_id!r} was refused with {type(exc).__name__}, not IllegalAction: {exc}") from None
        else:
            raise InvariantFailure("unoffered refused", f"{action_id!r} for player {player} was accepted")
        if state != before or (exact and _fingerprint(state) != before_json):
            raise InvariantFailure("unoffered refused", f"refusing {action_id!r} changed the state")


def _wrong_player_probes(state: State) -> list[tuple[str, int]]:
    """A legal action id offered by a player who is not to decide."""
    deciders = state.players_to_decide()
    legal = state.legal_actions()
    outsiders = [p for p in range(state.players) if p not in deciders]
    if not legal or not outsiders:
        return []
    theirs = {a.id for a in state.out_of_turn_actions(outsiders[0])}  # what they may take out of turn
    probes = [a.id for a in legal if a.id not in theirs]
    return [(probes[0], outsiders[0])] if probes else []


def check_turn_bound(state: State, decisions: int, decisions_per_turn: int = DEFAULT_DECISIONS_PER_TURN) -> None:
    """The game stays within the pack's `[flow] max_turns` and does not stall inside turns."""
    game = state.game
    turn = int(state.raw["flow"]["turn"])
    # The turn after the last one may start only to end the game at once.
    if turn > game.max_turns + 1 or (turn > game.max_turns and not state.is_terminal):
        raise InvariantFailure("turn bound", f"turn {turn} is under way, past the pack's max_turns of {game.max_turns}")
    bound = (game.max_turns + 1) * decisions_per_turn
    if decisions > bound:
        raise InvariantFailure("turn bound", f"{decisions} decisions without an end (bound {bound}: "
                               f"max_turns {game.max_turns} x {decisions_per_turn} decisions per turn)")


def check_result(state: State) -> None:
    """A finished game has a well-formed result: scores, ranking, places and winners agree."""
    result = state.result
    if result is None:
        return
    n = state.players
    expected = {"reason", "scores", "tiebreaks", "ranking", "places", "winners"}
    if not isinstance(result, dict) or set(result) != expected:
        raise InvariantFailure("result", f"result keys should be {sorted(expected)}, got {result!r}")
    if not isinstance(result["reason"], str) or not result["reason"]:
        raise InvariantFailure("result", f"the end reason is not a text: {result['reason']!r}")
    if len(result["scores"]) != n or len(result["places"]) != n or len(result["tiebreaks"]) != n:
        raise InvariantFailure("result", f"scores, tiebreaks and places need one entry per player: {result}")
    if sorted(result["ranking"]) != list(range(n)):
        raise InvariantFailure("result", f"the ranking is not an order of the players: {result['ranking']}")
    places = result["places"]
    if not all(isinstance(p, int) and 1 <= p <= n for p in places):
        raise InvariantFailure("result", f"places must lie in 1..{n}: {places}")
    if [places[p] for p in result["ranking"]] != sorted(places):
        raise InvariantFailure("result", f"places {places} disagree with the ranking {result['ranking']}")
    winners = [p for p in range(n) if places[p] == 1]
    if result["winners"] != winners or not winners:
        raise InvariantFailure("result", f"winners {result['winners']} should be the players in first place {winners}")


def check_views(state: State) -> None:
    """`view(p)` never shows p what p may not see."""
    model = state.game.model
    data = state.raw
    for viewer in range(state.players):
        view = state.view(viewer)
        try:
            text = json.dumps(view, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise InvariantFailure("view", f"view({viewer}) is not JSON data: {exc}") from None
        if '"rng"' in text or '"seed"' in text:
            raise InvariantFailure("view", f"view({viewer}) shows the random stream")
        for name, var in model.game_vars.items():
            if var.visible != "all" and name in view["vars"]:
                raise InvariantFailure("view", f"view({viewer}) shows hidden game var '{name}'")
        for p, shown in enumerate(view["player_vars"]):
            for name, var in model.player_vars.items():
                if name in shown and not sees(var.visible, p, viewer):
                    raise InvariantFailure("view", f"view({viewer}) shows Player {p + 1}'s hidden '{name}'")
        for item, shown in view["items"].items():
            kind = model.kinds[model.item_kind[item]]
            owner = model.item_data[item]["owner"]
            for name in shown:
                if not sees(kind.vars[name].visible, owner, viewer):
                    raise InvariantFailure("view", f"view({viewer}) shows hidden '{name}' of {item}")
        for key, shown in view["zones"].items():
            name = key.partition("@")[0]
            visibility = model.zones[name].visible
            if model.zones[name].shows is not None:
                continue  # checked by _check_faces
            if not sees(visibility, zone_owner(model, key), viewer) and shown != hidden_summary(visibility, data["z"][key]):
                raise InvariantFailure("view", f"view({viewer}) shows the content of hidden zone '{key}'")
        _check_faces(state, view, viewer)
        _check_secret_picks(state, view, viewer)
        _check_pending(state, view, viewer)


def _check_faces(state: State, view: dict[str, Any], viewer: int) -> None:
    """A zone with `shows` gives non-owners tokens (its face) or a count, never an id or the vars of an item in it."""
    model = state.game.model
    for key, content in state.raw["z"].items():
        name = key.partition("@")[0]
        zone = model.zones[name]
        if zone.shows is None or (zone.visible == "owner" and zone_owner(model, key) == viewer):
            continue
        items = [item for item in content if item is not None]
        shown = view["zones"][key]
        if isinstance(shown, dict):
            top = shown.get("top")
            expected_top = content[0] if zone.visible == "top" and content and content[0] is not None else None
            if shown.get("hidden") is not True or shown.get("count") != len(items) or (top is None) != (expected_top is None):
                raise InvariantFailure("view", f"view({viewer}) miscounts face-only zone '{key}': {shown!r}")
            tokens = [top] if top is not None else []
            under = [expected_top] if expected_top is not None else []
        else:
            tokens, under = [t for t in shown if t is not None], items
            if zone.visible != "all" or len(shown) != len(content):
                raise InvariantFailure("view", f"view({viewer}) lists the items of face-only zone '{key}'")
        for shown_token, item in zip(tokens, under, strict=True):
            if not is_token(shown_token) or shown_token != token(state.game.program, state.raw, name, item):
                raise InvariantFailure("view", f"view({viewer}) shows {shown_token!r} for an item of face-only "
                                       f"zone '{key}', not its face")
        for item in items:
            if item in view["items"]:
                raise InvariantFailure("view", f"view({viewer}) shows the vars of {item}, which lies face-only in '{key}'")


def _check_secret_picks(state: State, view: dict[str, Any], viewer: int) -> None:
    simul = state.raw["flow"]["simul"]
    shown = view["flow"]
    if "simul" in shown or "picks" in json.dumps(shown):
        raise InvariantFailure("view", f"view({viewer}) shows the simultaneous picks of every player")
    if simul is None:
        return
    mine = shown.get("simultaneous", {}).get("mine")
    if mine != simul["picks"].get(str(viewer)):
        raise InvariantFailure("view", f"view({viewer}) shows a pick that is not the viewer's own: {mine!r}")


def _check_pending(state: State, view: dict[str, Any], viewer: int) -> None:
    pending = view.get("pending")
    if pending is None or state.pending is None:
        return
    if state.pending["player"] != viewer and "options" in pending:
        raise InvariantFailure("view", f"view({viewer}) shows another player's decision options")


# ---------------------------------------------------------------- all at once


def check_step(state: State, decisions: int, *, apply_limit: int | None = None,
               decisions_per_turn: int = DEFAULT_DECISIONS_PER_TURN, thorough: bool = True,
               pack: bool = True) -> None:
    """The invariants that must hold after each step of a game.

    The cheap ones always run; `thorough` adds the costly ones (applying every
    listed action to a copy, the JSON round trip, every player's view).
    """
    if pack:
        check_pack_invariants(state)
    check_deciders(state)
    check_out_of_turn(state, thorough)
    check_turn_bound(state, decisions, decisions_per_turn)
    if state.is_terminal:
        check_result(state)
    else:
        check_unoffered_refused(state)
    if thorough or state.is_terminal:
        check_copies(state, with_history=state.is_terminal or decisions % FULL_COPY_EVERY == 0)
        check_views(state)
        if not state.is_terminal:
            check_listed_apply(state, apply_limit)


class GameChecks:
    """The engine checks over one game, the costly ones spread out over its decisions.

    After every decision: who decides, the turn bound, the result once over, and the refusal of
    unoffered actions (the state compared as data). Every `thorough_every` decisions and at the end:
    the copies and JSON round trip, every player's view, every listed action applied to a copy, and
    the refusal compared as JSON text. In between, a listed action whose id has not been applied to a
    copy yet in this game is applied to one, so every kind of action is tried as soon as it is offered.

    The costly checks depend on the state alone, so a state already checked in full (the same
    setup replayed while shrinking, a position two games share) is not checked again: states are
    remembered by their JSON text, per pack, in `CHECKED` (bounded).
    """

    CHECKED: dict[tuple[str, int], None] = {}
    CHECKED_MAX = 50_000

    def __init__(self, *, apply_limit: int | None = None, decisions_per_turn: int = DEFAULT_DECISIONS_PER_TURN,
                 thorough_every: int = 1, pack: bool = True) -> None:
        self.apply_limit = apply_limit
        self.decisions_per_turn = decisions_per_turn
        self.thorough_every = max(1, thorough_every)
        self.pack = pack
        self.tried: set[str] = set()

    def check(self, state: State, decisions: int) -> None:
        if self.pack:
            check_pack_invariants(state)
        check_deciders(state)
        check_out_of_turn(state, thorough=decisions % self.thorough_every == 0)
        check_turn_bound(state, decisions, self.decisions_per_turn)
        if state.is_terminal:
            check_result(state)
            check_copies(state, with_history=True)
            check_views(state)
            return
        thorough = decisions % self.thorough_every == 0
        fresh = [a for a in state.legal_actions() if a.id not in self.tried]
        if not thorough and not fresh:
            check_unoffered_refused(state, exact=False)
            return
        key = (state.game.content_hash, hash(_fingerprint(state)))
        if key in self.CHECKED:
            self.tried.update(a.id for a in fresh)
            check_unoffered_refused(state, exact=False)
            return
        if not thorough:
            check_unoffered_refused(state, exact=False)
            check_listed_apply(state, self.apply_limit, skip=self.tried)
            return
        check_unoffered_refused(state, exact=True)
        check_copies(state, with_history=decisions % FULL_COPY_EVERY == 0)
        check_views(state)
        check_listed_apply(state, self.apply_limit)
        self.tried.update(a.id for a in state.legal_actions())
        self.remember(key)

    def remember(self, key: tuple[str, int]) -> None:
        checked = self.CHECKED
        if len(checked) >= self.CHECKED_MAX:
            del checked[next(iter(checked))]
        checked[key] = None

    def final(self, state: State, decisions: int) -> None:
        """The last state of a game cut short gets the costly checks if its last decision did not."""
        if decisions % self.thorough_every != 0 and not state.is_terminal:
            check_step(state, decisions, apply_limit=self.apply_limit, decisions_per_turn=self.decisions_per_turn,
                       thorough=True, pack=False)


def check_replay(game: Game, state: State, players: int, seed: int, options: dict[str, Any] | None = None) -> None:
    """Re-running the recorded decisions from the seed reproduces the state exactly."""
    again = game.new_game(players=players, seed=seed, options=options)
    for entry in state.history[1:]:
        again.apply(entry["action"], player=entry["player"])
    if again != state:
        raise InvariantFailure("replay", "replaying the decisions from the seed gave a different state")
