"""Ophir under this checkout's engine against an older commit's, installed side by side.

    python benchmarks/compare_versions.py                          # against c060272, 3 rounds
    python benchmarks/compare_versions.py --old c060272 --rounds 5 --json versions.json
    python benchmarks/compare_versions.py --env-dir /tmp/ruleskit-old   # keep (and reuse) the old install

The older commit is exported with `git archive` into a temporary folder and installed there
with `pip install` into its own virtualenv. Each side runs in its own subprocess with its own
Python, and uses only the public API (`ruleskit.load`, `new_game`, `legal_actions`, `apply`,
`is_terminal`, `result`, `ruleskit.log.write_log`) and the command line, so this script works
whatever either engine's internals are. "new" is this checkout (imported from its folder by the
Python running this script); "old" is the older commit.

What it measures, on identical Ophir games:

- random play: for each player count, the same seeds and the same random policy (game i's choices
  come from random.Random(seed), an index into the legal actions of the player to decide);
- replay: logs of random games written once, by the old engine, before any timing, then re-run
  by each side (new game from the log's players and seed, then each recorded action applied by
  its id; reading the log is not timed; each side checks it reaches the logged result).

Rounds interleave the two sides (the order alternates) at least 3 times; decisions/s is
decisions over CPU time (time.process_time) in the worker, the ratio is new over old per round,
and the table shows the medians over the rounds. It also measures, in fresh processes:
`import ruleskit` and `ruleskit.load("ophir")` cold (an empty cache folder, named to the engines by
XDG_CACHE_HOME or the variables given with --cache-var) and warm (the same cache folder after one
load; and a second load in the same process), wall time, median of 5; and
`ruleskit simulate ophir --workers 1` and `--workers 2` (games/s as simulate reports it).
Per-call costs (µs, median over positions of one random game per player count, wall time):
`apply` of a random legal action to a copy whose actions were listed; `legal_actions`, the first
listing of the position apply produced; `clone`; and `legal_actions` of a position just restored
with State.from_json (listed from scratch).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OLD = "c060272"
PACK = "ophir"

# Runs inside each side's own Python; only the public API of ruleskit.
WORKER = r'''
import json, random, sys, time


def play_random(game, players, seed):
    started = time.process_time()
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    decisions = 0
    while not state.is_terminal:
        player = state.players_to_decide()[0]
        moves = state.legal_actions(player)
        state.apply(moves[chooser.randrange(len(moves))])
        decisions += 1
    return {"cpu": time.process_time() - started, "decisions": decisions, "result": state.result}


def replay(game, path):
    with open(path, encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle if line.strip()]
    header = lines[0]
    steps = [(line["action"], line.get("player")) for line in lines if line["type"] == "decision"]
    logged = [line for line in lines if line["type"] == "result"]
    started = time.process_time()
    state = game.new_game(players=header["players"], seed=header["seed"], options=header.get("options") or None)
    for action, player in steps:
        state.apply(action, player=player)
    cpu = time.process_time() - started
    expected = {k: v for k, v in logged[0].items() if k != "type"} if logged else None
    return {"cpu": cpu, "decisions": len(steps), "result": state.result, "matches_log": state.result == expected}


def per_call(game, players, seed):
    """Median µs of clone, apply, the next legal_actions, and legal_actions after from_json, on positions
    sampled from one random game (every 25th decision)."""
    import statistics
    from ruleskit import State
    state = game.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    samples, step = [], 0
    while not state.is_terminal:
        if step % 25 == 0:
            samples.append(state.clone())
        moves = state.legal_actions(state.players_to_decide()[0])
        state.apply(moves[chooser.randrange(len(moves))])
        step += 1
    costs = {"clone": [], "apply": [], "legal_actions": [], "legal_actions_from_json": []}
    for position in samples:
        started = time.perf_counter()
        copy = position.clone()
        costs["clone"].append(time.perf_counter() - started)
        moves = copy.legal_actions(copy.players_to_decide()[0])
        action = moves[chooser.randrange(len(moves))]
        started = time.perf_counter()
        copy.apply(action)
        costs["apply"].append(time.perf_counter() - started)
        if not copy.is_terminal:
            started = time.perf_counter()
            copy.legal_actions()
            costs["legal_actions"].append(time.perf_counter() - started)
        restored = State.from_json(game, position.to_json())
        started = time.perf_counter()
        restored.legal_actions()
        costs["legal_actions_from_json"].append(time.perf_counter() - started)
    out = {name + "_us": round(statistics.median(times) * 1e6, 1) for name, times in costs.items()}
    out["positions"] = len(samples)
    return out


def main():
    task = json.loads(sys.argv[1])
    if task["kind"] == "load":
        started = time.perf_counter()
        import ruleskit
        imported = time.perf_counter()
        ruleskit.load(task["pack"])
        first = time.perf_counter()
        ruleskit.load(task["pack"])
        second = time.perf_counter()
        print(json.dumps({"import": imported - started, "first_load": first - imported,
                          "second_load": second - first}))
        return
    import ruleskit
    game = ruleskit.load(task["pack"])
    if task["kind"] == "logs":
        from ruleskit.log import write_log
        for players, seed, path in task["games"]:
            state = game.new_game(players=players, seed=seed)
            chooser = random.Random(seed)
            while not state.is_terminal:
                moves = state.legal_actions(state.players_to_decide()[0])
                state.apply(moves[chooser.randrange(len(moves))])
            write_log(state, path)
        print(json.dumps({"written": len(task["games"])}))
        return
    if task["kind"] == "calls":
        print(json.dumps({str(p): per_call(game, p, seed) for p, seed in task["games"]}))
        return
    out = {"random": [], "replay": []}
    for players, seed in task["random"]:
        out["random"].append({"players": players, "seed": seed, **play_random(game, players, seed)})
    for players, path in task["replay"]:
        out["replay"].append({"players": players, "log": path, **replay(game, path)})
    print(json.dumps(out))


main()
'''


class Side:
    """One engine: a Python to run and the environment that makes it import that engine."""

    def __init__(self, name: str, python: str, env: dict[str, str], label: str) -> None:
        self.name = name
        self.python = python
        self.env = env
        self.label = label

    def run(self, args: list[str], cwd: Path, extra_env: dict[str, str] | None = None,
            timeout: float = 3600) -> str:
        env = {**self.env, **(extra_env or {})}
        done = subprocess.run([self.python, *args], capture_output=True, text=True, cwd=cwd, env=env,
                              timeout=timeout)
        if done.returncode != 0:
            raise SystemExit(f"{self.name} engine failed running {' '.join(args[:3])}:\n{done.stderr}")
        return done.stdout

    def task(self, worker: Path, task: dict[str, Any], cwd: Path, extra_env: dict[str, str] | None = None) -> Any:
        return json.loads(self.run([str(worker), json.dumps(task)], cwd, extra_env).strip().splitlines()[-1])


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True).stdout.strip()


def skip_unsafe(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
    """The archive's files as the "data" filter passes them; the few it refuses (the hostile-pack tests'
    links out of the tree) are left out: installing the package needs none of them."""
    try:
        return tarfile.data_filter(member, path)
    except tarfile.FilterError:
        return None


def install_old(commit: str, where: Path, say: Any) -> tuple[str, str]:
    """Export `commit` into where/src and install it into where/venv; reuse an earlier install of it."""
    full = git("rev-parse", "--verify", f"{commit}^{{commit}}")
    marker = where / "installed-commit"
    python = where / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
    if marker.exists() and marker.read_text().strip() == full and python.exists():
        say(f"reusing the install of {full[:10]} in {where}")
        return str(python), full
    for sub in ("src", "venv"):
        shutil.rmtree(where / sub, ignore_errors=True)
    say(f"exporting {full[:10]} and installing it in {where} (pip)...")
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", full], capture_output=True,
                             check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(where / "src", filter=skip_unsafe)
        else:  # Python before 3.11.4; the archive is our own repository's
            tar.extractall(where / "src", members=[m for m in tar.getmembers()
                                                   if not (m.issym() and m.linkname.startswith("/"))])
    subprocess.run([sys.executable, "-m", "venv", str(where / "venv")], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    str(where / "src")], check=True)
    marker.write_text(full + "\n")
    return str(python), full


def base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PYTHONHASHSEED"] = "0"
    return env


def current_label() -> str:
    head = git("rev-parse", "--short", "HEAD")
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "ruleskit", "games", "grammar")
    return head + ("+changes" if dirty else "")


def measure_games(sides: list[Side], worker: Path, work: Path, counts: list[int], games: int, logs: int,
                  rounds: int, seed: int, say: Any) -> dict[str, Any]:
    random_games = [[p, seed + 100 * p + i] for p in counts for i in range(games)]
    log_games = [[p, seed + 10_000 + 100 * p + i, str(work / "logs" / f"ophir-{p}p-{i}.jsonl")]
                 for p in counts for i in range(logs)]
    (work / "logs").mkdir(exist_ok=True)
    old = next(s for s in sides if s.name == "old")
    say(f"writing {len(log_games)} logs with the old engine...")
    old.task(worker, {"kind": "logs", "pack": PACK, "games": log_games}, work)
    task = {"kind": "games", "pack": PACK, "random": random_games, "replay": [[p, path] for p, _, path in log_games]}
    by_round: list[dict[str, Any]] = []
    for number in range(rounds):
        order = sides if number % 2 == 0 else list(reversed(sides))
        measured = {}
        for side in order:
            say(f"round {number + 1}/{rounds}: {side.name} engine playing {len(random_games)} random games "
                f"and {len(log_games)} replays...")
            measured[side.name] = side.task(worker, task, work)
        by_round.append(measured)
    rows = []
    for mode in ("random", "replay"):
        for players in counts:
            per_round = []
            for measured in by_round:
                rates = {}
                for name, out in measured.items():
                    done = [g for g in out[mode] if g["players"] == players]
                    rates[name] = sum(g["decisions"] for g in done) / sum(g["cpu"] for g in done)
                per_round.append(rates)
            first = by_round[0]
            same = ([(g["decisions"], g["result"]) for g in first["old"][mode] if g["players"] == players]
                    == [(g["decisions"], g["result"]) for g in first["new"][mode] if g["players"] == players])
            matches = all(g.get("matches_log", True) for measured in by_round for out in measured.values()
                          for g in out[mode])
            ratios = [r["new"] / r["old"] for r in per_round]
            rows.append({
                "mode": mode, "players": players,
                "games": len([g for g in first["old"][mode] if g["players"] == players]),
                "decisions": sum(g["decisions"] for g in first["old"][mode] if g["players"] == players),
                "same_games": same, "replays_match_logs": matches,
                "old_decisions_per_s": round(statistics.median(r["old"] for r in per_round)),
                "new_decisions_per_s": round(statistics.median(r["new"] for r in per_round)),
                "ratio_median": round(statistics.median(ratios), 2),
                "ratio_min": round(min(ratios), 2), "ratio_max": round(max(ratios), 2),
                "rounds": [{k: round(v) for k, v in r.items()} for r in per_round],
            })
    return {"random_games": random_games, "logged_games": [[p, s] for p, s, _ in log_games], "rows": rows}


def measure_calls(sides: list[Side], worker: Path, work: Path, counts: list[int], seed: int,
                  say: Any) -> dict[str, Any]:
    results = {}
    for side in sides:
        say(f"{side.name} engine: per-call costs...")
        results[side.name] = side.task(worker, {"kind": "calls", "pack": PACK,
                                                "games": [[p, seed + 100 * p] for p in counts]}, work)
    return results


def measure_loads(sides: list[Side], worker: Path, work: Path, repeats: int, cache_vars: list[str],
                  say: Any) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for side in sides:
        say(f"{side.name} engine: load times...")
        cold, warm = [], []
        for i in range(repeats):
            cache = work / f"cache-{side.name}-{i}"
            cache.mkdir()
            env = {name: str(cache) for name in cache_vars}
            cold.append(side.task(worker, {"kind": "load", "pack": PACK}, work, env))
            warm.append(side.task(worker, {"kind": "load", "pack": PACK}, work, env))
        results[side.name] = {
            "import_ms": round(statistics.median(r["import"] for r in cold) * 1e3, 1),
            "cold_load_ms": round(statistics.median(r["first_load"] for r in cold) * 1e3, 1),
            "warm_load_new_process_ms": round(statistics.median(r["first_load"] for r in warm) * 1e3, 1),
            "warm_load_same_process_ms": round(statistics.median(r["second_load"] for r in cold + warm) * 1e3, 1),
        }
    return results


def measure_simulate(sides: list[Side], work: Path, games: int, say: Any) -> dict[str, Any]:
    results: dict[str, Any] = {side.name: {} for side in sides}
    for workers in (1, 2):
        for side in sides:
            say(f"{side.name} engine: simulate {games} games with --workers {workers}...")
            out = work / f"simulate-{side.name}-{workers}.json"
            started = time.perf_counter()
            side.run(["-m", "ruleskit.cli", "simulate", PACK, "--games", str(games), "--players", "4",
                      "--workers", str(workers), "--seed", "0", "--quiet", "--json", str(out)], work)
            wall = time.perf_counter() - started
            summary = json.loads(out.read_text())
            results[side.name][str(workers)] = {
                "games_per_s": summary.get("games_per_second", round(games / wall, 3)),
                "wall_s_including_start": round(wall, 2),
            }
    for side in sides:
        one, two = results[side.name]["1"]["games_per_s"], results[side.name]["2"]["games_per_s"]
        results[side.name]["scaling_2_over_1"] = round(two / one, 2) if one else None
    return results


def print_tables(results: dict[str, Any]) -> None:
    console = Console(width=max(120, Console().width))
    games = Table(title=f"Ophir: new ({results['new']}) against old ({results['old'][:10]}), "
                        f"{results['rounds']} interleaved rounds, decisions per CPU second (median)",
                  title_justify="left")
    for column in ("mode", "players", "games", "decisions", "same games", "old dec/s", "new dec/s",
                   "new/old (median)", "range"):
        games.add_column(column, justify="right")
    for row in results["games"]["rows"]:
        same = "yes" if row["same_games"] else "NO"
        if row["mode"] == "replay" and not row["replays_match_logs"]:
            same += " (result differs from log)"
        games.add_row(row["mode"], str(row["players"]), str(row["games"]), str(row["decisions"]), same,
                      str(row["old_decisions_per_s"]), str(row["new_decisions_per_s"]),
                      f"{row['ratio_median']:.2f}×", f"{row['ratio_min']:.2f}-{row['ratio_max']:.2f}")
    console.print(games)
    calls = Table(title="Per call, µs (median over positions of one random game per player count)",
                  title_justify="left")
    for column in ("engine", "players", "legal_actions", "apply", "clone", "legal_actions from JSON"):
        calls.add_column(column, justify="right")
    for name, by_players in results["calls"].items():
        for players, row in by_players.items():
            calls.add_row(name, players, f"{row['legal_actions_us']:.1f}", f"{row['apply_us']:.1f}",
                          f"{row['clone_us']:.1f}", f"{row['legal_actions_from_json_us']:.1f}")
    console.print(calls)
    loads = Table(title="Loading Ophir (wall ms, median of fresh processes)", title_justify="left")
    for column in ("engine", "import ruleskit", "cold load", "warm load (new process)", "warm load (same process)"):
        loads.add_column(column, justify="right")
    for name, row in results["loads"].items():
        loads.add_row(name, f"{row['import_ms']:.0f}", f"{row['cold_load_ms']:.0f}",
                      f"{row['warm_load_new_process_ms']:.0f}", f"{row['warm_load_same_process_ms']:.0f}")
    console.print(loads)
    if not results.get("simulate"):
        return
    sim = Table(title=f"ruleskit simulate ophir, {results['simulate_games']} four-player games",
                title_justify="left")
    for column in ("engine", "games/s, 1 worker", "games/s, 2 workers", "2 workers / 1"):
        sim.add_column(column, justify="right")
    for name, row in results["simulate"].items():
        sim.add_row(name, f"{row['1']['games_per_s']:.2f}", f"{row['2']['games_per_s']:.2f}",
                    f"{row['scaling_2_over_1']:.2f}×" if row["scaling_2_over_1"] else "-")
    console.print(sim)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default=DEFAULT_OLD, help=f"the older commit (default {DEFAULT_OLD})")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds, at least 3 (default 3)")
    parser.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    parser.add_argument("--games", type=int, default=2, help="random games per player count (default 2)")
    parser.add_argument("--logs", type=int, default=2, help="logs replayed per player count (default 2)")
    parser.add_argument("--load-repeats", type=int, default=5, help="fresh processes per load figure (default 5)")
    parser.add_argument("--cache-var", action="append", metavar="NAME",
                        help="environment variable naming the folder where an engine caches compiled packs; "
                             "cold loads point it at an empty folder (repeatable; default XDG_CACHE_HOME)")
    parser.add_argument("--simulate-games", type=int, default=8,
                        help="games per `ruleskit simulate` run (default 8; 0 skips simulate)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--env-dir", type=Path, default=None,
                        help="where to install the old commit, kept for the next run (default: a temporary "
                             "folder, removed at the end)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 3:
        parser.error("--rounds must be at least 3")
    try:
        counts = [int(p) for p in args.players.split(",")]
    except ValueError:
        parser.error(f"--players takes numbers such as 2,3,4, not '{args.players}'")
    console = Console(stderr=True)

    def say(text: str) -> None:
        console.print(text, highlight=False)

    temporary = args.env_dir is None
    where = Path(tempfile.mkdtemp(prefix="ruleskit-old-")) if temporary else args.env_dir.resolve()
    where.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="ruleskit-compare-"))
    try:
        old_python, old_commit = install_old(args.old, where, say)
        new_env = {**base_env(), "PYTHONPATH": str(REPO)}
        sides = [Side("old", old_python, base_env(), old_commit), Side("new", sys.executable, new_env, "")]
        worker = work / "worker.py"
        worker.write_text(WORKER, encoding="utf-8")
        results: dict[str, Any] = {
            "old": old_commit, "new": current_label(), "python": platform.python_version(), "pack": PACK,
            "rounds": args.rounds, "cpus": os.cpu_count(), "simulate_games": args.simulate_games,
        }
        results["games"] = measure_games(sides, worker, work, counts, args.games, args.logs, args.rounds,
                                         args.seed, say)
        results["calls"] = measure_calls(sides, worker, work, counts, args.seed, say)
        results["loads"] = measure_loads(sides, worker, work, args.load_repeats,
                                         args.cache_var or ["XDG_CACHE_HOME"], say)
        results["simulate"] = (measure_simulate(sides, work, args.simulate_games, say)
                               if args.simulate_games > 0 else {})
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if temporary:
            shutil.rmtree(where, ignore_errors=True)
    print_tables(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
