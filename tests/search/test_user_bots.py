"""Bots from outside ruleskit: `package.module:Class` specs and the `ruleskit.bots` entry-point group."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from search_support import DUEL, RACE

import ruleskit
from ruleskit.bots import make_bot, seat_bots
from ruleskit.errors import PackError
from ruleskit.simulate import play_game

MARKET = str(Path(__file__).resolve().parent.parent / "packs" / "street_market")

BOT_MODULE = '''
class FirstBot:
    """Always the first legal action; an option, if given, is kept to show it arrives."""

    name = "first"

    def __init__(self, game, seed, option=None):
        self.option = option

    def choose(self, state, player):
        return state.legal_actions(player)[0]
'''


@pytest.fixture()
def bot_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "my_bots.py").write_text(BOT_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield "my_bots"
    sys.modules.pop("my_bots", None)


def test_a_bot_class_named_by_module_path_plays(bot_module: str) -> None:
    game = ruleskit.load(RACE)
    bot = make_bot(f"{bot_module}:FirstBot", game, 1)
    assert bot.option is None  # type: ignore[attr-defined]
    assert make_bot(f"{bot_module}:FirstBot:fast", game, 1).option == "fast"  # type: ignore[attr-defined]
    record = play_game(game, 2, 3, [f"{bot_module}:FirstBot", "random"])
    assert record.error is None and record.reason


def test_a_bot_installed_under_the_entry_point_group_is_found_by_name(
        bot_module: str, tmp_path: Path) -> None:
    info = tmp_path / "my_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-bots\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[ruleskit.bots]\nfirst = {bot_module}:FirstBot\n", encoding="utf-8")
    importlib.invalidate_caches()
    game = ruleskit.load(RACE)
    assert seat_bots(["first", "random"], 2) == ["first", "random"]
    assert make_bot("first:x", game, 1).option == "x"  # type: ignore[attr-defined]


def test_bad_bot_specs_are_explained(bot_module: str) -> None:
    game = ruleskit.load(RACE)
    for spec, message in (("nosuchmodule_xyz:Bot", "cannot import bot module 'nosuchmodule_xyz'"),
                          (f"{bot_module}:Missing", "has no bot class 'Missing'"),
                          ("randm", "unknown bot 'randm'"),
                          ("random:3", "could not be made"),
                          ("greedy:lots", "greedy takes a number of samples"),
                          (":Bar", "names no module"), (".my_bots:FirstBot", "names no module"),
                          ("..x:Bot", "names no module")):
        with pytest.raises(PackError, match=message):
            make_bot(spec, game, 1)


def test_a_bot_module_that_fails_as_it_is_imported_is_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "broken_bots.py").write_text("raise ValueError('half written')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    try:
        with pytest.raises(PackError, match="bot module 'broken_bots' failed to import: ValueError: half written"):
            make_bot("broken_bots:Bot", ruleskit.load(RACE), 1)
    finally:
        sys.modules.pop("broken_bots", None)


CARELESS_BOTS = '''
class Raises:
    name = "raises"

    def __init__(self, game, seed):
        pass

    def choose(self, state, player):
        raise ValueError("half written")


class PlaysOnTheRealState:
    name = "plays-on"

    def __init__(self, game, seed):
        pass

    def choose(self, state, player):
        action = state.legal_actions(player)[0]
        state.apply(action)
        return action


class WritesTheRawData:
    name = "writes-raw"

    def __init__(self, game, seed):
        pass

    def choose(self, state, player):
        state.raw["flow"]["turn"] += 1  # `raw` is shared with every clone: only to be read
        return state.legal_actions(player)[0]


class WritesItsData:
    name = "writes-data"

    def __init__(self, game, seed):
        pass

    def choose(self, state, player):
        state.data["rng"] = 0  # the game's own random stream, set to a value the bot knows
        return state.legal_actions(player)[0]


class SearchesACopy:
    name = "searches-a-copy"

    def __init__(self, game, seed):
        pass

    def choose(self, state, player):
        copy = state.clone()
        copy.data["rng"] = 0  # a clone's data is its own
        copy.apply(copy.legal_actions(player)[0])
        return state.legal_actions(player)[0]


class GivesANumber:
    name = "number"

    def __init__(self, game, seed):
        pass

    def choose(self, state, player):
        return 0


class CannotStart:
    name = "cannot-start"

    def __init__(self, game, seed):
        raise RuntimeError("no settings file")

    def choose(self, state, player):
        return state.legal_actions(player)[0]


class FailsOutOfTurn:
    name = "fails-out-of-turn"

    def __init__(self, game, seed):
        pass

    def choose(self, state, player):
        return state.legal_actions(player)[0]

    def intervene(self, state, player):
        raise KeyError("cash")


class ActsForAnotherOutOfTurn(FailsOutOfTurn):
    name = "acts-for-another"

    def intervene(self, state, player):
        return state.legal_actions(state.players_to_decide()[0])[0]  # the decider's, not its own


class PicksForAnother:
    """At a simultaneous stage, the pick of another seat still to pick, if there is one."""

    name = "for-another"

    def __init__(self, game, seed):
        pass

    def choose(self, state, player):
        for other in state.players_to_decide():
            if other != player:
                return state.legal_actions(other)[0]
        return state.legal_actions(player)[0]
'''


def careless_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pack: Any, bot: str) -> Any:
    """One game of `pack` with bot `bot` of CARELESS_BOTS in the first seat and a random bot in the second."""
    (tmp_path / "careless_bots.py").write_text(CARELESS_BOTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    try:
        return play_game(ruleskit.load(pack), 2, 3, [f"careless_bots:{bot}", "random"])
    finally:
        sys.modules.pop("careless_bots", None)


@pytest.mark.parametrize(("bot", "message"), [
    ("Raises", r"bot 'raises' \(Player 1\) failed at .*careless_bots.py:\d+: ValueError: half written"),
    ("PlaysOnTheRealState", r"bot 'plays-on' \(Player 1\) took decisions on the state it was given"),
    ("GivesANumber", r"bot 'number' \(Player 1\) gave int"),
    # A bot writing into the game's data, shared or its own, without deciding was not noticed.
    ("WritesTheRawData", r"bot 'writes-raw' \(Player 1\) changed the game's data without deciding"),
    ("WritesItsData", r"bot 'writes-data' \(Player 1\) changed the game's data without deciding"),
    ("PicksForAnother", r"bot 'for-another' \(Player 1\) gave '.*', an action of Player 2's"),
])
def test_a_careless_bot_fails_its_game_naming_the_bot_and_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              bot: str, message: str) -> None:
    # A bot's exception was a traceback ending the whole run, a bot playing on the state it was given was
    # reported as the next decision's ('not Player 1's decision'), and a pick of another seat's was taken for it.
    record = careless_game(tmp_path, monkeypatch, DUEL, bot)
    assert record.reason == "error"
    assert record.error is not None and re.search(message, record.error), record.error


def test_a_bot_that_changes_only_its_copies_plays_its_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = careless_game(tmp_path, monkeypatch, DUEL, "SearchesACopy")
    assert record.error is None and record.reason != "error"


@pytest.mark.parametrize(("bot", "message"), [
    ("FailsOutOfTurn", r"bot 'fails-out-of-turn' \(Player \d\) failed at .*careless_bots.py:\d+: KeyError: 'cash'"),
    ("ActsForAnotherOutOfTurn", r"bot 'acts-for-another' \(Player \d\) gave '.*', an action of Player \d's"),
])
def test_a_careless_bot_acting_out_of_turn_fails_its_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         bot: str, message: str) -> None:
    # intervene() was called unchecked: an exception was a traceback, and an action of another seat's was
    # taken for that seat.
    record = careless_game(tmp_path, monkeypatch, MARKET, bot)
    assert record.error is not None and re.search(message, record.error), record.error


def test_a_bot_that_fails_as_it_is_made_is_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "careless_bots.py").write_text(CARELESS_BOTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    try:
        with pytest.raises(PackError, match=r"bot 'careless_bots:CannotStart' could not be made at "
                                            r".*careless_bots.py:\d+: RuntimeError: no settings file"):
            make_bot("careless_bots:CannotStart", ruleskit.load(RACE), 1)
    finally:
        sys.modules.pop("careless_bots", None)
