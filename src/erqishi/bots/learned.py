"""The ``learned`` bot: a small neural network that values every legal action, trained by
simulation (``python -m erqishi.rl.train``, docs/learned-bot.md), played in pure Python.

The network estimates Q(view, action): the net payment of the hand for this seat (R-8,
score units) expected after the action. The bot takes a win (胡) whenever one is legal, as
the search bot does, and otherwise the candidate with the largest Q, the candidates being
every legal action but the discards the heuristic bot ranks below its best three (a
narrower cut than the search bot's four); exact ties go to the injected generator, so
seeded play repeats exactly. It only ever chooses one of ``view.legal`` and sees only its
:class:`PlayerView` (R-9).

Features (:func:`state_features`, :func:`action_features`) are built from the view alone:
the own concealed counts as thresholds, own melds and row, every other seat's melds, row,
hand size and 八块 announcement by its place after this seat, the unseen counts, the
pending card and who produced it, the phase, the stock, the 圈, and a few quantities of
the heuristic bot (:mod:`erqishi.bots.heuristic`): closeness to a win (shanten), the hand's
value, the live waits (下叫). Per action: its kind, the cards it uses, the hand after it,
the danger of a discard, whether the heuristic bot would choose it, the score of a win.

The network (weights in ``erqishi/bots/data/learned.npz``, read without numpy)::

    s (N_STATE) -> H1 relu -> z (H2 relu);   V = wv.z + bv
    a (N_ACTION), z -> H3 relu -> A = wo.u + bo
    Q = scale * (V + A)            (score units)

(the shipped weights: H1 = 256, H2 = 128, H3 = 128; the sizes are in the file). Inference
is pure Python on sparse inputs: the state part once per decision, a few sparse rows per
action (a few ms per decision).
"""

from __future__ import annotations

import ast
import io
import math
import random
import struct
import sys
import zipfile
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

from erqishi.bots.heuristic import REACH, HeuristicBot, _shanten_free
from erqishi.core import Card, HandAnalyzer
from erqishi.core.engine import HU, Action, ActionKind, Phase, PlayerView
from erqishi.core.errors import ErqishiError
from erqishi.core.hands import WinContext, find_waits
from erqishi.play._compiled import mypyc_attr

__all__ = [
    "FEATURE_VERSION",
    "N_ACTION",
    "N_STATE",
    "LearnedBot",
    "LearnedNet",
    "Sparse",
    "action_features",
    "decision_features",
    "load_npz",
    "state_features",
]

#: Bumped whenever a feature changes: weights record the version they were trained on.
FEATURE_VERSION: Final = 1

#: A sparse vector: (index, value) pairs, indices increasing within each block.
Sparse = list[tuple[int, float]]

_CARDS: Final = tuple(Card)
_KINDS: Final = (
    ActionKind.DISCARD,
    ActionKind.CHI,
    ActionKind.DUI,
    ActionKind.KAI,
    ActionKind.HU,
    ActionKind.PASS,
)
_KIND_INDEX: Final = {k: i for i, k in enumerate(_KINDS)}
_PHASES: Final = (Phase.OPENING, Phase.RESPONSE, Phase.DISCARD, Phase.OVER)

# ---- state layout ---------------------------------------------------------------
_S_HAND: Final = 0  # 80: card c held >= k (k = 1..4): 4c + k - 1
_S_MELDS: Final = 80  # 20: own meld cards / 4
_S_ROW: Final = 100  # 20: own row / 4
_S_OTHER: Final = 120  # 3 seats x 46, by place after this seat
_OTHER_W: Final = 46  # melds 20, row 20, hand size, 八块, meld hu, present, dealer, 下家 marker
_S_UNSEEN: Final = 258  # 20: unseen copies / 4
_S_PENDING: Final = 278  # 20: the pending card
_S_SOURCE: Final = 298  # 4: who produced it (place after this seat: 0 = itself)
_S_FLIP: Final = 302
_S_PHASE: Final = 303  # 4
_S_STOCK: Final = 307  # stock / 20, then stock < 4, < 8, < 12
_S_QUAN: Final = 311  # 10: the 圈 number
_S_DEALER: Final = 321
_S_PLAYERS: Final = 322  # 3: two, three or four players
_S_SHANTEN: Final = 325  # 8: shanten -1..6
_S_VALUE: Final = 333
_S_MELD_HU: Final = 334
_S_ANNOUNCED: Final = 335
_S_WAITS: Final = 336  # live waits / 5, best score / 50
#: Length of the state vector.
N_STATE: Final = 338

