"""Work on many pieces or elements at once costs a step for each, so that the step budget bounds it.

A shuffle of a thousand cards, a move of a list of them, or a draw of many is one statement; counted as one
step, a loop of them ran for minutes within the budget (tests/bad_packs/shuffle_in_a_loop and its two
neighbours). Each now costs a step for each piece beyond the first (the statement's own), and `shuffled` and
`sample` a step for each element of their list, as any builtin given a list does. So do the builtins that
make a list out of a number or the board (`range`, `edges`, `blocked_edges`, `adjacent`, `neighbours`,
`slots`): `let x = range(10000)` in a loop took 12 s within the budget (tests/bad_packs/range_in_a_loop).
So do a card taken from a stack (a step for each card above it: 80,000 moves from under 99,999 pieces took
83 s), `reachable` (a step per neighbour it looks at: a hub of 5,000 nodes walked for one step took 70 s
within the budget) and the builtins that compare lists nested in lists (`count`, `index_of`, `without`,
`distinct`, `sort`: a minute for `count(big, other)` of ten thousand 10,000-number lists).
Both backends count alike: the most loops the budget allows is the same under each, and is what that cost
says.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import BudgetExceeded
from ruleskit.runtime.context import STEP_BUDGET

CARDS = 100

MANIFEST = """\
name = "piece-steps"
version = "0.1"
players = { min = 2, max = 2 }
files = ["game.toml"]
"""

GAME = """\
[kinds.card]
%(items)s

[zones.deck]
type = "stack"
of = "card"
start = [%(start)s]

[zones.pile]
type = "stack"
of = "card"

[zones.row]
type = "row"
of = "card"
slots = 50

[zones.bank]
type = "pool"
of = "card"
start = { c0 = 60, c1 = 40 }

[board]
nodes = "card"
edges = [%(edges)s]

[vars.rounds]
type = "int"
max = 10000

[vars.kept]
type = "list"
start = []

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
setup = \"\"\"
block "c1", "c0"
block "c0", "c2"
block "c3", "c0"
for i in range(rounds) {
%(body)s
}
\"\"\"

[actions.pass]
stage = "main"
effect = "end turn"

