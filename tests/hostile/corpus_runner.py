"""Run hostile cases in this process under a memory cap and a CPU limit per case; print one JSON line each.

    python corpus_runner.py CASE_FOLDER...

Each folder holds an `expected.txt` (see tests/hostile/test_corpora.py) and
the input it names. The process caps its address space at 512 MB before
loading anything; each case gets one second of CPU (a SIGPROF timer).
"""

from __future__ import annotations

import json
import resource
import signal
import sys
import time
from pathlib import Path
from typing import Any

MEMORY_BYTES = 512 * 1024 * 1024
CPU_SECONDS = 1.0
DECISIONS = 5
ROOT = Path(__file__).resolve().parents[2]


class CpuTimeout(BaseException):
    """Past the case's CPU time (a BaseException, so no `except Exception` in the code under test eats it)."""


def expected(folder: Path) -> dict[str, str]:
    result = {}
    for raw in (folder / "expected.txt").read_text(encoding="utf-8").splitlines():
        key, _, value = raw.partition(":")
        if key.strip() and not key.startswith("#"):
            result[key.strip()] = value.strip()
    return result


def pack_of(want: dict[str, str]) -> str | None:
    pack = want.get("pack")
    if pack is None or pack == "none":
        return None
    return str(ROOT / pack) if "/" in pack else pack


def exercise(folder: Path, want: dict[str, str]) -> None:
    import ruleskit
    from ruleskit.log import replay
    from ruleskit.saves import load_saved

    load = want.get("load", "pack")
    if load == "scenario":
        ruleskit.scenario(str(folder / want.get("input", "scenario.toml")), pack_of(want))
        return
    if load == "log":
        replay(folder / want.get("input", "log.jsonl"), pack_of(want))
        return
    if load == "save":
        load_saved(folder / want.get("input", "save.json"), pack_of(want))
        return
    if load == "tests":  # the pack's scenario tests (`ruleskit test --scenarios-only`): the first failure is the error
        from ruleskit.errors import PackError
        from ruleskit.testing.scenario_tests import run_pack_tests

        for problem in run_pack_tests(pack_of(want) or folder).problems:
            raise PackError(problem.message, file=problem.file, line=problem.line)
        return
    if load == "state":
        game = ruleskit.load(pack_of(want) or "")
        ruleskit.State.from_json(game, (folder / want.get("input", "state.json")).read_text(encoding="utf-8"))
        return
    game = ruleskit.load(folder)
    state = game.new_game(players=game.min_players, seed=0)
    for _ in range(DECISIONS):
        if state.is_terminal:
            break
        state.apply(state.legal_actions()[0])


def expire(signum: int, frame: object) -> None:
    raise CpuTimeout()


def run_case(folder: Path) -> dict[str, Any]:
    from ruleskit.errors import RulesError

    want = expected(folder)
    outcome: dict[str, Any] = {"case": str(folder)}
    start = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, CPU_SECONDS)
    try:
        exercise(folder, want)
        outcome["result"] = "no error"
    except RulesError as exc:
        outcome.update(result="error", file=exc.file, line=exc.line, column=exc.column, message=exc.message,
                       text=str(exc))
    except CpuTimeout:
        outcome["result"] = f"more than {CPU_SECONDS}s of CPU"
    except MemoryError:
        outcome["result"] = "out of memory (512 MB)"
    except BaseException as exc:  # noqa: BLE001 - every other escape is what the corpus looks for
        outcome["result"] = f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    outcome["cpu"] = round(time.process_time() - start, 3)
    return outcome


def main(folders: list[str]) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    signal.signal(signal.SIGPROF, expire)
    import ruleskit

    ruleskit.load(ROOT / "tests" / "packs" / "dice_race")  # the grammar is built once, outside the cases' CPU time

    for folder in folders:
        print(json.dumps(run_case(Path(folder))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
