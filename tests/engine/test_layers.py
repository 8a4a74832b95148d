"""The package's layers import downward only, and the runtime never imports the compiler.

Every module of `ruleskit/` is read with `ast`; each import (at the top, inside a
function, or only for type checking) is resolved to the module it names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import ruleskit

PACKAGE = Path(ruleskit.__file__).parent

# Lowest first. A module may import its own layer and the layers below it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("ruleskit.errors", "ruleskit.limits", "ruleskit.resources", "ruleskit.safetext", "ruleskit.digits", "ruleskit.atomic",
              "ruleskit.textlines",
              "ruleskit.cache")),
    ("data", ("ruleskit.schema", "ruleskit.tomlfile", "ruleskit.model")),
    ("runtime", ("ruleskit.runtime", "ruleskit.validation")),
    ("compiler", ("ruleskit.lang",)),
    ("build", ("ruleskit.packs", "ruleskit.properties", "ruleskit.programcache", "ruleskit.game")),
]
TOOLS = "tools"  # everything else: the front door, logs, bots, the command line, ...
ORDER = [name for name, _ in LAYERS] + [TOOLS]


def layer_of(module: str) -> str:
    for name, prefixes in LAYERS:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return name
    return TOOLS


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(path: Path) -> list[tuple[str, int, bool]]:
    """(module imported, line, only for type checking) for every import of ruleskit's own modules in a file."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, typing_only)
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno, typing_only) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if node.module is None:
                # `from . import x`: each name is a module of that package
                found.extend((f"{target}.{alias.name}", node.lineno, typing_only) for alias in node.names)
            else:
                found.append((target, node.lineno, typing_only))
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return [(m, line, t) for m, line, t in found if m == "ruleskit" or m.startswith("ruleskit.")]


def all_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "templates" not in p.parts)


def test_the_runtime_never_imports_the_compiler() -> None:
    """Not even for type annotations: the compiler emits code, the runtime runs it."""
    wrong = [f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}"
             for path in all_modules() if module_name(path).startswith("ruleskit.runtime")
             for target, line, _ in imports(path) if target.startswith("ruleskit.lang")]
    assert wrong == []


def test_imports_point_down_the_layers() -> None:
    # Imports made only for type annotations are left out: they run nothing.
    wrong = []
    for path in all_modules():
        here = layer_of(module_name(path))
        for target, line, typing_only in imports(path):
            if typing_only or target == "ruleskit":
                continue
            there = layer_of(target)
            if ORDER.index(there) > ORDER.index(here):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line} ({here}) imports {target} ({there})")
    assert wrong == []


def test_no_layer_reaches_the_front_door() -> None:
    """Inside the engine (every layer but the tools), nothing imports `ruleskit` itself, which imports all."""
    wrong = [f"{path.relative_to(PACKAGE.parent)}:{line}" for path in all_modules()
             if layer_of(module_name(path)) != TOOLS
             for target, line, typing_only in imports(path) if target == "ruleskit" and not typing_only]
    assert wrong == []


def test_the_checker_sees_a_wrong_import() -> None:
    """The reader finds relative, nested and type-only imports (so the tests above can fail)."""
    runtime = PACKAGE / "runtime" / "engine.py"
    found = {(m, t) for m, _, t in imports(runtime)}
    assert ("ruleskit.runtime.context", False) in found
    assert ("ruleskit.game", True) in found
    assert layer_of("ruleskit.lang.codegen") == "compiler" and layer_of("ruleskit.runtime.state") == "runtime"
    assert ORDER.index(layer_of("ruleskit.lang.parser")) > ORDER.index(layer_of("ruleskit.runtime.engine"))