# ---- action layout --------------------------------------------------------------
_A_KIND: Final = 0  # 6
_A_USED: Final = 6  # 20: copies of each card the action takes from the hand / 4
_A_LOST: Final = 26  # 80: hand thresholds the action removes (4c + k - 1)
_A_SHANTEN: Final = 106  # 8: shanten after (a take: after its best follow-up discard)
_A_VALUE: Final = 114  # value after / 20, change / 4
_A_DANGER: Final = 116  # a discard's danger, and the same late in the hand
_A_PICK: Final = 118  # the heuristic bot's choice
_A_WAITS: Final = 119  # after a discard: live waits / 5, best score / 50, waits value / 100
_A_WIN: Final = 122  # the score of a win now / 50
_A_BIG: Final = 123  # a take of a big card
_A_NEXT_ROW: Final = 124  # the discard lies in the 下家's row
_A_UNSEEN: Final = 125  # unseen copies of the discard / 4
#: Length of an action vector.
N_ACTION: Final = 126

_HEURISTIC: Final = HeuristicBot()
_DISCARD_KIND: Final = ActionKind.DISCARD


def _place(view: PlayerView, seat: int) -> int:
    """How many places after the viewer ``seat`` sits (0: the viewer), in seat order."""
    n = len(view.seats)
    return (seat - view.seat) % n


def _shanten(counts: Sequence[int], groups: int, quads: int) -> int:
    """:func:`erqishi.bots.heuristic.shanten` with ``groups`` exposed groups (melds and
    groups an action would lay) and ``quads`` exposed quads."""
    fixed = groups
    for c in range(20):
        if counts[c] >= 3:
            fixed += 1
            quads += counts[c] == 4
    return _shanten_free(counts, max(0, 7 - fixed), quads)


def _value(counts: Sequence[int], groups: int, quads: int) -> tuple[int, float]:
    """(shanten, a quick value) of a hand: as :func:`erqishi.bots.heuristic.hand_value`
    without the melds' hu."""
    sh = _shanten(counts, groups, quads)
    value = -4.0 * sh
    for c in range(20):
        n = counts[c]
        if n == 3:
            value += 1.5 if c < 10 else 3.0
        elif n == 4:
            value += 4.5 if c < 10 else 6.0
        elif n == 2:
            value += 0.3 if c < 10 else 0.6
    return sh, value


def _live_waits(view: PlayerView, counts: Sequence[int], seen: Sequence[int]) -> tuple[int, int, int]:
    """(live waits, best score, sum of score x copies left) of the hand ``counts`` with the
    viewer's melds; zeros when it cannot wait."""
    cards = [_CARDS[c] for c in range(20) for _ in range(counts[c])]
    try:
        waits = find_waits(cards, view.seats[view.seat].melds, WinContext(quan=view.quan), view.rules)
    except ErqishiError:
        return 0, 0, 0
    n = best = total = 0
    for w in waits:
        left = 4 - seen[w.card] - counts[w.card]
        if left > 0:
            n += 1
            best = max(best, w.score)
            total += left * w.score
    return n, best, total


@dataclass(frozen=True, slots=True)
class _Context:
    """What the action features of one decision share."""

    counts: list[int]
    groups: int
    quads: int
    value: float
    seen_others: list[int]
    seen_all: list[int]
    pick: Action
    next_row: frozenset[int]


