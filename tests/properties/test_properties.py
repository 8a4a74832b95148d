"""`ensure`, `old(...)` and `[properties]`: checked by `ruleskit test`, skipped in normal play.

A toy shop pack: players earn a coin or buy a gem for 2 coins. Its planted bug (a gem
costs 1 coin) breaks no invariant (coins stay >= 0), so only a transition property can see it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import LanguageError, PackError, PropertyFailure
from ruleskit.testing import check_pack

PACK = """name = "shop"
version = "1.0"
players = { min = 2, max = 2 }
files = ["shop.toml", "shop.rk"%s]
"""

SHOP = """
[counters.coins]
owner = "player"
start = 3
min = 0

[counters.gems]
owner = "player"
min = 0

[stages.main]
[phases.play]
stage = "main"
first = "0"

[flow]
start = "play"
max_turns = 60

[actions.earn]
stage = "main"
effect = "earn(me)\\nend turn"

[actions.buy]
stage = "main"
when = "me.coins >= 2"
effect = "buy_gem(me)\\nend turn"

[end.time]
when = "turn_number > 12"
reason = "time"

[scoring]
score = "p.gems"

[invariants.no_debt]
check = "all([p.coins >= 0 for p in players])"
"""

RULES = """proc buy_gem(p) {
    p.coins -= %s
    p.gems += 1
}

proc earn(p) {
    p.coins += 1
}

hook bonus on turn_start(p) when p.index == 1 {
    p.coins += %s
}
"""

PROPERTIES = """[properties.gem_costs_two]
after = "buy"
check = "me.coins == old(me.coins) - 2 and me.gems == old(me.gems) + 1"
message = "a gem costs 2 coins"
"""


def make(tmp_path: Path, *, cost: int = 2, bonus: int = 1, properties: str | None = None,
         rules: str | None = None, name: str = "shop") -> Path:
    pack = tmp_path / name
    pack.mkdir()
    extra = ', "properties.toml"' if properties is not None else ""
    (pack / "pack.toml").write_text(PACK % extra)
    (pack / "shop.toml").write_text(SHOP)
    (pack / "shop.rk").write_text(rules if rules is not None else RULES % (cost, bonus))
    if properties is not None:
        (pack / "properties.toml").write_text(properties)
    return pack


def test_a_planted_bug_only_a_transition_property_catches(tmp_path: Path) -> None:
    without = check_pack(make(tmp_path, cost=1, name="plain"), games=10, players=[2], shrink=False)
    assert without.ok, "no invariant can see a gem sold for 1 coin"
    report = check_pack(make(tmp_path, cost=1, properties=PROPERTIES), games=10, players=[2], shrink=False)
    failure = report.failure
    assert failure is not None
    assert failure.name == "property gem_costs_two"
    assert "a gem costs 2 coins" in failure.detail
    assert "me.coins = " in failure.detail and "old(me.coins) - 2 = " in failure.detail
    assert failure.source is not None and failure.source.endswith("properties.toml:3")


def test_the_correct_pack_keeps_its_properties(tmp_path: Path) -> None:
    report = check_pack(make(tmp_path, properties=PROPERTIES), games=6, players=[2], shrink=False)
    assert report.ok, report.failure.describe() if report.failure else report.problems


def test_an_inline_ensure_is_reported_where_it_is_written(tmp_path: Path) -> None:
    rules = """proc buy_gem(p) {
    p.coins -= 1
    p.gems += 1
    ensure p.coins == old(p.coins) - 2, "a gem costs 2 coins"
}

proc earn(p) {
    p.coins += 1
}
"""
    report = check_pack(make(tmp_path, rules=rules), games=10, players=[2], shrink=False)
    assert report.failure is not None and report.failure.name == "ensure"
    assert report.failure.source is not None and report.failure.source.endswith("shop.rk:4")
    assert "p.coins = 2" in report.failure.detail or "p.coins = " in report.failure.detail


def buy_state(game: ruleskit.Game) -> ruleskit.State:
    state = game.new_game(players=2, seed=3)
    assert state.current_player == 0
    return state


def test_normal_play_skips_the_checks(tmp_path: Path) -> None:
    game = ruleskit.load(make(tmp_path, cost=1, properties=PROPERTIES))
    state = buy_state(game)
    state.apply("buy")  # the bug goes unseen in play, simulations and bots
    assert state.raw["pv"][0]["coins"] == 2
    checking = ruleskit.load(make(tmp_path, cost=1, properties=PROPERTIES, name="again"), check_properties=True)
    with pytest.raises(PropertyFailure, match="gem_costs_two"):
        buy_state(checking).apply("buy")
    with pytest.raises(PropertyFailure):
        buy_state(game.with_property_checks()).apply("buy")


def test_both_backends_report_the_same_failure(tmp_path: Path) -> None:
    pack = make(tmp_path, cost=1, properties=PROPERTIES)
    messages = []
    for backend in ("closures", "compiled"):
        game = ruleskit.load(pack, backend=backend, check_properties=True)
        with pytest.raises(PropertyFailure) as caught:
            buy_state(game).apply("buy")
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


def test_old_reads_the_data_as_each_procedure_began(tmp_path: Path) -> None:
    rules = """proc buy_gem(p) {
    pay(p)
    p.gems += 1
    ensure p.coins == old(p.coins) - 2 and p.gems == old(p.gems) + 1
}

proc pay(p) {
    p.coins -= 1
    ensure p.coins == old(p.coins) - 1
    p.coins -= 1
}

