"""Scoring and settlement: base value from hu (R-7.2), the score (R-7.4), the choice of the
best grouping (R-7.1) and who pays whom (R-8). The 番 themselves are in :mod:`.fan`.

Units: *hu* (胡数) are the points of a hand's groups (R-3); the *base* (规格) is the value
of the hu tier; the *score* is base × 2^番; payments are in score units.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from erqishi.core._compiled import NATIVE, checks_own_input, field_key, raw, reduce_fields
from erqishi.core._fast import slot_setter
from erqishi.core.errors import ErqishiError, InvalidHandError
from erqishi.core.hands.fan import Fan, FanTest, active_fans, fan_weight
from erqishi.core.rules import LESHAN, RuleSet, TianhuRule, Tiers

if TYPE_CHECKING:
    from erqishi.core.hands.grouping import Candidate

__all__ = [
    "MIN_HU",
    "TIANHU_FIXED_SCORE",
    "TIER_ROWS",
    "TIER_TABLES",
    "Fan",
    "Scored",
    "Tier",
    "WinContext",
    "WinSource",
    "best_grouping",
    "best_score",
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


_TIAN: Final = WinSource.TIAN


@dataclass(frozen=True, slots=True)
class Tier:
    """A row of the hu table (R-7.2): its name (小和 中和 大和 30和 台和) and base value."""

    name: str
    base: int

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)


#: The tier tables of R-7.2 and R-10 as data: rows of (highest hu, name, base) from 10 hu
#: up, then the base of the open top row 台和 (≥ 31 hu), None where it is
#: 4 × (hu rounded half up to a multiple of 5).
TIER_ROWS: dict[Tiers, tuple[tuple[tuple[int, str, int], ...], int | None]] = {
    Tiers.SEED: (
        ((14, "小和", 10), (20, "中和", 20), (22, "大和", 40), (27, "大和", 50), (30, "30和", 60)),
        None,
    ),
    Tiers.APP: (((14, "小和", 10), (20, "中和", 20), (24, "大和", 40), (30, "30和", 60)), 100),
    Tiers.JIANWEI: (((10, "小和", 10), (20, "中和", 20), (30, "大和", 40)), 80),
}
_TOP_NAME: Final = "台和"


def _round5(hu: int) -> int:
    return (hu + 2) // 5 * 5


def _top_tier(tiers: Tiers, hu: int) -> Tier:
    top = TIER_ROWS[tiers][1]
    return Tier(_TOP_NAME, 4 * _round5(hu) if top is None else top)


def _build_tier_table(tiers: Tiers, top: int = 200) -> tuple[Tier | None, ...]:
    rows, top_base = TIER_ROWS[tiers]
    table: list[Tier | None] = [None] * MIN_HU
    for high, name, base in rows:
        tier = Tier(name, base)
        table.extend([tier] * (high + 1 - len(table)))
    fixed_top = None if top_base is None else Tier(_TOP_NAME, top_base)
    table.extend(fixed_top or _top_tier(tiers, hu) for hu in range(len(table), top + 1))
    return tuple(table)


#: hu -> tier for hu 0-200, per tier table (R-7.2).
TIER_TABLES = {t: _build_tier_table(t) for t in Tiers}


def tier_of(hu: int, rules: RuleSet = LESHAN) -> Tier | None:
    """The tier of ``hu`` hu points under the rule set's ``tiers`` table (R-7.2, R-10);
    None below 10 hu.

    ``seed``: 10-14 小和 10, 15-20 中和 20, 21-22 大和 40, 23-27 大和 50, 28-30 30和 60,
    ≥ 31 台和 4 × (hu rounded half up to a multiple of 5). ``app``: 10-14:10, 15-20:20,
    21-24:40, 25-30:60, ≥ 31:100. ``jianwei`` (犍为): 10 小和 10, 11-20 中和 20, 21-30
    大和 40, ≥ 31 台和 80.

    Raises:
        InvalidHandError: ``hu`` is negative.

    >>> tier_of(33), tier_of(72).base, tier_of(9)
    (Tier(name='台和', base=140), 280, None)
    >>> tier_of(11, RuleSet.preset("jianwei"))
    Tier(name='中和', base=20)
    """
    if hu < 0:
        raise InvalidHandError(f"hu cannot be negative, got {hu}", zh=f"胡数不能为负数，这里是 {hu}")
    table = TIER_TABLES[rules.tiers]
    if hu < len(table):
        return table[hu]
    return _top_tier(rules.tiers, hu)


@checks_own_input
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

    def __eq__(self, other: object) -> bool:  # explicit for the compiled build (field_key)
        if other.__class__ is not self.__class__:
            return NotImplemented
        return field_key(self) == field_key(other)

    def __hash__(self) -> int:
        return hash(field_key(self))

    def __post_init__(self) -> None:
        source, di, quan = raw(self, "source"), raw(self, "di"), raw(self, "quan")  # checked here, in both builds
        if not isinstance(source, WinSource):
            try:
                source = WinSource(source)  # type: ignore[arg-type]
            except ValueError:
                raise InvalidHandError(
                    f"win source must be one of {', '.join(w.value for w in WinSource)}, got {source!r}",
                    zh=f"胡的来源只能是 {'、'.join(w.value for w in WinSource)}，不是 {source!r}",
                ) from None
            object.__setattr__(self, "source", source)
        if not isinstance(di, bool):
            raise InvalidHandError(
                f"di must be true or false, got {di!r}", zh=f"di（地胡）只能是 true 或 false，不是 {di!r}"
            )
        if di and source is WinSource.TIAN:
            raise InvalidHandError("a win cannot be both 天胡 and 地胡", zh="一次胡不能既是天胡又是地胡")
        if quan is not None and (not isinstance(quan, int) or isinstance(quan, bool) or not 1 <= quan <= 10):
            raise InvalidHandError(f"圈 number must be 1-10, got {quan!r}", zh=f"第几圈应是 1-10，不是 {quan!r}")

    @property
    def tian(self) -> bool:
        """The win is 天胡."""
        return self.source is WinSource.TIAN


@dataclass(frozen=True, slots=True, init=False)
class Scored:
    """A candidate grouping with its score (R-7.2 - R-7.4).

    Attributes:
        score: base × 2^fan_count (R-7.4); 100 for a 天胡 under ``fixed_100``; 0 under 10 hu.
        hu: the grouping's hu.
        tier: its tier (R-7.2), None under 10 hu.
        fans: the 番 that apply, sorted by Unicode code point (empty under 10 hu).
        fan_count: doublings (双圈 counts 2).
        grouping: the candidate grouping.
    """

    score: int
    hu: int
    tier: Tier | None
    fans: tuple[Fan, ...]
    fan_count: int
    grouping: Candidate

    def __init__(
        self,
        score: int,
        hu: int,
        tier: Tier | None,
        fans: tuple[Fan, ...],
        fan_count: int,
        grouping: Candidate,
    ) -> None:
        if NATIVE:  # stores into the native object (see erqishi.core._fast)
            self.score = score  # type: ignore[misc]
            self.hu = hu  # type: ignore[misc]
            self.tier = tier  # type: ignore[misc]
            self.fans = fans  # type: ignore[misc]
            self.fan_count = fan_count  # type: ignore[misc]
            self.grouping = grouping  # type: ignore[misc]
        else:
            _SET_SCORED(self, score, hu, tier, fans, fan_count, grouping)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)


_SET_SCORED: Final = slot_setter(Scored)


class _Scheme:
    """What scoring needs of one rule set, worked out once."""

    __slots__ = ("fixed_100", "rules", "tests", "tian_listed", "tiers", "weights")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.tiers = TIER_TABLES[rules.tiers]
        tests, weights = active_fans(rules)
        self.tests: tuple[FanTest, ...] = tests
        self.weights = weights
        self.fixed_100 = rules.tianhu is TianhuRule.FIXED_100
        self.tian_listed: tuple[Fan, ...] = (Fan.TIANHU,) if rules.tian_di_fan else ()


_SCHEMES: Final[dict[int, _Scheme]] = {}


def _scheme(rules: RuleSet) -> _Scheme:
    scheme = _SCHEMES.get(id(rules))
    if scheme is None or scheme.rules is not rules:
        if len(_SCHEMES) > 256:
            _SCHEMES.clear()
        scheme = _SCHEMES[id(rules)] = _Scheme(rules)
    return scheme


def best_score(candidates: Sequence[Candidate], context: WinContext, rules: RuleSet = LESHAN) -> int:
    """The score (R-7.4) of the best of ``candidates`` (R-7.1), 0 when none has 10 hu.

    >>> from erqishi.core import HandAnalyzer, Card
    >>> a = HandAnalyzer("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"])
    >>> best_score(a.candidates(Card.X4), WinContext())
    10
    """
    scheme = _scheme(rules)
    tiers = scheme.tiers
    best = 0
    for cand in candidates:
        hu = cand.hu
        if hu < MIN_HU:
            continue
        if context.source is _TIAN and scheme.fixed_100:
            score = TIANHU_FIXED_SCORE
        else:
            tier = tiers[hu] if hu < len(tiers) else tier_of(hu, rules)
            assert tier is not None
            weights = scheme.weights
            count = 0
            for test in scheme.tests:
                fan = test(cand, context, rules)
                if fan is not None:
                    count += weights[fan]
            score = tier.base << count
        if score > best:
            best = score
    return best


def best_grouping(candidates: Sequence[Candidate], context: WinContext, rules: RuleSet = LESHAN) -> Scored | None:
    """The best of ``candidates`` by R-7.1: the highest score, then the higher hu, then the
    fan list that sorts first (by Unicode code point); None when there are none. Under
    10 hu every score is 0, so that is the grouping with the most hu.

    Under ``tianhu: fixed_100`` a 天胡 scores 100 whatever the hu, no other 番 apply and
    the fan list is ``["天胡"]`` (empty with ``tian_di_fan`` off) (R-10).

    >>> from erqishi.core import HandAnalyzer, Card
    >>> a = HandAnalyzer("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"])
    >>> s = best_grouping(a.candidates(Card.X4), WinContext()); (s.score, s.hu, s.tier.name, s.fans)
    (10, 10, '小和', ())
    """
    scheme = _scheme(rules)
    tiers = scheme.tiers
    weights = scheme.weights
    tests = scheme.tests
    fixed = context.source is _TIAN and scheme.fixed_100
    best: Scored | None = None
    fans: tuple[Fan, ...]
    for cand in candidates:
        hu = cand.hu
        tier = tiers[hu] if hu < len(tiers) else tier_of(hu, rules)
        if tier is None:
            score, fans, count = 0, (), 0
        elif fixed:
            score, fans, count = TIANHU_FIXED_SCORE, scheme.tian_listed, 0
        else:
            found: list[Fan] = []
            count = 0
            for test in tests:
                fan = test(cand, context, rules)
                if fan is not None:
                    found.append(fan)
                    count += weights[fan]
            score = tier.base << count
            if len(found) > 1:
                found.sort()
            fans = tuple(found)
        if (
            best is None
            or score > best.score
            or (score == best.score and (hu > best.hu or (hu == best.hu and fans < best.fans)))
        ):
            best = Scored(score, hu, tier, fans, count, cand)
    return best


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
        ErqishiError: a negative score, a seat out of range, a missing or self
            discarder, a missing sitting-out seat with four players (or one given with
            fewer), a sitting-out winner or discarder.
        TypeError: a ``source`` that is no :class:`WinSource`, a score that is not an
            ``int`` (a ``bool`` counts as 0 or 1, as everywhere in Python), or a seat that is
            no ``int`` (``discarder`` and ``sitting_out`` may be None), in both builds.

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
    if not isinstance(source, WinSource):  # the compiled build raises the same before the call
        raise TypeError(f"source must be a WinSource, got {source!r}")
    if not isinstance(score, int):
        raise TypeError(f"score must be a whole number, got {score!r}")
    score = int(score)  # a bool is the int it stands for, as in the compiled build
    seat_args: tuple[tuple[str, object], ...] = (
        ("winner", winner),
        ("discarder", discarder),
        ("sitting_out", sitting_out),
    )
    for name, seat in seat_args:
        if not (isinstance(seat, int) or (seat is None and name != "winner")):
            raise TypeError(f"{name} must be a seat number, got {type(seat).__name__} {seat!r}")
    if score < 0:
        raise ErqishiError(
            f"score must be a whole number of at least 0, got {score!r}", zh=f"得分应是不小于 0 的整数，不是 {score!r}"
        )
    if winner not in seats:
        raise ErqishiError(f"winner seat {winner} is not one of 0-{n - 1}", zh=f"胡家座位 {winner} 不在 0-{n - 1} 之中")
    if n == 4:
        if sitting_out not in seats:
            raise ErqishiError(
                "with four players, name the seat that sits the hand out (R-10)",
                zh="四人局要说明这手哪个座位轮空（R-10）",
            )
        if winner == sitting_out:
            raise ErqishiError(f"seat {winner} sits the hand out and cannot win", zh=f"座位 {winner} 本手轮空，不能胡")
    elif sitting_out is not None:
        raise ErqishiError(
            f"only with four players does a seat sit out; {n} players all play",
            zh=f"只有四人局才有人轮空；{n} 人局人人都打",
        )
    paid = score if rules.cap is None else min(score, rules.cap)
    payments = [0] * n
    if source is WinSource.DISCARD:
        if discarder is None or discarder not in seats or discarder == winner:
            raise ErqishiError(
                f"a 抬炮 needs the discarder's seat, one other than the winner's, got {discarder}",
                zh=f"抬炮要给出打出那张牌的座位（不是胡家），不是 {discarder}",
            )
        if discarder == sitting_out:
            raise ErqishiError(
                f"seat {discarder} sits the hand out and cannot be the discarder",
                zh=f"座位 {discarder} 本手轮空，不能是抬炮的人",
            )
        amount = paid * rules.taipao_factor
        payments[discarder] = -amount
        payments[winner] = amount
        return tuple(payments)
    for seat in seats:
        if seat not in (winner, sitting_out):
            payments[seat] = -paid
            payments[winner] += paid
    return tuple(payments)
