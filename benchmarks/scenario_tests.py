"""Pack scenario tests: how many each pack carries, how long they take, and which one-rule bugs they catch.

    python benchmarks/scenario_tests.py                 # every built-in and example pack with tests
    python benchmarks/scenario_tests.py --mutants       # also: one-rule mutants of Ophir against its tests
    python benchmarks/scenario_tests.py --json out.json

Times are `time.perf_counter` seconds: `load` is loading and compiling the
pack, `run` is running its scenario test files once it is loaded.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import ruleskit
from ruleskit.testing.scenario_tests import run_pack_tests, scenario_test_files

ROOT = Path(__file__).resolve().parent.parent

# (what the bug does, file, text, replacement): each changes one rule of Ophir as an author might by mistake.
OPHIR_MUTANTS = [
    ("a hold costs 1 coin", "actions.toml", "cost = { coins = 2 }", "cost = { coins = 1 }"),
    ("the market modifier's sign is flipped", "market.rk", "card.coins + modifier(slot)", "card.coins - modifier(slot)"),
    ("a donation keeps the goods", "temple.rk", "move g from p.cargo to supply", "let kept = g"),
    ("an influence check fails on a tie", "navigation.rk", "if p.ship.influence < highest",
     "if p.ship.influence <= highest"),
    ("the Chancellor pays 1 favor whatever is missing", "market.rk", "rule favor_paid(p, lacking) = lacking",
     "rule favor_paid(p, lacking) = 1"),
    ("the Priest's bonus is doubled", "specialists.rk", "h.site == temple {\n    p.favor += 1",
     "h.site == temple {\n    p.favor += 2"),
    ("the Temple Guard gets +2", "specialists.rk", "p.specialist == temple_guard = base + 1",
     "p.specialist == temple_guard = base + 2"),
    ("a failed check lowers the defender by 2", "navigation.rk", "if s.influence == highest { s.influence -= 1 }",
     "if s.influence == highest { s.influence -= 2 }"),
    ("a ship may sail back to its starting hex", "navigation.rk", "if h != start_hex and not", "if not"),
    ("a good may be acquired twice a visit", "actions.toml", "limit = { visit = 1 }", "limit = { visit = 2 }"),
    ("a Market Trade twice a turn", "actions.toml", 'params = { card = "tradeable_cards(me)" }\nlimit = { turn = 1 }',
     'params = { card = "tradeable_cards(me)" }\nlimit = { turn = 2 }'),
    ("a donation gives no favor", "temple.rk", "    p.favor += card.vp\n", "    p.favor += 0\n"),
    ("a metal's favor price is ignored", "temple.rk", "p.favor >= m.favor_price", "p.favor >= 0"),
    ("an Influence Move costs 2 favor", "actions.toml", "cost = { favor = 1 }", "cost = { favor = 2 }"),
    ("a third hold purchase allowed", "actions.toml", "me.hold_buys < 2", "me.hold_buys < 3"),
    ("favor moves allowed after a successful sail", "navigation.rk",
     "rule may_use_favor_now() = moves == 0 or (moves == 1 and fails == 1)", "rule may_use_favor_now() = moves <= 1"),
    ("the draft passes clockwise", "setup.rk", '"counterclockwise"', '"clockwise"'),
]


def packs() -> list[Path]:
    found = sorted(p.parent for p in [*ROOT.glob("games/*/pack.toml"), *ROOT.glob("examples/**/pack.toml")])
    return [p for p in found if scenario_test_files(p)]


def measure(pack: Path) -> dict[str, Any]:
    started = time.perf_counter()
    game = ruleskit.load(pack)
    loaded = time.perf_counter()
    report = run_pack_tests(game)
    return {"pack": game.name, "files": len(report.files), "steps": sum(f.steps for f in report.files),
            "expectations": report.checks, "ok": report.ok, "load": round(loaded - started, 3),
            "run": round(report.seconds, 3)}


def mutants() -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for what, file, old, new in OPHIR_MUTANTS:
            copy = Path(scratch) / f"mutant{len(rows)}"
            shutil.copytree(ROOT / "games" / "ophir", copy)
            text = (copy / file).read_text(encoding="utf-8")
            if old not in text:
                raise SystemExit(f"mutant '{what}': the text to change is no longer in {file}")
            (copy / file).write_text(text.replace(old, new, 1), encoding="utf-8")
            started = time.perf_counter()
            report = run_pack_tests(copy)
            first = report.problems[0] if report.problems else None
            rows.append({"mutant": what, "caught": not report.ok, "failures": len(report.problems),
                         "first": f"{Path(first.file).name}:{first.line}" if first else None,
                         "seconds": round(time.perf_counter() - started, 2)})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", action="store_true", help="run one-rule mutants of Ophir against its tests")
    parser.add_argument("--json", type=Path, default=None, help="write the figures to this file")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"packs": [measure(pack) for pack in packs()]}
    for row in figures["packs"]:
        print(f"{row['pack']:26} {row['files']:3} files {row['steps']:4} steps {row['expectations']:4} expectations"
              f"  load {row['load']:.2f}s  run {row['run']:.2f}s  {'ok' if row['ok'] else 'FAILED'}")
    if args.mutants:
        figures["mutants"] = mutants()
        for row in figures["mutants"]:
            print(f"{'caught' if row['caught'] else 'MISSED':6}  {row['mutant']}  ({row['failures']} failures, "
                  f"first {row['first']}, {row['seconds']:.1f}s)")
        caught = sum(row["caught"] for row in figures["mutants"])
        print(f"{caught} of {len(figures['mutants'])} one-rule mutants of Ophir caught by its scenario tests")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0 if all(row["ok"] for row in figures["packs"]) else 1


if __name__ == "__main__":
    sys.exit(main())
