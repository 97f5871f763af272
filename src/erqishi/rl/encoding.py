"""The observation of ``erqishi_v0``: planes over the 20 card identities, built from one
seat's :class:`~erqishi.core.engine.PlayerView` (R-9) and that seat's own marks.

The observation is a ``float32`` array of shape ``(planes, 20)`` with values in
``[0, 1]``; column ``c`` is the card of value ``c`` (0–9 一…十, 10–19 壹…拾, R-1.1). A
*constant* plane holds one number in all 20 columns. There are ``21 + 22 × players``
planes: 21 about the table and the viewer, then 22 per seat, seats taken relative to the
viewer (block 0 the viewer, block 1 its 下家 in seat order, and so on, FORMATS.md "Seats").

Table and viewer (planes 0–20):

===== ================= ===============================================================
plane name              meaning
===== ================= ===============================================================
0–3   ``hand_1``…``4``  own concealed hand: 1 where it holds at least 1 … 4 copies
4–7   ``unseen_1``…``4`` copies the viewer has not seen (4 minus its hand, every meld,
                        every row and the pending card): at least 1 … 4
8     ``pending``       the card waiting for responses (response phase), one-hot
9     ``pending_flip``  constant 1: the pending card was flipped (翻)
10    ``pending_discard`` constant 1: the pending card was discarded (打)
11–14 ``phase_*``       constant 1 for the phase: opening, response, discard, over
15    ``stock``         constant: stock cards left / stock size (19, or 39 with two players)
16    ``quan_card``     the 圈 card (R-2.4: the big card of the 圈's rank), one-hot; 0
                        when the hand has no 圈胡
17    ``guozhang``      own 过张 marks (R-5.9): identities the viewer may no longer 吃
18    ``huilong``       own 回笼 marks (R-5.9, R-6.2): identities it discarded from its hand
19    ``guohu``         constant 1: the viewer declined a win since its last take (过胡, R-6.2)
20    ``guohu_score``   constant: log2(1 + the best declined score) / 16, at most 1
===== ================= ===============================================================

Each seat (22 planes from ``21 + 22 × r`` for the seat ``r`` places downstream):

======= =================== ==========================================================
offset  name                meaning
======= =================== ==========================================================
0       ``turn``            constant 1: this seat must act (opening, discard) or
                            discarded/flipped the pending card (R-9 "whose turn")
1       ``dealer``          constant 1: the dealer (庄家)
2       ``sits_out``        constant 1: sits this hand out (four players, R-10)
3       ``hand_size``       constant: cards in its concealed hand / 26
4       ``announced``       constant: its 八块 announcement (R-4.2) in quad cards / 24
5–8     ``meld_1``…``4``    copies in its exposed melds: at least 1 … 4
9–12    ``row_1``…``4``     copies in its face-up row (discards and untaken flips)
13–16   ``meld_order_1``…``4`` for the k-th copy of the card in its melds, in the order
                            laid: (meld number + 1) / 10
17–20   ``row_order_1``…``4`` for the k-th copy of the card in its row, in row order:
                            (position + 1) / 64
21      ``yu``              the cards of its 开 made onto an exposed 对 (下雨, R-5.13)
======= =================== ==========================================================

The order planes keep the whole order of every meld and row (positions are distinct, so
the sequences can be read back), the count planes say the same in a form a network reads
at once. A seat has at most 10 melds (each takes two or more hand cards) and its row
fewer than 64 cards.

The marks are the seat's own memory of its declines, kept by the engine
(:class:`~erqishi.core.engine.SeatState`); :class:`PlayerView` does not carry them, so
:class:`OwnMarks` takes them from the viewer's own seat only, never another's.

>>> import random
>>> from erqishi.core.engine import Deal, new_hand, view
>>> state = new_hand(Deal.shuffled(random.Random(1), 0))
>>> obs = encode_observation(view(state, 1), OwnMarks.of(state, 1))
>>> obs.shape, obs.dtype.name, float(obs[PLANES.index("phase_opening")].max())
((87, 20), 'float32', 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from erqishi.core.cards import Card
from erqishi.core.engine import Action, Phase, PlayerView, State
from erqishi.core.hands import Group
from erqishi.core.rules import RuleSet
from erqishi.rl.actions import INDEX, N_ACTIONS

__all__ = [
    "GLOBAL_PLANES",
    "MAX_MELDS",
    "MAX_ROW",
    "NO_MARKS",
    "PLANES",
    "SEAT_PLANES",
    "ObservationEncoder",
    "OwnMarks",
    "action_mask",
    "encode_observation",
    "encode_state",
    "observation_shape",
    "plane_names",
    "stock_size",
]

#: The planes about the table and the viewer, in order.
GLOBAL_PLANES: tuple[str, ...] = (
    "hand_1",
    "hand_2",
    "hand_3",
    "hand_4",
    "unseen_1",
    "unseen_2",
    "unseen_3",
    "unseen_4",
    "pending",
    "pending_flip",
    "pending_discard",
    "phase_opening",
    "phase_response",
    "phase_discard",
    "phase_over",
    "stock",
    "quan_card",
    "guozhang",
    "huilong",
    "guohu",
    "guohu_score",
)
#: The planes of each seat, in order.
SEAT_PLANES: tuple[str, ...] = (
    "turn",
    "dealer",
    "sits_out",
    "hand_size",
    "announced",
    "meld_1",
    "meld_2",
    "meld_3",
    "meld_4",
    "row_1",
    "row_2",
    "row_3",
    "row_4",
    "meld_order_1",
    "meld_order_2",
    "meld_order_3",
    "meld_order_4",
    "row_order_1",
    "row_order_2",
    "row_order_3",
    "row_order_4",
    "yu",
)
#: Most melds a seat can lay; most cards in a row (bounds of the order planes).
MAX_MELDS = 10
MAX_ROW = 64
_G = len(GLOBAL_PLANES)
_S = len(SEAT_PLANES)
_PHASE = {Phase.OPENING: 11, Phase.RESPONSE: 12, Phase.DISCARD: 13, Phase.OVER: 14}
_W = 20  # columns: card identities


def plane_names(players: int) -> tuple[str, ...]:
    """Every plane's name for ``players`` seats: the table planes, then ``seat{r}_NAME``
    for the seat ``r`` places downstream of the viewer (``seat0`` is the viewer)."""
    return GLOBAL_PLANES + tuple(f"seat{r}_{name}" for r in range(players) for name in SEAT_PLANES)


#: The plane names with three players (``PLANES.index(name)`` finds a plane).
PLANES = plane_names(3)


def observation_shape(players: int) -> tuple[int, int]:
    """``(planes, 20)`` for ``players`` seats: 65, 87 or 109 planes for 2, 3, 4."""
    return (_G + _S * players, _W)


def stock_size(rules: RuleSet) -> int:
    """Cards in the stock after the deal (R-2.3): 19, or 39 with two players."""
    active = rules.players - (1 if rules.players == 4 else 0)
    return 80 - 21 - 20 * (active - 1)


@dataclass(frozen=True, slots=True)
class OwnMarks:
    """A seat's own marks (what it remembers of its own declines), as the engine keeps them.

    Attributes:
        guozhang: bit set of identities it may no longer 吃 (过张, R-5.9).
        huilong: bit set of identities it discarded from its hand (回笼, R-5.9, R-6.2).
        guohu: the best score of a win it declined since its last take, -1 if none (R-6.2).
    """

    guozhang: int = 0
    huilong: int = 0
    guohu: int = -1

    @classmethod
    def of(cls, state: State, seat: int) -> OwnMarks:
        """The marks of ``seat`` in ``state`` (that seat's own, nothing of another)."""
        me = state.seats[seat]
        return cls(me.guozhang, me.discarded, me.guohu)


#: No marks (the start of a hand).
NO_MARKS = OwnMarks()
_LOG_SCALE = 1.0 / 16.0


# Every plane is first written as bytes, one code per cell, and the whole buffer is turned
# into floats at once through a table (``_lut``): code 0 is 0.0, 1 is 1.0, the others stand
# for the scaled numbers below. The pieces are kept while what they show stays the same
# (each seat's melds and row planes while they are the same objects, the own hand), and
# the count planes come from ``bytes.translate``.
_MELD0, _ROW0, _HAND0, _ANN0, _STOCK0 = 1, 11, 75, 102, 127  # code = start + number
_MAX_HAND, _MAX_ANN = 26, 24
_LUTS: dict[int, npt.NDArray[np.float32]] = {}


def _lut(stock: int) -> npt.NDArray[np.float32]:
    """The float of each byte code, for a hand whose stock starts with ``stock`` cards."""
    found = _LUTS.get(stock)
    if found is None:
        lut = np.zeros(256, dtype=np.float32)
        lut[1] = 1.0
        for m in range(1, MAX_MELDS + 1):
            lut[_MELD0 + m] = m / MAX_MELDS
        for p in range(1, MAX_ROW + 1):
            lut[_ROW0 + p] = p / MAX_ROW
        for h in range(1, _MAX_HAND + 1):
            lut[_HAND0 + h] = h / _MAX_HAND
        for a in range(1, _MAX_ANN + 1):
            lut[_ANN0 + a] = a / _MAX_ANN
        for k in range(1, stock + 1):
            lut[_STOCK0 + k] = k / stock
        found = _LUTS[stock] = lut
    return found


def _at_least(k: int, *, unseen: bool = False) -> bytes:
    """A ``bytes.translate`` table from a count (with ``unseen``, a seen count) to 1 where
    the count (4 minus it) is at least ``k``."""
    return bytes((1 if ((4 - v) if unseen else v) >= k else 0) if v <= 4 else 0 for v in range(256))


_HAND_AT_LEAST = tuple(_at_least(k) for k in range(1, 5))
_UNSEEN_AT_LEAST = tuple(_at_least(k, unseen=True) for k in range(1, 5))
_FULL = tuple(bytes([v]) * _W for v in range(256))
_ONES, _ZEROS = _FULL[1], _FULL[0]
_ONE_HOT = tuple(bytes(1 if c == x else 0 for c in range(_W)) for x in range(_W))
_BITS10 = tuple(bytes((b >> i) & 1 for i in range(10)) for b in range(1024))
_PHASE_ROWS = {
    phase: b"".join(_ONES if p == plane else _ZEROS for p in range(11, 15)) for phase, plane in _PHASE.items()
}
_NO_PENDING = _ZEROS * 3
_BLOCK = (_S - 5) * _W  # a seat's meld, row, order and 下雨 planes (offsets 5-21)
_EMPTY_BLOCK = bytes(_BLOCK)
_SITS_OUT = _ONES + _ZEROS * 2 + _EMPTY_BLOCK  # sits_out = 1, every later plane 0


def _bit_plane(bits: int) -> bytes:
    """A bit set of card identities as 20 bytes of 0/1."""
    return _BITS10[bits & 1023] + _BITS10[(bits >> 10) & 1023]


def _seat_block(melds: tuple[Group, ...], row: tuple[Card, ...]) -> tuple[bytes, int]:
    """A seat's planes 5-21 (melds, row, their order, 下雨) as codes, and the copies of each
    card in its melds and row packed one byte per card (card ``c`` in byte ``c``)."""
    buf = bytearray(_BLOCK)
    seen = 0
    got = [0] * 20
    for m, group in enumerate(melds, 1):
        for c in group.cards:
            k = got[c]
            if k < 4:
                got[c] = k + 1
                buf[k * _W + c] = 1
                buf[(8 + k) * _W + c] = _MELD0 + min(MAX_MELDS, m)
            seen += 1 << (8 * c)
        if group.yu:
            buf[16 * _W + group.cards[0]] = 1
    got = [0] * 20
    for pos, c in enumerate(row, 1):
        k = got[c]
        if k < 4:
            got[c] = k + 1
            buf[(4 + k) * _W + c] = 1
            buf[(12 + k) * _W + c] = _ROW0 + min(MAX_ROW, pos)
        seen += 1 << (8 * c)
    return bytes(buf), seen


def _row_appended(block: bytes, seen: int, row: tuple[Card, ...]) -> tuple[bytes, int]:
    """:func:`_seat_block` of the same melds and ``row``, from the block of ``row[:-1]``."""
    c = row[-1]
    k = row.count(c) - 1
    if k < 4:
        buf = bytearray(block)
        buf[(4 + k) * _W + c] = 1
        buf[(12 + k) * _W + c] = _ROW0 + min(MAX_ROW, len(row))
        block = bytes(buf)
    return block, seen + (1 << (8 * c))


#: one seat's public part as the encoder reads it: seat, hand size, melds, row, 八块
_SeatPart = tuple[int, int, tuple[Group, ...], tuple[Card, ...], int]


class ObservationEncoder:
    """Builds observations (:func:`encode_observation`, :func:`encode_state`),
    remembering each seat's meld and row planes while its melds and row stay the same
    objects (the engine keeps them from state to state until they change), so an
    environment pays for them only when they change. The result never depends on what
    it remembers."""

    __slots__ = ("_blocks", "_hands")

    def __init__(self) -> None:
        self._blocks: dict[int, tuple[tuple[Group, ...], tuple[Card, ...], bytes, int]] = {}
        self._hands: dict[int, tuple[tuple[int, ...], bytes, int]] = {}

    def _block(self, seat: int, melds: tuple[Group, ...], row: tuple[Card, ...]) -> tuple[bytes, int]:
        found = self._blocks.get(seat)
        if found is not None:
            old_melds, old_row = found[0], found[1]
            if (old_melds is melds or old_melds == melds) and (old_row is row or old_row == row):
                return found[2], found[3]
            if old_melds is melds and len(row) == len(old_row) + 1 and row[:-1] == old_row:
                block, seen = _row_appended(found[2], found[3], row)  # the usual change: a card left in the row
                self._blocks[seat] = (melds, row, block, seen)
                return block, seen
        block, seen = _seat_block(melds, row)
        self._blocks[seat] = (melds, row, block, seen)
        return block, seen

    def _own_hand(self, me: int, hand: tuple[int, ...]) -> tuple[bytes, int]:
        found = self._hands.get(me)
        if found is not None and (found[0] is hand or found[0] == hand):
            return found[1], found[2]
        counts = bytes(hand)
        planes = b"".join(counts.translate(table) for table in _HAND_AT_LEAST)
        packed = int.from_bytes(counts, "little")
        self._hands[me] = (hand, planes, packed)
        return planes, packed

    def _encode(
        self,
        rules: RuleSet,
        me: int,
        phase: Phase,
        turn: int,
        order: tuple[int, ...],
        dealer: int,
        pending: Card | None,
        pending_flip: bool,
        stock_left: int,
        quan: int | None,
        hand: tuple[int, ...],
        seats: Sequence[_SeatPart],
        marks: OwnMarks,
    ) -> npt.NDArray[np.float32]:
        n = rules.players
        if phase is Phase.OVER:
            turn = -1
        full = _FULL
        hand_planes, seen = self._own_hand(me, hand)
        blocks: list[bytes] = [b""] * n
        for seat, hand_size, melds, row, announced in seats:
            head = (_ONES if seat == turn else _ZEROS) + (_ONES if seat == dealer else _ZEROS)
            if seat not in order:
                blocks[(seat - me) % n] = head + _SITS_OUT
                continue
            if melds or row:
                block, counts = self._block(seat, melds, row)
                seen += counts
            else:
                block = _EMPTY_BLOCK
            blocks[(seat - me) % n] = b"".join(
                (
                    head,
                    _ZEROS,
                    full[_HAND0 + min(_MAX_HAND, hand_size)],
                    full[_ANN0 + min(_MAX_ANN, announced)] if announced else _ZEROS,
                    block,
                )
            )
        if phase is Phase.RESPONSE and pending is not None:
            x = int(pending)
            seen += 1 << (8 * x)
            pending_rows = _ONE_HOT[x] + (_ONES + _ZEROS if pending_flip else _ZEROS + _ONES)
        else:
            pending_rows = _NO_PENDING
        seen_bytes = seen.to_bytes(_W, "little")
        stock = stock_size(rules)
        guohu = marks.guohu
        buf = b"".join(
            (
                hand_planes,
                *(seen_bytes.translate(table) for table in _UNSEEN_AT_LEAST),
                pending_rows,
                _PHASE_ROWS[phase],
                full[_STOCK0 + min(stock, stock_left)] if stock_left else _ZEROS,
                _ONE_HOT[9 + quan] if quan is not None and 1 <= quan <= 10 else _ZEROS,
                _bit_plane(marks.guozhang),
                _bit_plane(marks.huilong),
                _ONES if guohu >= 0 else _ZEROS,
                _ZEROS,
                *blocks,
            )
        )
        out = _lut(stock).take(np.frombuffer(buf, dtype=np.uint8)).reshape(_G + _S * n, _W)
        if guohu >= 0:
            out[20] = min(1.0, math.log2(1 + guohu) * _LOG_SCALE)
        return out

    def encode(self, view: PlayerView, marks: OwnMarks = NO_MARKS) -> npt.NDArray[np.float32]:
        """The observation planes of ``view`` (see the module text): shape
        ``observation_shape(players)``, ``float32`` in ``[0, 1]``. A function of ``view``
        and ``marks`` only."""
        counts = [0] * 20
        for c in view.hand:
            counts[c] += 1
        return self._encode(
            view.rules,
            view.seat,
            view.phase,
            view.turn,
            view.order,
            view.dealer,
            view.pending,
            view.pending_flip,
            view.stock_left,
            view.quan,
            tuple(counts),
            [(sv.seat, sv.hand_size, sv.melds, sv.row, sv.announced) for sv in view.seats],
            marks,
        )

    def encode_state(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        """``encode(view(state, seat), OwnMarks.of(state, seat))`` without building the
        view: it reads from ``state`` exactly the fields that view holds (R-9: the public
        part of every seat, the seat's own hand and its own marks, never another seat's
        hand or the stock), for the environments' hot path. Tests check that both agree."""
        me = state.seats[seat]
        return self._encode(
            state.rules,
            seat,
            state.phase,
            state.turn,
            state.order,
            state.deal.dealer,
            state.pending,
            state.pending_flip,
            state.stock_left,
            state.quan,
            me.hand,
            [(s, sum(st.hand), st.melds, st.row, st.announced) for s, st in enumerate(state.seats)],
            OwnMarks(me.guozhang, me.discarded, me.guohu),
        )


def encode_observation(view: PlayerView, marks: OwnMarks = NO_MARKS) -> npt.NDArray[np.float32]:
    """The observation planes of ``view`` (see the module text): shape
    ``observation_shape(players)``, ``float32`` in ``[0, 1]``.

    A function of ``view`` and ``marks`` only: two states that give a seat the same view
    and marks give it the same observation.
    """
    return ObservationEncoder().encode(view, marks)


def encode_state(state: State, seat: int) -> npt.NDArray[np.float32]:
    """:func:`encode_observation` of ``view(state, seat)`` and the seat's own marks, read
    straight from the state (the same fields; see :meth:`ObservationEncoder.encode_state`)."""
    return ObservationEncoder().encode_state(state, seat)


def action_mask(legal: Sequence[Action]) -> npt.NDArray[np.int8]:
    """The ``int8`` mask of the action space with 1 exactly at the indices of ``legal``
    (a seat's :attr:`PlayerView.legal`)."""
    mask = bytearray(N_ACTIONS)
    index = INDEX
    for action in legal:
        mask[index[action]] = 1
    return np.frombuffer(mask, dtype=np.int8)
