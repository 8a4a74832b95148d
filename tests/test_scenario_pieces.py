"""A scenario's pieces come from where setup put them, and its position holds the pack's invariants."""

from pathlib import Path

import pytest

import ruleskit
from ruleskit import PackError
from ruleskit.testing.scenario_tests import run_pack_tests

PACK = Path(__file__).parent / "packs" / "counted_pieces"  # setup: deck c3-c6, hands c1 and c2, supply 3+3


def load(tmp_path: Path, text: str) -> ruleskit.State:
    path = tmp_path / "scenario.toml"
    path.write_text("players = 2\n" + text)
    return ruleskit.scenario(str(path), str(PACK))


def error_of(tmp_path: Path, text: str) -> PackError:
    with pytest.raises(PackError) as caught:
        load(tmp_path, text)
    return caught.value


def test_a_deck_card_written_in_a_hand_leaves_the_deck(tmp_path: Path) -> None:
    state = load(tmp_path, '[zones]\n"hand@0" = ["c1", "c4"]\n')
    assert state.data["z"]["hand@0"] == ["c1", "c4"]
    assert state.data["z"]["deck"] == ["c3", "c5", "c6"]


def test_a_card_a_hand_no_longer_holds_takes_the_place_of_the_card_it_gained(tmp_path: Path) -> None:
    state = load(tmp_path, '[zones]\n"hand@0" = ["c5"]\n')
    assert state.data["z"]["hand@0"] == ["c5"]
    assert state.data["z"]["deck"] == ["c3", "c4", "c1", "c6"]


def test_goods_written_in_cargo_leave_the_supply(tmp_path: Path) -> None:
    state = load(tmp_path, '[zones]\n"cargo@0" = { wood = 2 }\n')
    assert state.data["z"]["supply"] == {"wood": 1, "stone": 3}
    state = load(tmp_path, '[zones]\n"cargo@0" = { wood = 2 }\nsupply = { stone = 1 }\n"cargo@1" = { stone = 2 }\n')
    assert state.data["z"]["supply"] == {"wood": 1, "stone": 1}  # stone is written in both: as written


def test_zones_written_both_keep_their_lists_as_written(tmp_path: Path) -> None:
    state = load(tmp_path, '[zones]\ndeck = ["c6", "c3", "c4"]\n"hand@0" = ["c1", "c5"]\n')
    assert state.data["z"]["deck"] == ["c6", "c3", "c4"]
    assert state.data["z"]["hand@0"] == ["c1", "c5"]
    assert state.data["z"]["hand@1"] == ["c2"]


def test_a_position_that_breaks_an_invariant_is_an_error_naming_it_and_the_file(tmp_path: Path) -> None:
    error = error_of(tmp_path, '[flow]\nactive = 0\n[zones]\ndeck = []\n')
    assert error.file == str(tmp_path / "scenario.toml")
    assert error.line == 5  # the zone that dropped the cards
    assert "invariant 'cards_conserved'" in str(error) and "the 6 cards are in the deck or in hands" in str(error)
    assert "zone 'deck' loses 1 'c3', which the scenario puts in no other zone" in (error.hint or "")


def test_goods_the_supply_cannot_give_are_an_error(tmp_path: Path) -> None:
    error = error_of(tmp_path, '[zones]\n"cargo@0" = { wood = 4 }\n')
    assert "invariant 'goods_conserved'" in str(error) and error.line == 3
    assert "zone 'cargo@0' gains 4 'wood', more than 'supply', where setup put it, holds" in (error.hint or "")


def test_a_broken_invariant_with_nothing_moved_points_at_the_opt_out(tmp_path: Path) -> None:
    error = error_of(tmp_path, '[zones]\ndeck = ["c5", "c6"]\n"hand@0" = ["c1", "c3", "c4"]\n')
    assert "invariant 'hand_limit'" in str(error) and error.line == 2
    assert "invariants = false" in (error.hint or "")


def test_invariants_false_loads_a_partial_position_as_written(tmp_path: Path) -> None:
    state = load(tmp_path, 'invariants = false\n[zones]\ndeck = []\n')
    assert state.data["z"]["deck"] == [] and state.data["z"]["hand@0"] == ["c1"]
    error = error_of(tmp_path, 'invariants = "no"\n')
    assert error.line == 2 and "'invariants' is true or false" in str(error)


def test_a_scenario_test_and_play_refuse_the_position_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ruleskit.cli import main

    pack = tmp_path / "pack"
    pack.mkdir()
    for name in ("pack.toml", "game.toml"):
        (pack / name).write_text((PACK / name).read_text())
    (pack / "tests").mkdir()
    (pack / "tests" / "broken.toml").write_text('[zones]\ndeck = []\n[expect]\nchecks = ["count(deck) == 0"]\n')
    problems = [str(problem) for problem in run_pack_tests(pack).problems]
    assert len(problems) == 1
    assert "broken.toml:2: failed:" in problems[0] and "invariant 'cards_conserved'" in problems[0]
    assert main(["play", str(pack), "--scenario", str(pack / "tests" / "broken.toml"), "--seats", "random,random"]) != 0
    assert "invariant 'cards_conserved'" in capsys.readouterr().err


