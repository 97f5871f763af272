"""A damaged install (the learned bot's shipped weights missing or not an .npz) is one
clear line in both languages from every command that starts bots, never a traceback or an
"unknown bot"; hints fall back to the heuristic bot."""

from __future__ import annotations

from pathlib import Path

import pytest

from erqishi.bots import HeuristicBot, LearnedBot, adviser, learned
from erqishi.cli import main
from support.cli_errors import error_parts


class _Files:
    """``importlib.resources`` as seen by the weights loader, pointing at ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def files(self, package: str) -> Path:
        return self.root


@pytest.fixture(params=["missing", "not a zip"])
def damaged(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "data").mkdir()
    if request.param == "not a zip":
        (tmp_path / "data" / "learned.npz").write_bytes(b"PK\x03\x04 cut short")
    monkeypatch.setattr(learned, "resources", _Files(tmp_path))
    monkeypatch.setattr(learned, "_SHIPPED", [])
    return str(request.param)


@pytest.mark.parametrize(
    "args",
    [
        ["sim", "--bots", "learned,heuristic,heuristic", "--hands", "2", "--no-db"],
        ["play", "--bots", "learned,heuristic", "--seed", "1"],
        ["tournament", "run", "--players", "learned,heuristic,heuristic"],
    ],
)
def test_a_command_with_the_learned_bot_says_it_cannot_start(
    damaged: str, args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if args[0] == "tournament":
        args = [*args, "--db", str(tmp_path / "t.db")]
    assert main(args) == 2
    err = capsys.readouterr().err
    zh, en = error_parts(err)
    assert "learned" in zh and "启动不了" in zh
    assert "bot 'learned' cannot start" in en and "learned.npz" in en
    assert "unknown bot" not in en and "Traceback" not in err


def test_hints_fall_back_to_the_heuristic_bot(damaged: str) -> None:
    with pytest.raises(ValueError):
        LearnedBot()
    assert isinstance(adviser(), HeuristicBot)
