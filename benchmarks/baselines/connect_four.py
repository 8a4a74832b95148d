"""Connect Four by hand, in plain Python: the baseline for the `connect_four` pack.

Two players drop discs into a 7x6 upright grid; a disc falls to the lowest free cell of its
column; four of one colour in a row (across, up or diagonally) wins; a full grid is a draw.

The API the benchmarks drive (the same for every baseline):

    state = new_game(players=2, seed=0)
    while not is_terminal(state):
        moves = legal_actions(state)          # columns 0..6 that are not full, left to right
        apply(state, moves[rng.randrange(len(moves))])
    copy = clone(state)
    winners(state)                            # [the winner] or [0, 1] for a draw

Connect Four has no chance, so the seed is unused; it is accepted so that every baseline is
created the same way.
"""

from __future__ import annotations

COLUMNS = 7
ROWS = 6
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class State:
    """columns[c] lists the discs of column c from the bottom up; a disc is its player's seat."""

    def __init__(self, columns: list[list[int]], to_move: int, winner: int | None, moves: int) -> None:
        self.columns = columns
        self.to_move = to_move
        self.winner = winner
        self.moves = moves


def new_game(players: int = 2, seed: int = 0) -> State:
    if players != 2:
        raise ValueError("Connect Four is for 2 players")
    return State([[] for _ in range(COLUMNS)], 0, None, 0)


def is_terminal(state: State) -> bool:
    return state.winner is not None or state.moves == COLUMNS * ROWS


def legal_actions(state: State) -> list[int]:
    if is_terminal(state):
        return []
    return [c for c in range(COLUMNS) if len(state.columns[c]) < ROWS]


def disc_at(state: State, column: int, row: int) -> int | None:
    if 0 <= column < COLUMNS and 0 <= row < len(state.columns[column]):
        return state.columns[column][row]
    return None


def count_from(state: State, column: int, row: int, dc: int, dr: int, player: int) -> int:
    """How many of `player`'s discs follow (column, row) in direction (dc, dr), not counting it."""
    n = 0
    column, row = column + dc, row + dr
    while disc_at(state, column, row) == player:
        n += 1
        column, row = column + dc, row + dr
    return n


def makes_four(state: State, column: int, row: int, player: int) -> bool:
    for dc, dr in DIRECTIONS:
        line = 1 + count_from(state, column, row, dc, dr, player) + count_from(state, column, row, -dc, -dr, player)
        if line >= 4:
            return True
    return False


def apply(state: State, column: int) -> None:
    if is_terminal(state):
        raise ValueError("the game is over")
    if not 0 <= column < COLUMNS or len(state.columns[column]) >= ROWS:
        raise ValueError(f"column {column} cannot take a disc")
    player = state.to_move
    state.columns[column].append(player)
    state.moves += 1
    if makes_four(state, column, len(state.columns[column]) - 1, player):
        state.winner = player
    state.to_move = 1 - player


def clone(state: State) -> State:
    return State([list(column) for column in state.columns], state.to_move, state.winner, state.moves)


def winners(state: State) -> list[int]:
    """The winner, or both players for a draw (as the pack's result gives them)."""
    if state.winner is not None:
        return [state.winner]
    return [0, 1]
