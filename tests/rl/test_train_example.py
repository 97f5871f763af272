"""examples/train_masked_ppo.py with a tiny budget: it trains, the saved model loads, the
trained policy takes only legal actions, and a seeded run repeats exactly.

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib; ``scripts/setup.sh --dev``
installs it). Without it this module fails to import: the suite runs with everything
installed, so a missing torch is an error, not a skip."""

from __future__ import annotations

import importlib.util
import io
import sys
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_masked_ppo.py"


def _load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_masked_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


ex = _load_example()

N_STEPS = 128
TIMESTEPS = 256


@dataclass(frozen=True)
class Run:
    weights: dict[str, torch.Tensor]
    initial: dict[str, torch.Tensor]
    payments: tuple[float, ...]
    decisions: int
    actions: tuple[int, ...]


def _weights(model: MaskablePPO) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in model.policy.state_dict().items()}


def _train_and_evaluate(seed: int, tmp_path: Path) -> Run:
    torch.set_num_threads(1)
    env = ex.make_env("random", reward_scale=0.1)
    model = ex.new_model(env, seed, n_steps=N_STEPS, batch_size=64, n_epochs=2)
    initial = _weights(model)
    result = ex.train(model, timesteps=TIMESTEPS)
    assert (result.timesteps, result.updates) == (TIMESTEPS, TIMESTEPS // N_STEPS)
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / f"model_{seed}.zip"
    model.save(path)
    env.close()

    loaded = MaskablePPO.load(path, device="cpu")
    weights = _weights(loaded)
    assert weights.keys() == _weights(model).keys()
    assert all(torch.equal(weights[k], v) for k, v in _weights(model).items()), "the saved model is the trained one"

    policy = ex.model_policy(loaded)
    taken: list[int] = []

    def checked(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        action: int = policy(obs, mask)
        assert mask[action] == 1, f"the trained policy took the illegal action {action}"
        taken.append(action)
        return action

    ev = ex.evaluate(checked, hands=12, seed=50, opponents="random")
    assert ev.illegal == 0
    assert ev.hands == 12 and ev.decisions == len(taken) > 0
    return Run(weights, initial, ev.payments, ev.decisions, tuple(taken))


def test_it_trains_loads_plays_legally_and_repeats(tmp_path: Path) -> None:
    first = _train_and_evaluate(3, tmp_path / "a")
    assert any(not torch.equal(first.weights[k], first.initial[k]) for k in first.weights), "training changed nothing"
    again = _train_and_evaluate(3, tmp_path / "b")
    assert all(torch.equal(first.weights[k], again.weights[k]) for k in first.weights)
    assert (again.payments, again.decisions, again.actions) == (first.payments, first.decisions, first.actions)
    other = _train_and_evaluate(4, tmp_path / "c")
    assert any(not torch.equal(first.initial[k], other.initial[k]) for k in first.initial), "the seed is used"


def test_the_command_line_prints_its_figures(tmp_path: Path) -> None:
    out = tmp_path / "m.zip"
    argv = ["--timesteps", "64", "--n-steps", "64", "--eval-hands", "4", "--opponents", "random", "--quiet"]
    runs = []
    for _ in range(2):
        buffer = io.StringIO()
        with redirect_stdout(buffer):
            ex.main([*argv, "--out", str(out)])
        figures = dict(line.split(": ", 1) for line in buffer.getvalue().splitlines())
        runs.append({k: v for k, v in figures.items() if "seconds" not in k and "per_s" not in k})
    figures = runs[0]
    assert out.is_file() and out.with_name("m_untrained.zip").is_file()
    assert figures["timesteps"] == "64" and figures["eval_hands"] == "4"
    for name in ("trained", "untrained", "random"):
        assert figures[f"{name}_illegal_actions"] == "0"
        assert 0 <= float(figures[f"{name}_win_rate"]) <= 1
        low, high = (float(x) for x in figures[f"{name}_mean_payment_ci95"].strip("[]").split(","))
        assert low <= float(figures[f"{name}_mean_payment"]) <= high
    assert runs[1] == runs[0], "the same seed gives the same figures"
