"""A search is bounded as a whole, by the steps of pack code its copies run (`State.work`).

Each decision has a step budget of its own, so a bot that tries every legal action, or plays thousands of
playouts, on a pack whose every decision takes nearly its budget ran for minutes a decision (84 s for the greedy
bot, 59 s for `mcts:2`, 144 s to build the RL environment's index). Each now stops once its copies have run
`MAX_SEARCH_STEPS` steps and goes by what it found; the tests lower that limit to keep them short.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ruleskit
from ruleskit import bots, mcts
from ruleskit.bots import make_bot
from ruleskit.errors import IllegalAction

MANIFEST = """\
name = "heavy-decisions"
version = "0.1"
players = { min = 2, max = 2 }
files = ["game.toml", "rules.rk"]
"""

# Every `work` runs WORK steps or so; `refused` runs as many, then fails its `require`.
GAME = """\
[vars.total]
type = "int"
max = 100000000

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 40

[actions.work]
stage = "main"
params = { n = "range(30)" }
label = "Work {n}"
effect = "grind(n)"

[actions.refused]
stage = "main"
label = "Refused"
require = [{ check = "costly() < 0", message = "never" }]

[scoring]
score = "total"
"""

RULES = """\
proc grind(n) {
    for i in range(%(work)d) {
        set total = total + 1
    }
    set total = total + n
    end turn
}

rule costly() = count([i for i in range(%(work)d) if i >= 0])
"""

WORK = 2000


def heavy_pack(tmp_path: Path, work: int = WORK) -> ruleskit.Game:
    folder = tmp_path / "heavy"
    folder.mkdir()
    (folder / "pack.toml").write_text(MANIFEST, encoding="utf-8")
    (folder / "game.toml").write_text(GAME, encoding="utf-8")
    (folder / "rules.rk").write_text(RULES % {"work": work}, encoding="utf-8")
    return ruleskit.load(folder, cache=False)


def test_work_counts_decisions_listings_and_refusals(tmp_path: Path) -> None:
    game = heavy_pack(tmp_path)
    state = game.new_game(players=2, seed=1)
    start = state.work
    actions = state.legal_actions()
    listed = state.work - start
    assert listed >= WORK  # `refused`'s require ran its rule over WORK numbers
    before = state.work
    state.apply(actions[0])
    assert state.work - before >= 2 * WORK  # the loop: a step for each round and for each `set`
    before = state.work
    with pytest.raises(IllegalAction):
        state.apply("refused")
    assert state.work - before >= WORK  # refused, and the state as it was, but the work was done
    copy = state.clone()
    assert copy.work == 0  # a copy counts its own


def test_work_is_the_same_in_both_backends_and_every_run(tmp_path: Path) -> None:
    folder = heavy_pack(tmp_path).source.root
    counts = []
    for backend in ("compiled", "closures", "compiled"):
        state = ruleskit.load(folder, backend=backend, cache=False).new_game(players=2, seed=3)
        for _ in range(6):
            state.legal_actions()
            state.apply("work:7")
        counts.append(state.work)
    assert counts[0] == counts[1] == counts[2] > 6 * 2 * WORK


def tried_actions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the actions the copies of a search apply, in turn."""
    tried: list[str] = []
    apply = ruleskit.State.apply

    def counting(self: ruleskit.State, action: object, player: int | None = None) -> ruleskit.State:
        tried.append(action if isinstance(action, str) else getattr(action, "id", "?"))
        return apply(self, action, player)  # type: ignore[arg-type]

    monkeypatch.setattr(ruleskit.State, "apply", counting)
    return tried


ONE_TRY = 2 * WORK + 200  # the steps of one action tried on one copy of the heavy pack's game


def greedy_at_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: str) -> tuple[list[str], Any, Any]:
    """The actions a greedy bot named `spec` tries, what it chooses and the bot, with a limit of five tries."""
    game = heavy_pack(tmp_path)
    state = game.new_game(players=2, seed=1)
    monkeypatch.setattr(bots, "MAX_SEARCH_STEPS", 5 * ONE_TRY)
    tried = tried_actions(monkeypatch)
    bot = make_bot(spec, game, 5)
    return tried, bot.choose(state, state.players_to_decide()[0]), bot


def test_greedy_stops_trying_actions_at_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tried, chosen, bot = greedy_at_the_limit(tmp_path, monkeypatch, "greedy")
    # Without the limit it tries all 31 actions; with it, about five (the listing of each copy costs too).
    assert 3 <= len(tried) <= 6
    assert chosen.id in tried
    assert bot.spent < 5 * ONE_TRY + 3 * ONE_TRY


def test_greedy_tries_everything_under_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = heavy_pack(tmp_path, work=10)
    state = game.new_game(players=2, seed=1)
    tried = tried_actions(monkeypatch)
    chosen = make_bot("greedy", game, 5).choose(state, state.players_to_decide()[0])
    assert len(tried) == len(state.legal_actions())  # every action, `refused` too
    assert chosen.id == "work:29"  # the most added to the score


