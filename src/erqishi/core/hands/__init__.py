"""Hand analysis (R-3, R-4, R-6.1, R-7, R-8). Knows nothing of turns.

- :mod:`.groups`: groups and the one hu table (R-3);
- :mod:`.grouping`: the search for groupings (R-3.1, R-3.2, R-4.4), facts but no scores;
- :mod:`.fan`: each 番 of R-7.3 as a function, in one registry with its switch (R-10);
- :mod:`.scoring`: tiers (R-7.2), the score (R-7.4), the best grouping (R-7.1), settlement (R-8);
- :mod:`.analysis`: :class:`HandAnalyzer`, grouping and scoring together;
- :mod:`.waits`: :func:`find_waits` (下叫).
"""

from erqishi.core.hands.analysis import HandAnalyzer, HandResult, NoWinReason, Wait, analyze_hand
from erqishi.core.hands.fan import FAN_RULES, Fan, FanRule, fan_weight
from erqishi.core.hands.grouping import Candidate, GroupSearch, Placement
from erqishi.core.hands.groups import HU_TABLE, Group, GroupKind, classify_triple, parse_meld
from erqishi.core.hands.scoring import (
    MIN_HU,
    Tier,
    WinContext,
    WinSource,
    settle,
    tier_of,
)
from erqishi.core.hands.waits import find_waits

__all__ = [
    "FAN_RULES",
    "HU_TABLE",
    "MIN_HU",
    "Candidate",
    "Fan",
    "FanRule",
    "Group",
    "GroupKind",
    "GroupSearch",
    "HandAnalyzer",
    "HandResult",
    "NoWinReason",
    "Placement",
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
