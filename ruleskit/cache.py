"""A cache of load work shared between processes: plain data only, authenticated, bounded.

Entries are JSON documents, never pickles or code: whatever a cache file
holds, reading it can at worst give data that the caller checks again (see
docs/SECURITY.md, "The load cache"). Each entry carries an HMAC-SHA256 made
with a random key kept in the cache folder (readable by its owner only), so a
torn, truncated or edited entry is a miss, never a wrong result. Writes go to
a temporary file renamed over the entry, so readers in other processes see
the old entry or the new one, never half of one. The folder is kept under
MAX_CACHE_BYTES by removing the entries least recently used.

The folder is `$RULESKIT_CACHE_DIR`, else the platform's user cache folder
(`$XDG_CACHE_HOME/ruleskit`, `~/.cache/ruleskit`, `~/Library/Caches/ruleskit`,
`%LOCALAPPDATA%\\ruleskit\\Cache`). `RULESKIT_NO_CACHE=1` turns it off.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

FORMAT = b"ruleskit-cache 1"
MAX_ENTRY_BYTES = 16 * 1024 * 1024
MAX_CACHE_BYTES = 128 * 1024 * 1024
KEY_FILE = "ruleskit-cache.key"
"""The key's name: one no other program would use, as the folder may be shared. (Before, it was `key`: a
file of that name is never read or removed now, since it may be someone else's.)"""
KEY_BYTES = 32
KEY_ATTEMPTS = 3
"""How many times to replace a key that is not a regular file of KEY_BYTES before giving up on the cache
(someone who can write the folder could put a new one back each time)."""
# The only names the cache reads, prunes or removes: its key KEY_FILE, an entry `<kind>-<SHA-256 hex
# digest>.json`, and the temporary file an entry is written to first. The folder may be shared
# (`RULESKIT_CACHE_DIR=~/.cache`): any other file in it belongs to someone else and is never touched.
ENTRY_NAME = re.compile(r"[a-z][a-z_]*-[0-9a-f]{64}\.json")
TEMPORARY_NAME = re.compile(r"\.([a-z][a-z_]*-[0-9a-f]{64}\.json)\.[a-z0-9_]+\.tmp")
STALE_TEMPORARY_SECONDS = 3600
"""A temporary file this old was left by a process that stopped while writing: pruning removes it."""


