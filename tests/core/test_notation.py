"""Card notation (R-1.2): separators and long bad input."""

from __future__ import annotations

import pytest

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
