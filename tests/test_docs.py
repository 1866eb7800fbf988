"""The README and docs/ cite only what the repository holds: every path named in backticks
exists, every `make` target named is the Makefile's, and nothing points outside the
repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "RESULTS.md"]

# made by a command, never committed: the venv (make), the sanitizer build (make
# sanitize), the browser tests' screenshots, collectstatic's output, the SQLite file
MADE_HERE = (".venv", "build", "artifacts", "staticfiles", "db.sqlite3", ".env")
NOT_PATHS = {"smear-record/1"}  # the record format's name
FILE_ENDINGS = (
    ".py", ".md", ".txt", ".html", ".js", ".css", ".json", ".jsonl", ".toml",
    ".svg", ".png", ".cpp", ".hpp", ".example",
)  # fmt: skip
BACKTICKED = re.compile(r"`([^`\n]+)`")
MAKE_TARGET = re.compile(r"(?:^|[\s;(])make ([a-z][\w-]*)")
SKIPPED_DIRS = {".git", ".venv", "__pycache__", "node_modules", ".pytest_cache", ".ruff_cache"}


def code_lines(text: str) -> list[str]:
    """The lines of indented code blocks: a block opens with a line indented by 4 or more
    after a blank line (a list's continuation lines follow their item) and runs on while
    its lines stay indented."""
    found, in_block, before = [], False, ""
    for line in text.splitlines():
        indented = len(line) - len(line.lstrip(" ")) >= 4 and line.strip()
        in_block = bool(indented) and (in_block or not before.strip())
        if in_block:
            found.append(line.split(" # ", 1)[0].strip())  # a comment is prose
        before = line
    return found


def _spans(text: str) -> list[str]:
    return BACKTICKED.findall(text) + code_lines(text)


def _path_in(token: str, alone: bool) -> str | None:
    """The repository path a token spells, if any: a name with a folder in it, or, when
    the token is a backticked name of its own (not a command's argument), a file name."""
    token = token.strip("()[],;'\"")
    token = token.split("#", 1)[0].split("::", 1)[0]  # a partial, a function in a file
    token = token.removeprefix("./")
    if token in NOT_PATHS:
        return None
    if not token or token.startswith(("/", "-", "~")) or re.search(r"[:<>*{}$|=@`]", token):
        return None  # a URL, an absolute path, an option, a pattern or a placeholder
    if "..." in token or token.split("/")[0].isupper():
        return None  # an elided list, or a setting's value spliced in (SITE_URL/...)
    if "/" in token or (alone and token.endswith(FILE_ENDINGS)):
        return token
    return None


def cited_paths(text: str) -> set[str]:
    cited = set()
    for span in _spans(text):
        tokens = span.split()
        cited |= {path for t in tokens if (path := _path_in(t, alone=len(tokens) == 1))}
    return cited


def repository_paths() -> set[str]:
    """Every file and folder of the work tree (folders with a trailing slash too)."""
    paths = set()
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if SKIPPED_DIRS.intersection(parts):
            continue
        name = "/".join(parts)
        paths.add(name)
        if path.is_dir():
            paths.add(name + "/")
    return paths


def held(path: str, paths: set[str]) -> bool:
    """Named from the root, or from within a folder the text has just named (the layout
    lists ``cards.py`` under ``game/engine/``): some path of the tree ends with it."""
    return path in paths or any(p.endswith("/" + path) for p in paths)


def makefile_targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([a-z][\w-]*):", makefile, re.MULTILINE))


@pytest.fixture(scope="module")
def paths() -> set[str]:
    return repository_paths()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_the_doc_names_exists(doc, paths):
    missing = sorted(
        path
        for path in cited_paths(doc.read_text())
        if not path.startswith(MADE_HERE) and not held(path, paths)
    )
    assert not missing, f"{doc.name} names paths the repository does not hold: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_make_target_the_doc_names_is_the_makefiles(doc):
    named = {t for span in _spans(doc.read_text()) for t in MAKE_TARGET.findall(span)}
    assert "test" in named or doc.name != "README.md"
    assert named - makefile_targets() == set()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_outside_the_repository_is_cited(doc):
    text = doc.read_text()
    assert not re.findall(r"\.\./(?!static/)[\w.-]+", text)  # docs/ may link ../static/...
    assert "shared/spec" not in text and "shared/seeds" not in text


def test_the_readme_names_the_two_commands_and_ci_runs_its_test_command():
    readme = (ROOT / "README.md").read_text()
    assert "    make run" in readme and "    make test" in readme
    assert {"run", "test"} <= makefile_targets()
    assert re.search(r"^(?:env .*)?make test$", (ROOT / ".ci" / "run").read_text(), re.MULTILINE)


def test_the_checker_finds_paths_in_names_and_commands_and_skips_the_rest():
    text = (
        "`game/store.py`, `templates/game/table.html#table`, `bench/live.py --tables 5`, "
        "`smearsite/nowhere.py`, `/play/`, `redis://127.0.0.1:6379/0`, `game.engine`, "
        "`SITE_URL/donate/`, `/table/<code>/`, `cards.py`, `manage.py replay mine.jsonl`\n"
        "  a list item's line, to make it plain\n\n    make nothing-such\n"
    )
    assert cited_paths(text) == {
        "game/store.py",
        "templates/game/table.html",
        "bench/live.py",
        "smearsite/nowhere.py",
        "cards.py",
    }
    assert MAKE_TARGET.findall(" ".join(_spans(text))) == ["nothing-such"]
    assert held("cards.py", {"game/engine/cards.py"})
    assert not held("smearsite/nowhere.py", {"smearsite/server/serve.py"})
