"""Finding, reading and merging packs, including chains of variants.

A pack is a folder with `pack.toml` and the TOML and `.rk` files it lists.
A variant names its base with `extends`; it inherits every definition and
adds new ones, replaces (`[replace.SECTION.NAME]`, `replace rule ...`),
updates (`[update.SECTION.NAME]`, a deep merge of keys) or removes
(`remove = ["SECTION.NAME"]`, `remove hook NAME`) the base's.
"""

from __future__ import annotations

import ast
import difflib
import functools
import hashlib
import re
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import cattrs

from .errors import PackError, did_you_mean
from .lang.compiler import Definition, read_module
from .lang.parser import Origin, token_budget
from .limits import MAX_FILE_BYTES, MAX_PACK_BYTES, MAX_PACK_FILES
from .resources import builtin_packs
from .schema import SECTIONS, SINGLETONS, KindDef, Manifest, Source
from .tomlfile import TomlDoc, decode_text, parse_toml, read_bytes

MANIFEST_KEYS = {"name", "version", "players", "files", "extends", "description", "remove", "expect_diff"}
VARIANT_TABLES = ("replace", "update")
MAX_CHAIN = 16
MAX_EXTENDS_UP = 3
# A pack's name becomes part of file names (failure logs), so it holds no path separators or control characters.
PACK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.+-]{0,63}")


@attrs.define
class RawDef:
    """One named definition as written, with where it was written."""

    section: str
    name: str
    data: Any
    doc: TomlDoc
    keypath: tuple[str, ...]
    pack: str
    item_sources: dict[str, tuple[TomlDoc, tuple[str, ...]]] = attrs.Factory(dict)
    # Where the tables that updates were merged over are written, oldest first.
    layers: tuple[tuple[TomlDoc, tuple[str, ...]], ...] = ()

    @property
    def source(self) -> Source:
        return Source(self.doc.path, self.doc.line_of(self.keypath), self.pack, self.doc, self.keypath, self.layers)

    def written(self) -> list[tuple[TomlDoc, tuple[str, ...]]]:
        """Every table that wrote part of this definition: its layers, its own, its items'."""
        return [*self.layers, (self.doc, self.keypath), *self.item_sources.values()]


@attrs.define
class Change:
    """What one layer of a variant chain did to a definition (for `diff`)."""

    pack: str
    action: str  # "add", "replace", "update", "remove"
    key: str
    before: Any = None
    after: Any = None
    where: str = ""  # FILE:LINE of the variant's change, for a replacement or an update


@attrs.define
class PackSource:
    """The merged, not yet compiled, content of a pack and its bases."""

    manifest: Manifest
    root: Path
    chain: list[str]
    defs: dict[tuple[str, str], RawDef]
    definitions: dict[tuple[str, str], Definition]
    content_hash: str
    changes: list[Change] = attrs.Factory(list)


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _is_utf8(name: str) -> bool:
    """Whether a file or folder name (from the system, undecodable bytes kept as surrogates) is UTF-8 text."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_name(name: str) -> str:
    """A name from the system as printable text: bytes that are not UTF-8 shown as \\xNN escapes."""
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


def _utf8_folder(root: Path) -> Path:
    """`root`, a pack folder, unless its path is not UTF-8 text (the cache, logs and messages all need it)."""
    if not _is_utf8(str(root)):
        raise PackError("the pack folder's path is not UTF-8", file=shown_name(str(root)), hint="rename the folder")
    return root


def _is_file(path: Path) -> bool:
    """Whether `path` is a file; a name the system refuses (too long, a NUL byte) is not."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def find_pack(ref: str | Path, relative_to: Path | None = None) -> Path:
    """A pack folder from a path, a path relative to a variant, or a built-in name."""
    text = str(ref)
    candidates = []
    if relative_to is not None:
        candidates.append(relative_to / text)
    candidates.append(Path(text))
    for candidate in candidates:
        if _is_file(candidate / "pack.toml"):
            return _utf8_folder(candidate.resolve())
        if candidate.name == "pack.toml" and _is_file(candidate):
            return _utf8_folder(candidate.parent.resolve())
    builtins = builtin_packs()
    if text in builtins:
        return builtins[text].resolve()
    hint = did_you_mean(text, builtins)
    if hint is None and builtins:
        hint = "built-in packs: " + ", ".join(builtins)
    raise PackError(f"no pack found at '{text}' (a folder with pack.toml, or a built-in pack name)", hint=hint)


