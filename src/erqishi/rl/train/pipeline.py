"""The training run: rounds of data generation (both cores), fitting and evaluation, with
checkpoints, a CSV of the curves and a PNG of them (:mod:`erqishi.rl.train`)."""

from __future__ import annotations

import argparse
import csv
import json
import math
import multiprocessing
import random
import shutil
import statistics
import sys
import time
import tomllib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from erqishi.bots import make_bot
from erqishi.core.engine import Deal, Phase, apply, new_hand, view
from erqishi.core.errors import ErqishiError
from erqishi.core.rules import RuleSet
from erqishi.play.step import asked, resolve
from erqishi.rl.train.generate import PLAYOUTS, ChunkStats, ChunkTask, generate_chunk, policy
from erqishi.rl.train.model import QNet, export_npz, losses

__all__ = ["Config", "EvalTask", "deal_values", "evaluate_deals", "interval", "load_config", "main", "run"]

CURVE_FIELDS = (
    "round",
    "epoch",
    "hands",
    "decisions",
    "samples",
    "loss_v",
    "loss_a",
    "val_loss_a",
    "eval_heuristic",
    "eval_heuristic_ci",
    "eval_search",
    "eval_search_ci",
    "core_hours",
    "wall_seconds",
)


@dataclass
class Config:
    """A run's configuration (a TOML file of these keys; every key optional).

    Attributes:
        seed: the seed of every deal and choice of the run.
        rules: a preset name or JSON options (R-10).
        workers: data-generation and evaluation processes.
        threads: torch threads while fitting.
        rounds: rounds of generate, fit, evaluate.
        hands: hands generated per round (one number or one per round).
        chunk_hands: hands per chunk file (a worker's task).
        label_prob: probability of labelling a decision.
        epsilon: exploration while generating.
        playout: how labelled actions are played out: ``"policy"`` (every seat its
            player) or ``"rule"`` (the search bot's playout rule; :class:`ChunkTask`).
        learned_from_round: the round from which the hero plays the latest learned bot.
        h1, h2, h3, scale: the network (:class:`~erqishi.rl.train.model.QNet`).
        epochs: passes over all the data so far, per round.
        batch: decisions per step.
        lr, weight_decay: Adam's.
        clip: targets are clipped to ±clip network units.
        eval_heuristic, eval_search: duplicate deals (all rotations) against two heuristic
            and against two search bots after each round (0: none).
        export: where the final weights go (besides the run folder), or "".
    """

    seed: int = 1
    rules: str = "leshan"
    workers: int = 2
    threads: int = 2
    rounds: int = 2
    hands: list[int] = field(default_factory=lambda: [2000])
    chunk_hands: int = 20
    label_prob: float = 0.3
    epsilon: float = 0.03
    playout: str = "policy"
    learned_from_round: int = 1
    h1: int = 128
    h2: int = 64
    h3: int = 128
    scale: float = 10.0
    epochs: int = 6
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-5
    clip: float = 30.0
    eval_heuristic: int = 100
    eval_search: int = 0
    export: str = ""

    def hands_in(self, r: int) -> int:
        """Hands generated in round ``r``."""
        return self.hands[min(r, len(self.hands) - 1)]


def load_config(path: str | Path) -> Config:
    """A :class:`Config` from a TOML file.

    Raises:
        OSError: the file cannot be read.
        ValueError: an unknown key or a malformed file.
    """
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    known = {f.name for f in fields(Config)}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"{path}: unknown config keys: {', '.join(sorted(unknown))}")
    if "hands" in data and isinstance(data["hands"], int):
        data["hands"] = [data["hands"]]
    if data.get("playout", "policy") not in PLAYOUTS:
        raise ValueError(f"{path}: playout must be one of {', '.join(PLAYOUTS)}; got {data['playout']!r}")
    for key, value in data.items():
        problem = _config_problem(key, value)
        if problem is not None:
            raise ValueError(f"{path}: {key} {problem}, got {value!r}")
    return Config(**data)


#: the whole-number keys and their least value
_WHOLE: dict[str, int] = {
    "seed": 0,
    "workers": 1,
    "threads": 1,
    "rounds": 1,
    "chunk_hands": 1,
    "learned_from_round": 0,
    "h1": 1,
    "h2": 1,
    "h3": 1,
    "epochs": 1,
    "batch": 1,
    "eval_heuristic": 0,
    "eval_search": 0,
}
#: the number keys and their range (low, high, whether low itself is allowed)
_NUMBER: dict[str, tuple[float, float, bool]] = {
    "label_prob": (0.0, 1.0, False),
    "epsilon": (0.0, 1.0, True),
    "scale": (0.0, math.inf, False),
    "lr": (0.0, math.inf, False),
    "weight_decay": (0.0, math.inf, True),
    "clip": (0.0, math.inf, False),
}


