"""`ruleskit serve PACK`: play in a web browser; `ruleskit serve --log LOG`: step through a game log."""

from __future__ import annotations

import argparse
import socket
from collections.abc import Callable

from .options import list_text, name_text, path_text
from .simulate import positive_int, seed_int

NAME = "serve"
HELP = "Play a pack in a web browser (hot-seat, bots, a page per seat), or replay a log with --log."


def port_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, not '{text}'") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {value}")
    return value


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("pack", metavar="PACK", nargs="?", type=name_text,
                        help="pack or variant folder, or a built-in pack name (with --log: the folder of the log's "
                             "pack, unless it is built in)")
    parser.add_argument("--log", metavar="LOG", type=path_text, help="replay this JSON Lines game log instead of playing")
    parser.add_argument("--host", type=name_text, default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only)")
    parser.add_argument("--port", type=port_int, default=8000, help="port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--players", "-p", type=positive_int, default=None,
                        help="number of players of the first game (default: the number of seats, else the minimum)")
    parser.add_argument("--seats", type=list_text, default=None,
                        help="who sits where, comma-separated: human, or a bot: random, greedy, "
                             "mcts[:ITERATIONS|:SECONDSs], package.module:Class (see docs/BOTS.md) "
                             "(default: a human in seat 1 and random bots elsewhere)")
    parser.add_argument("--seed", type=seed_int, default=None,
                        help="the first game's seed (default: drawn at random, so no player can deal it again)")
    parser.add_argument("--scenario", metavar="FILE", type=path_text, help="start every game from this scenario file")
    return run


def run(args: argparse.Namespace) -> int:
    from ..errors import PackError

    try:
        import uvicorn

        from ..web.app import play_app, replay_app
        from ..web.deadline import server_config
    except ImportError:
        raise PackError("'ruleskit serve' needs the web extra: pip install 'ruleskit[web]'") from None
    from ..bots import check_seat_names
    from ..game import load
    from ..play import HUMAN, MAX_SEED
    from ..web.lobby import Lobby
    from ..web.replay import LogReplay
    from ..web.table import Refusal

    if args.log:
        app = replay_app(LogReplay(args.log, args.pack))  # PACK names the folder of a log's pack
        path = "/replay"
    else:
        if not args.pack:
            raise PackError("name the pack to serve (or replay a log with --log LOG)")
        seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
        if seats is not None:
            check_seat_names(seats, HUMAN)
        if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
            raise PackError(f"the seed must be a whole number from 0 to {MAX_SEED}, not {args.seed}")
        game = load(args.pack)
        if args.players is not None and not game.min_players <= args.players <= game.max_players:
            raise game.players_refused(args.players)
        lobby = Lobby(game, args.players, seats, args.seed, args.scenario)
        if args.players is not None and seats is not None and len(seats) != args.players:
            raise PackError(f"--seats names {len(seats)} seats for {args.players} players")
        try:
            lobby.start()
        except Refusal as exc:
            raise PackError(str(exc)) from None
        app = play_app(lobby)
        path = f"/host/{lobby.host_token}"
    sock = _listen(args.host, args.port)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Serving on http://{shown}:{port}{path}", flush=True)
    print("Open that address in a browser; press Ctrl+C to stop.", flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"Note: listening on {args.host}, so other computers may reach this server; the address above "
              "is the key to the table, so share only the seats' own addresses.", flush=True)
    uvicorn.Server(server_config(app)).run(sockets=[sock])
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket, bound before the address is printed (so --port 0 can name the port it got)."""
    from ..errors import PackError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise PackError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(128)
    return sock
