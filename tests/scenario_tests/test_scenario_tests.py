"""Scenario tests inside a pack, on the dice-race toy pack: expectations, failures at their line, the runners.

The toy pack's rules (tests/packs/dice_race): a roll moves lesser(3, roll) steps, +1 for the first player
(a `modify` hook); each step scores the space's points; a wall costs 1 wall token, once a turn; the game
ends when a pawn reaches the goal.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ruleskit
from ruleskit.cli import main
from ruleskit.testing.scenario_tests import ScenarioTester, run_pack_tests, scenario_test_files

ROOT = Path(__file__).resolve().parents[2]
DICE_RACE = ROOT / "tests" / "packs" / "dice_race"
VARIANT = ROOT / "tests" / "packs" / "dice_race_variant"

# The rulebook's "luck" rule, one roll at a time.
LUCKY = """\
description = "The first player is lucky: +1 to every roll; a roll moves at most 3 steps."
players = 2
then = ["roll"]

[flow]
active = 0
stage = "roll"

[rolls]
d6 = [1, 6]

[expect]
checks = ["steps == 2"]
stage = "walk"
legal = ["step:a", "step:b", "stop"]
refused = ["roll"]

[[step]]
do = ["step:a"]
checks = ["players[0].score == 1", "pawn_0.at == a", "steps == 1"]

[[step]]
do = ["step:c"]
checks = ["players[0].score == 3", "pawn_0.at == c"]
to_decide = 1
stage = "roll"

[[step]]
do = ["roll"]
checks = ["steps == 3"]   # 6, capped at 3
rolled = [1, 6]
"""

WALLS = """\
description = "A wall costs a wall token and is built at most once a turn."
pack = "dice-race"
players = 2

[players_vars.0]
walls = 2

[flow]
active = 0
stage = "roll"

[expect]
legal = ["wall:*"]
checks = ["me.walls == 2"]

[[step]]
name = "walled"
do = ["wall:a,c"]
checks = ["blocked(a, c)", "players[0].walls == 1"]
refused = [
    { action = "wall:b,d", message = "limited to 1 a turn" },
    "wall:*",
]

[[step]]
from = "start"
do = ["wall:b,d"]
checks = ["blocked(b, d) and not blocked(a, c)"]
"""

GOAL = """\
description = "Reaching the goal ends the game; the score is the points walked."
players = 2
then = ["roll", "step:goal"]

[players_vars.0]
score = 3

[items.pawn_0]
at = "c"

[flow]
active = 0
stage = "roll"

[rolls]
d6 = [1]

