"""What another seat reads of a decision or a message: the items it cannot see replaced by "(hidden)".

`without_names` finds each hidden name by the word where it would start, rather than trying one pattern
of every name at every letter (ten thousand messages about a state with a hundred thousand hidden pieces
took one decision 109 s in `serve`). It must replace exactly what that pattern replaced.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleskit.cli import main
from ruleskit.tableau import HIDDEN, name_index, without_names

ALPHABET = "ab c-_.é1"


def by_pattern(text: str, names: list[str]) -> str:
    """The reference: one alternation of every name, longest first, each standing as a whole."""
    names = sorted({n for n in names if n}, key=len, reverse=True)
    if not names:
        return text
    pattern = r"(?<![\w])(" + "|".join(re.escape(n) for n in names) + r")(?![\w])"
    return re.sub(pattern, HIDDEN, text)


@settings(max_examples=400, deadline=None)
@given(st.text(ALPHABET, max_size=30), st.lists(st.text(ALPHABET, min_size=1, max_size=6), max_size=6))
def test_names_are_replaced_as_one_pattern_of_them_all_would(text: str, names: list[str]) -> None:
    assert without_names(text, name_index(names)) == by_pattern(text, names)


def test_whole_names_only_and_the_longest_first() -> None:
    index = name_index(["c1", "Five of Stars", "Five", "-x"])
    assert without_names("c1 c12 xc1 c1.", index) == f"{HIDDEN} c12 xc1 {HIDDEN}."
    assert without_names("Pass Five of Stars, Five of Moons", index) == f"Pass {HIDDEN}, {HIDDEN} of Moons"
    assert without_names("a-x -x", index) == f"a-x {HIDDEN}"


PASSING = """
[kinds.card]
items.ace = { name = "Ace of Spades" }
items.two = { name = "Two of Hearts" }
items.three = { name = "Three of Clubs" }
items.four = { name = "Four of Diamonds" }
items.five = { name = "Five of Stars" }
items.six = { name = "Six of Moons" }

[zones.deck]
of = "card"
visible = "none"
start = ["ace", "two", "three", "four", "five", "six"]

[zones.hand]
of = "card"
owner = "player"
visible = "owner"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
setup = "shuffle deck\\nfor p in players { draw 2 from deck to p.hand }"
max_turns = 6

[actions.give]
stage = "main"
label = "Pass {c} face down to the next player"
params = { c = "items(me.hand)" }
effect = "move c from me.hand to next_player(me).hand\\nend turn"