def find_base(ref: str, variant: Path) -> Path:
    """The base a variant `extends`: a built-in pack's name, or a relative path from the variant's folder.

    The path is read from the variant's folder only (never the working
    directory), climbs at most MAX_EXTENDS_UP folders, and must reach the
    same folder with links followed as without, so no link inside a pack
    can send the chain somewhere its text does not say.
    """
    builtins = builtin_packs()
    if "/" not in ref and "\\" not in ref and ref not in (".", "..") and ref in builtins:
        return builtins[ref].resolve()
    parts = Path(ref).parts
    if Path(ref).is_absolute() or ref.startswith("~") or "\\" in ref or not ref.strip():
        raise PackError(f"'{ref}' is neither a built-in pack nor a relative path from this pack's folder",
                        hint="write extends = \"NAME\" for a built-in pack or a path like \"../base\"")
    ups = 0
    for part in parts:
        if part != "..":
            break
        ups += 1
    if ups > MAX_EXTENDS_UP or ".." in parts[ups:]:
        raise PackError(f"'{ref}' climbs too far: a base is at most {MAX_EXTENDS_UP} folders up, "
                        "with '..' only at the start")
    import os.path

    lexical = Path(os.path.normpath(variant / ref))
    if not _is_file(lexical / "pack.toml"):
        hint = did_you_mean(ref, builtins)
        raise PackError(f"no pack found at '{ref}' (a folder with pack.toml, or a built-in pack name)", hint=hint)
    resolved = lexical.resolve()
    if resolved != lexical.absolute() and resolved != Path(os.path.normpath(variant.resolve() / ref)):
        raise PackError(f"'{ref}' goes through a link to {resolved}; name the base by its own path")
    return resolved


def pack_folders(ref: str | Path) -> list[Path]:
    """The folders a load of `ref` reads: the pack's and those of the bases it extends, as far as they are
    found (a bad chain is the load's error to report, not this one's). A command's outputs must stay out of them."""
    import tomllib

    folders: list[Path] = []
    try:
        root = find_pack(ref)
    except PackError:
        return folders
    while root not in folders and len(folders) < MAX_CHAIN:
        folders.append(root)
        try:
            manifest = tomllib.loads(read_bytes(root / "pack.toml", "pack.toml").decode("utf-8"))
            extends = manifest.get("extends")
            if not isinstance(extends, str):
                break
            root = find_base(extends, root)
        except (PackError, OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError):
            break
    return folders


def _structure(converter: cattrs.Converter, data: Any, cls: type, doc: TomlDoc, keypath: tuple[str, ...],
               what: str) -> Any:
    if not isinstance(data, dict):
        raise doc.error(keypath, f"{what} should be a table, not {type(data).__name__}")
    for reserved in ("source", "item_lines"):
        if reserved in data:
            raise doc.error(keypath + (reserved,), f"unknown key '{reserved}' in {what}")
    not_list = _first_non_list(data, cls)
    if not_list is not None:
        sub, value = not_list
        raise doc.error(keypath + sub, f"{what}: '{'.'.join(sub)}' should be a list, not {value!r}")
    try:
        return converter.structure(data, cls)
    except cattrs.BaseValidationError as exc:
        messages = cattrs.transform_error(exc)
        first = messages[0] if messages else str(exc)
        message, _, path = first.partition(" @ ")
        sub = _path_parts(path)
        fields = [f.name for f in attrs.fields(_nested_class(cls, sub)) if f.name not in ("source", "item_lines")]
        hint = None
        if message.startswith("extra fields found"):
            extra = message[message.find("(") + 1: message.rfind(")")].split(",")[0].strip()
            sub = sub + (extra,)
            hint = did_you_mean(extra, fields) or ("known keys: " + ", ".join(fields))
            message = f"unknown key '{extra}'"
        elif message.startswith("required field missing"):
            message = f"missing key '{sub[-1]}'" if sub else "missing key"
            sub = sub[:-1]
        elif sub and (allowed := _literal_values(cls, sub)) is not None:
            # cattrs says "unknown error (x not in literal typing.Literal[...])" of a word outside a choice.
            given = _value_at(data, sub)
            message = f"'{'.'.join(sub)}' is {given!r}, not one of {', '.join(repr(v) for v in allowed)}"
            hint = did_you_mean(given, [str(v) for v in allowed]) if isinstance(given, str) else None
        else:
            wrong = _first_wrong_type(exc)
            if wrong is None and sub and _expects_table(cls, sub):
                wrong = _not_a_table(data, sub)
            if wrong is not None and sub:
                message = f"'{'.'.join(sub)}' {wrong}"
            else:
                message = f"{message} at '{'.'.join(sub)}'" if sub else message
        raise doc.error(keypath + sub, f"{what}: {message}", hint) from None


