"""争霸赛 seating: a Swiss-style seating of a tournament round at tables of three (the rule
set's player count generally, R-2.1, R-10 ``players``), pure and deterministic.

**The shape of a round.** ``n`` players sit at ``T = ceil(n / size)`` tables, spread as
evenly as possible (:func:`table_sizes`: every table holds ``floor(n / T)`` or
``ceil(n / T)`` players); each table is topped up to ``size`` seats with bots (fillers,
``None`` in a seating), so with tables of three a table has at most one bot whenever
``n ≥ 4``.

**What the seating minimises**, in this order:

1. *Repeated co-players* (hard): two players who have sat at one table before are not
   seated together again while a seating of this shape without any repeat exists. That
   seating is found by an exact search (below); when the search proves that none exists
   (or, on a large field, gives up after its node budget) the seating with the fewest
   repeated meetings that a local search finds is used, and :attr:`Seating.method` says so.
2. *Bot tables rotate*: the seats at short tables go to the players who have sat beside
   bots least often (so those counts never differ by more than one while the seating
   method is ``swiss``).
3. *Seat positions balance*: seat ``p`` of a table is the ``p``-th dealer of the match
   (seat 0 deals first, R-2.2), and each player's counts of sitting at each seat are kept
   as even as possible (no player's most frequent seat more than two ahead of the least
   frequent while it can be avoided, then as close as possible).
4. *Swiss grouping*: players of similar standing sit together (the order given, best
   first: the search seats the best unseated player with the next best it may sit with).

**The exact search** is a depth-first search over the tables: it takes an anchor (the best
unseated player; in a second, complete pass the unseated player with the fewest possible
table-mates), tries each table size left and each set of table-mates among the players
the anchor has not met who have not met each other, and after each table checks that every
unseated player still has enough possible table-mates (forward checking). Failed positions
(the set of unseated players and the table sizes left) are remembered, so no sub-problem is
searched twice. The first pass also keeps the short tables for the players who sat beside
bots least often (2.); the second drops that. It is sound (it returns only repeat-free
seatings) and the second pass is complete within its node budget: when it ends without a
seating before the budget runs out, no repeat-free seating of this shape exists. Small
fields are searched to the end well within the budget; on large fields a repeat-free
seating is found at once while one surely exists (the Hajnal–Szemerédi theorem: a graph
of maximum degree Δ has an equitable colouring with any ``T ≥ Δ + 1`` colours, and with
``T`` tables the colour classes are the tables; after ``r − 1`` rounds nobody has met more
than ``Δ = (size − 1)(r − 1)`` others). A local search (swapping two players of different
tables while it lowers the cost of 1–4) then polishes the seating; it never adds a
repeat (a repeat costs more than anything else can save).

Everything random (the order of equal choices) comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "DEFAULT_BUDGET",
    "Seating",
    "SeatingHistory",
    "Tables",
    "seat_round",
    "table_sizes",
]

#: A round's tables: per table, per seat (from the first dealer), a player or None (a bot).
Tables = tuple[tuple[int | None, ...], ...]

#: Search nodes (tables tried) of the exact search before it gives up.
DEFAULT_BUDGET = 60_000

#: How a seating was found: ``swiss`` the first repeat-free seating in standings order with
#: the short tables rotating, ``search`` a repeat-free seating found by the complete pass, ``proven`` no repeat-free
#: seating exists (the search ended) so the fewest repeats a local search finds,
#: ``budget`` the search gave up (a very large field late in a tournament) and a local
#: search minimised the repeats.
Method = Literal["swiss", "search", "proven", "budget"]

# the tiers of the cost (see the module text): a repeat outweighs everything else
_REPEAT = 1_000_000_000
_BYE = 5_000
_SEAT_FAR = 1_000
_SEAT_NEAR = 10


def table_sizes(players: int, size: int = 3) -> tuple[int, ...]:
    """How many players sit at each table of a round: ``ceil(players / size)`` tables,
    the players spread as evenly as possible, larger tables first.

    Raises:
        ValueError: fewer than 2 players, or a table size below 2.

    >>> table_sizes(9), table_sizes(8), table_sizes(4), table_sizes(7)
    ((3, 3, 3), (3, 3, 2), (2, 2), (3, 2, 2))
    """
    if size < 2:
        raise ValueError(f"tables seat at least 2, got {size}")
    if players < 2:
        raise ValueError(f"a round needs at least 2 players, got {players}")
    tables = -(-players // size)
    q, r = divmod(players, tables)
    return (q + 1,) * r + (q,) * (tables - r)


@dataclass(frozen=True, slots=True)
class SeatingHistory:
    """What earlier rounds tell the seating, per player: whom they met (and how often),
    how often they sat at each seat, and how often beside bots.

    Attributes:
        size: seats per table.
        met: per pair of players (smaller first), the rounds they shared a table.
        seats: per player, its count of rounds at seat 0, 1, … (``size`` counts).
        byes: per player, the rounds it sat at a table with bots.
    """

    size: int
    met: dict[tuple[int, int], int]
    seats: dict[int, tuple[int, ...]]
    byes: dict[int, int]

    @classmethod
    def of(cls, rounds: Sequence[Tables], size: int = 3) -> SeatingHistory:
        """The history of the rounds played (each its tables, seats in order).

        >>> h = SeatingHistory.of([((0, 1, 2), (3, 4, None))])
        >>> h.met[(0, 1)], h.seats[4], h.byes.get(4), h.byes.get(0, 0)
        (1, (0, 1, 0), 1, 0)
        """
        met: Counter[tuple[int, int]] = Counter()
        seats: dict[int, list[int]] = {}
        byes: Counter[int] = Counter()
        for tables in rounds:
            for table in tables:
                people = [p for p in table if p is not None]
                for a, b in itertools.combinations(sorted(people), 2):
                    met[(a, b)] += 1
                for pos, p in enumerate(table):
                    if p is None:
                        continue
                    counts = seats.setdefault(p, [0] * size)
                    if pos < size:
                        counts[pos] += 1
                    if len(people) < len(table):
                        byes[p] += 1
        return cls(size, dict(met), {p: tuple(c) for p, c in seats.items()}, dict(byes))

    def times_met(self, a: int, b: int) -> int:
        """Rounds ``a`` and ``b`` shared a table."""
        return self.met.get((a, b) if a < b else (b, a), 0)

    def seat_counts(self, player: int) -> tuple[int, ...]:
        """The player's rounds at each seat."""
        return self.seats.get(player, (0,) * self.size)


