"""`play --load SAVE --log LOG`: a log is written only of a save whose history leads to its game, so that the
log replays."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import SHOWN

import ruleskit
from ruleskit.cli import main
from ruleskit.play import save_game


def _save(tmp_path: Path, script, capsys) -> Path:  # type: ignore[no-untyped-def]
    saved = tmp_path / "game.json"
    script(["1", f"save {saved}", "quit"])
    assert main(["play", SHOWN, "--seats", "human,random", "--seed", "3"]) == 0
    capsys.readouterr()
    return saved


def test_a_saved_game_played_on_writes_a_log_that_replays(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    saved = _save(tmp_path, script, capsys)
    log = tmp_path / "game.jsonl"
    script([])
    assert main(["play", SHOWN, "--load", str(saved), "--seats", "random,random", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), SHOWN]) == 0


def test_a_save_whose_history_was_edited_writes_no_log(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    saved = _save(tmp_path, script, capsys)
    content = json.loads(saved.read_text(encoding="utf-8"))
    del content["state"]["history"][1:]  # the decisions cut: the game they held no longer follows from them
    saved.write_text(json.dumps(content), encoding="utf-8")
    log = tmp_path / "game.jsonl"
    script([])
    code = main(["play", SHOWN, "--load", str(saved), "--seats", "random,random", "--log", str(log)])
    out = capsys.readouterr()
    assert code != 0 and not log.exists()
    assert "do not lead to the game it holds" in out.out + out.err



# Each decision runs near its step budget (180,000 steps): 70 of them run 12.6 million.
SLOW_GAME = """\
[counters.n]

[stages.main]

[phases.play]
stage = "main"

[flow]
start = "play"
max_turns = 1000000

[actions.pass]
stage = "main"
effect = "for i in range(10000) {\\n for j in range(5) {\\n  set n = j\\n }\\n}\\nend turn"

[scoring]
score = "0"
"""


def test_a_save_too_long_to_check_writes_no_log(tmp_path: Path, script, capsys) -> None:  # type: ignore[no-untyped-def]
    # Its history is replayed from the pack's setup to check that the log would replay: unbounded, a save of
    # 100,000 such decisions replayed for about 40 minutes before the game went on.
    pack = tmp_path / "slow"
    pack.mkdir()
    (pack / "pack.toml").write_text('name = "slow"\nversion = "1"\nplayers = { min = 2, max = 2 }\n'
                                    'files = ["game.toml"]\n', encoding="utf-8")
    (pack / "game.toml").write_text(SLOW_GAME, encoding="utf-8")
    state = ruleskit.load(pack).new_game(players=2, seed=1)
    for _ in range(70):
        state.apply("pass")
    saved = tmp_path / "game.json"
    save_game(state, ["human", "human"], saved)
    log = tmp_path / "game.jsonl"
    script(["quit"])
    code = main(["play", str(pack), "--load", str(saved), "--log", str(log)])
    out = capsys.readouterr()
    assert code != 0 and not log.exists()
    assert "too long to check" in out.out + out.err and "10,000,000 steps" in out.out + out.err
