"""A terminal match saved as it goes, so ``erqishi play --resume`` continues it exactly
where it stopped: the seed, the bots, every move made, the declarations already made in
the open response window, and the bots' generators as they stood.

The file is JSON, written whole to a temporary file and moved into place, so a crash while
saving leaves the previous save intact. Its deals are not stored: they come again from the
seed (R-2.2), and the moves are replayed through the engine, which checks them.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from erqishi.bots import BOTS
from erqishi.core import ErqishiError, RuleSet
from erqishi.core.engine import Action

__all__ = ["FORMAT", "SavedMatch", "default_path", "load", "save"]

FORMAT = 1
_KIND = "erqishi-terminal-match"


def default_path() -> Path:
    """Where the terminal game keeps its match in progress (the user's data directory)."""
    from platformdirs import user_data_path

    return user_data_path("erqishi", appauthor=False) / "match-in-progress.json"


RngState = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class SavedMatch:
    """A match in progress in the terminal.

    Attributes:
        seed: the match seed (deals, first dealer, the bots' generators).
        rules: the rule set, 圈 per match included.
        bots: the bots' names, one per seat other than the person's, in seat order.
        human_seat: the person's seat.
        lang: the screen's language.
        hands: the effective moves of every finished hand, in order.
        actions: the moves of the hand being played; None between hands (the last
            hand's result is on the screen).
        declared: declarations already made in the open response window, by seat.
        bot_rngs: each bot's generator state, by seat; ``hint_rng`` the hints' one.
    """

    seed: int
    rules: RuleSet
    bots: tuple[str, ...]
    human_seat: int
    lang: str
    hands: tuple[tuple[tuple[int, Action], ...], ...]
    actions: tuple[tuple[int, Action], ...] | None
    declared: dict[int, Action]
    bot_rngs: dict[int, RngState]
    hint_rng: RngState

    def to_json(self) -> dict[str, Any]:
        """The file's JSON object."""
        return {
            "format": FORMAT,
            "kind": _KIND,
            "seed": self.seed,
            "rules": self.rules.to_options(),
            "bots": list(self.bots),
            "human_seat": self.human_seat,
            "lang": self.lang,
            "hands": [_moves_json(h) for h in self.hands],
            "actions": None if self.actions is None else _moves_json(self.actions),
            "declared": {str(seat): str(a) for seat, a in self.declared.items()},
            "bot_rngs": {str(seat): _rng_json(st) for seat, st in self.bot_rngs.items()},
            "hint_rng": _rng_json(self.hint_rng),
        }


def _moves_json(moves: tuple[tuple[int, Action], ...]) -> list[list[Any]]:
    return [[seat, str(action)] for seat, action in moves]


def _rng_json(state: RngState) -> list[Any]:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def rng_state(rng: random.Random) -> RngState:
    """A generator's state, as :func:`save` keeps it."""
    return rng.getstate()


def save(path: Path, match: SavedMatch) -> None:
    """Write ``match`` to ``path`` (whole, or not at all).

    Raises:
        OSError: it cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(match.to_json(), ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def remove(path: Path) -> None:
    """Forget the saved match (it is over)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _need(cond: bool, what: str, zh: str) -> None:
    if not cond:
        raise ErqishiError(f"the saved match is damaged: {what}", zh=f"存档已损坏：{zh}")


def _moves(data: Any, what: str) -> tuple[tuple[int, Action], ...]:
    _need(isinstance(data, list), f"{what} must be a list", f"{what} 应是列表")
    out = []
    for i, entry in enumerate(data):
        _need(
            isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int and isinstance(entry[1], str),
            f"{what}[{i}] must be [seat, action]",
            f"{what}[{i}] 应是 [座位, 动作]",
        )
        out.append((entry[0], Action.parse(entry[1])))
    return tuple(out)


def _rng(data: Any, what: str) -> RngState:
    _need(
        isinstance(data, list)
        and len(data) == 3
        and isinstance(data[1], list)
        and all(type(v) is int for v in data[1]),
        f"{what} must be a generator state",
        f"{what} 应是随机数发生器的状态",
    )
    state: RngState = (data[0], tuple(data[1]), data[2])
    try:
        random.Random().setstate(state)
    except (ValueError, TypeError, OverflowError):
        _need(False, f"{what} must be a generator state", f"{what} 应是随机数发生器的状态")
    return state


def _seat(key: str) -> int:
    _need(key.isdigit() and int(key) < 4, f"{key!r} is not a seat", f"{key!r} 不是座位")
    return int(key)


def load(path: Path) -> SavedMatch:
    """The match saved at ``path``.

    Raises:
        FileNotFoundError: nothing is saved there.
        ErqishiError: the file is not a saved match (the message says what is wrong).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ErqishiError(f"the saved match is damaged: not JSON ({exc})", zh="存档已损坏：不是 JSON") from None
    except RecursionError:
        raise ErqishiError(
            "the saved match is damaged: JSON nested too deeply", zh="存档已损坏：JSON 嵌套太深"
        ) from None
    _need(isinstance(data, dict) and data.get("kind") == _KIND, "not a saved terminal match", "不是终端对局的存档")
    _need(data.get("format") == FORMAT, f"format must be {FORMAT}", f"format 应是 {FORMAT}")
    seed = data.get("seed")
    _need(type(seed) is int, "seed must be a number", "seed 应是整数")
    bots = data.get("bots")
    _need(
        isinstance(bots, list) and all(isinstance(b, str) and b in BOTS for b in bots),
        f"bots must be bot names ({', '.join(BOTS)})",
        f"bots 应是机器人的名字（{'、'.join(BOTS)}）",
    )
    human = data.get("human_seat")
    _need(type(human) is int, "human_seat must be a seat", "human_seat 应是座位")
    declared_data = data.get("declared", {})
    _need(isinstance(declared_data, dict), "declared must be an object", "declared 应是对象")
    rngs = data.get("bot_rngs", {})
    _need(isinstance(rngs, dict), "bot_rngs must be an object", "bot_rngs 应是对象")
    hands = data.get("hands")
    _need(isinstance(hands, list), "hands must be a list", "hands 应是列表")
    rules = data.get("rules", {})
    _need(isinstance(rules, str | dict), "rules must be a preset name or an object", "rules 应是预设名或对象")
    return SavedMatch(
        seed=seed,
        rules=RuleSet.load(rules),
        bots=tuple(bots),
        human_seat=human,
        lang="en" if data.get("lang") == "en" else "zh",
        hands=tuple(_moves(h, f"hands[{i}]") for i, h in enumerate(hands)),
        actions=None if data.get("actions") is None else _moves(data["actions"], "actions"),
        declared={_seat(seat): Action.parse(a) for seat, a in declared_data.items() if isinstance(a, str)},
        bot_rngs={_seat(seat): _rng(st, f"bot_rngs[{seat}]") for seat, st in rngs.items()},
        hint_rng=_rng(data.get("hint_rng"), "hint_rng"),
    )
