"""`ruleskit lsp`: a language server for pack files (`.rk` and pack TOML), over stdio.

Diagnostics come from loading the pack with the real loader and checker, with
the editor's unsaved buffers standing in for the files on disk. Definitions,
references, hover and completion come from `PackIndex`, which reads the pack's
text and so keeps working while the pack has errors.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, cast
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
    JsonRpcServerNotInitialized,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, json_rpc, lsp_method
from pygls.protocol.json_rpc import RPCRequest
from pygls.uris import from_fs_path, to_fs_path

from .errors import RulesError
from .game import GameBuilder, load
from .lspframing import MALFORMED
from .packindex import (
    KEYWORDS,
    PREDEFINED,
    WORD,
    PackIndex,
    Place,
    Symbol,
    find_root,
    pack_files,
)
from .packs import PackReader
from .textlines import file_lines

SERVER_NAME = "ruleskit"
SURROGATE = re.compile("[\ud800-\udfff]")


class PackProtocol(LanguageServerProtocol):
    """pygls' protocol, but every message it cannot use is answered with an error and the server keeps running:
    a change to a document never opened is ignored (pygls raised a KeyError, shown to the user as an error in
    the server: there is no text to apply it to); a message that could not be read (`lspframing.MALFORMED`) or
    whose fields are not the method's (pygls logged a traceback and never answered, so the editor waited on
    the request) is answered with its JSON-RPC error; a request before `initialize` or after `shutdown` is
    refused as the protocol says (pygls answered the first with a traceback of its missing workspace and
    never answered the second)."""

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Iterator[Any]:
        if unquote(params.text_document.uri) not in self.workspace.text_documents:  # keyed as pygls keys them
            return
        yield from super().lsp_text_document__did_change(params)

    def structure_message(self, data: dict[str, Any]) -> Any:
        if "jsonrpc" not in data:
            return data
        quiet = logging.getLogger(json_rpc.__name__)
        was, quiet.disabled = quiet.disabled, True  # it logs a traceback of the fields it could not read
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            what = "its fields are not those of the method" if isinstance(exc, JsonRpcInvalidParams) \
                else "it could not be read"
            method = data.get("method")
            problem = f"{method if isinstance(method, str) else 'the message'}: {what}"
            return {MALFORMED: {"problem": problem, "id": data.get("id"), "code": exc.code}}
        finally:
            quiet.disabled = was

    def handle_message(self, message: Any) -> None:
        if isinstance(message, dict):
            self.answer_malformed(message.get(MALFORMED))
            return
        method = getattr(message, "method", None)
        if method not in (None, types.INITIALIZE, types.EXIT) and self._workspace is None:
            if isinstance(message, RPCRequest):  # a notification before initialize is dropped, as the protocol says
                self._send_response(message.id, error=types.ResponseError(
                    code=JsonRpcServerNotInitialized.CODE, message=f"{method}: the server is not initialized yet"))
            return
        if method not in (None, types.EXIT) and self._shutdown and isinstance(message, RPCRequest):
            # pygls dropped it without an answer, and the editor waited on it
            self._send_response(message.id, error=types.ResponseError(
                code=JsonRpcInvalidRequest.CODE, message=f"{method}: the server has been shut down"))
            return
        super().handle_message(message)

    def answer_malformed(self, note: Any) -> None:
        """A message that could not be used: an error response to its request (id null when its id is unknown),
        and a line on stderr for the editor's log."""
        note = note if isinstance(note, dict) else {}
        problem = str(note.get("problem") or "the message is not a JSON-RPC message")
        message_id = note.get("id")
        if not isinstance(message_id, (int, str)) or isinstance(message_id, bool):
            message_id = None
        code = note.get("code") if isinstance(note.get("code"), int) else JsonRpcParseError.CODE
        print(f"ruleskit lsp: {problem}", file=sys.stderr, flush=True)
        self._send_data(types.ResponseErrorMessage(id=message_id, error=types.ResponseError(code=code, message=problem)))


