"""`ruleskit play`, driven with scripted input."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from cli_support import DUEL, SHOWN

import ruleskit
from ruleskit.cli import main
from ruleskit.saves import load_saved


def _play(args: list[str], lines: list[str], script, capsys) -> tuple[int, str, list[str]]:  # type: ignore[no-untyped-def]
    prompts = script(lines)
    code = main(["play", *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err, prompts


def test_shows_board_players_and_numbered_actions(script, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, prompts = _play([SHOWN, "--seats", "human,random", "--seed", "0"], ["quit"], script, capsys)
    assert code == 0
    assert "Dice Race: turn 1" in out
    assert "start[♟1 ♟2]" in out            # the board layout from the display hints
    assert "▶ Red (P1)" in out and "Blue (P2)" in out
    assert "1. Roll the die" in out
    assert "Steps left" in out               # a label from the hints
    assert prompts == ["Red (P1)> "]
    assert "Game left unfinished." in out


def test_bad_input_is_answered_not_crashed(script, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _play([SHOWN, "--seats", "human,random", "--seed", "0"], ["bogus", "99", "0", "", "help", "save", "quit"],
                         script, capsys)
    assert code == 0
    assert "Unknown command 'bogus'" in out
    assert "There is no action 99" in out and "There is no action 0" in out
    assert "undo" in out and "save FILE" in out   # the help text
    assert "Say where: save FILE" in out
    assert "Traceback" not in out


def test_undo_stops_at_chance_but_takes_back_plain_moves(script, capsys) -> None:  # type: ignore[no-untyped-def]
    # Roll (a chance outcome), step, undo the step, then try to undo past the roll.
    code, out, _ = _play([SHOWN, "--seats", "human,random", "--seed", "2"],
                         ["1", "1", "undo", "undo", "quit"], script, capsys)
    assert code == 0
    assert out.count("Undone.") == 1
    assert "Cannot undo: a chance outcome" in out


def test_nothing_to_undo_at_the_start(script, capsys) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = _play([SHOWN, "--seats", "human,random", "--seed", "0"], ["undo", "quit"], script, capsys)
    assert "Nothing to undo." in out


@pytest.mark.parametrize("layout", ["full", "compact"])
def test_hot_seat_hands_over_and_hides_the_other_hand(layout: str, script, capsys) -> None:  # type: ignore[no-untyped-def]
    game = ruleskit.load(DUEL)
    state = game.new_game(players=2, seed=4)
    hands = [list(state.data["z"]["hand@0"]), list(state.data["z"]["hand@1"])]
    names = [[game.model.item_data[c]["name"] for c in hand] for hand in hands]
    # Setup asks player 1 who drafts first; answer 1 (player 1), then quit at the next screen.
    code, out, prompts = _play([DUEL, "--seats", "human,human", "--seed", "4", "--layout", layout],
                               ["", "1", "", "quit"], script, capsys)
    assert code == 0
    assert prompts[0] == ""                       # the hand-over prompt comes before anything private
    assert "Pass the screen to Player 1" in out
    first_screen = out.split("Pass the screen to Player 1")[1].split("Player 1: ")[0]
    assert all(name in first_screen for name in names[0])
    assert "2 hidden" in first_screen             # player 2's hand, as player 1 sees it
    players = first_screen.split("Players")[1] if layout == "full" else first_screen.split("to decide")[1]
    assert not any(name in players for name in names[1] if name not in names[0])


def test_a_hand_over_at_a_terminal_clears_the_lines_scrolled_off_the_screen_too() -> None:
    """The screen was cleared at each hand-over, but a terminal keeps what a clear pushes off it: the next
    player scrolled up to the last one's hand."""
    import io

    from rich.console import Console

    from ruleskit.play import PlaySession

    game = ruleskit.load(DUEL)
    screen = io.StringIO()
    answers = iter(["", "1", "", "1", ""])
    session = PlaySession(game, game.new_game(players=2, seed=4), ["human", "human"],
                          Console(file=screen, force_terminal=True, width=100, height=30), ask=lambda _: next(answers, "quit"))
    session.run()  # quits when the answers run out
    cleared = screen.getvalue().split("\x1b[2J")[1:]  # each clear of the screen, then what follows it
    assert len(cleared) >= 2 and all(after.startswith("\x1b[H\x1b[3J") for after in cleared)