def _literal_values(cls: type, sub: tuple[str, ...]) -> tuple[Any, ...] | None:
    """The words a key at `sub` inside `cls` may take, when its schema type is a choice of them (`Literal`)."""
    field_type = _field_types(_nested_class(cls, sub[:-1])).get(sub[-1])
    if typing.get_origin(field_type) is typing.Literal:
        return typing.get_args(field_type)
    return None


def _value_at(data: Any, sub: tuple[str, ...]) -> Any:
    """The value at `sub` inside the table `data` (None if a part is missing)."""
    for part in sub:
        data = data.get(part) if isinstance(data, dict) else None
    return data


def _field_types(cls: type) -> dict[str, Any]:
    return {f.name: f.type for f in attrs.fields(attrs.resolve_types(cls))}


def _nested_class(cls: type, sub: tuple[str, ...]) -> type:
    """The attrs class of the table at `sub` inside `cls` (for hints about its keys)."""
    for part in sub:
        nested = _field_types(cls).get(part)
        if not (isinstance(nested, type) and attrs.has(nested)):
            break
        cls = nested
    return cls


def _first_non_list(data: dict[str, Any], cls: type, sub: tuple[str, ...] = ()) -> tuple[tuple[str, ...], Any] | None:
    """A key whose schema type is a list but whose value is not (cattrs would split a string into letters)."""
    for name, field_type in _field_types(cls).items():
        if name not in data:
            continue
        value = data[name]
        if typing.get_origin(field_type) is list and not isinstance(value, list):
            return sub + (name,), value
        if isinstance(field_type, type) and attrs.has(field_type) and isinstance(value, dict):
            found = _first_non_list(value, field_type, sub + (name,))
            if found is not None:
                return found
    return None


def _expects_table(cls: Any, sub: tuple[str, ...]) -> bool:
    """Whether the schema wants a table at `sub` inside `cls` (a nested class, or a table of them)."""
    for part in sub:
        if isinstance(cls, type) and attrs.has(cls):
            cls = _field_types(cls).get(part)
        elif typing.get_origin(cls) is dict:
            cls = typing.get_args(cls)[1]
        else:
            return False
    return (isinstance(cls, type) and attrs.has(cls)) or typing.get_origin(cls) is dict


def _not_a_table(data: dict[str, Any], sub: tuple[str, ...]) -> str | None:
    """What is wrong with the value at `sub` when it is not a table where the schema wants one (`vars = { hp =
    "int" }` for `vars = { hp = { type = "int" } }`): cattrs reports only that it has no `keys`."""
    value: Any = data
    for part in sub:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    if isinstance(value, dict):
        return None
    return f"should be a table, not {_TYPE_NAMES.get(type(value), type(value).__name__)} ({value!r})"


def _first_wrong_type(exc: BaseException) -> str | None:
    """The message of the first WrongType inside a (nested) cattrs validation error."""
    if isinstance(exc, WrongType):
        return str(exc)
    for inner in getattr(exc, "exceptions", ()):
        found = _first_wrong_type(inner)
        if found is not None:
            return found
    return None


# A part of a cattrs error path: `.name`, or `[key]` with the key written as Python writes it (`['a.b']`, `[0]`).
_PATH_PART = re.compile(r"""\.([A-Za-z_][A-Za-z0-9_]*)|\[('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?\d+)\]""")


def _path_parts(path: str) -> tuple[str, ...]:
    """The keys of a cattrs error path (`$.groups['a.b']`): a table's own key may hold dots, brackets and
    escapes, and splitting the path at its dots lost its line (an error naming the file alone)."""
    path = path.strip().removeprefix("$")
    parts: list[str] = []
    for found in _PATH_PART.finditer(path):
        name, key = found.groups()
        parts.append(name if name is not None else str(ast.literal_eval(key)))
    return tuple(parts)


_TYPE_NAMES = {int: "an integer", str: "a string", bool: "true or false"}


class WrongType(ValueError):
    """A TOML value of the wrong type (cattrs would otherwise coerce "2" to 2 or 1 to True)."""


def _strict(kind: type) -> Any:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise WrongType(f"should be {_TYPE_NAMES[kind]}, not {value!r}")
        return value

    return structure


@functools.lru_cache(maxsize=1)
def make_converter() -> cattrs.Converter:
    """One converter per process: cattrs generates the code that structures each class on first use."""
    converter = cattrs.Converter(forbid_extra_keys=True)
    for kind in _TYPE_NAMES:
        converter.register_structure_hook(kind, _strict(kind))
    return converter