def cache_folder() -> Path | None:
    """Where the cache lives for this user, or None when caching is turned off."""
    if os.environ.get("RULESKIT_NO_CACHE", "") not in ("", "0"):
        return None
    explicit = os.environ.get("RULESKIT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    home = Path.home()
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "ruleskit" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "ruleskit"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".cache"  # the XDG rule: relative means unset
    return base / "ruleskit"


def digest(*parts: str | bytes) -> str:
    """A hex SHA-256 of the parts, each length-prefixed so that no two lists of parts collide."""
    hasher = hashlib.sha256()
    for part in parts:
        # A path whose name is not UTF-8 holds its bytes as surrogates: digest those bytes, as the file system has.
        raw = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        hasher.update(len(raw).to_bytes(8, "big"))
        hasher.update(raw)
    return hasher.hexdigest()


class MissingKey(Exception):
    """No usable key file in the cache folder: a new key is to be made."""


class Cache:
    """Entries named by (kind, key); `key` is a hex digest the caller computed from everything the entry depends on."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._secret: bytes | None = None

    # ------------------------------------------------------------- the key that authenticates entries

    def secret(self) -> bytes | None:
        if self._secret is None:
            self._secret = self._read_or_make_secret()
        return self._secret

    def _read_or_make_secret(self) -> bytes | None:
        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            return None
        for _ in range(KEY_ATTEMPTS):
            try:
                return self._read_secret()
            except MissingKey:
                pass
            try:
                return self._make_secret()
            except FileExistsError:  # another process made it first: read theirs
                continue
        return None  # the key keeps changing under us: no cache for this load

    def _read_secret(self) -> bytes | None:
        """The key, or None if the cache must not be used; MissingKey if there is no key file, or a file
        there that is not a regular file of KEY_BYTES (which is removed, to be made anew)."""
        path = self.root / KEY_FILE
        try:
            # Without blocking: a FIFO under the key's name would otherwise wait for a writer forever.
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise MissingKey from None
        except OSError:
            return None  # a link, a socket, a file we may not read: leave it and do without the cache
        try:
            with os.fdopen(fd, "rb") as handle:
                info = os.fstat(handle.fileno())
                usable = stat.S_ISREG(info.st_mode) and info.st_size == KEY_BYTES
                secret = handle.read(KEY_BYTES + 1) if usable else b""  # never read a FIFO or a device
        except OSError:
            return None
        if len(secret) != KEY_BYTES:
            try:
                path.unlink(missing_ok=True)  # removes the name only: nothing is opened for writing
            except OSError:
                return None
            raise MissingKey
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            return None  # a key someone else could have read or written: do not trust the cache
        return secret

    def _make_secret(self) -> bytes | None:
        """A new key, written where there was none (FileExistsError if another process made one first)."""
        secret = os.urandom(KEY_BYTES)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.root / KEY_FILE, flags, 0o600)
        except FileExistsError:
            raise
        except OSError:
            return None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(secret)
        except OSError:
            return None
        return secret

    # ------------------------------------------------------------- entries

    def path(self, kind: str, key: str) -> Path:
        """Where the entry lives: `key` is a SHA-256 hex digest (see `digest`), never text from a pack."""
        name = f"{kind}-{key}.json"
        if not ENTRY_NAME.fullmatch(name):
            raise ValueError(f"bad cache entry name {kind!r} {key!r}")
        return self.root / name

    def _mac(self, secret: bytes, kind: str, key: str, payload: bytes) -> bytes:
        return hmac.new(secret, FORMAT + b"\0" + kind.encode() + b"\0" + key.encode() + b"\0" + payload,
                        hashlib.sha256).hexdigest().encode()

    def get(self, kind: str, key: str, object_hook: Callable[[dict[str, Any]], Any] | None = None) -> Any | None:
        """The entry's JSON value (tables passed through `object_hook`, as `json.loads` does), or None if it
        is missing, damaged, forged or unreadable."""
        secret = self.secret()
        if secret is None:
            return None
        path = self.path(kind, key)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return None
        try:
            with os.fdopen(fd, "rb") as handle:
                info = os.fstat(handle.fileno())
                if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
                    return None
                raw = handle.read(MAX_ENTRY_BYTES + 1)
        except OSError:
            return None
        head, _, rest = raw.partition(b"\n")
        mac, _, payload = rest.partition(b"\n")
        if head != FORMAT or not hmac.compare_digest(mac, self._mac(secret, kind, key, payload)):
            return None
        try:
            value = json.loads(payload, object_hook=object_hook)
        except (ValueError, TypeError, RecursionError):
            return None
        try:
            os.utime(path)  # recently used: pruned last
        except OSError:
            pass
        return value

    def put(self, kind: str, key: str, value: Any) -> bool:
        """Write the entry atomically; False (and nothing written) if it cannot be."""
        secret = self.secret()
        if secret is None:
            return False
        payload = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
        data = FORMAT + b"\n" + self._mac(secret, kind, key, payload) + b"\n" + payload
        if len(data) > MAX_ENTRY_BYTES:
            return False
        import tempfile  # only writes need it (and it imports `random`)

        target = self.path(kind, key)
        try:
            # A name only the cache makes (TEMPORARY_NAME), so that pruning can tell its own leftovers.
            fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=self.root)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(temporary, target)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError:
            return False
        self.prune()
        return True

    def _own_files(self, pattern: re.Pattern[str]) -> list[tuple[Path, os.stat_result]]:
        """The regular files of the folder whose whole name matches `pattern` (links and others skipped)."""
        found = []
        try:
            with os.scandir(self.root) as listing:
                for entry in listing:
                    if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                        found.append((Path(entry.path), entry.stat(follow_symlinks=False)))
        except OSError:
            pass
        return found

    def entries(self) -> list[tuple[Path, os.stat_result]]:
        """The entries in the folder: only names the cache makes, never another `*.json` that lives there."""
        return self._own_files(ENTRY_NAME)

    def temporaries(self) -> list[tuple[Path, os.stat_result]]:
        """The temporary files entries are written to (left behind by a process that stopped mid-write)."""
        return self._own_files(TEMPORARY_NAME)

    def prune(self, limit: int = MAX_CACHE_BYTES) -> None:
        """Remove stale temporary files, then the least recently used entries until the folder holds at
        most `limit` bytes of them."""
        stale_before = time.time() - STALE_TEMPORARY_SECONDS
        _remove([path for path, info in self.temporaries() if info.st_mtime < stale_before])
        entries = self.entries()
        total = sum(info.st_size for _, info in entries)
        for path, info in sorted(entries, key=lambda e: e[1].st_mtime):
            if total <= limit:
                break
            if _remove([path]):
                total -= info.st_size

    def clear(self) -> int:
        """Remove every entry and temporary file of the cache (not the key); the number of entries removed."""
        _remove([path for path, _ in self.temporaries()])
        return _remove([path for path, _ in self.entries()])


def _remove(paths: list[Path]) -> int:
    """Unlink each path, skipping those that cannot be; how many were removed."""
    removed = 0
    for path in paths:
        try:
            path.unlink()
            removed += 1
        except OSError:
            pass
    return removed


_OPEN: dict[Path, Cache] = {}


def default_cache() -> Cache | None:
    """The user's cache (one object per folder in a process), or None when caching is off."""
    folder = cache_folder()
    if folder is None:
        return None
    cache = _OPEN.get(folder)
    if cache is None:
        cache = _OPEN[folder] = Cache(folder)
    return cache
