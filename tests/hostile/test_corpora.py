"""Every hostile input of the corpora ends in a located RulesError, within 1 s of CPU and 512 MB.

The corpora, one folder per case with an `expected.txt`:

    tests/bad_packs/      broken or hostile packs (load: pack, or scenario)
    tests/bad_logs/       game logs (load: log)
    tests/bad_saves/      saved games (load: save) and saved states (load: state)
    tests/bad_scenarios/  scenario files (load: scenario)

`expected.txt` keys: `file` (the file the error names), `line` (optional), `column` (optional),
`message` (a fragment of it), `load` (`pack`, `scenario`, `log`, `save`,
`state`, or `tests`: a pack's scenario tests, the first failure being the
error), `input` (the file to load, when not the default), `pack` (the pack the caller names: a path from the repository root,
a built-in name, or `none`), `xfail` (a defence still missing: the case is
reported, not failed).

All cases run in one child process that caps its address space at 512 MB
and gives each case one second of CPU (tests/hostile/corpus_runner.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from corpus_runner import expected

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ["bad_packs", "bad_logs", "bad_saves", "bad_scenarios"]
CASES = [folder for corpus in CORPORA for folder in sorted((ROOT / "tests" / corpus).iterdir())
         if (folder / "expected.txt").is_file()]


@pytest.fixture(scope="module")
def outcomes() -> dict[str, dict[str, Any]]:
    runner = Path(__file__).with_name("corpus_runner.py")
    done = subprocess.run([sys.executable, str(runner), *map(str, CASES)], capture_output=True, text=True,
                          timeout=600, check=False, cwd=ROOT)
    results = {}
    for line in done.stdout.splitlines():
        outcome = json.loads(line)
        results[outcome["case"]] = outcome
    assert results, done.stderr
    return results


@pytest.mark.parametrize("corpus", CORPORA)
def test_each_corpus_has_several_cases(corpus: str) -> None:
    assert sum(1 for case in CASES if case.parent.name == corpus) >= 8


def _param(folder: Path) -> Any:
    reason = expected(folder).get("xfail")
    marks = [pytest.mark.xfail(strict=False, reason=f"missing defence: {reason}")] if reason else []
    return pytest.param(folder, marks=marks, id=f"{folder.parent.name}/{folder.name}")


@pytest.mark.parametrize("folder", [_param(folder) for folder in CASES])
def test_case_ends_in_a_located_error(folder: Path, outcomes: dict[str, dict[str, Any]]) -> None:
    want = expected(folder)
    outcome = outcomes.get(str(folder))
    assert outcome is not None, "the runner died before this case (see the case before it)"
    assert outcome["result"] == "error", outcome
    assert outcome["file"] is not None and Path(outcome["file"]).name == want["file"], outcome
    if want.get("line") == "none":  # the whole file is refused (a link out of the pack, a special file)
        assert outcome["line"] is None, outcome
    elif "line" in want:
        assert outcome["line"] == int(want["line"]), outcome
    elif want.get("load", "pack") == "pack":
        assert outcome["line"] is not None, outcome
    if "column" in want:
        assert outcome["column"] == int(want["column"]), outcome
    assert want["message"] in outcome["message"], outcome