def _quarters(cards: Iterable[int], base: int) -> Sparse:
    """The copies of each card identity among ``cards``, a quarter each, at ``base + card``
    (cards with no copy left out, in card order)."""
    counts = [0] * 20
    for c in cards:
        counts[c] += 1
    return [(base + c, n / 4) for c, n in enumerate(counts) if n]


def state_features(view: PlayerView) -> tuple[Sparse, _Context]:
    """The state vector of ``view`` (length :data:`N_STATE`, sparse) and what the action
    features of the same decision need."""
    out: Sparse = []
    me = view.seats[view.seat]
    counts = [0] * 20
    for card in view.hand:
        counts[card] += 1
    for c in range(20):
        for k in range(counts[c]):
            out.append((_S_HAND + 4 * c + k, 1.0))
    quads = sum(len(g.cards) == 4 for g in me.melds)
    meld_hu = sum(g.hu for g in me.melds)
    out += _quarters((c for g in me.melds for c in g.cards), _S_MELDS)
    out += _quarters(me.row, _S_ROW)
    n_seats = len(view.seats)
    playing = set(view.order)
    for sv in view.seats:
        place = _place(view, sv.seat)
        if place == 0 or place > 3:
            continue
        base = _S_OTHER + (place - 1) * _OTHER_W
        hu = sum(g.hu for g in sv.melds)
        out += _quarters((c for g in sv.melds for c in g.cards), base)
        out += _quarters(sv.row, base + 20)
        out.append((base + 40, sv.hand_size / 20))
        if sv.announced:
            out.append((base + 41, 1.0))
        if hu:
            out.append((base + 42, hu / 20))
        if sv.seat in playing:
            out.append((base + 43, 1.0))
        if sv.seat == view.dealer:
            out.append((base + 44, 1.0))
        if place == 1:
            out.append((base + 45, 1.0))
    seen_all = view.seen()
    out += [(_S_UNSEEN + c, (4 - seen_all[c]) / 4) for c in range(20) if seen_all[c] < 4]
    if view.pending is not None:
        out.append((_S_PENDING + int(view.pending), 1.0))
        out.append((_S_SOURCE + min(3, _place(view, view.turn)), 1.0))
        if view.pending_flip:
            out.append((_S_FLIP, 1.0))
    out.append((_S_PHASE + _PHASES.index(view.phase), 1.0))
    stock = view.stock_left
    out.append((_S_STOCK, stock / 20))
    for i, limit in enumerate((4, 8, 12)):
        if stock < limit:
            out.append((_S_STOCK + 1 + i, 1.0))
    if view.quan is not None and 1 <= view.quan <= 10:
        out.append((_S_QUAN + view.quan - 1, 1.0))
    if view.dealer == view.seat:
        out.append((_S_DEALER, 1.0))
    out.append((_S_PLAYERS + min(2, max(0, n_seats - 2)), 1.0))
    groups = len(me.melds)
    sh, value = _value(counts, groups, quads)
    out.append((_S_SHANTEN + min(7, max(0, sh + 1)), 1.0))
    out.append((_S_VALUE, value / 20))
    if meld_hu:
        out.append((_S_MELD_HU, meld_hu / 20))
    if me.announced:
        out.append((_S_ANNOUNCED, 1.0))
    seen_others = view.seen(own_hand=False)
    if sh <= 0 and view.phase is Phase.RESPONSE:
        n, best, _ = _live_waits(view, counts, seen_others)
        if n:
            out.append((_S_WAITS, n / 5))
            out.append((_S_WAITS + 1, best / 50))
    order = view.order
    nxt = order[(order.index(view.seat) + 1) % len(order)] if view.seat in order else view.seat
    pick = _HEURISTIC.choose(view, random.Random(0)) if len(view.legal) > 1 else view.legal[0]
    ctx = _Context(
        counts, groups, quads, value, seen_others, seen_all, pick, frozenset(int(c) for c in view.seats[nxt].row)
    )
    return out, ctx


