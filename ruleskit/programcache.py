"""A compiled pack kept between processes: its generated code and the tables that code runs with.

A cold load reads, checks and compiles a pack (ruleskit/game.py). Its result
is stored in the user's load cache (ruleskit/cache.py, HMAC-checked) as:

- the list of files the load read, each with the path it was read by and the
  name the manifest lists it by, the file those led to (links followed), its
  SHA-256 and the name errors give it, and the listing of each pack folder: a
  warm load uses the entry only if each of those paths still leads to the
  same file and every file is unchanged;
- the code objects of the generated functions (`marshal`, inside the
  authenticated entry only, as Python's own `__pycache__` keeps bytecode);
- every other value the code and the game refer to, as plain JSON data from
  which the warm load rebuilds it: the model, zones, bounds, the wiring of
  actions, stages, phases and hooks. A closure of the reference backend is
  stored as the name of its code in ruleskit's own modules and the values of
  its cells; a class only if it is one of ruleskit's attrs classes.

Anything else (a value this module cannot describe) means the pack is simply
not stored, and every load compiles it. The entry's name depends on the pack's
folder, the backend, Python, and the size and time of every file of ruleskit
itself, so an upgrade or an edit of ruleskit misses too. See docs/SECURITY.md.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import json
import marshal
import os
import sys
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from .cache import Cache, digest
from .errors import PackError
from .tomlfile import decode_text, parse_toml, read_bytes

if TYPE_CHECKING:
    from .game import Game
    from .packs import PackReader

FORMAT = "1"
TAG = "#"
# Where the classes and functions a stored game refers to may come from: ruleskit's own modules.
_TRUSTED_PREFIX = "ruleskit."
_GAME_LAZY = ("source", "definitions", "generated")  # rebuilt on demand from the pack itself


class NotStorable(Exception):
    """A value of the compiled game that this module cannot describe as data."""


class BadEntry(ValueError):
    """A stored entry that does not describe a game this version can rebuild."""


# ------------------------------------------------------------------ what an entry depends on

_STAMP: list[str] = []


def code_stamp() -> str:
    """A digest of ruleskit's own files (name, size, modification time) and of Python's version."""
    if not _STAMP:  # (the version is in __init__.py, one of those files)
        root = Path(__file__).resolve().parent
        parts: list[str] = [FORMAT, sys.version, sys.implementation.cache_tag or ""]
        folders = [root]
        try:
            from .resources import data_dir

            folders.append(data_dir("grammar"))
        except FileNotFoundError:
            pass
        while folders:
            folder = folders.pop()
            try:
                with os.scandir(folder) as listing:
                    for entry in sorted(listing, key=lambda e: e.name):
                        if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                            folders.append(Path(entry.path))
                        elif entry.name.endswith((".py", ".lark")):
                            info = entry.stat()
                            parts.append(f"{entry.path}:{info.st_size}:{info.st_mtime_ns}")
            except OSError:
                parts.append(f"{folder}:unreadable")
        _STAMP.append(digest(*parts))
    return _STAMP[0]


def pack_folder(ref: str | Path) -> Path | None:
    """The folder `packs.find_pack` finds for `ref` when it finds one, without importing the pack reader
    (None: ask find_pack, which also gives the error)."""
    from .resources import builtin_packs

    candidate = Path(ref)
    try:
        if (candidate / "pack.toml").is_file():
            return candidate.resolve()
        if candidate.name == "pack.toml" and candidate.is_file():
            return candidate.parent.resolve()
    except (OSError, ValueError):
        return None
    folder = builtin_packs().get(str(ref))
    return folder.resolve() if folder is not None else None


def _display_path(path: Path) -> str:
    """The name errors give a file (packs.display_path)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def entry_key(root: Path, backend: str) -> str:
    """The entry's name: ruleskit's code, the backend, the pack's folder, where built-in bases are, and the
    working folder (errors name files relative to it: one entry per folder the pack is loaded from)."""
    from .resources import builtin_packs

    try:
        here = os.getcwd()
    except OSError:
        here = ""
    return digest(code_stamp(), backend, str(root), repr(sorted((n, str(p)) for n, p in builtin_packs().items())),
                  here)


def _folder_listing(folder: Path) -> list[str]:
    try:
        return sorted(p.name for p in folder.iterdir() if p.suffix in (".toml", ".rk"))
    except OSError:
        return []


