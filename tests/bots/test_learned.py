"""The ``learned`` bot (issue 12): the shipped weights load, it plays only legal moves for
every player count, seeded play repeats, exact ties go to the injected generator, its
weight reader agrees with numpy, and the hints say what its suggestion expects."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from erqishi.bots import BOTS, HeuristicBot, LearnedBot, make_bot
from erqishi.bots.learned import N_ACTION, N_STATE, LearnedNet, decision_features, load_npz, weight_shapes
from erqishi.core import RuleSet
from erqishi.core.engine import HU, Action, ActionKind, Deal, Phase, PlayerView, apply, new_hand, view
from erqishi.core.errors import ErqishiError
from erqishi.play import play_hand, table_chooser
from erqishi.play.hints import Advice, suggest
from erqishi.play.step import asked, resolve

RULES = {2: RuleSet.preset("duikou"), 3: RuleSet(), 4: RuleSet.from_options({"players": 4})}


class Checked:
    """Wraps a bot: it must answer from ``view.legal``; counts its calls."""

    def __init__(self, inner: LearnedBot) -> None:
        self.inner, self.name, self.calls = inner, inner.name, 0

    def choose(self, v: PlayerView, rng: random.Random) -> Action:
        action = self.inner.choose(v, rng)
        assert action in v.legal, (action, v.legal)
        self.calls += 1
        return action


def test_registered_and_shipped() -> None:
    assert "learned" in BOTS
    bot = make_bot("learned")
    assert isinstance(bot, LearnedBot) and bot.name == "learned"
    arrays = load_npz()  # the shipped weights, from the package
    assert arrays["W1"][0][0] == N_STATE and arrays["Wa"][0][0] == N_ACTION
    assert Path(__file__).parents[2].joinpath("src/erqishi/bots/data/learned.npz").stat().st_size < 4_000_000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_only_legal_moves(players: int) -> None:
    rules = RULES[players]
    rng = random.Random(100 + players)
    calls = 0
    for game in range(12):
        bots = [Checked(LearnedBot()) for _ in range(players)]
        if game % 3 == 0:  # against the heuristic bot too
            bots[1:] = [HeuristicBot()] * (players - 1)  # type: ignore[list-item]
        rngs = [random.Random(rng.random()) for _ in range(players)]
        played = play_hand(Deal.shuffled(rng, game % players, rules), table_chooser(bots, rngs), rules)
        assert played.final.is_over and sum(played.outcome.payments) == 0
        calls += sum(b.calls for b in bots if isinstance(b, Checked))
    assert calls > 100


def test_seeded_play_repeats() -> None:
    def record(seed: int) -> str:
        rng = random.Random(seed)
        bots = [make_bot("learned"), make_bot("heuristic"), make_bot("learned")]
        rngs = [random.Random(seed * 10 + s) for s in range(3)]
        return str(play_hand(Deal.shuffled(rng, seed % 3), table_chooser(bots, rngs)).to_json())

    assert [record(s) for s in (1, 2)] == [record(s) for s in (1, 2)]


def _zero_net() -> LearnedNet:
    """A network whose every weight is 0: every action has the same Q."""
    h1, h2, h3 = 4, 3, 5
    shapes = weight_shapes(h1, h2, h3)
    arrays: dict[str, tuple[tuple[int, ...], list[float]]] = {}
    for name, shape in shapes.items():
        size = 1
        for d in shape:
            size *= d
        arrays[name] = (shape, [0.0] * size)
    arrays["meta"] = ((7,), [1.0, float(N_STATE), float(N_ACTION), float(h1), float(h2), float(h3), 10.0])
    return LearnedNet(arrays)


def test_exact_ties_go_to_the_generator() -> None:
    v = view(new_hand(Deal.shuffled(random.Random(4), 0)), 0)  # the dealer's opening: many discards
    assert len(v.legal) > 5
    bot = LearnedBot(_zero_net())
    _, values = bot.values(v)
    assert {q for _, q in values} == {0.0}
    picks = [bot.choose(v, random.Random(seed)) for seed in range(30)]
    assert picks == [bot.choose(v, random.Random(seed)) for seed in range(30)]
    assert len(set(picks)) > 1  # not always the first action
    assert all(p in v.legal for p in picks)


def test_rejects_other_features() -> None:
    net = _zero_net()
    arrays = {"meta": ((7,), [99.0, float(N_STATE), float(N_ACTION), 4.0, 3.0, 5.0, 10.0])}
    with pytest.raises(ValueError, match="features"):
        LearnedNet(arrays)
    assert net.scale == 10.0


def test_npz_reader_matches_numpy(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    gen = np.random.default_rng(5)
    a = gen.normal(size=(3, 4)).astype(np.float32)
    b = gen.normal(size=(7,)).astype(np.float32)
    path = tmp_path / "w.npz"
    np.savez(path, a=a, b=b)
    got = load_npz(path)
    assert got["a"][0] == (3, 4) and got["b"][0] == (7,)
    assert got["a"][1] == [float(x) for x in a.ravel()]
    assert got["b"][1] == [float(x) for x in b]
    np.savez(path, f=np.asfortranarray(a), d=a.astype(np.float64))
    with pytest.raises(ValueError):
        load_npz(path)
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError):
        load_npz(tmp_path / "bad.npz")


def test_features_have_their_lengths() -> None:
    state = new_hand(Deal.shuffled(random.Random(8), 1))
    v = view(state, 1)
    s, actions = decision_features(v)
    assert all(0 <= i < N_STATE for i, _ in s)
    assert len(actions) == len(v.legal)
    assert all(0 <= i < N_ACTION for a in actions for i, _ in a)


def _decisions(bot: LearnedBot, rng: random.Random, hands: int) -> Iterator[tuple[PlayerView, Action, float]]:
    """``bot`` in every seat of ``hands`` seeded hands: each view it decided, its choice and
    the seconds the choice took."""
    for d in range(hands):
        state = new_hand(Deal.shuffled(rng, d % 3))
        while state.phase is not Phase.OVER:
            declared = {}
            for s in asked(state):
                v = view(state, s)
                t = time.perf_counter()
                action = declared[s] = bot.choose(v, rng)
                yield v, action, time.perf_counter() - t
            state = apply(state, *resolve(state, declared))


def test_decisions_are_fast() -> None:
    """The median decision is well under the 5 ms of the issue on an idle core; the bound
    here is loose for a busy test machine."""
    times = []
    bot = LearnedBot()
    for _v, _action, seconds in _decisions(bot, random.Random(2), 4):
        times.append(seconds)
    assert statistics.median(times) < 0.02


def test_a_win_is_taken_and_discards_come_from_the_heuristics_best() -> None:
    """Like the search bot: 胡 whenever it is legal (R-6.1), and a discard only among the
    heuristic bot's best ``width`` (its own ranking, asked here directly)."""
    ranker = HeuristicBot()
    rng = random.Random(12)
    wins = narrowed = 0
    for width in (3, 1):
        for v, action, _seconds in _decisions(LearnedBot(width=width), rng, 10):
            assert action in v.legal
            if HU in v.legal:
                assert action == HU
                wins += 1
            discards = [a for a in v.legal if a.kind is ActionKind.DISCARD]
            if action.kind is ActionKind.DISCARD and len(discards) > width:
                best = [a for _, a in ranker._discard_scores(v, discards)[:width]]
                assert action in best
                narrowed += 1
    assert wins > 0 and narrowed > 20
    # with width 0 and always_hu off it weighs every legal action
    v = view(new_hand(Deal.shuffled(random.Random(4), 0)), 0)
    assert LearnedBot(width=0, always_hu=False).candidates(v) == list(v.legal)
    assert len(LearnedBot(width=3).candidates(v)) == 3 + sum(a.kind is not ActionKind.DISCARD for a in v.legal)