def _used(view: PlayerView, action: Action) -> list[int]:
    """Copies of each card ``action`` takes from the concealed hand."""
    used = [0] * 20
    kind = action.kind
    if kind is ActionKind.DISCARD or kind is ActionKind.CHI:
        for c in action.cards:
            used[c] += 1
        for g in action.bai:
            for c in g:
                used[c] += 1
    elif kind is ActionKind.DUI and view.pending is not None:
        used[view.pending] += 2
    elif kind is ActionKind.KAI and view.pending is not None:
        used[view.pending] += 3
    return used


def _worst_free(counts: Sequence[int]) -> int:
    """The free card (held once or twice) with the fewest partners, -1 if none."""
    best, best_worth = -1, 1e9
    for c in range(20):
        if 1 <= counts[c] <= 2:
            worth = sum(1 for p in REACH[c] if 1 <= counts[p] <= 2) + (1.5 if counts[c] == 2 else 0.0)
            if worth < best_worth:
                best, best_worth = c, worth
    return best


def action_features(view: PlayerView, action: Action, ctx: _Context) -> Sparse:
    """The vector of ``action`` in the decision of ``view`` (length :data:`N_ACTION`,
    sparse); ``ctx`` from :func:`state_features` of the same view."""
    out: Sparse = [(_A_KIND + _KIND_INDEX[action.kind], 1.0)]
    counts = ctx.counts
    used = _used(view, action)
    after = list(counts)
    for c in range(20):
        n = used[c]
        if n:
            out.append((_A_USED + c, n / 4))
            have = counts[c]
            for k in range(max(0, have - n), have):
                out.append((_A_LOST + 4 * c + k, 1.0))
            after[c] = max(0, have - n)
    kind = action.kind
    groups, quads = ctx.groups, ctx.quads
    if kind is ActionKind.CHI:
        groups += 1 + len(action.bai)
    elif kind is ActionKind.DUI:
        groups += 1
    elif kind is ActionKind.KAI:
        groups += 1
        quads += 1
    if kind in (ActionKind.CHI, ActionKind.DUI, ActionKind.KAI):
        worst = _worst_free(after)
        if worst >= 0:
            after[worst] -= 1
        if view.pending is not None and view.pending >= 10:
            out.append((_A_BIG, 1.0))
    sh, value = _value(after, groups, quads)
    out.append((_A_SHANTEN + min(7, max(0, sh + 1)), 1.0))
    out.append((_A_VALUE, value / 20))
    out.append((_A_VALUE + 1, (value - ctx.value) / 4))
    if kind is ActionKind.DISCARD:
        c = action.cards[0]
        unseen = 4 - ctx.seen_others[c] - counts[c]
        if unseen > 0:
            danger = unseen / 4 * (0.5 if c in ctx.next_row else 1.0)
            out.append((_A_DANGER, danger))
            if view.stock_left < 8:
                out.append((_A_DANGER + 1, danger))
            out.append((_A_UNSEEN, unseen / 4))
        if c in ctx.next_row:
            out.append((_A_NEXT_ROW, 1.0))
        if sh <= 0:
            n, best, total = _live_waits(view, after, ctx.seen_others)
            if n:
                out += [(_A_WAITS, n / 5), (_A_WAITS + 1, best / 50), (_A_WAITS + 2, total / 100)]
    if action == ctx.pick:
        out.append((_A_PICK, 1.0))
    if kind is ActionKind.HU:
        score = _win_score(view, counts)
        if score:
            out.append((_A_WIN, score / 50))
    out.sort()
    return out


def _win_score(view: PlayerView, counts: Sequence[int]) -> int:
    """The score (R-7.4) of winning now on the pending card; 0 for 天胡 or no win."""
    if view.pending is None:
        return 0
    cards = [_CARDS[c] for c in range(20) for _ in range(counts[c])]
    try:
        return HandAnalyzer(cards, view.seats[view.seat].melds, view.rules).score(
            view.pending, WinContext(quan=view.quan)
        )
    except ErqishiError:
        return 0


