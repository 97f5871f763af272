"""The terminal game driven headless with Textual's pilot: a whole hand to the result
screen, a 吃 with a choice of 摆 (R-5.8), many options, card selection, hints (下叫), help,
saving (hand and match), the match end and English."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

from rich.cells import cell_len
from textual.pilot import Pilot

from erqishi.core import Card, RuleSet, parse_cards
from erqishi.core.engine import (
    PASS,
    Action,
    ActionKind,
    Deal,
    Phase,
    apply,
    legal_moves,
    new_hand,
    seat_options,
)
from erqishi.core.hands import HU_TABLE
from erqishi.core.rules import LESHAN
from erqishi.tui.app import ActionButton, CardButton, ErqishiApp, HelpScreen, ResultScreen
from erqishi.tui.i18n import ACTION_KEYS

SIZE = (120, 45)
X1, X2, X3, D1 = Card.parse("x1"), Card.parse("x2"), Card.parse("x3"), Card.parse("d1")


def _deal(human: list[Card], dealer: list[Card], top: list[Card], tail: list[Card], filler_avoid: set[Card]) -> Deal:
    """A deal with seat 2 dealing: seat 0 (the human) holds ``human`` topped up to 20 cards
    (at most two of any identity, none from ``filler_avoid``), the dealer ``dealer`` topped
    up to 21, the stock starts with ``top`` and ends with ``tail``."""
    pool = {c: 4 for c in Card}

    def take(cards: list[Card]) -> list[Card]:
        for c in cards:
            pool[c] -= 1
            assert pool[c] >= 0
        return list(cards)

    human, dealer, top, tail = take(human), take(dealer), take(top), take(tail)
    filler: list[Card] = []
    for c in reversed(list(Card)):
        if c in filler_avoid or pool[c] == 0 or len(filler) == 20 - len(human):
            continue
        filler += [c] * min(2, pool[c], 20 - len(human) - len(filler))
    human += take(filler)
    rest = [c for c in Card for _ in range(pool[c])]
    need = 21 - len(dealer)
    dealer, rest = dealer + rest[:need], rest[need:]
    seat1, rest = rest[:20], rest[20:]
    return Deal(dealer=2, hands=(tuple(human), tuple(seat1), tuple(dealer)), stock=tuple(top + rest + tail))


async def _play_to_result(app: ErqishiApp, pilot: Pilot[None]) -> None:
    """Choose the first offered action until the hand's result screen shows."""
    for _ in range(300):
        if isinstance(app.screen, ResultScreen):
            return
        assert app.offered, "the human is asked only when there is something to choose"
        await pilot.press("1")
    raise AssertionError("the hand did not end")


def _active_actions(app: ErqishiApp) -> set[str]:
    """The actions of the bindings the footer may show on the current screen."""
    return {b.binding.action for b in app.screen.active_bindings.values()}