@dataclass(frozen=True, slots=True)
class Seating:
    """A round's seating.

    Attributes:
        tables: per table (the best-placed table first), per seat, a player or None for
            a bot filler.
        repeats: pairs seated together that had met before (0 when a repeat-free seating
            exists).
        method: how it was found (:data:`Method`).
    """

    tables: Tables
    repeats: int
    method: Method


class _Budget(Exception):
    """The exact search ran out of nodes."""


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _seat_penalty(counts: tuple[int, ...], pos: int) -> int:
    """The seat-balance cost of one more round at seat ``pos`` for counts ``counts``: a
    spread (most minus least frequent seat) above 2 costs much, above 1 a little."""
    after = list(counts)
    after[pos] += 1
    spread = max(after) - min(after)
    return _SEAT_FAR * max(0, spread - 2) + _SEAT_NEAR * max(0, spread - 1) + spread * spread


class _Problem:
    """One round to seat: players by rank (index 0 the best) and their history."""

    def __init__(self, order: Sequence[int], history: SeatingHistory, sizes: tuple[int, ...], rng: random.Random):
        self.order = tuple(order)
        self.n = len(self.order)
        self.size = history.size
        self.sizes = sizes
        self.rng = rng
        self.history = history
        n = self.n
        self.met = [[history.times_met(self.order[i], self.order[j]) for j in range(n)] for i in range(n)]
        self.compat = [sum(1 << j for j in range(n) if j != i and self.met[i][j] == 0) for i in range(n)]
        self.seats = [history.seat_counts(p) for p in self.order]
        self.byes = [history.byes.get(p, 0) for p in self.order]
        self.perms = {k: list(itertools.permutations(range(self.size), k)) for k in set(sizes)}
        # the fair short tables: their seats go to the players who sat beside bots least
        # often (all of those below the threshold, any of those at it)
        short_seats = sum(s for s in sizes if s < self.size)
        self.short_ok, self.must_short = (1 << n) - 1, 0
        if 0 < short_seats < n:
            threshold = sorted(self.byes)[short_seats - 1]
            self.short_ok = sum(1 << i for i in range(n) if self.byes[i] <= threshold)
            self.must_short = sum(1 << i for i in range(n) if self.byes[i] < threshold)
        #: per player, per seat: the seat-balance cost of sitting there this round
        self.pen = [[_seat_penalty(counts, pos) for pos in range(self.size)] for counts in self.seats]
        self._cost: dict[tuple[int, ...], int] = {}

    # -- the exact search -------------------------------------------------------------

    def exact(self, constrained: bool, budget: int, fair: bool = False) -> list[tuple[int, ...]] | None:
        """A repeat-free grouping (rank indices), None when none exists; with ``fair``, one
        whose short tables hold the players who sat beside bots least often.

        Raises:
            _Budget: more than ``budget`` nodes were needed.
        """
        compat = self.compat
        size = self.size
        short_ok, must_short = (self.short_ok, self.must_short) if fair else ((1 << self.n) - 1, 0)
        failed: set[tuple[int, tuple[int, ...]]] = set()
        nodes = 0
        groups: list[tuple[int, ...]] = []

        def mates(cands: int, need: int) -> Iterator[int]:
            if need == 0:
                yield 0
                return
            rest = cands
            while rest:
                low = rest & -rest
                rest ^= low
                i = low.bit_length() - 1
                for more in mates(rest & compat[i], need - 1):
                    yield low | more

        def anchor_of(unseated: int) -> int:
            if not constrained:
                return (unseated & -unseated).bit_length() - 1
            return min(_bits(unseated), key=lambda i: ((compat[i] & unseated).bit_count(), i))

        def ok(unseated: int, need: int) -> bool:
            return all((compat[i] & unseated).bit_count() >= need for i in _bits(unseated))

        def search(unseated: int, left: tuple[int, ...]) -> bool:
            nonlocal nodes
            if not unseated:
                return True
            key = (unseated, left)
            if key in failed:
                return False
            a = anchor_of(unseated)
            cands = compat[a] & unseated
            for k, s in enumerate(left):
                if s == 0 or (k > 0 and left[k - 1] == s):
                    continue  # one try per distinct size
                short = s < size
                if (short and not short_ok >> a & 1) or (not short and must_short >> a & 1):
                    continue
                rest_sizes = tuple(sorted((*left[:k], *left[k + 1 :]), reverse=True))
                need = (rest_sizes[-1] - 1) if rest_sizes else 0
                seats_left = sum(r for r in rest_sizes if r < size)
                for mask in mates(cands & short_ok if short else cands & ~must_short, s - 1):
                    nodes += 1
                    if nodes > budget:
                        raise _Budget
                    after = unseated & ~mask & ~(1 << a)
                    if (after & must_short).bit_count() > seats_left or (after & short_ok).bit_count() < seats_left:
                        continue
                    if not ok(after, need):
                        continue
                    groups.append((a, *_bits(mask)))
                    if search(after, rest_sizes):
                        return True
                    groups.pop()
            failed.add(key)
            return False

        if search((1 << self.n) - 1, self.sizes):
            return list(groups)
        return None

    # -- costs and seats --------------------------------------------------------------

    def seat_cost(self, members: Sequence[int], perm: Sequence[int]) -> int:
        """The seat-balance cost of seating ``members[i]`` at seat ``perm[i]``."""
        pen = self.pen
        return sum(pen[m][pos] for m, pos in zip(members, perm, strict=True))

    def cost(self, members: tuple[int, ...]) -> int:
        """The cost of one table (sorted rank indices): repeats, bots, seats, Swiss."""
        found = self._cost.get(members)
        if found is not None:
            return found
        bots = self.size - len(members)
        cost = 0
        for a, b in itertools.combinations(members, 2):
            cost += _REPEAT * self.met[a][b] + (b - a)
        if bots:
            cost += _BYE * bots * sum(self.byes[m] for m in members)
        cost += min(self.seat_cost(members, perm) for perm in self.perms[len(members)])
        self._cost[members] = cost
        return cost

    def polish(self, groups: list[tuple[int, ...]], passes: int = 30) -> list[tuple[int, ...]]:
        """Swap players of two tables while it lowers the cost (first improvement)."""
        tables = [tuple(sorted(g)) for g in groups]
        where = {m: t for t, g in enumerate(tables) for m in g}
        for _ in range(passes):
            improved = False
            for i in range(self.n):
                for j in range(i + 1, self.n):
                    ti, tj = where[i], where[j]
                    if ti == tj:
                        continue
                    gi, gj = tables[ti], tables[tj]
                    ni = tuple(sorted(j if m == i else m for m in gi))
                    nj = tuple(sorted(i if m == j else m for m in gj))
                    if self.cost(ni) + self.cost(nj) < self.cost(gi) + self.cost(gj):
                        tables[ti], tables[tj] = ni, nj
                        where[i], where[j] = tj, ti
                        improved = True
            if not improved:
                break
        return tables

    def greedy(self) -> list[tuple[int, ...]]:
        """A seating built table by table: the best unseated player with the table-mates
        that cost least (for when no repeat-free seating is known)."""
        unseated = list(range(self.n))
        groups: list[tuple[int, ...]] = []
        for s in self.sizes:
            a = unseated.pop(0)
            group = [a]
            while len(group) < s:
                best = min(unseated, key=lambda c: (sum(self.met[c][g] for g in group), c))
                group.append(best)
                unseated.remove(best)
            groups.append(tuple(group))
        return groups

    def seat(self, members: tuple[int, ...]) -> tuple[int | None, ...]:
        """The table's seats: members placed to balance their seats (equal choices by the
        generator), bots in the seats left."""
        costs = [(self.seat_cost(members, perm), perm) for perm in self.perms[len(members)]]
        best = min(c for c, _ in costs)
        perm = self.rng.choice([p for c, p in costs if c == best])
        seats: list[int | None] = [None] * self.size
        for m, pos in zip(members, perm, strict=True):
            seats[pos] = self.order[m]
        return tuple(seats)

    def repeats(self, groups: Sequence[tuple[int, ...]]) -> int:
        return sum(1 for g in groups for a, b in itertools.combinations(g, 2) if self.met[a][b])