def decision_features(view: PlayerView) -> tuple[Sparse, list[Sparse]]:
    """The state vector and one action vector per action of ``view.legal``, in order."""
    state, ctx = state_features(view)
    return state, [action_features(view, a, ctx) for a in view.legal]


# ---- weights ----------------------------------------------------------------------


def _read_npy(data: bytes) -> tuple[tuple[int, ...], list[float]]:
    """One ``.npy`` array of little-endian float32 (format 1.0-3.0): its shape and values.

    Raises:
        ValueError: not a ``.npy`` of C-ordered float32 (a damaged header too).
    """
    if data[:6] != b"\x93NUMPY" or len(data) < 12:
        raise ValueError("not a .npy array")
    major = data[6]
    if major == 1:
        (hlen,) = struct.unpack("<H", data[8:10])
        start = 10
    else:
        (hlen,) = struct.unpack("<I", data[8:12])
        start = 12
    try:
        header = ast.literal_eval(data[start : start + hlen].decode("latin1"))
        shape = tuple(int(d) for d in header["shape"])
        ok = isinstance(header, dict) and header.get("descr") == "<f4" and not header.get("fortran_order")
    except (SyntaxError, ValueError, TypeError, KeyError, MemoryError, RecursionError):
        raise ValueError("its .npy header cannot be read") from None
    if not ok:
        raise ValueError(f"expected C-ordered little-endian float32, got {header!r}"[:200])
    values = array("f")
    body = data[start + hlen :]
    if len(body) % 4:
        raise ValueError(f"array of shape {shape} ends in the middle of a value")
    values.frombytes(body)
    if sys.byteorder != "little":
        values.byteswap()
    size = 1
    for d in shape:
        size *= d
    if len(values) != size:
        raise ValueError(f"array of shape {shape} holds {len(values)} values")
    return shape, values.tolist()


def load_npz(path: str | Path | None = None) -> dict[str, tuple[tuple[int, ...], list[float]]]:
    """The float32 arrays of an ``.npz`` file (numpy's zip of ``.npy``), read without numpy:
    name -> (shape, values in C order). ``path`` None: the shipped weights.

    Raises:
        OSError: the file cannot be read (a missing shipped file is a ValueError).
        ValueError: it is not an ``.npz`` of float32 arrays; the message names the file and
            the array.
    """
    if path is None:
        where = "the learned bot's shipped weights (erqishi/bots/data/learned.npz)"
        try:
            raw = resources.files("erqishi.bots").joinpath("data/learned.npz").read_bytes()
        except OSError as exc:
            raise ErqishiError(
                f"{where} cannot be read ({exc.strerror or exc}): reinstall erqishi",
                zh=f"learned 机器人自带的权重文件读不了（{exc.strerror or exc}）：请重新安装 erqishi",
            ) from None
        where_zh = "learned 机器人自带的权重"
    else:
        where = where_zh = str(path)
        raw = Path(path).read_bytes()
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            arrays = {}
            for name in z.namelist():
                if name.endswith(".npy"):
                    try:
                        arrays[name.removesuffix(".npy")] = _read_npy(z.read(name))
                    except ValueError as exc:
                        array_name = name.removesuffix(".npy")
                        raise ErqishiError(
                            f"{where}: array {array_name!r}: {exc}", zh=f"{where_zh}：数组 {array_name} 坏了（{exc}）"
                        ) from None
            return arrays
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, RuntimeError) as exc:
        # RuntimeError: an encrypted member
        zh = f"{where_zh} 不是 .npz 权重文件（{exc}）"
        raise ErqishiError(f"{where}: not an .npz file ({exc})", zh=zh) from None


def _rows(shape: tuple[int, ...], values: list[float]) -> list[list[float]]:
    n, m = shape
    return [values[i * m : (i + 1) * m] for i in range(n)]


