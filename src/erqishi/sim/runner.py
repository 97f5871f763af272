"""Run bot-vs-bot hands, in this process, on a local process pool or on another backend.

Every hand ``i`` takes its seeds from ``(seed, i)`` alone, so a run's results do not
depend on the worker count or on scheduling: ``run_sim(..., workers=4)`` gives the same
summary as ``workers=1``. Parallel runs cut the hands into chunks (:func:`chunk_bounds`)
and play them on a :class:`ChunkBackend`: :class:`LocalPool` (the default) or a Ray
cluster (:class:`erqishi.sim.ray_backend.RayBackend`, the ``ray`` extra).

Seats rotate: in hand ``i``, seat ``s`` is played by ``bots[(s + i) % n]``. The dealer is
seat ``(i // n) % n``, so over every ``n²`` hands each entry plays each seat relative to
the dealer equally often.
"""

from __future__ import annotations

import math
import multiprocessing
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Literal, Protocol, TypeVar

from erqishi.bots import make_bot, start_bot
from erqishi.core import RuleSet
from erqishi.core.engine import Deal, Outcome
from erqishi.play import play_hand, table_chooser
from erqishi.sim.stats import SimHand, SimResult
from erqishi.storage.lifetime import pool_worker_signals

__all__ = [
    "ChunkBackend",
    "LocalPool",
    "chunk_bounds",
    "hand_rngs",
    "play_sim_hand",
    "run_sim",
    "seat_entries",
    "validate_bots",
]

#: Hands per task sent to a worker process, at most.
MAX_CHUNK = 50

R = TypeVar("R")


def chunk_bounds(total: int, workers: int) -> list[tuple[int, int]]:
    """The ``(start, stop)`` ranges that ``total`` hands (or deals) are cut into for
    ``workers`` parallel workers: about four per worker, at most :data:`MAX_CHUNK` each.
    Every hand is seeded on its own, so the cut changes no result.

    >>> chunk_bounds(10, 2)
    [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    """
    size = max(1, min(MAX_CHUNK, math.ceil(total / (max(1, workers) * 4))))
    return [(start, min(start + size, total)) for start in range(0, total, size)]


class ChunkBackend(Protocol):
    """Where the chunks of a run are played: :class:`LocalPool` or
    :class:`erqishi.sim.ray_backend.RayBackend`."""

    @property
    def name(self) -> str:
        """A short name: ``"local"``, ``"ray"``."""
        ...

    @property
    def workers(self) -> int:
        """How many chunks it plays at once (for :func:`chunk_bounds`)."""
        ...

    def map_chunks(self, fn: Callable[..., R], calls: Sequence[tuple[object, ...]]) -> Iterator[tuple[int, R]]:
        """Call ``fn(*call)`` for every call (``fn`` a module-level function, the calls
        picklable) and yield ``(index of the call, its result)`` as each one finishes."""
        ...


class LocalPool:
    """The local process pool: ``workers`` processes of this machine (never more than there
    are chunks). The workers leave Ctrl-C to this process: when the run stops early (Ctrl-C,
    SIGTERM, an error), they are ended at once, chunks in play included, whose hands would
    not be kept anyway; on Linux a worker also ends when this process dies."""

    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def map_chunks(self, fn: Callable[..., R], calls: Sequence[tuple[object, ...]]) -> Iterator[tuple[int, R]]:
        """See :meth:`ChunkBackend.map_chunks`."""
        if not calls:
            return
        pool = multiprocessing.Pool(min(self.workers, len(calls)), initializer=pool_worker_signals)
        finished = False
        try:
            yield from pool.imap_unordered(_indexed, [(k, fn, call) for k, call in enumerate(calls)])
            finished = True
        finally:
            if finished:
                pool.close()
            else:  # stopped early: what the workers play now would be thrown away
                pool.terminate()
            pool.join()


def _indexed(job: tuple[int, Callable[..., R], tuple[object, ...]]) -> tuple[int, R]:
    """Run one chunk in a worker: ``(its index, fn(*call))``."""
    k, fn, call = job
    return k, fn(*call)


def validate_bots(bots: Sequence[str], rules: RuleSet) -> tuple[str, ...]:
    """Check the bot list: one known bot name per seat (``len(bots) == rules.players``).

    Raises:
        ValueError: a wrong number of bots, or an unknown name (the message lists the
            known bots).
        BotLoadError: a known bot that cannot start (its weights, say).
    """
    names = tuple(bots)
    if len(names) != rules.players:
        raise ValueError(
            f"need {rules.players} bots (one per seat for {rules.players} players), got {len(names)}: "
            f"{', '.join(names) or 'none'}"
        )
    for name in names:
        start_bot(name)  # an unknown name lists the bots; one that cannot start says why
    return names


def seat_entries(index: int, players: int) -> tuple[int, ...]:
    """Per seat, the index into the bot list of the entry playing hand ``index``.

    >>> seat_entries(0, 3), seat_entries(1, 3)
    ((0, 1, 2), (1, 2, 0))
    """
    return tuple((s + index) % players for s in range(players))


