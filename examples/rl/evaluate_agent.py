"""Evaluate a simple agent on any pack through the PettingZoo environment (needs the `rl` extra).

    python examples/rl/evaluate_agent.py connect_four --games 50
    python examples/rl/evaluate_agent.py ophir --players 3 --games 5

The agent under test plays seat 0, seats rotating is left out for brevity; the
others pick uniformly among their legal actions (the action mask). The agent
is "central": among its legal actions it takes the one whose number lies
nearest the middle of the legal numbers, which in Connect Four means the
central columns. Prints its mean reward and its win rate with a 95% interval.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

import ruleskit.rl


def central(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    middle = (legal[0] + legal[-1]) / 2
    return int(min(legal, key=lambda slot: (abs(slot - middle), slot)))


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pack", nargs="?", default="connect_four")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = ruleskit.rl.env(args.pack, players=args.players)
    rng = np.random.default_rng(args.seed)
    total_reward, wins = 0.0, 0.0
    for game in range(args.games):
        env.reset(seed=args.seed + game)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                if agent == "player_0":
                    total_reward += reward
                    winners = info.get("result", {}).get("winners", [])
                    wins += 1.0 / len(winners) if 0 in winners else 0.0
                env.step(None)
                continue
            policy = central if agent == "player_0" else masked_random
            env.step(policy(observation["action_mask"], rng))
    low, high = wilson(wins, args.games)
    print(f"{args.pack}: central agent in seat 1 against masked-random agents, {args.games} games")
    print(f"  mean reward {total_reward / args.games:+.3f}; win rate {wins / args.games:.1%} "
          f"(95% interval {low:.1%}-{high:.1%})")


if __name__ == "__main__":
    main()
