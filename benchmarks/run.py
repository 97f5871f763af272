"""erqishi benchmarks: one command, one figure per line as ``name: value``.

    .venv/bin/python benchmarks/run.py            # full run
    .venv/bin/python benchmarks/run.py --quick    # about a minute
    .venv/bin/python benchmarks/run.py --compare /work/old-build/src          # this build vs another, side by side
    .venv/bin/python benchmarks/run.py --compare /work/old-build/src --quick --repeat 5
    .venv/bin/python benchmarks/run.py --web      # the web server under load (benchmarks/web_load.py)

Every figure runs on one core: the engine's in this process, the bots' (``sim_*``,
``search_*``, ``learned_*``) in a fresh one, as a sim run starts. Rates are over hands drawn with a fixed
seed; each is the best of a few rounds, after a warm-up on other hands (the analysis
memoizes per-size split tables as it meets new patterns); each round plays hands of its
own, so no hand is played twice. Time is the process's CPU time
by default (``--wall`` for wall-clock): on a loaded machine the wall clock measures the
other processes too.

``--compare SRC`` runs this same script in subprocesses, alternately with this build's
``src`` and with ``SRC`` on ``PYTHONPATH`` (``--repeat`` times each, interleaved, so load
changes hit both alike), and prints the median of each figure side by side with the ratio.
The workloads are this script's, so both builds run exactly the same hands.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import erqishi  # noqa: E402
from erqishi.core import HandAnalyzer, RuleSet  # noqa: E402
from erqishi.core.engine import Deal, apply, legal_moves, new_hand  # noqa: E402
from erqishi.core.hands import grouping  # noqa: E402
from hands import complete_hand, random_deal  # noqa: E402

Figure = tuple[str, float, str]  # name, value, format


def build_name() -> str:
    """Which build of erqishi runs: ``compiled`` (mypyc) or ``pure``, and from where."""
    import importlib

    probe = importlib.import_module("erqishi.core.engine.legal")  # compiled in every compiled build
    path = Path(getattr(probe, "__file__", "") or "")
    kind = "compiled" if path.suffix in (".so", ".pyd") else "pure"
    return f"{kind} ({Path(erqishi.__file__).resolve().parent.parent})"


def _clock(wall: bool) -> Callable[[], float]:
    return time.perf_counter if wall else time.process_time


def _rate(
    batches: Callable[[int], Sequence[object]],
    fn: Callable[[Sequence[object]], object],
    rounds: int,
    clock: Callable[[], float],
) -> tuple[float, Sequence[object]]:
    """The best rate over ``rounds`` rounds, each over a fresh batch ``batches(round)``
    (made before its clock starts), and the first batch. No round plays the items of
    another or of the warm-up: a memo of whole answers would make a replay free and the
    figure would say nothing about hands met once, as a game or a sim meets them."""
    best = float("inf")
    first: Sequence[object] = ()
    count = 0
    for r in range(rounds):
        items = batches(r)
        if not r:
            first = items
        count = len(items)
        start = clock()
        fn(items)
        best = min(best, clock() - start)
    return count / max(best, 1e-9), first


def run_figures(args: argparse.Namespace, emit: Callable[[str, float, str], None]) -> None:
    """Measure every figure, calling ``emit(name, value, format)`` as each is known."""
    clock = _clock(args.wall)
    n_score, n_waits, rounds = (20_000, 3_000, 2) if args.quick else (100_000, 20_000, 3)
    rng = random.Random(args.seed)

    warm = [complete_hand(rng) for _ in range(n_score // 2)]
    for hand, melds, win in warm:
        HandAnalyzer(hand, melds).evaluate(win)
        HandAnalyzer(hand, melds).waits()
    del warm

    def score_all(items: Sequence[object]) -> None:
        for hand, melds, win in items:  # type: ignore[misc]
            HandAnalyzer(hand, melds).evaluate(win)

    rate, complete = _rate(lambda _: [complete_hand(rng) for _ in range(n_score)], score_all, rounds, clock)
    emit("score_hands_per_s", rate, ".0f")
    wins = sum(HandAnalyzer(h, m).evaluate(w).is_win for h, m, w in complete)  # type: ignore[misc]
    emit("score_hands_win_fraction", wins / len(complete), ".3f")
    del complete

    def score_deals(items: Sequence[object]) -> None:
        for hand, win in items:  # type: ignore[misc]
            HandAnalyzer(hand).evaluate(win)

    rate, _ = _rate(lambda _: [random_deal(rng) for _ in range(n_score)], score_deals, rounds, clock)
    emit("score_random_deals_per_s", rate, ".0f")

    def waits_all(items: Sequence[object]) -> None:
        for hand, melds in items:  # type: ignore[misc]
            HandAnalyzer(hand, melds).waits()

    rate, waiting = _rate(
        lambda _: [(h, m) for h, m, _ in (complete_hand(rng) for _ in range(n_waits))], waits_all, rounds, clock
    )
    emit("waits_per_s", rate, ".0f")
    n_found = sum(len(HandAnalyzer(h, m).waits()) for h, m in waiting)  # type: ignore[misc]
    emit("waits_mean_winning_cards", n_found / len(waiting), ".2f")
    emit("split_table_entries", len(grouping._SIZE_TABLE), ".0f")

    # whole three-player hands: legal moves at every decision, a uniform random choice
    n_hands = 1_000 if args.quick else 4_000
    play_rng = random.Random(args.seed)
    stats: dict[str, int] = {}

    def play_all(items: Sequence[object]) -> None:
        choose = random.Random(args.seed).choice
        steps = 0
        for deal in items:
            state = new_hand(deal)  # type: ignore[arg-type]
            while not state.is_over:
                seat, action = choose(legal_moves(state))
                state = apply(state, seat, action)
                steps += 1
        stats.setdefault("steps", steps)  # the first round's

    def deals(count: int) -> list[Deal]:
        return [Deal.shuffled(play_rng, i % 3) for i in range(count)]

    play_all(deals(n_hands // 4))  # warm-up, on other hands
    stats.clear()
    rate, played = _rate(lambda _: deals(n_hands), play_all, rounds, clock)
    emit("random_hands_per_s", rate, ".0f")
    emit("random_hand_mean_steps", stats["steps"] / len(played), ".1f")

    # the same with the shuffle and deal inside the clock, as OpenSpiel's loop deals its
    # cards as chance outcomes inside its own
    def deal_and_play(items: Sequence[object]) -> None:
        shuffle_rng = random.Random(args.seed + 1)
        play_all([Deal.shuffled(shuffle_rng, i % 3) for i in items])  # type: ignore[operator]

    rate, _ = _rate(lambda _: range(n_hands), deal_and_play, rounds, clock)
    emit("random_hands_with_deal_per_s", rate, ".0f")
    openspiel_figures(n_hands, rounds, clock, args.seed, emit)

    if args.no_bots:
        return
    # the bots' figures in a fresh process, as an ``erqishi sim`` run or a game starts: not
    # in one whose heap and memo tables the figures above filled (with engine memos
    # by hand pattern, tried and dropped, they moved these figures by 5-15% either way)
    cmd = [sys.executable, __file__, "--bots-only", f"--seed={args.seed}"]
    cmd += [flag for flag, on in (("--quick", args.quick), ("--wall", args.wall)) if on]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    for name, value, fmt in json.loads(done.stdout.strip().splitlines()[-1]):
        emit(name, value, fmt)


def openspiel_figures(
    n_games: int, rounds: int, clock: Callable[[], float], seed: int, emit: Callable[[str, float, str], None]
) -> None:
    """The yardstick of ``random_hands_per_s``: OpenSpiel's C++ ``dou_dizhu`` (the ``rl``
    extra installs OpenSpiel) played the same way in the same process: from Python, a
    uniform random choice among the legal actions (and the chance outcomes of its deal)
    at every step, then ``apply_action``. Both loops pay the same Python per step; the
    rules run in C++ there and in erqishi here. Skipped without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)
    steps = [0]

    def play_all(items: Sequence[object]) -> None:
        pick = rng.randrange
        n = 0
        for _ in items:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[pick(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[pick(len(legal))])
                n += 1
        steps[0] = n

    play_all(range(n_games // 4))  # warm-up
    rate, played = _rate(lambda _: range(n_games), play_all, rounds, clock)
    emit("openspiel_dou_dizhu_games_per_s", rate, ".0f")
    emit("openspiel_dou_dizhu_mean_steps", steps[0] / len(played), ".1f")


def _bots_only(args: argparse.Namespace) -> int:
    """The bots' figures alone (``--bots-only``), as one JSON list on the last line."""
    figures: list[Figure] = []
    _bot_figures(args, lambda name, value, fmt: figures.append((name, value, fmt)), _clock(args.wall))
    print(json.dumps(figures))
    return 0


def _bot_figures(args: argparse.Namespace, emit: Callable[[str, float, str], None], clock: Callable[[], float]) -> None:
    from erqishi.bots import Bot, SearchBot, make_bot
    from erqishi.core.engine import resolve_responses, view
    from erqishi.sim import run_sim

    rules = RuleSet()
    # ``erqishi sim`` hands per second, one bot in every seat (one process)
    for name, hands in (("random", 300 if args.quick else 1_000), ("heuristic", 60 if args.quick else 200)):
        run_sim(max(1, hands // 10), args.seed + 1, [name] * 3, rules, keep_records=False)  # warm-up
        start = clock()
        run_sim(hands, args.seed, [name] * 3, rules, keep_records=False)
        emit(f"sim_{name}_hands_per_s", hands / max(clock() - start, 1e-9), ".1f")
    hands = 2 if args.quick else 6
    start = clock()
    run_sim(hands, args.seed, ["search"] * 3, rules, keep_records=False)
    emit("sim_search_hands_per_s", hands / max(clock() - start, 1e-9), ".2f")

    # search decisions: positions from seeded heuristic games where the search has a real
    # choice (more than one option, no win on offer); each decided once, seeded
    positions = []
    pos_rng = random.Random(args.seed)
    heuristic = make_bot("heuristic")
    want = 20 if args.quick else 60
    while len(positions) < want:
        state = new_hand(Deal.shuffled(pos_rng, pos_rng.randrange(3)))
        while not state.is_over:
            seats = state.order if state.phase == "response" else (state.turn,)
            declared = {}
            for s in seats:
                v = view(state, s)
                if len(v.legal) > 1:
                    if all(a.kind != "hu" for a in v.legal) and pos_rng.random() < 0.2:
                        positions.append(v)
                    declared[s] = heuristic.choose(v, pos_rng)
                elif v.legal:
                    declared[s] = v.legal[0]
            if state.phase == "response":
                seat, action = resolve_responses(state, declared)
            else:
                seat, action = state.turn, declared[state.turn]
            state = apply(state, seat, action)
    positions = positions[:want]

    def timed(bot: Bot) -> list[float]:
        """Seconds of each of ``bot``'s decisions on the positions, seeded."""
        times = []
        for i, v in enumerate(positions):
            start = clock()
            bot.choose(v, random.Random(i))
            times.append(clock() - start)
        return times

    bot = SearchBot()
    emit("search_playouts_per_decision", float(bot.playouts), ".0f")
    times = timed(bot)
    emit("search_decisions_per_s", len(times) / max(sum(times), 1e-9), ".1f")
    emit("search_decision_median_ms", 1000 * statistics.median(times), ".1f")

    # the learned bot on the same positions (its network loaded first, not timed); a build
    # from before the learned bot has no such figure
    try:
        learned = make_bot("learned")
    except ValueError:
        return
    learned.choose(positions[0], random.Random(0))
    emit("learned_decision_median_ms", 1000 * statistics.median(timed(learned)), ".2f")


def _worker(args: argparse.Namespace) -> int:
    """One measuring run, its figures as one JSON object on the last line of stdout."""
    figures: dict[str, list[object]] = {}

    def emit(name: str, value: float, fmt: str) -> None:
        figures[name] = [value, fmt]

    run_figures(args, emit)
    print(json.dumps({"build": build_name(), "figures": figures}))
    return 0


def _compare(args: argparse.Namespace, passthrough: list[str]) -> int:
    ours = str(Path(erqishi.__file__).resolve().parent.parent)
    others = [str(Path(c).resolve()) for c in args.compare]
    labels = ["other"] if len(others) == 1 else [f"other{i + 1}" for i in range(len(others))]
    builds = [("this", ours), *zip(labels, others, strict=True)]
    runs: dict[str, list[dict[str, list[object]]]] = {label: [] for label, _ in builds}
    names: dict[str, str] = {}
    for r in range(args.repeat):
        order = builds[r % len(builds) :] + builds[: r % len(builds)]  # rotate who goes first
        for label, src in order:
            env = dict(os.environ, PYTHONPATH=src)
            cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", *passthrough]
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                sys.stderr.write(done.stderr)
                print(f"error: the run with {src} failed (exit {done.returncode})", file=sys.stderr)
                return 1
            out = json.loads(done.stdout.strip().splitlines()[-1])
            names[label] = out["build"]
            runs[label].append(out["figures"])
            print(f"# round {r + 1}/{args.repeat}: {label} done", file=sys.stderr, flush=True)
    print(f"python: {platform.python_version()}")
    print(f"clock: {'wall' if args.wall else 'cpu'}")
    for label, _ in builds:
        print(f"{label}: {names[label]}")
    print(f"runs: {args.repeat} each, interleaved; medians; ratios are this/other")
    header = f"{'figure':32} {'this':>12}"
    for label in labels:
        header += f" {label:>12} {'ratio':>6}"
    print(header)
    for name in runs["this"][0]:
        fmt = str(runs["this"][0][name][1])
        ours_v = statistics.median(float(f[name][0]) for f in runs["this"])  # type: ignore[arg-type]
        line = f"{name:32} {format(ours_v, fmt):>12}"
        for label in labels:
            vals = [float(f[name][0]) for f in runs[label] if name in f]  # type: ignore[arg-type]
            other_v = statistics.median(vals) if vals else float("nan")
            ratio = ours_v / other_v if other_v else float("nan")
            line += f" {format(other_v, fmt):>12} {ratio:>6.2f}"
        print(line)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer hands and rounds")
    parser.add_argument("--seed", type=int, default=20261130, help="seed of the hand generator")
    parser.add_argument("--wall", action="store_true", help="time by the wall clock instead of the process's CPU time")
    parser.add_argument("--no-bots", action="store_true", help="skip the sim and search figures")
    parser.add_argument(
        "--compare",
        metavar="SRC",
        action="append",
        help="also run with SRC on PYTHONPATH (another checkout's src, a compiled build's site-packages); repeatable",
    )
    parser.add_argument("--repeat", type=int, default=3, help="with --compare: runs of each build (default 3)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--bots-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--web", action="store_true", help="run benchmarks/web_load.py instead (200 tables; with --quick, 5 tables)"
    )
    args = parser.parse_args(argv)
    if args.web:
        from web_load import main as web_main

        return web_main(["--quick"] if args.quick else [])
    if args.worker:
        return _worker(args)
    if args.bots_only:
        return _bots_only(args)
    if args.compare:
        passthrough = [f"--seed={args.seed}"]
        passthrough += [flag for flag, on in (("--quick", args.quick), ("--wall", args.wall)) if on]
        passthrough += ["--no-bots"] if args.no_bots else []
        return _compare(args, passthrough)

    print(f"python: {platform.python_version()}")
    print(f"build: {build_name()}")
    print(f"clock: {'wall' if args.wall else 'cpu'}")

    def emit(name: str, value: float, fmt: str) -> None:
        print(f"{name}: {format(value, fmt)}", flush=True)

    run_figures(args, emit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
