"""Which build runs, and that the compiled build is whole.

``scripts/test.sh`` sets ``ERQISHI_EXPECT_BUILD`` (``pure``, or ``compiled`` with
``ERQISHI_COMPILED=1``), so a compiled run that silently fell back to the pure source fails
here instead of passing the suite twice on the same build.
"""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import erqishi
from conftest import ROOT


def _compiled_modules() -> list[str]:
    """The modules setup.py compiles (its ``COMPILED`` list), by dotted name."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    entries: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            entries = list(ast.literal_eval(node.value))
    assert entries, "setup.py lists no COMPILED modules"
    names = []
    for entry in entries:
        path = ROOT / "src" / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            parts = file.relative_to(ROOT / "src").with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_the_expected_build_runs() -> None:
    expected = os.environ.get("ERQISHI_EXPECT_BUILD")
    if expected is None:
        pytest.skip("run through scripts/test.sh, which says which build it installed")
    assert erqishi.build() == expected


@pytest.mark.parametrize("name", _compiled_modules())
def test_a_module_is_compiled_exactly_in_the_compiled_build(name: str) -> None:
    module = importlib.import_module(name)
    suffix = Path(getattr(module, "__file__", "") or "").suffix
    assert (suffix in (".so", ".pyd")) == (erqishi.build() == "compiled"), (name, suffix)


def test_version_names_the_build() -> None:
    out = subprocess.run(
        [str(Path(sys.executable).with_name("erqishi")), "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith(f"erqishi {erqishi.__version__} (")
    assert ("compiled with mypyc" in out) == (erqishi.build() == "compiled")
    assert ("pure Python" in out) == (erqishi.build() == "pure")


def test_the_table_and_the_bots_can_be_subclassed() -> None:
    """Users extend the bots and the table; the compiled build allows it as the pure one."""
    import random

    from erqishi.bots.heuristic import HeuristicBot
    from erqishi.bots.random_bot import RandomBot
    from erqishi.bots.search import SearchBot
    from erqishi.core.engine import Deal, new_hand, view
    from erqishi.play.table import Table

    class Cautious(HeuristicBot):
        name = "cautious"

    class Watched(Table):
        pass

    assert issubclass(Watched, Table)
    state = new_hand(Deal.shuffled(random.Random(1), 0))
    v = view(state, 0)
    for bot in (Cautious(), type("R", (RandomBot,), {})(), type("S", (SearchBot,), {})(playouts=4)):
        assert bot.choose(v, random.Random(2)) in v.legal