def test_mcts_stops_its_search_at_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = heavy_pack(tmp_path)
    state = game.new_game(players=2, seed=1)
    decision = 3 * WORK + 200  # a decision and the listing after it, about
    limit = 250 * decision
    monkeypatch.setattr(mcts, "MAX_SEARCH_STEPS", limit)
    bot = make_bot("mcts:200", game, 5)  # 200 iterations: the limit for 1,000 is at least MAX_SEARCH_STEPS
    chosen = bot.choose(state, state.players_to_decide()[0])
    assert chosen in state.legal_actions()
    # Looking for a winning move tries each action four times (124 decisions); a playout runs 40 turns, and
    # 200 of them would run 8,000 decisions.
    assert 0 < bot.last_iterations < 10
    assert limit <= bot.spent < limit + 10 * decision


def test_rl_sample_games_stop_at_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gymnasium")  # ruleskit.rl needs the rl extra; the other tests here do not
    from ruleskit.rl import actions as rl_actions

    game = heavy_pack(tmp_path)
    limit = 30 * (2 * WORK + 200)
    monkeypatch.setattr(rl_actions, "MAX_SEARCH_STEPS", limit)
    decisions = tried_actions(monkeypatch)
    seen, _ = rl_actions.ActionIndex.sample(game, 2)
    # Four games of 40 decisions each without the limit; with it, about 30 decisions of the first game.
    assert 10 <= len(decisions) <= 31
    assert "work:0" in seen


HIDDEN_DECK = """\
[kinds.card]
items = { a = {}, b = {}, c = {} }

[zones.supply]
type = "pool"
of = "card"
unlimited = true

[zones.deck]
type = "stack"
of = "card"
visible = "none"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 40
setup = "move %(cards)d of a from supply to deck\\nmove %(cards)d of b from supply to deck"

[actions.go]
stage = "main"
params = { n = "range(%(options)d)" }
label = "Go {n}"
effect = "end turn"

[scoring]
score = "count(deck)"
"""


def hidden_deck_pack(tmp_path: Path, cards: int, options: int = 3) -> ruleskit.Game:
    folder = tmp_path / "hidden"
    folder.mkdir()
    (folder / "pack.toml").write_text(MANIFEST.replace('"rules.rk"', "").replace(", ]", "]"), encoding="utf-8")
    (folder / "game.toml").write_text(HIDDEN_DECK % {"cards": cards, "options": options}, encoding="utf-8")
    return ruleskit.load(folder, cache=False)


def test_redrawing_what_a_seat_cannot_see_is_work(tmp_path: Path) -> None:
    # A search's copy shuffles the hidden deck: 99,999 hidden cards took a copy 50 ms, counted as no step.
    state = hidden_deck_pack(tmp_path, cards=500).new_game(players=2, seed=1)
    copy = state.determinized(0, 7)
    assert copy.work >= 2 * 1000  # the deck's 1,000 cards, copied and redrawn
    assert sorted(copy.raw["z"]["deck"]) == sorted(state.raw["z"]["deck"])


def test_mcts_stops_when_its_tree_is_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = hidden_deck_pack(tmp_path, cards=2, options=40)
    state = game.new_game(players=2, seed=1)
    monkeypatch.setattr(mcts, "MAX_TREE_EDGES", 200)
    bot = make_bot("mcts:1000:depth=3", game, 5)
    assert bot.choose(state, state.players_to_decide()[0]) in state.legal_actions()
    # Each iteration adds at most three nodes' 40 actions: it stops within one iteration of the bound.
    assert 200 <= bot.edges < 200 + 3 * 40
    assert bot.last_iterations < 1000


def test_the_anytime_actions_listed_after_a_stages_own_are_work(tmp_path: Path) -> None:
    folder = tmp_path / "anytime"
    folder.mkdir()
    (folder / "pack.toml").write_text(MANIFEST, encoding="utf-8")
    game_text = GAME + """
[actions.aside]
stage = "main"
anytime = true
label = "Aside"
when = "costly() > 0"
effect = "set total = total + 1"
"""
    (folder / "game.toml").write_text(game_text, encoding="utf-8")
    (folder / "rules.rk").write_text(RULES % {"work": WORK}, encoding="utf-8")
    state = ruleskit.load(folder, cache=False).new_game(players=2, seed=1)
    before = state.work
    assert "aside" in [action.id for action in state.legal_actions()]
    # `refused`'s require and `aside`'s `when` each run `costly()`, 3 * WORK steps (the range, the list, its
    # count): the anytime actions, listed after the stage's own on a context of their own, were not counted.
    assert state.work - before >= 2 * 3 * WORK


def test_greedy_with_many_samples_stops_inside_the_first_action_at_the_limit(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The first action was tried on every copy whatever the limit: greedy:1000 ran a thousand copies of it."""
    tried, chosen, bot = greedy_at_the_limit(tmp_path, monkeypatch, "greedy:1000")
    assert 3 <= len(tried) <= 6 and set(tried) == {chosen.id}  # copies of the first action alone
    assert bot.spent < 5 * ONE_TRY + 3 * ONE_TRY