def test_a_piece_written_in_two_zones_is_an_error_naming_the_first(tmp_path: Path) -> None:
    error = error_of(tmp_path, '[zones]\n"hand@0" = ["c3"]\n"hand@1" = ["c3"]\n')  # the pack's counts still hold
    assert error.line == 3 and "holds 3 'c3' (in 'deck', 'hand@0', 'hand@1'), but the game has only 1" in str(error)
    error = error_of(tmp_path, '[zones]\n"hand@1" = ["c3", "c2"]\n"hand@0" = ["c2"]\n')  # a written zone's piece
    assert error.line == 3 and "holds 2 'c2' (in 'hand@0', 'hand@1')" in str(error)
    state = load(tmp_path, 'invariants = false\n[zones]\n"hand@0" = ["c3"]\n"hand@1" = ["c3"]\n')
    assert state.data["z"]["hand@1"] == ["c3"]


def uncounted_pack(tmp_path: Path) -> Path:
    """The pack without its invariants: nothing in it counts the cards or the goods."""
    pack = tmp_path / "uncounted"
    pack.mkdir()
    (pack / "pack.toml").write_text((PACK / "pack.toml").read_text())
    game = (PACK / "game.toml").read_text()
    (pack / "game.toml").write_text(game.split("[invariants.cards_conserved]")[0] + "[scoring]\nscore = \"0\"\n")
    return pack


def test_pieces_left_in_no_zone_are_an_error_whatever_the_invariants_count(tmp_path: Path) -> None:
    """Refused only when one of the pack's invariants counted the piece: a deck written short by mistake, in a
    pack that counts nothing, lost its other cards without a word."""
    pack = uncounted_pack(tmp_path)
    path = tmp_path / "scenario.toml"
    path.write_text('players = 2\n[flow]\nactive = 0\n[zones]\ndeck = ["c3"]\n')
    with pytest.raises(PackError) as caught:
        ruleskit.scenario(str(path), str(pack))
    error = caught.value
    assert error.file == str(path) and error.line == 5
    assert "leaves 3 pieces setup made in no zone (zone 'deck' loses 1 'c4', which the scenario puts in no " \
        "other zone;" in str(error) and "a game moves pieces, never loses them" in str(error)
    assert "invariants = false" in (error.hint or "")
    path.write_text('players = 2\n[zones]\nsupply = { wood = 1 }\n')  # a pool's count lowered, no pool to take them
    with pytest.raises(PackError, match="leaves 2 pieces setup made in no zone .zone 'supply' loses 2 'wood'"):
        ruleskit.scenario(str(path), str(pack))


def test_a_position_short_on_purpose_says_so_with_invariants_false(tmp_path: Path) -> None:
    path = tmp_path / "scenario.toml"
    path.write_text('invariants = false  # the deck written short fixes the next draw\nplayers = 2\n'
                    '[zones]\ndeck = ["c3"]\n')
    state = ruleskit.scenario(str(path), str(uncounted_pack(tmp_path)))
    assert state.data["z"]["deck"] == ["c3"]


def test_pieces_balanced_or_given_back_are_not_lost(tmp_path: Path) -> None:
    pack = uncounted_pack(tmp_path)
    path = tmp_path / "scenario.toml"
    path.write_text('players = 2\n[zones]\n"hand@0" = ["c5"]\n"cargo@0" = { wood = 2 }\n')
    state = ruleskit.scenario(str(path), str(pack))  # c1 takes c5's place in the deck; the wood leaves the supply
    assert state.data["z"]["deck"] == ["c3", "c4", "c1", "c6"] and state.data["z"]["supply"]["wood"] == 1


def test_an_empty_pool_table_leaves_the_pool_to_setup(tmp_path: Path) -> None:
    state = load(tmp_path, '[zones]\nsupply = {}\n"cargo@0" = { wood = 2 }\n')
    assert state.data["z"]["supply"] == {"wood": 1, "stone": 3}


