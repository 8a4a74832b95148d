"""Property testing for rule packs: hypothesis strategies and engine invariants."""
