"""`ruleskit mutate PACK`: mutants of the pack, and which of them the pack's own checks catch."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from .options import path_value

NAME = "mutate"
HELP = ("Mutation testing: make small changes of the pack's rules (numbers, comparisons, and/or, dropped "
        "statements, guards, limits, hooks), run the pack's own checks against each, and list every change "
        "no check catches (a rule no check pins down) with its file and line.")


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from .test import player_counts

    parser.add_argument("pack", metavar="PACK", help="pack folder, or a built-in pack name")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="try N mutants drawn at random (by --seed) instead of all of them")
    parser.add_argument("--seed", type=int, default=0, help="seed of the draw and of the games (default 0)")
    parser.add_argument("--time", default="20s", metavar="DURATION",
                        help="CPU budget of the pack's checks per mutant, e.g. 20s or 2m (default 20s)")
    parser.add_argument("--lockstep-time", default="5s", metavar="DURATION",
                        help="CPU budget per mutant for playing it in lockstep with the pack, to see that it "
                             "changes the game at all (default 5s)")
    parser.add_argument("--players", type=player_counts, default=None,
                        help="player counts, e.g. 3 or 2,3,4 (default: all)")
    parser.add_argument("--corpus", type=path_value, default=None,
                        help="a TOML file of hand-written mutants ([[mutant]] id, description, edits) to use "
                             "instead of generated ones")
    parser.add_argument("--out", type=path_value, default=None,
                        help="append each mutant's outcome to this JSON Lines file as it is decided")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    return run


def run(args: argparse.Namespace) -> int:
    from ..errors import PackError
    from ..game import load
    from ..mutation.edits import load_corpus
    from ..mutation.operators import generate
    from ..mutation.scoring import SURVIVED, Outcome, pick, score_mutants
    from ..outputs import check_output_file
    from ..testing.budget import parse_duration

    # Parsed as `test --time` is, so a budget of nothing is refused rather than run as every mutant surviving.
    seconds, lockstep_seconds = parse_duration(args.time), parse_duration(args.lockstep_time)
    game = load(args.pack)
    mutants = load_corpus(args.corpus) if args.corpus else generate(game)
    if args.limit is not None and args.limit < 1:
        raise PackError(f"--limit must be at least 1, not {args.limit}")
    chosen = pick(mutants, args.limit, args.seed)
    if args.out is not None:  # before any mutant runs: a bad path failed after the first one's minutes
        from ..packs import pack_folders

        inputs = pack_folders(args.pack) + ([args.corpus] if args.corpus else [])
        check_output_file(args.out, "--out", inputs)
    if args.list:
        for mutant in chosen:
            print(f"{mutant.id} {mutant.where}: {mutant.description}")
        return 0
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=Console(stderr=True), disable=args.quiet or args.json, transient=True)
    with progress:
        task = progress.add_task("mutants", total=len(chosen))
        survived = [0]

        def advance(outcome: Outcome, done: int) -> None:
            survived[0] += outcome.status == SURVIVED
            if args.out is not None:
                with open(args.out, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(outcome.to_json()) + "\n")
            progress.update(task, completed=done, description=f"mutants ({survived[0]} survived)")

        report = score_mutants(game, chosen, seconds=seconds, lockstep_seconds=lockstep_seconds, seed=args.seed,
                               players=args.players, generated=len(mutants), progress=advance)
    if args.json:
        print(json.dumps(report.to_json()))
        return 0
    print(report.summary())
    print("checks: " + ", ".join(report.checks))
    for line in report.survivors():
        print(line)
    sys.stdout.flush()
    return 0
