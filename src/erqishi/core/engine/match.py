"""Matches (R-2.2, R-2.4, R-8.3): a run of hands over N 圈 with dealer rotation and
running totals. Pure values; the caller plays each hand."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from erqishi.core._compiled import reduce_fields
from erqishi.core.engine.deal import Deal
from erqishi.core.engine.state import Outcome
from erqishi.core.errors import ErqishiError
from erqishi.core.rules import LESHAN, DealerRule, RuleSet

__all__ = ["Match"]


@dataclass(frozen=True, slots=True)
class Match:
    """A match in progress.

    Attributes:
        rules: the rule set (``players``, ``dealer``, ``match_quan``, ``quan_fan``).
        dealer: the dealer of the next hand.
        quan: the current 圈, 1-based; the match is over past ``rules.match_quan``.
        dealt: the seats that have dealt since this 圈 began.
        hands_played: hands finished so far.
        totals: running totals per seat, in score units (R-8.3).
    """

    rules: RuleSet
    dealer: int
    quan: int = 1
    dealt: frozenset[int] = frozenset()
    hands_played: int = 0
    totals: tuple[int, ...] = ()

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    @classmethod
    def start(cls, rng: random.Random, rules: RuleSet = LESHAN) -> Match:
        """A new match; the first dealer is drawn from ``rng`` (R-2.2).

        >>> m = Match.start(random.Random(0)); m.quan, m.totals
        (1, (0, 0, 0))
        """
        return cls(rules, rng.randrange(rules.players), totals=(0,) * rules.players)

    @property
    def is_over(self) -> bool:
        """All ``match_quan`` 圈 have been played."""
        return self.quan > self.rules.match_quan

    @property
    def leaders(self) -> tuple[int, ...]:
        """The match result: the seats with the highest total (more than one on a tie)."""
        best = max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)

    @property
    def quan_card_number(self) -> int | None:
        """The 圈 number that names the 圈 card for this hand (R-2.4), None when 圈胡 is
        off or past 圈10 (there is no 圈 card beyond 拾)."""
        if not self.rules.quan_fan or self.quan > 10:
            return None
        return self.quan

    def deal(self, rng: random.Random) -> Deal:
        """The next hand's deal, shuffled with ``rng``.

        Raises:
            ErqishiError: the match is over.
        """
        if self.is_over:
            raise ErqishiError("the match is over: all its 圈 have been played (R-2.4)")
        return Deal.shuffled(rng, self.dealer, self.rules)

    def after(self, outcome: Outcome) -> Match:
        """The match after a hand with ``outcome``: totals, next dealer (R-2.2: the old
        dealer's 下家, or with ``dealer: winner`` the winner; a dead hand passes the deal
        on) and the 圈 (complete once every seat has dealt since it began, R-2.4).

        Raises:
            ErqishiError: the match is over, or the payments do not fit the seats.
        """
        n = self.rules.players
        if self.is_over:
            raise ErqishiError("the match is over: all its 圈 have been played (R-2.4)")
        if len(outcome.payments) != n:
            raise ErqishiError(f"expected {n} payments, one per seat, got {len(outcome.payments)}")
        totals = tuple(t + p for t, p in zip(self.totals, outcome.payments, strict=True))
        if self.rules.dealer is DealerRule.WINNER and outcome.winner is not None:
            dealer = outcome.winner
        else:
            dealer = (self.dealer + 1) % n
        dealt = self.dealt | {self.dealer}
        quan = self.quan
        if len(dealt) == n:
            quan, dealt = quan + 1, frozenset()
        return replace(
            self, dealer=dealer, quan=quan, dealt=frozenset(dealt), hands_played=self.hands_played + 1, totals=totals
        )