def recording_reader() -> PackReader:
    """A PackReader that notes every file it reads (the path it was given, where that led, the shown name,
    the digest, and the name the manifest lists it by if it does) and each pack folder."""
    from .packs import PackReader

    class RecordingReader(PackReader):
        def __init__(self) -> None:
            super().__init__()
            self.files: list[list[str]] = []
            self.folders: dict[str, list[str]] = {}
            self.named: dict[Path, list[Path]] = {}  # a listed file's resolved path -> the names that led there

        def read_pack_file(self, root: Path, path: Path) -> tuple[bytes, str]:
            raw, display = super().read_pack_file(root, path)
            resolved = path.resolve()
            listed = str(self.named[resolved].pop(0)) if self.named.get(resolved) else ""
            self.files.append([str(path), str(resolved), display, hashlib.sha256(raw).hexdigest(), listed])
            folder = root.resolve()
            self.folders.setdefault(str(folder), _folder_listing(folder))
            if path == root / "pack.toml":
                self._expect_listed(folder, raw, display)
            return raw, display

        def _expect_listed(self, folder: Path, manifest: bytes, display: str) -> None:
            """Note the files the manifest lists by the names it gives them: packs.py follows their links
            before reading them, so the name itself (`cur/flow.toml`) is gone when the file is read."""
            for name in _listed_names(manifest, display):
                listed = folder / name
                try:
                    self.named.setdefault(listed.resolve(), []).append(listed)
                except (OSError, ValueError, RuntimeError):
                    continue  # the load reports the bad name

    return RecordingReader()


def _listed_names(manifest: bytes, display: str) -> list[str]:
    """The `files` a manifest lists (none if it cannot be read: the load reports why)."""
    try:
        listed = parse_toml(decode_text(manifest, display), display).data.get("files")
    except PackError:
        return []
    return [name for name in listed if isinstance(name, str)] if isinstance(listed, list) else []


def _unchanged(files: Any, folders: Any) -> bool:
    """Whether every file a stored load read still has the same content and shown name."""
    if not isinstance(files, list) or not isinstance(folders, dict):
        return False
    for folder, names in folders.items():
        if _folder_listing(Path(folder)) != names:
            return False
    return all(_file_unchanged(item) for item in files)


def _file_unchanged(item: Any) -> bool:
    """Whether a file a stored load read is still the one a load would read now, with the same shown name
    and content: the path the load was given, and the name the manifest lists it by (if it does), must
    still lead to the same file. A link inside the pack (`cur -> v1`) may since lead elsewhere
    (`cur -> v2`), and a load now would read that."""
    if not (isinstance(item, list) and len(item) == 5 and all(isinstance(x, str) for x in item)):
        return False
    given, resolved, display, sha, listed = item
    if not all(_leads_to(Path(name), resolved) for name in (given, listed) if name):
        return False
    path = Path(given)
    if str(Path(_display_path(path.parent)) / path.name) != display:
        return False  # errors name files relative to the working folder: the code holds those names
    try:
        raw = read_bytes(Path(resolved), display)  # a regular file of bounded size, read without blocking
    except PackError:
        return False
    return hashlib.sha256(raw).hexdigest() == sha


def _leads_to(path: Path, resolved: str) -> bool:
    """Whether `path`, links followed, is still the file `resolved`."""
    try:
        return str(path.resolve()) == resolved
    except (OSError, ValueError, RuntimeError):
        return False


# ------------------------------------------------------------------ storing

def _find_code(module: types.ModuleType, qualname: str, code: types.CodeType) -> list[Any]:
    """How to find `code` again from its module: [outer qualname, index among same-named inner code]."""
    outer, sep, _ = qualname.partition(".<locals>.")
    target: Any = module
    for part in outer.split("."):
        target = getattr(target, part, None)
    if not sep:
        if getattr(target, "__code__", None) is not code:
            raise NotStorable(qualname)
        return [outer, -1]
    found = _inner_code(target, qualname)
    for index, candidate in enumerate(found):
        if candidate is code:
            return [outer, index]
    raise NotStorable(qualname)


def _inner_code(outer: Any, qualname: str) -> list[types.CodeType]:
    start = getattr(outer, "__code__", None)
    if not isinstance(start, types.CodeType):
        return []
    found, stack = [], [start]
    while stack:
        code = stack.pop(0)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                if const.co_qualname == qualname:
                    found.append(const)
                stack.append(const)
    return found


