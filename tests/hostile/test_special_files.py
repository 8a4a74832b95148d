"""Inputs that cannot live in the corpora as files: pipes, huge files, endless streams, links made here."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

import ruleskit
from ruleskit.errors import PackError
from ruleskit.limits import MAX_FILE_BYTES, MAX_LOG_LINE_BYTES, MAX_PACK_BYTES, MAX_SAVE_LISTS
from ruleskit.log import replay, write_log
from ruleskit.saves import load_saved
from ruleskit.testing.runner import check_log

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests" / "packs" / "dice_race"


def copy_pack(tmp_path: Path, files_list: bool = False) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(DICE, pack)
    if not files_list:
        text = (pack / "pack.toml").read_text()
        (pack / "pack.toml").write_text("\n".join(line for line in text.splitlines() if not line.startswith("files")))
    return pack


def test_the_copied_pack_loads(tmp_path: Path) -> None:
    assert ruleskit.load(copy_pack(tmp_path)).name == "dice-race"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_in_the_pack_is_refused_not_waited_on(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    os.mkfifo(pack / "zz.rk")
    with pytest.raises(PackError, match="not a regular file") as caught:
        ruleskit.load(pack)
    assert caught.value.file is not None and caught.value.file.endswith("zz.rk")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_listed_pipe_is_refused(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path, files_list=True)
    os.mkfifo(pack / "extra.toml")
    text = (pack / "pack.toml").read_text().replace('files = [', 'files = ["extra.toml", ')
    (pack / "pack.toml").write_text(text)
    with pytest.raises(PackError, match="not a regular file") as caught:
        ruleskit.load(pack)
    assert caught.value.line is not None


def test_a_link_inside_the_pack_is_followed(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    (pack / "rules.rk").rename(pack / "rules.txt")
    os.symlink("rules.txt", pack / "rules.rk")
    assert ruleskit.load(pack).name == "dice-race"


def test_a_link_to_a_file_outside_is_refused(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    secret = tmp_path / "secret.rk"
    secret.write_text("rule leaked() = 1\n")
    os.symlink(secret, pack / "zz.rk")
    with pytest.raises(PackError, match="outside the pack folder"):
        ruleskit.load(pack)


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    with open(pack / "zz.rk", "wb") as out:
        out.truncate(MAX_FILE_BYTES * 8)  # a sparse 8 MB file
    with pytest.raises(PackError, match="file too large"):
        ruleskit.load(pack)


def test_the_whole_pack_has_a_size_limit(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    line = "# " + "x" * 900 + "\n"
    for index in range(MAX_PACK_BYTES // (MAX_FILE_BYTES - 1000) + 1):
        (pack / f"filler{index:02}.toml").write_text(line * ((MAX_FILE_BYTES - 1000) // len(line)))
    with pytest.raises(PackError, match="larger than"):
        ruleskit.load(pack)


def test_a_log_of_endless_junk_stops_at_its_first_long_line(tmp_path: Path) -> None:
    game = ruleskit.load(DICE)
    state = game.new_game(players=2, seed=1)
    log = tmp_path / "game.jsonl"
    write_log(state, log)
    lines = len(log.read_text().splitlines())
    with open(log, "ab") as out:
        out.truncate(log.stat().st_size + 100 * MAX_LOG_LINE_BYTES)  # 100 MB of NUL bytes, no newline
    with pytest.raises(PackError, match="line longer than") as caught:
        replay(log, game)
    assert caught.value.line == lines + 1


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_dev_zero_as_a_log_or_a_save(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="line longer than"):
        replay("/dev/zero", DICE)
    with pytest.raises(PackError, match="not a regular file"):
        load_saved("/dev/zero", DICE)


def test_a_folder_as_a_log_or_a_save(tmp_path: Path) -> None:
    with pytest.raises(PackError):
        replay(tmp_path, DICE)
    with pytest.raises(PackError, match="not a regular file"):
        load_saved(tmp_path, DICE)


def test_test_command_names_its_log_safely() -> None:
    from ruleskit.commands.test import safe_file_stem

    for name in ("../../../x/y", "..", "/etc/passwd", "a/b\\c\x1b[2J", "~root", ".hidden"):
        stem = safe_file_stem(name)
        assert stem and Path(stem).name == stem and not stem.startswith((".", "~")), stem
        assert stem.replace("_", "").replace(".", "").replace("-", "").isalnum() or stem == "pack", stem


def test_a_long_list_of_decisions_written_with_escapes_is_read_within_the_corpus_limits(tmp_path: Path) -> None:
    """The line of each decision of a scenario test is found in the text after the one before; an id written
    with escapes (`\\u00e9`) is never found there. Each such one looked through the 200 lines after it again:
    a 970 KB test file took 18 s of `ruleskit test`. The run here has the corpus runner's second of CPU."""
    import json
    import subprocess
    import sys

    case = tmp_path / "case"
    pack = copy_pack(case)
    (pack / "tests").mkdir()
    written = '"' + "a" * 40 + '\\u00e9"'
    row = ", ".join([written] * (9800 // (len(written) + 2)))
    lines = ["players = 2", "then = [", *[row + ","] * 50, written + "]", "[expect]", 'stage = "roll"']
    (pack / "tests" / "escaped.toml").write_text("\n".join(lines) + "\n")
    (case / "expected.txt").write_text(f"load: tests\npack: {pack}\n")
    runner = Path(__file__).with_name("corpus_runner.py")
    done = subprocess.run([sys.executable, str(runner), str(case)], capture_output=True, text=True, timeout=600,
                          check=False, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    outcome = json.loads(done.stdout.splitlines()[-1])
    assert outcome["result"] == "error" and outcome["line"] == 2, outcome
    assert "is not a legal action now" in outcome["message"], outcome


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_nobody_writes_to_is_an_empty_log_not_a_wait(tmp_path: Path) -> None:
    pipe = tmp_path / "log.jsonl"
    os.mkfifo(pipe)
    with pytest.raises(PackError, match="must start with a header"):
        replay(pipe, DICE)
    with pytest.raises(PackError, match="must start with a header"):
        check_log(pipe, DICE)


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd here")
def test_a_log_written_into_a_pipe_as_it_is_read_replays(tmp_path: Path) -> None:
    # As `ruleskit replay <(zcat game.jsonl.gz)` reads one: the pipe's writer is there and writes as it goes.
    game = ruleskit.load(DICE)
    state = game.new_game(players=2, seed=3)
    state.apply(state.legal_actions()[0])
    written = tmp_path / "game.jsonl"
    write_log(state, written)
    reading, writing = os.pipe()

    def write() -> None:
        with os.fdopen(writing, "wb") as out:
            for line in written.read_bytes().splitlines(keepends=True):
                out.write(line)
                out.flush()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert replay(f"/dev/fd/{reading}", DICE).history == state.history
    finally:
        writer.join(timeout=10)
        os.close(reading)


def test_a_save_of_a_million_empty_lists_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    save.write_text('{"format": "ruleskit-save",\n"junk": [' + "[]," * (MAX_SAVE_LISTS + 1) + "[]]}")
    with pytest.raises(PackError, match="lists and tables") as caught:
        load_saved(save, DICE)
    assert caught.value.line == 2


def test_a_bad_line_far_into_a_log_being_checked_is_the_logs_error(tmp_path: Path) -> None:
    game = ruleskit.load(DICE)
    state = game.new_game(players=2, seed=3)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    log = tmp_path / "game.jsonl"
    write_log(state, log)
    assert check_log(log, DICE) is None
    lines = log.read_text().splitlines()
    lines.insert(-1, '{"type": "decision", "action": 7}')  # after the last decision: read once the game is over
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(PackError, match=r"\$\.action") as caught:
        check_log(log, DICE)
    assert caught.value.line == len(lines) - 1
