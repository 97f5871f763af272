"""The one narration (:mod:`erqishi.play.narrate`): every event in Chinese and English, in
the words a player reads at the table (worked by hand here, not taken from the code)."""

from __future__ import annotations

import random

import pytest

from erqishi.core import Card, RuleSet, analyze_hand
from erqishi.core.engine import ActionKind, Deal, Outcome, OutcomeKind
from erqishi.core.hands import WinContext, WinSource
from erqishi.play import Names, narrate, narrate_lines, play_hand, random_chooser
from erqishi.play.events import (
    Announced,
    DeadHand,
    Dealt,
    Discarded,
    Flipped,
    MatchOver,
    Passed,
    Scored,
    Took,
    Won,
)
from erqishi.play.narrate import LANGS, TEMPLATES, kuai

NAMES = Names(["甲", "乙", "丙"], you=0)
X = Card.parse


@pytest.mark.parametrize(
    ("event", "zh", "en"),
    [
        (Dealt(0, 2, 1, 1), "—— 第 2 手：圈1，乙 做庄 ——", "—— Hand 2: round (圈) 1, dealer: 乙 ——"),
        (Flipped(3, 2, X("d10"), 18), "丙 翻出 拾（堂牌余 18 张）", "丙 flips 拾 (18 left in the stock)"),
        (Discarded(1, 0, X("x9")), "你 打 九", "You discard 九"),
        (Discarded(1, 1, X("x9")), "乙 打 九", "乙 discards 九"),
        (
            Took(4, 0, ActionKind.CHI, X("x1"), 2, (X("x2"), X("x3")), ((X("x1"), X("d1"), X("d1")),)),
            "你 吃 一（二三），摆 一壹壹",
            "You chow (吃) 一 with 二三, lay down (摆) 一壹壹",
        ),
        (Took(4, 1, ActionKind.CHI, X("d8"), 0, (X("d6"), X("d7"))), "乙 吃 捌（陆柒）", "乙 chows (吃) 捌 with 陆柒"),
        (Took(5, 2, ActionKind.DUI, X("x8"), 1), "丙 对 八", "丙 pungs (对) 八"),
        (Took(5, 0, ActionKind.KAI, X("x5"), 1), "你 开 五", "You kong (开) 五"),
        (Took(5, 2, ActionKind.KAI, X("x5"), 1, yu=True), "丙 开 五（下雨）", "丙 kongs (开) 五 onto the 对 (下雨)"),
        (Announced(6, 1, 8), "乙 报八块", "乙 announces 八块 (8 quad cards)"),
        (Announced(9, 0, 12), "你 报十二块", "You announce 十二块 (12 quad cards)"),
        (Passed(7, 2, X("x8"), True), "无人要 八", "nobody takes 八"),
        (Won(8, 1, X("x4"), WinSource.DISCARD, 0), "乙 胡 四（抬炮）", "乙 wins (胡) on 四 (抬炮, on a discard)"),
        (Won(8, 0, X("x4"), WinSource.OWN_FLIP, 0), "你 胡 四（自摸）", "You win (胡) on 四 (自摸, on their own flip)"),
        (Won(1, 0, None, WinSource.TIAN, None), "你 天胡", "You win with the dealt cards (天胡)"),
        (DeadHand(40), "荒庄：堂牌翻完，无人胡牌", "Dead hand (荒庄): the stock ran out and nobody won"),
        (
            MatchOver(40, 3, (30, -10, -20), (0,)),
            "—— 比赛结束：你 +30，乙 -10，丙 -20；第一名：你 ——",
            "—— Match over: You +30, 乙 -10, 丙 -20; first: You ——",
        ),
    ],
)
def test_each_event_in_both_languages(event: object, zh: str, en: str) -> None:
    assert narrate(event, "zh", NAMES) == zh  # type: ignore[arg-type]
    assert narrate(event, "en", NAMES) == en  # type: ignore[arg-type]