class PackServer(LanguageServer):
    """Keeps, per pack folder, the files it last reported diagnostics for (to clear them when fixed)."""

    def __init__(self) -> None:
        from . import __version__

        super().__init__(SERVER_NAME, __version__, protocol_cls=PackProtocol)
        self.reported: dict[Path, set[Path]] = {}

    def overrides(self) -> dict[Path, str]:
        """The open documents' texts, by path."""
        texts = {}
        for uri, document in self.workspace.text_documents.items():
            path = file_of(uri)
            if path is not None:
                texts[path] = document.source
        return texts

    def index_for(self, uri: str) -> tuple[PackIndex, Path] | None:
        path = file_of(uri)
        root = find_root(path) if path is not None else None
        if path is None or root is None:
            return None
        return PackIndex.build(root, self.overrides()), path

    def check(self, uri: str) -> None:
        """Load the pack holding `uri` and publish its error, or clear what was reported before."""
        path = file_of(uri)
        root = find_root(path) if path is not None else None
        if path is None or root is None:
            return
        root = root.resolve()
        found = diagnose(root, self.overrides())
        for stale in self.reported.get(root, set()) - set(found):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=from_fs_path(str(stale)) or "",
                                                                                  diagnostics=[]))
        for file, diagnostics in found.items():
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=from_fs_path(str(file)) or "",
                                                                                  diagnostics=diagnostics))
        self.reported[root] = set(found) | {path}
        if path not in found:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def file_of(uri: str) -> Path | None:
    """The file a document's address names, resolved; None for an address that names no usable file (another
    scheme, or a path with a NUL byte: every later request failed on it while the document stayed open)."""
    path = to_fs_path(uri)
    if not path:
        return None
    try:
        return Path(path).resolve()
    except (OSError, ValueError, RuntimeError):
        return None


def diagnose(root: Path, overrides: dict[Path, str]) -> dict[Path, list[types.Diagnostic]]:
    """The pack's load error as a located diagnostic, by file; empty when the pack loads."""
    try:
        load_with_overrides(root, overrides)
    except RulesError as error:
        file = Path(error.file).resolve() if error.file else root / "pack.toml"
        texts = overrides.get(file)
        if texts is None:
            try:
                texts = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                texts = ""
        message = error.message + (f" ({error.hint})" if error.hint else "")
        return {file: [types.Diagnostic(range=error_range(texts, error.line, error.column), message=message,
                                        severity=types.DiagnosticSeverity.Error, source=SERVER_NAME)]}
    except UnicodeEncodeError:
        # An open text holding a lone surrogate (sent as JSON's "\ud800"): it has no UTF-8 for the loader to read.
        found = not_unicode(root, overrides)
        if found is None:
            raise
        return found
    return {}


def not_unicode(root: Path, overrides: dict[Path, str]) -> dict[Path, list[types.Diagnostic]] | None:
    """A diagnostic at the first lone surrogate in the open texts (the pack's own files first)."""
    for file in sorted(overrides, key=lambda path: not path.is_relative_to(root)):
        for number, line in enumerate(file_lines(overrides[file])):
            match = SURROGATE.search(line)
            if match:
                message = f"the text is not valid Unicode: a lone surrogate U+{ord(match.group()):04X} here"
                return {file: [types.Diagnostic(range=_range(number, match.start(), match.end()), message=message,
                                                severity=types.DiagnosticSeverity.Error, source=SERVER_NAME)]}
    return None


def load_with_overrides(root: Path, overrides: dict[Path, str]) -> None:
    """Load the pack at `root`, with the unsaved texts of its open files (and of its bases') standing for the
    files on disk: read where they are, so a variant's `extends` finds its base as the loader always does."""
    if not any(path in overrides for path in pack_files(root, overrides)):
        load(str(root))
        return
    GameBuilder(PackReader(overrides).read(root), "compiled", False).build()


def error_range(text: str, line: int | None, column: int | None) -> types.Range:
    """The span an error points at: the word at its column, else the line's text."""
    lines = file_lines(text)
    number = max(0, (line or 1) - 1)
    content = lines[number] if number < len(lines) else ""
    if column:
        index = min(max(0, column - 1), len(content))
        for match in WORD.finditer(content):
            if match.start() <= index < match.end() or match.start() == index:
                return _range(number, match.start(), match.end())
        return _range(number, index, min(len(content), index + 1) or index)
    start = len(content) - len(content.lstrip())
    return _range(number, start, len(content))


