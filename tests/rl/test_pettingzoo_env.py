"""The PettingZoo environment: PettingZoo's own API and seed tests, and what the numbers mean."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import ruleskit  # noqa: E402
import ruleskit.rl  # noqa: E402

PACKS = Path(__file__).resolve().parent.parent / "packs"
CASES = [("ophir", 3), ("connect_four", 2), ("envoys", 3), (str(PACKS / "card_duel"), 3), ("nereus", 2)]


@pytest.mark.parametrize(("pack", "players"), CASES)
def test_pettingzoo_api_and_seed_tests_pass(pack: str, players: int) -> None:
    game = ruleskit.load(pack)
    api_test(ruleskit.rl.env(game, players=players), num_cycles=120)
    seed_test(lambda: ruleskit.rl.env(game, players=players), num_cycles=60)


def _drop(env: ruleskit.rl.RulesEnv, column: int) -> None:
    slot = env.index.position[f"drop:col{column}"]
    assert env.observe(env.agent_selection)["action_mask"][slot] == 1
    env.step(slot)


def test_connect_four_board_and_mask_read_as_the_grid() -> None:
    env = ruleskit.rl.env("connect_four")
    env.reset(seed=1)
    assert env.index.ids[:7] == [f"drop:col{c}" for c in range(1, 8)]
    mask = env.observe("player_0")["action_mask"]
    assert list(np.flatnonzero(mask)) == list(range(7))
    assert not env.observe("player_1")["action_mask"].any()  # not its turn
    _drop(env, 3)
    # The disc is at the bottom of column 3 as the first player's colour, from either seat's side.
    first = env.observe("player_0")["observation"]
    second = env.observe("player_1")["observation"]
    assert first.shape == second.shape == (env.layout.size,)
    assert not np.array_equal(first, second)  # seats are counted from the observer
    for column in (4, 3, 4, 3, 4):
        _drop(env, column)
    _drop(env, 3)  # four in column 3 for the first player
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}


def test_a_hidden_hand_does_not_show_in_the_others_observation() -> None:
    env = ruleskit.rl.env(str(PACKS / "card_duel"), players=3)
    env.reset(seed=4)
    state = env.state_
    assert state is not None
    before = env.observe("player_1")["observation"]
    mine = env.observe("player_0")["observation"]
    hands = state.data["z"]
    hands["hand@0"], hands["hand@2"] = hands["hand@2"], hands["hand@0"]  # same sizes, other cards
    assert np.array_equal(env.observe("player_1")["observation"], before)
    assert not np.array_equal(env.observe("player_0")["observation"], mine)


def test_an_illegal_action_is_refused() -> None:
    env = ruleskit.rl.env("connect_four")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        env.step(env.index.size - 1)


@pytest.mark.parametrize("action", [2.7, "3", b"1", True, np.float32(1.9), np.array([2]), float("inf")])
def test_an_action_that_is_not_a_whole_number_is_refused_not_read_as_another_slot(action: object) -> None:
    env = ruleskit.rl.env("connect_four")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        env.step(action)  # type: ignore[arg-type]
    assert len(env.state_.history) == 1  # type: ignore[union-attr]  # nothing played


def test_numpy_integers_are_slots_and_seeds() -> None:
    env = ruleskit.rl.env("connect_four")
    env.reset(seed=np.int64(3))
    again = ruleskit.rl.env("connect_four")
    again.reset(seed=3)
    assert env.state_.raw["seed"] == again.state_.raw["seed"] == 3  # type: ignore[union-attr]
    env.step(np.int64(2))
    env.step(np.array(4))
    assert [e["action"] for e in env.state_.history[1:]] == ["drop:col3", "drop:col5"]  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", [1.5, "7", True])
def test_a_seed_that_is_not_an_integer_is_refused(seed: object) -> None:
    env = ruleskit.rl.env("connect_four")
    with pytest.raises(TypeError, match="seed must be an integer"):
        env.reset(seed=seed)  # type: ignore[arg-type]


def test_the_example_evaluates_an_agent() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent.parent
    done = subprocess.run([sys.executable, "examples/rl/evaluate_agent.py", "connect_four", "--games", "4"],
                          capture_output=True, text=True, cwd=root, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "central agent in seat 1" in done.stdout and "95% interval" in done.stdout


def test_a_waiting_player_is_offered_its_anytime_actions_or_to_wait() -> None:
    # Nereus lets a player sell gems at any time: before each decision the others are asked first.
    env = ruleskit.rl.env("nereus", players=2)
    env.reset(seed=1)
    state = env.state_
    assert state is not None and env.index.wait_slot == env.index.size - 1
    rng = np.random.default_rng(0)
    offers = declined = taken = 0
    for _ in range(400):
        if state.is_terminal:
            break
        agent = env.agent_selection
        player = env.agent_name_mapping[agent]
        mask = env.observe(agent)["action_mask"]
        deciders = state.players_to_decide()
        if player not in deciders:  # an offer: this player's out-of-turn actions and the wait slot
            offers += 1
            expected = {a.id for a in state.out_of_turn_actions(player)}
            offered = {env.legal_slots(agent)[slot].id for slot in np.flatnonzero(mask) if slot != env.index.wait_slot}
            assert offered == expected and mask[env.index.wait_slot] == 1
            if offers % 2:
                length = len(state.history)
                env.step(env.index.wait_slot)
                declined += 1
                assert state.players_to_decide() == deciders and len(state.history) == length  # nothing happened
                continue
            slot = int(rng.choice([s for s in np.flatnonzero(mask) if s != env.index.wait_slot]))
            action = env.legal_slots(agent)[slot]
            env.step(slot)
            taken += 1
            assert state.history[-1]["player"] == player and state.history[-1]["action"] == action.id
            assert state.players_to_decide() == deciders  # the game still waits for the same decision
            continue
        assert mask[env.index.wait_slot] == 0
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert declined and taken


def _write_pack(root: Path, game: str) -> Path:
    root.mkdir()
    (root / "pack.toml").write_text('name = "wide"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                    'files = ["game.toml"]\n')
    (root / "game.toml").write_text(game)
    return root


WIDE = """
[kinds.card]
%(cards)s

