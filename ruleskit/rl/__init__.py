"""Reinforcement learning: any pack as a PettingZoo AEC environment (extra `rl`).

    import ruleskit.rl
    env = ruleskit.rl.env("PACK", players=3)

See docs/RL.md for the observation layout and the action index.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(f"ruleskit.rl needs the rl extra: pip install 'ruleskit[rl]' ({exc})") from None

from .env import RulesEnv, env

__all__ = ["RulesEnv", "env"]
