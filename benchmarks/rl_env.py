"""The learning environment against the raw engine, side by side in one run (one core).

    .venv/bin/python benchmarks/rl_env.py            # 3 rounds of 5 s per loop
    .venv/bin/python benchmarks/rl_env.py --quick    # 2 rounds of 1.5 s
    .venv/bin/python benchmarks/rl_env.py --seconds 3 --rounds 3 --runs 5   # the ratio's median and range

Both loops make the same decisions: every seat that the engine asks (erqishi.play.asked)
picks a random legal action. Both count them in the env's unit, a step: a seat asked
whose only option is the 开 it owes (R-5.12) has no choice, so the env declares it without
a step (as every front end does) and the engine loop makes it without counting it (until
December 2026 the engine loop counted it, about 3.5% more decisions for the same hands;
``hands_ratio``, the hands per second of the env against the engine's, does not depend on
the unit). ``engine`` drives the engine directly (seat_options,
resolve, apply: no observation, no table); ``env`` plays erqishi_v0.env() (PettingZoo's
classic checks, the table, the observation planes and the action mask, a random index of
the mask, reading the planes as a learner would). Every figure is per CPU second of this
process (``time.process_time``: other processes on the machine do not count) and the best
of the rounds, the loops taking turns. Prints ``name: value`` lines: env_steps_per_s,
raw_env_steps_per_s, engine_decisions_per_s, ratio (env / engine), the hands per second of
each, hands_ratio and the size of the action space; with ``--runs N`` the whole measurement N times,
each run's figures (``run_i_…``), then the median, lowest and highest ratio over the runs
(the figures above them are the last run's).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from erqishi.core.engine import ActionKind, Deal, apply, new_hand, seat_options
from erqishi.core.rules import RuleSet
from erqishi.play import Table, asked, resolve
from erqishi.rl import N_ACTIONS, erqishi_v0

_KAI = ActionKind.KAI


def engine_loop(seconds: float, seed: int, rules: RuleSet) -> tuple[int, int, float]:
    """Random decisions on the raw engine: (decisions, hands, seconds)."""
    rng = random.Random(seed)
    decisions = hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = new_hand(Deal.shuffled(rng, rng.randrange(rules.players), rules), rules, 1)
        while not state.is_over:
            declared = {}
            for s in asked(state):
                options = seat_options(state, s)
                declared[s] = rng.choice(options)
                if len(options) > 1 or options[0].kind is not _KAI:
                    decisions += 1  # an owed 开 alone is no choice: the env never asks it
            state = apply(state, *resolve(state, declared))
        hands += 1
    return decisions, hands, time.process_time() - start


def table_loop(seconds: float, seed: int, rules: RuleSet) -> tuple[int, int, float]:
    """The same random decisions played at the one table (erqishi.play.Table: events and
    records, no observation): (decisions, hands, seconds)."""
    rng = random.Random(seed)
    decisions = hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        table = Table(rules, random.Random(rng.getrandbits(64)), [f"p{s}" for s in range(rules.players)])
        table.auto_close = False
        table.start_hand()
        while table.in_hand:
            state = table.state
            assert state is not None
            declared = {}
            for s in asked(state):
                options = seat_options(state, s)
                declared[s] = rng.choice(options)
                if len(options) > 1 or options[0].kind is not _KAI:
                    decisions += 1
            table.apply_move(*resolve(state, declared))
        hands += 1
    return decisions, hands, time.process_time() - start


def env_loop(seconds: float, seed: int, rules: RuleSet, *, raw: bool = False) -> tuple[int, int, float]:
    """Random masked actions on erqishi_v0: (steps, hands, seconds)."""
    rng = random.Random(seed)
    env = erqishi_v0.raw_env(rules=rules) if raw else erqishi_v0.env(rules=rules)
    steps = hands = planes = 0
    start = time.process_time()
    env.reset(seed=seed)
    while time.process_time() - start < seconds:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            planes += obs["observation"].shape[0]  # a learner reads the planes
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        hands += 1
        env.reset()
    return steps, hands, time.process_time() - start


def _best(
    rounds: int, runs: Sequence[tuple[str, Callable[[], tuple[int, int, float]]]]
) -> dict[str, tuple[float, float]]:
    best: dict[str, tuple[float, float]] = {}
    for _ in range(rounds):
        for name, run in runs:
            count, hands, seconds = run()
            rate = (count / seconds, hands / seconds)
            if name not in best or rate[0] > best[name][0]:
                best[name] = rate
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2 rounds of 1.5 s per loop")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per loop and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rules", default="leshan", help="a preset or JSON options")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=1, help="repeat the whole measurement, report the ratio's spread")
    args = parser.parse_args(argv)
    seconds, rounds = (1.5, 2) if args.quick else (args.seconds, args.rounds)
    rules = RuleSet.load(args.rules)
    # warm up the analysis tables on other hands
    engine_loop(min(1.0, seconds), args.seed + 1, rules)
    env_loop(min(1.0, seconds), args.seed + 1, rules)
    print(f"python: {platform.python_version()}")
    print(f"rules: {rules}")
    print(f"action_space: {N_ACTIONS}")
    ratios: dict[str, list[float]] = {"ratio": [], "raw_ratio": [], "table_ratio": [], "hands_ratio": []}
    for run in range(args.runs):
        best = _best(
            rounds,
            [
                ("engine", lambda: engine_loop(seconds, args.seed, rules)),
                ("table", lambda: table_loop(seconds, args.seed, rules)),
                ("env", lambda: env_loop(seconds, args.seed, rules)),
                ("raw_env", lambda: env_loop(seconds, args.seed, rules, raw=True)),
            ],
        )
        engine = best["engine"][0]
        figures = {
            "engine_decisions_per_s": f"{engine:.0f}",
            "engine_hands_per_s": f"{best['engine'][1]:.1f}",
            "table_decisions_per_s": f"{best['table'][0]:.0f}",
            "env_steps_per_s": f"{best['env'][0]:.0f}",
            "env_hands_per_s": f"{best['env'][1]:.1f}",
            "raw_env_steps_per_s": f"{best['raw_env'][0]:.0f}",
            "ratio": f"{best['env'][0] / engine:.3f}",
            "raw_ratio": f"{best['raw_env'][0] / engine:.3f}",
            "table_ratio": f"{best['table'][0] / engine:.3f}",
            "hands_ratio": f"{best['env'][1] / best['engine'][1]:.3f}",
        }
        for name in ratios:
            ratios[name].append(float(figures[name]))
        prefix = f"run_{run + 1}_" if args.runs > 1 else ""
        for name, value in figures.items():
            print(f"{prefix}{name}: {value}")
    if args.runs > 1:
        for name, values in ratios.items():
            print(f"{name}_median: {statistics.median(values):.3f}")
            print(f"{name}_range: {min(values):.3f}-{max(values):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
