"""Mutation testing of rule packs: small edits of a pack (mutants), and whether its own checks notice them.

`edits` applies a mutant to a copy of a pack; `operators` generates mutants
from a pack's programs and TOML; `killing` runs a pack's own checks against a
mutant within a time budget. `ruleskit mutate PACK` (see docs/TESTING.md)
puts them together.
"""
