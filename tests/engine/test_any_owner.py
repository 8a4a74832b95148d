"""A value whose type only the run time knows, read or written as a player or an item (`q.points`,
`q.hand`, `set q.hp = 2`): both backends agree, and a number that is no seat of the game is a located
error, never a Python error nor a read of another player's value from the end of the list."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import agreed, first_decision
from test_moves import BACKENDS, GAME

from ruleskit.lang.expressions import not_a_player

OWNED = GAME.replace("[kinds.stone]", '[kinds.stone]\nvars = { hp = { type = "int" } }') + """
[zones.sack]
type = "stack"
of = "chip"
owner = "stone"
"""

# What `q` may be: the second player, a seat past the last, a truth value, a negative number, an item,
# none, a list; picked from a list of mixed values, so that only the run time knows its type.
VALUES = {"a seat": 0, "a seat past the last": 1, "a truth value": 2, "a negative number": 3, "an item": 4,
          "none": 5, "a list": 6}
USES = {
    "read a player's counter": "me.points += q.points - q.points",
    "set a player's counter": "set q.points = 1",
    "add to a player's counter": "q.points += 1",
    "count a player's zone": "me.points += count(q.hand) * 0",
    "move into a player's zone": "move red from bag to q.hand",
    "set an item's variable": "set q.hp = 2",
    "add to an item's variable": "q.hp += 1",
    "move into an item's zone": "move red from bag to q.sack",
}


def effect(value: int, use: str) -> str:
    return f"let q = [players[1], 5, true, 0 - 1, flint, none, [1]][{value}]\\n{use}"


def pack(tmp_path: Path, text: str) -> Path:
    from engine_support import write_pack

    return write_pack(tmp_path / "owners", game=OWNED.replace("EFFECT", text))


@pytest.mark.parametrize("use", list(USES.values()), ids=list(USES))
@pytest.mark.parametrize("value", list(VALUES.values()), ids=list(VALUES))
def test_an_owner_known_only_at_run_time_agrees_with_the_reference_backend(tmp_path: Path, value: int,
                                                                          use: str) -> None:
    root = pack(tmp_path, effect(value, use))
    result = agreed(root)
    if isinstance(result, str):  # no Python error escapes, whatever the value
        assert result.startswith(("ProgramError: ", "IllegalAction: ")), result


@pytest.mark.parametrize("value", [VALUES["a seat past the last"], VALUES["a negative number"]])
@pytest.mark.parametrize("use", ["read a player's counter", "set a player's counter", "add to a player's counter",
                                 "count a player's zone", "move into a player's zone"])
def test_a_number_that_is_no_seat_is_not_a_player(tmp_path: Path, value: int, use: str) -> None:
    number = [5, -1][value == VALUES["a negative number"]]
    for backend in BACKENDS:
        result = first_decision(pack(tmp_path, effect(value, USES[use])), backend)
        # Before, a negative seat read and wrote the last player's values, and one past the last raised
        # IndexError or KeyError.
        assert isinstance(result, str) and not_a_player(number, 2, "").message.removesuffix(" in ") in result
        assert "game.toml:15" in result


def test_the_second_player_is_read_and_written_as_before(tmp_path: Path) -> None:
    for backend in BACKENDS:
        state = first_decision(pack(tmp_path, effect(VALUES["a seat"], "q.points += 3\\nmove red from bag to q.hand")),
                               backend)
        assert state["data"]["pv"][1]["points"] == 3 and state["data"]["z"]["hand@1"] == ["red"]
        state = first_decision(pack(tmp_path, effect(VALUES["an item"], "q.hp += 2\\nmove red from bag to q.sack")),
                               backend)
        assert state["data"]["ev"]["flint"]["hp"] == 2 and state["data"]["z"]["sack@flint"] == ["red"]


@pytest.mark.parametrize("seat", [1, 2, 3, -1])
def test_a_player_zone_read_through_a_rule_takes_only_a_seat_of_this_game(tmp_path: Path, seat: int) -> None:
    # A pack for up to four players, played by two: seats 2 and 3 are seats of a larger game, whose zones
    # this game does not have.
    from engine_support import TINY_MANIFEST, TINY_RULES, write_pack

    rules = TINY_RULES + "rule holds(p, c) = any([x == c for x in items(p.hand)])\n"
    number = f"0 - {-seat}" if seat < 0 else str(seat)
    use = f"let q = [players[1], {number}][1]\\nme.points += if holds(q, red) then 1 else 0"
    root = write_pack(tmp_path / "four", game=OWNED.replace("EFFECT", use), rules=rules,
                      manifest=TINY_MANIFEST.replace("max = 2", "max = 4"))
    result = agreed(root)
    if seat == 1:
        assert result["data"]["pv"][0]["points"] == 0
    else:
        assert not_a_player(seat, 2, "").message.removesuffix(" in ") in result


PAWNS = """
[kinds.pawn]
per_player = true
vars = { hp = { type = "int" } }

[zones.sack2]
type = "stack"
of = "chip"
owner = "pawn"
"""

ITEM_USES = {
    "move into its zone": "move red from bag to pawn_3.sack2",
    "count its zone": "me.points += count(pawn_3.sack2)",
    "set its variable": "set pawn_3.hp = 2",
    "add to its variable": "pawn_3.hp += 1",
    "read its variable": "me.points += pawn_3.hp",
    "through a list": "let q = [pawn_3, 1][0]\\nme.points += count(q.sack2)",
    "a number's item": "let q = [3, red][0]\\nset q.pawn.hp = 1",
    "a number's item's zone": "let q = [3, red][0]\\nme.points += count(q.pawn.sack2)",
    "a seat of this game": "let q = [1, red][0]\\nset q.pawn.hp = 1\\nmove red from bag to pawn_1.sack2",
}


@pytest.mark.parametrize("use", list(ITEM_USES.values()), ids=list(ITEM_USES))
def test_the_item_of_a_seat_this_game_does_not_have_is_an_error(tmp_path: Path, use: str) -> None:
    # A pack for up to four players, played by two: `pawn_3` is an item of the pack, not of this game. Before,
    # each use was a KeyError out of apply (and a read, an error in one backend and not the other).
    from engine_support import TINY_MANIFEST, write_pack

    root = write_pack(tmp_path / "pawns", game=OWNED.replace("EFFECT", use) + PAWNS,
                      manifest=TINY_MANIFEST.replace("max = 2", "max = 4"))
    result = agreed(root)
    if use == ITEM_USES["a seat of this game"]:
        assert result["data"]["ev"]["pawn_1"]["hp"] == 1 and result["data"]["z"]["sack2@pawn_1"] == ["red"]
    elif "[3, red]" in use:
        assert not_a_player(3, 2, "").message.removesuffix(" in ") in result
    else:
        assert "pawn_3 belongs to player 3, who is not in this 2-player game, in action score (" in result