class PackReader:
    """Reads a pack and its chain of bases into one PackSource."""

    def __init__(self, overrides: dict[Path, str] | None = None) -> None:
        self.converter = make_converter()
        self.hasher = hashlib.sha256()
        self.total_bytes = 0
        # Texts that stand for files of the pack (an editor's unsaved buffers), by resolved path.
        self.overrides = {path.resolve(): text for path, text in (overrides or {}).items()}

    def read_pack_file(self, root: Path, path: Path) -> tuple[bytes, str]:
        """The bytes and display name of a file of the pack at `root`: a regular file inside the folder.

        Every pack file is read through here, so the size of the whole chain is bounded too.
        """
        display = str(Path(display_path(path.parent)) / path.name)  # the name as written, not where a link leads
        try:
            resolved = path.resolve()
        except (OSError, ValueError, RuntimeError):
            raise PackError("not a usable file name", file=display) from None
        if root.resolve() not in resolved.parents:
            raise PackError(f"a link to a file outside the pack folder ({resolved})", file=display)
        override = self.overrides.get(resolved)
        if override is not None:
            raw = override.encode("utf-8")
            if len(raw) > MAX_FILE_BYTES:
                raise PackError(f"file too large: {len(raw)} bytes (at most {MAX_FILE_BYTES})", file=display)
        else:
            raw = read_bytes(resolved, display)
        self.total_bytes += len(raw)
        if self.total_bytes > MAX_PACK_BYTES:
            raise PackError(f"the pack and its bases are larger than {MAX_PACK_BYTES} bytes", file=display)
        return raw, display

    def read(self, ref: str | Path) -> PackSource:
        root = find_pack(ref)
        with token_budget():  # the .rk files of the whole chain
            return self._read(root, [])

    def _read(self, root: Path, seen: list[Path]) -> PackSource:
        _utf8_folder(root)
        if root in seen:
            cycle = " -> ".join(p.name for p in seen + [root])
            raise PackError(f"variant chain loops back on itself: {cycle}", file=display_path(root / "pack.toml"))
        if len(seen) >= MAX_CHAIN:
            raise PackError(f"variant chain longer than {MAX_CHAIN} packs", file=display_path(root / "pack.toml"))
        manifest_raw, manifest_name = self.read_pack_file(root, root / "pack.toml")
        manifest_doc = parse_toml(decode_text(manifest_raw, manifest_name), manifest_name)
        manifest = self._manifest(manifest_doc)
        base: PackSource | None = None
        if manifest.extends:
            try:
                base_root = find_base(manifest.extends, root)
            except PackError as exc:
                raise manifest_doc.error(("extends",), f"extends '{manifest.extends}': {exc.message}", exc.hint) from None
            if base_root in seen or base_root == root:
                cycle = " -> ".join(p.name for p in seen + [root, base_root])
                raise manifest_doc.error(("extends",), f"variant chain loops back on itself: {cycle}")
            base = self._read(base_root, seen + [root])
        self._hash_file(root / "pack.toml", manifest_raw)
        layer = _Layer(self, manifest, root, manifest_doc, base)
        return layer.merge()

    def _manifest(self, doc: TomlDoc) -> Manifest:
        data = {k: v for k, v in doc.data.items() if k in MANIFEST_KEYS and k != "remove"}
        for key in doc.data:
            if key not in MANIFEST_KEYS:
                raise doc.error((key,), f"unknown key '{key}' in pack.toml",
                                did_you_mean(key, MANIFEST_KEYS) or "definitions go in the files the pack lists")
        manifest = _structure(self.converter, data, Manifest, doc, (), "pack.toml")
        if not PACK_NAME.fullmatch(manifest.name):
            raise doc.error(("name",), f"pack name {manifest.name!r} may hold only letters, digits, spaces and "
                            "_ . + - (at most 64, starting with a letter or digit)")
        if manifest.players.min < 1 or manifest.players.max < manifest.players.min or manifest.players.max > 16:
            raise doc.error(("players",), "players needs 1 <= min <= max <= 16")
        return manifest

    def _hash_file(self, path: Path, raw: bytes) -> None:
        self.hasher.update(path.name.encode("utf-8", "surrogatepass"))
        self.hasher.update(raw)


