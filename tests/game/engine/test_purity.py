"""The engine is pure Python: no Django, no I/O, so search and tests can run it anywhere."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[3] / "game" / "engine"
FORBIDDEN_MODULES = {"django", "channels", "os", "socket", "subprocess", "requests"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.split(".")[0])
    return modules


def test_engine_modules_import_nothing_from_django_or_io():
    sources = sorted(ENGINE.glob("*.py"))
    assert {p.name for p in sources} >= {"cards.py", "rules.py", "state.py", "view.py", "record.py"}
    for path in sources:
        assert not imported_modules(path) & FORBIDDEN_MODULES, path.name


def test_importing_the_engine_loads_no_django_module():
    code = (
        "import sys, game.engine.record, game.engine.state, game.engine.view;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'channels')))"
    )
    root = ENGINE.parents[1]
    output = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "[]"
