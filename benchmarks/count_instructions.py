"""Instructions per decision under callgrind: a figure that does not move with the machine's load.

    python benchmarks/count_instructions.py                        # this checkout, five packs
    python benchmarks/count_instructions.py --old f5f24a6          # and an older commit beside it
    python benchmarks/count_instructions.py --packs connect_four:2:20 --json counts.json
    python benchmarks/count_instructions.py --replay --packs ophir:2:2  # replaying the same games by id

Timings on a shared machine vary by tens of percent from run to run; instruction counts do not (the same
code, inputs and environment give the same count, whatever else the machine is doing). For each pack,
given as NAME_OR_PATH:PLAYERS:GAMES, and each side, a worker process loads the pack and plays GAMES
random games (game i has seed i and takes its choices from `random.Random(i)`, as in
compare_baselines.py). The worker runs under `valgrind --tool=callgrind` twice: once playing the games,
once stopping after the load; the difference, over the number of decisions, is the figure. With `--replay`
the games are first recorded (the ids of the actions taken), and the figure is for replaying them by id. The program
cache is filled by an ordinary run first (each side has a cache folder of its own), so both callgrind runs
load warm, and `PYTHONHASHSEED=0` makes both runs hash alike.

A pack given as a path is read from this checkout for both sides; a built-in pack's name means each
side's own copy. `--old COMMIT` measures an older commit's code, exported with `git archive` into a
temporary folder and imported from there with this environment's packages (for a commit that needs
other packages, compare speed with compare_versions.py, which installs it). valgrind must be installed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PACKS = ("benchmarks/packs/end_turn_only:2:2,tests/packs/take_turns:2:100,connect_four:2:20,"
                 "envoys:3:60,ophir:4:1")

WORKER = """
import json, random, sys
import ruleskit
pack, players, games, mode, logs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
game = ruleskit.load(pack)
decisions = 0
recorded = json.load(open(logs)) if mode in ("replay", "load") and logs else None
if mode in ("play", "record"):
    recorded = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(players=players, seed=seed)
        recorded.append([])
        while not state.is_terminal:
            actions = state.legal_actions()
            chosen = actions[rng.randrange(len(actions))]
            recorded[-1].append(chosen.id)
            state.apply(chosen)
            decisions += 1
    if mode == "record":
        json.dump(recorded, open(logs, "w"))
elif mode == "replay":
    for seed, ids in enumerate(recorded):
        state = game.new_game(players=players, seed=seed)
        for action_id in ids:
            state.apply(action_id)
            decisions += 1