def _accumulate(acc: list[float], rows: list[list[float]], sparse: Sparse) -> list[float]:
    """``acc + sum(x * rows[i] for i, x in sparse)``."""
    for i, x in sparse:
        row = rows[i]
        if x == 1.0:
            acc = [a + w for a, w in zip(acc, row, strict=True)]
        else:
            acc = [a + x * w for a, w in zip(acc, row, strict=True)]
    return acc


def _relu_sparse(v: list[float]) -> Sparse:
    return [(i, x) for i, x in enumerate(v) if x > 0.0]


def _dot(a: list[float], b: list[float]) -> float:
    return sum([x * y for x, y in zip(a, b, strict=True)])


@mypyc_attr(allow_interpreted_subclasses=True)
def weight_shapes(h1: int, h2: int, h3: int) -> dict[str, tuple[int, ...]]:
    """The name and shape of every array of a network with hidden sizes ``h1``, ``h2``,
    ``h3`` (the state trunk, the value head and the action head), as the weights file holds
    them."""
    return {
        "W1": (N_STATE, h1),
        "b1": (h1,),
        "W2": (h1, h2),
        "b2": (h2,),
        "wv": (h2,),
        "bv": (1,),
        "Wz": (h2, h3),
        "Wa": (N_ACTION, h3),
        "ba": (h3,),
        "wo": (h3,),
        "bo": (1,),
    }


class LearnedNet:
    """The network of the module text, in pure Python.

    Args:
        arrays: from :func:`load_npz`: ``W1`` (N_STATE x H1), ``b1``, ``W2`` (H1 x H2),
            ``b2``, ``wv`` (H2), ``bv`` (1), ``Wz`` (H2 x H3), ``Wa`` (N_ACTION x H3),
            ``ba`` (H3), ``wo`` (H3), ``bo`` (1), ``meta`` (feature version, N_STATE,
            N_ACTION, H1, H2, H3, scale). Weight matrices are input-major.

    Raises:
        ValueError: arrays missing, of the wrong shape, holding nan or inf, or trained on other
            features.
    """

    def __init__(self, arrays: dict[str, tuple[tuple[int, ...], list[float]]]) -> None:
        try:
            meta = arrays["meta"][1]
            if len(meta) < 7:
                raise ValueError(f"meta holds {len(meta)} values, expected 7")
            for name, (_shape, values) in arrays.items():
                if not all(map(math.isfinite, values)):
                    raise ValueError(f"{name} holds a value that is not a finite number (nan or inf)")
            if int(meta[0]) != FEATURE_VERSION or int(meta[1]) != N_STATE or int(meta[2]) != N_ACTION:
                raise ValueError(f"weights for features {meta[:3]}, this code has {FEATURE_VERSION, N_STATE, N_ACTION}")
            h1, h2, h3 = int(meta[3]), int(meta[4]), int(meta[5])
            self.scale = float(meta[6])
            expect = weight_shapes(h1, h2, h3)
            for name, shape in expect.items():
                if arrays[name][0] != shape:
                    raise ValueError(f"{name} has shape {arrays[name][0]}, expected {shape}")
        except KeyError as exc:
            raise ErqishiError(f"the weights lack the array {exc}", zh=f"权重文件缺数组 {exc}") from None
        except ErqishiError:
            raise
        except (ValueError, TypeError, IndexError) as exc:
            raise ErqishiError(f"the weights cannot be used: {exc}", zh=f"权重不能用：{exc}") from None
        self.W1 = _rows(*arrays["W1"])
        self.b1 = arrays["b1"][1]
        self.W2 = _rows(*arrays["W2"])
        self.b2 = arrays["b2"][1]
        self.wv = arrays["wv"][1]
        self.bv = arrays["bv"][1][0]
        self.Wz = _rows(*arrays["Wz"])
        self.Wa = _rows(*arrays["Wa"])
        self.ba = arrays["ba"][1]
        self.wo = arrays["wo"][1]
        self.bo = arrays["bo"][1][0]

    def evaluate(self, state: Sparse, actions: Sequence[Sparse]) -> tuple[float, list[float]]:
        """(V, [Q per action]) in score units: V the network's value of the state, Q the
        expected net payment of the hand after each action."""
        h1 = _relu_sparse(_accumulate(list(self.b1), self.W1, state))
        z = _relu_sparse(_accumulate(list(self.b2), self.W2, h1))
        v = self.bv + sum([x * self.wv[i] for i, x in z])
        base = _accumulate(list(self.ba), self.Wz, z)
        qs = []
        for a in actions:
            u = _accumulate(base, self.Wa, a)
            adv = self.bo + sum([x * w for x, w in zip(u, self.wo, strict=True) if x > 0.0])
            qs.append(self.scale * (v + adv))
        return self.scale * v, qs


