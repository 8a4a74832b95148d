"""How many hand-written one-rule bugs of a pack its checks catch.

For each mutant of a corpus (tests/mutants/ophir.toml: realistic bugs, each a
small edit of games/ophir), applied to a temporary copy of the pack:

  (a) the pack's own checks with no reference (what `ruleskit test MUTANT`
      runs: random games with every invariant, the pack's scenario tests where
      it has them), within a time budget (default 120 s) on one core;
  (b) a differential run against the unchanged pack (`--against`), same budget.

Prints a line per mutant and the shares caught; --json FILE keeps the details.

    python benchmarks/mutants.py [--corpus tests/mutants/ophir.toml] [--pack ophir]
        [--seconds 120] [--only ID,ID] [--skip-own] [--skip-against] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

from ruleskit.game import load
from ruleskit.mutation.edits import load_corpus, mutant_copy
from ruleskit.mutation.killing import describe_checks, differential, own_checks

HERE = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=HERE / "tests" / "mutants" / "ophir.toml")
    parser.add_argument("--pack", default="ophir")
    parser.add_argument("--seconds", type=float, default=120.0, help="budget per mutant and per kind of check")
    parser.add_argument("--against-seconds", type=float, default=None,
                        help="budget of the differential run per mutant (default: --seconds)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="", help="comma-separated mutant ids")
    parser.add_argument("--skip-own", action="store_true")
    parser.add_argument("--skip-against", action="store_true")
    parser.add_argument("--shard", default="0/1", help="I/N: run every N-th mutant from the I-th (parallel runs)")
    parser.add_argument("--reverse", action="store_true", help="from the last mutant to the first")
    parser.add_argument("--json", type=Path, default=None, help="write the results here (updated after each mutant)")
    parser.add_argument("--table", type=Path, nargs="+", default=None, metavar="JSON",
                        help="instead of running, merge the --json files of earlier (parallel) runs into a table")
    args = parser.parse_args(argv)
    if args.table:
        print(table(args.table, [m.id for m in load_corpus(args.corpus)]))
        return 0

    original = load(args.pack)
    root = original.source.root
    mutants = load_corpus(args.corpus)
    if args.only:
        wanted = set(args.only.split(","))
        mutants = [m for m in mutants if m.id in wanted]
    shard, shards = (int(part) for part in args.shard.split("/"))
    mutants = mutants[shard::shards]
    if args.reverse:
        mutants.reverse()
    checks = describe_checks(original)
    print(f"{len(mutants)} mutants of {original.name}; own checks: {', '.join(checks)}; "
          f"budget {args.seconds:g} CPU seconds each", flush=True)
    results = []
    for mutant in mutants:
        copy = mutant_copy(root, mutant)
        row: dict[str, object] = {"id": mutant.id, "description": mutant.description, "rule": mutant.rule}
        try:  # the copy goes even when the run is stopped part way
            try:
                load(copy)
                row["check"] = "ok"
            except Exception as exc:  # noqa: BLE001 - reported: a corpus mutant must pass ruleskit check
                row["check"] = f"FAILS: {exc}"
            if not args.skip_against:
                budget = args.against_seconds if args.against_seconds is not None else args.seconds
                row["against"] = differential(copy, original, budget, seed=args.seed).to_json()
            if not args.skip_own:
                row["own"] = own_checks(copy, args.seconds, seed=args.seed).to_json()
            row["checks"] = checks
        finally:
            shutil.rmtree(copy.parent, ignore_errors=True)
        results.append(row)
        print(_line(row), flush=True)
        if args.json is not None:
            args.json.write_text(json.dumps({"pack": original.name, "seconds": args.seconds, "checks": checks,
                                             "results": results}, indent=1))
    total = len(results)
    for kind in ("own", "against"):
        rows = [r[kind] for r in results if kind in r]
        if rows:
            caught = [r for r in rows if r["killed"]]  # type: ignore[index]
            print(f"{kind}: caught {len(caught)} of {total} ({100 * len(caught) / total:.0f}%)")
    return 0


def table(paths: list[Path], order: list[str]) -> str:
    """One Markdown table of the mutants of several runs' JSON files (a mutant's verdicts merged by id)."""
    rows: dict[str, dict[str, object]] = {}
    seconds: set[float] = set()
    for path in paths:
        if not path.exists():
            continue
        data = json.loads(path.read_text())
        seconds.add(data["seconds"])
        for row in data["results"]:
            merged = rows.setdefault(row["id"], {})
            merged.update({k: v for k, v in row.items() if v is not None})
    lines = ["| mutant | own checks | `--against ophir` |", "|---|---|---|"]
    counts = {"own": [0, 0], "against": [0, 0]}
    for mutant_id, row in sorted(rows.items(), key=lambda item: order.index(item[0]) if item[0] in order else 0):
        cells = []
        for kind in ("own", "against"):
            verdict = row.get(kind)
            if not isinstance(verdict, dict):
                cells.append("not run")
                continue
            counts[kind][1] += 1
            if verdict["killed"]:
                counts[kind][0] += 1
                cells.append(f"caught in {verdict['seconds']:.1f}s ({verdict['by']})")
            else:
                cells.append(f"missed ({verdict['games']} games)")
        lines.append(f"| {mutant_id}: {row['description']} | {cells[0]} | {cells[1]} |")
    for kind, (caught, total) in counts.items():
        if total:
            lines.append(f"\n{kind}: caught {caught} of {total} ({100 * caught / total:.0f}%)")
    return "\n".join(lines)


def _line(row: dict[str, object]) -> str:
    parts = [f"{row['id']:<36}"]
    for kind in ("own", "against"):
        verdict = row.get(kind)
        if isinstance(verdict, dict):
            mark = (f"caught in {verdict['seconds']:.1f}s by {verdict['by']}" if verdict["killed"]
                    else f"missed ({verdict['games']} games)")
            parts.append(f"{kind}: {mark}")
    if row.get("check") != "ok":
        parts.append(str(row.get("check")))
    return "  ".join(parts)


if __name__ == "__main__":
    started = time.monotonic()
    code = main(sys.argv[1:])
    print(f"total {time.monotonic() - started:.0f}s")
    sys.exit(code)