[stages.main]

[phases.p]
stage = "main"

[flow]
start = "p"
max_turns = 6

%(actions)s

[scoring]
score = "0"
"""


def test_an_action_with_more_combinations_than_the_index_holds_is_left_to_the_samples(tmp_path: Path) -> None:
    """Four parameters over twenty cards are 160,000 combinations: numbering them all (1.6 billion for 200
    cards) ran out of memory. The action, whose bindings the game narrows to sixteen, is indexed as the
    sample games meet it, and stays playable."""
    cards = "\n".join(f"items.c{i} = {{}}" for i in range(20))
    actions = """
[actions.deal]
stage = "main"
params = { a = "low", b = "low", c = "low", d = "low" }
when = "turn_number > 2"
effect = "end turn"

[actions.pick]
stage = "main"
params = { a = "card" }
effect = "end turn"
"""
    actions = actions.replace('"low"', '"[c for c in card if c == c0 or c == c1]"')
    pack = _write_pack(tmp_path / "wide", WIDE % {"cards": cards, "actions": actions})
    env = ruleskit.rl.env(str(pack), players=2)
    assert env.index.ids[:20] == [f"pick:c{i}" for i in range(20)]
    assert len(env.index.ids) <= ruleskit.rl.actions.MAX_INDEXED
    assert any(i.startswith("deal:") for i in env.index.ids)  # met in the sample games
    api_test(env, num_cycles=20)


def test_an_observation_past_its_largest_size_is_a_clear_error(tmp_path: Path) -> None:
    """A zone for each of 1,001 cards, each counting the 1,001 cards: a million numbers an observation."""
    cards = "\n".join(f"items.c{i} = {{}}" for i in range(1001))
    actions = """
[zones.pile]
type = "stack"
of = "card"
owner = "card"

[actions.wait]
stage = "main"
effect = "end turn"
"""
    pack = _write_pack(tmp_path / "wide", WIDE % {"cards": cards, "actions": actions})
    with pytest.raises(ruleskit.PackError, match=r"would hold \d+ numbers, more than 1000000 .*zone 'pile'"):
        ruleskit.rl.env(str(pack), players=2)


def test_a_stack_whose_capacity_is_an_expression_is_counted_per_item(tmp_path: Path) -> None:
    """A capacity the pack works out (`2 + me.coins`) gives no fixed number of positions: the zone is read
    as counts per item (it raised a TypeError comparing the expression's text with a number)."""
    game = """
[counters.coins]
owner = "player"
start = 2

[kinds.gem]
items.ruby = {}

[zones.bag]
type = "stack"
of = "gem"
owner = "player"
capacity = "2 + me.coins"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 4

[actions.pass]
stage = "main"
effect = "end turn"

[scoring]
score = "0"
"""
    env = ruleskit.rl.env(str(_write_pack(tmp_path / "bag", game)), players=2)
    api_test(env, num_cycles=10)
    # Per seat: one coin counter, the bag's count and one count for its one kind of gem.
    assert env.layout.size == 2 * 1 + 2 * (1 + 1) + len(env.layout.phases) + len(env.layout.stages) + 2 + 4


@pytest.mark.parametrize("players", ["2", 2.0, True])
def test_a_number_of_players_that_is_not_an_integer_is_refused(players: object) -> None:
    with pytest.raises(TypeError, match="number of players must be an integer"):
        ruleskit.rl.env("connect_four", players=players)  # type: ignore[arg-type]


def test_a_numpy_integer_is_a_number_of_players() -> None:
    env = ruleskit.rl.env("connect_four", players=np.int64(2))  # type: ignore[arg-type]
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]


