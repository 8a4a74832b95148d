"""The Ray backend gives exactly the local results: simulations, property tests, and their failures."""

from __future__ import annotations

from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

import ruleskit  # noqa: E402
from ruleskit.cli import main  # noqa: E402
from ruleskit.simulate import TIMING_KEYS, simulate  # noqa: E402
from ruleskit.testing.runner import check_pack  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
DUEL = str(ROOT / "tests" / "packs" / "card_duel")
BROKEN = ROOT / "examples" / "broken-ophir"


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _games(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


def test_simulate_on_ray_equals_the_local_run() -> None:
    game = ruleskit.load(DUEL)
    local = simulate(game, 12, 3, ["random", "greedy", "random"], seed=7, rotate=True)
    on_ray = simulate(game, 12, 3, ["random", "greedy", "random"], seed=7, rotate=True, backend="ray")
    assert _games(on_ray) == _games(local)
    assert on_ray["games"] == 12 and not on_ray["errors"]


def test_the_decision_limit_on_ray_is_the_local_one() -> None:
    """Each task is given the limit: without it the games ran to the default 20,000 decisions."""
    game = ruleskit.load(ROOT / "tests" / "packs" / "dice_race")
    local = simulate(game, 12, 2, ["random"], seed=5, max_decisions=25)
    on_ray = simulate(game, 12, 2, ["random"], seed=5, max_decisions=25, backend="ray")
    assert _games(on_ray) == _games(local)
    assert 0 < on_ray["cut_at_decision_limit"] == on_ray["end_reasons"]["decision limit"] < 12
    assert on_ray["decision_limit"] == 25 == on_ray["max_decisions"]


def test_property_tests_on_ray_equal_the_local_run() -> None:
    local = check_pack(DUEL, games=9, seed=3)
    on_ray = check_pack(DUEL, games=9, seed=3, backend="ray")
    assert local.ok and on_ray.ok
    assert (on_ray.games, on_ray.attempts, on_ray.decisions) == (local.games, local.attempts, local.decisions)


def test_a_failure_found_on_ray_is_the_local_one(tmp_path: Path) -> None:
    local = check_pack(BROKEN, games=10, players=[2, 3], seed=0, shrink=False, out=tmp_path / "local.jsonl")
    on_ray = check_pack(BROKEN, games=10, players=[2, 3], seed=0, shrink=False, backend="ray",
                        out=tmp_path / "ray.jsonl")
    assert local.failure is not None and on_ray.failure is not None
    assert on_ray.failure.name == local.failure.name == "property acquire_moves_goods"
    assert on_ray.failure.steps == local.failure.steps and on_ray.games == local.games
    assert on_ray.failure.state == local.failure.state
    assert (tmp_path / "ray.jsonl").read_text() == (tmp_path / "local.jsonl").read_text()


def test_the_commands_take_the_ray_backend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", DUEL, "--games", "4", "--players", "2", "--backend", "ray", "-q"]) == 0
    assert "Wins by seat" in capsys.readouterr().out
    assert main(["test", DUEL, "--games", "2", "--players", "2", "--backend", "ray"]) == 0
    assert "2 games" in capsys.readouterr().out


def test_simulate_on_ray_takes_chunks_as_tasks_finish() -> None:
    from ruleskit.raybackend import run_games_ray

    game = ruleskit.load(DUEL)
    taken: list[int] = []
    seen_at_each_result: list[int] = []

    def chunks():
        for start in range(0, 12, 2):
            taken.append(start)
            yield [start, start + 1]

    records = run_games_ray(game, chunks(), 2, ["random", "random"], 3, False, None, None,
                            lambda done: seen_at_each_result.append(len(taken)), in_flight_per_cpu=1)
    assert [r.index for r in records] == list(range(12))
    # Two CPUs, one chunk each in flight: the k-th result comes with at most 2 + (k - 1) chunks taken.
    assert len(seen_at_each_result) == 6
    assert all(count <= 2 + k for k, count in enumerate(seen_at_each_result))
    assert seen_at_each_result[0] < 6