[expect]
finished = true
reason = "a pawn reached the goal"
scores = [8, 0]
winners = [0]
legal_exactly = []
"""


def make_pack(tmp_path: Path, tests: dict[str, str], source: Path = DICE_RACE) -> Path:
    pack = tmp_path / source.name
    shutil.copytree(source, pack)
    (pack / "tests").mkdir()
    for name, text in tests.items():
        (pack / "tests" / name).write_text(text, encoding="utf-8")
    return pack


def plant(pack: Path, old: str, new: str, file: str = "rules.rk") -> None:
    path = pack / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


def run_one(pack: Path, name: str, text: str) -> list[str]:
    path = pack / "tests" / name
    path.write_text(text, encoding="utf-8")
    result = ScenarioTester(ruleskit.load(pack)).run_file(path)
    return [str(p) for p in result.problems]


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    return make_pack(tmp_path, {"lucky.toml": LUCKY, "walls.toml": WALLS, "goal.toml": GOAL})


# ------------------------------------------------------------------ the rules hold

def test_the_toy_packs_scenario_tests_pass(pack: Path) -> None:
    report = run_pack_tests(pack)
    assert report.ok, report.problems
    assert [Path(f.path).name for f in report.files] == ["goal.toml", "lucky.toml", "walls.toml"]
    assert report.checks >= 25
    assert "3 scenario test files" in report.summary() and report.summary().endswith(": ok")


# ------------------------------------------------------------------ planted bugs

def test_a_planted_rule_bug_is_caught_at_the_line_of_the_check(pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plant(pack, "= base + 1", "= base + 2")  # the lucky player gets +2
    assert main(["test", str(pack), "--games", "2", "--players", "2", "--max-decisions", "20", "-q"]) == 1
    out, err = capsys.readouterr()
    line = line_of(LUCKY, '"steps == 2"')
    assert f"lucky.toml:{line}: failed: check `steps == 2` is false: steps is 3" in err
    # The random games pass: the pack's invariant (steps stay within 0..4) cannot see the bug.
    assert "2 games" in out and out.rstrip().endswith(": ok")
    assert "FAILED (1 of 3 files)" in out


def test_a_planted_cost_bug_is_caught_by_a_check_after_a_step(pack: Path) -> None:
    plant(pack, "cost = { walls = 1 }", "cost = { walls = 0 }", "game.toml")
    report = run_pack_tests(pack)
    assert not report.ok
    [problem] = report.problems
    assert problem.file.endswith("walls.toml") and problem.line == line_of(WALLS, '"blocked(a, c)"')
    assert "players[0].walls is 2" in problem.message


def test_a_planted_limit_bug_is_caught_by_a_refusal(pack: Path) -> None:
    plant(pack, "limit = { turn = 1 }", "limit = { turn = 2 }", "game.toml")
    problems = [str(p) for p in run_pack_tests(pack).problems]
    line = line_of(WALLS, '"wall:b,d"')
    assert any(f"walls.toml:{line}: failed: 'wall:b,d' should be refused, but wall:b,d is offered" in p
               for p in problems), problems


def test_a_planted_scoring_bug_is_caught_by_the_result(pack: Path) -> None:
    plant(pack, "p.score += to.points", "p.score += 1")
    problems = [str(p) for p in run_pack_tests(pack).problems]
    assert any(f"goal.toml:{line_of(GOAL, 'scores')}: failed: the scores is [4, 0], not [8, 0]" in p
               for p in problems), problems


def test_the_scenarios_can_be_skipped_or_run_alone(pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plant(pack, "= base + 1", "= base + 2")
    assert main(["test", str(pack), "--scenarios-only"]) == 1
    out, _ = capsys.readouterr()
    assert "games" not in out.replace("scenario test files", "")
    assert main(["test", str(pack), "--no-scenarios", "--games", "1", "--players", "2", "--max-decisions", "5",
                 "-q"]) == 0
    out, err = capsys.readouterr()
    assert "scenario" not in out + err
    assert main(["test", str(pack), "--scenarios-only", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["scenarios"]["files"] == 3
    assert any("lucky.toml" in p for p in data["scenarios"]["problems"])


# ------------------------------------------------------------------ each expectation reports what it saw

@pytest.mark.parametrize("expectation, message", [
    ('stage = "roll"', "the stage is 'walk', not 'roll'"),
    ("to_decide = 1", "the players to decide is [0], not [1]"),
    ('prompt = "Pick one"', "the question asked is '', not 'Pick one'"),
    ("finished = true", "the game is not over"),
    ("scores = [1, 2]", "the game is not over, so it has no scores"),
    ('legal = ["step:goal", "step:*", "wall:*"]', "not offered: step:goal, wall:*; offered: step:a, step:b, stop"),
    # prefixes that sort between the offered ids, or after them all, match none
    ('legal = ["step:c*", "s*", "stopp*", "st*"]', "not offered: step:c*, stopp*; offered: step:a, step:b, stop"),
    ('legal_exactly = ["stop", "step:c"]', "not offered: step:c; also offered: step:a, step:b"),
    ('refused = ["stop"]', "'stop' should be refused, but stop is offered"),
    ('refused = [{ action = "roll", message = "cost" }]',
     "'roll' is refused, but because 'roll' is not an action of stage 'walk', not 'cost'"),
    ("rolled = [2]", "the dice rolled since the position was set is [1], not [2]"),
    ('checks = ["count(players[0].pawn.at.points) == 1"]', "could not be evaluated"),
    ('checks = ["pawn_0.at == goal and steps == 2"]', "is false: pawn_0.at is start"),
    ('checks = ["steps"]', "check `steps` is 2"),
    # A check runs under the rule language's step budget.
    ('checks = ["count([count([y for y in range(9000)]) for x in range(9000)]) == 0"]', "step budget of"),
])
def test_each_failed_expectation_is_reported_at_its_line(pack: Path, expectation: str, message: str) -> None:
    text = LUCKY.partition("[expect]")[0] + f"[expect]\n{expectation}\n"
    problems = run_one(pack, "lucky.toml", text)
    line = line_of(text, "[expect]") + 1
    assert len(problems) == 1 and f"lucky.toml:{line}: failed: " in problems[0] and message in problems[0], problems


def test_a_decision_is_reported_at_its_line_after_a_line_separator(pack: Path) -> None:
    # A decision's line was found among lines counted by `str.splitlines`, which also breaks at U+2028 (allowed
    # in a TOML comment): the failure was said to be on a line below its own.
    text = LUCKY.replace('then = ["roll"]', 'then = ["roll"]  # one\u2028two') + \
        '\n[[step]]\nfrom = "then"\ndo = [\n    "step:a",\n    "step:goal",\n]\nchecks = ["steps == 1"]\n'
    problems = run_one(pack, "lucky.toml", text)
    line = text.split("\n").index('    "step:goal",') + 1
    assert len(problems) == 1 and f"lucky.toml:{line}: " in problems[0], problems


def test_many_legal_patterns_each_match(pack: Path) -> None:
    """Each pattern is looked up, not compared with every offered id (60,000 of them took 137 s against 9,999
    actions): ids and prefixes of every offered action, each many times, all match."""
    patterns = ["step:a", "step:b", "stop", "step:*", "st*", "s*", "stop*", "step:a*", "*"] * 5000
    listed = ",\n".join(f'"{p}"' for p in patterns)
    text = LUCKY.partition("[expect]")[0] + f"[expect]\nlegal = [\n{listed}\n]\n"
    assert run_one(pack, "lucky.toml", text) == []


def test_a_failed_step_stops_its_line_but_not_a_branch(pack: Path) -> None:
    text = WALLS.replace('checks = ["blocked(a, c)", "players[0].walls == 1"]', 'checks = ["not blocked(a, c)"]')
    text = text.replace('checks = ["blocked(b, d) and not blocked(a, c)"]', 'checks = ["blocked(a, c)"]')
    problems = run_one(pack, "walls.toml", text)
    assert len(problems) == 2
    assert "`not blocked(a, c)` is false" in problems[0] and "`blocked(a, c)` is false" in problems[1]


# ------------------------------------------------------------------ bad files: located errors

@pytest.mark.parametrize("change, needle, message", [
    (("[expect]\n", "[expect]\nchekcs = []\n"), "chekcs", "unknown expectation 'chekcs' (did you mean 'checks'?)"),
    (('checks = ["steps == 2"]', 'checks = ["stpes == 2"]'), "stpes", "unknown name 'stpes'"),
    (('checks = ["steps == 2"]', 'checks = ["pawn_0.att == a"]'), "pawn_0.att", "has no field 'att'"),
    (('do = ["step:a"]', 'do = ["step:goal"]'), "step:goal", "decision 1 ('step:goal'): 'step:goal' is not a legal"),
    (('do = ["step:a"]', 'do = [3]'), "do = [3]", "a decision is an action id"),
    (("[[step]]\ndo = [\"step:a\"]", "[[step]]\nfrom = \"walled\"\ndo = [\"step:a\"]"), "from =",
     "'from' names the start, the position after 'then' or an earlier step"),
    (("players = 2", 'pack = "ophir"\nplayers = 2'), "pack =", "this test is for pack 'ophir'"),
    (('stage = "walk"', 'stage = "wlak"'), "wlak", "unknown stage 'wlak' (did you mean 'walk'?)"),
    (('refused = ["roll"]', "refused = [3]"), "refused = [3]", "a refused action is an id or"),
    # A misspelt refused action would be refused anyway: it is an error, not a pass.
    (('refused = ["roll"]', 'refused = ["rolll"]'), "rolll", "the pack has no action 'rolll' (did you mean 'roll'?)"),
    (('refused = ["roll"]', 'refused = ["wal:*"]'), "wal:*", "the pack has no action 'wal'"),
    (('refused = ["roll"]', 'refused = ["stpe:goal"]'), "stpe:goal",
     "the pack has no action 'stpe' (did you mean 'step'?)"),
    # A name the pack has, with a value its parameter can never take, or the wrong number of values.
    (('refused = ["roll"]', 'refused = ["step:goall"]'), "step:goall",
     "'goall' is never a value of action 'step' parameter 'to' (a space: start, a, b, c, d, goal) "
     "(did you mean 'goal'?)"),
    (('refused = ["roll"]', 'refused = [{ action = "step:gaol", message = "x" }]'), "step:gaol",
     "'gaol' is never a value of action 'step' parameter 'to'"),
    (('refused = ["roll"]', 'refused = ["step:a,b"]'), "step:a,b",
     "'step:a,b' gives 2 values, but action 'step' takes 1: 'step:TO'"),
    (('refused = ["roll"]', 'refused = ["step"]'), '"step"', "'step' gives no values, but action 'step' takes 1"),
    (('refused = ["roll"]', 'refused = ["wall:a"]'), "wall:a", "'wall:a' gives 1 value, but action 'wall' takes 2"),
    (('refused = ["roll"]', 'refused = ["roll:3"]'), "roll:3", "action 'roll' takes no values, so its id is 'roll'"),
])
def test_mistakes_in_a_test_file_are_located(pack: Path, change: tuple[str, str], needle: str, message: str) -> None:
    text = LUCKY.replace(*change)
    assert text != LUCKY
    problems = run_one(pack, "lucky.toml", text)
    assert len(problems) == 1 and f"lucky.toml:{line_of(text, needle)}: " in problems[0], problems
    assert message in problems[0], problems


@pytest.mark.parametrize("refused", ["step:goal", "step:start", "step:none", "wall:a,zz", "step:g*", "wall:q*"])
def test_a_refused_id_legal_in_another_position_is_accepted(pack: Path, refused: str) -> None:
    """Only ids no position could offer are mistakes: the goal two steps away, a value of a parameter whose
    values only a position tells (`wall`'s), a pattern."""
    text = LUCKY.replace('refused = ["roll"]', f'refused = ["{refused}"]')
    assert run_one(pack, "lucky.toml", text) == []


SEATS = {"pack.toml": 'name = "seats"\nversion = "1.0"\nplayers = { min = 2, max = 3 }\nfiles = ["game.toml"]\n',
         "game.toml": '[stages.go]\n\n[phases.main]\nstage = "go"\n\n[flow]\nstart = "main"\n\n'
                      '[actions.poke]\nstage = "go"\nparams = { p = "[p for p in players if p != me]" }\n'
                      'effect = "end turn"\n\n[scoring]\nscore = "0"\n'}


@pytest.mark.parametrize("players, refused, problem", [
    (2, "poke:0", None),  # poking oneself: refused now, offered to the next player
    (2, "poke:2", "'2' is never a value of action 'poke' parameter 'p' (a player: 0, 1)"),
    (3, "poke:2", "'poke:2' should be refused, but poke:2 is offered"),
    (2, "poke:-1", "'-1' is never a value of action 'poke' parameter 'p'"),
])
def test_a_seat_past_the_players_is_a_mistake(tmp_path: Path, players: int, refused: str, problem: str | None) -> None:
    pack = tmp_path / "seats"
    (pack / "tests").mkdir(parents=True)
    for name, text in SEATS.items():
        (pack / name).write_text(text, encoding="utf-8")
    problems = run_one(pack, "poke.toml", f'players = {players}\n\n[expect]\nrefused = ["{refused}"]\n')
    if problem is None:
        assert problems == []
    else:
        assert len(problems) == 1 and problems[0].startswith(f"{pack / 'tests' / 'poke.toml'}:4: failed: {problem}")


def test_a_test_without_expectations_is_refused(pack: Path) -> None:
    problems = run_one(pack, "empty.toml", 'players = 2\nthen = ["roll"]\n')
    assert len(problems) == 1 and "states what to expect" in problems[0]


@pytest.mark.parametrize("expectations", ["[[step]]\n", "[[step]]\ndo = [\"roll\"]\n[[step]]\n",
                                          "[expect]\nlegal = []\nchecks = []\n"])
def test_a_test_whose_expectations_are_all_empty_is_refused(pack: Path, expectations: str) -> None:
    """An empty `[[step]]` table, or empty lists, checked nothing and the file counted as passed."""
    text = 'players = 2\n' + expectations
    problems = run_one(pack, "empty.toml", text)
    assert problems == [f"{pack / 'tests' / 'empty.toml'}:2: failed: this test checks nothing: its expectations "
                        "are all missing or empty; add a check, or an action that must be legal or refused"]


def test_a_test_file_is_still_an_ordinary_scenario(pack: Path) -> None:
    state = ruleskit.scenario(str(pack / "tests" / "lucky.toml"), str(pack))
    assert state.stage == "walk" and state.data["v"]["steps"] == 2  # the position after `then`


def test_a_test_files_simultaneous_picks_load_as_a_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The bids template's own test takes its `then` as `{ action, player }` picks: the test ran, but loading
    the file as a scenario (`play --scenario`) stopped at "'then' should be a list of decision ids"."""
    pack = tmp_path / "bids"
    assert main(["new", str(pack), "--template", "bids"]) == 0
    capsys.readouterr()
    state = ruleskit.scenario(str(pack / "tests" / "tie.toml"), str(pack))
    assert state.stage == "bid" and state.players_to_decide() == [0, 1]
    (pack / "tests" / "bad.toml").write_text('then = [{ action = "play:five", player = "red" }]\n', encoding="utf-8")
    with pytest.raises(ruleskit.RulesError, match="bad.toml:1: error: decision 1: a decision's player is a seat"):
        ruleskit.scenario(str(pack / "tests" / "bad.toml"), str(pack))


# ------------------------------------------------------------------ finding the tests

def test_links_in_the_tests_folder_are_not_followed(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, {"lucky.toml": LUCKY})
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "elsewhere.toml").write_text(GOAL, encoding="utf-8")
    try:
        (pack / "tests" / "linked.toml").symlink_to(outside / "elsewhere.toml")
        (pack / "tests" / "linked_dir").symlink_to(outside, target_is_directory=True)
    except OSError:
        pytest.skip("no symbolic links here")
    (pack / "tests" / "more").mkdir()
    (pack / "tests" / "more" / "goal.toml").write_text(GOAL, encoding="utf-8")
    assert [p.relative_to(pack).as_posix() for p in scenario_test_files(pack)] == ["tests/lucky.toml",
                                                                                  "tests/more/goal.toml"]


def test_a_variant_runs_its_own_tests_and_its_bases_on_request(tmp_path: Path) -> None:
    base = make_pack(tmp_path, {"lucky.toml": LUCKY})
    variant_tests = {"last_seat_lucky.toml": (
        'description = "In the variant the last seat is lucky, with +2."\nplayers = 2\nthen = ["roll"]\n'
        '[flow]\nactive = 1\nstage = "roll"\n[rolls]\nd6 = [1]\n[expect]\nchecks = ["steps == 3"]\nto_decide = 1\n')}
    variant = make_pack(tmp_path, variant_tests, VARIANT)
    assert (variant / "pack.toml").read_text().count('extends = "../dice_race"') == 1 and base.parent == variant.parent
    own = run_pack_tests(variant)
    assert own.ok, own.problems
    assert [Path(f.path).name for f in own.files] == ["last_seat_lucky.toml"]
    with_base = run_pack_tests(variant, with_bases=True)
    assert len(with_base.files) == 2 and not with_base.ok
    # The base's luck rule is what the variant changed: its test fails, at its line, against the variant.
    [problem] = with_base.problems
    assert problem.file.endswith("dice_race/tests/lucky.toml") and problem.line == line_of(LUCKY, '"steps == 2"')
    assert "steps is 1" in problem.message


# ------------------------------------------------------------------ pytest and the wheel

def test_pytest_collects_each_test_file_of_a_pack(pack: Path) -> None:
    plant(pack, "= base + 1", "= base + 2")
    done = subprocess.run([sys.executable, "-m", "pytest", str(pack), "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(pack)], capture_output=True, text=True, cwd=pack, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed, 2 passed" in done.stdout
    line = line_of(LUCKY, '"steps == 2"')
    assert f"lucky.toml:{line}: failed: check `steps == 2` is false" in done.stdout


def run_pytest(target: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", str(target), "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(target)], capture_output=True, text=True, cwd=target, timeout=300)


def test_pytest_follows_no_link_out_of_a_packs_tests(tmp_path: Path) -> None:
    """A linked test file, or a linked tests folder, ran another pack's tests as this pack's (`ruleskit test`
    follows no link); now pytest collects only the pack's own files."""
    other = make_pack(tmp_path / "other", {"goal.toml": GOAL})
    pack = make_pack(tmp_path, {"lucky.toml": LUCKY})
    bare = tmp_path / "bare"
    shutil.copytree(DICE_RACE, bare)
    try:
        (pack / "tests" / "linked.toml").symlink_to(other / "tests" / "goal.toml")
        (bare / "tests").symlink_to(other / "tests", target_is_directory=True)
    except OSError:
        pytest.skip("no symbolic links here")
    done = run_pytest(pack)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
    done = run_pytest(bare)
    assert "no tests ran" in done.stdout, done.stdout + done.stderr


def test_pytest_names_the_line_of_a_pack_that_does_not_load(pack: Path) -> None:
    """A pack with a syntax error showed each of its tests failing with a traceback of ruleskit's parser."""
    plant(pack, "rule roll_value(p, r) = r", "rule roll_value(p, r) = (r")
    done = run_pytest(pack)
    assert done.returncode == 1 and "3 failed" in done.stdout, done.stdout + done.stderr
    assert "the pack does not load: rules.rk:4:1: error: unexpected" in done.stdout  # the unclosed bracket
    assert "Traceback" not in done.stdout and "parser.py" not in done.stdout


def test_built_in_packs_carry_their_tests_in_the_wheel_layout(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(ROOT / "ruleskit", site / "ruleskit", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "games", site / "ruleskit" / "_data" / "games")
    shutil.copytree(ROOT / "grammar", site / "ruleskit" / "_data" / "grammar")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = "from ruleskit.cli import main; raise SystemExit(main(['test', 'connect_four', '--scenarios-only']))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=elsewhere,
                          env={**os.environ, "PYTHONPATH": str(site)}, timeout=300)
    assert done.returncode == 0, done.stderr
    count = len(scenario_test_files(ROOT / "games" / "connect_four"))
    assert f"connect_four: {count} scenario test files" in done.stdout and done.stdout.rstrip().endswith(": ok")


def test_the_broken_ophir_example_fails_the_base_packs_scenario_tests(capsys: pytest.CaptureFixture[str]) -> None:
    # examples/broken-ophir throws discarded goods overboard instead of back to the supply: Ophir's own
    # rulebook tests, run against it with --base-tests, name the expectation that the bug breaks.
    assert main(["test", str(ROOT / "examples" / "broken-ophir"), "--scenarios-only", "--base-tests"]) == 1
    _, err = capsys.readouterr()
    text = (ROOT / "games" / "ophir" / "tests" / "acquire_full_cargo.toml").read_text(encoding="utf-8")
    line = line_of(text, "count(supply, wood) == 5")
    assert (f"games/ophir/tests/acquire_full_cargo.toml:{line}: failed: check `count(supply, wood) == 5 and "
            "count(supply, stone) == 4` is false: count(supply, wood) is 4") in err
    assert main(["test", str(ROOT / "examples" / "broken-ophir"), "--scenarios-only"]) == 0  # it has no tests of its own
    assert "broken-ophir: no scenario tests" in capsys.readouterr().out


def test_legal_exactly_shows_a_dozen_of_the_ids_that_differ(pack: Path) -> None:
    """Every id that differed was printed (a list of 68,000 made a message of 700 KB, after 10 s of comparing
    each id with each offered one)."""
    head = LUCKY.partition("[expect]")[0]
    many = ",\n".join(f'"step:z{i}"' for i in range(2000))
    [problem] = run_one(pack, "lucky.toml", head + f"[expect]\nlegal_exactly = [\n{many}\n]\n")
    assert "not offered: step:z0, step:z1," in problem and "step:z11 ...; also offered: step:a, step:b, stop" in problem
    assert "step:z12" not in problem


def test_refusals_are_checked_once_each_and_at_most_a_thousand_a_file(pack: Path) -> None:
    """Each refusal is tried on a copy and the whole state compared after it: an entry repeated 6,000 times is
    checked once, and a file checking more than 1,000 different ones (110,000 took 20 minutes) is refused."""
    head = LUCKY.partition("[expect]")[0]
    repeated = ",\n".join(['"roll"'] * 6000)
    assert run_one(pack, "lucky.toml", head + f"[expect]\nrefused = [\n{repeated}\n]\n") == []
    many = ",\n".join(f'"wall:z{i},a"' for i in range(1001))  # values only a position tells
    problems = run_one(pack, "lucky.toml", head + f"[expect]\nrefused = [\n{many}\n]\n")
    assert len(problems) == 1 and "checks at most 1000 refusals" in problems[0]
    assert "lucky.toml:" in problems[0]
