"""Scoring and settlement: base value from hu (R-7.2), doublings 番 (R-7.3), the score
(R-7.4) and who pays whom (R-8).

Units: *hu* (胡数) are the points of a hand's groups (R-3); the *base* (规格) is the value
of the hu tier; the *score* is base × 2^番; payments are in score units.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from erqishi.core.errors import ErqishiError, InvalidHandError
from erqishi.core.rules import LESHAN, RuleSet, TianhuRule, Tiers

__all__ = [
    "MIN_HU",
    "Fan",
    "Tier",
    "WinContext",
    "WinSource",
    "fan_weight",
    "settle",
    "tier_of",
]

#: The least hu that wins (R-6.1).
MIN_HU = 10
#: The flat score of a 天胡 under the ``tianhu: fixed_100`` option (R-10).
TIANHU_FIXED_SCORE = 100


class WinSource(StrEnum):
    """Where the winning card came from (R-6.4); ``result.source`` in records."""

    DISCARD = "discard"
    FLIP = "flip"
    OWN_FLIP = "own_flip"
    TIAN = "tian"

    @property
    def chinese(self) -> str:
        """抬炮, 翻胡, 自摸 or 天胡."""
        return {"discard": "抬炮", "flip": "翻胡", "own_flip": "自摸", "tian": "天胡"}[self.value]


class Fan(StrEnum):
    """The doublings (番) of R-7.3, by their Chinese names (as in records and cases)."""

    TIANHU = "天胡"
    DIHU = "地胡"
    KUNHU = "坤胡"
    PIAOHU = "瞟胡"
    QUANHU = "圈胡"
    SHUANGQUAN = "双圈"


def fan_weight(fan: Fan, rules: RuleSet = LESHAN) -> int:
    """How many doublings ``fan`` is worth (R-7.3): 双圈 2, 天胡 1 or 2 by the ``tianhu``
    option (0 under ``fixed_100``, where the score is flat), every other 1.

    >>> fan_weight(Fan.SHUANGQUAN), fan_weight(Fan.TIANHU, RuleSet.preset("meishan"))
    (2, 2)
    """
    if fan is Fan.SHUANGQUAN:
        return 2
    if fan is Fan.TIANHU:
        return {TianhuRule.ONE_FAN: 1, TianhuRule.TWO_FAN: 2, TianhuRule.FIXED_100: 0}[rules.tianhu]
    return 1


@dataclass(frozen=True, slots=True)
class Tier:
    """A row of the hu table (R-7.2): its name (小和 中和 大和 30和 台和) and base value."""

    name: str
    base: int


def _round5(hu: int) -> int:
    return (hu + 2) // 5 * 5


def _build_tier_table(tiers: Tiers, top: int = 200) -> tuple[Tier | None, ...]:
    table: list[Tier | None] = []
    for hu in range(top + 1):
        if hu < MIN_HU:
            table.append(None)
        elif hu <= 14:
            table.append(Tier("小和", 10))
        elif hu <= 20:
            table.append(Tier("中和", 20))
        elif tiers is Tiers.SEED:
            if hu <= 22:
                table.append(Tier("大和", 40))
            elif hu <= 27:
                table.append(Tier("大和", 50))
            elif hu <= 30:
                table.append(Tier("30和", 60))
            else:
                table.append(Tier("台和", 4 * _round5(hu)))
        elif hu <= 24:
            table.append(Tier("大和", 40))
        elif hu <= 30:
            table.append(Tier("30和", 60))
        else:
            table.append(Tier("台和", 100))
    return tuple(table)


#: hu -> tier for hu 0-200, per tier table (R-7.2).
TIER_TABLES = {t: _build_tier_table(t) for t in Tiers}


def tier_of(hu: int, rules: RuleSet = LESHAN) -> Tier | None:
    """The tier of ``hu`` hu points under the rule set's ``tiers`` table (R-7.2); None
    below 10 hu.

    ``seed``: 10-14 小和 10, 15-20 中和 20, 21-22 大和 40, 23-27 大和 50, 28-30 30和 60,
    ≥ 31 台和 4 × (hu rounded half up to a multiple of 5). ``app``: 10-14:10, 15-20:20,
    21-24:40, 25-30:60, ≥ 31:100.

    Raises:
        InvalidHandError: ``hu`` is negative.

    >>> tier_of(33), tier_of(72).base, tier_of(9)
    (Tier(name='台和', base=140), 280, None)
    """
    if hu < 0:
        raise InvalidHandError(f"hu cannot be negative, got {hu}")
    table = TIER_TABLES[rules.tiers]
    if hu < len(table):
        return table[hu]
    return Tier("台和", 4 * _round5(hu) if rules.tiers is Tiers.SEED else 100)


@dataclass(frozen=True, slots=True)
class WinContext:
    """The circumstances of a win that scoring needs (R-6.3, R-6.4, R-7.3).

    Attributes:
        source: where the winning card came from; ``TIAN`` for 天胡 (no winning card).
        di: the win is 地胡 (a non-dealer on the dealer's opening discard, R-6.3).
        quan: the 圈 number 1-10 when playing 圈 (its card is the big card of that rank),
            or None.

    Raises:
        InvalidHandError: 天胡 together with 地胡, or a 圈 number outside 1-10.
    """

    source: WinSource = WinSource.DISCARD
    di: bool = False
    quan: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.source, WinSource):
            try:
                object.__setattr__(self, "source", WinSource(self.source))
            except ValueError:
                raise InvalidHandError(
                    f"win source must be one of {', '.join(w.value for w in WinSource)}, got {self.source!r}"
                ) from None
        if not isinstance(self.di, bool):
            raise InvalidHandError(f"di must be true or false, got {self.di!r}")
        if self.di and self.source is WinSource.TIAN:
            raise InvalidHandError("a win cannot be both 天胡 and 地胡")
        if self.quan is not None and (
            not isinstance(self.quan, int) or isinstance(self.quan, bool) or not 1 <= self.quan <= 10
        ):
            raise InvalidHandError(f"圈 number must be 1-10, got {self.quan!r}")

    @property
    def tian(self) -> bool:
        """The win is 天胡."""
        return self.source is WinSource.TIAN


def settle(
    score: int,
    source: WinSource,
    winner: int,
    rules: RuleSet = LESHAN,
    *,
    discarder: int | None = None,
    sitting_out: int | None = None,
) -> tuple[int, ...]:
    """Payments of every seat for one win (R-8), in score units; they sum to 0.

    Args:
        score: the win's score (R-7.4), before any cap.
        source: R-6.4 win source.
        winner: the winner's seat, 0 … players-1.
        rules: player count, ``cap`` and ``taipao_multiplier``.
        discarder: with ``source == DISCARD``, the seat that fired (抬炮).
        sitting_out: with four players, the seat that sits the hand out (pays nothing).

    Returns:
        One payment per seat: positive received, negative paid.

    Raises:
        ErqishiError: a negative or non-integer score, a seat out of range, a missing or
            self discarder, a missing sitting-out seat with four players (or one given
            with fewer), a sitting-out winner or discarder.

    With 翻胡, 自摸 and 天胡 each other player pays the (capped) score; with 抬炮 the
    discarder alone pays the multiplier (3, or 2 with two players) times the capped
    score (包三家, R-8.2).

    >>> settle(20, WinSource.DISCARD, 0, discarder=2)
    (60, 0, -60)
    >>> settle(20, WinSource.FLIP, 1)
    (-20, 40, -20)
    >>> settle(20, WinSource.FLIP, 1, RuleSet.from_options({"players": 4}), sitting_out=3)
    (-20, 40, -20, 0)
    """
    n = rules.players
    seats = range(n)
    if not isinstance(score, int) or isinstance(score, bool) or score < 0:
        raise ErqishiError(f"score must be a whole number of at least 0, got {score!r}")
    if winner not in seats:
        raise ErqishiError(f"winner seat {winner} is not one of 0-{n - 1}")
    if n == 4:
        if sitting_out not in seats:
            raise ErqishiError("with four players, name the seat that sits the hand out (R-10)")
        if winner == sitting_out:
            raise ErqishiError(f"seat {winner} sits the hand out and cannot win")
    elif sitting_out is not None:
        raise ErqishiError(f"only with four players does a seat sit out; {n} players all play")
    paid = score if rules.cap is None else min(score, rules.cap)
    payments = [0] * n
    if source is WinSource.DISCARD:
        if discarder is None or discarder not in seats or discarder == winner:
            raise ErqishiError(f"a 抬炮 needs the discarder's seat, one other than the winner's, got {discarder}")
        if discarder == sitting_out:
            raise ErqishiError(f"seat {discarder} sits the hand out and cannot be the discarder")
        amount = paid * rules.taipao_factor
        payments[discarder] = -amount
        payments[winner] = amount
        return tuple(payments)
    for seat in seats:
        if seat not in (winner, sitting_out):
            payments[seat] = -paid
            payments[winner] += paid
    return tuple(payments)
