"""Train a masked PPO agent on 贰柒拾 and measure it against a random masked policy.

One learning seat of the Gymnasium environment ``erqishi/Erqishi-v0`` (docs/rl.md) plays
against erqishi's bots (``--opponents``, default ``heuristic``); sb3-contrib's
``MaskablePPO`` learns it, with the legal actions of every decision given by the
environment's ``action_masks()`` through sb3-contrib's ``ActionMasker`` wrapper, so the
policy puts probability 0 on every illegal action. Then the saved model is loaded again
and plays ``--eval-hands`` seeded hands (greedy: the most probable legal action), and so
do the untrained network (the same initial weights, greedy) and a uniformly random legal
policy, on the same deals; the figures are printed as ``name: value`` lines: the mean
payment per hand of the learning seat in score units (R-8) with a 95% interval, the win
rate (hands it won), the illegal actions taken (always 0: the masks), and the paired
difference trained − random per deal with its 95% interval.

Needs the ``train`` extra (``pip install -e '.[rl,train]'``; ``scripts/setup.sh --dev``
installs it): torch (a CPU build is enough), stable-baselines3, sb3-contrib.

    python examples/train_masked_ppo.py --minutes 5 --seed 0 --eval-hands 2000

``--minutes`` stops training after the first PPO update past the time budget;
``--timesteps`` stops at a number of learner decisions (rounded up to whole rollouts of
``--n-steps``). The run repeats exactly for the same ``--seed``, the same number of
trained timesteps (printed as ``timesteps``; pass it as ``--timesteps`` to repeat a
``--minutes`` run) and the same ``--threads``: Python's, numpy's and torch's generators
are seeded from ``--seed``, the training environment is seeded through the model's seed,
and every evaluation hand ``i`` is dealt from ``reset(seed=eval_seed + i)``. torch uses
``--threads`` threads (default 1: the environment, not the small network, takes most of
the time, and one thread keeps the float sums in the same order from run to run).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.utils import set_random_seed

import erqishi.rl  # registers erqishi/Erqishi-v0

__all__ = [
    "Evaluation",
    "TrainResult",
    "evaluate",
    "main",
    "make_env",
    "model_policy",
    "new_model",
    "random_policy",
    "train",
]

Observation = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
#: A policy on the learning seat's observation and mask: the index of a legal action.
Policy = Callable[[Observation, Mask], int]


def mask_fn(env: gymnasium.Env[Any, Any]) -> npt.NDArray[np.bool_]:
    """The learning seat's legal actions (the environment's own ``action_masks()``)."""
    masks: npt.NDArray[np.bool_] = env.unwrapped.action_masks()  # type: ignore[attr-defined]
    return masks


def make_env(
    opponents: str = "heuristic", players: int = 3, rules: str = "leshan", reward_scale: float = 1.0
) -> gymnasium.Env[Any, Any]:
    """The training environment: ``erqishi/Erqishi-v0`` with the payments multiplied by
    ``reward_scale`` (PPO's value loss likes rewards of order 1; a hand pays up to a few
    hundred score units), wrapped in ``ActionMasker`` for ``MaskablePPO``."""
    env: gymnasium.Env[Any, Any] = gymnasium.make(erqishi.rl.ENV_ID, opponents=opponents, players=players, rules=rules)
    if reward_scale != 1.0:
        env = gymnasium.wrappers.TransformReward(env, lambda r: float(r) * reward_scale)
    return ActionMasker(env, mask_fn)


def new_model(
    env: gymnasium.Env[Any, Any],
    seed: int,
    *,
    n_steps: int = 2048,
    batch_size: int = 256,
    n_epochs: int = 5,
    learning_rate: float = 3e-4,
    ent_coef: float = 0.01,
    gamma: float = 1.0,
    net_arch: Sequence[int] = (128, 128),
) -> MaskablePPO:
    """An untrained ``MaskablePPO`` with an MLP policy (it flattens the planes), on the CPU.

    ``gamma`` 1: a hand pays once, at its end, and lasts some ten decisions of the seat."""
    set_random_seed(seed)
    torch.manual_seed(seed)
    return MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=batch_size,
        n_epochs=n_epochs,
        learning_rate=learning_rate,
        ent_coef=ent_coef,
        gamma=gamma,
        policy_kwargs={"net_arch": list(net_arch)},
        seed=seed,
        device="cpu",
        verbose=0,
    )


@dataclass(frozen=True)
class TrainResult:
    """A trained model and what it took."""

    model: MaskablePPO
    timesteps: int
    updates: int
    seconds: float


def train(
    model: MaskablePPO,
    *,
    timesteps: int | None = None,
    minutes: float | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> TrainResult:
    """Train ``model`` one rollout (``model.n_steps`` decisions) and one PPO update at a
    time, until ``timesteps`` decisions or ``minutes`` of wall time, whichever comes first
    (at least one update). ``progress(timesteps, seconds)`` is called after each update.

    Raises:
        ValueError: neither budget is given.
    """
    if timesteps is None and minutes is None:
        raise ValueError("give timesteps or minutes")
    start = time.perf_counter()
    updates = 0
    while True:
        model.learn(total_timesteps=model.n_steps, reset_num_timesteps=False)
        updates += 1
        seconds = time.perf_counter() - start
        if progress is not None:
            progress(model.num_timesteps, seconds)
        if timesteps is not None and model.num_timesteps >= timesteps:
            break
        if minutes is not None and seconds >= 60 * minutes:
            break
    return TrainResult(model, model.num_timesteps, updates, time.perf_counter() - start)


def model_policy(model: MaskablePPO, deterministic: bool = True) -> Policy:
    """The model's action under the mask (greedy when ``deterministic``)."""

    def policy(obs: Observation, mask: Mask) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=deterministic)
        return int(action)

    return policy


