"""Card notation (R-1.2): separators, long bad input, and the bad token quoted exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from erqishi.core import (
    InvalidNotationError,
    parse_cards,
)


def test_full_width_and_no_break_spaces_separate_tokens() -> None:
    assert parse_cards("x1\u3000x2\xa0d3") == parse_cards("x1 x2 d3")


def test_long_bad_input_is_quoted_in_part() -> None:
    with pytest.raises(InvalidNotationError) as info:
        parse_cards("x1 " + "q" * 100_000)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize(
    ("text", "token", "index", "position"),
    [
        # a letter that is no card is its own token: the Chinese cards around it are not part of it
        ("一二X五", "X", 2, 2),
        ("一二x", "x", 2, 2),
        ("X五", "X", 0, 0),
        # a run of characters that are no card, up to a blank, a Chinese card or an ASCII card
        ("xy五", "xy", 0, 0),
        ("yx1", "y", 0, 0),
        ("x1 q x2", "q", 1, 3),
        ("一?!二", "?!", 1, 1),
        ("ＸＸ 一", "ＸＸ", 0, 0),
        # x or d with digits is one ASCII token, whatever follows it
        ("x1x11", "x11", 1, 2),
        ("x11五", "x11", 0, 0),
        ("d0,d1", "d0", 0, 0),
    ],
)
def test_the_bad_token_is_quoted_exactly_as_written(text: str, token: str, index: int, position: int) -> None:
    """R-1.2: Chinese card characters run together, ASCII tokens are ``x``/``d`` and a
    rank; parsers name the first bad token, its index among the tokens and its offset."""
    with pytest.raises(InvalidNotationError) as info:
        parse_cards(text)
    err = info.value
    assert (err.text, err.token, err.index, err.position) == (text, token, index, position)
    assert f"bad card {token!r} (token {index + 1}, character {position + 1})" in str(err)


def test_what_is_wrong_with_the_token_is_said() -> None:
    for text, why in [
        ("一二X五", "x (small) or d (big) must be followed by a rank 1-10"),
        ("x11", "rank must be 1-10"),
        ("x01", "a rank has no leading 0"),
        ("q", "cards are 一…十, 壹…拾, x1…x10 or d1…d10"),
    ]:
        with pytest.raises(InvalidNotationError) as info:
            parse_cards(text)
        assert str(info.value).endswith(": " + why), str(info.value)


def test_ascii_tokens_in_either_case_and_mixed_with_chinese() -> None:
    assert parse_cards("X1 D10,x10d1") == parse_cards("一拾十壹")
    assert parse_cards("一x2三") == parse_cards("一二三")


@given(st.text(alphabet="一二壹拾xXdDq0123456789 ,?", max_size=14))
def test_the_text_before_the_bad_token_reads_as_that_many_cards(text: str) -> None:
    """The cards before a bad token are exactly ``index`` cards; the token is as written
    (no blank, no Chinese card character inside it)."""
    try:
        parse_cards(text)
    except InvalidNotationError as err:
        assert text[err.position : err.position + len(err.token)] == err.token
        assert len(parse_cards(text[: err.position])) == err.index
        assert not any(ch in " ,一二壹拾" for ch in err.token)
