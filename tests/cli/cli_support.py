"""Paths of the packs the command-line tests use."""

from pathlib import Path

PACKS = Path(__file__).resolve().parent.parent / "packs"
SHOWN = str(PACKS / "dice_race_shown")
DUEL = str(PACKS / "card_duel")
