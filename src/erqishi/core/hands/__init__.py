"""Hand analysis: groups, the best grouping and win check, waits, scoring and settlement
(R-3, R-4, R-6.1, R-7, R-8). Knows nothing of turns."""

from erqishi.core.hands.grouping import HandAnalyzer, HandResult, NoWinReason, Wait, analyze_hand
from erqishi.core.hands.groups import HU_TABLE, Group, GroupKind, classify_triple, parse_meld
from erqishi.core.hands.scoring import (
    MIN_HU,
    Fan,
    Tier,
    WinContext,
    WinSource,
    fan_weight,
    settle,
    tier_of,
)
from erqishi.core.hands.waits import find_waits

__all__ = [
    "HU_TABLE",
    "MIN_HU",
    "Fan",
    "Group",
    "GroupKind",
    "HandAnalyzer",
    "HandResult",
    "NoWinReason",
    "Tier",
    "Wait",
    "WinContext",
    "WinSource",
    "analyze_hand",
    "classify_triple",
    "fan_weight",
    "find_waits",
    "parse_meld",
    "settle",
    "tier_of",
]
