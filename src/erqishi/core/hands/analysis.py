"""Hand analysis: grouping and scoring together (R-3, R-4.4, R-6.1, R-7).

:class:`HandAnalyzer` prepares one hand (concealed cards and exposed melds) for many
questions: does a card win, what does it score, what are the waits. The grouping search
(:mod:`.grouping`) finds the candidate groupings; scoring (:mod:`.scoring`, :mod:`.fan`)
picks the best by R-7.1. :func:`analyze_hand` is the one-call form.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, cast

from erqishi.core._boundary import raise_if_mistyped, type_error
from erqishi.core._compiled import NATIVE, reduce_fields
from erqishi.core._fast import slot_setter
from erqishi.core.cards import COPIES, IDENTITIES, Card
from erqishi.core.errors import InvalidHandError
from erqishi.core.hands.fan import Fan
from erqishi.core.hands.grouping import Candidate, GroupSearch
from erqishi.core.hands.groups import Group, parse_meld
from erqishi.core.hands.scoring import Tier, WinContext, WinSource, best_grouping, best_score
from erqishi.core.notation import parse_cards
from erqishi.core.rules import LESHAN, RuleSet

__all__ = ["HandAnalyzer", "HandResult", "NoWinReason", "Wait", "analyze_hand"]


class NoWinReason(StrEnum):
    """Why valid cards do not win (R-4.4, R-6.1)."""

    TOO_MANY = "too_many"
    TOO_FEW = "too_few"
    NO_GROUPING = "no_grouping"
    UNDER_10 = "under_10"

    @property
    def chinese(self) -> str:
        """多牌, 少牌, 有散牌 (no grouping) or 不够十胡 (under 10 hu)."""
        return {
            "too_many": "多牌",
            "too_few": "少牌",
            "no_grouping": "有散牌",
            "under_10": "不够十胡",
        }[self.value]

    @property
    def english(self) -> str:
        """A short English explanation."""
        return {
            "too_many": "too many cards for seven groups",
            "too_few": "too few cards for seven groups",
            "no_grouping": "the cards do not all fit into groups",
            "under_10": "fewer than 10 hu",
        }[self.value]


@dataclass(frozen=True, slots=True, init=False)
class HandResult:
    """The analysis of one hand: whether it wins, its best grouping and its score.

    Attributes:
        is_win: the cards make a legal win of at least 10 hu (R-4.4, R-6.1).
        reason: why not, when ``is_win`` is False.
        groups: the best grouping (exposed melds first), empty when the cards do not
            group at all. For a hand under 10 hu, the grouping with the most hu.
        hu: hu points of ``groups`` (R-7.1).
        tier: the hu tier (R-7.2), None under 10 hu.
        fans: the doublings that apply, sorted by Unicode code point (R-7.3); a 番
            switched off (R-10) is not listed.
        fan_count: the number of doublings (双圈 counts 2).
        score: base × 2^fan_count (R-7.4), 0 when not a win; a flat 100 for a 天胡 under
            ``tianhu: fixed_100`` (then ``fan_count`` is 0).
        win_card: the winning card, None for 天胡.
        context: the win's context.
    """

    is_win: bool
    reason: NoWinReason | None
    groups: tuple[Group, ...]
    hu: int
    tier: Tier | None
    fans: tuple[Fan, ...]
    fan_count: int
    score: int
    win_card: Card | None
    context: WinContext

    def __init__(
        self,
        is_win: bool,
        reason: NoWinReason | None,
        groups: tuple[Group, ...],
        hu: int,
        tier: Tier | None,
        fans: tuple[Fan, ...],
        fan_count: int,
        score: int,
        win_card: Card | None,
        context: WinContext,
    ) -> None:
        if NATIVE:  # stores into the native object (see erqishi.core._fast)
            self.is_win = is_win  # type: ignore[misc]
            self.reason = reason  # type: ignore[misc]
            self.groups = groups  # type: ignore[misc]
            self.hu = hu  # type: ignore[misc]
            self.tier = tier  # type: ignore[misc]
            self.fans = fans  # type: ignore[misc]
            self.fan_count = fan_count  # type: ignore[misc]
            self.score = score  # type: ignore[misc]
            self.win_card = win_card  # type: ignore[misc]
            self.context = context  # type: ignore[misc]
        else:
            _SET_RESULT(self, is_win, reason, groups, hu, tier, fans, fan_count, score, win_card, context)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    @property
    def base(self) -> int:
        """The base value (规格) of the tier, 0 under 10 hu."""
        return 0 if self.tier is None else self.tier.base

    @property
    def fan_names(self) -> list[str]:
        """The 番 by Chinese name, as in records and ``cases/scoring.json``."""
        return [f.value for f in self.fans]


@dataclass(frozen=True, slots=True, init=False)
class Wait:
    """One winning card of a waiting hand (下叫) and the result of winning on it (R-6.1, R-7)."""

    card: Card
    result: HandResult

    def __init__(
        self,
        card: Card,
        result: HandResult,
    ) -> None:
        if NATIVE:  # stores into the native object (see erqishi.core._fast)
            self.card = card  # type: ignore[misc]
            self.result = result  # type: ignore[misc]
        else:
            _SET_WAIT(self, card, result)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    @property
    def score(self) -> int:
        """The score (R-7.4) of the win on :attr:`card`."""
        return self.result.score


class _Prepared:
    """A hand already checked (:meth:`HandAnalyzer.from_counts`, :meth:`HandAnalyzer.trusted`):
    its counts, the counts with the melds, the melds, and the concealed cards' number."""

    __slots__ = ("counts", "melds", "n_cards", "used")

    def __init__(self, counts: tuple[int, ...], used: tuple[int, ...], melds: tuple[Group, ...], n_cards: int) -> None:
        self.counts = counts
        self.used = used
        self.melds = melds
        self.n_cards = n_cards


