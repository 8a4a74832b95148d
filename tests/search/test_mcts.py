"""The mcts bot: budgets, replaying from its seed, taking wins, blind simultaneous picks, strength."""

from __future__ import annotations

from pathlib import Path

import pytest
from search_support import DUEL, RACE, SHOWN, play_until

import ruleskit
from ruleskit.bots import make_bot
from ruleskit.errors import PackError
from ruleskit.mcts import Budget, MCTSBot, blind_copy


def test_budget_is_iterations_or_seconds() -> None:
    assert Budget.parse("2000") == Budget(iterations=2000)
    assert Budget.parse("0.5s") == Budget(seconds=0.5)
    assert Budget.parse(None).iterations and Budget.parse(None).seconds is None
    for bad in ("0", "-3", "fast", "1.5", "0s"):
        with pytest.raises(PackError, match="mcts"):
            Budget.parse(bad)
    assert make_bot("mcts:250", ruleskit.load(RACE), 1).name == "mcts:250"


def test_a_playout_depth_past_the_playout_cap_is_refused_when_the_bot_is_named() -> None:
    # A playout is cut after MAX_PLAYOUT_DECISIONS anyway; depth=100000000000 let one playout of a game that
    # never ends run the whole step bound (93 s for one decision of mcts:1).
    from ruleskit.bots import check_bot_names
    from ruleskit.mcts import MAX_PLAYOUT_DECISIONS

    check_bot_names([f"mcts:1:depth={MAX_PLAYOUT_DECISIONS}"])
    with pytest.raises(PackError, match="depth=0 to"):
        check_bot_names([f"mcts:1:depth={MAX_PLAYOUT_DECISIONS + 1}"])
    with pytest.raises(PackError, match="depth=0 to"):
        make_bot("mcts:1:depth=100000000000", ruleskit.load(RACE), 1)


def test_full_width_digits_and_an_infinite_exploration_are_refused() -> None:
    # `\d`, int() and float() read full-width digits, which greedy's budget refuses; c=inf made every score
    # NaN, and the bot always took the first action.
    from ruleskit.bots import check_bot_names

    check_bot_names(["mcts:5:depth=8:c=0.7", "mcts:0.5s"])
    for bad in ("mcts:\uff15", "mcts:\uff15s", "mcts:5:depth=\uff18", "mcts:5:c=inf", "mcts:5:c=1e400"):
        with pytest.raises(PackError, match="bad mcts"):
            check_bot_names([bad])


def test_same_seed_and_iterations_replay_the_same_game() -> None:
    game = ruleskit.load(DUEL)
    histories = []
    for _ in range(2):
        state = game.new_game(players=3, seed=4)
        bots = [MCTSBot(game, 9, "6"), MCTSBot(game, 10, "6"), MCTSBot(game, 11, "6")]
        while not state.is_terminal:
            player = state.players_to_decide()[0]
            state.apply(bots[player].choose(state, player))
        histories.append(state.history)
    assert histories[0] == histories[1]
    other = game.new_game(players=3, seed=4)
    bots = [MCTSBot(game, 19, "6"), MCTSBot(game, 20, "6"), MCTSBot(game, 21, "6")]
    while not other.is_terminal:
        player = other.players_to_decide()[0]
        other.apply(bots[player].choose(other, player))
    assert other.history != histories[0]  # the bots' own seeds matter


def _winning_actions(state: ruleskit.State, player: int) -> set[str]:
    """The actions that end the game with `player` the only winner (checked on the real state)."""
    wins = set()
    for action in state.legal_actions(player):
        copy = state.clone()
        copy.apply(action)
        if copy.result is not None and copy.result["winners"] == [player]:
            wins.add(action.id)
    return wins


def test_takes_an_immediate_win_even_with_a_tiny_budget() -> None:
    game = ruleskit.load(SHOWN)
    found = 0
    for seed in range(40):
        state = game.new_game(players=2, seed=seed)
        if not play_until(state, lambda s: bool(s.players_to_decide())
                          and bool(_winning_actions(s, s.players_to_decide()[0])), seed):
            continue
        player = state.players_to_decide()[0]
        wins = _winning_actions(state, player)
        if len(wins) == len(state.legal_actions(player)):
            continue  # every move wins: nothing to test
        found += 1
        assert MCTSBot(game, seed, "2").choose(state, player).id in wins
    assert found >= 5


def _reveal_stage_after_first_pick(seed: int, pick: int) -> ruleskit.State:
    game = ruleskit.load(DUEL)
    state = game.new_game(players=3, seed=seed)
    assert play_until(state, lambda s: isinstance(s.current_player, tuple), seed)
    first = state.players_to_decide()[0]
    state.apply(state.legal_actions(first)[pick])
    return state