def _range(line: int, start: int, end: int) -> types.Range:
    return types.Range(start=types.Position(line=line, character=start), end=types.Position(line=line, character=end))


def location(place: Place) -> types.Location:
    return types.Location(uri=from_fs_path(str(place.path)) or "", range=_range(place.line, place.start, place.end))


def hover_text(name: str, symbols: list[Symbol]) -> str | None:
    parts = []
    for symbol in symbols:
        language = "toml" if symbol.place.path.suffix == ".toml" else "ruleskit"
        where = f"{symbol.place.path.name}:{symbol.place.line + 1}"
        part = f"**{symbol.kind}** `{name}` — {where}"
        if symbol.doc:
            part += "\n\n" + symbol.doc
        if symbol.detail:
            part += f"\n\n```{language}\n{symbol.detail}\n```"
        parts.append(part)
    if not parts:
        builtin = builtin_doc(name)
        return f"**built-in** `{name}`: {builtin}" if builtin else None
    return "\n\n---\n\n".join(parts)


def builtin_doc(name: str) -> str | None:
    try:
        from .lang.builtins import BUILTINS
    except ImportError:
        return None
    spec = BUILTINS.get(name)
    return str(getattr(spec, "doc", "")) or None if spec is not None else None


def builtin_names() -> list[str]:
    try:
        from .lang.builtins import BUILTINS
    except ImportError:
        return []
    return sorted(BUILTINS)


COMPLETION_KIND = {"rule": types.CompletionItemKind.Function, "proc": types.CompletionItemKind.Method,
                   "hook": types.CompletionItemKind.Event, "event": types.CompletionItemKind.Event,
                   "kind": types.CompletionItemKind.Class, "item": types.CompletionItemKind.EnumMember,
                   "zone": types.CompletionItemKind.Struct, "stage": types.CompletionItemKind.Enum,
                   "phase": types.CompletionItemKind.Enum, "action": types.CompletionItemKind.Method,
                   "die": types.CompletionItemKind.Constant}


def make_server() -> PackServer:
    server = PackServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PackServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: PackServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: PackServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: PackServer, params: types.DefinitionParams) -> list[types.Location] | None:
        found = ls.index_for(params.text_document.uri)
        if found is None:
            return None
        index, path = found
        word = index.word_at(path, params.position.line, params.position.character)
        return [location(s.place) for s in index.definitions(word)] if word else None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: PackServer, params: types.ReferenceParams) -> list[types.Location] | None:
        found = ls.index_for(params.text_document.uri)
        if found is None:
            return None
        index, path = found
        word = index.word_at(path, params.position.line, params.position.character)
        if not word:
            return None
        places = index.references(word)
        if not params.context.include_declaration:
            defined = {s.place for s in index.definitions(word)}
            places = [p for p in places if p not in defined]
        return [location(p) for p in places]

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: PackServer, params: types.HoverParams) -> types.Hover | None:
        found = ls.index_for(params.text_document.uri)
        if found is None:
            return None
        index, path = found
        word = index.word_at(path, params.position.line, params.position.character)
        text = hover_text(word, index.definitions(word)) if word else None
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["."]))
    def completion(ls: PackServer, params: types.CompletionParams) -> types.CompletionList | None:
        found = ls.index_for(params.text_document.uri)
        if found is None:
            return None
        index, _ = found
        items = [types.CompletionItem(label=s.name, kind=COMPLETION_KIND.get(s.kind, types.CompletionItemKind.Variable),
                                      detail=s.kind) for s in index.names()]
        items += [types.CompletionItem(label=name, kind=types.CompletionItemKind.Function, detail="built-in",
                                       documentation=builtin_doc(name)) for name in builtin_names()]
        items += [types.CompletionItem(label=word, kind=types.CompletionItemKind.Keyword) for word in KEYWORDS]
        items += [types.CompletionItem(label=word, kind=types.CompletionItemKind.Variable, detail="predefined")
                  for word in PREDEFINED]
        return types.CompletionList(is_incomplete=False, items=items)

    return server


def serve() -> None:
    import sys

    from .lspframing import CheckedInput

    make_server().start_io(stdin=cast(BinaryIO, CheckedInput(sys.stdin.buffer)))
