"""The bounds of the core's memo tables, for processes that run for days (R-7 analysis).

The analysis memoizes what it works out per pattern of cards (the best split of one
size's free cards, the 花吃 choices over a few ranks) and the engine the cards of each
hand pattern it has turned into cards. Each table is bounded; the defaults suit a
benchmark or a simulation, which meets hundreds of thousands of patterns and gains from
keeping them. A server meets new patterns for hours, so with the defaults its memory
would grow for hours before it stops: it lowers the bounds at start-up, and its memory
is flat after minutes (the common patterns come back at once when a table is emptied).
"""

from __future__ import annotations

from erqishi.core.engine import state
from erqishi.core.hands import grouping

__all__ = ["limit_memos", "memo_sizes"]


def limit_memos(*, splits: int | None = None, hua: int | None = None, hand_cards: int | None = None) -> None:
    """Set the most entries each memo keeps (None leaves a bound as it is); a table that
    holds more than its new bound is emptied.

    Args:
        splits: split tables per size code (three tables; each is emptied when full).
        hua: 花吃 choice sets (once full, no more are kept).
        hand_cards: hand patterns turned into cards (emptied when full).

    Raises:
        ValueError: a bound below 1.
    """
    for name, value in (("splits", splits), ("hua", hua), ("hand_cards", hand_cards)):
        if value is not None and value < 1:
            raise ValueError(f"limit_memos: {name} must be at least 1, got {value}")
    grouping.set_memo_limits(splits, hua)
    if hand_cards is not None:
        state.set_hand_cards_limit(hand_cards)


def memo_sizes() -> dict[str, int]:
    """The entries each memo holds now: ``splits`` (the largest of the three), ``hua``,
    ``hand_cards``."""
    splits, hua = grouping.memo_entries()
    return {"splits": splits, "hua": hua, "hand_cards": state.hand_cards_entries()}