def _config_problem(key: str, value: object) -> str | None:
    """What is wrong with ``value`` for config ``key`` (as the run would need it), or None."""
    if key in _WHOLE:
        if isinstance(value, bool) or not isinstance(value, int) or value < _WHOLE[key]:
            return f"must be a whole number {_WHOLE[key]} or more"
    elif key == "hands":
        if (
            not isinstance(value, list)
            or not value
            or any(isinstance(h, bool) or not isinstance(h, int) or h < 1 for h in value)
        ):
            return "must be a whole number 1 or more, or a list of them (one per round)"
    elif key in _NUMBER:
        low, high, closed = _NUMBER[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return "must be a number"
        if value < low or (value == low and not closed) or value > high:
            bound = "0 or more" if closed else "more than 0"
            return f"must be {bound}" + (f" and at most {high:g}" if math.isfinite(high) else "")
    elif key in ("rules", "playout", "export") and not isinstance(value, str):
        return "must be text"
    elif key == "rules":
        try:
            RuleSet.load(str(value))
        except ErqishiError as exc:
            return f"must be a preset or JSON options ({exc})"
    return None


# ---- evaluation -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EvalTask:
    """Deals ``first`` to ``last - 1`` of a duplicate evaluation of ``weights`` against
    ``opponent`` (every other seat), all rotations; the learned bot plays with ``width``
    and ``always_hu`` (:class:`~erqishi.bots.learned.LearnedBot`)."""

    weights: str
    opponent: str
    seed: int
    first: int
    last: int
    rules: str
    width: int = 3
    always_hu: bool = True


def evaluate_deals(task: EvalTask) -> list[float]:
    """Per deal, the learned seat's mean net payment over the rotations (score units):
    in rotation ``r`` the learned bot holds seat ``r``; the deal and each seat's generator
    come from ``(seed, deal)`` alone, as in ``erqishi sim --duplicate``."""
    rules = RuleSet.parse(task.rules)
    n = rules.players
    learned = policy(task.weights, width=task.width, always_hu=task.always_hu)
    out: list[float] = []
    for d in range(task.first, task.last):
        total = 0.0
        for r in range(n):
            deal = Deal.shuffled(random.Random(f"{task.seed}:{d}"), d % n, rules)
            rngs = [random.Random(f"{task.seed}:{d}:{s}") for s in range(n)]
            bots = [learned if s == r else make_bot(task.opponent) for s in range(n)]
            state = new_hand(deal)
            steps = 0
            while state.phase is not Phase.OVER and steps < 400:
                declared = {s: bots[s].choose(view(state, s), rngs[s]) for s in asked(state)}
                state = apply(state, *resolve(state, declared))
                steps += 1
            if state.result is not None:
                total += state.result.payments[r]
        out.append(total / n)
    return out


def _evaluate(pool: Any, cfg: Config, weights: str, opponent: str, deals: int, r: int) -> tuple[float, float]:
    """(mean per deal, half-width of its 95% interval) over ``deals`` deals."""
    if deals <= 0:
        return math.nan, math.nan
    return interval(deal_values(pool, cfg.workers, weights, opponent, cfg.seed * 1000 + 7 + r, deals, cfg.rules))


def deal_values(
    pool: Any,
    workers: int,
    weights: str,
    opponent: str,
    seed: int,
    deals: int,
    rules: str,
    *,
    width: int = 3,
    always_hu: bool = True,
) -> list[float]:
    """:func:`evaluate_deals` of the deals ``0 … deals - 1`` of ``seed``, in chunks over
    ``pool`` (``workers`` processes): the learned seat's mean net payment per deal, in deal
    order (score units; the chunking changes nothing, each deal is seeded on its own)."""
    step = max(1, deals // (4 * workers))
    tasks = [
        EvalTask(weights, opponent, seed, a, min(deals, a + step), rules, width, always_hu)
        for a in range(0, deals, step)
    ]
    return [v for chunk in pool.map(evaluate_deals, tasks) for v in chunk]


def interval(values: Sequence[float]) -> tuple[float, float]:
    """(mean, half-width of its 95% interval, normal approximation); the half-width is NaN
    for fewer than two values.

    Raises:
        statistics.StatisticsError: no values.
    """
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return mean, half


# ---- data -------------------------------------------------------------------------


@dataclass
class Data:
    """Every labelled decision so far: S [D, N_STATE], A [K, N_ACTION], T [K], the
    actions of decision d at ``start[d]:start[d] + count[d]``."""

    S: npt.NDArray[np.float16]
    A: npt.NDArray[np.float16]
    T: npt.NDArray[np.float32]
    start: npt.NDArray[np.int64]
    count: npt.NDArray[np.int64]


def _load_data(files: Sequence[Path]) -> Data:
    ss, aa, tt, starts, counts = [], [], [], [], []
    a_off = 0
    for f in files:
        with np.load(f) as z:
            s, a, t, d = z["S"], z["A"], z["T"], z["D"]
        if len(s) == 0:
            continue
        cnt = np.bincount(d, minlength=len(s)).astype(np.int64)
        st = np.concatenate([[0], np.cumsum(cnt)[:-1]]).astype(np.int64) + a_off
        ss.append(s)
        aa.append(a)
        tt.append(t)
        starts.append(st)
        counts.append(cnt)
        a_off += len(a)
    if not ss:
        raise RuntimeError("no labelled decisions yet")
    return Data(
        np.concatenate(ss), np.concatenate(aa), np.concatenate(tt), np.concatenate(starts), np.concatenate(counts)
    )


def _batch(data: Data, ids: npt.NDArray[np.int64]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    lens = data.count[ids]
    total = int(lens.sum())
    first = np.repeat(data.start[ids] - np.cumsum(lens) + lens, lens) + np.arange(total)
    owner = np.repeat(np.arange(len(ids)), lens)
    return (
        torch.from_numpy(data.S[ids].astype(np.float32)),
        torch.from_numpy(data.A[first].astype(np.float32)),
        torch.from_numpy(owner.astype(np.int64)),
        torch.from_numpy(data.T[first]),
    )


# ---- the run ----------------------------------------------------------------------


class Run:
    """A run folder: config, data chunks, checkpoints, weights, curves."""

    def __init__(self, folder: Path, cfg: Config) -> None:
        self.folder, self.cfg = folder, cfg
        for sub in ("data", "ckpt", "weights"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        self.curves = folder / "curves.csv"
        self.progress = folder / "progress.json"
        self.state: dict[str, Any] = (
            json.loads(self.progress.read_text()) if self.progress.exists() else {"core_seconds": 0.0, "wall": 0.0}
        )

    def save_progress(self) -> None:
        tmp = self.progress.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.state, indent=1))
        tmp.replace(self.progress)

    def chunk_files(self, upto: int) -> list[Path]:
        return sorted(p for p in (self.folder / "data").glob("r*_c*.npz") if int(p.name[1:4]) <= upto)

    def curve_rows(self) -> list[dict[str, str]]:
        if not self.curves.exists():
            return []
        with self.curves.open(newline="") as f:
            return list(csv.DictReader(f))

    def add_row(self, row: dict[str, Any]) -> None:
        new = not self.curves.exists()
        with self.curves.open("a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=CURVE_FIELDS)
            if new:
                w.writeheader()
            w.writerow({k: row.get(k, "") for k in CURVE_FIELDS})


def _log(msg: str) -> None:
    print(time.strftime("%H:%M:%S"), msg, flush=True)


def _generate(run: Run, pool: Any, r: int) -> None:
    cfg = run.cfg
    weights = None
    if r >= cfg.learned_from_round and r > 0:
        weights = str(run.folder / "weights" / f"round{r - 1:03d}.npz")
    n_chunks = -(-cfg.hands_in(r) // cfg.chunk_hands)
    tasks = []
    for c in range(n_chunks):
        path = run.folder / "data" / f"r{r:03d}_c{c:05d}.npz"
        if path.exists():
            continue
        hands = min(cfg.chunk_hands, cfg.hands_in(r) - c * cfg.chunk_hands)
        seed = cfg.seed * 1_000_003 + r * 100_003 + c
        tasks.append(ChunkTask(str(path), seed, hands, cfg.rules, weights, cfg.label_prob, cfg.epsilon, cfg.playout))
    if not tasks:
        return
    _log(f"round {r}: generating {len(tasks)} chunks ({'learned' if weights else 'heuristic'} hero)")
    hero = 0.0
    hands = 0
    for done, stats in enumerate(pool.imap_unordered(generate_chunk, tasks), 1):
        assert isinstance(stats, ChunkStats)
        hero += stats.hero_payment
        hands += stats.hands
        run.state["core_seconds"] = run.state.get("core_seconds", 0.0) + stats.seconds
        run.state["hands"] = run.state.get("hands", 0) + stats.hands
        run.save_progress()
        if done % max(1, len(tasks) // 10) == 0:
            _log(f"  {done}/{len(tasks)} chunks, hero mean payment {hero / max(1, hands):+.2f}")


def _fit(run: Run, r: int, net: QNet, opt: torch.optim.Optimizer, start_epoch: int) -> None:
    cfg = run.cfg
    data = _load_data(run.chunk_files(r))
    n = len(data.S)
    gen = np.random.default_rng(cfg.seed * 7919 + r)
    order = gen.permutation(n)
    n_val = max(1, n // 20)
    val, train = order[:n_val], order[n_val:]
    samples = len(data.T)
    _log(f"round {r}: fitting on {n} decisions, {samples} action samples")
    for epoch in range(start_epoch, cfg.epochs):
        t0 = time.perf_counter()
        net.train()
        perm = gen.permutation(train)
        lv = la = 0.0
        steps = 0
        for b in range(0, len(perm), cfg.batch):
            s, a, owner, t = _batch(data, perm[b : b + cfg.batch])
            loss_v, loss_a = losses(net, s, a, owner, t, cfg.clip)
            opt.zero_grad()
            (loss_v + loss_a).backward()  # type: ignore[no-untyped-call]
            opt.step()
            lv += float(loss_v.detach())
            la += float(loss_a.detach())
            steps += 1
        net.eval()
        with torch.no_grad():
            vs, va = 0.0, 0.0
            vsteps = 0
            for b in range(0, len(val), 2048):
                s, a, owner, t = _batch(data, val[b : b + 2048])
                l_v, l_a = losses(net, s, a, owner, t, cfg.clip)
                vs += float(l_v)
                va += float(l_a)
                vsteps += 1
        seconds = time.perf_counter() - t0
        run.state["core_seconds"] = run.state.get("core_seconds", 0.0) + seconds * cfg.threads
        torch.save(
            {"round": r, "epoch": epoch + 1, "model": net.state_dict(), "optim": opt.state_dict()},
            run.folder / "ckpt" / "latest.pt",
        )
        run.save_progress()
        run.add_row(
            {
                "round": r,
                "epoch": epoch + 1,
                "hands": run.state.get("hands", 0),
                "decisions": n,
                "samples": samples,
                "loss_v": f"{lv / max(1, steps):.5f}",
                "loss_a": f"{la / max(1, steps):.5f}",
                "val_loss_a": f"{va / max(1, vsteps):.5f}",
                "core_hours": f"{run.state['core_seconds'] / 3600:.4f}",
                "wall_seconds": f"{run.state.get('wall', 0.0) + _elapsed():.0f}",
            }
        )
        _log(
            f"  epoch {epoch + 1}: loss_v {lv / max(1, steps):.4f} loss_a {la / max(1, steps):.4f}"
            f" val_a {va / max(1, vsteps):.4f}"
        )


_T0 = time.perf_counter()


def _elapsed() -> float:
    return time.perf_counter() - _T0


def draw_curves(csv_path: Path, png: Path) -> bool:
    """Draw the curves of ``csv_path`` to ``png`` with matplotlib; False when matplotlib is
    not installed (the ``train`` extra has it)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    with csv_path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return False
    x = list(range(1, len(rows) + 1))

    def col(name: str) -> list[float]:
        return [float(r[name]) if r.get(name) not in (None, "") else math.nan for r in rows]

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    ax1.plot(x, col("loss_a"), label="advantage loss (train)")
    ax1.plot(x, col("val_loss_a"), label="advantage loss (held out)")
    ax1.plot(x, col("loss_v"), label="value loss (train)")
    ax1.set_xlabel("epoch (all rounds)")
    ax1.set_ylabel("MSE, (score units / 10)²")
    ax1.set_yscale("log")
    ax1.legend()
    for name, label in (("eval_heuristic", "vs 2 heuristic"), ("eval_search", "vs 2 search")):
        ys, cis = col(name), col(name + "_ci")
        pts = [(xi, y, c) for xi, y, c in zip(x, ys, cis, strict=True) if not math.isnan(y)]
        if pts:
            ax2.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], marker="o", label=label)
    ax2.axhline(0, color="grey", lw=0.5)
    ax2.set_xlabel("epoch (all rounds)")
    ax2.set_ylabel("learned seat's mean payment per deal (score units)")
    ax2.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=90)
    plt.close(fig)
    return True


def run(cfg: Config, folder: Path, *, resume: bool) -> Path:
    """Train (module :mod:`erqishi.rl.train`); the path of the final weights.

    Raises:
        FileExistsError: ``folder`` holds a run and ``resume`` is False.
    """
    if (folder / "progress.json").exists() and not resume:
        raise FileExistsError(f"{folder} holds a run: pass --resume to continue it")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(asdict(cfg), indent=1))
    run_ = Run(folder, cfg)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    net = QNet(cfg.h1, cfg.h2, cfg.h3, cfg.scale)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    latest = folder / "ckpt" / "latest.pt"
    done_rounds = int(run_.state.get("rounds_done", 0))
    start_epoch = 0
    if latest.exists():
        ck = torch.load(latest, weights_only=True)
        net.load_state_dict(ck["model"])
        opt.load_state_dict(ck["optim"])
        if int(ck["round"]) == done_rounds:
            start_epoch = int(ck["epoch"])
        _log(f"resumed: {done_rounds} rounds done, round {done_rounds} at epoch {start_epoch}")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(cfg.workers) as pool:
        for r in range(done_rounds, cfg.rounds):
            _generate(run_, pool, r)
            _fit(run_, r, net, opt, start_epoch)
            start_epoch = 0
            weights = folder / "weights" / f"round{r:03d}.npz"
            export_npz(net, weights)
            torch.save(
                {"round": r, "epoch": cfg.epochs, "model": net.state_dict(), "optim": opt.state_dict()},
                folder / "ckpt" / f"round{r:03d}.pt",
            )
            eh = _evaluate(pool, cfg, str(weights), "heuristic", cfg.eval_heuristic, r)
            es = _evaluate(pool, cfg, str(weights), "search", cfg.eval_search, r)
            _log(f"round {r}: vs heuristic {eh[0]:+.2f} ± {eh[1]:.2f}; vs search {es[0]:+.2f} ± {es[1]:.2f}")
            run_.add_row(
                {
                    "round": r,
                    "epoch": cfg.epochs,
                    "hands": run_.state.get("hands", 0),
                    "eval_heuristic": "" if math.isnan(eh[0]) else f"{eh[0]:.3f}",
                    "eval_heuristic_ci": "" if math.isnan(eh[1]) else f"{eh[1]:.3f}",
                    "eval_search": "" if math.isnan(es[0]) else f"{es[0]:.3f}",
                    "eval_search_ci": "" if math.isnan(es[1]) else f"{es[1]:.3f}",
                    "core_hours": f"{run_.state['core_seconds'] / 3600:.4f}",
                    "wall_seconds": f"{run_.state.get('wall', 0.0) + _elapsed():.0f}",
                }
            )
            run_.state["rounds_done"] = r + 1
            run_.state["wall"] = run_.state.get("wall", 0.0) + _elapsed()
            globals()["_T0"] = time.perf_counter()
            run_.save_progress()
            draw_curves(run_.curves, folder / "curves.png")
    final = folder / "weights" / f"round{cfg.rounds - 1:03d}.npz"
    if cfg.export:
        Path(cfg.export).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(final, cfg.export)
    return final


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m erqishi.rl.train CONFIG.toml [--run-dir DIR] [--seed N] [--resume]``."""
    parser = argparse.ArgumentParser(prog="python -m erqishi.rl.train", description="Train the learned bot.")
    parser.add_argument("config", help="the run's TOML configuration")
    parser.add_argument("--run-dir", default=None, help="the run folder (default: beside the config, named after it)")
    parser.add_argument("--seed", type=int, default=None, help="override the config's seed")
    parser.add_argument("--resume", action="store_true", help="continue the run in the folder where it stopped")
    args = parser.parse_args(argv)
    try:
        cfg = load_config(args.config)
    except (OSError, ValueError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.seed is not None:
        if args.seed < 0:
            print(f"error: --seed must be a whole number 0 or more, got {args.seed}", file=sys.stderr)
            return 2
        cfg.seed = args.seed
    folder = Path(args.run_dir) if args.run_dir else Path(args.config).with_suffix("")
    try:
        final = run(cfg, folder, resume=args.resume)
    except FileExistsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(final)
    return 0
