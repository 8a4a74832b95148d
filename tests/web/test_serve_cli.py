"""`ruleskit serve` on the command line: it prints its address and answers there."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import ruleskit
from ruleskit.cli import main
from ruleskit.log import write_log

pytest.importorskip("uvicorn")


def serve(*args: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([sys.executable, "-m", "ruleskit.cli", "serve", *args, "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("Serving on http://127.0.0.1:"):
        process.kill()
        raise AssertionError(f"unexpected output: {line!r} {process.stderr.read() if process.stderr else ''}")
    return process, line.split()[-1]


def fetch(url: str) -> tuple[int, bytes]:
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.status, response.read()
        except ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def test_serve_prints_the_host_address_on_loopback_and_serves_the_game() -> None:
    process, address = serve("tests/packs/card_duel", "--seats", "human,random", "--seed", "4")
    try:
        assert "/host/" in address
        base, token = address.split("/host/")
        status, page = fetch(address)
        assert status == 200 and b"/static/app.js" in page
        info = json.loads(fetch(f"{base}/api/host/{token}")[1])
        assert info["defaults"] == {"players": 2, "seats": ["human", "random"], "seed": 4}
        assert info["game"]["seats"][0]["link"].startswith("/seat/")
    finally:
        stop(process)


def test_serve_log_replays(tmp_path: Path) -> None:
    state = ruleskit.load("tests/packs/dice_race").new_game(players=2, seed=1)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    log = tmp_path / "race.jsonl"
    write_log(state, log)
    process, address = serve("tests/packs/dice_race", "--log", str(log))  # a folder pack is named, not read from the log
    try:
        assert address.endswith("/replay")
        summary = json.loads(fetch(address.replace("/replay", "/api/replay"))[1])
        assert summary["steps"] == 6
    finally:
        stop(process)


def test_serve_needs_a_pack_or_a_log(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["serve"]) == 1
    assert "name the pack to serve" in capsys.readouterr().err
    # With --log, PACK names the folder of the log's pack: the log is read, and a missing one is named.
    assert main(["serve", "ophir", "--log", str(tmp_path / "x.jsonl")]) == 1
    assert f"{tmp_path / 'x.jsonl'}: error: cannot read log" in capsys.readouterr().err
    assert main(["serve", "ophir", "--seats", "human,wizard"]) == 1
    assert "unknown seat 'wizard': human, or a bot" in capsys.readouterr().err


def test_serve_refuses_seats_of_bots_alone_before_listening(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The first game was played to its end by the bots before the server printed its address."""
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: None)  # were it served, it would not stay
    assert main(["serve", "tests/packs/card_duel", "--seats", "random,random", "--port", "0"]) == 1
    captured = capsys.readouterr()
    assert "every seat is a bot: a table needs a human seat" in captured.err
    assert "Serving on" not in captured.out
