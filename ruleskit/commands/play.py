"""`ruleskit play PACK`: play in the terminal, hot-seat and against bots."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from .options import list_text, name_text, path_text
from .simulate import positive_int, seed_int

NAME = "play"
HELP = "Play a pack in the terminal: humans take turns at one screen, bots fill the other seats."


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("pack", metavar="PACK", nargs="?", type=name_text,
                        help="pack or variant folder, or a built-in pack name (optional with --load)")
    parser.add_argument("--players", "-p", type=positive_int, default=None,
                        help="number of players (default: the number of seats, else the pack's minimum)")
    parser.add_argument("--seats", type=list_text, default=None,
                        help="who sits where, comma-separated: human, or a bot: random, greedy, "
                             "mcts[:ITERATIONS|:SECONDSs], package.module:Class (see docs/BOTS.md) "
                             "(default: a human in seat 1 and random bots elsewhere)")
    parser.add_argument("--seed", type=seed_int, default=None,
                        help="the game's seed (default: drawn at random, so no player can deal the game again)")
    parser.add_argument("--scenario", metavar="FILE", type=path_text, help="start from a scenario file instead of a new game")
    parser.add_argument("--load", metavar="FILE", type=path_text, help="continue a game saved with 'save FILE'")
    parser.add_argument("--log", metavar="FILE", type=path_text, help="write the game's JSON Lines log to FILE when it ends or you quit (Ctrl-C too)")
    parser.add_argument("--layout", choices=["auto", "compact", "full"], default="auto",
                        help="compact: a few lines per section (fits 80x24); full: bordered tables; "
                             "auto: compact below 100 columns or 40 lines (default)")
    return run


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..bots import check_seat_names
    from ..errors import PackError
    from ..game import load
    from ..log import SCENARIO_NOT_LOGGED, history_replays
    from ..outputs import check_output_file
    from ..play import HUMAN, PlaySession, fresh_seed
    from ..saves import load_saved
    from ..scenarios import load_scenario

    if args.seed is None:
        args.seed = fresh_seed()
    if args.log:  # checked now, not when the game is over and its log would be lost
        check_output_file(args.log, "--log", [Path(name) for name in (args.load, args.scenario) if name])
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    if seats is not None:
        check_seat_names(seats, HUMAN)
    if args.load:
        if args.scenario:
            raise PackError("give --load or --scenario, not both")
        game, state, saved_seats = load_saved(args.load, args.pack)
        seats = seats or saved_seats
        if args.log and not state.from_scenario:
            try:
                replays = history_replays(state)
            except PackError as exc:
                raise PackError(f"--log: the game saved in {args.load} is too long to check that its log would "
                                f"replay ({exc.message}); play it on without --log") from None
            if not replays:
                raise PackError(f"--log: the decisions saved in {args.load} do not lead to the game it holds (was "
                                "it edited?), so a log of it would not replay; play it on without --log")
    else:
        if not args.pack and not args.scenario:
            raise PackError("name the pack to play (or continue a saved game with --load FILE)")
        if args.scenario:
            # Without PACK, the scenario's own `pack` key names it.
            # Dealt from the seed of this game (given, or drawn) unless the scenario writes its own.
            state = load_scenario(args.scenario, load(args.pack) if args.pack else None, args.seed)
            game = state.game
        else:
            game = load(args.pack)
            players = args.players or (len(seats) if seats else game.min_players)
            state = game.new_game(players=players, seed=args.seed)
        if seats is None:
            seats = [HUMAN] + ["random"] * (state.players - 1)
    if args.players is not None and args.players != state.players:
        raise PackError(f"--players {args.players} does not match the game, which has {state.players} players")
    if len(seats) != state.players:
        raise PackError(f"--seats names {len(seats)} seats for {state.players} players")
    if args.log and state.from_scenario:  # refused now, not when the game is over
        raise PackError(f"--log: {SCENARIO_NOT_LOGGED} (type 'save FILE' at the prompt)")
    if args.log:  # the pack is known only now when a save or a scenario names it
        from ..outputs import check_not_input
        from ..packs import pack_folders

        check_not_input(Path(args.log), "--log", pack_folders(game.source.root))
    session = PlaySession(game, state, seats, Console(highlight=False), seed=args.seed, log_path=args.log,
                          layout=args.layout)
    return session.run()
