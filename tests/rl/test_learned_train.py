"""Training the learned bot (``python -m erqishi.rl.train``, issue 12): a tiny run goes end
to end, writes checkpoints and curves, resumes where it stopped; the pure-Python network
of the bot computes what the torch network computes on the same weights.

Needs the ``train`` extra (torch); the suite runs with everything installed."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import numpy as np
import pytest
import torch

from erqishi.bots.learned import LearnedBot, LearnedNet, decision_features, load_npz
from erqishi.core.engine import Deal, Phase, apply, new_hand, view
from erqishi.play.step import asked, resolve
from erqishi.rl.train.generate import ChunkTask, dense, generate_chunk
from erqishi.rl.train.model import QNet, export_npz
from erqishi.rl.train.pipeline import Config, load_config, main, run

TINY = """
seed = 5
rounds = 2
hands = [2, 2]
chunk_hands = 1
label_prob = 0.15
epochs = 1
batch = 16
eval_heuristic = 2
workers = 1
threads = 1
h1 = 16
h2 = 8
h3 = 16
"""


def _views(n: int) -> list:  # type: ignore[type-arg]
    """The views of the seats asked in seeded hands, until ``n`` of them."""
    out = []
    rng = random.Random(3)
    bot = LearnedBot()
    while len(out) < n:
        state = new_hand(Deal.shuffled(rng, rng.randrange(3)))
        while state.phase is not Phase.OVER and len(out) < n:
            declared = {}
            for s in asked(state):
                v = view(state, s)
                out.append(v)
                declared[s] = bot.choose(v, rng)
            state = apply(state, *resolve(state, declared))
    return out


def test_numpy_free_inference_equals_torch(tmp_path: Path) -> None:
    torch.manual_seed(0)
    net = QNet(24, 12, 20, scale=7.5)
    with torch.no_grad():  # biases away from zero, so they count
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    export_npz(net, tmp_path / "w.npz")
    mine = LearnedNet(load_npz(tmp_path / "w.npz"))
    bot = LearnedBot(mine, width=0, always_hu=False)  # it weighs every legal action
    for v in _views(40):
        s, actions = decision_features(v)
        st = torch.from_numpy(dense(s, 338)).unsqueeze(0)
        at = torch.stack([torch.from_numpy(dense(a, 126)) for a in actions])
        owner = torch.zeros(len(actions), dtype=torch.int64)
        with torch.no_grad():
            expected = net.q(st, at, owner).tolist()
        _, got = mine.evaluate(s, actions)
        assert got == pytest.approx(expected, rel=1e-4, abs=1e-4)
        best = max(range(len(expected)), key=lambda i: expected[i])
        if sorted(expected)[-1] - sorted(expected)[-2 if len(expected) > 1 else -1] > 1e-3 or len(expected) == 1:
            assert bot.choose(v, random.Random(0)) == v.legal[best]


def test_tiny_run_checkpoints_and_resumes(tmp_path: Path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    folder = tmp_path / "run"
    assert main([str(config), "--run-dir", str(folder)]) == 0
    for name in ("ckpt/latest.pt", "ckpt/round000.pt", "ckpt/round001.pt", "weights/round001.npz", "curves.csv"):
        assert (folder / name).exists(), name
    assert (folder / "curves.png").exists()
    with (folder / "curves.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["round"] for r in rows] == ["0", "0", "1", "1"]
    assert rows[1]["eval_heuristic"] != "" and rows[0]["loss_a"] != ""
    chunks = sorted((folder / "data").glob("*.npz"))
    stamps = {p: p.stat().st_mtime_ns for p in chunks}
    # the weights play
    bot = LearnedBot(weights=folder / "weights" / "round001.npz")
    v = _views(1)[0]
    assert bot.choose(v, random.Random(1)) in v.legal

    # the same folder again without --resume is refused; with it, a third round follows
    assert main([str(config), "--run-dir", str(folder)]) == 2
    cfg = load_config(config)
    cfg.rounds = 3
    final = run(cfg, folder, resume=True)
    assert final.name == "round002.npz" and final.exists()
    assert {p: p.stat().st_mtime_ns for p in chunks} == stamps  # earlier data kept, not redone
    ck = torch.load(folder / "ckpt" / "latest.pt", weights_only=True)
    assert ck["round"] == 2 and ck["epoch"] == 1
    with (folder / "curves.csv").open(newline="") as f:
        assert [r["round"] for r in csv.DictReader(f)] == ["0", "0", "1", "1", "2", "2"]


def test_unknown_config_keys_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("seed = 1\nlearning_rate = 3\n")
    with pytest.raises(ValueError, match="learning_rate"):
        load_config(bad)
    assert Config().hands_in(5) == 2000


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ('seed = "x"', "seed must be a whole number 0 or more"),
        ("seed = -1", "seed must be a whole number 0 or more"),
        ("hands = -5", "hands must be a whole number 1 or more"),
        ("hands = [100, 0]", "hands must be a whole number 1 or more"),
        ("workers = 0", "workers must be a whole number 1 or more"),
        ("label_prob = 0", "label_prob must be more than 0 and at most 1"),
        ("epsilon = 1.5", "epsilon must be 0 or more and at most 1"),
        ('lr = "fast"', "lr must be a number"),
        ('rules = "nope"', "rules must be a preset or JSON options"),
        ("export = 3", "export must be text"),
    ],
)
def test_config_values_are_checked_before_the_run(tmp_path: Path, line: str, named: str) -> None:
    """A value the run could not use is one error naming the file and the key, before
    anything runs (a bad seed reached torch, a negative hand count a late RuntimeError)."""
    bad = tmp_path / "bad.toml"
    bad.write_text(line + "\n")
    with pytest.raises(ValueError, match=named) as caught:
        load_config(bad)
    assert str(caught.value).startswith(f"{bad}: ")


def test_rule_playouts_label_every_action_and_repeat(tmp_path: Path) -> None:
    """``playout = "rule"``: every legal action of a labelled decision gets a target (two or
    more per decision), targets are whole R-8 payments, and the same seed writes the same
    file."""
    arrays = []
    for name in ("a", "b"):
        task = ChunkTask(str(tmp_path / f"{name}.npz"), 11, 2, "leshan", None, 0.5, 0.03, "rule")
        stats = generate_chunk(task)
        assert stats.hands == 2 and stats.decisions > 0 and stats.actions >= 2 * stats.decisions
        with np.load(task.path) as z:
            arrays.append({k: z[k].copy() for k in ("S", "A", "T", "D")})
    a, b = arrays
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    assert np.bincount(a["D"]).min() >= 2  # every decision has at least two actions
    assert np.array_equal(a["T"], np.round(a["T"]))  # payments are whole score units
    assert len(a["S"]) == len(np.unique(a["D"]))


def test_an_unknown_playout_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="playout"):
        generate_chunk(ChunkTask(str(tmp_path / "x.npz"), 1, 1, "leshan", None, 0.5, 0.0, "sampled"))
    bad = tmp_path / "bad.toml"
    bad.write_text('playout = "sampled"\n')
    with pytest.raises(ValueError, match="playout"):
        load_config(bad)


def test_compare_pairs_variants_on_the_same_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m erqishi.rl.train.compare``: the same variant twice plays the same games
    (its paired difference is exactly 0); a playing rule that weighs other moves plays
    other games; a bad variant is refused naming it."""
    from erqishi.rl.train.compare import main as compare_main
    from erqishi.rl.train.compare import parse_variant

    torch.manual_seed(3)
    weights = tmp_path / "w.npz"
    export_npz(QNet(16, 8, 16), weights)
    w = str(weights)
    assert (
        compare_main([f"{w}:3:1", f"{w}:3:1", f"{w}:0:0", "--opponent", "random", "--deals", "6", "--workers", "1"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5 and all("±" in line for line in lines)
    assert lines[3] == f"{w}:3:1 - {w}:3:1  +0.000 ± 0.000"
    assert parse_variant(f"{w}:0:0") == parse_variant(f"{w}:0:0")
    v = parse_variant(w)
    assert (v.width, v.always_hu) == (3, True)
    assert compare_main([f"{w}:2:7"]) == 2
    assert "HU must be 0 or 1" in capsys.readouterr().err
    assert compare_main([str(tmp_path / "none.npz")]) == 2
    assert "no weights file" in capsys.readouterr().err