def test_save_and_load_continue_the_same_game(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    saved = tmp_path / "game.json"
    _play([SHOWN, "--seats", "human,random", "--seed", "3"], ["1", f"save {saved}", "quit"], script, capsys)
    game, state, seats = load_saved(saved, SHOWN)
    assert seats == ["human", "random"]
    assert state.stage == "walk" and len(state.history) == 2
    code, out, _ = _play([SHOWN, "--load", str(saved)], ["quit"], script, capsys)
    assert code == 0 and "walk" in out and "Step to" in out


def test_the_save_hint_is_a_command_that_loads_the_save(tmp_path: Path, script, capsys,  # type: ignore[no-untyped-def]
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shown = str(Path(SHOWN).resolve())  # a folder, not a built-in pack: the command names it
    _, out, _ = _play([SHOWN, "--seats", "human,random", "--seed", "3"], ["1", "save my game.json", "quit"],
                      script, capsys)
    assert f"continue with: ruleskit play --load 'my game.json' {shlex.quote(shown)}\n" in out
    _, out, _ = _play([SHOWN, "--seats", "human,random", "--seed", "3"], ["1", "save -x", "quit"], script, capsys)
    assert f"continue with: ruleskit play --load ./-x {shlex.quote(shown)}\n" in out
    code, out, _ = _play(["--load", "./-x", shown], ["quit"], script, capsys)
    assert code == 0 and "walk" in out
    assert load_saved(tmp_path / "my game.json", SHOWN)[1].stage == "walk"


def test_a_file_name_the_system_cannot_take_is_refused_and_the_game_goes_on(
        tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "game.jsonl"
    code, out, prompts = _play([SHOWN, "--seats", "human,random", "--seed", "0", "--log", str(log)],
                               ["save a\x00b", "1", "quit"], script, capsys)
    assert code == 0
    assert "Cannot save to 'a\\x00b': not a usable file name" in out
    assert len(prompts) == 3  # the game went on to the next decision
    assert json.loads(log.read_text().splitlines()[0])["type"] == "header"


def test_bot_only_game_runs_to_the_end_and_its_log_replays(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "game.jsonl"
    code, out, prompts = _play([SHOWN, "--seats", "greedy,random", "--seed", "0", "--log", str(log)], [], script, capsys)
    assert code == 0 and prompts == []
    assert "Game over" in out and "Log written" in out
    assert json.loads(log.read_text().splitlines()[-1])["type"] == "result"
    assert main(["replay", str(log), SHOWN]) == 0


def test_quit_by_end_of_input_writes_a_log_that_replays(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "partial.jsonl"
    code, _, _ = _play([SHOWN, "--seats", "human,random", "--seed", "0", "--log", str(log)], ["1", "1"], script, capsys)
    assert code == 0
    assert main(["replay", str(log), SHOWN]) == 0
    assert "unfinished" in capsys.readouterr().out


def test_ctrl_c_at_a_prompt_writes_the_log_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C exited with "interrupted" and no log, where `quit` and the end of input write it."""
    answers = iter(["1"])

    def typed(prompt: str = "") -> str:
        answer = next(answers, None)
        if answer is None:
            raise KeyboardInterrupt
        return answer

    monkeypatch.setattr("builtins.input", typed)
    log = tmp_path / "partial.jsonl"
    assert main(["play", SHOWN, "--seats", "human,random", "--seed", "0", "--log", str(log)]) == 130
    captured = capsys.readouterr()
    assert "interrupted" in captured.err and "Log written" in captured.out
    assert main(["replay", str(log), SHOWN]) == 0


@pytest.mark.parametrize("args, message", [
    ([], "name the pack to play"),
    ([SHOWN, "--seats", "human,robot"], "unknown seat 'robot': human, or a bot (random, greedy, mcts"),
    ([SHOWN, "--seats", "humen,random"], "(did you mean 'human'?)"),
    ([SHOWN, "--players", "9"], "for 2-4 players, not 9"),
    ([SHOWN, "--seats", "human,greedy:99999999"], "at most 1,000 samples"),
    ([SHOWN, "--players", "3", "--seats", "human,random"], "2 seats for 3 players"),
    (["--load", "missing.json"], "cannot read saved game"),
])
def test_bad_arguments_get_a_message(args: list[str], message: str, script, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _play(args, [], script, capsys)
    assert code == 1
    assert message in out and "Traceback" not in out


def test_not_a_save_file(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    code, out, _ = _play(["--load", str(bad)], [], script, capsys)
    assert code == 1 and "not a saved ruleskit game" in out


def _edited_save(tmp_path: Path, script, capsys, edit) -> Path:  # type: ignore[no-untyped-def]
    """A save of a card duel, changed by `edit` and written back over several lines."""
    saved = tmp_path / "game.json"
    _play([DUEL, "--seats", "human,random", "--seed", "3"], [f"save {saved}", "quit"], script, capsys)
    data = json.loads(saved.read_text(encoding="utf-8"))
    edit(data["state"]["data"])
    saved.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return saved


def _line_and_column_of(text: str, fragment: str) -> tuple[int, int]:
    for number, line in enumerate(text.splitlines(), start=1):
        if fragment in line:
            return number, line.index(fragment) + 1
    raise AssertionError(f"{fragment!r} not in the file")


def test_a_bad_value_in_a_save_is_named_by_its_line_and_column(  # type: ignore[no-untyped-def]
        tmp_path: Path, script, capsys) -> None:
    saved = _edited_save(tmp_path, script, capsys, lambda data: data["pv"][1].update(fame="ten"))
    line, column = _line_and_column_of(saved.read_text(encoding="utf-8"), '"ten"')
    assert line > 1
    code, out, _ = _play(["--load", str(saved), DUEL], [], script, capsys)
    assert code == 1
    assert f"{saved}:{line}:{column}: error: $.state.data.pv[1].fame: should be an integer" in out


def test_a_key_missing_from_a_save_is_named_by_the_line_of_its_table(  # type: ignore[no-untyped-def]
        tmp_path: Path, script, capsys) -> None:
    saved = _edited_save(tmp_path, script, capsys, lambda data: data["flow"].pop("stage"))
    line, _ = _line_and_column_of(saved.read_text(encoding="utf-8"), '"flow": {')
    code, out, _ = _play(["--load", str(saved), DUEL], [], script, capsys)
    assert code == 1
    assert f"{saved}:{line}:" in out and "$.state.data.flow.stage: missing" in out


def test_bad_display_hints_are_reported(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    odd = _variant_of_shown(tmp_path, '[update.display]\nboard = "{start} {moon}"\n')
    code, out, _ = _play([str(odd)], [], script, capsys)
    assert code == 1 and "'{moon}', which is not a board space" in out
    assert f"{odd / 'd.toml'}:2: error:" in out  # at its key, as `check` says it (it named the pack alone)


def test_help(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = capsys.readouterr().out
    for option in ("--players", "--seats", "--seed", "--scenario", "--load", "--log"):
        assert option in text


def _variant_of_shown(tmp_path: Path, display: str) -> Path:
    """A variant of the dice race with shown faces whose only file is `display`."""
    for base in (Path(SHOWN), Path(SHOWN).parent / "dice_race"):  # a base is named relative to its variant
        shutil.copytree(base, tmp_path / base.name)
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "pack.toml").write_text(
        f'name = "odd"\nversion = "1"\nplayers = {{ min = 2, max = 2 }}\nextends = "../{Path(SHOWN).name}"\n'
        'files = ["d.toml"]\n')
    (odd / "d.toml").write_text(display)
    return odd


@pytest.mark.parametrize("display, message", [
    ('[update.display]\nhide = [[1]]\n', "hide should list names, not [1]"),
    ('[update.display]\nhide = [{ a = 1 }]\n', "hide should list names"),
    ('[update.display]\nplayers = ["Ann", 2]\n', "players should list names, not 2"),
])
def test_display_lists_of_other_than_names_are_reported(display: str, message: str, tmp_path: Path, script,
                                                         capsys) -> None:  # type: ignore[no-untyped-def]
    odd = _variant_of_shown(tmp_path, display)
    code, out, _ = _play([str(odd)], [], script, capsys)
    assert code == 1 and message in out and "Traceback" not in out
    assert main(["check", str(odd)]) == 1
    assert message in capsys.readouterr().err


def test_a_board_layout_of_blank_lines_falls_back_to_the_list_of_spaces(tmp_path: Path, script,
                                                                         capsys) -> None:  # type: ignore[no-untyped-def]
    odd = _variant_of_shown(tmp_path, '[update.display]\nboard = "\\n\\n"\n')
    code, out, _ = _play([str(odd), "--seats", "human,random"], ["quit"], script, capsys)
    assert code == 0 and "Board:" in out and "Traceback" not in out


def test_a_game_with_no_seed_given_cannot_be_dealt_again(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    """Without --seed a game was dealt from seed 0: anyone could deal it again (`new_game(seed=0)`) and read the
    other hands and the deck's order. Each game not given a seed now draws one nobody can guess."""
    seeds = []
    for name in ("a.jsonl", "b.jsonl"):
        log = tmp_path / name
        code, _, _ = _play([DUEL, "--seats", "human,human", "--log", str(log)], ["quit"], script, capsys)
        assert code == 0
        seeds.append(json.loads(log.read_text().splitlines()[0])["seed"])
    assert 0 not in seeds and seeds[0] != seeds[1]


def test_a_scenario_that_writes_no_seed_is_dealt_from_the_games_seed(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    """`play --scenario` dealt every game from the scenario's seed (0 when it wrote none), --seed or not."""
    scenario = tmp_path / "duel.toml"
    scenario.write_text("players = 2\n")
    decks = []
    for seed in ("3", "4"):
        saved = tmp_path / f"{seed}.json"
        _play([DUEL, "--scenario", str(scenario), "--seats", "human,human", "--seed", seed],
              ["", f"save {saved}", "quit"], script, capsys)
        _, state, _ = load_saved(saved, DUEL)
        assert state.data["seed"] == int(seed)
        decks.append(state.data["z"])
    assert decks[0] != decks[1]


def test_no_undo_past_the_others_secret_picks_shown(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    """The bot's secret bid shows in its coins once the bids are settled: undo went back past it."""
    import shutil

    pack = tmp_path / "market"
    shutil.copytree(Path(__file__).resolve().parent.parent / "packs" / "street_market", pack)
    game = pack / "game.toml"
    game.write_text(game.read_text().replace('order = "[0]"\nrounds = 1\n', 'order = "[0]"\nrounds = 1\nnext = "market"\n'))
    code, out, _ = _play([str(pack), "--seats", "human,greedy", "--seed", "3"],
                         ["work", "work", "work", "bid:0", "undo", "quit"], script, capsys)
    assert code == 0
    assert "another player's secret choice has been revealed" in out and "Undone" not in out


RESIGN = """
[counters.points]
owner = "player"

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 20

[actions.score]
stage = "main"
label = "Score a point"
effect = "me.points += 1\\nend turn"

[actions.resign]
anytime = true
label = "Resign"
effect = "finish \\"a player resigned\\""

[scoring]
score = "me.points"
"""


def _resign_pack(folder: Path) -> Path:
    (folder / "pack.toml").write_text('name = "resign"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                      'files = ["game.toml"]\n')
    (folder / "game.toml").write_text(RESIGN)
    return folder


def test_a_game_ended_out_of_turn_ends_at_once(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    """Player 2 resigned out of turn: the game was over, yet Player 1 was asked again, offered no action
    ("choose 1-0"), and quitting left the game unfinished with no result and no log."""
    _resign_pack(tmp_path)
    log = tmp_path / "game.jsonl"
    code, out, prompts = _play([str(tmp_path), "--seats", "human,human", "--seed", "3", "--log", str(log)],
                               ["", "as 2", "", "1", "1", "quit"], script, capsys)
    assert code == 0
    assert "the game ends: a player resigned" in out and "Game over: a player resigned" in out
    assert "unfinished" not in out and "choose 1-0" not in out
    assert prompts[-1] == "Player 2> "  # nobody is asked after the resignation
    assert ruleskit.log.replay(log, str(tmp_path)).is_terminal


def test_the_log_command_leaves_out_what_was_taken_back(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    """After an undo, `log` still told the decisions taken back (the bot's answer too) as if they stood."""
    code, out, _ = _play([str(_resign_pack(tmp_path)), "--seats", "human,random", "--seed", "3"],
                         ["1", "undo", "log", "quit"], script, capsys)
    assert code == 0
    told = out.split("Undone.")[1].split("2. Resign")[1]  # after the table shown again
    assert told.split() == "Player 1 takes back a decision Game left unfinished.".split()


def test_a_choices_answer_is_told_after_its_question(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    """The answer to "How hard?" was told alone, "Player 2: 1", in the story, `log` and `replay --show`."""
    from ruleskit.log import write_log

    market = str(Path(__file__).resolve().parent.parent / "packs" / "street_market")
    code, out, _ = _play([market, "--seats", "human,human", "--seed", "3"],
                         ["", "hustle", "2", "", "hustle", "1", "", "log", "quit"], script, capsys)
    assert code == 0
    assert "Player 1: How hard? 2" in out and "Player 2: How hard? 1" in out
    assert "Player 1: 2" not in out and "Player 2: 1" not in out
    state = ruleskit.load(market).new_game(players=2, seed=3)
    for action_id in ["hustle", "1", "hustle", "2"]:
        state.apply(action_id)
    write_log(state, tmp_path / "game.jsonl")
    script(["n", "n", "n", "n", "seat 1", "q"])
    assert main(["replay", str(tmp_path / "game.jsonl"), market, "--show", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Player 1: How hard? 1" in out and out.count("Player 2: How hard? 2") == 2  # in full, then as seat 1


def test_a_long_line_typed_is_not_repeated_whole(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    """A megabyte pasted at the prompt, or saved to, came back whole in the refusal: a screenful of lines
    that pushed the table out of sight."""
    pasted = "x" * 1_000_000
    code, out, _ = _play([DUEL, "--seats", "human,random", "--seed", "1"],
                         [pasted, f"save {tmp_path}/{pasted}", "quit"], script, capsys)
    assert code == 0 and len(out) < 10_000
    assert f"Unknown command '{'x' * 60}…'" in out and "Cannot save to" in out


QUICK_END = """
[kinds.card]
items = { zebra = {}, yak = {}, gnu = {} }

[zones.hand]
owner = "player"
type = "stack"
of = "card"
visible = "owner"

[zones.deck]
type = "stack"
of = "card"
start = ["zebra", "yak", "gnu"]

[stages.main]
label = "Play"

[phases.play]
stage = "main"

[flow]
start = "play"
setup = "for p in players { draw 1 from deck to p.hand }"

[actions.concede]
stage = "main"
label = "Concede"
effect = "finish \\"conceded\\""

[scoring]
score = "count(p.hand)"
"""


@pytest.mark.parametrize(("seats", "shown", "hidden"), [
    ("random,human", ["yak"], ["zebra"]),                 # the human's own card, not the bot's
    ("random,human,human", [], ["zebra", "yak", "gnu"]),  # two humans at one screen: what every player sees
])
def test_a_game_over_before_any_human_had_the_screen_is_drawn_for_the_humans(
        seats: str, shown: list[str], hidden: list[str], tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    """The final table was drawn from the first seat's view, a bot's hidden card shown to the human."""
    (tmp_path / "pack.toml").write_text('name = "quick-end"\nversion = "1"\nplayers = { min = 2, max = 3 }\n'
                                        'files = ["game.toml"]\n')
    (tmp_path / "game.toml").write_text(QUICK_END)
    code, out, prompts = _play([str(tmp_path), "--seats", seats, "--seed", "0"], [], script, capsys)
    assert code == 0 and prompts == []  # the bot conceded at once
    for card in shown:
        assert card in out.lower()
    for card in hidden:
        assert card not in out.lower()