def random_policy(seed: int) -> Policy:
    """A uniformly random legal action (numpy's generator, seeded)."""
    rng = np.random.default_rng(seed)

    def policy(obs: Observation, mask: Mask) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return policy


@dataclass(frozen=True)
class Evaluation:
    """The learning seat's payments over the evaluation hands."""

    payments: tuple[float, ...]
    decisions: int
    illegal: int

    @property
    def hands(self) -> int:
        """Hands played."""
        return len(self.payments)

    @property
    def mean(self) -> float:
        """Mean payment per hand (score units)."""
        return sum(self.payments) / len(self.payments)

    @property
    def ci95(self) -> tuple[float, float]:
        """The normal 95% interval of the mean."""
        return _ci95(self.payments)

    @property
    def win_rate(self) -> float:
        """Share of the hands the seat won (was paid)."""
        return sum(p > 0 for p in self.payments) / len(self.payments)


def _ci95(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return mean - half, mean + half


def evaluate(
    policy: Policy, *, hands: int, seed: int, opponents: str = "heuristic", players: int = 3, rules: str = "leshan"
) -> Evaluation:
    """Play ``hands`` hands, hand ``i`` dealt from ``reset(seed=seed + i)``, the learning
    seat played by ``policy``; the payments are the environment's, unscaled. An action
    outside the mask is counted (the environment ends that hand with its illegal reward)."""
    env = gymnasium.make(erqishi.rl.ENV_ID, opponents=opponents, players=players, rules=rules)
    payments: list[float] = []
    decisions = illegal = 0
    for i in range(hands):
        obs, info = env.reset(seed=seed + i)
        done, paid = False, 0.0
        while not done:
            mask = info["action_mask"]
            action = policy(obs, mask)
            decisions += 1
            if not mask[action]:
                illegal += 1
            obs, reward, terminated, truncated, info = env.step(action)
            paid += float(reward)
            done = terminated or truncated
        payments.append(paid)
    env.close()
    return Evaluation(tuple(payments), decisions, illegal)


def _fmt_ci(ci: tuple[float, float]) -> str:
    return f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


def _report(name: str, ev: Evaluation) -> list[str]:
    return [
        f"{name}_mean_payment: {ev.mean:+.3f}",
        f"{name}_mean_payment_ci95: {_fmt_ci(ev.ci95)}",
        f"{name}_win_rate: {ev.win_rate:.4f}",
        f"{name}_illegal_actions: {ev.illegal}",
    ]


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module text)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--minutes", type=float, default=None, help="wall-time training budget (default 5 without --timesteps)"
    )
    parser.add_argument("--timesteps", type=int, default=None, help="training budget in learner decisions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponents", default="heuristic", help="bot of the other seats: random, heuristic, search")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rules", default="leshan")
    parser.add_argument("--n-steps", type=int, default=2048, help="decisions per rollout (one PPO update each)")
    parser.add_argument("--reward-scale", type=float, default=0.1)
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--eval-hands", type=int, default=1000)
    parser.add_argument("--eval-seed", type=int, default=1_000_000, help="hand i is dealt from seed eval_seed + i")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1 or 2 here)")
    parser.add_argument("--out", type=Path, default=Path("masked_ppo_erqishi.zip"), help="where the model is saved")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on training")
    args = parser.parse_args(argv)
    if args.minutes is None and args.timesteps is None:
        args.minutes = 5.0

    torch.set_num_threads(args.threads)
    env = make_env(args.opponents, args.players, args.rules, args.reward_scale)
    model = new_model(env, args.seed, n_steps=args.n_steps, learning_rate=args.learning_rate)
    untrained_path = args.out.with_name(args.out.stem + "_untrained.zip")
    model.save(untrained_path)

    def progress(steps: int, seconds: float) -> None:
        if not args.quiet:
            print(f"# trained {steps} timesteps in {seconds:.0f} s", flush=True)

    result = train(model, timesteps=args.timesteps, minutes=args.minutes, progress=progress)
    model.save(args.out)
    env.close()

    trained = MaskablePPO.load(args.out, device="cpu")
    untrained = MaskablePPO.load(untrained_path, device="cpu")
    common = {"hands": args.eval_hands, "seed": args.eval_seed, "opponents": args.opponents, "players": args.players}
    start = time.perf_counter()
    ev_trained = evaluate(model_policy(trained), rules=args.rules, **common)
    ev_untrained = evaluate(model_policy(untrained), rules=args.rules, **common)
    ev_random = evaluate(random_policy(args.seed), rules=args.rules, **common)
    eval_seconds = time.perf_counter() - start
    diff = [t - r for t, r in zip(ev_trained.payments, ev_random.payments, strict=True)]

    lines = [
        f"opponents: {args.opponents}",
        f"players: {args.players}",
        f"rules: {args.rules}",
        f"seed: {args.seed}",
        f"threads: {torch.get_num_threads()}",
        f"timesteps: {result.timesteps}",
        f"updates: {result.updates}",
        f"train_seconds: {result.seconds:.1f}",
        f"train_timesteps_per_s: {result.timesteps / result.seconds:.1f}",
        f"eval_hands: {args.eval_hands}",
        f"eval_seconds: {eval_seconds:.1f}",
        *_report("trained", ev_trained),
        *_report("untrained", ev_untrained),
        *_report("random", ev_random),
        f"trained_minus_random_mean: {sum(diff) / len(diff):+.3f}",
        f"trained_minus_random_ci95: {_fmt_ci(_ci95(diff))}",
        f"model: {args.out}",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
