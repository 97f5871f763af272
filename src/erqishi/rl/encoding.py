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
import struct
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from erqishi.core.cards import Card
from erqishi.core.engine import DUI, HU, KAI, PASS, Action, ActionKind, Phase, PlayerView, SeatState, State
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
    "mask_bytes",
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


# The planes are assembled as bytes, the float32 cells themselves (4 bytes each, native
# order), from pieces made once: whole planes (zeros, ones, one-hot, each scaled number),
# the "at least k" planes of five cards' counts (a dict filled on first use), and each
# seat's meld and row planes, written cell by cell when they change. One ``bytearray.join``
# and ``np.frombuffer`` make the array, so nothing numeric runs per observation. The pieces
# are kept while what they show stays the same: the engine's states are immutable and
# keep a seat's SeatState object from state to state until that seat changes, so each
# seat's public planes (and the viewer's hand and marks) are rebuilt only when its
# SeatState is a new object.
_MAX_HAND, _MAX_ANN = 26, 24
_CELL = 4  # bytes of a float32 cell
_PLANE = _W * _CELL


def _f32(x: float) -> bytes:
    """One float32 cell."""
    return np.array([x], dtype=np.float32).tobytes()


_F1, _F0 = _f32(1.0), _f32(0.0)
_ONES, _ZEROS = _F1 * _W, _F0 * _W


def _row(x: float) -> bytes:
    """A constant plane of ``x``."""
    return _f32(x) * _W


_ONE_HOT = tuple(b"".join(_F1 if c == x else _F0 for c in range(_W)) for x in range(_W))
_HAND_SIZE = tuple(_row(h / _MAX_HAND) for h in range(_MAX_HAND + 1))
_ANNOUNCED = tuple(_row(a / _MAX_ANN) for a in range(_MAX_ANN + 1))
_MELD_CELL = tuple(_f32(m / MAX_MELDS) for m in range(MAX_MELDS + 1))
_ROW_CELL = tuple(_f32(p / MAX_ROW) for p in range(MAX_ROW + 1))
_BITS10 = tuple(b"".join(_F1 if (b >> i) & 1 else _F0 for i in range(10)) for b in range(1024))
_PHASE_ROWS = {
    phase: b"".join(_ONES if p == plane else _ZEROS for p in range(11, 15)) for phase, plane in _PHASE.items()
}
#: planes 8-10 for a pending card x: by x, then by pending_flip
_PENDING_ROWS = tuple((_ONE_HOT[x] + _ZEROS + _ONES, _ONE_HOT[x] + _ONES + _ZEROS) for x in range(_W))
_NO_PENDING = _ZEROS * 3
_STOCK_ROWS: dict[int, tuple[bytes, ...]] = {}
_BLOCK = (_S - 5) * _PLANE  # a seat's meld, row, order and 下雨 planes (offsets 5-21)
_EMPTY_BLOCK = bytes(_BLOCK)
_SITS_OUT = _ONES + _ZEROS * 2 + _EMPTY_BLOCK  # sits_out = 1, every later plane 0
_OVER, _RESPONSE = Phase.OVER, Phase.RESPONSE
# Counts of the 20 cards are packed into one int, 32 bits per card (card c in bits 32c…),
# so that adding a card is one addition and the unseen counts are one subtraction. The
# planes "at least 1" … "at least 4" of such counts come out as the float32 bytes
# themselves: one multiplication puts each count c (at most 4) into the top two bytes of
# its lane, as c and 0x11 * c (two ranges of byte values that never meet), and one
# ``bytes.translate`` per plane k turns those bytes into the two nonzero bytes of 1.0f
# (0x80, 0x3F) where c >= k, every other byte into 0.
_LANE = 32
_SPREAD = (1 << 24) | (0x11 << 16)


def _translation(k: int) -> bytes:
    table = bytearray(256)
    for c in range(k, 5):
        table[c], table[0x11 * c] = _F1[3], _F1[2]
    return bytes(table)