def test_hint_says_what_the_learned_bot_expects() -> None:
    v = view(new_hand(Deal.shuffled(random.Random(4), 0)), 0)
    advice = suggest(v, LearnedBot(), random.Random(1))
    assert isinstance(advice, Advice) and advice.action in v.legal
    assert advice.action.kind is ActionKind.DISCARD and advice.expected is not None
    assert "预计本局净得" in advice.describe("zh") and "expects" in advice.describe("en")
    plain = suggest(v, HeuristicBot(), random.Random(1))
    assert plain is not None and plain.expected is None and plain.action in v.legal


def _shipped_arrays() -> dict[str, tuple[tuple[int, ...], list[float]]]:
    return {name: (shape, list(values)) for name, (shape, values) in load_npz().items()}


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        (lambda a: a["bo"][1].__setitem__(0, float("nan")), "bo"),
        (lambda a: a["bv"][1].__setitem__(0, float("inf")), "bv"),
        (lambda a: a["W1"][1].__setitem__(5, float("nan")), "W1"),
        (lambda a: a.__setitem__("meta", ((3,), a["meta"][1][:3])), "meta"),
        (lambda a: a.pop("Wa"), "Wa"),
    ],
)
def test_damaged_weights_are_refused_naming_the_array(
    damage: Callable[[dict[str, tuple[tuple[int, ...], list[float]]]], object], named: str
) -> None:
    """Weights holding nan or inf, a short meta or a missing array would make the bot play
    at random or fail inside a game (every Q nan: no best action); they are refused when
    loaded, naming the array, in both languages."""
    arrays = _shipped_arrays()
    damage(arrays)
    with pytest.raises(ErqishiError, match=named) as caught:
        LearnedNet(arrays)
    assert caught.value.zh and isinstance(caught.value, ValueError)


def test_a_damaged_npz_names_the_file_and_the_array(tmp_path: Path) -> None:
    import io
    import zipfile

    np = pytest.importorskip("numpy")
    good = io.BytesIO()
    np.save(good, np.zeros(3, dtype=np.float32))
    bad = bytearray(good.getvalue())
    bad[bad.index(b"{'descr'")] = ord("(")  # the array's header no longer reads
    path = tmp_path / "w.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("good.npy", good.getvalue())
        z.writestr("worse.npy", bytes(bad))
    with pytest.raises(ErqishiError, match=r"w\.npz: array 'worse'") as caught:
        load_npz(path)
    assert "worse" in caught.value.zh
    raw = path.read_bytes()
    (tmp_path / "cut.npz").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(ErqishiError, match=r"cut\.npz: not an \.npz file"):
        load_npz(tmp_path / "cut.npz")
