"""The server's one table: who may start games, the current game, and the defaults for a new one.

The host (whoever has the address `ruleskit serve` prints) starts, saves and
loads games and plays the human seats hot-seat on one screen; each seat also
has its own address, for a player at another screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..bots import BOTS
from ..errors import RulesError
from ..game import Game
from ..play import HUMAN, MAX_SEED, fresh_seed
from ..scenarios import load_scenario
from ..tableau import Tableau
from .loaded import file_name, table_from_save
from .table import Refusal, WebTable, new_token


class Lobby:
    """The pack being served and its current table."""

    def __init__(self, game: Game, players: int | None = None, seats: list[str] | None = None,
                 seed: int | None = None, scenario: str | Path | None = None) -> None:
        self.game = game
        self.tableau = Tableau(game)
        self.host_token = new_token()
        self.scenario = Path(scenario) if scenario else None
        self.seed = seed  # the last game's
        # The first game's seed, if given; any other game not given one draws a fresh one (`fresh_seed`).
        self.next_seed = seed
        self.players = players or (len(seats) if seats else game.min_players)
        self.seats = seats or [HUMAN] + ["random"] * (self.players - 1)
        self.seats_given = seats is not None
        self.table: WebTable | None = None

    def check_host(self, token: str) -> None:
        import secrets

        if not secrets.compare_digest(token.encode(), self.host_token.encode()):  # str compares only ASCII
            raise Refusal("this is not the host's address", 404)

    def current(self) -> WebTable:
        if self.table is None:
            raise Refusal("no game has been started yet", 409)
        return self.table

    def start(self, players: Any = None, seats: Any = None, seed: Any = None) -> WebTable:
        """A new game replaces the current one; values not given keep their defaults."""
        players = self.players if players is None else players
        # A scenario fixes the number of players: default seats follow it.
        default_seats = seats is None and not self.seats_given
        seats = self.seats if seats is None else seats
        if seed is None:
            seed = self.next_seed if self.next_seed is not None else fresh_seed()
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise Refusal(f"the seed must be a whole number from 0 to {MAX_SEED}")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise Refusal("'seats' must be a list of names: human, or a bot (" + ", ".join(BOTS) + ")")
        unknown = [s for s in seats if s != HUMAN and s not in BOTS]
        if unknown:
            raise Refusal(f"unknown seat '{unknown[0]}': human, or a bot (" + ", ".join(BOTS) + ")")
        try:
            if self.scenario is not None:
                # Dealt from this game's seed unless the scenario writes its own (`seed` is then its).
                state = load_scenario(self.scenario, self.game, seed)
            else:
                if not isinstance(players, int) or isinstance(players, bool):
                    raise Refusal("'players' must be a whole number")
                state = self.game.new_game(players=players, seed=seed)
            if default_seats and len(seats) != state.players:
                seats = [HUMAN] + ["random"] * (state.players - 1)
            if len(seats) != state.players:
                raise Refusal(f"{len(seats)} seats named for {state.players} players")
            table = WebTable(self.game, state, seats, seed=seed, tableau=self.tableau)
        except RulesError as exc:
            raise Refusal(exc.message) from None
        self.table = table
        self.players, self.seats, self.seed = state.players, list(seats), state.raw["seed"]
        self.next_seed = None
        return table

    def load(self, text: str, name: str | None = None) -> WebTable:
        """The saved game `text` replaces the current one; `name` is its file's name, if known, for the feed."""
        self.table = table_from_save(self.game, text, self.tableau, file_name(name))
        self.players, self.seats = self.table.state.players, list(self.table.seats)
        return self.table

    def info(self) -> dict[str, Any]:
        """What the host page needs to offer a new game, and the current game's seats and addresses."""
        table = self.table
        return {
            "mode": "host",
            "title": self.tableau.title,
            "pack": self.game.name,
            "minPlayers": self.game.min_players,
            "maxPlayers": self.game.max_players,
            "seatKinds": [HUMAN, *BOTS],
            "scenario": self.scenario.name if self.scenario else None,
            "defaults": {"players": self.players, "seats": self.seats, "seed": self.seed},
            "seatNames": [self.tableau.display.player_name(p) for p in range(self.game.max_players)],
            "game": None if table is None else {
                "version": table.version,
                "over": table.state.is_terminal,
                "seats": [{"seat": p, "name": table.name(p), "kind": kind,
                           "link": f"/seat/{table.tokens[p]}" if kind == HUMAN else None}
                          for p, kind in enumerate(table.seats)],
            },
        }

    def screen(self, at: int | None) -> dict[str, Any]:
        """The hot-seat screen: the human seat to decide now (else the one last shown), with its token."""
        table = self.current()
        with table.lock:
            deciding = [p for p in table.state.players_to_decide() if p in table.humans]
            if deciding:
                seat = deciding[0]
            elif at is not None and at in table.humans:
                seat = at
            else:
                seat = table.humans[0] if table.humans else 0
            payload = table.payload(seat)
        payload["token"] = table.tokens[seat]
        payload["hotSeat"] = len(table.humans) > 1
        return payload