_AT_LEAST = tuple(_translation(k) for k in range(1, 5))
_ONE_BITS = int.from_bytes(_F1, "little")  # 1.0f in a lane
_T1, _T2, _T3, _T4 = _AT_LEAST
#: four copies of each card (the whole deck), packed
_FOURS = sum(4 << (_LANE * c) for c in range(_W))


_LANES = struct.Struct(f"<{_W}I")


def _packed(counts: Sequence[int]) -> int:
    """20 counts (at most 4 each) packed, 32 bits per card."""
    return int.from_bytes(_LANES.pack(*counts), "little")


def _at_least_planes(packed: int) -> bytes:
    """The planes "at least 1" … "at least 4" of 20 counts ``packed``."""
    lanes = (packed * _SPREAD).to_bytes(_PLANE, "little")
    return lanes.translate(_T1) + lanes.translate(_T2) + lanes.translate(_T3) + lanes.translate(_T4)


def _stock_rows(stock: int) -> tuple[bytes, ...]:
    """The ``stock`` plane for 0 … ``stock`` cards left."""
    found = _STOCK_ROWS.get(stock)
    if found is None:
        found = _STOCK_ROWS[stock] = tuple(_row(k / stock) for k in range(stock + 1))
    return found


def _bit_plane(bits: int) -> bytes:
    """A bit set of card identities as a plane of 0/1."""
    return _BITS10[bits & 1023] + _BITS10[(bits >> 10) & 1023]


#: a seat's meld planes: counts (offsets 5-8), order (13-16), 下雨 (21); the counts
#: packed; the order and 下雨 planes as ints (their bytes, little-endian)
_MeldPart = tuple[bytes, bytes, bytes, int, int, int]
#: a seat's row planes: counts (offsets 9-12), order (17-20); the counts packed; the order
#: planes as an int
_RowPart = tuple[bytes, bytes, int, int]
_NO_MELDS: _MeldPart = (_ZEROS * 4, _ZEROS * 4, _ZEROS, 0, 0, 0)
_NO_ROW: _RowPart = (_ZEROS * 4, _ZEROS * 4, 0, 0)
#: _SHIFT[k][c]: the bit offset of the cell of card c in the k-th of four planes
_SHIFT = tuple(tuple(8 * _CELL * (k * _W + c) for c in range(_W)) for k in range(4))
_MELD_BITS = tuple(int.from_bytes(cell, "little") for cell in _MELD_CELL)
_ROW_BITS = tuple(int.from_bytes(cell, "little") for cell in _ROW_CELL)
_FOUR = 4 * _PLANE  # bytes of four planes


def _meld_part(melds: tuple[Group, ...], start: int, part: _MeldPart) -> _MeldPart:
    """The meld planes of ``melds`` from ``part``, those of ``melds[:start]``: the k-th copy
    of a card in the melds is 1 in ``meld_k`` and (its meld's number) / 10 in
    ``meld_order_k``. The order cells are set in an int holding the planes' bytes (a cell,
    once set, never changes while the melds only grow); the count planes come from the
    counts packed."""
    packed, order, yu = part[3], part[4], part[5]
    old_yu = yu
    for m in range(start, len(melds)):
        group = melds[m]
        number = _MELD_BITS[min(MAX_MELDS, m + 1)]
        for c in group.cards:
            k = (packed >> (_LANE * c)) & 255
            if k < 4:
                order |= number << _SHIFT[k][c]
            packed += 1 << (_LANE * c)
        if group.yu:
            yu |= _ONE_BITS << (_LANE * group.cards[0])
    yu_planes = part[2] if yu == old_yu else yu.to_bytes(_PLANE, "little")
    return _at_least_planes(packed), order.to_bytes(_FOUR, "little"), yu_planes, packed, order, yu


