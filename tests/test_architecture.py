"""Issue 19 and issue 25 item 8: one room per concern. The project's modules import each other
in one direction (no circle, deferred imports inside functions and imports under
`if TYPE_CHECKING:` included: a circle hidden from the interpreter is still one a reader
follows), nothing under `controller/` but the command line imports `tools/`, and no module
imports another module's private (`_name`) names. Parsed, not imported: what is checked is the
text a newcomer reads. (../shared/tools/house_facts.py reports the same facts.)"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("controller", "rules", "tools", "hw_profiles")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _absolute(node: ast.ImportFrom, module: str, path: Path) -> str:
    """The module an ImportFrom names, relative ones (`from . import x`) made absolute."""
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    parts = package.split(".")
    base = parts[: len(parts) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _imports(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules `path` imports, anywhere: at the top, inside functions, under
    `if TYPE_CHECKING:`."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, path)
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        out.update(r for name in names if (r := _resolve(name, modules)))
    return out


def _private_names(modules: dict[str, Path]) -> list[str]:
    """`from x import _name`: a module reaching into another's private names."""
    found = []
    for module, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                found += [
                    f"{module} imports {_absolute(node, module, path)}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                ]
    return sorted(found)


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {m: _imports(m, p, modules) - {m} for m, p in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_between_the_projects_modules() -> None:
    assert _circles(_graph()) == []


def test_the_graph_counts_imports_under_type_checking_and_relative_ones(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    a, b = tmp_path / "p" / "a.py", tmp_path / "p" / "b.py"
    a.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import p.b\n")
    b.write_text("from . import a\n")
    modules = {"p.a": a, "p.b": b}
    graph = {m: _imports(m, path, modules) - {m} for m, path in modules.items()}
    assert _circles(graph) == [["p.a", "p.b"]]


def test_no_module_imports_another_modules_private_names() -> None:
    assert _private_names(_modules()) == []


def test_controller_imports_tools_only_from_the_command_line() -> None:
    graph = _graph()
    wrong = {
        m: sorted(t for t in targets if t.startswith("tools"))
        for m, targets in graph.items()
        if m.startswith("controller.") and not m.startswith("controller.cli")
    }
    assert {m: t for m, t in wrong.items() if t} == {}


def test_the_journal_and_the_referee_tools_import_nothing_of_the_daemon() -> None:
    """Issue 25 item 5: the referee tools read the journal (its payloads included), never
    the daemon that writes it."""
    graph = _graph()
    wrong = {
        m: sorted(t for t in targets if t.startswith("controller.daemon"))
        for m, targets in graph.items()
        if m.startswith(("controller.journal", "controller.referee"))
    }
    assert {m: t for m, t in wrong.items() if t} == {}


def test_regression_two_test_files_of_one_name_stopped_the_whole_run() -> None:
    """pytest imports test files by their basename (no packages under tests/): a second
    tests/**/test_settlement.py made collection fail and no test ran at all."""
    seen: dict[str, Path] = {}
    twins = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if path.name in seen:
            twins.append(f"{seen[path.name].relative_to(ROOT)} and {path.relative_to(ROOT)}")
        seen.setdefault(path.name, path)
    assert twins == []


# docs/ARCHITECTURE.md "Layers", top to bottom: a module imports only from its own layer and
# the layers above it. Each layer is named by the modules it holds (a module and the modules
# under it; `controller` alone, its version, is only itself); the first match in this order
# wins, so a file named on its own may sit in a later layer than its package.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rules", ("rules",)),
    ("languages", ("controller.locale", "controller.words")),
    ("shared names", ("controller.errors", "controller.clock", "controller.alerts", "controller")),
    (
        "devices and profiles",
        (
            "controller.devices",
            "controller.profiles",
            "controller.profile_files",
            "controller.tag_maps",
        ),
    ),
    ("journal", ("controller.journal",)),
    ("recognition", ("controller.recognition", "controller.recognised_words")),
    ("the table's hall feed", ("controller.outputs.mqtt", "controller.outputs.hall_results")),
    ("views and the web", ("controller.outputs",)),
    ("referee", ("controller.referee",)),
    ("hub", ("controller.hub",)),
    ("hall", ("controller.hall",)),
    ("daemon", ("controller.daemon",)),
    ("CLI", ("controller.cli", "controller.__main__")),
)
FEED = "the table's hall feed"  # listed early to match first; it sits after the hall


def _layer(module: str) -> str | None:
    for name, prefixes in LAYERS:
        if module in prefixes or any(
            module.startswith(p + ".") for p in prefixes if p != "controller"
        ):
            return name
    return None


def _order() -> list[str]:
    """The layers in the doc's order: the hall's feed between the hall and the daemon."""
    names = [name for name, _ in LAYERS if name != FEED]
    names.insert(names.index("daemon"), FEED)
    return names


def test_each_layer_imports_only_from_the_layers_above_it() -> None:
    order = _order()
    graph = _graph()
    unplaced = [m for m in graph if m.startswith(("controller", "rules")) and not _layer(m)]
    assert unplaced == [], "modules in no layer"
    wrong = []
    for module, imported in graph.items():
        mine = _layer(module)
        if mine is None:
            continue
        for other in imported:
            theirs = _layer(other)
            if theirs is not None and order.index(theirs) > order.index(mine):
                wrong.append(f"{module} ({mine}) imports {other} ({theirs})")
    assert wrong == [], "\n".join(sorted(wrong))


def test_the_architecture_doc_lists_the_layers_in_their_order() -> None:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = [
        line.split("|")[1].strip()
        for line in section.splitlines()
        if line.startswith("| ") and not line.startswith("| ·") and not line.startswith("| layer")
    ]
    assert [r for r in rows if r != "tools"] == _order()