async def test_full_hand_to_result_screen(tmp_path: Path) -> None:
    """Choosing the first offered action every time plays a hand to the result screen,
    which shows the win, the score, the payments and the totals; s saves the record and
    n deals the next hand."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            if isinstance(app.screen, ResultScreen):
                break
            assert app.offered, "the human is asked only when there is something to choose"
            await pilot.press("1")
        assert isinstance(app.screen, ResultScreen)
        result = app.state.result
        assert result is not None and result.kind == "win" and result.analysis is not None
        text = app.screen.text.plain
        assert "胡了" in text
        assert f"得分：{result.analysis.score}" in text
        assert "付分" in text and "总分" in text
        for seat, pay in enumerate(result.payments):
            assert f"{app.who(seat)} {pay:+d}" in text
        assert app.match.totals == result.payments
        for group in result.analysis.groups:
            assert group.name in text
        assert result.source is not None
        assert f"胡的牌：{app.state.pending}" in text  # the winning card (the final state keeps it)
        if result.discarder is not None:
            assert f"（{app.who(result.discarder)}打出，抬炮）" in text
        # the result screen shows its own keys, not the main screen's
        keys = _active_actions(app)
        assert {"next_hand", "save"} <= keys and not keys & {"toggle_hints", "pass_", "help"}

        await pilot.press("s")
        assert app.last_saved is not None and app.last_saved.exists()
        data = json.loads(app.last_saved.read_text(encoding="utf-8"))
        assert data["format"] == 1
        assert data["result"]["kind"] == "win"
        assert [tuple(a) for a in data["actions"]] == [(s, str(a)) for s, a in app.actions]

        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, ResultScreen)
        assert app.match.hands_played == 1
        assert sum(line.startswith("—— 第 ") and "做庄 ——" in line for line in app.log_lines) == 2


async def test_card_selection_by_click_and_keys() -> None:
    """As dealer the human selects a card by clicking it, moves the selection with the
    arrow keys and discards it with Enter; a second click on a selected card discards it."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=SIZE) as pilot:
        assert app.state.dealer == 0 and app.state.turn == 0
        assert "庄家" in app.prompt_text
        legal = {a.cards[0] for a in app.human_view().legal if a.kind is ActionKind.DISCARD}
        hand = app.human_view().hand
        target = max(i for i, c in enumerate(hand) if c in legal)
        await pilot.click(f"#card-{target}")
        assert app.selected == target
        assert app.query_one(f"#card-{target}", CardButton).has_class("selected")
        await pilot.press("left")
        assert app.selected < target and hand[app.selected] in legal
        chosen = hand[app.selected]
        await pilot.press("enter")
        assert app.actions[0] == (0, Action.discard(chosen))
        assert f"你 打 {chosen}" in app.log_lines


async def test_chi_with_two_bai_choices() -> None:
    """R-5.8: holding 一 二二 三三 壹壹 and flipping 一, the 吃 with 二三 may 摆 either 一二三 or
    一壹壹; both are separate buttons, and clicking one applies exactly that action."""
    deal = _deal(
        human=[X1, X2, X2, X3, X3, D1, D1],
        dealer=[Card.parse("x9")] * 4 + [Card.parse("d9")] * 4,  # two 滚: no opening discard
        top=[X1],
        tail=[X1, X1, D1, D1],
        filler_avoid={X1, X2, X3, D1},
    )
    app = ErqishiApp(LESHAN, 3, ["heuristic", "heuristic"], 1, deal=deal)
    async with app.run_test(size=SIZE) as pilot:
        assert app.state.pending == X1 and app.state.pending_flip and app.state.turn == 0
        assert app.prompt_text == "你翻出 一：吃/过？"
        buttons = list(app.query(ActionButton))
        labels = [str(b.label) for b in buttons]
        with_run = Action.chi((X2, X3), ((X1, X2, X3),))
        with_hua = Action.chi((X2, X3), ((X1, D1, D1),))
        assert with_run.chinese == "吃 二三 摆 一二三" and with_hua.chinese == "吃 二三 摆 一壹壹"
        assert any(label.endswith("吃一：二三 + 摆 一二三") for label in labels)
        assert any(label.endswith("吃一：二三 + 摆 一壹壹") for label in labels)
        assert {b.move for b in buttons} == set(app.human_view().legal)
        target = next(b for b in buttons if b.move == with_hua)
        await pilot.click(f"#{target.id}")
        assert app.actions == [(0, with_hua)]
        melds = app.state.seats[0].melds
        assert {g.cards for g in melds} == {(X1, X2, X3), (X1, D1, D1)}
        assert "你 吃 一（二三），摆 一壹壹" in app.log_lines
        assert app.state.turn == 0 and "请打一张牌" in app.prompt_text
        # and on through the rest of the hand to the result screen
        for _ in range(200):
            if isinstance(app.screen, ResultScreen):
                break
            await pilot.press("1")
        assert isinstance(app.screen, ResultScreen) and app.state.result is not None
        assert app.actions[0] == (0, with_hua)
        assert ("荒庄" if app.state.result.kind == "dead" else "胡的牌") in app.screen.text.plain