def _row_part(row: tuple[Card, ...], start: int, part: _RowPart) -> _RowPart:
    """The row planes of ``row`` from ``part``, those of ``row[:start]``: the k-th copy of a
    card in the row is 1 in ``row_k`` and (its position) / 64 in ``row_order_k``."""
    packed, order = part[2], part[3]
    for pos in range(start, len(row)):
        c = row[pos]
        k = (packed >> (_LANE * c)) & 255
        if k < 4:
            order |= _ROW_BITS[min(MAX_ROW, pos + 1)] << _SHIFT[k][c]
        packed += 1 << (_LANE * c)
    return _at_least_planes(packed), order.to_bytes(_FOUR, "little"), packed, order


def _marks_planes(guozhang: int, huilong: int, guohu: int) -> bytes:
    """The viewer's mark planes 17-20."""
    if guohu >= 0:
        flags = _ONES + _row(min(1.0, math.log2(1 + guohu) * _LOG_SCALE))
    else:
        flags = _ZEROS + _ZEROS
    return _bit_plane(guozhang) + _bit_plane(huilong) + flags


#: what the encoder keeps of a hand: rules, deal, order, 圈 number (the key), then the
#: number of planes, the stock rows, the 圈 card plane, the dealer and each viewer's seats
#: in relative order
_Hand = tuple[
    RuleSet, object, tuple[int, ...], int | None, int, tuple[bytes, ...], bytes, int, tuple[tuple[int, ...], ...]
]


def _hand_constants(rules: RuleSet, deal: object, order: tuple[int, ...], quan: int | None, dealer: int) -> _Hand:
    n = rules.players
    quan_row = _ONE_HOT[9 + quan] if quan is not None and 1 <= quan <= 10 else _ZEROS
    rotations = tuple(tuple((me + r) % n for r in range(n)) for me in range(n))
    return (rules, deal, order, quan, _G + _S * n, _stock_rows(stock_size(rules)), quan_row, dealer, rotations)


_JOIN = bytearray().join
_FLOAT32 = np.dtype(np.float32)


