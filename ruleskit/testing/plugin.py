"""The pytest plugin ruleskit registers: a `ruleskit_game` fixture factory.

    def test_my_pack(ruleskit_game):
        game = ruleskit_game("path/to/pack")
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def ruleskit_game() -> Callable[[str | Path], Any]:
    """Load (and cache) a pack by path or built-in name."""
    from ..game import load

    cache: dict[str, Any] = {}

    def get(pack: str | Path) -> Any:
        key = str(pack)
        if key not in cache:
            cache[key] = load(pack)
        return cache[key]

    return get
