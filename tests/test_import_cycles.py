"""No module of the project imports itself back, through any chain of imports: not at module level
and not inside a function (an import in a function only postpones the cycle to the first call).
The graph is built from the source, so it sees every import, whichever code path runs it."""

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("spec", "reference", "checks", "spark_validation")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for package in PACKAGES for p in sorted((root / package).rglob("*.py"))}


def imported(tree: ast.AST, name: str, is_package: bool) -> set[str]:
    """Every module name `tree` imports, anywhere in it, with relative imports resolved; for
    `from X import Y` both X and X.Y (Y may be a module or a name defined in X)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            out.add(source)
            out.update(f"{source}.{alias.name}" for alias in node.names if alias.name != "*")
    return out


def project_target(name: str, modules: dict[str, Path]) -> str | None:
    """The project module an import runs last: the longest prefix of `name` that is one."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end])
    return None


def import_graph(root: Path = ROOT) -> nx.DiGraph:
    """An edge from each module to every project module it imports (a package's __init__ where
    the import names the package; the packages a dotted import passes through are left out, as
    importing a submodule of a package being initialised is no cycle)."""
    modules = project_modules(root)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        for target in imported(tree, name, path.name == "__init__.py"):
            found = project_target(target, modules)
            if found is not None and found != name:
                graph.add_edge(name, found)
    return graph


def test_the_graph_sees_imports_inside_functions_and_relative_ones():
    tree = ast.parse("def f():\n    from checks.verdict import Verdict\n    from . import engine\n"
                     "    from .algorithms import lbdd\n")
    assert imported(tree, "checks.runner", False) == {
        "checks.verdict", "checks.verdict.Verdict", "checks", "checks.engine", "checks.algorithms",
        "checks.algorithms.lbdd"}
    modules = project_modules()
    assert project_target("checks.verdict.Verdict", modules) == "checks.verdict"
    assert project_target("numpy.linalg", modules) is None
    graph = import_graph()
    assert graph.has_edge("checks.engine", "checks.verdict")      # a sanity check of the walk
    assert len(graph) > 30


def test_no_module_of_the_project_imports_itself_back():
    graph = import_graph()
    cycles = sorted(list(nx.simple_cycles(graph)), key=lambda c: (len(c), sorted(c)))
    assert cycles == [], "import cycles:\n" + "\n".join(" -> ".join(c + [c[0]]) for c in cycles)


def test_asking_for_one_algorithms_properties_imports_only_its_spec():
    import subprocess
    import sys

    code = ("import sys; from spec.registry import properties; names = [p.name for p in properties('lbdd')]; "
            "print(len(names), sorted(m for m in sys.modules if m.startswith('spec.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split(" ", 1)
    assert int(out[0]) > 0 and out[1].strip() == "['spec.lbdd', 'spec.registry']"
