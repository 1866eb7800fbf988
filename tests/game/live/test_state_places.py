"""The live layer keeps its state in three named places (README, "One owner per table"):
the table owners (``store._owners``), the process's link to the channel layer
(``events.LINK``) and the bot runner (``bot_runner._runner``). A scan of the modules of a
table's pages finds anything else a process would keep between two requests: a module-level
container or lock, a class made at import, a ``global`` rebound, a cachetools cache.
``functools.cache`` of constant things (a template looked up, SQL text) is not state."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCANNED = [
    *sorted((ROOT / "game" / "live").glob("*.py")),
    *sorted((ROOT / "game" / "presenters").glob("*.py")),
    ROOT / "game" / "selectors.py",
]
# the three places, by module: the names that hold them
PLACES = {
    "game/live/store.py": {"_owners", "_owners_lock"},
    "game/live/events.py": {"LINK"},
    "game/live/bot_runner.py": {"_runner", "_runner_lock", "_claiming"},
}
EMPTY_OR_FILLED = {"dict", "list", "set", "defaultdict", "deque", "OrderedDict", "Counter"}
NOT_STATE = {"ContextVar", "TypeVar", "ParamSpec", "Library"}  # made once, never refilled


def _called(node: ast.expr) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def _kept_things(source: str) -> list[tuple[str, int]]:
    """The names (and lines) a module keeps state in, by the rules above."""
    found = []
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            made = _called(value)
            empty = isinstance(value, ast.Dict | ast.List | ast.Set) and not (
                getattr(value, "keys", None) or getattr(value, "elts", None)
            )
            if empty or made in EMPTY_OR_FILLED or (made and made[0].isupper()):
                if made not in NOT_STATE:
                    found += [(ast.unparse(t), node.lineno) for t in targets]
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found += [(name, node.lineno) for name in node.names]
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                if _called(decorator) == "cached":  # a cachetools cache: filled at run time
                    found.append((node.name, node.lineno))
    return found


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_outside_the_three_places_keeps_state(path):
    allowed = PLACES.get(str(path.relative_to(ROOT)), set())

    kept = [(name, line) for name, line in _kept_things(path.read_text()) if name not in allowed]

    assert kept == [], f"state outside the three places (README): {kept}"


def test_the_scan_finds_each_kind_of_state_it_is_meant_to():
    source = """
seen = {}
lock = threading.Lock()
cache: LRUCache = LRUCache(10)
queue = deque()
LIMITS = {"a": 1}
logger = logging.getLogger(__name__)
served = ContextVar("served", default=None)

def note():
    global latest

@cached(cache)
def drawn(): ...
"""
    kept = {name for name, _ in _kept_things(source)}

    assert kept == {"seen", "lock", "cache", "queue", "latest", "drawn"}


def test_the_readme_names_the_three_places():
    readme = (ROOT / "README.md").read_text()

    for name in ("store._owners", "events.LINK", "bot_runner._runner"):
        assert f"`{name}`" in readme