_SET_RESULT: Final = slot_setter(HandResult)
_SET_WAIT: Final = slot_setter(Wait)
_ALL_CARDS: Final = tuple(Card)
_NO_CONTEXT: Final = WinContext()
_TIAN: Final = WinSource.TIAN
_TOO_MANY: Final = NoWinReason.TOO_MANY
_TOO_FEW: Final = NoWinReason.TOO_FEW
_NO_GROUPING: Final = NoWinReason.NO_GROUPING
_UNDER_10: Final = NoWinReason.UNDER_10


class HandAnalyzer(GroupSearch):
    """A hand prepared for analysis: its concealed cards and exposed melds, fixed; the
    winning card and context vary per call. Cheap to call many times (waits, the engine).

    The grouping search it extends (:class:`~erqishi.core.hands.grouping.GroupSearch`)
    finds the candidate groupings; scoring picks the best (R-7.1).

    Args:
        hand: the concealed hand before the winning card, as cards or a card string.
        melds: the exposed melds, as :class:`Group` or meld strings (R-3).
        rules: the rule set (tiers, 天胡 worth, the 番 switches, ``yu``).

    Raises:
        InvalidNotationError: a bad card token.
        InvalidHandError: a meld that is no group or not exposed, or more than four
            copies of a card across hand and melds.

    >>> a = HandAnalyzer("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"])
    >>> r = a.evaluate(Card.X4); (r.is_win, r.hu, r.score)
    (True, 10, 10)
    """

    __slots__ = ("rules",)

    def __init__(
        self,
        hand: Iterable[Card] | str | _Prepared,
        melds: Iterable[Group | str] = (),
        rules: RuleSet = LESHAN,
    ) -> None:
        try:
            if isinstance(hand, _Prepared):  # from_counts / trusted: already checked
                self.rules = rules
                GroupSearch.__init__(self, hand.counts, hand.used, hand.melds, hand.n_cards, rules.yu)
                return
            cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
            if isinstance(melds, str):
                raise InvalidHandError(
                    f"melds must be a list of meld strings, not one string ({melds!r})",
                    zh="亮出的房要给成列表，不是一个字符串",
                )
            counts = [0] * IDENTITIES
            card_type = Card
            for item in cast("tuple[object, ...]", cards):  # one pass: checked here, in both builds, and counted
                if type(item) is not card_type:
                    raise InvalidHandError(
                        f"a hand holds cards (Card or card strings), got {item!r}", zh="手牌里只能是牌"
                    )
                counts[item] += 1
            used = counts
            meld_groups: tuple[Group, ...] = ()
            if melds:
                used = counts.copy()
                found: list[Group] = []
                for m in cast("Iterable[object]", melds):  # checked here, in both builds
                    g = parse_meld(m) if isinstance(m, str) else m
                    if not isinstance(g, Group):
                        raise InvalidHandError(
                            f"a meld must be a Group or a meld string, got {g!r}", zh="亮出的房要是一房牌（如 一一一）"
                        )
                    if not g.exposed:
                        raise InvalidHandError(f"meld {g} must be an exposed group", zh=f"{g} 要是亮出的房")
                    if g.yu and not rules.yu:
                        raise InvalidHandError(
                            f"meld {g}: a 开 made by adding the 4th card to an exposed 对 is a group only "
                            "under the yu option (R-5.13); these rules do not have it",
                            zh=f"{g}：对加第四张成的开只在 yu（下雨）选项下算一房（R-5.13），这套规则没有这个选项",
                        )
                    for card in g.cards:
                        used[card] += 1
                    found.append(g)
                meld_groups = tuple(found)
            if max(used) > COPIES:
                over = _ALL_CARDS[used.index(max(used))]
                raise InvalidHandError(
                    f"{used[over]} copies of {over} ({over.ascii}) in hand and melds; the deck has {COPIES}",
                    zh=f"{over} 有 {used[over]} 张（手牌和亮出的房合计），一副牌只有 {COPIES} 张",
                )
            self.rules = rules
            GroupSearch.__init__(self, tuple(counts), tuple(used), meld_groups, len(cards), rules.yu)
        except Exception:  # a wrongly typed argument: refused as the compiled build refuses it
            raise_if_mistyped(HandAnalyzer.__init__, self, hand, melds, rules)
            raise

    @classmethod
    def from_counts(cls, counts: Sequence[int], melds: Sequence[Group] = (), rules: RuleSet = LESHAN) -> HandAnalyzer:
        """An analyzer from a count array (20 ints indexed by ``Card`` value) and exposed groups.

        Raises:
            InvalidHandError: as the constructor, or counts that are not 20 whole numbers
                of 0-4.
            TypeError: a count that is no ``int`` (in both builds).

        >>> melds = [parse_meld(m) for m in ["壹壹壹壹", "陆陆陆陆", "捌捌捌捌", "玖玖玖玖", "拾拾拾拾", "贰贰贰贰"]]
        >>> a = HandAnalyzer.from_counts([1] + [0] * 19, melds)  # one 一 and six big 开
        >>> a.quads, a.card_total, a.could_win(Card.X2), a.score(Card.X1)
        (6, 25, False, 440)
        """
        counts = tuple(counts)
        for c in counts:
            if not isinstance(c, int):
                raise TypeError(f"counts must be ints, got {type(c).__name__} {c!r}")
        melds = tuple(melds)
        if len(counts) != IDENTITIES or any(not 0 <= c <= COPIES for c in counts):
            raise InvalidHandError(
                f"counts must be {IDENTITIES} whole numbers of 0-{COPIES}, got {list(counts)}",
                zh=f"张数要是 {IDENTITIES} 个 0-{COPIES} 的整数",
            )
        if any(not isinstance(g, Group) or not g.exposed or (g.yu and not rules.yu) for g in melds):
            return cls([_ALL_CARDS[v] for v, c in enumerate(counts) for _ in range(c)], melds, rules)
        used = list(counts)
        for g in melds:
            for card in g.cards:
                used[card] += 1
        if max(used) > COPIES:
            return cls([_ALL_CARDS[v] for v, c in enumerate(counts) for _ in range(c)], melds, rules)
        return cls(_Prepared(counts, tuple(used), melds, sum(counts)), melds, rules)

    @classmethod
    def trusted(
        cls, counts: tuple[int, ...], melds: tuple[Group, ...], rules: RuleSet, card_total: int
    ) -> HandAnalyzer:
        """An analyzer for a hand the caller guarantees valid (the engine): 20 counts, at
        most four copies with the melds, exposed melds, ``card_total`` cards in all."""
        used = counts
        n_cards = card_total
        if melds:
            used_list = list(counts)
            for g in melds:
                cards = g.cards
                n_cards -= len(cards)
                for card in cards:
                    used_list[card] += 1
            used = tuple(used_list)
        prepared = _Prepared(counts, used, melds, n_cards)
        if cls is HandAnalyzer:  # a native call in the compiled build
            return HandAnalyzer(prepared, melds, rules)
        return cls(prepared, melds, rules)

    @property
    def counts(self) -> tuple[int, ...]:
        """Counts of the concealed hand, indexed by ``Card`` value."""
        return self._counts

    @property
    def melds(self) -> tuple[Group, ...]:
        """The exposed melds."""
        return self._melds

    def evaluate(self, win: Card | None, context: WinContext = _NO_CONTEXT) -> HandResult:
        """Analyse the hand with ``win`` as the winning card (R-4.4, R-6.1, R-7).

        Args:
            win: the winning card; None only for 天胡 (``context.source`` TIAN).
            context: win source, 地胡, 圈 number.

        Returns:
            The :class:`HandResult` of the best grouping (R-7.1): hu in hu points, the
            score in score units.

        Raises:
            InvalidHandError: 天胡 with a winning card, no winning card otherwise, a
                fifth copy of the winning card, or a 天胡/地胡 context with other than the
                dealt hand.
            TypeError: ``win`` is neither a :class:`Card` nor None (so in both builds: the
                compiled one checks the argument's type before the call).

        >>> HandAnalyzer("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"]).evaluate(Card.X9).reason
        <NoWinReason.NO_GROUPING: 'no_grouping'>
        """
        w = self._check_win(win, context)
        self._check_context(context)
        candidates = GroupSearch.candidates(self, w)
        if not candidates:
            fit = self.fits(w)
            reason = _NO_GROUPING if fit == 0 else _TOO_MANY if fit > 0 else _TOO_FEW
            return HandResult(False, reason, (), 0, None, (), 0, 0, win, context)
        best = best_grouping(candidates, context, self.rules)
        assert best is not None
        groups = self.materialize(best.grouping)
        if best.tier is None:
            return HandResult(False, _UNDER_10, groups, best.hu, None, (), 0, 0, win, context)
        return HandResult(True, None, groups, best.hu, best.tier, best.fans, best.fan_count, best.score, win, context)

    def score(self, win: Card | None, context: WinContext = _NO_CONTEXT) -> int:
        """The score (R-7.4, score units) of winning on ``win``; 0 when it does not win.

        Raises:
            InvalidHandError: as :meth:`evaluate`.

        >>> HandAnalyzer("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"]).score(Card.X7)
        10
        """
        w = self._check_win(win, context)
        if context.tian or context.di:
            self._check_context(context)
        return self.score_unchecked(w, context)

    def score_unchecked(self, w: int | None, context: WinContext) -> int:
        """:meth:`score` for a caller that guarantees valid input (the engine): ``w`` is
        the winning card's value, or None for 天胡; no fifth copy; a 天胡/地胡 context only
        with the dealt hand."""
        if w is None:  # 天胡: every card is dealt; a loose one stays loose
            if self.has_loose():
                return 0
        elif not self.could_win(w):
            return 0
        candidates = GroupSearch.candidates(self, w)
        return best_score(candidates, context, self.rules) if candidates else 0

    def candidates(self, win: int | None) -> list[Candidate]:
        """The candidate groupings (R-7.1) with the winning card ``win`` (a :class:`Card`,
        or None for 天胡), with the facts scoring needs (see :class:`GroupSearch`).

        Raises:
            InvalidHandError: ``win`` is a number but no card, or would be a fifth copy.
            TypeError: ``win`` is no ``int`` (as the compiled build checks it).
        """
        if win is not None:
            if not isinstance(win, int):
                raise type_error("int or None", win)  # as the compiled build words it
            if not isinstance(win, Card):
                raise InvalidHandError(f"the winning card must be a Card, got {win!r}", zh="胡的那张要是一张牌")
            if self._used[win] >= COPIES:
                raise InvalidHandError(
                    f"winning card {win} ({win.ascii}) would be a fifth copy",
                    zh=f"胡的 {win} 会是第五张：一副牌只有 4 张",
                )
        return GroupSearch.candidates(self, win)

    def waits(self, context: WinContext = _NO_CONTEXT) -> tuple[Wait, ...]:
        """Every card that would win this hand, in card order, with its result (下叫).

        Only cards with a copy left (fewer than four in hand and melds) are tried.

        Raises:
            InvalidHandError: ``context`` is 天胡 (a 天胡 has no winning card), or 地胡
                with other than a non-dealer's 20 dealt cards.

        >>> [str(w.card) for w in HandAnalyzer("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"]).waits()]
        ['一', '四', '七']
        """
        if context.tian:
            raise InvalidHandError(
                "天胡 has no winning card, so it has no waits", zh="天胡没有胡的那张牌，所以没有下叫"
            )
        self._check_context(context)
        rules = self.rules
        out: list[Wait] = []
        for w, candidates in self.winning_candidates():
            best = best_grouping(candidates, context, rules)
            if best is None or best.tier is None:
                continue
            card = _ALL_CARDS[w]
            groups = self.materialize(best.grouping)
            result = HandResult(
                True, None, groups, best.hu, best.tier, best.fans, best.fan_count, best.score, card, context
            )
            out.append(Wait(card, result))
        return tuple(out)

    def _check_context(self, context: WinContext) -> None:
        """天胡 is the dealer's 21 dealt cards; 地胡 a non-dealer's 20 dealt cards (R-2.3, R-6.3)."""
        if context.source is _TIAN or context.di:
            name, size = ("天胡", 21) if context.tian else ("地胡", 20)
            if self._melds:
                raise InvalidHandError(
                    f"{name} is won with the dealt hand, before any meld: no melds allowed",
                    zh=f"{name}是拿起手的牌胡的，那时还没有亮出任何房：不能有亮出的房",
                )
            if self._total != size:
                raise InvalidHandError(
                    f"{name} is won with the {size} dealt cards of the "
                    f"{'dealer' if context.tian else 'non-dealer'}, not {self._total}",
                    zh=f"{name}胡的是{'庄家' if context.tian else '闲家'}起手的 {size} 张，不是 {self._total} 张",
                )

    def _check_win(self, win: Card | None, context: WinContext) -> int | None:
        if context.source is _TIAN:
            if win is not None:
                raise InvalidHandError(
                    "天胡 has no winning card: the dealer's 21 dealt cards win as they are",
                    zh="天胡没有胡的那张牌：庄家起手的 21 张直接胡",
                )
            return None
        if win is None:
            raise InvalidHandError("a winning card is needed (only 天胡 has none)", zh="要给胡的那张牌（只有天胡没有）")
        if not isinstance(win, Card):
            raise type_error("erqishi.core.cards.Card or None", win)  # as the compiled build words it
        total = self._used[win]
        if total >= COPIES:
            raise InvalidHandError(
                f"winning card {win} ({win.ascii}) would be a fifth copy: {total} already in hand and melds",
                zh=f"胡的 {win} 会是第五张：手牌和亮出的房里已有 {total} 张",
            )
        return int(win)


