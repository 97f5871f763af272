"""The lessons (erqishi.learn): every lesson's goal is checked by the engine or the scorer,
and each answer below is worked by hand from RULES.md (the R-id beside it), never read from
the code under test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from erqishi.core import Card, parse_cards
from erqishi.core.engine import Action, ActionKind, Phase
from erqishi.learn import LESSONS, GoalKind, LessonRun, lesson
from erqishi.play.narrate import action_words


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def move(run: LessonRun, text: str) -> tuple[bool, str, str | None]:
    v = run.try_move(Action.parse(text))
    return v.ok, v.reason, v.rule


def test_the_issue_s_sixteen_concepts_in_order_with_real_rule_ids(shared: Path) -> None:
    rules = (shared / "RULES.md").read_text(encoding="utf-8")
    rule_ids = set(re.findall(r"\*\*(R-\d+\.\d+)\*\*", rules)) | set(re.findall(r"## (R-\d+)", rules))
    ids = [x.id for x in LESSONS]
    assert ids == [
        "cards", "groups", "locked", "winning", "chi", "bai", "guozhang", "shangtu",
        "dui", "kai", "bakuai", "huilong", "waits", "fan", "payments", "play",
    ]  # fmt: skip
    for x in LESSONS:
        assert x.rules and set(x.rules) <= rule_ids, (x.id, x.rules)
        for text in (x.title, x.goal, x.done, *x.intro, *(s.goal for s in x.steps)):
            assert text.zh and text.en and re.search(r"[\u4e00-\u9fff]", text.zh), (x.id, text)
            assert re.search(r"[A-Za-z]{3}", text.en), (x.id, text)


def test_lesson_lookup_names_the_lessons() -> None:
    with pytest.raises(KeyError, match="cards"):
        lesson("nope")


def test_cards_the_big_ones_r1_1() -> None:
    run = LessonRun(lesson("cards"))
    assert run.try_cards(cards("壹贰")).reason == "wrong"  # too few
    wrong = run.try_cards(cards("壹贰伍柒拾陆一"))
    assert not wrong.ok and "一" in wrong.text.zh and wrong.rule == "R-1.1"
    assert run.try_cards(cards("壹贰伍柒拾陆")).done
    assert run.stars == 2


def test_groups_the_most_hu_r3() -> None:
    run = LessonRun(lesson("groups"))
    v = run.try_cards(cards("二七十"))  # a small 二七十: 3 hu, less than 贰柒拾's 6
    assert not v.ok and "3" in v.text.zh and "6" in v.text.zh
    assert not run.try_cards(cards("四四四")).ok  # a small 坎: 3 hu
    assert run.try_cards(cards("一二四")).reason == "wrong"  # no group at all
    assert run.try_cards(cards("六六六")).reason == "bad_input"  # not in the hand
    assert run.try_cards(cards("贰柒拾")).done


def test_locked_cards_are_refused_by_the_engine_r3_1() -> None:
    run = LessonRun(lesson("locked"))
    assert move(run, "discard x5") == (False, "refused", "R-3.1")  # 五五五 is a 坎
    assert move(run, "discard x9") == (False, "refused", "R-3.1")  # 九九九九 is a 滚
    assert move(run, "discard x2")[0] and run.done and run.stars == 2


def test_winning_on_a_discard_pays_three_times_r6_1_r8_2() -> None:
    run = LessonRun(lesson("winning"))
    assert move(run, "pass")[1] == "not_goal"
    assert move(run, "hu")[0]
    state = run.table.state if run.table else None
    assert state is not None and state.result is not None
    # 二七十 3 + 贰柒拾 6 + 坎 三三三 3 = 12 hu: 小和, base 10, no 番; the discarder (seat 0) pays 3 × 10
    assert state.result.payments == (-30, 30, 0)


def test_chi_from_the_shangjia_r5_2() -> None:
    run = LessonRun(lesson("chi"))
    assert {str(a) for a in run.options() if a.kind is ActionKind.CHI} == {"chi x1 x2", "chi x2 x4", "chi x4 x5"}
    assert move(run, "chi x1 x2")[0]
    me = run.view().seats[1]
    assert [g.cards for g in me.melds] == [cards("一二三")]


def test_bai_every_held_copy_goes_down_r5_8() -> None:
    run = LessonRun(lesson("bai"))
    chis = [a for a in run.options() if a.kind is ActionKind.CHI]
    assert [str(a) for a in chis] == ["chi x2 x3 bai x1 x2 x3"]  # 一 held: 摆 一二三 with it
    assert move(run, "chi x2 x3") == (False, "refused", "R-5.8")
    assert move(run, "chi x2 x3 bai x1 x2 x3")[0]


def test_guozhang_r5_9() -> None:
    run = LessonRun(lesson("guozhang"))
    assert move(run, "chi x4 x6") == (False, "refused", "R-5.9")
    assert move(run, "pass")[0] and run.done
    assert run.stars == 3  # the goal said to try the 吃: its refusal is the lesson, no mistake


def test_shangtu_xiaxie_two_steps_r5_10() -> None:
    run = LessonRun(lesson("shangtu"))
    assert move(run, "chi x7 x10")[1] == "not_goal"  # the lesson asks for 三四
    ok, _, _ = move(run, "chi x3 x4")
    assert ok and not run.done and run.view().phase is Phase.DISCARD
    assert move(run, "discard x5") == (False, "refused", "R-5.10")  # 三四 + 五 is a run
    assert move(run, "discard x6")[0] and run.done


def test_dui_from_anyone_and_kai_is_compulsory_r5_11_r5_12() -> None:
    run = LessonRun(lesson("dui"))
    assert move(run, "dui")[0]
    run = LessonRun(lesson("kai"))
    assert move(run, "pass") == (False, "refused", "R-5.12")
    assert move(run, "kai")[0] and run.stars == 3
    again = LessonRun(lesson("kai"))  # a try the goal did not invite is a mistake
    assert move(again, "hu")[1] == "refused" and move(again, "kai")[0] and again.stars == 2


def test_a_second_quad_keeps_the_card_r4_1_r4_2() -> None:
    run = LessonRun(lesson("bakuai"))
    assert move(run, "kai")[0]
    state = run.table.state if run.table else None
    assert state is not None
    assert state.seats[1].announced == 8  # two quads: 八块
    assert not (state.phase is Phase.DISCARD and state.turn == 1)  # no discard owed (21 ≤ 20 + 1)


def test_huilong_r6_2() -> None:
    run = LessonRun(lesson("huilong"))
    assert move(run, "hu") == (False, "refused", "R-6.2")
    assert move(run, "pass")[0] and run.stars == 3


def test_waits_r6_1() -> None:
    run = LessonRun(lesson("waits"))
    # 伍陆 + 肆 or 柒 completes the seventh group; 3 + 6 + 3 = 12 hu either way: 10 points
    assert run.answer() == {Card.D4: 10, Card.D7: 10}
    assert not run.try_cards(cards("肆")).ok
    assert not run.try_cards(cards("肆柒伍")).ok
    assert run.try_cards(cards("肆柒肆")).reason == "bad_input"  # each card once
    v = run.try_cards(cards("柒肆"))
    assert v.done and "肆 10" in v.story[0].zh


def test_fan_and_payments_r7_r8() -> None:
    run = LessonRun(lesson("fan"))
    # 对 八 1 + 对 捌 3 + 贰柒拾 6 + 对 玖 3 = 13 hu: 小和 10; no 坎/滚: 瞟胡, ×2 = 20
    assert {c.key for c in run.choices()} >= {"10", "20"}
    assert not run.try_choice("10").ok
    assert run.try_choice("20").done
    run = LessonRun(lesson("payments"))
    assert run.try_choice("-20 40 -20").reason == "wrong"  # that is a flip's settlement
    assert run.try_choice("nonsense").reason == "bad_input"
    assert run.try_choice("-60 60 0").done  # 包三家: the discarder pays 3 × 20


def test_stars_and_hints() -> None:
    run = LessonRun(lesson("dui"))
    run.hint()
    assert move(run, "dui")[0] and run.stars == 1
    run = LessonRun(lesson("dui"))
    assert move(run, "dui")[0] and run.stars == 3


@pytest.mark.parametrize("x", [x for x in LESSONS if x.kind is GoalKind.MOVE], ids=lambda x: x.id)
def test_every_move_lesson_can_be_finished_from_its_hint(x: object) -> None:
    """Following the hints reaches the end of every move lesson (each hint is a legal move)."""
    run = LessonRun(x)  # type: ignore[arg-type]
    for _ in range(4):
        if run.done:
            break
        text = run.hint().en
        assert text.startswith("Try: "), text
        wanted = [a for a in run.options() if action_words(a, "en") == text[5:-1]]
        assert wanted, text
        assert run.try_move(wanted[0]).ok
    assert run.done and run.stars == 1
