"""Fixtures for the example packs' tests: each built-in example pack, loaded once per session."""

from __future__ import annotations

import pytest

import ruleskit


@pytest.fixture(scope="session")
def connect_four() -> ruleskit.Game:
    return ruleskit.load("connect_four")


@pytest.fixture(scope="session")
def envoys() -> ruleskit.Game:
    return ruleskit.load("envoys")
