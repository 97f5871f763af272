"""``erqishi waits`` and ``erqishi score`` on a hand of the wrong size say how many cards
it has and how many it needs (R-4.4: a win holds 21 + max(0, q − 1) cards with q quads;
one short of a win, one fewer), with the exit codes kept; a bad card is quoted exactly as
written (R-1.2)."""

from __future__ import annotations

import json

import pytest

from erqishi.cli import main
from support.cli_errors import error_parts

# 17 different cards, no quad: three short of 20
SEVENTEEN = "一二三四五六七八九十壹贰叁肆伍陆柒"
TWO_GUN = "一一一一二二二二"  # two 滚: q = 2
ONE_GUN_ONE_KAN = "一一一一二二二"  # one 滚 (q = 1) and a 坎 of 二


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    ("hand", "melds", "message"),
    [
        (SEVENTEEN, [], "17 cards in hand and melds; one short of a win is 20 (R-4.4)"),
        # 21 cards with no quad: one too many for one short of a win
        (SEVENTEEN + "捌玖拾一", [], "21 cards in hand and melds; one short of a win is 20 (R-4.4)"),
        # 17 hand cards and an exposed 对: 20 cards in all, but the melds count too
        (SEVENTEEN[:14], ["捌捌捌"], "17 cards in hand and melds; one short of a win is 20 (R-4.4)"),
        # two 滚 and 11 more cards, 19 in all: with 2 quads one short is 20 + 1 = 21
        (
            TWO_GUN + "三四五六七八九十壹贰叁",
            [],
            "19 cards in hand and melds; with 2 quads one short of a win is 21 (R-4.4)",
        ),
        # an exposed 开 is a quad too: 4 + 14 = 18; with 1 quad one short is 20
        (SEVENTEEN[:14], ["拾拾拾拾"], "18 cards in hand and melds; with 1 quad one short of a win is 20 (R-4.4)"),
        # one 滚 and a 坎: the winning card may make a second quad, asking one card more
        (
            ONE_GUN_ONE_KAN + "三四五六七八九十壹贰叁",
            [],
            "18 cards in hand and melds; with 1 quad one short of a win is 20, "
            "or 21 if the winning card makes another quad (R-4.4)",
        ),
    ],
)
def test_waits_on_the_wrong_number_of_cards(
    capsys: pytest.CaptureFixture[str], hand: str, melds: list[str], message: str
) -> None:
    args = ["waits", hand] + [x for m in melds for x in ("--meld", m)]
    code, out, _ = run(capsys, *args)
    assert code == 1  # no waits
    assert out == f"没有下叫 no waits: {message}\n"
    code, out, _ = run(capsys, *args, "--json")
    assert code == 1 and json.loads(out) == {"waits": []}


def test_waits_on_the_right_number_that_wins_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    # 20 different cards, one short of a win: only a 花吃 of the winning card's rank and
    # six runs fit, 0 hu, under the 10 a win needs
    hand = "一三五七九壹贰叁肆伍陆柒捌玖拾二四六八十"
    code, out, _ = run(capsys, "waits", hand)
    assert code == 1
    assert out == "没有下叫 no waits: no card wins this hand (20 cards in hand and melds, one short of a win)\n"


@pytest.mark.parametrize(
    ("hand", "win", "message"),
    [
        # 17 + the winning card = 18; a win holds 21
        (SEVENTEEN, "捌", "少牌 (too few cards for seven groups): 18 cards in hand, melds and winning card; "),
        # 22 + 1 = 23
        (
            SEVENTEEN + "捌玖拾一二",
            "三",
            "多牌 (too many cards for seven groups): 23 cards in hand, melds and winning card; ",
        ),
    ],
)
def test_score_on_the_wrong_number_of_cards(
    capsys: pytest.CaptureFixture[str], hand: str, win: str, message: str
) -> None:
    code, out, _ = run(capsys, "score", hand, "--win", win)
    assert code == 1  # valid cards that do not win
    assert out == f"不胡 no win: {message}a win holds 21 (R-4.4)\n"


def test_score_counts_the_quads(capsys: pytest.CaptureFixture[str]) -> None:
    # one 滚, a 坎 of 二 and 11 cards: 18 + 二 = 19; 21 with 1 quad, 22 if 二 makes a 开
    code, out, _ = run(capsys, "score", ONE_GUN_ONE_KAN + "三四五六七八九十壹贰叁", "--win", "二")
    assert code == 1
    assert "19 cards in hand, melds and winning card; with 1 quad a win holds 21, or 22 if 二 makes another quad" in out
    # the same hand won on 三 cannot make a quad: 21 alone
    _, out, _ = run(capsys, "score", ONE_GUN_ONE_KAN + "三四五六七八九十壹贰叁", "--win", "三")
    assert "19 cards in hand, melds and winning card; with 1 quad a win holds 21 (R-4.4)\n" in out


def test_tianhu_on_the_wrong_number_of_cards_is_invalid(capsys: pytest.CaptureFixture[str]) -> None:
    """天胡 is the dealer's 21 dealt cards (R-2.3, R-6.3): other counts are bad input."""
    code, out, err = run(capsys, "score", SEVENTEEN + "捌玖拾", "--tian")
    assert code == 2 and out == ""
    assert "天胡 is won with the 21 dealt cards of the dealer, not 20" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("hand", "fragment"),
    [
        ("一二X五", "hand: bad card 'X' (token 3, character 3) in '一二X五'"),
        ("x1 x2 x11 x3", "hand: bad card 'x11' (token 3, character 7)"),
        ("一二 q五", "hand: bad card 'q' (token 3, character 4)"),
    ],
)
def test_a_bad_card_is_quoted_exactly(capsys: pytest.CaptureFixture[str], hand: str, fragment: str) -> None:
    for command in (["score", hand, "--win", "一"], ["waits", hand]):
        code, out, err = run(capsys, *command)
        assert code == 2 and out == ""
        zh, en = error_parts(err)
        assert en.startswith(fragment), err
        assert "（第 3 项，从第" in zh and repr(fragment.split("'")[1]) in zh, err  # where, in Chinese too
