"""Load a scenario, list the decisions open there, take one, and show what changed.

    python examples/scripts/from_scenario.py examples/scenarios/ophir-failed-check.toml sail:h0
"""

from __future__ import annotations

import argparse
import json

import ruleskit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("decision", nargs="?", help="an action id to apply (default: list them only)")
    args = parser.parse_args()

    state = ruleskit.scenario(args.scenario)
    print(f"Player {state.current_player + 1} to decide:" if isinstance(state.current_player, int) else "")
    for action in state.legal_actions():
        print(f"  {action.id:<24} {action.label}")
    if args.decision:
        before = state.view(state.legal_actions()[0].player)
        state.apply(args.decision)
        print(f"applied {args.decision}; chance: {state.history[-1]['chance']}")
        after = state.view(before["viewer"])
        for key in ("player_vars", "items"):
            if before[key] != after[key]:
                print(f"{key} now: {json.dumps(after[key])}")


if __name__ == "__main__":
    main()
