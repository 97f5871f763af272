"""争霸赛 seating (erqishi.tournament.seating): tables of three by a Swiss-style seating that
never seats two players together twice while a seating without a repeat exists, balances
the seats (seat 0 deals first, R-2.2) and fills short tables with bots.

Whether a repeat-free seating exists is decided here independently of the code under test:
by brute force for small fields, and for larger ones by the Hajnal–Szemerédi theorem (see
:func:`guaranteed_rounds`).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from erqishi.tournament.seating import Seating, SeatingHistory, Tables, seat_round, table_sizes

# -- independent helpers ----------------------------------------------------------------


def pairs_met(rounds: Sequence[Tables]) -> Counter[frozenset[int]]:
    """How often each pair of players shared a table."""
    met: Counter[frozenset[int]] = Counter()
    for tables in rounds:
        for table in tables:
            people = [p for p in table if p is not None]
            for a, b in itertools.combinations(people, 2):
                met[frozenset((a, b))] += 1
    return met


def repeats_in(tables: Tables, earlier: Sequence[Tables]) -> int:
    """Pairs seated together in ``tables`` that met in ``earlier`` rounds."""
    met = pairs_met(earlier)
    return sum(
        1
        for table in tables
        for a, b in itertools.combinations([p for p in table if p is not None], 2)
        if met[frozenset((a, b))]
    )


def repeat_free_exists(players: Sequence[int], sizes: Sequence[int], met: Counter[frozenset[int]]) -> bool:
    """Brute force: can ``players`` be split into groups of ``sizes`` with no pair that met?

    Plain recursion over the first player left and every group it could head; no pruning
    beyond refusing a pair that met, no memory."""
    if not players:
        return True
    first, rest = players[0], list(players[1:])
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            group = (first, *mates)
            if any(met[frozenset(p)] for p in itertools.combinations(group, 2)):
                continue
            if repeat_free_exists([p for p in rest if p not in mates], left, met):
                return True
    return False


def guaranteed_rounds(players: int, size: int = 3) -> int:
    """Rounds in which a repeat-free seating surely exists, whatever was seated before.

    After r − 1 rounds a player has met at most (s − 1)(r − 1) others, s the largest table;
    the "met" graph has maximum degree Δ ≤ (s − 1)(r − 1). By the Hajnal–Szemerédi theorem a
    graph of maximum degree Δ has an equitable colouring with any k ≥ Δ + 1 colours: classes
    of sizes floor(n/k) and ceil(n/k), each an independent set, i.e. with k = T tables a
    seating of exactly the shape of :func:`table_sizes` in which nobody meets anyone again.
    So round r surely has one while T ≥ (s − 1)(r − 1) + 1.
    """
    sizes = table_sizes(players, size)
    tables, largest = len(sizes), max(sizes)
    if largest == 1:
        return 10**6
    return (tables - 1) // (largest - 1) + 1


def check_shape(seating: Seating, players: Sequence[int], size: int = 3) -> None:
    """Every player once, every table ``size`` seats, bots (None) only where players are
    short, and the tables hold the numbers of :func:`table_sizes` (hand-checked there)."""
    seated = [p for t in seating.tables for p in t if p is not None]
    assert sorted(seated) == sorted(players)
    assert all(len(t) == size for t in seating.tables)
    counts = sorted((sum(p is not None for p in t) for t in seating.tables), reverse=True)
    assert tuple(counts) == table_sizes(len(players), size)
    bots = sum(p is None for t in seating.tables for p in t)
    assert bots == len(seating.tables) * size - len(players)


def seat_spreads(rounds: Sequence[Tables], size: int = 3) -> dict[int, int]:
    """Per player: its most frequent seat's count minus its least frequent's."""
    counts: dict[int, list[int]] = {}
    for tables in rounds:
        for table in tables:
            for pos, p in enumerate(table):
                if p is not None:
                    counts.setdefault(p, [0] * size)[pos] += 1
    return {p: max(c) - min(c) for p, c in counts.items()}


def play_rounds(n: int, rounds: int, seed: int, size: int = 3) -> list[tuple[Seating, list[Tables]]]:
    """Seat ``rounds`` rounds of ``n`` players, each round in a fresh random standings order
    (as results would shuffle them); each seating with the rounds before it."""
    rng = random.Random(seed)
    history: list[Tables] = []
    out = []
    for _ in range(rounds):
        order = list(range(100, 100 + n))  # ids need not be 0..n-1
        rng.shuffle(order)
        seating = seat_round(order, history, rng, size=size)
        out.append((seating, list(history)))
        history.append(seating.tables)
    return out


# -- hand-checked cases -----------------------------------------------------------------


def test_table_sizes_spread_players_evenly() -> None:
    # ceil(n/3) tables, sizes differing by at most one: 4 players sit 2 + 2, not 3 + 1
    assert table_sizes(3) == (3,)
    assert table_sizes(4) == (2, 2)
    assert table_sizes(5) == (3, 2)
    assert table_sizes(10) == (3, 3, 2, 2)
    assert table_sizes(60) == (3,) * 20
    assert table_sizes(5, 2) == (2, 2, 1)
    assert table_sizes(6, 4) == (3, 3)
    with pytest.raises(ValueError, match="at least 2 players"):
        table_sizes(1)


def test_swiss_round_two_seats_neighbours_in_the_standings() -> None:
    # round 1: 0 1 2 | 4 3 5 | 8 7 6 (so 0, 3, 6 sat at seats 0, 1, 2: no seat clash)
    history = [((0, 1, 2), (4, 3, 5), (8, 7, 6))]
    order = [0, 3, 6, 1, 4, 7, 2, 5, 8]  # each consecutive triple has never met
    seating = seat_round(order, history, random.Random(5))
    assert seating.method == "swiss" and seating.repeats == 0
    assert [set(t) for t in seating.tables] == [{0, 3, 6}, {1, 4, 7}, {2, 5, 8}]
    # and every player takes a seat it did not have in round 1
    before = {p: pos for t in history[0] for pos, p in enumerate(t)}
    assert all(before[p] != pos for t in seating.tables for pos, p in enumerate(t))


def test_nine_players_have_exactly_four_rounds_without_a_repeat() -> None:
    # 9 players, 36 pairs, 9 new pairs a round: at most 4 rounds. Rounds 1 and 2 without a
    # repeat form a 3×3 grid; the third and fourth must be its two diagonal directions
    # (the affine plane of order 3), which always exist: four rounds, then a repeat.
    for seed in range(3):
        played = play_rounds(9, 5, seed)
        assert [s.repeats for s, _ in played[:4]] == [0, 0, 0, 0]
        fifth, earlier = played[4]
        assert fifth.repeats == repeats_in(fifth.tables, earlier) > 0
        assert fifth.method == "proven"
        assert len(pairs_met([s.tables for s, _ in played[:4]])) == 36


def test_six_players_repeat_as_little_as_possible() -> None:
    # after 0 1 2 | 3 4 5 every table of three takes two players from one old table: at
    # least one repeated pair per table, two in all, and two is reached
    seating = seat_round([0, 1, 2, 3, 4, 5], [((0, 1, 2), (3, 4, 5))], random.Random(1))
    assert seating.method == "proven"
    assert seating.repeats == repeats_in(seating.tables, [((0, 1, 2), (3, 4, 5))]) == 2


def test_bots_fill_short_tables_and_the_seats_beside_them_rotate() -> None:
    # 8 players: tables of 3, 3, 2 (one bot); over four rounds (repeat-free, 8 players meet
    # 7 others) four different players get the bot's table, two a round
    played = play_rounds(8, 4, seed=2)
    beside: list[int] = []
    for seating, _ in played:
        check_shape(seating, list(range(100, 108)))
        [short] = [t for t in seating.tables if None in t]
        assert sum(p is None for p in short) == 1
        beside += [p for p in short if p is not None]
    assert max(Counter(beside).values()) == 1  # nobody sits beside a bot twice


def test_the_same_seed_gives_the_same_seating() -> None:
    history = [((0, 1, 2), (3, 4, 5), (6, 7, None))]
    a = seat_round(list(range(8)), history, random.Random(9))
    b = seat_round(list(range(8)), history, random.Random(9))
    assert a == b
    assert SeatingHistory.of(history).byes == {6: 1, 7: 1}


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="repeats a player"):
        seat_round([1, 2, 2])
    with pytest.raises(ValueError, match="at least 2 players"):
        seat_round([1])


def test_other_table_sizes() -> None:
    # 对抠 (two players) and four players: the same guarantees with tables of 2 and 4, in
    # rounds that surely have a repeat-free seating (guaranteed_rounds: 5, 3 and 1; with 16
    # players at 4 tables of 4, round 3 is a Latin square over the grid of rounds 1 and 2)
    for size, n, rounds in [(2, 10, 5), (4, 16, 3), (4, 5, 1)]:
        history: list[Tables] = []
        for r in range(rounds):
            order = list(range(n))
            random.Random(r).shuffle(order)
            seating = seat_round(order, history, random.Random(r), size=size)
            check_shape(seating, order, size)
            assert seating.repeats == repeats_in(seating.tables, history) == 0, (size, n, r)
            history.append(seating.tables)


# -- the property -----------------------------------------------------------------------

#: fields up to this size are checked by brute force, over more rounds than a repeat-free
#: schedule can last
BRUTE_FORCE = 12


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 60), seed=st.integers(0, 2**32 - 1))
def test_no_repeat_while_a_repeat_free_seating_exists(n: int, seed: int) -> None:
    rounds = 6 if n <= BRUTE_FORCE else min(4, guaranteed_rounds(n))
    played = play_rounds(n, rounds, seed)
    for r, (seating, earlier) in enumerate(played, start=1):
        players = list(range(100, 100 + n))
        check_shape(seating, players)
        repeats = repeats_in(seating.tables, earlier)
        assert seating.repeats == repeats
        if repeats:
            # a repeat only when no seating of this shape avoids one
            assert n <= BRUTE_FORCE, f"{n} players, round {r}: a repeat the theorem rules out"
            assert not repeat_free_exists(players, table_sizes(n), pairs_met(earlier)), (n, r)
        elif n <= BRUTE_FORCE:
            assert repeat_free_exists(players, table_sizes(n), pairs_met(earlier))
    # seats balance: nobody's most frequent seat more than two ahead of its least frequent
    spreads = seat_spreads([s.tables for s, _ in played])
    assert max(spreads.values()) <= 2, spreads
    # bots rotate: the rounds beside a bot differ by at most one between players while
    # every round was seated by the first pass (method "swiss", which promises it)
    if all(s.method == "swiss" for s, _ in played):
        beside = Counter(p for s, _ in played for t in s.tables if None in t for p in t if p is not None)
        counts = [beside.get(p, 0) for p in range(100, 100 + n)]
        assert max(counts) - min(counts) <= 1, counts