async def test_hints_show_waits() -> None:
    """h toggles the hints: the human's waits (下叫) with scores and a suggestion."""
    hand = list(parse_cards("一一一二三四五六七七七壹贰叁陆陆陆捌玖拾"))  # README: waits 一 四 七
    deal = _deal(human=hand, dealer=[], top=[], tail=[], filler_avoid=set())
    app = ErqishiApp(LESHAN, 5, ["heuristic", "heuristic"], 1, deal=deal)
    async with app.run_test(size=SIZE) as pilot:
        assert app.hints_text == ""
        assert app.query_one("#hints").has_class("hidden")
        await pilot.press("h")
        assert not app.query_one("#hints").has_class("hidden")
        assert app.state.pending == X1 and "建议：胡" in app.hints_text
        assert "下叫：一(10), 四(10), 七(10)" in app.hints_text
        await pilot.press("h")
        assert app.hints_text == ""


async def test_help_screen() -> None:
    """? opens the help with the hu table and the tiers; Esc closes it; F1 opens it too."""
    app = ErqishiApp(LESHAN, 18, ["random", "random"], 1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.text
        assert "胡数表" in text and "滚" in text and "台和" in text and "小和" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)


async def test_english_labels() -> None:
    """lang="en" shows English labels; card faces stay Chinese."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        status = str(app.query_one("#status").render())
        assert "Dealer: You" in status and "Stock:" in status
        assert "opening discard" in app.prompt_text
        labels = [str(b.label) for b in app.query(ActionButton)]
        assert labels and labels[0].startswith("1 Discard ")
        await pilot.press("h")
        assert "Hints" in app.hints_text and "Suggestion: Discard" in app.hints_text
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "The rules in brief" in app.screen.text and "Hu table" in app.screen.text


def _many_options_position() -> tuple[Deal, list[tuple[int, Action]]]:
    """A response window where seat 1 has 22 options: 对, 20 吃/摆 variants on 捌, 过: the
    deal and the moves that lead there."""
    rng = random.Random(1227)
    deal = Deal.shuffled(rng, dealer=227 % 3)
    state = new_hand(deal, LESHAN, 1)
    moves: list[tuple[int, Action]] = []
    while not (state.phase is Phase.RESPONSE and len(seat_options(state, 1)) == 22):
        move = rng.choice(legal_moves(state))
        moves.append(move)
        state = apply(state, *move)
    return deal, moves


def _many_options_app() -> ErqishiApp:
    deal, moves = _many_options_position()
    return ErqishiApp(LESHAN, 1, ["heuristic", "heuristic"], 1, human_seat=1, deal=deal, moves=moves)


async def test_many_options_all_visible_and_keyed() -> None:
    """22 options wrap onto several rows inside the screen, each clickable where it is drawn;
    keys go on past 9 (0, then letters) and the last 吃 variant's key plays exactly it. The
    吃 labels name the card taken; the status line says the human must respond."""
    app = _many_options_app()
    async with app.run_test(size=SIZE) as pilot:
        assert len(app.offered) == 22
        screen = app.screen.region
        buttons = sorted(app.query(ActionButton), key=lambda b: b.index)
        assert [b.move for b in buttons] == app.offered
        for button in buttons:
            region = button.region
            assert region.width > 0 and screen.contains_region(region), (str(button.label), region)
            assert app.get_widget_at(region.x + 1, region.y)[0] is button
            assert str(button.label).startswith(f"{ACTION_KEYS[button.index]} ")
        chis = [b for b in buttons if b.move.kind is ActionKind.CHI]
        assert all("吃捌：" in str(b.label) for b in chis)
        assert "轮到：你（回应）" in str(app.query_one("#status").render())
        await pilot.resize_terminal(90, 45)
        await pilot.pause()
        inner = app.query_one("#actions").content_region
        for button in app.query(ActionButton):
            assert button.region.width > 0 and inner.contains_region(button.region), (str(button.label), button.region)
        last = chis[-1]
        assert last.index >= 10
        before = len(app.actions)
        await pilot.press(ACTION_KEYS[last.index])
        assert app.actions[before:] == [(1, last.move)]
        assert app.log_lines[-1].startswith(f"你 吃 捌（{''.join(map(str, last.move.cards))}），摆 ")


async def test_click_option_on_a_later_row() -> None:
    """A button on a later row (过, the last of 22) is played by a click."""
    app = _many_options_app()
    async with app.run_test(size=SIZE) as pilot:
        button = app.query_one("#act-21", ActionButton)
        assert button.move == PASS and button.region.y > app.query_one("#act-0").region.y
        before = len(app.actions)
        await pilot.click("#act-21")
        assert app.actions[before][1] == PASS and "无人要 捌" in app.log_lines


async def test_save_failure_and_no_overwrite(tmp_path: Path) -> None:
    """s with an unwritable save_dir shows a message instead of crashing; saving twice keeps
    both files (a numeric suffix)."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, save_dir=Path("/proc/nope"))
    async with app.run_test(size=SIZE) as pilot:
        await _play_to_result(app, pilot)
        await pilot.press("s")
        assert isinstance(app.screen, ResultScreen)
        assert app.last_saved is None and app.status_message.startswith("无法保存记录：")
        assert app.status_message in str(app.screen.query_one("#result-status").render())
        app.save_dir = tmp_path
        await pilot.press("s")
        await pilot.press("s")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["erqishi-18-hand1-2.json", "erqishi-18-hand1.json"]
        assert app.last_saved == tmp_path / "erqishi-18-hand1-2.json"
        assert "记录已保存" in app.status_message