class _Layer:
    """One pack of a chain, merged over its base."""

    def __init__(self, reader: PackReader, manifest: Manifest, root: Path, manifest_doc: TomlDoc,
                 base: PackSource | None) -> None:
        self.reader = reader
        self.manifest = manifest
        self.root = root
        self.manifest_doc = manifest_doc
        self.base = base
        self.defs: dict[tuple[str, str], RawDef] = dict(base.defs) if base else {}
        self.definitions: dict[tuple[str, str], Definition] = dict(base.definitions) if base else {}
        self.base_keys = set(self.defs)
        self.base_definitions = set(self.definitions)
        self.added_here: set[tuple[str, str]] = set()
        self.changes: list[Change] = list(base.changes) if base else []

    @property
    def is_variant(self) -> bool:
        return self.base is not None

    @property
    def base_label(self) -> str:
        """How errors name the base: "the base pack 'NAME'"."""
        return f"the base pack '{self.base.manifest.name}'" if self.base else "the base pack"

    def _suggest(self, name: str, candidates: Mapping[str, str | None]) -> str | None:
        """A did-you-mean hint that also says where the suggested base definition is written."""
        close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.6)
        if not close:
            return None
        where = candidates[close[0]]
        return f"did you mean '{close[0]}'?" + (f" (defined at {where})" if where else "")

    def _toml_candidates(self, section: str) -> dict[str, str | None]:
        return {n: _at(raw.source.file, raw.source.line) for (s, n), raw in self.defs.items() if s == section}

    def _rk_candidates(self, group: str) -> dict[str, str | None]:
        return {n: d.location for (g, n), d in self.definitions.items() if g == group}

    def merge(self) -> PackSource:
        for path in self._files():
            raw, display = self.reader.read_pack_file(self.root, path)
            self.reader._hash_file(path, raw)
            if path.suffix == ".rk":
                self._merge_module(decode_text(raw, display), display)
            else:
                self._merge_toml(parse_toml(decode_text(raw, display), display))
        self._apply_removals(self.manifest_doc)
        chain = (self.base.chain if self.base else []) + [self.manifest.name]
        return PackSource(self.manifest, self.root, chain, self.defs, self.definitions,
                          self.reader.hasher.hexdigest(), self.changes)

    def _files(self) -> list[Path]:
        root = self.root.resolve()
        if not self.manifest.files:
            found = []
            for entry in sorted(root.iterdir()):
                if entry.suffix in (".toml", ".rk") and entry.name != "pack.toml":
                    if not _is_utf8(entry.name):
                        raise self.manifest_doc.error(
                            (), f"the name of the pack file '{shown_name(entry.name)}' in the folder is not UTF-8",
                            "rename it, or list the pack's files in pack.toml")
                    found.append(entry)
                    if len(found) > MAX_PACK_FILES:
                        raise self.manifest_doc.error((), f"more than {MAX_PACK_FILES} pack files in the folder")
            return found
        if len(self.manifest.files) > MAX_PACK_FILES:
            raise self.manifest_doc.error(("files",), f"more than {MAX_PACK_FILES} files listed")
        result = []
        for name in self.manifest.files:
            try:
                path = (root / name).resolve()
            except (OSError, ValueError):
                raise self.manifest_doc.error(("files",), f"file name {name!r} is not a usable path") from None
            if root not in path.parents:
                raise self.manifest_doc.error(("files",), f"file '{name}' points outside the pack folder")
            if path.suffix not in (".toml", ".rk"):
                raise self.manifest_doc.error(("files",), f"file '{name}' is neither .toml nor .rk")
            if not _exists(path):
                raise self.manifest_doc.error(("files",), f"file '{name}' listed in pack.toml does not exist")
            if not _is_file(path):
                raise self.manifest_doc.error(("files",), f"file '{name}' is not a regular file")
            result.append(path)
        return result

    # ------------------------------------------------------------- TOML

    def _merge_toml(self, doc: TomlDoc) -> None:
        known = list(SECTIONS) + list(SINGLETONS) + list(VARIANT_TABLES) + ["remove"]
        for key, value in doc.data.items():
            if key in SECTIONS:
                if not isinstance(value, dict):
                    raise doc.error((key,), f"[{key}] should be a table of named definitions")
                for name, data in value.items():
                    self._add(key, name, data, doc, (key, name))
            elif key in SINGLETONS:
                self._add(key, "", value, doc, (key,))
            elif key in VARIANT_TABLES:
                self._variant_table(key, value, doc)
            elif key == "remove":
                continue
            else:
                raise doc.error((key,), f"unknown section '{key}'", did_you_mean(key, known))
        self._apply_removals(doc)

    def _add(self, section: str, name: str, data: Any, doc: TomlDoc, keypath: tuple[str, ...]) -> None:
        key = (section, name)
        label = f"{section}.{name}" if name else section
        if key in self.defs:
            existing = self.defs[key]
            if key in self.base_keys and key not in self.added_here:
                if section == "kinds" and isinstance(data, dict) and set(data) == {"items"}:
                    self._add_items(existing, data["items"], doc, keypath)
                    return
                raise doc.error(keypath, f"{label} is already defined by pack '{existing.pack}' "
                                f"({existing.source.file}:{existing.source.line})",
                                f"to change it write [replace.{label}] or [update.{label}]")
            raise doc.error(keypath, f"{label} is defined twice (first at {existing.source.file}:{existing.source.line})")
        raw = RawDef(section, name, data, doc, keypath, self.manifest.name)
        if section == "kinds" and isinstance(data, dict):
            items = data.get("items", {})
            if isinstance(items, dict):
                raw.item_sources = {item: (doc, keypath + ("items", item)) for item in items}
        self.defs[key] = raw
        self.added_here.add(key)
        if self.is_variant:
            self.changes.append(Change(self.manifest.name, "add", label, None, data))

    def _add_items(self, existing: RawDef, items: Any, doc: TomlDoc, keypath: tuple[str, ...]) -> None:
        if not isinstance(items, dict):
            raise doc.error(keypath + ("items",), "items should be a table of item ids")
        merged = dict(existing.data)
        old_items = dict(merged.get("items", {}))
        for item, values in items.items():
            if item in old_items:
                raise doc.error(keypath + ("items", item), f"item '{item}' already exists in kind '{existing.name}'",
                                f"write [update.kinds.{existing.name}.items.{item}] to change it")
            old_items[item] = values
            self.changes.append(Change(self.manifest.name, "add", f"kinds.{existing.name}.items.{item}", None, values))
        merged["items"] = old_items
        raw = attrs.evolve(existing, data=merged)
        raw.item_sources = dict(existing.item_sources)
        raw.item_sources.update({item: (doc, keypath + ("items", item)) for item in items})
        self.defs[(existing.section, existing.name)] = raw

    def _variant_table(self, table: str, value: Any, doc: TomlDoc) -> None:
        if not self.is_variant:
            raise doc.error((table,), f"[{table}.*] is for variants; this pack has no 'extends'")
        if not isinstance(value, dict):
            raise doc.error((table,), f"[{table}] should hold tables like [{table}.actions.NAME]")
        for section, entries in value.items():
            if section in SINGLETONS:
                self._change(table, section, "", entries, doc, (table, section))
            elif section in SECTIONS:
                if not isinstance(entries, dict):
                    raise doc.error((table, section), f"[{table}.{section}] should hold named definitions")
                for name, data in entries.items():
                    self._change(table, section, name, data, doc, (table, section, name))
            else:
                raise doc.error((table, section), f"unknown section '{section}'",
                                did_you_mean(section, list(SECTIONS) + list(SINGLETONS)))

    def _change(self, table: str, section: str, name: str, data: Any, doc: TomlDoc, keypath: tuple[str, ...]) -> None:
        key = (section, name)
        label = f"{section}.{name}" if name else section
        if key not in self.defs:
            raise doc.error(keypath, f"cannot {table} {label}: {self.base_label} has no such definition",
                            self._suggest(name, self._toml_candidates(section)) if name
                            else f"write [{section}] to give the variant one")
        existing = self.defs[key]
        if section == "kinds" and isinstance(data, dict) and "items" in data and not isinstance(data["items"], dict):
            raise doc.error(keypath + ("items",), f"{label}.items should be a table of items, like "
                            f"[{table}.{label}.items.NAME]")
        if table == "replace":
            new = RawDef(section, name, data, doc, keypath, self.manifest.name)
            if section == "kinds" and isinstance(data, dict):
                new.item_sources = {i: (doc, keypath + ("items", i)) for i in data.get("items", {})}
        else:
            if not isinstance(data, dict) or not isinstance(existing.data, dict):
                raise doc.error(keypath, f"update needs tables on both sides for {label}")
            merged = _deep_merge(existing.data, data)
            new = attrs.evolve(existing, data=merged, doc=doc, keypath=keypath, pack=self.manifest.name,
                               layers=(*existing.layers, (existing.doc, existing.keypath)))
            new.item_sources = dict(existing.item_sources)
            for item in data.get("items", {}) if section == "kinds" else ():
                new.item_sources[item] = (doc, keypath + ("items", item))
        self.defs[key] = new
        self.changes.append(Change(self.manifest.name, table, label, existing.data, new.data,
                                   _at(doc.path, doc.line_of(keypath))))

    def _apply_removals(self, doc: TomlDoc) -> None:
        removals = doc.data.get("remove", [])
        if not removals:
            return
        if not self.is_variant:
            raise doc.error(("remove",), "'remove' is for variants; this pack has no 'extends'")
        if not isinstance(removals, list) or not all(isinstance(r, str) for r in removals):
            raise doc.error(("remove",), "'remove' should be a list of names like \"actions.NAME\"")
        for entry in removals:
            self._remove(entry, doc)

    def _remove(self, entry: str, doc: TomlDoc) -> None:
        parts = entry.split(".")
        if len(parts) == 4 and parts[0] == "kinds" and parts[2] == "items":
            key = ("kinds", parts[1])
            kind = self.defs[key].data if key in self.defs else None
            held = kind.get("items") if isinstance(kind, dict) else None
            if not isinstance(held, dict) or parts[3] not in held:  # a broken base has no table of items
                items = list(held) if isinstance(held, dict) else []
                raise doc.error(("remove",), f"cannot remove {entry}: no such item", did_you_mean(parts[3], items))
            existing = self.defs[key]
            data = dict(existing.data)
            data["items"] = {k: v for k, v in data["items"].items() if k != parts[3]}
            self.defs[key] = attrs.evolve(existing, data=data)
            self.changes.append(Change(self.manifest.name, "remove", entry, existing.data["items"][parts[3]], None))
            return
        section, _, name = entry.partition(".")
        key = (section, name)
        if section in SINGLETONS:
            if name:  # `scoring.x` would take the whole of [scoring] away
                raise doc.error(("remove",), f"cannot remove {entry}: [{section}] is removed whole, as "
                                f"\"{section}\"", f"write \"{section}\", or [update.{section}] to change a key")
            key = (section, "")
        if key not in self.defs:
            names = {f"{s}.{n}" if n else s: _at(raw.source.file, raw.source.line) for (s, n), raw in self.defs.items()}
            raise doc.error(("remove",), f"cannot remove {entry}: {self.base_label} has no such definition",
                            self._suggest(entry, names))
        self.changes.append(Change(self.manifest.name, "remove", entry, self.defs[key].data, None))
        del self.defs[key]

    # ------------------------------------------------------------- rule language

    def _merge_module(self, text: str, display: str) -> None:
        definitions, removals = read_module(text, Origin(display), self.manifest.name)
        for definition in definitions:
            group = "hook" if definition.kind in ("on", "modify") else "rule"
            key = (group, definition.name)
            label = f"{'hook' if group == 'hook' else definition.kind} {definition.name}"
            existing = self.definitions.get(key)
            if definition.replace:
                if not self.is_variant:
                    raise PackError(f"cannot replace {label}: 'replace' is for variants; this pack has no 'extends'",
                                    file=display, line=definition.line)
                if existing is None or key not in self.base_definitions:
                    raise PackError(f"cannot replace {label}: {self.base_label} has no such definition",
                                    file=display, line=definition.line,
                                    hint=self._suggest(definition.name, self._rk_candidates(group)))
                self.changes.append(Change(self.manifest.name, "replace", label, existing.text, definition.text,
                                           _at(display, definition.line)))
            elif existing is not None:
                if key in self.base_definitions and existing.pack != self.manifest.name:
                    raise PackError(f"{label} is already defined by pack '{existing.pack}' ({existing.location})",
                                    file=display, line=definition.line,
                                    hint=f"write 'replace {definition.kind if group == 'rule' else 'hook'} ...' to change it")
                raise PackError(f"{label} is defined twice (first at {existing.location})", file=display,
                                line=definition.line)
            elif self.is_variant:
                self.changes.append(Change(self.manifest.name, "add", label, None, definition.text))
            self.definitions[key] = definition
        for kind, name, line in removals:
            group = "hook" if kind == "hook" else "rule"
            key = (group, name)
            if key not in self.definitions:
                raise PackError(f"cannot remove {kind} {name}: {self.base_label} has no such definition",
                                file=display, line=line, hint=self._suggest(name, self._rk_candidates(group)))
            self.changes.append(Change(self.manifest.name, "remove", f"{kind} {name}",
                                       self.definitions[key].text, None))
            del self.definitions[key]


