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
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

FORMAT = b"ruleskit-cache 1"
MAX_ENTRY_BYTES = 16 * 1024 * 1024
MAX_CACHE_BYTES = 128 * 1024 * 1024
KEY_FILE = "key"
KEY_BYTES = 32


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
        raw = part.encode() if isinstance(part, str) else part
        hasher.update(len(raw).to_bytes(8, "big"))
        hasher.update(raw)
    return hasher.hexdigest()


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
        path = self.root / KEY_FILE
        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
            try:
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            except FileNotFoundError:
                return self._make_secret(path)
            with os.fdopen(fd, "rb") as handle:
                info = os.fstat(handle.fileno())
                secret = handle.read(KEY_BYTES + 1)
            if not stat.S_ISREG(info.st_mode) or len(secret) != KEY_BYTES:
                path.unlink(missing_ok=True)
                return self._make_secret(path)
            if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o077):
                return None  # a key someone else could have read or written: do not trust the cache
            return secret
        except OSError:
            return None

    def _make_secret(self, path: Path) -> bytes | None:
        secret = os.urandom(KEY_BYTES)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:  # another process made it first: use theirs
            self._secret = None
            return self._read_or_make_secret()
        with os.fdopen(fd, "wb") as handle:
            handle.write(secret)
        return secret

    # ------------------------------------------------------------- entries

    def path(self, kind: str, key: str) -> Path:
        if not (kind.isidentifier() and key.isalnum()):
            raise ValueError(f"bad cache entry name {kind!r} {key!r}")
        return self.root / f"{kind}-{key}.json"

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

        try:
            fd, temporary = tempfile.mkstemp(prefix=".tmp-", dir=self.root)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(temporary, self.path(kind, key))
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError:
            return False
        self.prune()
        return True

    def entries(self) -> list[tuple[Path, os.stat_result]]:
        found = []
        try:
            with os.scandir(self.root) as listing:
                for entry in listing:
                    if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False):
                        found.append((Path(entry.path), entry.stat(follow_symlinks=False)))
        except OSError:
            pass
        return found

    def prune(self, limit: int = MAX_CACHE_BYTES) -> None:
        """Remove the least recently used entries until the folder holds at most `limit` bytes of them."""
        entries = self.entries()
        total = sum(info.st_size for _, info in entries)
        for path, info in sorted(entries, key=lambda e: e[1].st_mtime):
            if total <= limit:
                break
            try:
                path.unlink()
            except OSError:
                continue
            total -= info.st_size

    def clear(self) -> int:
        """Remove every entry (not the key); the number removed."""
        removed = 0
        for path, _ in self.entries():
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