class ObservationEncoder:
    """Builds observations (:func:`encode_observation`, :func:`encode_state`),
    remembering what does not change from one observation to the next: each seat's
    public planes while its :class:`~erqishi.core.engine.SeatState` is the same object
    (states are immutable; the engine keeps a seat's object until that seat changes),
    each seat's meld and row planes while its melds stay the same and its row only grows,
    and the viewer's hand and marks planes. The result never depends on what it
    remembers."""

    __slots__ = ("_hand", "_hands", "_marks", "_melds", "_own", "_rows", "_tails")

    def __init__(self) -> None:
        self._melds: dict[int, tuple[tuple[Group, ...], _MeldPart]] = {}
        self._rows: dict[int, tuple[tuple[Card, ...], _RowPart]] = {}
        self._hand: _Hand | None = None
        self._own: list[tuple[SeatState, bytes, bytes, int] | None] = []
        self._hands: list[tuple[tuple[int, ...], bytes, int] | None] = []
        self._marks: list[tuple[int, int, int, bytes] | None] = []
        self._tails: list[tuple[SeatState, tuple[bytes, ...], int] | None] = []

    def _melds_of(self, seat: int, melds: tuple[Group, ...]) -> _MeldPart:
        """:func:`_meld_part` of a seat, from the kept one when its melds only grew."""
        found = self._melds.get(seat)
        if found is not None:
            old = found[0]
            if old is melds or old == melds:
                return found[1]
            if melds[: len(old)] == old:
                part = _meld_part(melds, len(old), found[1])
                self._melds[seat] = (melds, part)
                return part
        part = _meld_part(melds, 0, _NO_MELDS) if melds else _NO_MELDS
        self._melds[seat] = (melds, part)
        return part

    def _row_of(self, seat: int, row: tuple[Card, ...]) -> _RowPart:
        """:func:`_row_part` of a seat, from the kept one when its row only grew (the usual
        change: a card left in it)."""
        found = self._rows.get(seat)
        if found is not None:
            old = found[0]
            if old is row or old == row:
                return found[1]
            if row[: len(old)] == old:
                part = _row_part(row, len(old), found[1])
                self._rows[seat] = (row, part)
                return part
        part = _row_part(row, 0, _NO_ROW) if row else _NO_ROW
        self._rows[seat] = (row, part)
        return part

    def _tail(
        self,
        seat: int,
        dealer: int,
        order: tuple[int, ...],
        hand_size: int,
        melds: tuple[Group, ...],
        row: tuple[Card, ...],
        announced: int,
    ) -> tuple[tuple[bytes, ...], int]:
        """A seat's planes after ``turn`` (offsets 1-21) as pieces to join, and the copies
        of each card in its melds and row, packed."""
        dealer_row = _ONES if seat == dealer else _ZEROS
        if seat not in order:
            return (dealer_row, _SITS_OUT), 0
        m = self._melds_of(seat, melds)
        r = self._row_of(seat, row)
        pieces = (
            dealer_row,
            _ZEROS,
            _HAND_SIZE[min(_MAX_HAND, hand_size)],
            _ANNOUNCED[min(_MAX_ANN, announced)],
            m[0],
            r[0],
            m[1],
            r[1],
            m[2],
        )
        return pieces, m[3] + r[2]

    @staticmethod
    def _finish(
        hand: _Hand,
        hand_planes: bytes,
        marks_planes: bytes,
        seat_rows: list[bytes],
        seen: int,
        phase: Phase,
        pending: Card | None,
        pending_flip: bool,
        stock_left: int,
    ) -> npt.NDArray[np.float32]:
        """The planes from the pieces: ``seat_rows`` are the seats' planes in relative
        order, ``seen`` the copies in their melds and rows and the viewer's hand, packed."""
        if phase is _RESPONSE and pending is not None:
            seen += 1 << (_LANE * pending)
            pending_rows = _PENDING_ROWS[pending][pending_flip]
        else:
            pending_rows = _NO_PENDING
        stock = hand[5]
        buf = _JOIN(
            (
                hand_planes,
                _at_least_planes(_FOURS - seen),  # unseen = 4 - seen, card by card
                pending_rows,
                _PHASE_ROWS[phase],
                stock[min(len(stock) - 1, stock_left)],
                hand[6],
                marks_planes,
                *seat_rows,
            )
        )
        return np.ndarray((hand[4], _W), _FLOAT32, buf)

    def encode(self, view: PlayerView, marks: OwnMarks = NO_MARKS) -> npt.NDArray[np.float32]:
        """The observation planes of ``view`` (see the module text): shape
        ``observation_shape(players)``, ``float32`` in ``[0, 1]``. A function of ``view``
        and ``marks`` only."""
        counts = [0] * 20
        for c in view.hand:
            counts[c] += 1
        packed = _packed(counts)
        hand = _hand_constants(view.rules, None, view.order, view.quan, view.dealer)
        turn = -1 if view.phase is _OVER else view.turn
        by_seat = {sv.seat: sv for sv in view.seats}
        seen = packed
        rows: list[bytes] = []
        for s in hand[8][view.seat]:
            sv = by_seat[s]
            tail, counts_seen = self._tail(s, view.dealer, view.order, sv.hand_size, sv.melds, sv.row, sv.announced)
            rows.append(_ONES if s == turn else _ZEROS)
            rows += tail
            seen += counts_seen
        return self._finish(
            hand,
            _at_least_planes(packed),
            _marks_planes(marks.guozhang, marks.huilong, marks.guohu),
            rows,
            seen,
            view.phase,
            view.pending,
            view.pending_flip,
            view.stock_left,
        )

    def _own_of(self, seat: int, me: SeatState) -> tuple[SeatState, bytes, bytes, int]:
        """The viewer's hand and marks planes and its hand packed (kept while they stay)."""
        hand = self._hands[seat]
        if hand is None or hand[0] is not me.hand:
            packed = _packed(me.hand)
            hand = self._hands[seat] = (me.hand, _at_least_planes(packed), packed)
        marks = self._marks[seat]
        if marks is None or marks[0] != me.guozhang or marks[1] != me.discarded or marks[2] != me.guohu:
            planes = _marks_planes(me.guozhang, me.discarded, me.guohu)
            marks = self._marks[seat] = (me.guozhang, me.discarded, me.guohu, planes)
        own = self._own[seat] = (me, hand[1], marks[3], hand[2])
        return own

    def encode_state(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        """``encode(view(state, seat), OwnMarks.of(state, seat))`` without building the
        view: it reads from ``state`` exactly the fields that view holds (R-9: the public
        part of every seat, the seat's own hand and its own marks, never another seat's
        hand or the stock), for the environments' hot path (the same pieces as
        :meth:`encode`, kept from call to call). Tests check that both agree."""
        hand = self._hand
        if (
            hand is None
            or hand[1] is not state.deal
            or hand[0] is not state.rules
            or (hand[2] is not state.order and hand[2] != state.order)
            or hand[3] != state.quan
        ):
            hand = self._hand = _hand_constants(state.rules, state.deal, state.order, state.quan, state.deal.dealer)
            n = len(state.seats)
            self._own, self._hands, self._marks, self._tails = [None] * n, [None] * n, [None] * n, [None] * n
            self._melds, self._rows = {}, {}
        seats = state.seats
        me = seats[seat]
        own = self._own[seat]
        if own is None or own[0] is not me:
            own = self._own_of(seat, me)
        phase = state.phase
        turn = -1 if phase is _OVER else state.turn
        if phase is _RESPONSE and state.pending is not None:
            pending = state.pending
            seen = own[3] + (1 << (_LANE * pending))
            pending_rows = _PENDING_ROWS[pending][state.pending_flip]
        else:
            seen = own[3]
            pending_rows = _NO_PENDING
        stock = hand[5]
        stock_row = stock[min(len(stock) - 1, state.stock_left)]
        pieces = [own[1], b"", pending_rows, _PHASE_ROWS[phase], stock_row, hand[6], own[2]]
        tails = self._tails
        for s in hand[8][seat]:
            st = seats[s]
            found = tails[s]
            if found is None or found[0] is not st:
                tail, counts_seen = self._tail(s, hand[7], hand[2], sum(st.hand), st.melds, st.row, st.announced)
                found = tails[s] = (st, tail, counts_seen)
            pieces.append(_ONES if s == turn else _ZEROS)
            pieces += found[1]
            seen += found[2]
        pieces[1] = _at_least_planes(_FOURS - seen)  # unseen = 4 - seen, card by card
        return np.ndarray((hand[4], _W), _FLOAT32, _JOIN(pieces))


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


#: the index of each action kind with one action (对, 开, 胡, 过)
_KIND_INDEX = {a.kind: INDEX[a] for a in (DUI, KAI, HU, PASS)}
_DISCARD, _CHI = ActionKind.DISCARD, ActionKind.CHI
#: the index of each 吃 by its cards and 摆 groups (a tuple of cards hashes in C; an
#: ``Action`` hashes and compares through its dataclass methods)
_CHI_INDEX = {(a.cards, a.bai): i for a, i in INDEX.items() if a.kind is _CHI}


def mask_bytes(legal: Sequence[Action]) -> bytearray:
    """:func:`action_mask` as a ``bytearray`` of 0/1."""
    mask = bytearray(N_ACTIONS)
    kinds = _KIND_INDEX
    for action in legal:
        kind = action.kind
        if kind is _DISCARD:
            mask[action.cards[0]] = 1  # a discard's index is its card's value
        elif kind is _CHI:
            mask[_CHI_INDEX[action.cards, action.bai]] = 1
        else:
            mask[kinds[kind]] = 1
    return mask


def action_mask(legal: Sequence[Action]) -> npt.NDArray[np.int8]:
    """The ``int8`` mask of the action space with 1 exactly at the indices of ``legal``
    (a seat's :attr:`PlayerView.legal`), the numbering of :mod:`erqishi.rl.actions`."""
    return np.frombuffer(mask_bytes(legal), dtype=np.int8)
