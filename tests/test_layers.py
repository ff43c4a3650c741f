"""The layers hold: imports point down (tracer <- transforms <- core_bench), and no package
imports another package's private modules (a name starting with `_`) or a private module of
another subpackage of core_bench.

Read from the source with `ast`, so a lazy import inside a function counts as well.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {"tracer": 0, "transforms": 1, "core_bench": 2}


def _modules() -> list[tuple[str, Path]]:
    found = []
    for package in LAYERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(p for p in parts if p != "__init__")
            found.append((name, path))
    return found


def _imports(path: Path, module: str) -> list[tuple[str, int]]:
    """Absolute names of the modules (and `from m import name` targets) `path` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    names: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            names.append((target, node.lineno))
            names.extend((f"{target}.{alias.name}", node.lineno) for alias in node.names)
    return names


def _owner(module: str) -> tuple[str, ...]:
    """The unit a module belongs to: a top package, or a subpackage of core_bench."""
    parts = module.split(".")
    if parts[0] == "core_bench" and len(parts) > 1 and not parts[1].startswith("_"):
        stem = parts[1]
        return ("core_bench", stem)
    return (parts[0],)


MODULES = _modules()
KNOWN = {name for name, _ in MODULES}


@pytest.mark.parametrize("module, path", MODULES, ids=[name for name, _ in MODULES])
def test_imports_point_down_and_stay_public(module: str, path: Path) -> None:
    own_layer = LAYERS[module.split(".")[0]]
    problems = []
    for name, line in _imports(path, module):
        top = name.split(".")[0]
        if top not in LAYERS:
            continue
        if LAYERS[top] > own_layer:
            problems.append(f"line {line}: imports {name}, a layer above")
        private = [
            part for part in name.split(".")[1:] if part.startswith("_") and part != "__init__"
        ]
        if not private:
            continue
        first_private = name.split(".").index(private[0])
        private_module = ".".join(name.split(".")[: first_private + 1])
        if private_module not in KNOWN:
            continue  # a private name imported from a public module is that module's business
        if _owner(private_module) != _owner(module) and not module.startswith(
            private_module.rsplit(".", 1)[0] + "."
        ):
            problems.append(f"line {line}: imports {private_module}, private to another package")
    assert not problems, f"{path.relative_to(ROOT)}: " + "; ".join(dict.fromkeys(problems))


# Within core_bench: a run is viewed by the report and driven by the commands, never the reverse.
NOT_BELOW = {"core_bench.runs": ("core_bench.report", "core_bench.commands", "core_bench.cli")}
# The endpoint settings sit below both of their users, the runs and the author builds.
NOT_BELOW["core_bench.endpoint"] = ("core_bench.runs", "core_bench.build")
# Readers of a benchmark read it through core_bench.benchmark; only the build writes one.
NOT_BELOW.update(
    {
        reader: ("core_bench.build",)
        for reader in (
            "core_bench.benchmark",
            "core_bench.export",
            "core_bench.grading",
            "core_bench.metrics",
            "core_bench.report",
            "core_bench.suites",
            "core_bench.view",
        )
    }
)


@pytest.mark.parametrize("package", sorted(NOT_BELOW))
def test_a_package_does_not_import_what_builds_on_it(package: str) -> None:
    problems = []
    for module, path in MODULES:
        if module != package and not module.startswith(package + "."):
            continue
        for name, line in _imports(path, module):
            for above in NOT_BELOW[package]:
                if name == above or name.startswith(above + "."):
                    problems.append(f"{path.relative_to(ROOT)}:{line}: imports {name}")
    assert not problems, "; ".join(dict.fromkeys(problems))


PACKAGES = [
    "tracer",
    "transforms",
    "core_bench.benchmark",
    "core_bench.build",
    "core_bench.datasets",
    "core_bench.endpoint",
    "core_bench.export",
    "core_bench.fake_openai",
    "core_bench.grading",
    "core_bench.metrics",
    "core_bench.probes",
    "core_bench.report",
    "core_bench.runs",
    "core_bench.view",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_each_package_exports_public_names_that_exist(name: str) -> None:
    import importlib

    package = importlib.import_module(name)
    exported = list(package.__all__)
    assert len(exported) == len(set(exported)), "a name is exported twice"
    assert not [item for item in exported if item.startswith("_")], "a private name is exported"
    for item in exported:
        assert hasattr(package, item), f"{name}.__all__ names {item}, which is not there"


# Reading a benchmark belongs to `core_bench.benchmark`; the build only writes one.
READ_SIDE = ("Benchmark", "FILES", "literal_output", "load_benchmark", "read_jsonl")


def test_the_build_does_not_export_the_read_side() -> None:
    import core_bench.build

    assert not set(READ_SIDE) & set(core_bench.build.__all__)
    assert not [name for name in READ_SIDE if hasattr(core_bench.build, name)]


def test_readers_read_a_benchmark_through_core_bench_benchmark() -> None:
    problems = []
    sources = [path for _, path in MODULES]
    sources += sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "bench").rglob("*.py"))
    for path in sources:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "core_bench.build"
            ):
                names = [a.name for a in node.names if a.name in READ_SIDE]
                if names:
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {', '.join(names)}")
    assert not problems, "import these from core_bench.benchmark: " + "; ".join(problems)


def test_bench_scripts_do_not_import_the_tests() -> None:
    problems = []
    for path in sorted((ROOT / "bench").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            if any(name == "tests" or name.startswith("tests.") for name in names):
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not problems, "bench/ imports tests/: " + ", ".join(problems)


# One value-equality rule: callers name tracer's strictness, they do not wrap it in another name.
EQUALITY = {"same_value", "values_equal"}


def test_no_module_wraps_tracers_value_equality_under_another_name() -> None:
    wrappers = []
    for module, path in MODULES:
        if module.startswith("tracer"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        aliases = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "tracer"
            for alias in node.names
            if alias.name in EQUALITY
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            body = [s for s in node.body if not isinstance(s, ast.Expr)]  # docstring
            if (
                len(body) == 1
                and isinstance(body[0], ast.Return)
                and isinstance(body[0].value, ast.Call)
                and isinstance(body[0].value.func, ast.Name)
                and body[0].value.func.id in aliases
            ):
                wrappers.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert not wrappers, "call tracer's function with its strictness: " + ", ".join(wrappers)
