"""The load cache among files it did not write: a shared folder, a FIFO for a key, links inside a pack.

See docs/SECURITY.md, "The load cache".
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ruleskit
from ruleskit.cache import KEY_BYTES, KEY_FILE, STALE_TEMPORARY_SECONDS, Cache, digest
from ruleskit.game import DeferredSource
from ruleskit.resources import builtin_packs

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests" / "packs" / "dice_race"
CONNECT_FOUR = builtin_packs()["connect_four"]
HANG_GUARD_SECONDS = 120  # only ends a child that waits forever; nothing is timed


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULESKIT_CACHE_DIR", str(folder))
    monkeypatch.delenv("RULESKIT_NO_CACHE", raising=False)
    monkeypatch.delenv("RULESKIT_BACKEND", raising=False)
    return folder


def others_files(folder: Path) -> dict[str, bytes]:
    """Files someone else keeps in a folder shared with the cache, some named much like its own."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "settings.json": b'{"keep": "me"}\n',
        "my-dataset.json": b"[1, 2, 3]\n",
        "trees-notadigest.json": b"{}",
        "trees-ab12.json": b"{}",
        "Trees-" + "a" * 64 + ".json": b"{}",
        "program-" + "b" * 64 + ".json.bak": b"{}",
        ".tmp-abcd1234": b"someone's temporary file",
        ".settings.json.abcd1234.tmp": b"{}",
        "key": b"someone else's key, not the cache's\n",
    }
    for name, content in files.items():
        (folder / name).write_bytes(content)
        os.utime(folder / name, (1_000_000, 1_000_000))  # older than anything the cache writes
    return files


def test_pruning_and_clearing_touch_only_the_caches_own_entries(cache_dir: Path) -> None:
    kept = others_files(cache_dir)
    store = Cache(cache_dir)
    names = [digest(f"entry {i}") for i in range(3)]
    for name in names:
        assert store.put("trees", name, "x" * 1000)
    assert sorted(path.name for path, _ in store.entries()) == sorted(f"trees-{n}.json" for n in names)
    store.prune(limit=0)
    assert store.entries() == []
    assert store.put("trees", names[0], "x")
    assert store.clear() == 1
    for name, content in kept.items():
        assert (cache_dir / name).read_bytes() == content, name


def test_a_load_leaves_a_large_foreign_file_in_the_folder(cache_dir: Path) -> None:
    """The folder named by RULESKIT_CACHE_DIR may be shared (~/.cache): a file over the cache's whole
    budget, which pruning used to remove first as the least recently used `*.json`, is not the cache's."""
    cache_dir.mkdir()
    dataset = cache_dir / "my-dataset.json"
    with open(dataset, "wb") as out:
        out.truncate(130 * 1024 * 1024)  # sparse: costs no disk
    os.utime(dataset, (1_000_000, 1_000_000))
    ruleskit.load(DICE)
    assert dataset.stat().st_size == 130 * 1024 * 1024
    assert list(cache_dir.glob("trees-*.json"))


def test_stale_temporary_files_of_the_cache_are_pruned_and_no_others(cache_dir: Path) -> None:
    kept = others_files(cache_dir)
    store = Cache(cache_dir)
    entry = f"trees-{digest('left')}.json"
    stale, fresh = cache_dir / f".{entry}.abcd1234.tmp", cache_dir / f".{entry}.efgh5678.tmp"
    for path in (stale, fresh):
        path.write_bytes(b"half an entry")
    old = time.time() - 2 * STALE_TEMPORARY_SECONDS
    os.utime(stale, (old, old))
    store.prune()
    assert not stale.exists() and fresh.exists()  # another process may still be writing the fresh one
    store.clear()
    assert not fresh.exists()
    for name, content in kept.items():
        assert (cache_dir / name).read_bytes() == content, name