_SHIPPED: list[LearnedNet] = []


def _shipped() -> LearnedNet:
    if not _SHIPPED:
        _SHIPPED.append(LearnedNet(load_npz()))
    return _SHIPPED[0]


@mypyc_attr(allow_interpreted_subclasses=True)  # users subclass it, in both builds
class LearnedBot:
    """Plays the action of ``view.legal`` with the largest learned Q (module text).

    Args:
        net: the network; None loads the shipped weights (once per process).
        weights: a ``.npz`` file to load instead of the shipped weights.
        epsilon: with this probability a uniformly random legal action instead (training's
            exploration; 0 when playing).
        width: the discards it weighs are the heuristic bot's best ``width`` (as the search
            bot cuts its candidates; 0 weighs every legal discard). The network's values
            of the discards the heuristic ranks low are the least reliable: it sees few of
            them played.
        always_hu: a win (胡) on offer is always taken, as the search bot does (R-6.1;
            declining it, 过胡 R-6.2, is then never chosen).

    Raises:
        ValueError, OSError: the weights cannot be loaded (:func:`load_npz`, :class:`LearnedNet`).
    """

    name = "learned"

    def __init__(
        self,
        net: LearnedNet | None = None,
        *,
        weights: str | Path | None = None,
        epsilon: float = 0.0,
        width: int = 3,
        always_hu: bool = True,
    ) -> None:
        if net is None:
            net = LearnedNet(load_npz(weights)) if weights is not None else _shipped()
        self.net = net
        self.epsilon = epsilon
        self.width = width
        self.always_hu = always_hu

    def values(self, view: PlayerView) -> tuple[float, list[tuple[Action, float]]]:
        """(V, [(action, Q)] for every action of ``view.legal`` in order), score units (R-8)."""
        state, actions = decision_features(view)
        v, qs = self.net.evaluate(state, actions)
        return v, list(zip(view.legal, qs, strict=True))

    def candidates(self, view: PlayerView) -> list[Action]:
        """The actions of ``view.legal`` the bot weighs, in their order: 胡 alone when it is
        legal and ``always_hu``; otherwise every non-discard and the heuristic bot's best
        ``width`` discards."""
        legal = view.legal
        if self.always_hu and HU in legal:
            return [HU]
        discards = [a for a in legal if a.kind is _DISCARD_KIND]
        if not self.width or len(discards) <= self.width:
            return list(legal)
        keep = {a for _, a in _HEURISTIC._discard_scores(view, discards)[: self.width]}
        return [a for a in legal if a.kind is not _DISCARD_KIND or a in keep]

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The candidate (:meth:`candidates`) with the largest Q; exact ties (and
        exploration, uniform over ``view.legal``) by ``rng``."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if self.epsilon and rng.random() < self.epsilon:
            return rng.choice(legal)
        candidates = self.candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        # features of the candidates only: an action's Q does not depend on the others
        state, ctx = state_features(view)
        _, qs = self.net.evaluate(state, [action_features(view, a, ctx) for a in candidates])
        best = max(qs)
        top = [a for a, q in zip(candidates, qs, strict=True) if q >= best]
        return top[0] if len(top) == 1 else rng.choice(top)