def analyze_hand(
    hand: Iterable[Card] | str,
    melds: Iterable[Group | str] = (),
    win: Card | str | None = None,
    context: WinContext = _NO_CONTEXT,
    rules: RuleSet | str | Mapping[str, Any] = LESHAN,
) -> HandResult:
    """Analyse one hand: legal win or not, best grouping, hu, 番 and score (R-3, R-4.4,
    R-6.1, R-7).

    Args:
        hand: the concealed hand before the winning card (cards or a card string).
        melds: exposed melds (groups or strings: 3 identical = 对, 4 = 开, a 对 plus its
            fourth card ``三三三+三`` = 开 under yu, else 吃).
        win: the winning card (card or string), None for 天胡.
        context: source, 天胡/地胡, 圈 number.
        rules: the rule set, or what :meth:`RuleSet.load` takes: a preset name, JSON
            options as text or a mapping of options (R-10).

    Returns:
        The :class:`HandResult`: hu in hu points, base and score in score units.

    Raises:
        InvalidNotationError: a bad card token.
        InvalidHandError: an empty hand, a meld that is no group, a fifth copy, a
            winning card with 天胡 or none without.
        InvalidRulesError: a bad rule set.
        TypeError: ``rules`` is none of these (in both builds).

    >>> r = analyze_hand("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"], "四")
    >>> r.is_win, r.hu, r.tier.name, r.score, [g.name for g in r.groups][:2]
    (True, 10, '小和', 10, ['对', '顺子'])
    """
    if not isinstance(rules, RuleSet | str | Mapping):
        raise TypeError(f"rules must be a RuleSet, a preset name or options, got {type(rules).__name__} {rules!r}")
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    if not cards:
        raise InvalidHandError("the hand is empty", zh="手牌是空的")
    win_card = Card.parse(win) if isinstance(win, str) else win
    return HandAnalyzer(cards, melds, RuleSet.load(rules)).evaluate(win_card, context)
