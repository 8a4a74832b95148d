"""The defaults of `ruleskit test` (docs/TESTING.md), kept light so the command line reads them cheaply.

Full games, every player count taking turns, the costly engine checks every few decisions: about a
minute of one core for the largest built-in pack (docs/TESTING.md has the figures).
"""

DEFAULT_GAMES = 30
DEFAULT_THOROUGH_EVERY = 4
