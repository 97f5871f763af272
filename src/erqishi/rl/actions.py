"""The fixed action space of ``erqishi_v0``: a bijection between the engine's
:class:`~erqishi.core.engine.Action` values and the integers ``0 … N_ACTIONS-1``.

Every action the engine can offer a seat has one index (FORMATS.md "Actions"):

========== ======================================================================
index      action
========== ======================================================================
0–19       ``discard c`` (打), by card value: 0–9 一…十 (``x1``…``x10``), 10–19 壹…拾
20         ``pass`` (过)
21         ``dui`` (对)
22         ``kai`` (开)
23         ``hu`` (胡; as the dealer's opening, 天胡)
24–93      ``chi a b`` (吃) without 摆: the two hand cards, 70 pairs
94–465     ``chi a b bai g`` with one 摆 group (372)
466–883    ``chi a b bai g h`` with two 摆 groups (418)
========== ======================================================================

A 吃 names only the two hand cards and the 摆 groups, not the taken card (that is the
pending card of the state), so the same index serves ``chi x2 x3`` on 一 and on 四.
Within each block the 吃 are sorted by their cards (card values, then the 摆 groups).
The block of 吃 holds every action value the engine's move generator can produce (R-5.7,
R-5.8): the two cards make a 顺子, 二七十 or 花吃 with some card x, each 摆 group is such a
group holding x, the groups lay every held copy of x, and no card is used more than twice
(a card held three or four times is a locked 坎/滚, R-3.1). Which of them is legal in a
state is the engine's decision alone (:func:`~erqishi.core.engine.seat_options`): this
module only numbers them.

``python -m erqishi.rl.actions`` prints the whole table.

>>> N_ACTIONS, action_index(Action.parse("discard d1")), str(ACTIONS[20])
(884, 10, 'pass')
>>> i = action_index(Action.parse("chi x2 x3")); str(ACTIONS[i]), i
('chi x2 x3', 29)
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from itertools import combinations_with_replacement

import numpy as np

from erqishi.core.cards import Card
from erqishi.core.engine import DUI, HU, KAI, PASS, Action
from erqishi.core.hands import classify_triple

__all__ = [
    "ACTIONS",
    "CHI_BAI1_START",
    "CHI_BAI2_START",
    "CHI_START",
    "DISCARD_START",
    "DUI_INDEX",
    "HU_INDEX",
    "INDEX",
    "KAI_INDEX",
    "N_ACTIONS",
    "PASS_INDEX",
    "action_index",
    "action_indices",
    "as_integer",
    "decode_action",
    "in_action_space",
    "index_of",
]

_CARDS = tuple(Card)


def _chi_actions() -> list[Action]:
    """Every 吃 action value the move generator can produce (see the module text)."""
    found: set[Action] = set()
    for x in range(20):
        groups: list[tuple[tuple[int, int, int], int]] = []  # the 摆 groups holding x, copies of x in each
        for p in range(20):
            for q in range(p, 20):
                if classify_triple((_CARDS[x], _CARDS[p], _CARDS[q])) is not None:
                    lo, mid, hi = sorted((x, p, q))
                    groups.append(((lo, mid, hi), (x == p) + (x == q) + 1))
        pairs = [(p, q) for p in range(20) for q in range(p, 20) if classify_triple((_CARDS[x], _CARDS[p], _CARDS[q]))]
        for a, b in pairs:
            for held in range(3):  # copies of x in the hand: three or more would be a 坎/滚
                need = held - (a == x) - (b == x)
                if need < 0:
                    continue
                choices: list[tuple[tuple[int, int, int], ...]] = [()] if need == 0 else []
                for k in (1, 2):
                    for combo in combinations_with_replacement(range(len(groups)), k):
                        if need and sum(groups[i][1] for i in combo) == need:
                            choices.append(tuple(groups[i][0] for i in combo))
                for bai in choices:
                    used = [0] * 20
                    for c in (a, b, *(c for g in bai for c in g)):
                        used[c] += 1
                    if used[x] != held or max(used) > 2:
                        continue
                    found.add(Action.chi((_CARDS[a], _CARDS[b]), tuple(tuple(_CARDS[c] for c in g) for g in bai)))
    return sorted(found, key=lambda a: (len(a.bai), tuple(a.cards), a.bai))


def _table() -> tuple[Action, ...]:
    discards = [Action.discard(c) for c in _CARDS]
    return (*discards, PASS, DUI, KAI, HU, *_chi_actions())


#: Every action, by index.
ACTIONS: tuple[Action, ...] = _table()
#: The size of the action space.
N_ACTIONS = len(ACTIONS)
#: Index of each action.
INDEX: dict[Action, int] = {a: i for i, a in enumerate(ACTIONS)}

DISCARD_START = 0
PASS_INDEX = INDEX[PASS]
DUI_INDEX = INDEX[DUI]
KAI_INDEX = INDEX[KAI]
HU_INDEX = INDEX[HU]
CHI_START = HU_INDEX + 1
CHI_BAI1_START = next(i for i, a in enumerate(ACTIONS) if len(a.bai) == 1)
CHI_BAI2_START = next(i for i, a in enumerate(ACTIONS) if len(a.bai) == 2)


def action_index(action: Action) -> int:
    """The index of ``action``.

    Raises:
        KeyError: the action is no action the engine could ever offer (e.g. a 吃 of
            cards that make no group), naming it.
    """
    try:
        return INDEX[action]
    except KeyError:
        raise KeyError(f"{action} is not an action of the erqishi_v0 action space") from None


def action_indices(actions: Iterable[Action]) -> list[int]:
    """The indices of ``actions``, in order."""
    index = INDEX
    return [index[a] for a in actions]


def decode_action(index: int) -> Action:
    """The action of ``index``.

    Raises:
        IndexError: ``index`` is not ``0 … N_ACTIONS-1``.
    """
    if not 0 <= index < N_ACTIONS:
        raise IndexError(f"action {index} is outside 0-{N_ACTIONS - 1}")
    return ACTIONS[index]


def as_integer(action: object) -> int | None:
    """``action`` as an ``int`` when it is an integer as Gymnasium's ``Discrete`` takes one
    (a Python ``int``, ``bool`` included, a numpy integer or a 0-d integer array), else None."""
    if isinstance(action, int):
        return action
    if isinstance(action, np.generic | np.ndarray) and np.issubdtype(action.dtype, np.integer) and action.shape == ():
        return int(action)
    return None


def in_action_space(action: object) -> bool:
    """Gymnasium's ``Discrete(884).contains``: an integer (:func:`as_integer`) in 0 … 883."""
    value = as_integer(action)
    return value is not None and 0 <= value < N_ACTIONS


def index_of(action: object, what: str = "action") -> int:
    """``action`` as an index of the action space, checked (:func:`in_action_space`).

    Raises:
        TypeError: not an integer (a float, a string, ``None``, an array …), naming ``what``.
        IndexError: an integer outside 0 … 883 (no negative index counts from the end).
    """
    value = as_integer(action)
    if value is None:
        raise TypeError(f"{what} must be an index 0-{N_ACTIONS - 1} of the action space (an integer), got {action!r}")
    if not 0 <= value < N_ACTIONS:
        raise IndexError(f"{what} {value} is outside 0-{N_ACTIONS - 1}")
    return value


def main(argv: list[str] | None = None) -> int:
    """Print the action table: index, ASCII notation, Chinese."""
    out = sys.stdout
    out.write(f"# erqishi_v0 action space: {N_ACTIONS} actions\n")
    for i, action in enumerate(ACTIONS):
        out.write(f"{i}\t{action}\t{action.chinese}\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