def test_an_unlimited_pool_gives_and_takes_without_counting(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.toml").write_text((PACK / "pack.toml").read_text())
    game = (PACK / "game.toml").read_text().replace('start = { wood = 3, stone = 3 }', 'unlimited = true\n'
                                                    'start = { wood = 1 }')
    (pack / "game.toml").write_text(game.split("[invariants.goods_conserved]")[0] + "[scoring]\nscore = \"0\"\n")
    path = tmp_path / "scenario.toml"
    path.write_text('players = 2\n[zones]\n"cargo@0" = { wood = 1, stone = 2 }\n')
    state = ruleskit.scenario(str(path), str(pack))
    assert state.data["z"]["supply"] == {"wood": 1, "stone": 0}  # as taking from it in play leaves it
    assert state.data["z"]["cargo@0"] == {"wood": 1, "stone": 2}



def test_pieces_come_from_the_supply_before_an_unlimited_reserve(tmp_path: Path) -> None:
    """A game with an endless reserve beside its supply (extra pieces come from it) takes a scenario's pieces
    from the supply, where setup put them: taken from the reserve, the supply kept them too and a pack that
    counts its pieces saw them twice."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.toml").write_text((PACK / "pack.toml").read_text())
    game = (PACK / "game.toml").read_text().replace(
        "[zones.cargo]", '[zones.reserve]\ntype = "pool"\nof = "good"\nunlimited = true\n\n[zones.cargo]')
    (pack / "game.toml").write_text(game)
    path = tmp_path / "scenario.toml"
    path.write_text('players = 2\n[zones]\n"cargo@0" = { wood = 2 }\n')
    state = ruleskit.scenario(str(path), str(pack))  # the pack's invariant counts the supply and the cargo
    assert state.data["z"]["supply"]["wood"] == 1 and state.data["z"]["cargo@0"]["wood"] == 2


def _reference(model: object, before: dict, zones: dict, written: dict) -> list[str]:
    """balance_zones as first written, a scan of the source zone for each piece, for pools and stacks."""
    from collections import Counter

    from ruleskit.scenariozones import held

    def pieces(content: object) -> set:
        if isinstance(content, dict):
            return {item for item, count in content.items() if count}
        return {piece for piece in content if piece is not None}  # type: ignore[attr-defined]

    hole = object()
    change: Counter[str] = Counter()
    gainer: dict = {}
    loser: dict = {}
    for key, listed in written.items():
        for item in sorted(pieces(before[key]) | pieces(zones[key]) if listed is None else listed):
            delta = held(zones[key], item) - held(before[key], item)
            change[item] += delta
            if delta:
                (gainer if delta > 0 else loser).setdefault(item, key)

    def others(item: str) -> list:
        return [key for key in zones if key not in written or item not in (written[key] or (item,))]

    vacated: dict = {}
    notes = []
    for item, delta in change.items():
        if delta <= 0:
            continue
        sources = sorted((key for key in others(item) if held(before[key], item)), key=lambda k: -held(before[k], item))
        if not sources:
            notes.append(f"{gainer[item]} gains {item}")
            continue
        content = zones[sources[0]]
        if held(content, item) < delta:
            notes.append(f"{gainer[item]} gains {item}")
        elif isinstance(content, dict):
            content[item] -= delta
        else:
            for _ in range(delta):
                index = content.index(item)
                content[index] = hole
                vacated.setdefault(gainer[item], []).append((sources[0], index))
    for item, delta in change.items():
        if delta >= 0:
            continue
        zone = loser[item]
        for _ in range(-delta):
            places = vacated.get(zone, [])
            pools = [key for key in others(item) if isinstance(zones[key], dict) and held(before[key], item)]
            if places:
                place = places.pop(0)
                zones[place[0]][place[1]] = item
            elif len(pools) == 1:
                zones[pools[0]][item] += 1
            else:
                notes.append(f"{zone} loses {item}")
                break
    for key in {source for places in vacated.values() for source, _ in places}:
        zones[key] = [piece for piece in zones[key] if piece is not hole]
    return notes


def test_balancing_gives_what_scanning_each_zone_for_each_piece_gave() -> None:
    """Balancing indexes each source zone once (a hand written with half of a 100,000-piece deck took minutes);
    on many positions with repeated pieces it gives the same zones and notes as the first, scanning, way."""
    import random

    from ruleskit.runtime.data import copy_data
    from ruleskit.scenariozones import balance_zones

    model = ruleskit.load(str(PACK)).model
    cards, goods = ["c1", "c2", "c3", "c4", "c5", "c6"], ["wood", "stone"]
    rng = random.Random(7)
    for _ in range(400):
        before = {key: [rng.choice(cards) for _ in range(rng.randrange(8))] for key in ("deck", "hand@0", "hand@1")}
        before.update({key: {good: rng.randrange(4) for good in goods} for key in ("supply", "cargo@0", "cargo@1")})
        zones = copy_data(before)
        written: dict = {}
        for key in rng.sample(sorted(before), rng.randrange(1, 4)):
            if isinstance(before[key], dict):
                listed = rng.sample(goods, rng.randrange(1, 3))
                zones[key].update({good: rng.randrange(4) for good in listed})
                written[key] = set(listed)
            else:
                zones[key] = [rng.choice(cards) for _ in range(rng.randrange(8))]
                written[key] = None
        expected = copy_data(zones)
        expected_notes = _reference(model, before, expected, written)
        notes = balance_zones(model, before, zones, written)
        assert zones == expected
        words = [note.text.split() for note in notes]  # zone 'Z' gains|loses N 'ITEM', ...
        assert [f"{w[1]} {w[2]} {w[4]}".replace("'", "").rstrip(",") for w in words] == expected_notes