def seat_round(
    order: Sequence[int],
    history: SeatingHistory | Sequence[Tables] = (),
    rng: random.Random | None = None,
    *,
    size: int = 3,
    budget: int = DEFAULT_BUDGET,
) -> Seating:
    """Seat a round (see the module text for what is minimised and how).

    Args:
        order: the players (distinct ids) by standing, best first; players of equal
            standing should come in a random order (the tournament shuffles them with its
            generator).
        history: the earlier rounds' tables (or their :class:`SeatingHistory`).
        rng: breaks ties between equally good seat assignments; a fixed one by default.
        size: seats per table (the rule set's player count, R-10).
        budget: search nodes before the exact search gives up (each pass).

    Returns:
        The seating; tables in order of their best-placed player.

    Raises:
        ValueError: fewer than 2 players, repeated ids, or history of another table size.

    >>> s = seat_round(list(range(8)), [((0, 1, 2), (3, 4, 5), (6, 7, None))], random.Random(1))
    >>> s.repeats, s.method, sorted(len([p for p in t if p is not None]) for t in s.tables)
    (0, 'swiss', [2, 3, 3])
    >>> [t for t in s.tables if None in t][0].count(6)  # 6 and 7 sat beside a bot: not again
    0
    """
    if len(set(order)) != len(order):
        raise ValueError("each player is seated once: the order repeats a player")
    if isinstance(history, SeatingHistory):
        past = history
        if past.size != size:
            raise ValueError(f"the history is of tables of {past.size}, not {size}")
    else:
        past = SeatingHistory.of(history, size)
    sizes = table_sizes(len(order), size)
    problem = _Problem(order, past, sizes, rng if rng is not None else random.Random(0))
    method: Method
    groups: list[tuple[int, ...]] | None
    groups = None
    try:
        groups = problem.exact(constrained=False, budget=budget, fair=True)
        method = "swiss"
    except _Budget:
        pass
    if groups is None:
        try:
            groups = problem.exact(constrained=True, budget=budget)
            method = "search"
        except _Budget:
            groups, method = None, "budget"
    if groups is None:
        if method != "budget":
            method = "proven"
        groups = problem.greedy()
    groups = problem.polish(groups)
    if method in ("swiss", "search"):
        assert problem.repeats(groups) == 0  # the polish never adds a repeat
    groups.sort(key=min)
    tables = tuple(problem.seat(g) for g in groups)
    return Seating(tables, problem.repeats(groups), method)
