"""Every mistake in a pack is reported with its file, its line and what is wrong; never a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from engine_support import TINY_GAME, TINY_MANIFEST, TINY_RULES, line_of, write_pack

import ruleskit
from ruleskit.errors import LanguageError, PackError
from ruleskit.runtime.state import State

VARIANT_MANIFEST = """\
name = "tiny-variant"
version = "0.2"
players = { min = 2, max = 2 }
extends = "../base"
files = ["variant.toml", "variant.rk"]
"""


def load_error(root: Path) -> PackError:
    with pytest.raises(PackError) as caught:
        ruleskit.load(root)
    return caught.value


def assert_located(error: PackError, path: Path, line: int, message: str, hint: str | None = None) -> None:
    assert error.file is not None and Path(error.file).resolve() == path.resolve(), str(error)
    assert error.line == line, str(error)
    assert message in error.message, str(error)
    if hint is not None:
        assert error.hint is not None and hint in error.hint, str(error)
    # The printed form reads like a compiler's: file:line[:column]: error: message.
    assert str(error).startswith(f"{error.file}:{line}"), str(error)
    assert ": error: " in str(error)


# (case id, files to write, file with the mistake, text on the mistaken line, message, hint)
CASES = [
    ("toml-syntax", {"game": TINY_GAME.replace("[stages.main]", "[stages.main")},
     "game.toml", "[stages.main", "TOML syntax error", None),
    ("unknown-key", {"game": TINY_GAME.replace('stage = "main"\neffect', 'stage = "main"\nefect')},
     "game.toml", "efect =", "unknown key 'efect'", "did you mean 'effect'?"),
    ("wrong-type", {"game": TINY_GAME.replace('[phases.play]\nstage = "main"', '[phases.play]\nstage = "main"\nrounds = "two"')},
     "game.toml", "rounds =", "'rounds' should be an integer, not 'two'", None),
    ("wrong-type-no-coercion", {"game": TINY_GAME.replace("max = 5", 'max = "5"')},
     "game.toml", "max =", "'max' should be an integer", None),
    ("wrong-type-inline", {"game": TINY_GAME.replace('stage = "main"\neffect', 'stage = "main"\nlimit = { turn = true }\neffect')},
     "game.toml", "limit =", "'limit.turn' should be an integer", None),
    ("unknown-nested-key", {"game": TINY_GAME.replace('stage = "main"\neffect', 'stage = "main"\nlimit = { trun = 1 }\neffect')},
     "game.toml", "limit =", "unknown key 'trun'", "did you mean 'turn'?"),
    ("string-for-list", {"game": TINY_GAME.replace('score = "p.points"', 'score = "p.points"\ntiebreak = "p.points"')},
     "game.toml", "tiebreak =", "'tiebreak' should be a list, not 'p.points'", None),
    ("missing-field", {"game": TINY_GAME.replace('[phases.play]\nstage = "main"', '[phases.play]\nrounds = 2')},
     "game.toml", "[phases.play]", "missing key 'stage'", None),
    ("unknown-section", {"game": TINY_GAME + '\n[acitons.extra]\nstage = "main"\n'},
     "game.toml", "[acitons.extra]", "unknown section 'acitons'", "did you mean 'actions'?"),
    ("manifest-unknown-key", {"manifest": TINY_MANIFEST + 'extend = "../other"\n'},
     "pack.toml", "extend =", "unknown key 'extend'", "did you mean 'extends'?"),
    ("manifest-players", {"manifest": TINY_MANIFEST.replace("min = 2, max = 2", "min = 3, max = 2")},
     "pack.toml", "players =", "players needs 1 <= min <= max", None),
    ("unknown-name-in-expression", {"game": TINY_GAME.replace("for p in players])", "for p in playrs])")},
     "game.toml", "playrs", "unknown name 'playrs'", "did you mean 'players'?"),
    ("unknown-player-field", {"game": TINY_GAME.replace("me.points +=", "me.ponts +=")},
     "game.toml", "me.ponts", "players have no variable 'ponts'", "did you mean 'points'?"),
    ("unknown-function", {"rules": TINY_RULES + "rule triple(x) = doubel(x) + x\n"},
     "rules.rk", "doubel", "unknown function 'doubel'", "did you mean 'double'?"),
    ("unknown-stage", {"game": TINY_GAME.replace('[actions.score]\nstage = "main"', '[actions.score]\nstage = "mian"')},
     "game.toml", 'stage = "mian"', "unknown stage 'mian'", "did you mean 'main'?"),
    ("unknown-die", {"rules": TINY_RULES + "proc throw() { let r = roll d7 }\n"},
     "rules.rk", "roll d7", "unknown die 'd7'", None),
    ("rk-syntax", {"rules": "# twice\nrule double(x) = x *\n"},
     "rules.rk", "rule double", "unexpected end of text", None),
    ("toml-snippet-syntax", {"game": TINY_GAME.replace('when = "any(', 'when = "any((')},
     "game.toml", "when =", "unexpected end of text", None),
    ("rule-arity", {"game": TINY_GAME.replace("double(1)", "double(1, 2)")},
     "game.toml", "double(1, 2)", "rule 'double' takes 1 argument(s), not 2", None),
    ("builtin-arity", {"rules": TINY_RULES + "rule none_left() = count()\n"},
     "rules.rk", "count()", "count() takes 1-2 argument(s), not 0", None),
    ("proc-arity", {"rules": TINY_RULES + "proc bump(p) { p.points += 1 }\nproc twice() { bump(0, 1) }\n"},
     "rules.rk", "bump(0, 1)", "procedure 'bump' takes 1 argument(s), not 2", None),
    ("event-arity", {"rules": TINY_RULES + "hook heard on ping(p) { say \"ping\" }\nproc shout() { emit ping(1, 2) }\n"},
     "rules.rk", "emit ping", "event 'ping' takes 1 argument(s)", None),
    ("modify-arity", {"rules": TINY_RULES + "hook more modify double(x, y) = base\n"},
     "rules.rk", "hook more", "gives rule 'double' 2 parameter(s); it takes 1", None),
    ("modify-unknown-rule", {"rules": TINY_RULES + "hook more modify dubble(x) = base + 1\n"},
     "rules.rk", "hook more", "modifies unknown rule 'dubble'", "did you mean 'double'?"),
    ("type-error", {"rules": TINY_RULES + 'rule odd() = 1 + "one"\n'},
     "rules.rk", "rule odd", "'+' needs numbers, not a value of type str", None),
    ("proc-as-value", {"rules": TINY_RULES + "proc bump() { say \"x\" }\nrule value() = bump()\n"},
     "rules.rk", "rule value", "procedure 'bump' has effects and gives no value", None),
    ("builtin-name-redefined", {"rules": TINY_RULES + "proc shadow() { let players = 1 }\n"},
     "rules.rk", "let players", "'players' is a built-in name", None),
    ("recursion", {"rules": TINY_RULES + "rule ping(x) = pong(x)\nrule pong(x) = ping(x)\n"},
     "rules.rk", "rule ping", "recursion is not allowed", None),
    ("duplicate-rule", {"rules": TINY_RULES + "rule double(y) = y + y\n"},
     "rules.rk", "rule double(y)", "rule double is defined twice", None),
    ("duplicate-toml", {"manifest": TINY_MANIFEST.replace('"rules.rk"]', '"rules.rk", "more.toml"]'),
                        "more.toml": '# more actions\n[actions.score]\nstage = "main"\n'},
     "more.toml", "[actions.score]", "actions.score is defined twice (first at", None),
    ("item-unknown-field", {"game": TINY_GAME + '\n[kinds.gem]\nfields = { value = "int" }\nitems.ruby = { valu = 3 }\n'},
     "game.toml", "items.ruby", "item 'ruby' sets unknown field 'valu'", "did you mean 'value'?"),
    ("item-wrong-type", {"game": TINY_GAME + '\n[kinds.gem]\nfields = { value = "int" }\nitems.ruby = { value = "x" }\n'},
     "game.toml", "items.ruby", "field 'value' of item 'ruby' should be an integer", None),
    ("item-named-like-kind", {"game": TINY_GAME + '\n[kinds.gem]\nitems.ruby = {}\n[kinds.ruby]\nitems.x = {}\n'},
     "game.toml", "items.ruby", "item id 'ruby' is also a kind", None),
    ("zone-unknown-kind", {"game": TINY_GAME + '\n[zones.bag]\nof = "gems"\n'},
     "game.toml", 'of = "gems"', "zone 'bag' holds unknown kind 'gems'", None),
    ("edge-unknown-node", {"game": TINY_GAME + '\n[kinds.spot]\nitems.x = {}\nitems.y = {}\n[board]\nnodes = "spot"\nedges = [["x", "z"]]\n'},
     "game.toml", 'edges = [["x", "z"]]', "names unknown node 'z'", None),
    ("replace-outside-variant", {"game": TINY_GAME + '\n[replace.actions.score]\nstage = "main"\n'},
     "game.toml", "[replace.actions.score]", "is for variants", None),
]


@pytest.mark.parametrize(("files", "where", "needle", "message", "hint"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_pack_mistake_is_located(tmp_path: Path, files: dict[str, str], where: str, needle: str,
                                 message: str, hint: str | None) -> None:
    named = {k: v for k, v in files.items() if k in ("game", "rules", "manifest")}
    extra = {k: v for k, v in files.items() if k not in named}
    root = write_pack(tmp_path / "pack", extra, **named)
    error = load_error(root)
    assert_located(error, root / where, line_of(root / where, needle), message, hint)


def test_tiny_pack_itself_loads(tmp_path: Path) -> None:
    game = ruleskit.load(write_pack(tmp_path / "pack"))
    state = game.new_game(players=2, seed=0)
    state.apply("score")
    assert state.data["pv"][0]["points"] == 2


def test_language_errors_carry_the_column(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "pack", rules="rule double(x) = x * 2\nrule half(x) = x // * 2\n")
    error = load_error(root)
    assert isinstance(error, LanguageError)
    assert (error.line, error.column) == (2, 21)
    assert "unexpected '*'" in error.message
    assert error.context is not None and "^" in error.context  # a caret under the mistake


def test_inline_expression_error_points_inside_the_string(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "pack", game=TINY_GAME.replace("for p in players])", "for p in playrs])"))
    error = load_error(root)
    text = (root / "game.toml").read_text().splitlines()[error.line - 1]
    assert error.column is not None and text[error.column - 1:].startswith("playrs")


def test_multiline_effect_error_has_the_file_line(tmp_path: Path) -> None:
    game = TINY_GAME.replace('effect = "me.points += double(1)\\nend turn"',
                             'effect = """\nme.points += double(1)\nme.pionts += 1\nend turn\n"""')
    root = write_pack(tmp_path / "pack", game=game)
    error = load_error(root)
    assert_located(error, root / "game.toml", line_of(root / "game.toml", "me.pionts"), "no variable 'pionts'")


@pytest.mark.parametrize("header", ['[actions."sc\\u006fre"]', '[actions."a\\"b"]', '[actions."a\\nb"]',
                                    "[actions.'lit\\eral']", '[ actions . "sp ace" ]', '[actions."x]y"]',
                                    "[actions.'x]y']", '[actions."a\\"]b"]'])
def test_an_error_under_a_quoted_table_name_has_its_own_line(tmp_path: Path, header: str) -> None:
    # The name is read as TOML reads it (escapes and all) to find its line, not taken as written.
    game = TINY_GAME.replace("[actions.score]", header).replace("double(1)", "nope")
    root = write_pack(tmp_path / "pack", game=game)
    error = load_error(root)
    assert_located(error, root / "game.toml", line_of(root / "game.toml", "nope"), "unknown name 'nope'")


@pytest.mark.parametrize("key", ['"a.b"', '"a]b"', '"a\\nb"', "'x[0]'"])
def test_an_error_under_a_key_holding_dots_or_brackets_has_its_line(tmp_path: Path, key: str) -> None:
    # The key is read from cattrs' path as written there (`['a.b']`), not split at its dots: the error named the
    # file alone.
    game = TINY_GAME + f"\n[report.groups.{key}]\nexpr = \"1\"\n"
    root = write_pack(tmp_path / "pack", game=game)
    error = load_error(root)
    assert_located(error, root / "game.toml", line_of(root / "game.toml", "[report.groups."), "should be a string")


def test_a_syntax_error_lists_what_was_expected_as_written(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "pack", rules="proc p() {\n    me.points 1\n}\n")
    error = load_error(root)
    assert isinstance(error, LanguageError) and error.line == 2
    assert "'+='" in error.message and "'-='" in error.message
    assert "__anon" not in error.message.lower()


def test_missing_pack_folder_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="no pack found at"):
        ruleskit.load(tmp_path / "nowhere")


def test_listed_file_missing(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "pack", manifest=TINY_MANIFEST.replace('"rules.rk"]', '"rules.rk", "gone.rk"]'))
    assert_located(load_error(root), root / "pack.toml", line_of(root / "pack.toml", "files ="), "does not exist")


# ---------------------------------------------------------------- variants


def variant(tmp_path: Path, manifest: str = VARIANT_MANIFEST, toml: str = "", rk: str = "") -> Path:
    write_pack(tmp_path / "base")
    root = tmp_path / "variant"
    root.mkdir()
    (root / "pack.toml").write_text(manifest)
    (root / "variant.toml").write_text(toml)
    (root / "variant.rk").write_text(rk)
    return root


def test_variant_of_tiny_loads(tmp_path: Path) -> None:
    root = variant(tmp_path, toml='[update.actions.score]\nlabel = "Score!"\n',
                   rk="replace rule double(x) = x * 3\n")
    game = ruleskit.load(root)
    assert game.chain == ["tiny", "tiny-variant"]
    state = game.new_game(players=2, seed=0)
    assert [a.label for a in state.legal_actions()] == ["Score!"]
    state.apply("score")
    assert state.data["pv"][0]["points"] == 3


def test_extends_missing_pack(tmp_path: Path) -> None:
    root = variant(tmp_path, manifest=VARIANT_MANIFEST.replace("../base", "../nothing-here"))
    assert_located(load_error(root), root / "pack.toml", line_of(root / "pack.toml", "extends"),
                   "extends '../nothing-here': no pack found")


def test_extends_cycle(tmp_path: Path) -> None:
    for name, other in (("a", "b"), ("b", "a")):
        write_pack(tmp_path / name, manifest=TINY_MANIFEST.replace('name = "tiny"', f'name = "{name}"')
                   + f'extends = "../{other}"\n', game="", rules="")
    error = load_error(tmp_path / "a")
    assert "variant chain loops back on itself" in error.message
    assert error.line == line_of(Path(error.file), "extends")


def test_extends_itself(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "selfish", manifest=TINY_MANIFEST + 'extends = "."\n')
    error = load_error(root)
    assert_located(error, root / "pack.toml", line_of(root / "pack.toml", "extends"), "loops back on itself")


def test_replace_definition_the_base_lacks_toml(tmp_path: Path) -> None:
    root = variant(tmp_path, toml='[replace.actions.scroe]\nstage = "main"\n')
    error = load_error(root)
    assert_located(error, root / "variant.toml", 1, "cannot replace actions.scroe", "did you mean 'score'?")
    assert "has no such definition" in error.message


def test_update_definition_the_base_lacks(tmp_path: Path) -> None:
    root = variant(tmp_path, toml='# change\n[update.phases.plya]\nrounds = 2\n')
    assert_located(load_error(root), root / "variant.toml", 2, "cannot update phases.plya", "did you mean 'play'?")


def test_replace_rule_the_base_lacks(tmp_path: Path) -> None:
    root = variant(tmp_path, rk="# triple instead\nreplace rule dubble(x) = x * 3\n")
    assert_located(load_error(root), root / "variant.rk", 2, "cannot replace rule dubble", "did you mean 'double'?")


def test_replace_hook_the_base_lacks(tmp_path: Path) -> None:
    root = variant(tmp_path, rk="replace hook nobody on turn_start(p) { say \"hi\" }\n")
    assert_located(load_error(root), root / "variant.rk", 1, "cannot replace hook nobody")


def test_redefining_a_base_definition_without_replace(tmp_path: Path) -> None:
    root = variant(tmp_path, toml='[actions.score]\nstage = "main"\n', rk="")
    assert_located(load_error(root), root / "variant.toml", 1, "actions.score is already defined by pack 'tiny'",
                   "[replace.actions.score]")
    root2 = variant(tmp_path / "again", rk="\nrule double(x) = x\n")
    assert_located(load_error(root2), root2 / "variant.rk", 2, "rule double is already defined by pack 'tiny'")


def test_removing_what_does_not_exist(tmp_path: Path) -> None:
    root = variant(tmp_path, toml='remove = ["actions.scor"]\n')
    assert_located(load_error(root), root / "variant.toml", 1, "cannot remove actions.scor", "actions.score")
    root2 = variant(tmp_path / "again", rk="# gone\nremove hook lucky\n")
    assert_located(load_error(root2), root2 / "variant.rk", 2, "cannot remove hook lucky")


def test_removing_something_still_used(tmp_path: Path) -> None:
    root = variant(tmp_path, rk="remove rule double\n")
    error = load_error(root)
    assert isinstance(error, LanguageError)
    assert "unknown function 'double'" in error.message
    assert Path(error.file).name == "game.toml" and error.line == line_of(tmp_path / "base" / "game.toml", "double(1)")


# ---------------------------------------------------------------- other inputs


def test_new_game_rejects_bad_arguments(tmp_path: Path) -> None:
    game = ruleskit.load(write_pack(tmp_path / "pack"))
    with pytest.raises(PackError, match="for 2 players, not 3"):
        game.new_game(players=3)
    with pytest.raises(PackError, match="seed must be an integer"):
        game.new_game(players=2, seed="x")  # type: ignore[arg-type]
    with pytest.raises(PackError, match="unknown option 'pionts'"):
        game.new_game(players=2, options={"pionts": 1})
    with pytest.raises(PackError, match="number of players must be an integer, not '2'"):
        game.new_game(players="2")  # type: ignore[arg-type]
    with pytest.raises(PackError, match="an option's name must be text, not int"):
        game.new_game(players=2, options={1: 2})  # type: ignore[dict-item]


def test_options_are_held_to_the_limits_of_the_values_they_set() -> None:
    # A list option longer than any list may be started a game whose log could not be replayed; one nested a
    # hundred thousand deep ran out of Python's stack in writing the error about it.
    ophir = ruleskit.load("ophir")
    with pytest.raises(PackError, match=r"options.modifiers: holds 100001 elements, more than a list may \(100000\)"):
        ophir.new_game(players=2, options={"modifiers": [1] * 100_001})
    nested: list[object] = []
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(PackError, match=r"options.modifiers\[0\]: should be an integer, not list \[\["):
        ophir.new_game(players=2, options={"modifiers": nested})
    assert ophir.new_game(players=2, options={"modifiers": [1] * 100_000}).raw["v"]["modifiers"][-1] == 1


def test_an_option_of_lists_is_held_to_the_values_they_hold_in_all(tmp_path: Path) -> None:
    # A list of ten references to one 100,000-element list was a million values: its log's header could not
    # be read back, and a thousand references took 41 s to check.
    game = ruleskit.load(write_pack(tmp_path / "pack", game=TINY_GAME + '\n[vars.stuff]\ntype = "list"\n'))
    shared = list(range(100_000))
    with pytest.raises(PackError, match="options.stuff: holds more than 100000 values in all"):
        game.new_game(players=2, options={"stuff": [shared] * 1000})
    assert game.new_game(players=2, options={"stuff": [[1, 2], [3]]}).raw["v"]["stuff"] == [[1, 2], [3]]


def test_saved_state_from_other_pack_is_refused(tmp_path: Path, dice_race: ruleskit.Game) -> None:
    game = ruleskit.load(write_pack(tmp_path / "pack"))
    saved = game.new_game(players=2).to_json()
    with pytest.raises(PackError, match="other content"):
        State.from_json(dice_race, saved)
    with pytest.raises(PackError, match="not JSON"):
        State.from_json(game, "{not json")


@pytest.mark.parametrize(("definition", "said"), [
    ("rule players() = 1", "'players' is a built-in name and cannot name a rule"),
    ("proc me() { }", "'me' is a built-in name and cannot name a procedure"),
])
def test_a_rule_or_procedure_cannot_take_a_built_in_name(tmp_path: Path, definition: str, said: str) -> None:
    """`rule players() = 1` loaded, reachable only as `players()`: the bare name read the built-in."""
    pack = tmp_path / "envoys"
    shutil.copytree(Path(__file__).resolve().parents[2] / "games" / "envoys", pack)
    rules = pack / "rules.rk"
    line = rules.read_text().count("\n") + 1
    rules.write_text(rules.read_text() + definition + "\n")
    with pytest.raises(LanguageError) as refused:
        ruleskit.load(pack)
    assert said in refused.value.message and refused.value.line == line


class _CountedText(str):
    """A file's text that counts how often it is split into lines."""

    splits = 0

    def split(self, sep: str | None = None, maxsplit: int = -1) -> list[str]:  # type: ignore[override]
        _CountedText.splits += 1
        return super().split(sep, maxsplit)


def test_a_file_is_split_into_lines_once_for_all_its_snippets() -> None:
    # Split for each snippet, a 1 MB file of 25,000 one-word invariants took 170 s to load.
    from ruleskit.diff import comment_above
    from ruleskit.tomlfile import parse_toml

    raw = "".join(f'# check {i}\n[invariants.i{i}]\ncheck = "true"\n' for i in range(5))
    doc = parse_toml(raw, "checks.toml")
    doc.text = text = _CountedText(raw)
    _CountedText.splits = 0
    assert [doc.value_start(("invariants", f"i{i}", "check"))[0] for i in range(5)] == [3, 6, 9, 12, 15]
    assert [comment_above(text, 3 * i + 2) for i in range(5)] == [f"check {i}" for i in range(5)]
    assert _CountedText.splits == 2  # once for the snippets' places, once for the comments `diff` shows