def test_an_entry_is_written_beside_its_name_under_a_name_of_the_cache(cache_dir: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """What a process stopped mid-write leaves is named after its entry, so pruning can tell it is ours."""
    store = Cache(cache_dir)
    seen: list[str] = []
    real_replace = os.replace

    def noting_replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        seen.append(Path(source).name)
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", noting_replace)
    name = digest("named")
    assert store.put("trees", name, [1])
    assert len(seen) == 1 and seen[0].startswith(f".trees-{name}.json.") and seen[0].endswith(".tmp")
    monkeypatch.undo()
    assert [path.name for path, _ in store.temporaries()] == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_for_a_key_is_replaced_not_waited_on(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    os.mkfifo(folder / KEY_FILE)
    program = ("import sys, ruleskit\n"
               "from pathlib import Path\n"
               "from ruleskit.cache import Cache\n"
               f"game = ruleskit.load({str(DICE)!r})\n"
               f"print(game.name, Cache(Path(sys.argv[1])).secret() is not None)\n")
    environment = dict(os.environ, RULESKIT_CACHE_DIR=str(folder), PYTHONDONTWRITEBYTECODE="1")
    environment.pop("RULESKIT_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-c", program, str(folder)], capture_output=True, text=True,
                          env=environment, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["dice-race", "True"]
    info = os.lstat(folder / KEY_FILE)
    assert stat.S_ISREG(info.st_mode) and info.st_size == KEY_BYTES and info.st_mode & 0o777 == 0o600
    assert list(folder.glob("trees-*.json"))


def test_a_key_of_the_wrong_size_is_replaced(cache_dir: Path) -> None:
    cache_dir.mkdir(mode=0o700)
    (cache_dir / KEY_FILE).write_bytes(b"short")
    secret = Cache(cache_dir).secret()
    assert secret is not None and len(secret) == KEY_BYTES
    assert (cache_dir / KEY_FILE).read_bytes() == secret


def test_a_key_that_cannot_be_replaced_turns_the_cache_off_and_the_load_still_works(cache_dir: Path) -> None:
    cache_dir.mkdir(mode=0o700)
    (cache_dir / KEY_FILE).mkdir()  # not a file, and not removable as one
    assert Cache(cache_dir).secret() is None
    assert ruleskit.load(DICE).name == "dice-race"
    assert (cache_dir / KEY_FILE).is_dir() and not list(cache_dir.glob("*.json"))


def test_a_file_named_key_in_a_shared_folder_is_neither_read_nor_removed(cache_dir: Path) -> None:
    """`key` was once the cache's key name: in a shared folder it is someone else's file, whatever its size
    (even a private regular file of KEY_BYTES is not taken for the cache's key)."""
    cache_dir.mkdir(mode=0o700)
    for content in (b"x" * 43, b"y" * KEY_BYTES):
        (cache_dir / "key").write_bytes(content)
        (cache_dir / "key").chmod(0o600)
        (cache_dir / KEY_FILE).unlink(missing_ok=True)
        secret = Cache(cache_dir).secret()
        assert secret is not None and secret != content
        assert (cache_dir / KEY_FILE).read_bytes() == secret
        assert (cache_dir / "key").read_bytes() == content


def test_a_load_leaves_every_other_file_in_a_shared_folder_alone(cache_dir: Path) -> None:
    kept = others_files(cache_dir)
    ruleskit.load(DICE)
    assert list(cache_dir.glob("trees-*.json")) and (cache_dir / KEY_FILE).stat().st_size == KEY_BYTES
    for name, content in kept.items():
        assert (cache_dir / name).read_bytes() == content, name


# ------------------------------------------------------------------ links inside a pack and the compiled pack


def first_label(game: ruleskit.Game) -> str:
    return game.new_game(players=2, seed=0).legal_actions()[0].label


def linked_pack(tmp_path: Path, listed: bool) -> Path:
    """connect_four with its flow.toml in two versions, v1 and v2 (whose drop is labelled "V2 drop in ..."),
    reached through a link: the folder link `cur` when the manifest lists `cur/flow.toml`, else the file
    link `flow.toml`."""
    pack = tmp_path / "pack"
    shutil.copytree(CONNECT_FOUR, pack)
    flow = (pack / "flow.toml").read_text(encoding="utf-8")
    assert 'label = "Drop in {col}"' in flow
    (pack / "flow.toml").unlink()
    for version, text in (("v1", flow), ("v2", flow.replace('label = "Drop in {col}"', 'label = "V2 drop in {col}"'))):
        (pack / version).mkdir()
        (pack / version / "flow.toml").write_text(text, encoding="utf-8")
    manifest = (pack / "pack.toml").read_text(encoding="utf-8")
    lines = [line for line in manifest.splitlines() if not line.startswith("files")]
    if listed:
        lines.append('files = ["components.toml", "cur/flow.toml", "rules.rk", "checks.toml", "checks.rk"]')
        os.symlink("v1", pack / "cur")
    else:
        os.symlink("v1/flow.toml", pack / "flow.toml")
    (pack / "pack.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return pack


def repoint(link: Path, target: str) -> None:
    link.unlink()
    os.symlink(target, link)


@pytest.mark.parametrize("listed", [True, False], ids=["folder link listed in files", "file link in the folder"])
def test_a_repointed_link_in_the_pack_is_never_served_from_the_old_entry(cache_dir: Path, tmp_path: Path,
                                                                        listed: bool) -> None:
    pack = linked_pack(tmp_path, listed)
    link, (old, new) = (pack / "cur", ("v1", "v2")) if listed else (pack / "flow.toml", ("v1/flow.toml",
                                                                                           "v2/flow.toml"))
    assert first_label(ruleskit.load(pack)) == "Drop in column 1"
    warm = ruleskit.load(pack)
    assert isinstance(warm.source, DeferredSource) and first_label(warm) == "Drop in column 1"
    repoint(link, new)
    assert first_label(ruleskit.load(pack, cache=False)) == "V2 drop in column 1"
    repointed = ruleskit.load(pack)
    assert not isinstance(repointed.source, DeferredSource)  # a miss: compiled again
    assert first_label(repointed) == "V2 drop in column 1"
    again = ruleskit.load(pack)
    assert isinstance(again.source, DeferredSource) and first_label(again) == "V2 drop in column 1"
    repoint(link, old)
    assert first_label(ruleskit.load(pack)) == "Drop in column 1"
