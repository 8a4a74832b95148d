"""Size limits on everything ruleskit reads from files it does not trust, and on the work done for one search.

A pack, a log, a save or a scenario that goes past one of these is refused
with a located error before it can use much time or memory. The limits are
far above what real games need (the largest built-in pack has about 50 KB of TOML and rule files).
"""

from __future__ import annotations

MAX_FILE_BYTES = 1_000_000
"""One pack file (TOML or .rk), a scenario or a save."""

MAX_PACK_BYTES = 4_000_000
"""All the files of a pack and its chain of bases together."""

MAX_PACK_FILES = 256
"""Files in one pack folder (or listed by one pack.toml)."""

MAX_GENERATED_NODES = 400_000
"""Syntax-tree nodes of the Python code generated for one pack's programs (the compiled backend), over all its
functions: six times what the largest built-in pack generates. Generating and compiling takes about 10 µs and
0.5 KB a node, so a pack of long or many definitions could otherwise take minutes and gigabytes to load."""

MAX_PACK_TOKENS = 100_000
"""Words, numbers, strings and signs of rule-language text a pack's chain parses, its `.rk` files and (counted
apart) its TOML snippets, each text counted 25 tokens more: fourteen times the largest built-in pack's. Parsing
costs about 17 µs and 9 KB a token, so twenty files of a long list each (four megabytes) took 67 s and 1.8 GB to
parse before any other check."""

MAX_LINE_CHARS = 10_000
"""One line of a pack file or a scenario."""

MAX_NESTING = 32
"""Arrays and tables inside one another in TOML, and JSON nesting in saves and log lines."""

MAX_LOG_LINE_BYTES = 1_000_000
"""One line of a JSON Lines game log."""

MAX_SAVE_BYTES = 16_000_000
"""A saved game (it holds the whole history of the game)."""

MAX_SAVE_LISTS = 1_000_000
"""Lists and tables in a saved game (each opening bracket counted, in strings too): a long game of the largest
built-in pack saves about 8,000; a 16 MB file of nothing but empty lists took 800 MB to read."""

MAX_INT_DIGITS = 40
"""Digits of a number in a log, a save or a scenario (a 64-bit seed has 20)."""

MAX_ZONE_ITEMS = 100_000
"""The most pieces a stack holds (in play or in a save), or a pool's pieces listed one by one: more would
take memory and time without end."""

MAX_LIST = 100_000
"""The most elements a list of the rule language holds (a value, a var, an option)."""

MAX_SEARCH_STEPS = 100_000_000
"""The most steps of pack code (`State.work`) a bot runs for one decision, or the RL environment's sample games run
in all: each decision has a step budget of its own, and a search of thousands of them on a pack whose every decision
takes nearly its budget would run for hours. A search stops there and goes by what it has found so far."""

MAX_RETOLD_STEPS = 10_000_000
"""The most steps of pack code (`State.work`) `serve` runs to replay a loaded save's history and tell its story
again: a save of a hundred thousand decisions that each take nearly their budget replayed for hours. Ten times what
the longest built-in game takes; a longer history is loaded without its story."""

MAX_GAMES = 1_000_000
"""The most games one run plays (`--games` of simulate, compare, tournament and test; a tournament's pairings in
all): simulate, compare and tournament keep a record of each game (about 1 KB) until the summary, so ten million
games would run out of memory hours into the run. A million take about a quarter of an hour at a thousand games
a second, and give win rates within 0.1%."""

MAX_DECISIONS = 20_000
"""The most decisions a bot game of simulate, compare or tournament runs (`--max-decisions`, whose default it is):
a game still running then is stopped, its end reason "decision limit". A pack whose game never ends, played by
mcts at seconds a decision, otherwise ran for days a game; the game's history, and its log, keep every decision."""
