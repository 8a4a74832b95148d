"""The language server, driven end to end by pygls' own LSP client over stdio (`ruleskit lsp`)."""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

PACKS = Path(__file__).resolve().parents[1] / "packs"
TIMEOUT = 30.0


def uri(path: Path) -> str:
    return from_fs_path(str(path)) or ""


class Session:
    """A client talking to `python -m ruleskit.cli lsp`, collecting published diagnostics."""

    def __init__(self) -> None:
        self.client = LanguageClient("ruleskit-tests", "1")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.published = asyncio.Event()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = list(params.diagnostics)
            self.published.set()

        self.messages: list[str] = []

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def show(params: types.ShowMessageParams) -> None:
            # A message (such as "Error in server: ...") also ends a wait for diagnostics: one may never come.
            self.messages.append(params.message)
            self.published.set()

    async def start(self, root: Path) -> None:
        await self.client.start_io(sys.executable, "-m", "ruleskit.cli", "lsp")
        await asyncio.wait_for(self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=uri(root))), TIMEOUT)
        self.client.initialized(types.InitializedParams())

    async def open(self, path: Path, text: str | None = None) -> None:
        self.published.clear()
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
            uri=uri(path), language_id="ruleskit" if path.suffix == ".rk" else "toml", version=1,
            text=path.read_text() if text is None else text)))
        await asyncio.wait_for(self.published.wait(), TIMEOUT)

    async def change(self, path: Path, text: str, version: int) -> None:
        self.published.clear()
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        await asyncio.wait_for(self.published.wait(), TIMEOUT)

    async def stop(self) -> None:
        await asyncio.wait_for(self.client.shutdown_async(None), TIMEOUT)
        self.client.exit(None)
        await self.client.stop()


def run_session(root: Path, body: Callable[[Session], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        session = Session()
        await session.start(root)
        try:
            return await body(session)
        finally:
            await session.stop()

    return asyncio.run(main())


@pytest.fixture()
def pack(tmp_path: Path) -> Path:
    folder = tmp_path / "dice_race"
    shutil.copytree(PACKS / "dice_race", folder)
    return folder


def position(path: Path, needle: str, occurrence: int = 0, offset: int = 0) -> types.Position:
    """Where the `occurrence`-th `needle` starts in the file (plus `offset` characters)."""
    seen = 0
    for number, line in enumerate(path.read_text().splitlines()):
        start = line.find(needle)
        while start >= 0:
            if seen == occurrence:
                return types.Position(line=number, character=start + offset)
            seen += 1
            start = line.find(needle, start + 1)
    raise AssertionError(f"{needle!r} not in {path}")


def test_diagnostics_follow_edits_with_exact_ranges(pack: Path) -> None:
    rules = pack / "rules.rk"
    good = rules.read_text()
    bad = good.replace("p.score += to.points", "p.score += to.pionts")

    async def body(session: Session) -> list[list[types.Diagnostic]]:
        await session.open(rules)
        clean = session.diagnostics[uri(rules)]
        await session.change(rules, bad, 2)
        broken = session.diagnostics[uri(rules)]
        await session.change(rules, good, 3)
        fixed = session.diagnostics[uri(rules)]
        return [clean, broken, fixed]

    clean, broken, fixed = run_session(pack, body)
    assert clean == [] and fixed == []
    assert len(broken) == 1
    diagnostic = broken[0]
    line = bad.splitlines()[diagnostic.range.start.line]
    assert "pionts" in diagnostic.message
    assert line[diagnostic.range.start.character:diagnostic.range.end.character] == "pionts"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert rules.read_text() == good          # the unsaved edit was checked without touching the file


def test_a_toml_error_is_reported_on_the_toml_file(pack: Path) -> None:
    game = pack / "game.toml"
    bad = game.read_text().replace('when = "steps > 0"', 'when = "stepz > 0"')

    async def body(session: Session) -> list[types.Diagnostic]:
        await session.open(game, bad)
        return session.diagnostics[uri(game)]

    (diagnostic,) = run_session(pack, body)
    line = bad.splitlines()[diagnostic.range.start.line]
    assert "stepz" in diagnostic.message and "stepz" in line
    assert line[diagnostic.range.start.character:diagnostic.range.end.character] == "stepz"


def test_definition_references_hover_and_completion(pack: Path) -> None:
    rules, game = pack / "rules.rk", pack / "game.toml"

    async def body(session: Session) -> dict[str, Any]:
        await session.open(rules)
        client = session.client
        doc = types.TextDocumentIdentifier(uri=uri(game))
        found: dict[str, Any] = {}
        # `step_to(me, to)` in game.toml goes to the proc in rules.rk.
        found["proc"] = await client.text_document_definition_async(types.DefinitionParams(
            text_document=doc, position=position(game, "step_to", offset=2)))
        # `steps` (a counter) used in rules.rk goes to [counters.steps] in game.toml.
        found["counter"] = await client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(rules)), position=position(rules, "steps -= 1")))
        # The event `stepped`: its emit and the hook that listens.
        found["event"] = await client.text_document_references_async(types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=uri(rules)), position=position(rules, "stepped"),
            context=types.ReferenceContext(include_declaration=True)))
        found["zone_kind"] = await client.text_document_definition_async(types.DefinitionParams(
            text_document=doc, position=position(game, 'type = "space"', offset=8)))
        found["hover"] = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(rules)), position=position(rules, "roll_value")))
        found["hover_builtin"] = await client.text_document_hover_async(types.HoverParams(
            text_document=doc, position=position(game, "lesser")))
        found["completion"] = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(rules)), position=types.Position(line=0, character=0)))
        return found

    found = run_session(pack, body)
    (proc,) = found["proc"]
    assert proc.uri == uri(rules) and proc.range.start.line == 3      # proc step_to(p, to) {
    (counter,) = found["counter"]
    assert counter.uri == uri(game)
    assert game.read_text().splitlines()[counter.range.start.line] == "[counters.steps]"
    assert sorted(loc.range.start.line for loc in found["event"]) == [7, 14]
    (kind,) = found["zone_kind"]
    assert game.read_text().splitlines()[kind.range.start.line] == "[kinds.space]"
    hover = found["hover"].contents.value
    assert "**rule** `roll_value`" in hover and "hooks may change it" in hover and "rule roll_value(p, r) = r" in hover
    assert "smaller of two numbers" in found["hover_builtin"].contents.value
    labels = {item.label: item.detail for item in found["completion"].items}
    for name, kind_name in (("step_to", "proc"), ("roll_value", "rule"), ("steps", "counter"), ("d6", "die"),
                            ("pawn", "kind"), ("goal", "item"), ("stepped", "event"), ("lesser", "built-in")):
        assert labels.get(name) == kind_name, name