print(decisions)
"""

_TOTAL = re.compile(r"^(?:summary|totals):\s*(\d+)", re.MULTILINE)


def parse_packs(text: str) -> list[tuple[str, int, int]]:
    packs = []
    for spec in text.split(","):
        name, _, rest = spec.strip().rpartition(":")
        pack, _, players = name.rpartition(":")
        if not pack or not players.isdigit() or not rest.isdigit():
            raise SystemExit(f"--packs: '{spec}' is not NAME_OR_PATH:PLAYERS:GAMES")
        if (ROOT / pack).is_dir():
            pack = str(ROOT / pack)  # a path: the same files for both sides
        packs.append((pack, int(players), int(rest)))
    return packs


def run_worker(source: Path, cache: Path, pack: str, players: int, games: int, mode: str,
               callgrind_out: Path | None, logs: Path | None = None) -> int:
    """Run the worker (under callgrind if `callgrind_out` is given); the number of decisions it made.

    Modes: `play` random games; `record` them into `logs` (the ids of the actions taken); `replay` the
    games in `logs` by id; `load` only (and read `logs` if given, as a replay does)."""
    command = [sys.executable, "-c", WORKER, pack, str(players), str(games), mode, str(logs) if logs else ""]
    return run_counted(command, source, cache, callgrind_out, f"{pack} ({source})")


def run_counted(command: list[str], source: Path, cache: Path, callgrind_out: Path | None, what: str,
                caches: bool = False) -> int:
    """Run a worker that prints a count last, with ruleskit from `source` and its program cache in `cache`
    (under callgrind if `callgrind_out` is given, with hashing fixed; with `caches`, under cachegrind
    simulating the caches and branch predictors); the count it printed."""
    env = dict(os.environ, PYTHONPATH=str(source), PYTHONHASHSEED="0", RULESKIT_CACHE_DIR=str(cache))
    env.pop("RULESKIT_NO_CACHE", None)
    if callgrind_out is not None and caches:
        command = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
                   f"--cachegrind-out-file={callgrind_out}", *command]
    elif callgrind_out is not None:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={callgrind_out}", *command]
    done = subprocess.run(command, env=env, cwd=source, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the worker failed on {what}:\n{done.stderr[-2000:]}")
    return int(done.stdout.strip().splitlines()[-1])


def total_instructions(callgrind_out: Path) -> int:
    found = _TOTAL.findall(callgrind_out.read_text(encoding="utf-8", errors="replace"))
    if not found:
        raise SystemExit(f"no instruction total in {callgrind_out}")
    return int(found[-1])


def count(source: Path, work: Path, pack: str, players: int, games: int, replay: bool = False) -> dict[str, Any]:
    """Instructions per decision of `games` random games of `pack` with the ruleskit found in `source`
    (with `replay`, of replaying them by id, the games recorded first with the same code)."""
    cache = work / "cache"
    logs = work / "games.json" if replay else None
    # Fill the program cache (and record the games to replay).
    run_worker(source, cache, pack, players, games, "record" if replay else "load", None, logs)
    decisions = run_worker(source, cache, pack, players, games, "replay" if replay else "play", work / "play.out",
                           logs)
    run_worker(source, cache, pack, players, games, "load", work / "load.out", logs)
    played, loaded = total_instructions(work / "play.out"), total_instructions(work / "load.out")
    return {"decisions": decisions, "instructions": played - loaded,
            "per_decision": round((played - loaded) / decisions) if decisions else None}


def export(commit: str, into: Path) -> Path:
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"git archive {commit} failed: {archive.stderr.decode(errors='replace').strip()}")
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packs", default=DEFAULT_PACKS, metavar="SPECS",
                        help=f"comma-separated NAME_OR_PATH:PLAYERS:GAMES (default {DEFAULT_PACKS})")
    parser.add_argument("--old", metavar="COMMIT", help="also count an older commit's code, side by side")
    parser.add_argument("--replay", action="store_true",
                        help="count replaying the same random games by action id (as `ruleskit replay` runs a "
                             "log) instead of playing them")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    packs = parse_packs(args.packs)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    results: dict[str, Any] = {"python": sys.version.split()[0], "old": args.old,
                               "mode": "replay" if args.replay else "random play", "packs": []}
    with tempfile.TemporaryDirectory(prefix="ruleskit-instructions-") as temp:
        sides = {"new": ROOT}
        if args.old:
            sides = {"old": export(args.old, Path(temp) / "old"), **sides}
        for index, (pack, players, games) in enumerate(packs):
            row: dict[str, Any] = {"pack": pack, "players": players, "games": games}
            for side, source in sides.items():
                print(f"{Path(pack).name} ({players} players, {games} games): {side} side under callgrind...",
                      file=sys.stderr, flush=True)
                work = Path(temp) / f"{side}-{index}"
                work.mkdir()
                row[side] = count(source, work, pack, players, games, args.replay)
            if "old" in row:
                row["same_games"] = row["old"]["decisions"] == row["new"]["decisions"]
            if "old" in row and row["old"]["per_decision"] and row["new"]["per_decision"]:
                row["change"] = round(row["new"]["per_decision"] / row["old"]["per_decision"] - 1, 4)
            results["packs"].append(row)
    shown = "old / new / change" if args.old else "new"
    print(f"Instructions per decision (callgrind, {results['mode']}, load subtracted): {shown}")
    for row in results["packs"]:
        line = f"  {Path(row['pack']).name:<16} {row['players']}p {row['new']['decisions']:>6} decisions"
        if "old" in row:
            change = f"{row['change']:+.1%}" if "change" in row else "-"
            line += f"  {row['old']['per_decision']:>9,} / {row['new']['per_decision']:>9,} / {change}"
            if not row["same_games"]:
                line += f"  (the old side made {row['old']['decisions']} decisions: not the same games)"
        else:
            line += f"  {row['new']['per_decision']:>9,}"
        print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
