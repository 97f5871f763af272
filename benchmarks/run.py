"""erqishi benchmarks: one command, one figure per line as ``name: value``.

    .venv/bin/python benchmarks/run.py            # full run
    .venv/bin/python benchmarks/run.py --quick    # under 30 s
    .venv/bin/python benchmarks/run.py --web      # the web server under load (benchmarks/web_load.py)

Everything runs in this one process (one core). Timings are wall-clock over hands drawn
with a fixed seed; each figure is the best of a few rounds, after a warm-up on other
hands (the analysis memoizes per-size split tables as it meets new patterns).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from erqishi.core import HandAnalyzer
from erqishi.core.engine import Deal, apply, legal_moves, new_hand
from erqishi.core.hands import grouping
from hands import complete_hand, random_deal


def _rate(items: Sequence[object], fn: Callable[[Sequence[object]], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        fn(items)
        best = min(best, time.perf_counter() - start)
    return len(items) / best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer hands and rounds (under 30 s)")
    parser.add_argument("--seed", type=int, default=20261130, help="seed of the hand generator")
    parser.add_argument(
        "--web", action="store_true", help="run benchmarks/web_load.py instead (200 tables; with --quick, 5 tables)"
    )
    args = parser.parse_args(argv)
    if args.web:
        from web_load import main as web_main

        return web_main(["--quick"] if args.quick else [])
    n_score, n_waits, rounds = (20_000, 3_000, 2) if args.quick else (100_000, 20_000, 3)
    rng = random.Random(args.seed)

    print(f"python: {platform.python_version()}")
    warm = [complete_hand(rng) for _ in range(n_score // 2)]
    for hand, melds, win in warm:
        HandAnalyzer(hand, melds).evaluate(win)
        HandAnalyzer(hand, melds).waits()

    complete = [complete_hand(rng) for _ in range(n_score)]

    def score_all(items: Sequence[object]) -> None:
        for hand, melds, win in items:  # type: ignore[misc]
            HandAnalyzer(hand, melds).evaluate(win)

    wins = sum(HandAnalyzer(h, m).evaluate(w).is_win for h, m, w in complete)
    print(f"score_hands_per_s: {_rate(complete, score_all, rounds):.0f}")
    print(f"score_hands_win_fraction: {wins / len(complete):.3f}")

    deals = [random_deal(rng) for _ in range(n_score)]

    def score_deals(items: Sequence[object]) -> None:
        for hand, win in items:  # type: ignore[misc]
            HandAnalyzer(hand).evaluate(win)

    print(f"score_random_deals_per_s: {_rate(deals, score_deals, rounds):.0f}")

    waiting = [(h, m) for h, m, _ in (complete_hand(rng) for _ in range(n_waits))]

    def waits_all(items: Sequence[object]) -> None:
        for hand, melds in items:  # type: ignore[misc]
            HandAnalyzer(hand, melds).waits()

    n_found = sum(len(HandAnalyzer(h, m).waits()) for h, m in waiting)
    print(f"waits_per_s: {_rate(waiting, waits_all, rounds):.0f}")
    print(f"waits_mean_winning_cards: {n_found / len(waiting):.2f}")
    print(f"split_table_entries: {len(grouping._SIZE_TABLE)}")

    # whole three-player hands: legal moves at every decision, a uniform random choice
    n_hands = 1_000 if args.quick else 4_000
    play_rng = random.Random(args.seed)
    deals = [Deal.shuffled(play_rng, i % 3) for i in range(n_hands)]

    def play_all(items: Sequence[object]) -> None:
        choose = random.Random(args.seed).choice
        steps = 0
        for deal in items:
            state = new_hand(deal)  # type: ignore[arg-type]
            while not state.is_over:
                seat, action = choose(legal_moves(state))
                state = apply(state, seat, action)
                steps += 1
        stats["steps"] = steps

    stats: dict[str, int] = {}
    play_all(deals[: n_hands // 4])  # warm-up
    rate = _rate(deals, play_all, rounds)
    print(f"random_hands_per_s: {rate:.0f}")
    print(f"random_hand_mean_steps: {stats['steps'] / len(deals):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