class Encoder:
    """Turns the values a compiled game holds into JSON data, or raises NotStorable."""

    def __init__(self, generated: dict[int, str]) -> None:
        self.generated = generated  # id of a generated function -> its name in the module
        self.seen: dict[int, int] = {}
        self.busy: set[int] = set()
        self.keep: list[Any] = []

    def encode(self, value: Any) -> Any:
        if value is None or type(value) in (bool, int, str):
            return value
        kind = type(value)
        if kind is float:
            raise NotStorable("a float")
        if kind is list:
            return [self.encode(v) for v in value]
        if kind is tuple:
            return {TAG: "tuple", "v": [self.encode(v) for v in value]}
        if kind in (set, frozenset):
            return {TAG: kind.__name__, "v": [self.encode(v) for v in sorted(value, key=repr)]}
        if kind is dict:
            if all(type(k) is str and not k.startswith(TAG) for k in value):
                return {k: self.encode(v) for k, v in value.items()}
            return {TAG: "dict", "k": [self.encode(k) for k in value], "v": [self.encode(v) for v in value.values()]}
        name = self.generated.get(id(value))
        if name is not None:
            return {TAG: "fn", "n": name}
        return self._shared(value)

    def _shared(self, value: Any) -> Any:
        """An object that may be referred to from several places: written once, then by number."""
        known = self.seen.get(id(value))
        if known is not None:
            if id(value) in self.busy:
                raise NotStorable("a cycle")
            return {TAG: "ref", "i": known}
        number = len(self.seen)
        self.seen[id(value)] = number
        self.keep.append(value)
        self.busy.add(id(value))
        try:
            described = self._describe(value)
        finally:
            self.busy.discard(id(value))
        described["i"] = number
        return described

    def _describe(self, value: Any) -> dict[str, Any]:
        kind = type(value)
        module = getattr(kind, "__module__", "")
        if attrs.has(kind) and module.startswith(_TRUSTED_PREFIX):
            fields = {}
            for field in attrs.fields(kind):
                field_value = getattr(value, field.name)
                if field.name == "doc" and kind.__name__ == "Source":
                    field_value = None  # the parsed file: only compiling reads it
                fields[field.name] = self.encode(field_value)
            return {TAG: "obj", "c": f"{module}:{kind.__qualname__}", "f": fields}
        if kind is types.FunctionType:
            fn_module = sys.modules.get(value.__module__ or "")
            if fn_module is None or not value.__module__.startswith(_TRUSTED_PREFIX):
                raise NotStorable(repr(value))
            if value.__kwdefaults__:
                raise NotStorable(repr(value))
            where = _find_code(fn_module, value.__qualname__, value.__code__)
            from .lang.decisions import DecisionCompiler
            from .lang.emitted import VIEW_USERS, CompilerView

            cells = []
            for cell in value.__closure__ or ():
                try:
                    contents = cell.cell_contents
                except ValueError:
                    raise NotStorable("an empty cell") from None
                if isinstance(contents, DecisionCompiler) and value.__qualname__ in VIEW_USERS:
                    contents = CompilerView(contents.model)  # all the closure uses of its compiler
                cells.append(self.encode(contents))
            defaults = self.encode(list(value.__defaults__)) if value.__defaults__ else None
            return {TAG: "code", "m": value.__module__, "q": value.__qualname__, "w": where, "c": cells,
                    "d": defaults}
        raise NotStorable(f"a {kind.__name__}")


def store(cache: Cache, key: str, game: Game, files: list[list[str]], folders: dict[str, list[str]]) -> bool:
    """Write the entry for a freshly compiled game; False (and nothing written) if it cannot be described."""
    compiler = game.generated
    if compiler is None or game.properties_installed or game.check_properties:
        return False
    namespace: dict[str, Any] = compiler.namespace
    label = f"<pack {game.model.name}>"
    functions = {name: fn for name, fn in namespace.items()
                 if type(fn) is types.FunctionType and fn.__name__ == name and fn.__code__.co_filename == label}
    used: set[str] = set()
    stack = [fn.__code__ for fn in functions.values()]
    while stack:
        code = stack.pop()
        used.update(code.co_names)
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    from .lang import support

    fixed = {"__builtins__", "RULES", "PROCS", "PROGRAM", "ITEMS", *support.NAMES}
    constants = {name: namespace[name] for name in sorted(used)
                 if name in namespace and name not in fixed and name not in functions}
    encoder = Encoder({id(fn): name for name, fn in functions.items()})
    fields = {field.name: getattr(game, field.name) for field in attrs.fields(type(game))
              if field.init and field.name not in _GAME_LAZY}
    try:
        tables = encoder.encode({"constants": constants, "game": fields,
                                 "manifest": game.source.manifest, "chain": list(game.source.chain)})
        packed = marshal.dumps({name: fn.__code__ for name, fn in functions.items()})
    except (NotStorable, ValueError, RecursionError):
        return False
    entry = {"files": files, "folders": folders, "root": str(game.source.root), "label": label,
             "code": base64.b64encode(packed).decode("ascii"),
             "tables": json.dumps(tables, separators=(",", ":"), ensure_ascii=False)}
    return cache.put("program", key, entry)


# ------------------------------------------------------------------ rebuilding