def test_a_scored_hand_lists_groups_tier_fan_and_payments() -> None:
    """The README's hand: 10 hu, 小和 10, no 番, score 10; a 抬炮 from seat 2 pays 30."""
    analysis = analyze_hand("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"], "四", WinContext(WinSource.DISCARD))
    outcome = Outcome(OutcomeKind.WIN, (0, 30, -30), 1, WinSource.DISCARD, analysis, 2, 2)
    lines = narrate_lines(Scored(30, 1, outcome, (0, 30, -30)), "zh", NAMES)
    assert lines[0] == "乙 得分 10：10 胡，小和，规格 10，番 无"
    assert "  对 一一一（亮） 1 胡" in lines
    assert lines[-1] == "结算：你 +0，乙 +30，丙 -30"
    assert len(lines) == 2 + len(analysis.groups)
    en = narrate_lines(Scored(30, 1, outcome, (10, 40, -50)), "en", NAMES)
    # English glosses each term (R-7.2 小和; R-3 group names)
    assert en[0] == "乙 scores 10: 10 hu, 小和 (small win), base 10, doublings (番): none"
    assert "  对 (pung) 一一一 (exposed) 1 hu" in en
    assert en[-1] == "Match totals: You +10, 乙 +40, 丙 -50"
    dead = Outcome(OutcomeKind.DEAD, (0, 0, 0))
    assert narrate_lines(Scored(40, 2, dead, (0, 0, 0)), "zh", NAMES) == []  # the dead event told it
    assert narrate_lines(Scored(40, 2, dead, (20, 0, -20)), "zh", NAMES) == ["总分：你 +20，乙 +0，丙 -20"]


def test_kuai_counts_quad_cards_in_chinese() -> None:
    assert [kuai(n) for n in (8, 12, 16, 20, 24)] == ["八块", "十二块", "十六块", "二十块", "二十四块"]


def test_every_sentence_exists_in_both_languages() -> None:
    assert LANGS == ("zh", "en")
    for key, (zh, en) in TEMPLATES.items():
        assert zh and en, key
        # English tells at least what Chinese does (it may add a gloss such as the count)
        assert set(_fields(zh)) <= set(_fields(en)), key


def _fields(text: str) -> list[str]:
    import re

    return re.findall(r"\{(\w+)\}", text)


def test_whole_hands_narrate_without_gaps() -> None:
    """Every event of random hands, for 2, 3 and 4 players, narrates to non-empty lines with
    no unfilled placeholder."""
    for players in (2, 3, 4):
        rules = RuleSet.from_options({"players": players})
        names = Names([f"座{i}" for i in range(players)], you=1)
        for seed in range(15):
            rng = random.Random(seed)
            played = play_hand(Deal.shuffled(rng, seed % players, rules), random_chooser(rng), rules)
            for event in played.events:
                for lang in LANGS:
                    for line in narrate_lines(event, lang, names):
                        assert line and "{" not in line and "}" not in line, (event, line)


def test_a_name_that_reads_like_a_placeholder_stays_as_it_is() -> None:
    """Values are filled in one pass: a player named ``{card}`` is named so."""
    names = Names(["{card}", "{s}", "丙"])
    assert narrate(Discarded(1, 0, X("x3")), "zh", names) == "{card} 打 三"
    assert narrate(Discarded(1, 1, X("x3")), "en", names) == "{s} discards 三"


def test_every_refusal_reason_has_a_sentence_in_both_languages() -> None:
    """Each reason the engine gives (the list in Refusal's docstring) is worded in Chinese
    and English with its R-id, so no player reads the engine's English in a Chinese screen."""
    import ast
    import re

    from conftest import ROOT
    from erqishi.core.engine import Refusal
    from erqishi.play.narrate import TEMPLATES, explain

    # from the source: a class of the compiled build keeps no docstring
    tree = ast.parse((ROOT / "src/erqishi/core/engine/explain.py").read_text(encoding="utf-8"))
    doc = next(ast.get_docstring(n) for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Refusal")
    reasons = re.findall(r"``(\w+)``", (doc or "").split("Reasons:")[1])
    assert len(reasons) > 30
    for reason in reasons:
        zh, en = TEMPLATES[f"why_{reason}"]
        assert "{rule}" in zh and "{rule}" in en, reason
        said = explain(Refusal("R-9.9", reason, "ENGLISH MESSAGE", None), "zh")
        assert "R-9.9" in said and "ENGLISH" not in said, (reason, said)