def test_references_cover_rk_and_toml(pack: Path) -> None:
    rules = pack / "rules.rk"

    async def body(session: Session) -> Any:
        await session.open(rules)
        return await session.client.text_document_references_async(types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=uri(rules)), position=position(rules, "steps -= 1"),
            context=types.ReferenceContext(include_declaration=False)))

    places = {(Path(loc.uri).name, loc.range.start.line) for loc in run_session(pack, body)}
    assert {("rules.rk", 5), ("rules.rk", 8)} <= places            # steps -= 1; if steps == 0
    assert any(name == "game.toml" for name, _ in places)          # set steps = ...; when = "steps > 0"
    assert not any(name == "game.toml" and line == 20 for name, line in places)   # not the definition


def test_a_change_to_a_document_never_opened_is_ignored(pack: Path) -> None:
    rules = pack / "rules.rk"

    async def body(session: Session) -> tuple[list[types.Diagnostic], list[str]]:
        session.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri="file:///nope.rk", version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="oops")]))
        await session.open(rules)       # handled after the change: any error for it was shown by now
        return session.diagnostics[uri(rules)], session.messages

    diagnostics, messages = run_session(pack, body)
    assert messages == []                   # was "Error in server: KeyError: 'file:///nope.rk'"
    assert diagnostics == []


def test_a_lone_surrogate_in_an_open_text_is_a_located_diagnostic(pack: Path) -> None:
    rules = pack / "rules.rk"
    lines = rules.read_text().splitlines(keepends=True)
    lines[2] = "# a comment \ud800 here\n"
    text = "".join(lines)

    async def body(session: Session) -> tuple[list[types.Diagnostic], list[str]]:
        await session.open(rules, text)
        return session.diagnostics.get(uri(rules), []), session.messages

    diagnostics, messages = run_session(pack, body)
    assert messages == []                   # was "Error in server: UnicodeEncodeError ..."
    (diagnostic,) = diagnostics
    assert "not valid Unicode" in diagnostic.message
    assert diagnostic.range.start == types.Position(line=2, character=text.splitlines()[2].index("\ud800"))