async def test_hints_per_discard() -> None:
    """Owing a discard, the hints list each discard that leaves a waiting hand with its waits
    and scores (the 21-card hand itself has no waits)."""
    rng = random.Random(4)
    deal = Deal.shuffled(rng, dealer=0)
    state = new_hand(deal, LESHAN, 1)
    moves = []
    for _ in range(9):
        moves.append(rng.choice(legal_moves(state)))
        state = apply(state, *moves[-1])
    app = ErqishiApp(LESHAN, 1, ["heuristic", "heuristic"], 1, deal=deal, moves=moves)
    async with app.run_test(size=SIZE) as pilot:
        assert app.state.seats == state.seats and (app.state.phase, app.state.turn) == (state.phase, state.turn)
        await pilot.press("h")
        assert app.state.phase is Phase.DISCARD and app.state.turn == 0
        assert "打玖 → 下叫 五(20)" in app.hints_text
        assert "下叫：无" not in app.hints_text


async def test_hints_drop_dead_waits() -> None:
    """A wait whose four copies are all in sight (hand + pending card) is not shown, unless
    the human may win on the pending card now."""
    hand = list(parse_cards("一一一二三四五六七七七壹贰叁陆陆陆捌玖拾"))
    deal = _deal(human=hand, dealer=[], top=[], tail=[], filler_avoid=set())
    app = ErqishiApp(LESHAN, 5, ["heuristic", "heuristic"], 1, deal=deal)
    async with app.run_test(size=SIZE):
        v = app.human_view()
        assert v.pending == X1
        assert "下叫：一(10), 四(10), 七(10)" in app.compute_hints(v)
        assert "下叫：四(10), 七(10)" in app.compute_hints(replace(v, legal=(PASS,)))