def removal_hint(message: str, changes: list[Change], file: str | None = None) -> str | None:
    """If an error's message quotes a name that a variant of the chain removed, a hint saying which variant
    removed it (the error itself is found where the base still uses the name); else, for an error in another
    file than the change's, one that a variant replaced or updated (a rule given another number of parameters
    fails where the base calls it)."""
    quoted = set(re.findall(r"'([^']+)'", message))
    for change in changes:
        if change.action == "remove" and re.split(r"[. ]", change.key)[-1] in quoted:
            return f"the variant '{change.pack}' removes {change.key}, which this still uses"
    for change in reversed(changes):  # the last change is the one in force
        if change.action in ("replace", "update") and re.split(r"[. ]", change.key)[-1] in quoted \
                and change.where.rpartition(":")[0] != file:
            verb = "replaces" if change.action == "replace" else "updates"
            return f"the variant '{change.pack}' {verb} {change.key} at {change.where}, which this still uses as " \
                   "it was"
    return None


def changed_definition_hint(file: str | None, line: int | None, source: PackSource) -> str | None:
    """For an error at FILE:LINE inside a definition that a variant of the chain replaced or updated in another
    file (or inside a property following an action, hook or procedure so changed, whose parameters it reads),
    a hint naming that change: the error is found in the base's text, which was written for the definition as
    it was (an action's parameter given another type fails in the base's effect or properties)."""
    if file is None or line is None or not source.changes:
        return None
    owner: RawDef | None = None
    start = 0
    firsts: dict[int, dict[tuple[str, ...], int]] = {}  # by doc: each key path's first line, found in one pass
    for raw in source.defs.values():
        for doc, keypath in raw.written():
            if doc.path != file:
                continue
            if id(doc) not in firsts:
                firsts[id(doc)] = _first_lines(doc)
            at = firsts[id(doc)].get(keypath)
            if at is not None and start < at <= line:  # the table holding the line is the last one above it
                owner, start = raw, at
    if owner is None:
        return None
    keys = [f"{owner.section}.{owner.name}" if owner.name else owner.section]
    after = owner.data.get("after") if owner.section == "properties" and isinstance(owner.data, dict) else None
    if isinstance(after, str):
        words = after.split()
        keys.append(" ".join(words) if len(words) == 2 and words[0] in ("hook", "proc") else f"actions.{after.strip()}")
    for change in reversed(source.changes):  # the last change is the one in force
        if change.action in ("replace", "update") and change.key in keys and change.where.rpartition(":")[0] != file:
            verb = "replaces" if change.action == "replace" else "updates"
            return f"the variant '{change.pack}' {verb} {change.key} at {change.where}, which this still uses as " \
                   "it was"
    return None