def hand_rngs(seed: int, index: int, players: int) -> tuple[random.Random, list[random.Random]]:
    """The generators of hand ``index`` of a run seeded ``seed``: one for the deal and one
    per seat for its bot, all derived from ``(seed, index)`` only."""
    base = random.Random(f"erqishi-sim:{seed}:{index}")
    deal_rng = random.Random(base.getrandbits(64))
    bot_rngs = [random.Random(base.getrandbits(64)) for _ in range(players)]
    return deal_rng, bot_rngs


def play_sim_hand(
    seed: int, index: int, bots: Sequence[str], rules: RuleSet, *, record: bool = True
) -> tuple[SimHand, dict[str, object]]:
    """Play hand ``index`` of a run: the compact result and the hand's record (FORMATS.md);
    with ``record=False`` the record is not built (an empty dict: nothing keeps it)."""
    n = rules.players
    entries = seat_entries(index, n)
    seats = tuple(bots[e] for e in entries)
    deal_rng, bot_rngs = hand_rngs(seed, index, n)
    dealer = (index // n) % n
    deal = Deal.shuffled(deal_rng, dealer, rules)
    played = play_hand(deal, table_chooser([make_bot(name) for name in seats], bot_rngs), rules, seats=seats)
    return sim_hand(index, entries, seats, deal, played.outcome), played.to_json() if record else {}


def sim_hand(index: int, entries: tuple[int, ...], seats: tuple[str, ...], deal: Deal, outcome: Outcome) -> SimHand:
    """The :class:`SimHand` of one played hand: who sat where, its outcome, hu and 番 (R-7)."""
    kind: Literal["win", "dead"] = "win" if outcome.is_win else "dead"
    analysis = outcome.analysis
    return SimHand(
        index=index,
        entries=entries,
        seats=seats,
        active=tuple(bool(cards) for cards in deal.hands),
        kind=kind,
        winner=outcome.winner if kind == "win" else None,
        payments=tuple(outcome.payments),
        hu=analysis.hu if kind == "win" and analysis is not None else None,
        fans=tuple(analysis.fan_names) if kind == "win" and analysis is not None else (),
    )


def _play_chunk(
    seed: int, start: int, stop: int, bots: tuple[str, ...], rules: RuleSet, record: bool = True
) -> list[tuple[SimHand, dict[str, object]]]:
    return [play_sim_hand(seed, i, bots, rules, record=record) for i in range(start, stop)]


def run_sim(
    hands: int,
    seed: int,
    bots: list[str],
    rules: RuleSet,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    keep_records: bool = True,
    backend: ChunkBackend | None = None,
    on_hands: Callable[[list[tuple[int, SimHand, dict[str, object]]]], None] | None = None,
) -> SimResult:
    """Play ``hands`` hands between ``bots`` (one name per seat; names may repeat).

    Args:
        hands: number of hands (≥ 0).
        seed: the run's seed; hand ``i`` is seeded from ``(seed, i)``.
        bots: bot names, ``len(bots) == rules.players``; seat ``s`` of hand ``i`` is
            played by ``bots[(s + i) % n]``.
        rules: the rule set.
        workers: processes; 1 plays here, more use a local process pool. The result is
            identical for any worker count.
        progress: called with the number of hands just completed (an increment, e.g.
            ``lambda k: bar.update(task, advance=k)``), as hands complete.
        keep_records: keep every hand's record in ``SimResult.records`` (for the store).
        backend: where to play the chunks (``workers`` is then unused); by default this
            process (``workers == 1``) or a :class:`LocalPool` of ``workers``. The result is
            the same on every backend.
        on_hands: called with ``(index, hand, record)`` of the hands just finished, as they
            finish (a hand or a chunk at a time, not in index order): :class:`RunWriter`
            stores them so.

    Raises:
        ValueError: wrong bot count, unknown bot, negative ``hands`` or ``workers < 1``.
    """
    names = validate_bots(bots, rules)
    if hands < 0:
        raise ValueError(f"hands must be ≥ 0, got {hands}")
    if workers < 1:
        raise ValueError(f"workers must be ≥ 1, got {workers}")
    results: list[tuple[SimHand, dict[str, object]] | None] = [None] * hands
    record = keep_records or on_hands is not None  # nobody reads the records otherwise
    if backend is None and (workers == 1 or hands <= 1):
        for i in range(hands):
            one = results[i] = play_sim_hand(seed, i, names, rules, record=record)
            if on_hands is not None:
                on_hands([(i, *one)])
            if progress is not None:
                progress(1)
    else:
        pool = backend if backend is not None else LocalPool(workers)
        bounds = chunk_bounds(hands, pool.workers)
        calls = [(seed, start, stop, names, rules, record) for start, stop in bounds]
        for k, chunk in pool.map_chunks(_play_chunk, calls):
            start = bounds[k][0]
            for offset, item in enumerate(chunk):
                results[start + offset] = item
            if on_hands is not None:
                on_hands([(start + offset, *item) for offset, item in enumerate(chunk)])
            if progress is not None:
                progress(len(chunk))
    done = [r for r in results if r is not None]
    assert len(done) == hands
    return SimResult(
        seed=seed,
        bots=names,
        rules=rules,
        hands=tuple(h for h, _ in done),
        records=tuple(rec for _, rec in done) if keep_records else (),
    )