async def test_help_shows_the_rule_sets_tiers() -> None:
    """The help lists the tiers, the cap and the 天胡 worth of the app's rule set; the hu
    table's columns line up in terminal cells."""
    app = ErqishiApp(RuleSet.preset("app"), 18, ["random", "random"], 1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.text
        assert "21–24：大和 40" in text and "25–30：30和 60" in text and "≥ 31：台和 100" in text
        assert "23–27" not in text and "4 ×" not in text
        assert "封顶：每家最多付 100" in text and "天胡：一番" in text and "规则：app" in text
        lines = text.splitlines()
        start = lines.index("胡数表") + 1
        table = lines[start : start + 1 + len(HU_TABLE)]
        assert len({cell_len(line) for line in table}) == 1, table
        assert "关闭" in {b.binding.description for b in app.screen.active_bindings.values()}
    app = ErqishiApp(RuleSet.preset("meishan"), 18, ["random", "random"], 1, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.text
        assert "天胡: two doublings (番)" in text and "No cap" in text
        assert "21-22: 大和 40" in text and "23-27: 大和 50" in text


async def test_match_end(tmp_path: Path) -> None:
    """With one 圈 the match ends: the last result screen shows the final standings and the
    leader, offers no next hand, saves the hand with s and the whole match with m."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(10):
            await _play_to_result(app, pilot)
            if app.match.is_over:
                break
            assert "save_match" not in _active_actions(app)
            await pilot.press("n")
            await pilot.pause()
        assert app.match.is_over and isinstance(app.screen, ResultScreen)
        text = app.screen.text.plain
        assert "最终成绩" in text and "下一手" not in text
        leaders = "、".join(app.who(s) for s in app.match.leaders)
        assert f"第一名：{leaders}" in text or f"并列第一：{leaders}" in text
        keys = _active_actions(app)
        assert "next_hand" not in keys and {"save", "save_match"} <= keys
        await pilot.press("n")
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("m")
        assert app.last_saved == tmp_path / "erqishi-18-match.json"
        data = json.loads(app.last_saved.read_text(encoding="utf-8"))
        assert data["kind"] == "match" and data["totals"] == list(app.match.totals)
        assert len(data["hands"]) == app.match.hands_played == len(app.outcomes)
        assert [h["result"]["payments"] for h in data["hands"]] == [list(o.payments) for o in app.outcomes]
        await pilot.press("s")
        assert app.last_saved == tmp_path / f"erqishi-18-hand{app.match.hands_played}.json"


async def test_compulsory_kai_and_pass_notice() -> None:
    """Flipping the 4th card of a 坎: the prompt says 开 is compulsory, p explains why it does
    nothing, and the log names the card."""
    x5 = Card.parse("x5")
    deal = _deal(
        human=[x5] * 3,
        dealer=[Card.parse("x9")] * 4 + [Card.parse("d9")] * 4,
        top=[x5],
        tail=[],
        filler_avoid={x5},
    )
    app = ErqishiApp(LESHAN, 3, ["heuristic", "heuristic"], 1, deal=deal)
    async with app.run_test(size=SIZE) as pilot:
        assert [a.kind for a in app.offered] == [ActionKind.KAI]
        assert app.prompt_text == "你翻出 五：开——必须开（有开必开）"
        await pilot.press("p")
        assert app.notice == "不能过：必须开（有开必开）" and not app.actions
        await pilot.press("1")
        assert app.log_lines[-1] == "你 开 五"
        await pilot.press("p")
        assert app.notice == "现在不能过：请打一张牌"


async def test_footer_in_chinese_and_english_grammar() -> None:
    """Footer labels follow the language; English verbs agree with "You"."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=SIZE):
        descriptions = {b.binding.description for b in app.screen.active_bindings.values()}
        assert {"提示", "帮助", "过", "退出"} <= descriptions
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        assert "—— Hand 1: round (圈) 1, dealer: You ——" in app.log_lines
        assert any(line.startswith("You discard ") for line in app.log_lines)
        assert not any("You discards" in line or "You deals" in line for line in app.log_lines)
