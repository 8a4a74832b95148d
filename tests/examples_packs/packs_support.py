"""Helpers for the example packs' tests: the hand-written baselines, and scenario files built in a folder."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import tomli_w

import ruleskit

ROOT = Path(__file__).resolve().parent.parent.parent
BASELINES = ROOT / "benchmarks" / "baselines"


def baseline(name: str) -> ModuleType:
    """A module of benchmarks/baselines/ (a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"baseline_{name}", BASELINES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def scenario(folder: Path, name: str, **content: Any) -> ruleskit.State:
    """Write a scenario file (keys as in docs/SCENARIOS.md) and load it."""
    path = folder / f"{name}.toml"
    path.write_text(tomli_w.dumps(content), encoding="utf-8")
    return ruleskit.scenario(str(path))


def ids(state: ruleskit.State) -> list[str]:
    return [action.id for action in state.legal_actions()]