def test_a_simultaneous_pick_is_made_blind_to_the_picks_already_made() -> None:
    one, other = _reveal_stage_after_first_pick(3, pick=0), _reveal_stage_after_first_pick(3, pick=1)
    assert one.data["flow"]["simul"]["picks"] != other.data["flow"]["simul"]["picks"]
    player = one.players_to_decide()[0]
    assert player == other.players_to_decide()[0]
    # Each copy forgets the others' picks: the same position for the bot, so the same choice.
    assert blind_copy(one, player).data == blind_copy(other, player).data
    assert len(blind_copy(one, player).players_to_decide()) == len(one.players_to_decide()) + 1
    game = one.game
    assert MCTSBot(game, 5, "40").choose(one, player) == MCTSBot(game, 5, "40").choose(other, player)
    assert one.data["flow"]["simul"]["picks"] != {}  # the real state is untouched


def test_time_budget_searches_until_the_time_is_up() -> None:
    game = ruleskit.load(DUEL)
    state = _reveal_stage_after_first_pick(3, pick=0)
    bot = MCTSBot(game, 1, "0.05s")
    player = state.players_to_decide()[0]
    assert bot.choose(state, player) in state.legal_actions(player)
    assert bot.last_iterations >= 1


def test_a_time_budget_bounds_the_look_for_a_win_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each action was tried for a win whatever the time: on a pack of 10,000 actions `mcts:0.5s` took 3 s.
    import itertools

    from ruleskit import mcts

    ticks = itertools.count()
    monkeypatch.setattr(mcts.time, "perf_counter", lambda: float(next(ticks)))  # a second passes at each look
    copies = 0
    determinized = ruleskit.State.determinized

    def counted(self: ruleskit.State, viewer: int, seed: int) -> ruleskit.State:
        nonlocal copies
        copies += 1
        return determinized(self, viewer, seed)

    monkeypatch.setattr(ruleskit.State, "determinized", counted)
    state = _connect_four([])
    bot = MCTSBot(state.game, 1, "0.5s")
    assert bot.choose(state, 0) in state.legal_actions(0)
    assert bot.last_iterations == 1 and copies == 1  # the deadline passed: no action tried, one iteration


FAILING_HEURISTIC = {
    "pack.toml": 'name = "failing-heuristic"\nversion = "1"\nplayers = { min = 2, max = 2 }\nfiles = ["game.toml"]\n',
    "game.toml": """\
[vars.total]
type = "int"
max = 100

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 10

[actions.add]
stage = "main"
params = { n = "range(3)" }
label = "Add {n}"
effect = "set total = total + n\\nend turn"

[scoring]
score = "total"

[report]
heuristic = "total // 0"
""",
}


@pytest.mark.parametrize("bot", ["greedy", "mcts:20:depth=2"])
def test_a_heuristic_that_fails_is_the_games_error_at_its_line(tmp_path: Path, bot: str) -> None:
    # Under mcts a failing heuristic scored every cut playout as a draw: the bot played at random, without a word.
    from ruleskit.simulate import play_game

    for name, text in FAILING_HEURISTIC.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    record = play_game(ruleskit.load(tmp_path, cache=False), 2, 1, [bot, bot])
    assert record.reason == "error"
    assert record.error is not None and "division by zero in heuristic" in record.error
    assert "game.toml:24" in record.error


def _connect_four(columns: list[int]) -> ruleskit.State:
    state = ruleskit.load("connect_four").new_game(players=2, seed=0)
    for column in columns:
        state.apply(f"drop:col{column}")
    return state


@pytest.mark.parametrize(("moves", "winning"), [
    ([1, 2, 1, 2, 1, 2], "drop:col1"),         # three red discs stacked in column 1
    ([1, 1, 2, 2, 3, 3], "drop:col4"),         # red holds columns 1-3 of the bottom row
    ([7, 4, 6, 4, 5, 4, 1], "drop:col4"),      # yellow (to move) has three in column 4
])
def test_never_misses_an_immediate_connect_four(moves: list[int], winning: str) -> None:
    state = _connect_four(moves)
    player = state.players_to_decide()[0]
    for seed in range(5):
        assert MCTSBot(state.game, seed, "1").choose(state, player).id == winning


def test_blocks_the_opponents_immediate_connect_four() -> None:
    state = _connect_four([1, 7, 1, 7, 1])  # red threatens column 1; yellow must block
    assert MCTSBot(state.game, 3, "300").choose(state, 1).id == "drop:col1"


def test_keeps_the_tree_between_moves_in_a_perfect_information_game() -> None:
    state = _connect_four([])
    bot = MCTSBot(state.game, 1, "60")
    state.apply(bot.choose(state, 0))
    state.apply("drop:col1")
    root = bot.reused_root(state, 0)
    assert root is not None and root.visits > 0
    # Hidden information: nothing is kept, the statistics came from other guesses.
    duel = _reveal_stage_after_first_pick(3, pick=0)
    player = duel.players_to_decide()[0]
    duel_bot = MCTSBot(duel.game, 1, "10")
    duel_bot.choose(duel, player)
    assert duel_bot.kept is None
