"""The subcommands of the `ruleskit` command line.

Each module has NAME, HELP and `configure(parser) -> handler`, where the
handler takes the parsed arguments and returns the exit code.
"""

from types import ModuleType

from . import check, compare, diff, play, replay, simulate, test, tournament

COMMANDS: list[ModuleType] = [check, replay, diff, test, play, simulate, compare, tournament]
