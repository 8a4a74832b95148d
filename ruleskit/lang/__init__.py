"""The rule language: grammar loading, parsing, checking and compiling."""
