"""An index of the names a pack defines and uses, for editors: where each is defined, where it is used.

It reads the pack's files as text (an editor's unsaved buffers may stand in
for files on disk), so it works on packs that do not load yet. Definitions:
`rule`, `proc` and `hook` in `.rk` files, events at their `emit`, and the named
tables of the TOML files (`[vars.NAME]`, `[zones.NAME]`, `[kinds.NAME]`, ...),
with the items, fields and vars of kinds. Uses: every name in rule-language
code, in `.rk` files and in the TOML strings that hold expressions or
statements.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import attrs

from .errors import PackError
from .limits import MAX_FILE_BYTES, MAX_PACK_BYTES, MAX_PACK_FILES
from .packs import find_base
from .textlines import file_lines

KEYWORDS = ("rule", "proc", "hook", "on", "modify", "when", "replace", "remove", "let", "set", "if", "elif", "else",
            "then", "for", "in", "not", "and", "or", "move", "of", "from", "to", "top", "bottom", "draw", "shuffle",
            "slide", "into", "block", "unblock", "require", "ensure", "emit", "finish", "goto", "end", "turn", "return", "say",
            "roll", "random", "shuffled", "sample", "choose", "number", "subset", "order", "prompt", "true", "false",
            "none")
# Names every expression may use without a definition in the pack.
PREDEFINED = ("me", "players", "base")
# TOML keys whose strings are text for people, not rule-language code.
TEXT_KEYS = {"label", "message", "reason", "description", "name", "version", "title", "board", "extends",
             "files", "visible", "redraw", "above_max", "below_min", "remove"}
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RK_DEFINITION = re.compile(r"^\s*(?:replace\s+)?(rule|proc)\s+([A-Za-z_]\w*)")
_RK_HOOK = re.compile(r"^\s*(?:replace\s+)?hook\s+([A-Za-z_]\w*)\s+(on|modify)\s+([A-Za-z_]\w*)")
_RK_EMIT = re.compile(r"\bemit\s+([A-Za-z_]\w*)")
# The rest of a header after its name is taken whole, up to the first "]", and never given back (an atomic
# group): a lazy `.+?` before `\s*\]` went back and forth over a long run of spaces, 50 s a request.
_TOML_HEADER = re.compile(r"^\s*\[+\s*(?:(?:replace|update)\.)?([a-z_]+)\.\"?([A-Za-z_][\w-]*)\"?(?:\.((?>[^\]]*)))?\s*\]+")
_TOML_SINGLE = re.compile(r"^\s*\[\s*(?:(?:replace|update)\.)?(board|flow|scoring|report|display)\s*\]")
_TOML_KEY = re.compile(r"^\s*([A-Za-z_][\w.\"-]*)\s*=")
_STRING = re.compile(r'"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*"')
_MAX_CHAIN = 8

SECTION_KIND = {"vars": "var", "counters": "counter", "kinds": "kind", "zones": "zone", "dice": "die",
                "stages": "stage", "phases": "phase", "actions": "action", "end": "end condition",
                "invariants": "invariant", "properties": "property"}


@attrs.frozen
class Place:
    """A span of one line of a file: line and columns count from 0, `end` is exclusive."""

    path: Path
    line: int
    start: int
    end: int


@attrs.frozen
class Symbol:
    name: str
    kind: str  # rule, proc, hook, event, var, counter, kind, item, field, zone, die, stage, phase, action, ...
    place: Place
    detail: str = ""  # the definition's text, for hover
    doc: str = ""  # the comment lines written just above it


@attrs.define
class PackIndex:
    root: Path
    files: list[Path]
    texts: dict[Path, str]
    symbols: dict[str, list[Symbol]] = attrs.Factory(dict)

    # ------------------------------------------------------------- building

    @classmethod
    def build(cls, root: Path, overrides: dict[Path, str] | None = None) -> PackIndex:
        """Index the pack at `root` and its chain of bases; `overrides` are unsaved texts by path."""
        overrides = {p.resolve(): t for p, t in (overrides or {}).items()}
        files: list[Path] = []
        seen: set[Path] = set()
        folder: Path | None = root.resolve()
        while folder is not None and folder not in seen and len(seen) < _MAX_CHAIN:
            seen.add(folder)
            files.extend(pack_files(folder, overrides))
            folder = base_folder(folder, overrides)
        texts = {}
        total = 0
        for path in files:
            text = overrides.get(path)
            if text is None:
                try:
                    # No more than the loader reads: a file over its size, or past the pack's, is left out.
                    big = path.stat().st_size > MAX_FILE_BYTES or total > MAX_PACK_BYTES
                    text = "" if big else path.read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError):
                    text = ""
            total += len(text)
            texts[path] = text
        index = cls(root.resolve(), files, texts)
        for path in files:
            if path.suffix == ".rk":
                index._index_rk(path)
            elif path.name != "pack.toml":
                index._index_toml(path)
        return index

    def _add(self, symbol: Symbol) -> None:
        self.symbols.setdefault(symbol.name, []).append(symbol)

    def _index_rk(self, path: Path) -> None:
        lines = file_lines(self.texts[path])
        for number, line in enumerate(lines):
            code = strip_rk_line(line)
            match = _RK_DEFINITION.match(code)
            if match:
                self._add(Symbol(match.group(2), match.group(1), _place(path, number, match, 2),
                                 _block(lines, number), _comment_above(lines, number)))
            hook = _RK_HOOK.match(code)
            if hook:
                self._add(Symbol(hook.group(1), "hook", _place(path, number, hook, 1), _block(lines, number),
                                 _comment_above(lines, number)))
            for emit in _RK_EMIT.finditer(code):
                self._add(Symbol(emit.group(1), "event", _place(path, number, emit, 1), line.strip()))

    def _index_toml(self, path: Path) -> None:
        lines = file_lines(self.texts[path])
        section = name = ""
        for number, line in enumerate(lines):
            header = _TOML_HEADER.match(line)
            if header:
                section, name, rest = header.group(1), header.group(2), (header.group(3) or "").strip()
                if section in SECTION_KIND and not rest:
                    self._add(Symbol(name, SECTION_KIND[section], _place(path, number, header, 2),
                                     _table(lines, number), _comment_above(lines, number)))
                elif section == "kinds" and rest:
                    part, _, item = rest.partition(".")
                    item = item.strip('"')
                    if part in ("items", "vars") and WORD.fullmatch(item):
                        column = line.rindex(item)
                        self._add(Symbol(item, "item" if part == "items" else f"{name} var",
                                         Place(path, number, column, column + len(item)), _table(lines, number),
                                         _comment_above(lines, number)))
                continue
            if _TOML_SINGLE.match(line):
                section = name = ""
                continue
            if section == "kinds" and name:
                self._index_kind_line(path, lines, number, name)

    def _index_kind_line(self, path: Path, lines: list[str], number: int, kind: str) -> None:
        """Items (`items.ID = ...`), vars (`vars.NAME = ...`) and fields (`fields = { NAME = ... }`) of a kind."""
        line = lines[number]
        key = _TOML_KEY.match(line)
        if not key:
            return
        dotted = key.group(1).replace('"', "")
        head, _, tail = dotted.partition(".")
        if head in ("items", "vars") and WORD.fullmatch(tail) and tail in line:  # not `items.a"b"`, mid-edit
            column = line.index(tail)
            self._add(Symbol(tail, "item" if head == "items" else f"{kind} var",
                             Place(path, number, column, column + len(tail)), line.strip(),
                             _comment_above(lines, number)))
        elif head == "fields" and not tail:
            try:
                fields = tomllib.loads(line.strip()).get("fields", {})
            except tomllib.TOMLDecodeError:
                return
            for field in fields if isinstance(fields, dict) else {}:
                match = re.search(rf"\b{re.escape(field)}\b", line[key.end():])
                if match:
                    column = key.end() + match.start()
                    self._add(Symbol(field, f"{kind} field", Place(path, number, column, column + len(field)),
                                     line.strip()))

    # ------------------------------------------------------------- questions

    def definitions(self, name: str) -> list[Symbol]:
        return list(self.symbols.get(name, []))

    def word_at(self, path: Path, line: int, character: int) -> str | None:
        text = self.texts.get(path.resolve())
        if text is None:
            return None
        lines = file_lines(text)
        if not 0 <= line < len(lines):
            return None
        for match in WORD.finditer(lines[line]):
            if match.start() <= character <= match.end():
                return match.group(0)
        return None

    def references(self, name: str) -> list[Place]:
        """Every place `name` is written as code, and where it is defined."""
        places = {symbol.place for symbol in self.symbols.get(name, [])}
        for path in self.files:
            for number, line in enumerate(file_lines(self.texts[path])):
                for start, word in code_words(path, line):
                    if word == name:
                        places.add(Place(path, number, start, start + len(word)))
        return sorted(places, key=lambda p: (str(p.path), p.line, p.start))

    def names(self) -> list[Symbol]:
        """One symbol per defined name, the first definition of each."""
        return [symbols[0] for symbols in self.symbols.values()]


# ---------------------------------------------------------------- files of a pack


def find_root(path: Path) -> Path | None:
    """The pack folder holding `path`: the nearest folder up with a pack.toml."""
    try:
        for folder in [path if path.is_dir() else path.parent, *path.parents]:
            if (folder / "pack.toml").is_file():
                return folder
    except (OSError, ValueError):  # a name the system refuses (too long): no pack holds it
        return None
    return None


def _manifest(folder: Path, overrides: dict[Path, str]) -> dict[str, object]:
    path = (folder / "pack.toml").resolve()
    try:
        text = overrides.get(path) or path.read_text(encoding="utf-8")
        return tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def pack_files(folder: Path, overrides: dict[Path, str]) -> list[Path]:
    """pack.toml and the files the pack reads, inside its folder."""
    listed = _manifest(folder, overrides).get("files")
    if isinstance(listed, list):
        names = [str(name) for name in listed]
    else:
        names = sorted(p.name for p in folder.iterdir() if p.suffix in (".toml", ".rk") and p.name != "pack.toml")
    files = [(folder / "pack.toml").resolve()]
    # Each file once, and no more of them than a pack may read (a manifest listing one file 3,000 times had
    # the index read it 3,000 times, on every request).
    for name in list(dict.fromkeys(names))[:MAX_PACK_FILES]:
        path = (folder / name).resolve()
        if path.is_relative_to(folder.resolve()) and path.is_file() and path not in files:
            files.append(path)
    return files


def base_folder(folder: Path, overrides: dict[Path, str]) -> Path | None:
    """The folder of a variant's base: relative to the variant, else a path, else a built-in pack."""
    extends = _manifest(folder, overrides).get("extends")
    if not isinstance(extends, str) or not extends:
        return None
    try:
        return find_base(extends, folder)  # as the loader finds it: never from elsewhere
    except PackError:
        return None