[scoring]
score = "0"
"""

# statement(s) run each round -> the steps they cost; a round costs two more: the loop's own step, and the
# element of `range(rounds)` it takes (a list made costs its length)
BODIES = {
    "shuffle": ("shuffle deck", CARDS),
    "move a list": ("move items(deck) from deck to pile\nmove items(pile) from pile to deck", 4 * CARDS),
    "draw many": (f"draw {CARDS} from deck to pile\ndraw {CARDS} from pile to deck", 2 * CARDS),
    "draw into itself": (f"draw {CARDS + 50} from deck to deck", 50),
    "draw past the end": (f"draw {3 * CARDS} from deck to pile\ndraw {3 * CARDS} from pile to deck", 2 * CARDS),
    "shuffled": ("let order = shuffled(items(deck))", 1 + 2 * CARDS),
    "sample": ("let some = sample items(deck), 3", 1 + 2 * CARDS),
    "range": ("let numbers = range(100)", 1 + 100),
    "a loop over a range": ("for j in range(100) {\n}", 1 + 100 + 100),
    "edges": ("let all = edges()", 1 + (CARDS - 1)),
    "blocked edges": ("\n".join(f"let shut{k} = blocked_edges()" for k in range(5)), 5 * (1 + 3)),
    "adjacent": ("let near = adjacent(\"c0\")", 1 + (CARDS - 1)),
    "neighbours": ("let near = neighbours(\"c0\")", 1 + (CARDS - 1)),
    "slots": ("let places = slots(row)", 1 + 50),
    # A zone's pieces or a kind's items made into a list cost a step each (the list made), unless a loop, a
    # comprehension, an index or a parameter takes them element by element, each element taken costing one.
    "items as a value": ("let all = items(deck)", 1 + CARDS),
    "items of a pool": ("let all = items(bank)", 1 + 100),
    "sort of a pool": ("let all = sort(bank)", 1 + 100),
    "first of a pool": ("let one = first(bank)", 1 + 100),
    "first and last of a stack": ("\n".join(f"let one{k} = first(deck)\nlet other{k} = last(deck)" for k in range(10)),
                                  20),
    "count of a stack": ("\n".join(f"let n{k} = count(deck)" for k in range(20)), 20),
    # a pool's table has an entry for each item of its kind, 100 here: reading it whole costs a step for each
    "count of a pool": ("let n = count(bank)", 1 + CARDS),
    "used of a pool, and free of one with no capacity": ("let n = used(bank)\nlet m = free(bank)", 2 + CARDS),
    "an item in a stack": ("let found = \"c3\" in deck\nlet n = count(deck, \"c4\")", 2 + 2 * CARDS),
    "an item in a pool": ("\n".join(f"let n{k} = count(bank, \"c1\")" for k in range(20)), 20),
    "a long list written to a var": ("set kept = range(100)\nset kept = kept", 2 + 100 + 100 + 100),
    "a list in a list written to a var": ("set kept = [range(50), range(50)]", 1 + 100 + 2 + 100),
    "count of items": ("let n = count(items(deck))", 1 + 2 * CARDS),
    "a kind's name": ("let all = card", 1 + CARDS),
    "an index": ("\n".join(f"let one{k} = items(deck)[5]\nlet other{k} = card[7]" for k in range(10)), 20),
    "a comprehension over items": ("let all = [c for c in items(deck)]", 1 + CARDS),
    "a comprehension over a kind": ("let all = [c for c in card if c != \"c3\"]", 1 + CARDS),
    "a loop over items": ("for c in items(deck) {\n}", 1 + CARDS),
    "a loop over a kind": ("for c in card {\n}", 1 + CARDS),
    "lists joined": ("let both = items(deck) + card", 1 + 4 * CARDS),
    # two lists of one length compared: every element, and every element of the lists nested in them
    "nested lists compared": ("let same = [range(50), range(50)] == [range(50), range(50)]", 1 + 4 * 50 + 2 + 2 * 50),
    # a list looked for in a list of lists: each element, and the sought list's elements for each list in it
    "a list in a list of lists": ("let found = range(50) in [range(50), range(50)]", 1 + 3 * 50 + 2 + 50 + 2 * 50),
    "a number in a list": ("let found = 3 in range(100)", 1 + 100 + 100),
    # so does a builtin that looks for a list among lists (both lists given cost their lengths), and one that
    # makes each list's id (`distinct`) or compares them with each other (`sort`, about log2 n times each)
    "a list counted in a list of lists": ("let n = count([range(50), range(50)], range(50))",
                                          1 + 3 * 50 + (2 + 50) + 50 + 2 * 50),
    "a list's place in a list of lists": ("let n = index_of([range(50), range(50)], range(50))",
                                          1 + 3 * 50 + (2 + 50) + 50 + 2 * 50),
    "a list left out of a list of lists": ("let n = without([range(50), range(50)], range(50))",
                                           1 + 3 * 50 + (2 + 50) + 50 + 2 * 50),
    "distinct lists": ("let d = distinct([range(50), range(50)])", 1 + 2 * 50 + 2 + 2 * 50),
    "lists sorted": ("let d = sort([range(50), range(50)])", 1 + 2 * 50 + 2 + 2 * (2 * 50)),
    # a card taken from under others: a step for each card above it (c99 lies under the other 99)
    "a card moved out from under the others": ('move "c99" from deck to pile\nmove "c99" from pile to deck',
                                               2 + (CARDS - 1)),
    # a node and each neighbour looked at: c0 is joined to the 99 other cards
    "reachable from a hub": ("let near = reachable(\"c0\", 1)", 1 + 1 + (CARDS - 1)),
    "a flattened list": ("let all = flatten([items(deck), items(deck)])", 1 + 2 * CARDS + 2 + 2 * CARDS),
}


def write_pack(root: Path, body: str) -> Path:
    items = "\n".join(f"items.c{i} = {{}}" for i in range(CARDS))
    start = ", ".join(f'"c{i}"' for i in range(CARDS))
    edges = ", ".join(f'["c0", "c{i}"]' for i in range(1, CARDS))  # a star: c0 joined to every other card
    root.mkdir(parents=True, exist_ok=True)
    (root / "pack.toml").write_text(MANIFEST, encoding="utf-8")
    (root / "game.toml").write_text(GAME % {"items": items, "start": start, "edges": edges, "body": body}, encoding="utf-8")
    return root


def runs(game: ruleskit.Game, rounds: int) -> bool:
    """Whether the setup runs `rounds` rounds within the budget (it must stop with the budget's error if not)."""
    try:
        game.new_game(players=2, seed=3, options={"rounds": rounds})
    except BudgetExceeded:
        return False
    return True


def most_rounds(game: ruleskit.Game) -> int:
    low, high = 0, 10000  # runs(low) holds, runs(high) does not
    assert runs(game, low) and not runs(game, high)
    while high - low > 1:
        middle = (low + high) // 2
        if runs(game, middle):
            low = middle
        else:
            high = middle
    return low


@pytest.mark.parametrize("name", sorted(BODIES))
def test_each_piece_is_a_step_under_both_backends(tmp_path: Path, name: str) -> None:
    body, cost = BODIES[name]
    per_round = 2 + cost
    pack = write_pack(tmp_path / "pack", body)
    most = {backend: most_rounds(ruleskit.load(pack, backend=backend)) for backend in ("compiled", "closures")}
    assert most["compiled"] == most["closures"]
    # The setup's few steps around the loop aside, the budget is spent `per_round` at a time.
    assert (STEP_BUDGET - 10) // per_round <= most["compiled"] <= STEP_BUDGET // per_round


def test_a_few_cards_cost_what_they_did(tmp_path: Path) -> None:
    # One piece moved, drawn or shuffled is the statement's own step, as before: the cost is per piece beyond.
    pack = write_pack(tmp_path / "pack", "draw 1 from deck to pile\nmove first(pile) from pile to deck\n" * 10)
    game = ruleskit.load(pack)
    assert (STEP_BUDGET - 10) // 22 <= most_rounds(game) <= STEP_BUDGET // 22
