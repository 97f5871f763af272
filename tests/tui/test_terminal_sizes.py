"""The terminal game in a real terminal (tmux) at 80×24, 100×30 and 150×45: the table, the
prompt, the options and the footer are all on the screen and nothing runs past its edge;
the help reaches its last line; q asks before leaving; the match is then saved."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len

ERQISHI = Path(sys.executable).with_name("erqishi")


@pytest.fixture(scope="module")
def tmux() -> str:
    found = shutil.which("tmux")
    if found is None:
        how = "install Debian's tmux (scripts/system-deps.sh does, as root)"
        if os.environ.get("ERQISHI_REQUIRE_ALL") == "1":
            pytest.fail(f"no tmux: {how}")
        pytest.skip(f"no tmux: {how}")
    return found


_PANES = itertools.count()


class Pane:
    """One tmux session running a command at a fixed size, on a tmux server of its own
    (``-L``): a new session never meets the server of the pane before it while that one
    is exiting (tmux then answers "server exited unexpectedly")."""

    def __init__(self, tmux: str, name: str, size: tuple[int, int], command: list[str], env: dict[str, str]) -> None:
        self.tmux = [tmux, "-L", name]
        self.name = name
        self.width, self.height = size
        args = [*self.tmux, "new-session", "-d", "-s", name, "-x", str(self.width), "-y", str(self.height)]
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        subprocess.run([*args, f"env {exports} {' '.join(command)}; sleep 30"], check=True)

    def text(self) -> str:
        out = subprocess.run(
            [*self.tmux, "capture-pane", "-p", "-t", self.name], check=True, capture_output=True, text=True
        )
        return out.stdout

    def send(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, needle: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.text()
            if needle in text:
                return text
            time.sleep(0.2)
        raise AssertionError(f"{needle!r} never appeared:\n{text}")

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)
        # tmux leaves the socket of a killed server behind: /tmp/tmux-UID/NAME (or under $TMUX_TMPDIR)
        sockets = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}"
        (sockets / self.name).unlink(missing_ok=True)


@pytest.fixture
def pane_factory(tmux: str, tmp_path: Path) -> Iterator[object]:
    panes: list[Pane] = []

    def make(size: tuple[int, int], *args: str) -> Pane:
        env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": str(tmp_path), "COLUMNS": str(size[0])}
        name = f"erqishi-{os.getpid()}-{next(_PANES)}"  # never reused: a server of its own
        pane = Pane(tmux, name, size, [str(ERQISHI), "play", *args], env)
        panes.append(pane)
        return pane

    yield make
    for pane in panes:
        pane.close()


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (150, 45)])
def test_the_game_fits_the_terminal(pane_factory: object, size: tuple[int, int], tmp_path: Path) -> None:
    saved = tmp_path / f"saved-{size[0]}.json"
    make = pane_factory
    pane = make(size, "--seed", "18", "--match-quan", "1", "--saved-file", str(saved))  # type: ignore[operator]
    pane.wait_for("庄家")
    text = pane.wait_for("退出")  # the footer is drawn last
    lines = text.splitlines()
    assert len(lines) <= size[1]
    assert all(cell_len(line) <= size[0] for line in lines), max(lines, key=cell_len)
    # the status line, every seat, the prompt, the options and the footer
    assert "圈1" in lines[0] and "堂牌剩" in lines[0]
    for label in ("你", "下家", "上家"):
        assert label in text, label
    assert "请打" in text or "你是庄家" in text  # seed 18: the person deals
    assert "1 打 " in text  # the first option: discard the card under the cursor
    # the whole hand is on the screen (the dealer's 21 cards)
    cards = set("一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾")
    hand_row = max(lines, key=lambda line: sum(ch in cards for ch in line))
    assert sum(ch in cards for ch in hand_row) == 21, hand_row
    footer = [line for line in lines if line.strip()][-1]
    assert "退出" in footer and "帮助" in footer and "palette" not in footer
    # the help wraps to the width and End reaches its last line
    pane.send("?")
    pane.wait_for("胡数表")
    pane.send("End")
    help_text = pane.wait_for("Esc 关闭")
    assert all(cell_len(line) <= size[0] for line in help_text.splitlines())
    pane.send("Escape")
    time.sleep(0.5)
    # q asks first; n stays, q y leaves and the match is saved
    pane.send("q")
    pane.wait_for("退出这场比赛")
    pane.send("n")
    time.sleep(0.5)
    assert "退出这场比赛" not in pane.text()
    pane.send("q")
    pane.wait_for("退出这场比赛")
    pane.send("y")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not saved.exists():
        time.sleep(0.2)
    assert saved.exists()
