"""Cards and notation (R-1.1, R-1.2; FORMATS.md "Cards")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from erqishi.core import Card, InvalidNotationError, Size, format_cards, parse_cards, sort_cards
from erqishi.core.cards import CARD_COUNT, COPIES

cards_st = st.sampled_from(list(Card))


def test_deck_has_80_cards_of_20_identities() -> None:
    """R-1.1: ranks 1-10 in two sizes, four copies each."""
    assert len(Card) == 20
    assert COPIES * len(Card) == CARD_COUNT == 80
    assert [c.rank for c in Card if c.size is Size.SMALL] == list(range(1, 11))
    assert [c.rank for c in Card if c.size is Size.BIG] == list(range(1, 11))


@pytest.mark.parametrize(
    ("char", "ascii_", "size", "rank"),
    [
        ("一", "x1", Size.SMALL, 1),
        ("七", "x7", Size.SMALL, 7),
        ("十", "x10", Size.SMALL, 10),
        ("壹", "d1", Size.BIG, 1),
        ("贰", "d2", Size.BIG, 2),
        ("柒", "d7", Size.BIG, 7),
        ("拾", "d10", Size.BIG, 10),
    ],
)
def test_both_notations_name_the_same_card(char: str, ascii_: str, size: Size, rank: int) -> None:
    """R-1.2: the Chinese character and the ASCII token of a card."""
    card = Card.parse(char)
    assert card == Card.parse(ascii_) == Card.of(size, rank)
    assert str(card) == char and card.ascii == ascii_


def test_card_lists_in_either_notation() -> None:
    """R-1.2: run-together characters, or ASCII tokens separated by spaces or commas."""
    expected = (Card.X1, Card.X1, Card.X2, Card.X7, Card.X10, Card.D1)
    assert parse_cards("一一二七十壹") == expected
    assert parse_cards("x1 x1 x2 x7 x10 d1") == expected
    assert parse_cards("x1,x1, x2 ,x7,x10,d1") == expected
    assert parse_cards("") == () and parse_cards("  ") == ()


def test_display_order_small_before_big_then_rank() -> None:
    """R-1.2 display order."""
    assert format_cards(sort_cards(parse_cards("拾一壹十二"))) == "一二十壹拾"


@pytest.mark.parametrize(
    ("text", "token", "index", "position"),
    [
        ("x1 x2 x11", "x11", 2, 6),
        ("一二三A四", "A", 3, 3),
        ("x1, y2", "y2", 1, 4),
        ("x0", "x0", 0, 0),
        ("d", "d", 0, 0),
        ("x1 x01", "x01", 1, 3),
        ("一 贰 ?", "?", 2, 4),
    ],
)
def test_bad_token_is_named_with_its_position(text: str, token: str, index: int, position: int) -> None:
    """R-1.2: parsers report the position of the first bad token."""
    with pytest.raises(InvalidNotationError) as info:
        parse_cards(text)
    err = info.value
    assert (err.token, err.index, err.position) == (token, index, position)
    assert repr(token) in str(err)


@pytest.mark.parametrize("text", ["", "一二", "x11", "q"])
def test_card_parse_needs_exactly_one_card(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        Card.parse(text)


@given(cards_st)
def test_card_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(card.ascii) is card
    assert Card.of(card.size, card.rank) is card
    assert card.other_size.other_size is card and card.other_size.rank == card.rank


@given(st.lists(cards_st, max_size=30))
def test_card_list_round_trips(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert parse_cards(format_cards(cards, ascii=True)) == tuple(cards)


@given(st.text(max_size=12))
def test_parser_never_crashes_on_junk(text: str) -> None:
    """Any text either parses or raises InvalidNotationError naming a token found in it."""
    try:
        parse_cards(text)
    except InvalidNotationError as err:
        assert err.token and text[err.position : err.position + len(err.token)] == err.token


@pytest.mark.parametrize(
    ("text", "token", "position", "why"),
    [
        (" X五 ", "X五", 1, "a card is one of"),
        ("一二", "一二", 0, "one card is needed, not 2"),
        ("  ", "", 0, "one card is needed, the text is blank"),
    ],
)
def test_card_parse_quotes_the_text_as_written(text: str, token: str, position: int, why: str) -> None:
    """R-1.2: one card, Chinese or ASCII; the message says what is wrong."""
    with pytest.raises(InvalidNotationError) as info:
        Card.parse(text)
    assert (info.value.token, info.value.index, info.value.position) == (token, 0, position)
    assert why in str(info.value)
    assert Card.parse(" D7 ") is Card.D7