def _first_lines(doc: TomlDoc) -> dict[tuple[str, ...], int]:
    """The first line of every key path of `doc` and of every table above one (a table written only as dotted
    headers starts at its first child): `line_of` for all of them at once, not one walk of the file each."""
    firsts: dict[tuple[str, ...], int] = {}
    for path, number in doc.lines.items():
        for end in range(1, len(path) + 1):
            part = path[:end]
            if number < firsts.get(part, number + 1):
                firsts[part] = number
    return firsts


def _at(file: str, line: int | None) -> str:
    return f"{file}:{line}" if line else file


def _deep_merge(base: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    result = dict(base)
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = _deep_merge(result[key], value)
        else:
            result[key] = value
    return result


def structure_defs(source: PackSource) -> dict[str, Any]:
    """Turn merged raw definitions into schema objects, section by section."""
    converter = make_converter()
    result: dict[str, Any] = {section: {} for section in SECTIONS}
    for singleton in SINGLETONS:
        result[singleton] = None
    for (section, name), raw in source.defs.items():
        label = f"[{section}.{name}]" if name else f"[{section}]"
        if section == "display":
            if not isinstance(raw.data, dict):
                raise raw.doc.error(raw.keypath, "[display] should be a table")
            result["display"] = raw.data
            continue
        cls = SECTIONS.get(section) or SINGLETONS[section]
        obj = _structure(converter, raw.data, cls, raw.doc, raw.keypath, label)
        obj.source = raw.source
        if isinstance(obj, KindDef):
            for var_name, var in obj.vars.items():
                keypath = raw.keypath + ("vars", var_name)
                var.source = Source(raw.doc.path, raw.doc.line_of(keypath), raw.pack, raw.doc, keypath)
            for item, (doc, keypath) in raw.item_sources.items():
                obj.item_lines[item] = Source(doc.path, doc.line_of(keypath), raw.pack, doc, keypath)
            for item, values in obj.items.items():
                if not isinstance(values, dict):
                    doc, keypath = raw.item_sources.get(item, (raw.doc, raw.keypath))
                    raise doc.error(keypath, f"item '{item}' should be a table of field values")
        if name:
            result[section][name] = obj
        else:
            result[section] = obj
    return result
