"""The shape of the code, held by the suite (docs/architecture.md describes it): modules of a bounded size,
imports at the top of a module (a function-level import would hide a cycle from import-linter), no private
name imported from another package, no machine's absolute path in the tests, comments without history.

The layers themselves are import-linter's contracts (``[tool.importlinter]`` in pyproject.toml, run by
.ci/run); these are the rules it has no contract type for."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "chesslaws"
PY_LIMIT = 800
RUST_LIMIT = 1000

#: Function-level imports of chesslaws modules that are not about cycles: ``chesslaws serve`` loads the server
#: (FastAPI, uvicorn) only when it runs, so that ``chesslaws --help`` and ``check`` work without them and a
#: missing dependency is said in words; ``check --dask`` loads Dask (optional) only when asked for.
LAZY_ALLOWED = {
    "chesslaws.commands.serve->chesslaws.server", "chesslaws.commands.serve->chesslaws.server.engines",
    "chesslaws.commands.serve->chesslaws.server.guard", "chesslaws.commands.serve->chesslaws.webapp",
    "chesslaws.commands.check->chesslaws.distributed",
}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def test_no_python_module_is_over_800_lines() -> None:
    over = {_rel(p): n for p in _modules() if (n := len(p.read_text().splitlines())) > PY_LIMIT}
    assert not over, f"modules over {PY_LIMIT} lines: {over}"


def test_no_rust_file_is_over_1000_lines() -> None:
    over = {_rel(p): n for p in sorted((ROOT / "src").rglob("*.rs"))
            if (n := len(p.read_text().splitlines())) > RUST_LIMIT}
    assert not over, f"Rust files over {RUST_LIMIT} lines: {over}"


def _module_name(p: Path) -> str:
    parts = list(p.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST, name: str, is_package: bool) -> list[tuple[ast.ImportFrom | ast.Import, bool]]:
    """Every import of the module, and whether it sits inside a function."""
    found: list[tuple[ast.ImportFrom | ast.Import, bool]] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, in_function))
            walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(tree, False)
    return found


def _target(node: ast.ImportFrom, name: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _in_type_checking(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in ast.walk(node):
                lines.add(getattr(sub, "lineno", -1))
    return lines


def test_no_function_level_import_of_a_chesslaws_module() -> None:
    found = []
    for p in _modules():
        name = _module_name(p)
        tree = ast.parse(p.read_text())
        for node, in_function in _imports(tree, name, p.name == "__init__.py"):
            if not in_function:
                continue
            targets = ([_target(node, name, p.name == "__init__.py")] if isinstance(node, ast.ImportFrom)
                       else [a.name for a in node.names])
            for t in targets:
                if t.startswith("chesslaws") and f"{name}->{t}" not in LAZY_ALLOWED:
                    found.append(f"{_rel(p)}:{node.lineno} imports {t}")
    assert not found, "function-level imports (move them to the top; a cycle they hide is a layering fault):\n" \
        + "\n".join(found)


def _is_module(package: str, name: str) -> bool:
    """``from chesslaws import _core``: a module of the package (the native core, the values' helpers), not a
    private name of another module."""
    base = PACKAGE.parent.joinpath(*package.split("."), name)
    return base.with_suffix(".py").exists() or base.is_dir() or name == "_core"


def _unit(module: str) -> str:
    """The package a module belongs to for privacy: a subpackage (chesslaws.game, chesslaws.server, ...) shares
    its private names among its modules; a top-level module keeps them to itself."""
    parts = module.split(".")
    return ".".join(parts[:2])


def test_no_private_name_is_imported_from_another_package() -> None:
    found = []
    for p in _modules():
        name = _module_name(p)
        tree = ast.parse(p.read_text())
        for node, _ in _imports(tree, name, p.name == "__init__.py"):
            if not isinstance(node, ast.ImportFrom):
                continue
            target = _target(node, name, p.name == "__init__.py")
            if not target.startswith("chesslaws") or _unit(target) == _unit(name):
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__") and not _is_module(target, alias.name):
                    found.append(f"{_rel(p)}:{node.lineno} imports {target}.{alias.name}")
    assert not found, "private names imported across packages:\n" + "\n".join(found)


def test_the_tests_name_no_absolute_path_of_one_machine() -> None:
    pattern = re.compile(r"[\"'](/work/|/root/|/home/)")
    found = [f"{_rel(p)}:{i}" for p in sorted((ROOT / "tests").rglob("*.py")) if p.name != "test_shape.py"
             for i, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert not found, "tests find ../shared beside the checkout, not a machine's path:\n" + "\n".join(found)


HISTORY = re.compile(r"\b[Ii]ssues? #?\d+\b")


@pytest.mark.parametrize("where", ["python", "src", "README.md", "docs"])
def test_comments_say_what_the_code_does_not_its_history(where: str) -> None:
    base = ROOT / where
    files = [base] if base.is_file() else [p for p in sorted(base.rglob("*")) if p.is_file() and p.suffix in
                                           (".py", ".rs", ".js", ".html", ".css", ".md")]
    found = [f"{_rel(p)}:{i}: {line.strip()[:90]}" for p in files
             for i, line in enumerate(p.read_text().splitlines(), 1) if HISTORY.search(line)]
    assert not found, "history in comments (say what the code does and why):\n" + "\n".join(found)


def test_the_architecture_page_names_every_module() -> None:
    """docs/architecture.md has a line per module: a module added without one is a room nobody can find."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    missing = [p.relative_to(PACKAGE).as_posix() for p in _modules()
               if f"`{p.relative_to(PACKAGE).as_posix()}`" not in page]
    missing += [f"src/{p.relative_to(ROOT / 'src').as_posix()}" for p in sorted((ROOT / "src").rglob("*.rs"))
                if f"`{p.relative_to(ROOT / 'src').as_posix()}`" not in page]
    assert not missing, "modules docs/architecture.md does not name:\n" + "\n".join(missing)
