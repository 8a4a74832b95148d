"""The Ray backend's arguments, refused before any Ray instance starts."""

from __future__ import annotations

import socket

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


def _closed_port() -> int:
    """A local port nothing listens at: one the system just handed out and took back."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_address_nothing_answers_at_is_refused_before_the_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    """Ray retried such an address for minutes, printing its own warnings, after the scenario tests had run."""
    port = _closed_port()
    assert main(["test", "connect_four", "--games", "2", "-q", "--backend", "ray",
                 "--address", f"127.0.0.1:{port}"]) == 1
    captured = capsys.readouterr()
    assert f"cannot join the Ray cluster at '127.0.0.1:{port}': cannot connect to 127.0.0.1 port {port}" \
        in captured.err
    assert "scenario" not in captured.out
    assert not ray.is_initialized()


def test_a_port_out_of_range_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "connect_four", "--games", "2", "-q", "--backend", "ray",
                 "--address", "127.0.0.1:99999"]) == 1
    assert "port 99999 is out of range (0-65535)" in capsys.readouterr().err
    assert not ray.is_initialized()


def test_an_address_that_does_not_answer_in_time_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host that drops the connection attempt is given up on after the timeout, not Ray's minutes."""
    from ruleskit import raybackend
    from ruleskit.errors import PackError

    def silent(address: tuple[str, int], timeout: float) -> socket.socket:
        raise TimeoutError("timed out")

    monkeypatch.setattr(raybackend.socket, "create_connection", silent)
    with pytest.raises(PackError, match=r"no answer from 10\.1\.2\.3 port 6379 within 5 s"):
        raybackend.check_address("ray", "10.1.2.3:6379")


@pytest.mark.parametrize("address", ["auto", "local", "ray://10.1.2.3:10001"])
def test_addresses_ray_reads_itself_are_not_probed(address: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from ruleskit import raybackend

    def probe(address: tuple[str, int], timeout: float) -> socket.socket:
        raise AssertionError("probed")

    monkeypatch.setattr(raybackend.socket, "create_connection", probe)
    raybackend.check_address("ray", address)


def test_the_test_command_probes_the_address_once(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The command probed it before its scenario tests and check_pack probed it again: a reachable address was
    connected to twice, and an address that stopped answering in between cost the timeout twice."""
    from ruleskit import raybackend
    from ruleskit.errors import PackError

    probed: list[str] = []

    def stop_before_joining(address: str | None = None) -> None:
        raise PackError("stopped before joining the cluster")

    monkeypatch.setattr(raybackend, "check_reachable", lambda address: probed.append(address))
    monkeypatch.setattr(raybackend, "ray_module", stop_before_joining)
    assert main(["test", "connect_four", "--games", "2", "-q", "--no-scenarios", "--backend", "ray",
                 "--address", "127.0.0.1:6379"]) == 1
    assert "stopped before joining the cluster" in capsys.readouterr().err
    assert probed == ["127.0.0.1:6379"]


def test_check_pack_still_probes_the_address_for_a_library_caller() -> None:
    from ruleskit.errors import PackError
    from ruleskit.testing.runner import check_pack

    port = _closed_port()
    with pytest.raises(PackError, match=f"cannot connect to 127.0.0.1 port {port}"):
        check_pack("connect_four", games=2, backend="ray", address=f"127.0.0.1:{port}")
    assert not ray.is_initialized()
