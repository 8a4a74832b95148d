"""The Ray backend's arguments, refused before any Ray instance starts."""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray")

from ruleskit.cli import main  # noqa: E402


def test_an_address_ray_cannot_read_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Ray's ValueError reached the user as a traceback."""
    assert not ray.is_initialized()
    assert main(["test", "connect_four", "--games", "2", "-q", "--backend", "ray", "--address", "junk"]) == 1
    assert "cannot join the Ray cluster at 'junk'" in capsys.readouterr().err
    assert not ray.is_initialized()


@pytest.mark.parametrize("command", [["test", "connect_four", "--games", "2", "-q"],
                                     ["simulate", "connect_four", "--games", "2", "-q"]])
def test_an_address_without_the_ray_backend_is_refused(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """It was ignored: the run was made here while the user meant to join a cluster."""
    assert main([*command, "--address", "auto"]) == 1
    captured = capsys.readouterr()
    assert "the address 'auto' names a Ray cluster: it needs the ray backend" in captured.err
    assert "scenario" not in captured.out  # refused before anything ran


@pytest.mark.parametrize("option", [["--policy", "explore"], ["--coverage"]])
def test_what_the_ray_backend_cannot_do_is_refused(option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Ray tasks play random games and count nothing: the exploring policy and the coverage were dropped, and
    the report still named the policy asked for."""
    assert main(["test", "connect_four", "--games", "2", "-q", "--backend", "ray", *option]) == 1
    assert "the ray backend plays random games only" in capsys.readouterr().err
    assert not ray.is_initialized()