proc earn(p) {
    p.coins += 1
}
"""
    for backend in ("closures", "compiled"):
        game = ruleskit.load(make(tmp_path, rules=rules, name=f"nested_{backend}"), backend=backend,
                             check_properties=True)
        state = buy_state(game)
        state.apply("buy")  # both ensures hold: each old(...) reads its own procedure's start
        assert state.raw["pv"][0]["coins"] == 1


def test_hook_and_procedure_properties(tmp_path: Path) -> None:
    properties = """[properties.bonus_is_one_coin]
after = "hook bonus"
check = "p.coins == old(p.coins) + 1"

[properties.earning]
after = "proc earn"
check = "p.coins == old(p.coins) + 1"
"""
    ok = check_pack(make(tmp_path, properties=properties), games=6, players=[2], shrink=False)
    assert ok.ok, "a hook whose `when` is false is not checked"
    report = check_pack(make(tmp_path, bonus=2, properties=properties, name="bonus2"), games=6, players=[2],
                        shrink=False)
    assert report.failure is not None and report.failure.name == "property bonus_is_one_coin"


def test_a_called_procedure_is_checked_by_both_backends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The effect `earn(me)` calls the procedure: its property is checked whichever backend runs it."""
    wrong = """[properties.earning_two]
after = "proc earn"
check = "p.coins == old(p.coins) + 2"
"""
    for backend in ("closures", "compiled"):
        monkeypatch.setenv("RULESKIT_BACKEND", backend)
        report = check_pack(make(tmp_path, properties=wrong, name=f"earn_{backend}"), games=2, players=[2],
                            shrink=False)
        assert report.failure is not None and report.failure.name == "property earning_two", backend


def test_decision_and_end_properties(tmp_path: Path) -> None:
    holding = """[properties.turns_go_forward]
at = "decision"
check = "turn_number >= old(turn_number) and (over or turn_number <= 13)"

[properties.ends_on_time]
at = "end"
check = "reason == \\"time\\" and count(winners) >= 1 and count(scores) == player_count"
"""
    assert check_pack(make(tmp_path, properties=holding), games=4, players=[2], shrink=False).ok
    failing = """[properties.short_game]
at = "end"
check = "turn_number < 10"
message = "games are short"
"""
    report = check_pack(make(tmp_path, properties=failing, name="long"), games=2, players=[2], shrink=False)
    assert report.failure is not None and report.failure.name == "property short_game"
    assert "reason = \"time\"" in report.failure.detail


@pytest.mark.parametrize(("properties", "rules", "message", "where"), [
    ('[properties.x]\nafter = "buyy"\ncheck = "true"\n', None, "did you mean 'buy'", "properties.toml:1"),
    ('[properties.x]\nafter = "buy"\nat = "end"\ncheck = "true"\n', None, "not both or neither",
     "properties.toml:1"),
    ('[properties.x]\nat = "ending"\ncheck = "true"\n', None, "did you mean 'end'", "properties.toml:1"),
    ('[properties.x]\nafter = "buy"\ncheck = "me.coins"\n', None, "needs a condition", "properties.toml:3"),
    ('[properties.x]\nat = "end"\ncheck = "old(turn_number) > 0"\n', None, "old(...) reads", "properties.toml:3"),
    ('[properties.x]\nafter = "hook nobody"\ncheck = "true"\n', None, "unknown hook", "properties.toml:1"),
    ('[properties.x]\nafter = "proc buy_gen"\ncheck = "true"\n', None, "did you mean 'buy_gem'",
     "properties.toml:1"),
    (None, "rule r(p) = old(p.coins)\nproc buy_gem(p) { p.gems += 1 }\nproc earn(p) { p.coins += 1 }\n",
     "only be used inside an ensure", "shop.rk:1"),
    (None, "rule old(p) = 1\nproc buy_gem(p) { p.gems += 1 }\nproc earn(p) { p.coins += 1 }\n",
     "cannot name a rule", "shop.rk:1"),
    (None, "proc buy_gem(p) {\n  ensure 1 + 1\n}\nproc earn(p) { p.coins += 1 }\n", "needs a condition",
     "shop.rk:2"),
])
def test_mistakes_are_located(tmp_path: Path, properties: str | None, rules: str | None, message: str,
                              where: str) -> None:
    pack = make(tmp_path, properties=properties, rules=rules)
    with pytest.raises(PackError) as caught:
        ruleskit.load(pack)
    assert message in str(caught.value)
    assert where in str(caught.value)


def test_old_needs_an_action_hook_or_procedure(tmp_path: Path) -> None:
    pack = make(tmp_path)
    text = (pack / "shop.toml").read_text().replace('[flow]\nstart = "play"',
                                                   '[flow]\nstart = "play"\nsetup = "ensure old(turn_number) == 0"')
    (pack / "shop.toml").write_text(text)
    with pytest.raises(LanguageError, match="flow setup is none of these"):
        ruleskit.load(pack)


def test_ophir_checked_the_same_by_both_backends() -> None:
    """Checking Ophir's properties changes nothing in a game, and the two backends agree while checking."""
    import random

    games = [ruleskit.load("ophir", backend=b, check_properties=True) for b in ("closures", "compiled")]
    plain = ruleskit.load("ophir")
    states = [g.new_game(players=3, seed=11) for g in games] + [plain.new_game(players=3, seed=11)]
    rnd = random.Random(11)
    for _ in range(120):
        if states[0].is_terminal:
            break
        legal = [[a.id for a in s.legal_actions()] for s in states]
        assert legal[0] == legal[1] == legal[2]
        choice = legal[0][rnd.randrange(len(legal[0]))]
        for state in states:
            state.apply(choice)
        assert states[0].raw == states[1].raw == states[2].raw
