"""The runtime: game state, the flow of turns, decisions and chance."""
