"""Fixtures for the engine tests: the toy packs, loaded once per session."""

from __future__ import annotations

import pytest
from engine_support import PACKS

import ruleskit


@pytest.fixture(scope="session")
def dice_race() -> ruleskit.Game:
    return ruleskit.load(PACKS / "dice_race")


@pytest.fixture(scope="session")
def dice_variant() -> ruleskit.Game:
    return ruleskit.load(PACKS / "dice_race_variant")


@pytest.fixture(scope="session")
def marathon() -> ruleskit.Game:
    return ruleskit.load(PACKS / "dice_race_marathon")


@pytest.fixture(scope="session")
def card_duel() -> ruleskit.Game:
    return ruleskit.load(PACKS / "card_duel")
