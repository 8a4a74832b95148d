"""Packs against their hand-written baselines, counted in instructions: a ratio that does not move with load.

    python benchmarks/baseline_instructions.py                      # both games, the default numbers of games
    python benchmarks/baseline_instructions.py --games connect_four:30 --json counts.json

compare_baselines.py times each pack against its baseline in CPU time, and on a shared machine those
timings move by tens of percent from run to run. This script plays the same games (compare_baselines.py's
setups and seeded random policy: the same decisions on both sides) under `valgrind --tool=callgrind` and
reports instructions per decision for each side and their ratio. Each side runs twice in a fresh process:
once playing the games, once doing everything but play (loading the pack, which both sides do to deal
the same decks, building the setups, and the full garbage collection `play` makes before its clock
starts); the difference, over the decisions, is the figure. The pack's
program cache is filled first so that both runs load warm, and `PYTHONHASHSEED=0` makes them hash alike.

Instructions are not time: a C-level operation (a dict copy, say) counts its machine instructions, and a
cache miss counts nothing. The ratio is a check on the timed one, not a replacement. `--caches` runs the games
under `valgrind --tool=cachegrind` with its cache and branch simulation instead, and reports, per decision,
the first-level data and instruction cache misses and the mispredicted branches beside the instructions: what
a decision costs that instructions do not show. Those figures are for the games played after the first COUNT
(3 x COUNT games less COUNT, each less its setup, over the decisions between), so that a one-off full
garbage collection, which touches the whole heap, falls on neither side. valgrind must be installed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_GAMES = "connect_four:20,envoys:60"

WORKER = """
import sys
sys.path.insert(0, sys.argv[1])
import compare_baselines as cb
import ruleskit
name, side_name, count, mode = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
pack_ref, module_name, counts, _, dealt = cb.GAMES[name]
game = ruleskit.load(pack_ref)
module = cb.load_baseline(module_name)
ranks = cb.pack_deals.card_ranks(pack_ref) if dealt else None
games = cb.setups(game, ranks, count, counts, 0)
side = cb.PackSide(game) if side_name == "pack" else cb.BaselineSide(module)
if mode == "play":
    print(cb.play(side, games)[1])
else:
    import gc
    gc.collect()  # as play() does before it starts its clock
    print(0)
"""


def parse_games(text: str, known: dict[str, Any]) -> list[tuple[str, int]]:
    games = []
    for spec in text.split(","):
        name, _, count = spec.strip().partition(":")
        if name not in known or not count.isdigit() or int(count) < 1:
            raise SystemExit(f"--games: '{spec}' is not GAME:COUNT with GAME one of {', '.join(known)}")
        games.append((name, int(count)))
    return games


# What --caches reports, from cachegrind's events: (label, the events summed).
CACHE_FIGURES = (("instructions", ("Ir",)), ("D1 misses", ("D1mr", "D1mw")), ("I1 misses", ("I1mr",)),
                 ("mispredicts", ("Bcm", "Bim")))


def run(name: str, side: str, count: int, mode: str, cache: Path, out: Path | None, caches: bool = False) -> int:
    from count_instructions import run_counted

    command = [sys.executable, "-c", WORKER, str(HERE), name, side, str(count), mode]
    return run_counted(command, ROOT, cache, out, f"{name} ({side})", caches)


def cachegrind_totals(out: Path) -> dict[str, int]:
    """The whole run's events in a cachegrind output file, by name (Ir, D1mr, Bim...)."""
    names: list[str] = []
    for line in out.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("events:"):
            names = line.split()[1:]
        elif line.startswith("summary:"):
            return dict(zip(names, (int(v) for v in line.split()[1:]), strict=True))
    raise SystemExit(f"no summary in {out}")


def count_side(name: str, side: str, count: int, work: Path, caches: bool = False) -> dict[str, Any]:
    from count_instructions import total_instructions

    cache = work / "cache"
    run(name, side, count, "setup", cache, None)  # fills the program cache
    decisions = run(name, side, count, "play", cache, work / f"{side}-play.out", caches)
    if caches:
        # The games after the first `count`: one full collection of the whole heap (a one-off that lands
        # in whichever run crosses its threshold) would otherwise weigh on misses more than on anything else.
        # Each play less the setup of as many games (dealing decks through the pack costs as games do).
        more = run(name, side, 3 * count, "play", cache, work / f"{side}-more.out", caches)
        run(name, side, count, "setup", cache, work / f"{side}-setup.out", caches)
        run(name, side, 3 * count, "setup", cache, work / f"{side}-more-setup.out", caches)
        events = {mode: cachegrind_totals(work / f"{side}-{mode}.out")
                  for mode in ("play", "setup", "more", "more-setup")}

        def played(event: str) -> int:
            return (events["more"][event] - events["more-setup"][event]) - (events["play"][event] - events["setup"][event])

        figures = {label: round(sum(played(e) for e in names) / (more - decisions)) for label, names in CACHE_FIGURES}
        return {"decisions": more - decisions, "per_decision": figures["instructions"], "figures": figures}
    run(name, side, count, "setup", cache, work / f"{side}-setup.out")
    played = total_instructions(work / f"{side}-play.out") - total_instructions(work / f"{side}-setup.out")
    return {"decisions": decisions, "instructions": played, "per_decision": round(played / decisions)}


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(HERE))
    from compare_baselines import GAMES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=DEFAULT_GAMES, metavar="SPECS",
                        help=f"comma-separated GAME:COUNT, GAME one of {', '.join(GAMES)} (default {DEFAULT_GAMES})")
    parser.add_argument("--caches", action="store_true",
                        help="simulate the caches and branch predictors (cachegrind): misses and mispredicts "
                             "per decision beside the instructions")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    games = parse_games(args.games, GAMES)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    rows = []
    with tempfile.TemporaryDirectory(prefix="ruleskit-baseline-instructions-") as temp:
        for name, count in games:
            row: dict[str, Any] = {"game": name, "games": count}
            for side in ("pack", "baseline"):
                tool = "cachegrind" if args.caches else "callgrind"
                print(f"{name} ({count} games): {side} under {tool}...", file=sys.stderr, flush=True)
                work = Path(temp) / name
                work.mkdir(exist_ok=True)
                row[side] = count_side(name, side, count, work, args.caches)
            row["same_games"] = row["pack"]["decisions"] == row["baseline"]["decisions"]
            row["ratio"] = round(row["pack"]["per_decision"] / row["baseline"]["per_decision"], 2)
            rows.append(row)
    if args.caches:
        print("Per decision (cachegrind, random play, the games after the first COUNT): pack / baseline / ratio")
        for row in rows:
            print(f"  {row['game']} ({row['pack']['decisions']} decisions)")
            for label, _ in CACHE_FIGURES:
                mine, theirs = row["pack"]["figures"][label], row["baseline"]["figures"][label]
                ratio = f"{mine / theirs:.1f}x" if theirs else "-"
                print(f"    {label:<13} {mine:>9,} / {theirs:>7,} / {ratio}")
    else:
        print("Instructions per decision (callgrind, random play, setup subtracted): pack / baseline / ratio")
    for row in rows if not args.caches else ():
        line = (f"  {row['game']:<14} {row['pack']['decisions']:>6} decisions  {row['pack']['per_decision']:>9,} / "
                f"{row['baseline']['per_decision']:>7,} / {row['ratio']:.1f}x")
        if not row["same_games"]:
            line += f"  (the baseline made {row['baseline']['decisions']} decisions: not the same games)"
        print(line)
    if args.json:
        Path(args.json).write_text(json.dumps({"python": sys.version.split()[0], "games": rows}, indent=2) + "\n",
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