# ---------------------------------------------------------------- reading code


def strip_rk_line(line: str) -> str:
    """A line of rule-language code with its comment and string contents blanked (columns kept)."""
    out = []
    in_string = False
    escaped = False
    for char in line:
        if in_string:
            out.append(" " if char != '"' or escaped else '"')
            if char == '"' and not escaped:
                in_string = False
            escaped = char == "\\" and not escaped
        elif char == "#":
            break
        else:
            out.append(char)
            in_string = char == '"'
    return "".join(out)


def code_words(path: Path, line: str) -> list[tuple[int, str]]:
    """(column, word) of the names written as code on one line of a pack file."""
    if path.suffix == ".rk":
        return [(m.start(), m.group(0)) for m in WORD.finditer(strip_rk_line(line)) if m.group(0) not in KEYWORDS]
    if path.name == "pack.toml":
        return []
    key = _TOML_KEY.match(line)
    header = _TOML_HEADER.match(line)
    words: list[tuple[int, str]] = []
    if header is None and key is not None and key.group(1).split(".")[-1].strip('"') in TEXT_KEYS:
        return words
    for string in _STRING.finditer(line):
        inner = string.group(0).strip('"')
        offset = string.start() + string.group(0).index(inner) if inner else string.start()
        code = strip_rk_line(inner.replace('\\"', '  '))
        words += [(offset + m.start(), m.group(0)) for m in WORD.finditer(code) if m.group(0) not in KEYWORDS]
    if key is not None and header is None:
        # Keys naming things: `cost = { walls = 1 }`, `symbols = { pawn = "x" }`, `stage = ...` values are strings.
        for inline in re.finditer(r"[{,]\s*([A-Za-z_]\w*)\s*=", line):
            words.append((inline.start(1), inline.group(1)))
    return words


def _place(path: Path, line: int, match: re.Match[str], group: int) -> Place:
    return Place(path, line, match.start(group), match.end(group))


def _comment_above(lines: list[str], number: int) -> str:
    comments: list[str] = []
    for line in reversed(lines[:number]):
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        comments.insert(0, stripped.lstrip("#").strip())
    return "\n".join(comments)


def _block(lines: list[str], number: int, limit: int = 12) -> str:
    """A definition in a .rk file: its first line, through its closing brace if it opens one."""
    taken = []
    depth = 0
    for line in lines[number:number + limit]:
        taken.append(line)
        code = strip_rk_line(line)
        depth += code.count("{") - code.count("}")
        if depth <= 0:
            break
    return "\n".join(taken)


def _table(lines: list[str], number: int, limit: int = 12) -> str:
    """A TOML table: its header and its keys, up to the next header or blank line."""
    taken = [lines[number]]
    for line in lines[number + 1:number + limit]:
        if not line.strip() or line.lstrip().startswith("["):
            break
        taken.append(line)
    return "\n".join(taken)
