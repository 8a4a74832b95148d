"""Helpers for the web tests: a served table and seats driven through the HTTP API."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient  # noqa: E402

import ruleskit  # noqa: E402
from ruleskit.web.app import play_app  # noqa: E402
from ruleskit.web.lobby import Lobby  # noqa: E402


class Served:
    """A lobby behind a test client, with each seat's API address."""

    def __init__(self, pack: str, seats: list[str], seed: int = 0) -> None:
        self.lobby = Lobby(ruleskit.load(pack), len(seats), seats, seed)
        self.lobby.start()
        self.client = TestClient(play_app(self.lobby))
        self.host = f"/api/host/{self.lobby.host_token}"

    @property
    def table(self) -> Any:
        return self.lobby.current()

    def seat_urls(self) -> list[str]:
        return [f"/api/seat/{token}" for token in self.table.tokens]

    def payload(self, seat: int) -> dict[str, Any]:
        response = self.client.get(self.seat_urls()[seat])
        assert response.status_code == 200, response.text
        return response.json()

    def act(self, seat: int, action: str, version: int | None = None) -> Any:
        if version is None:
            version = self.payload(seat)["version"]
        return self.client.post(self.seat_urls()[seat] + "/act", json={"action": action, "version": version})

    def play_randomly(self, rng: random.Random) -> tuple[int, str] | None:
        """One random decision by a deciding seat, through the API; None once the game is over."""
        for seat in self.table.state.players_to_decide():
            payload = self.payload(seat)
            options = [o["id"] for group in payload["actions"] for o in group["options"]]
            choice = rng.choice(options)
            response = self.act(seat, choice, payload["version"])
            assert response.status_code == 200, response.text
            return seat, choice
        return None


@pytest.fixture
def served() -> type[Served]:
    return Served


CLASH = Path(__file__).resolve().parent.parent / "test_simultaneous_clash.py"


@pytest.fixture
def clash_pack(tmp_path: Path) -> Path:
    """The tiny pack of `test_simultaneous_clash.py`, in a folder of its own: a stage where every player picks a
    gem in secret."""
    spec = importlib.util.spec_from_file_location("clash", CLASH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (tmp_path / "pack.toml").write_text(module.MANIFEST)
    (tmp_path / "game.toml").write_text(module.GAME)
    return tmp_path
