"""The subcommands of the `ruleskit` command line.

Each module has NAME, HELP and `configure(parser) -> handler`, where the
handler takes the parsed arguments and returns the exit code.
"""

from types import ModuleType

from . import (
    check,
    compare,
    compile,
    diff,
    lsp,
    mutate,
    new,
    play,
    replay,
    schema,
    serve,
    simulate,
    test,
    tournament,
)

COMMANDS: list[ModuleType] = [check, compile, replay, diff, test, play, serve, simulate, compare, tournament, new, schema,
                              lsp, mutate]