[scoring]
score = "0"
"""

CARDS = ["Ace of Spades", "Two of Hearts", "Three of Clubs", "Four of Diamonds", "Five of Stars", "Six of Moons"]


def write_pack(folder: Path, name: str, players: int, game: str) -> Path:
    (folder / "pack.toml").write_text(f'name = "{name}"\nversion = "1"\n'
                                      f'players = {{ min = {players}, max = {players} }}\nfiles = ["game.toml"]\n')
    (folder / "game.toml").write_text(game)
    return folder


def test_play_tells_a_human_another_players_pass_without_the_card(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """Player 2 passes a card to Player 3, between two hands the human (Player 1) cannot see: the human reads
    the pass without the card. Player 3's pass comes to the human, who then holds the card and reads it."""
    write_pack(tmp_path, "passing", 3, PASSING)
    answers = iter(["1", "1", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", str(tmp_path), "--seats", "human,random,random", "--seed", "3", "--layout", "compact"]) == 0
    out = capsys.readouterr().out
    second = [line for line in out.splitlines() if "Player 2 (random): Pass" in line]
    third = [line for line in out.splitlines() if "Player 3 (random): Pass" in line]
    assert second and third
    assert all(f"Pass {HIDDEN} face down" in line and not any(c in line for c in CARDS) for line in second)
    assert all(any(c in line for c in CARDS) for line in third)


SECRET_GOAL = """
[kinds.goal]
items.castle = { name = "Castle" }
items.forest = { name = "Forest" }

[vars.goal]
owner = "player"
type = "goal"
visible = "owner"

[stages.pick]

[phases.play]
stage = "pick"

[flow]
start = "play"
max_turns = 4

[actions.choose_goal]
stage = "pick"
label = "Choose {g} as secret goal"
params = { g = "goal" }
effect = "set me.goal = g\\nend turn"

[scoring]
score = "0"
"""


def test_an_item_held_only_in_a_var_the_seat_cannot_see_is_hidden(tmp_path: Path) -> None:
    """A goal chosen into a var only its owner sees was named in full to the other seat."""
    import ruleskit
    from ruleskit.tableau import Redaction

    state = ruleskit.load(write_pack(tmp_path, "goals", 2, SECRET_GOAL), cache=False).new_game(players=2, seed=1)
    state.apply("choose_goal:forest")
    told = "Choose Forest as secret goal"
    assert Redaction(state).text(told, 1) == f"Choose {HIDDEN} as secret goal"
    assert Redaction(state).text(told, 0) == told  # the owner sees its own goal


SAYING = """
[kinds.card]
items.ace = { name = "Ace of Spades" }
items.two = { name = "Two of Hearts" }
items.three = { name = "Three of Clubs" }
items.four = { name = "Four of Diamonds" }

[kinds.space]
items.north = { name = "North Gate" }
items.south = { name = "South Gate" }

[board]
nodes = "space"
edges = [["north", "south"]]

[vars.hideout]
type = "space"
visible = "none"

[zones.deck]
of = "card"
visible = "none"
start = ["ace", "two", "three", "four"]

[zones.hand]
of = "card"
owner = "player"
visible = "owner"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
setup = "shuffle deck\\nlet s = random space\\nset hideout = s"
max_turns = 4

[actions.draw]
stage = "main"
label = "Draw a card"
effect = "let c = first(deck)\\nmove c from deck to me.hand\\nsay c\\nend turn"

[scoring]
score = "0"
"""


def test_play_tells_the_packs_messages_and_random_picks_without_what_a_human_cannot_see(
        tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """`say c` of the card a bot drew into its hidden hand was printed by name in `play` (`serve` hid it), and
    so was a space picked at random into a var nobody sees."""
    write_pack(tmp_path, "saying", 2, SAYING)
    answers = iter(["1", "1", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", str(tmp_path), "--seats", "human,random", "--seed", "3", "--layout", "compact"]) == 0
    out = capsys.readouterr().out
    said = [line.strip() for line in out.splitlines() if line.strip().startswith("·")]
    assert said.count(f"· {HIDDEN}") == 2  # the bot's two draws
    assert len(said) == 4  # the human's own two draws are told by name
    assert not any(gate in out for gate in ("North Gate", "South Gate"))
    assert "a random pick is made" in out


def test_the_words_of_an_actions_label_are_not_hidden_only_its_values(tmp_path: Path) -> None:
    """Envoys names its actions after the card played ("Courier: Player 2 holds a 5"): the other Couriers,
    in the draw pile, share that name, and another seat read "(hidden): Player 2 holds a 5". Only the values
    bound to the parameters are looked at; the label's own words are the pack's."""
    import random

    import ruleskit
    from ruleskit.tableau import Redaction

    game = ruleskit.load("envoys")
    told = []
    for seed in range(40):
        state, rng = game.new_game(players=2, seed=seed), random.Random(seed)
        while not state.is_terminal and len(told) < 3:
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
            state.apply(action)
            if action.id.startswith("accuse:"):
                redaction = Redaction(state)
                told.append((action.label, redaction.label(action, 1 - action.player),
                             redaction.text(action.label, 1 - action.player)))
    assert told
    for label, seen, as_text in told:
        assert seen == label and seen.startswith("Courier:")
        assert as_text.startswith(HIDDEN)  # what the whole label read as text gave


def test_a_value_of_a_label_is_still_hidden_when_the_seat_cannot_see_it(tmp_path: Path) -> None:
    import ruleskit
    from ruleskit.tableau import Redaction

    game = ruleskit.load(write_pack(tmp_path, "passing", 3, PASSING))
    state = game.new_game(players=3, seed=3)
    action = state.legal_actions()[0]
    state.apply(action)
    assert Redaction(state).label(action, 2) == f"Pass {HIDDEN} face down to the next player"
    assert Redaction(state).label(action, 1) == action.label  # the card is now in Player 2's hand


def test_replay_show_tells_a_seat_what_that_seat_was_told(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """`replay --show` drew the table of `seat 1` without the others' hands but told every pass by its card:
    Player 2's pass to Player 3 named a card Player 1 never held. Followed in full (`all`), it is named."""
    import ruleskit
    from ruleskit.log import write_log

    pack = write_pack(tmp_path, "passing", 3, PASSING)
    state = ruleskit.load(pack).new_game(players=3, seed=3)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    log = tmp_path / "game.jsonl"
    write_log(state, log)
    answers = iter(["seat 1", *["n"] * 6, "first", "all", *["n"] * 6, "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["replay", str(log), str(pack), "--show", "--quiet"]) == 0
    shown = capsys.readouterr().out.split("step 0/6")
    as_seat, in_full = shown[2], shown[4]
    passes = [line for line in as_seat.splitlines() if ": Pass" in line]
    second = [line for line in passes if line.startswith("Player 2:")]
    assert len(passes) == 6 and len(second) == 2
    assert all(f"Pass {HIDDEN} face down" in line and not any(c in line for c in CARDS) for line in second)
    assert all(any(c in line for c in CARDS) for line in passes if line not in second)
    assert all(any(c in line for c in CARDS) for line in in_full.splitlines() if ": Pass" in line)


NOPE = """
[kinds.card]
fields = { nope = "bool" }
items.a = { nope = true, name = "Nope" }
items.b = { nope = false, name = "Plain One" }
items.c = { nope = false, name = "Plain Two" }
items.d = { nope = false, name = "Plain Three" }

[zones.deck]
of = "card"
visible = "none"
start = ["a", "b", "c", "d"]

[zones.hand]
of = "card"
owner = "player"
visible = "owner"

[zones.discard]
of = "card"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
setup = "shuffle deck\\nfor p in players { draw 2 from deck to p.hand }"
max_turns = 6

[actions.pass]
stage = "main"
label = "Pass"
effect = "end turn"

[actions.nope]
anytime = true
label = "Play {c}"
params = { c = "[c for c in items(me.hand) if c.nope]" }
effect = "move c from me.hand to discard"

[scoring]
score = "0"
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_asking_to_act_as_another_human_tells_nothing_before_the_hand_over(  # type: ignore[no-untyped-def]
        seed: int, tmp_path: Path, monkeypatch, capsys) -> None:
    """`as 2` at Player 1's prompt answered "Player 2 has nothing to do out of turn now" on Player 1's screen
    when Player 2 held no Nope card, and handed the screen over when they did: Player 1 learnt whether Player 2
    held one. The screen is now handed over either way, and Player 2 alone is told."""
    write_pack(tmp_path, "nope", 2, NOPE)
    answers = iter(["", "as 2", "", "", "", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", str(tmp_path), "--seats", "human,human", "--seed", str(seed), "--layout", "compact"]) == 0
    out = capsys.readouterr().out
    player_1, _, player_2 = out.partition("Pass the screen to Player 2")
    assert "out of turn" not in player_1 and "out of turn" in player_2.split("Player 1 to decide")[1]
