"""No bad pack breaks the tool: each of tests/bad_packs/ ends in a located RulesError, quickly.

Every folder holds a broken or hostile pack and an `expected.txt`:

    file: rules.rk            # the file the error must name
    line: 3                   # the line it must name
    message: recursion        # a fragment of the message
    load: scenario            # optional: load scenario.toml instead of the pack

The pack is loaded, then a new game is played with its first legal action a
few times (so run-time mistakes in setup and hooks surface too). Anything but
a located RulesError, or taking more than a second of CPU, fails the test.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import RulesError

BAD_PACKS = Path(__file__).resolve().parents[1] / "bad_packs"
# Cases of a missing defence (`xfail:`) run only in test_corpora.py, in a child process with a memory cap.
CASES = sorted(p for p in BAD_PACKS.iterdir() if (p / "expected.txt").is_file()
               and "xfail:" not in (p / "expected.txt").read_text(encoding="utf-8"))
CPU_SECONDS = 1.0
DECISIONS = 5


def expected(folder: Path) -> dict[str, str]:
    result = {}
    for raw in (folder / "expected.txt").read_text(encoding="utf-8").splitlines():
        key, _, value = raw.partition(":")
        if key.strip():
            result[key.strip()] = value.strip()
    return result


class CpuTimeout(Exception):
    pass


@contextmanager
def cpu_limit(seconds: float) -> Iterator[None]:
    """Raise CpuTimeout after `seconds` of this process's CPU time (wall time varies on a shared machine)."""
    def expire(signum: int, frame: object) -> None:
        raise CpuTimeout(f"more than {seconds}s of CPU")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def exercise(folder: Path, load: str) -> None:
    if load == "scenario":
        ruleskit.scenario(str(folder / "scenario.toml"))
        return
    game = ruleskit.load(folder)
    state = game.new_game(players=game.min_players, seed=0)
    for _ in range(DECISIONS):
        if state.is_terminal:
            break
        state.apply(state.legal_actions()[0])


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_bad_pack_ends_in_a_located_error(folder: Path) -> None:
    want = expected(folder)
    with pytest.raises(RulesError) as caught, cpu_limit(CPU_SECONDS):
        exercise(folder, want.get("load", "pack"))
    error = caught.value
    text = str(error)
    assert error.file is not None and Path(error.file).name == want["file"], text
    if want.get("line") == "none":  # the whole file is refused (a link out of the pack, a special file)
        assert error.line is None, text
        want.pop("line")
    else:
        assert error.line is not None, text
    if "line" in want:
        assert error.line == int(want["line"]), text
    assert want["message"] in error.message, text
    assert text.startswith(error.where()), text