@pytest.mark.parametrize("max_decisions", [0, -1, 1.5, "9"])
def test_a_decision_limit_below_one_is_refused(max_decisions: object) -> None:
    """With none, reset chose no agent to act and truncated nothing: `last()` was an AttributeError."""
    with pytest.raises(ValueError, match="max_decisions must be a whole number of at least 1"):
        ruleskit.rl.env("connect_four", max_decisions=max_decisions)  # type: ignore[arg-type]


def test_a_game_past_its_decision_limit_is_truncated() -> None:
    env = ruleskit.rl.env("connect_four", max_decisions=1)
    env.reset(seed=0)
    env.step(0)
    assert env.truncations == {"player_0": True, "player_1": True}
    assert env.last()[3]  # the agent selected reads its truncation


def _finished_game() -> ruleskit.rl.RulesEnv:
    env = ruleskit.rl.env("connect_four")
    env.reset(seed=0)
    for column in (0, 1, 0, 1, 0, 1, 0):
        env.step(column)
    return env


def test_stepping_without_a_game_is_a_clear_error() -> None:
    """Before reset and after close: an AttributeError (no agent selected) and an AssertionError."""
    env = ruleskit.rl.env("connect_four")
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0")):
        with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
            call()
    env.reset(seed=0)
    env.close()
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        env.step(0)
    env.reset(seed=0)
    env.step(0)  # it plays again


def test_stepping_once_every_agent_has_left_a_finished_game_is_a_clear_error() -> None:
    """It was a KeyError naming the first agent."""
    env = _finished_game()
    assert all(env.terminations.values())
    while env.agents:
        env.step(None)
    length = len(env.state_.history)  # type: ignore[union-attr]
    for call in (lambda: env.step(None), lambda: env.step(3), env.last):
        with pytest.raises(RuntimeError, match="the game is over"):
            call()
    assert len(env.state_.history) == length  # type: ignore[union-attr]


def test_an_agent_not_in_the_game_is_named_with_the_games_agents() -> None:
    """`observe("player_9")` and `action_space("x")` raised a KeyError naming only the agent asked for."""
    env = ruleskit.rl.env("connect_four")
    env.reset(seed=0)
    for call in (lambda: env.observe("player_9"), lambda: env.action_space("x"),
                 lambda: env.observation_space("player_2")):
        with pytest.raises(KeyError, match="its agents are player_0, player_1"):
            call()
    assert env.action_space("player_1") is env.action_space("player_1")


@pytest.mark.parametrize("mode", ["rgb_array", "Human", "ANSI", "", 3])
def test_a_render_mode_it_cannot_render_is_refused(mode: object) -> None:
    """Any text was taken, and rendered nothing: `render()` gave None as if all were well."""
    with pytest.raises(ValueError, match=f"render_mode {mode!r} is not supported: the supported ones are "
                                         "'human', 'ansi' and None"):
        ruleskit.rl.env("connect_four", render_mode=mode)  # type: ignore[arg-type]


def test_human_mode_prints_what_ansi_mode_returns(capsys: pytest.CaptureFixture[str]) -> None:
    shown = ruleskit.rl.env("connect_four", render_mode="ansi")
    shown.reset(seed=3)
    text = shown.render()
    assert isinstance(text, str) and "drop:col1" in text
    printed = ruleskit.rl.env("connect_four", render_mode="human")
    printed.reset(seed=3)
    assert printed.render() is None
    assert capsys.readouterr().out == text + "\n"
    assert ruleskit.rl.env("connect_four").render() is None  # no mode: nothing shown


def test_human_mode_prints_no_escape_sequences_of_the_pack(capsys: pytest.CaptureFixture[str]) -> None:
    raw = ruleskit.rl.env(str(PACKS / "hostile_text"), render_mode="ansi")
    raw.reset(seed=1)
    assert "\x1b" in str(raw.render())  # the labels' own escapes, returned as they are
    env = ruleskit.rl.env(str(PACKS / "hostile_text"), render_mode="human")
    env.reset(seed=1)
    env.render()
    out = capsys.readouterr().out
    assert "Roll" in out and "\x1b" not in out and "\u202e" not in out


def test_pettingzoo_render_test_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render test makes the environment with render_mode="human" before reading its modes."""
    render_test(lambda render_mode=None: ruleskit.rl.env("connect_four", render_mode=render_mode))
