"""The erqishi core: cards, notation, rule sets, errors and hand analysis.

Standard library only; no I/O, no clock, no global randomness.
"""

from erqishi.core._boundary import guard_methods, guard_names
from erqishi.core._compiled import NATIVE
from erqishi.core.cards import Card, Size, count_cards
from erqishi.core.errors import (
    ErqishiError,
    IllegalActionError,
    InvalidHandError,
    InvalidNotationError,
    InvalidRulesError,
    RecordError,
)
from erqishi.core.hands import (
    Fan,
    Group,
    GroupKind,
    HandAnalyzer,
    HandResult,
    NoWinReason,
    Tier,
    Wait,
    WinContext,
    WinSource,
    analyze_hand,
    find_waits,
    parse_meld,
    settle,
    tier_of,
)
from erqishi.core.notation import format_cards, parse_cards, sort_cards
from erqishi.core.rules import PRESETS, RuleSet

__all__ = [
    "PRESETS",
    "Card",
    "ErqishiError",
    "Fan",
    "Group",
    "GroupKind",
    "HandAnalyzer",
    "HandResult",
    "IllegalActionError",
    "InvalidHandError",
    "InvalidNotationError",
    "InvalidRulesError",
    "NoWinReason",
    "RecordError",
    "RuleSet",
    "Size",
    "Tier",
    "Wait",
    "WinContext",
    "WinSource",
    "analyze_hand",
    "count_cards",
    "find_waits",
    "format_cards",
    "parse_cards",
    "parse_meld",
    "settle",
    "sort_cards",
    "tier_of",
]

if not NATIVE:  # the pure build refuses a wrongly typed argument as the compiled one does
    guard_names(
        globals(),
        ("count_cards", "find_waits", "format_cards", "parse_cards", "parse_meld", "settle", "sort_cards", "tier_of"),
    )
    guard_methods(Card, ("of", "parse"))
    guard_methods(HandAnalyzer, ("from_counts",))