class Decoder:
    """Rebuilds the values an Encoder described; raises BadEntry on anything else."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace
        self.objects: dict[int, Any] = {}

    def hook(self, table: dict[str, Any]) -> Any:
        tag = table.get(TAG)
        if tag is None:
            return table
        if tag == "tuple":
            return tuple(table["v"])
        if tag == "set":
            return set(table["v"])
        if tag == "frozenset":
            return frozenset(table["v"])
        if tag == "dict":
            return dict(zip(table["k"], table["v"], strict=True))
        if tag == "fn":
            fn = self.namespace.get(table["n"])
            if type(fn) is not types.FunctionType:
                raise BadEntry("unknown function")
            return fn
        if tag == "ref":
            if table["i"] not in self.objects:
                raise BadEntry("bad reference")
            return self.objects[table["i"]]
        if tag == "obj":
            value = self._object(table["c"], table["f"])
        elif tag == "code":
            value = self._function(table["m"], table["q"], table["w"], table["c"], table["d"])
        else:
            raise BadEntry(f"unknown tag {tag!r}")
        number = table["i"]
        if type(number) is not int or number in self.objects:
            raise BadEntry("bad object number")
        self.objects[number] = value
        return value

    @staticmethod
    def _module(name: Any) -> types.ModuleType:
        if type(name) is not str or not name.startswith(_TRUSTED_PREFIX):
            raise BadEntry("not a module of ruleskit")
        return importlib.import_module(name)

    def _object(self, where: Any, fields: Any) -> Any:
        module_name, _, qualname = str(where).partition(":")
        target: Any = self._module(module_name)
        for part in qualname.split("."):
            target = getattr(target, part, None)
        if not (isinstance(target, type) and attrs.has(target)) or type(fields) is not dict:
            raise BadEntry("not a class of ruleskit")
        names = [field.name for field in attrs.fields(target)]
        if sorted(names) != sorted(fields):
            raise BadEntry("fields differ")
        value = target.__new__(target)
        for name in names:
            object.__setattr__(value, name, fields[name])
        return value

    def _function(self, module_name: Any, qualname: Any, where: Any, cells: Any, defaults: Any) -> Any:
        module = self._module(module_name)
        if type(qualname) is not str or type(where) is not list or len(where) != 2 or type(cells) is not list:
            raise BadEntry("bad function")
        outer, index = where
        target: Any = module
        for part in str(outer).split("."):
            target = getattr(target, part, None)
        if index == -1:
            code = getattr(target, "__code__", None)
        else:
            found = _inner_code(target, qualname)
            code = found[index] if type(index) is int and 0 <= index < len(found) else None
        if not isinstance(code, types.CodeType) or code.co_qualname != qualname \
                or len(code.co_freevars) != len(cells):
            raise BadEntry("bad function")
        if index == -1:  # a function of the module itself: the one the module holds
            if target.__code__ is not code or (defaults is not None and type(defaults) is not list):
                raise BadEntry("bad function")
            return target
        closure = tuple(types.CellType(c) for c in cells) if cells else None
        return types.FunctionType(code, module.__dict__, code.co_name, tuple(defaults) if defaults else None,
                                  closure)


def fetch(cache: Cache, key: str, backend: str) -> Game | None:
    """The game stored under `key`, rebuilt, or None if there is none usable (missing, stale, damaged)."""
    entry = cache.get("program", key)
    if not isinstance(entry, dict) or not _unchanged(entry.get("files"), entry.get("folders")):
        return None
    try:
        return _rebuild(entry, backend)
    except Exception:  # noqa: BLE001 - whatever is wrong with an entry, it is a miss
        return None


def _rebuild(entry: dict[str, Any], backend: str) -> Game:
    from .game import DeferredSource, Game
    from .lang import support

    code = marshal.loads(base64.b64decode(entry["code"], validate=True))
    if type(code) is not dict:
        raise BadEntry("bad code table")
    namespace: dict[str, Any] = {"__builtins__": {}, **support.NAMES}
    for name, function_code in code.items():
        if type(name) is not str or type(function_code) is not types.CodeType \
                or function_code.co_filename != entry["label"]:
            raise BadEntry("bad code")
        namespace[name] = types.FunctionType(function_code, namespace, name)
    decoder = Decoder(namespace)
    tables = json.loads(entry["tables"], object_hook=decoder.hook)
    fields = tables["game"]
    program, model = fields["program"], fields["model"]
    namespace.update(tables["constants"])
    namespace.update({"RULES": program.rules, "PROCS": program.procs, "PROGRAM": program, "ITEMS": model.item_data})
    source = DeferredSource(Path(entry["root"]), tables["manifest"], tables["chain"], fields["content_hash"])
    game = Game(**fields, source=source, definitions=source.structured(), generated=None)  # type: ignore[arg-type]
    if game.backend != backend:
        raise BadEntry("another backend")
    return game
