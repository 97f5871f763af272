"""The terminal game driven headless with Textual's pilot: a whole hand to its result
(shown beside the final table and the log), a 吃 with a choice of 摆 in two steps (R-5.8),
many options, the card cursor and why a card may not be played, hints (下叫) and the
suggested move, help, saving (hand and match), the match end, English, two and four
players, quitting (it asks) and resuming exactly where the match stopped."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
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
from erqishi.tui.app import ActionButton, CardButton, ErqishiApp, HelpScreen, Option, ResultPanel
from erqishi.tui.i18n import ACTION_KEYS
from erqishi.tui.widgets import QuitScreen

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


async def _play_to_result(app: ErqishiApp, pilot: Pilot[None], limit: int = 300) -> None:
    """Choose the first offered option until the hand's result shows."""
    for _ in range(limit):
        if app.result_shown:
            return
        assert app.offered, "the person is asked only when there is something to choose"
        await pilot.press("1")
    raise AssertionError("the hand did not end")


def _active_actions(app: ErqishiApp) -> set[str]:
    """The actions of the bindings the footer may show on the current screen."""
    return {b.binding.action for b in app.screen.active_bindings.values()}


def _result(app: ErqishiApp) -> str:
    return app.query_one(ResultPanel).text.plain


def _actions(app: ErqishiApp) -> list[Action]:
    return [o.action for o in app.offered if o.action is not None]


async def test_full_hand_to_its_result_beside_the_table(tmp_path: Path) -> None:
    """Choosing the first offered option every time plays a hand to its result, which shows
    the win, the score, the payments and the totals beside the final table and the log;
    s saves the record and n deals the next hand."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _play_to_result(app, pilot)
        result = app.state.result
        assert result is not None and result.is_win and result.analysis is not None
        text = _result(app)
        assert "胡了" in text
        assert f"得分：{result.analysis.score}" in text
        assert "付分" in text and "总分" in text
        for seat, pay in enumerate(result.payments):
            assert f"{app.who(seat)} {pay:+d}" in text
        assert app.match.totals == result.payments
        for group in result.analysis.groups:
            assert group.name in text
        assert f"胡的牌：{app.state.pending}" in text  # the winning card (the final state keeps it)
        if result.discarder is not None:
            assert f"（{app.who(result.discarder)}打出，抬炮）" in text
        # beside the final table and the last moves of the log, not instead of them
        screen = app.screen.region
        for selector in ("#table", "#log", "#result", "#seat-0", "#seat-1", "#seat-2"):
            region = app.query_one(selector).region
            assert region.width > 0 and region.height > 0 and screen.contains_region(region), selector
        assert app.query_one("#log").region.x < app.query_one("#result").region.x
        # the others' hands are shown on the table once the hand is over (R-9)
        assert "手牌：" in str(app.query_one("#seat-1").render())
        # the result's keys, not the table's
        keys = _active_actions(app)
        assert {"next_hand", "save"} <= keys and not keys & {"toggle_hints", "pass_", "suggested"}

        await pilot.press("s")
        assert app.last_saved is not None and app.last_saved.exists()
        data = json.loads(app.last_saved.read_text(encoding="utf-8"))
        assert data["format"] == 1
        assert data["result"]["kind"] == "win"
        assert [tuple(a) for a in data["actions"]] == [(s, str(a)) for s, a in app.actions]

        await pilot.press("n")
        await pilot.pause()
        assert not app.result_shown
        assert app.match.hands_played == 1
        assert sum(line.startswith("—— 第 ") and "做庄 ——" in line for line in app.log_lines) == 2


async def test_card_cursor_by_click_and_keys() -> None:
    """As dealer the person's cursor starts on the suggested discard; a click moves it, the
    arrows and Home/End move it over every card and stay there after a redraw, Enter
    discards, and a second click on the selected card discards it."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=SIZE) as pilot:
        assert app.state.dealer == 0 and app.state.turn == 0
        assert "庄家" in app.prompt_text
        v = app.human_view()
        suggested = app.suggestion(v)
        assert suggested is not None and app.cursor_card == suggested.cards[0]
        legal = {a.cards[0] for a in v.legal if a.kind is ActionKind.DISCARD}
        hand = v.hand
        # a card other than the suggested one: a click on the selected card discards it
        target = max(i for i, c in enumerate(hand) if c in legal and i > 0 and c != app.cursor_card)
        await pilot.click(f"#card-{target}")
        assert app.cursor == target
        assert app.query_one(f"#card-{target}", CardButton).has_class("selected")
        await pilot.press("left")
        assert app.cursor == target - 1
        await pilot.press("h")  # a redraw keeps the cursor
        await pilot.press("h")
        assert app.cursor == target - 1
        await pilot.press("home")
        assert app.cursor == 0
        await pilot.press("end")
        assert app.cursor == len(hand) - 1
        await pilot.click(f"#card-{target}")
        await pilot.press("enter")
        assert app.actions[0] == (0, Action.discard(hand[target]))
        assert f"你 打 {hand[target]}" in app.log_lines


@pytest.mark.parametrize(("width", "lang"), [(60, "zh"), (60, "en"), (40, "zh")])
async def test_a_narrow_screen_shows_the_whole_hand(width: int, lang: str) -> None:
    """R-9: the player sees the whole own hand. On a narrow terminal the dealer's 21 cards
    wrap into lines instead of running past the edge, so the card under the cursor (End:
    the last) is on the screen before Enter discards it."""
    app = ErqishiApp(LESHAN, 3, ["heuristic", "random"], 1, lang=lang)
    async with app.run_test(size=(width, 40)) as pilot:
        hand = app.human_view().hand
        assert len(hand) == 21
        screen = app.screen.region
        for i in range(len(hand)):
            card = app.query_one(f"#card-{i}", CardButton)
            assert screen.contains_region(card.region), (i, card.region, screen)
        await pilot.press("end")
        assert app.cursor == len(hand) - 1
        assert screen.contains_region(app.query_one(f"#card-{len(hand) - 1}", CardButton).region)


async def test_a_locked_card_says_why() -> None:
    """R-3.1: a card of a 坎 may not be discarded: with the cursor on it the prompt says
    why, and Enter says so too and discards nothing."""
    x5 = Card.parse("x5")
    others = [c for c in Card if c != x5]
    mine = [x5] * 3 + [c for c in others for _ in range(2)][:18]  # a 坎 of 五, the rest in pairs
    rest = [c for c in Card for _ in range(4 - mine.count(c))]
    deal = Deal(0, (tuple(sorted(mine)), tuple(rest[:20]), tuple(rest[20:40])), tuple(rest[40:]))
    app = ErqishiApp(LESHAN, 4, ["heuristic", "heuristic"], 1, deal=deal)
    async with app.run_test(size=SIZE) as pilot:
        hand = app.human_view().hand
        assert app.state.phase is Phase.OPENING and app.state.turn == 0
        index = hand.index(x5)
        assert app.query_one(f"#card-{index}", CardButton).has_class("locked")
        await pilot.click(f"#card-{index}")
        assert "五 不能打" in app.prompt_text and "坎" in app.prompt_text and "R-3.1" in app.prompt_text
        steps = len(app.actions)
        await pilot.press("enter")
        assert len(app.actions) == steps and "R-3.1" in app.prompt_text


def _shangtu_xiaxie_position() -> tuple[Deal, list[tuple[int, Action]], Card]:
    """A deal and moves after which seat 0 has just made a 吃 and owes a discard, with a
    held card it may not discard by 上吐下泻 (R-5.10): found by random play."""
    for seed in range(2000):
        rng = random.Random(seed)
        deal = Deal.shuffled(rng, dealer=seed % 3)
        state = new_hand(deal, LESHAN, 1)
        moves: list[tuple[int, Action]] = []
        while not state.is_over:
            move = rng.choice(legal_moves(state))
            moves.append(move)
            state = apply(state, *move)
            me = state.seats[0]
            if state.phase is Phase.DISCARD and state.turn == 0 and move[1].kind is ActionKind.CHI:
                barred = [c for c in Card if state.forbidden >> c & 1 and 1 <= me.hand[c] <= 2]
                if barred:
                    return deal, moves, barred[0]
    raise AssertionError("no 上吐下泻 position in 2000 hands")


async def test_shangtu_xiaxie_says_why() -> None:
    """R-5.10: right after a 吃, a held card that makes a group with the two cards used may
    not be discarded; with the cursor on it the prompt gives the engine's reason."""
    deal, moves, barred = _shangtu_xiaxie_position()
    app = ErqishiApp(LESHAN, 6, ["heuristic", "heuristic"], 1, deal=deal, moves=moves)
    async with app.run_test(size=SIZE) as pilot:
        assert app.state.phase is Phase.DISCARD and app.state.turn == 0
        hand = app.human_view().hand
        index = hand.index(barred)
        assert app.query_one(f"#card-{index}", CardButton).has_class("locked")
        await pilot.click(f"#card-{index}")
        assert "上吐下泻" in app.prompt_text and "R-5.10" in app.prompt_text and str(barred) in app.prompt_text


async def test_chi_with_two_bai_choices_in_two_steps() -> None:
    """R-5.8: holding 一 二二 三三 壹壹 and flipping 一, the 吃 with 二三 may 摆 either 一二三 or
    一壹壹: one button opens the two choices, Esc goes back, and the chosen one is played."""
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
        with_run = Action.chi((X2, X3), ((X1, X2, X3),))
        with_hua = Action.chi((X2, X3), ((X1, D1, D1),))
        assert with_run.chinese == "吃 二三 摆 一二三" and with_hua.chinese == "吃 二三 摆 一壹壹"
        labels = [str(b.label) for b in app.query(ActionButton)]
        assert any("吃一：二三 ▸ 摆（2 种）" in label for label in labels)
        group = next(b for b in app.query(ActionButton) if b.option.pair == (X2, X3))
        await pilot.click(f"#{group.id}")
        labels = [str(b.label) for b in app.query(ActionButton)]
        assert [label.split(" ", 1)[1] for label in labels] == ["摆 一二三", "摆 一壹壹", "返回"]
        assert "手里的一要同时摆出" in app.prompt_text
        await pilot.press("escape")
        assert app.chi_pair is None and any("▸" in str(b.label) for b in app.query(ActionButton))
        await pilot.click(f"#{group.id}")
        target = next(b for b in app.query(ActionButton) if b.move == with_hua)
        await pilot.click(f"#{target.id}")
        assert app.actions == [(0, with_hua)]
        melds = app.state.seats[0].melds
        assert {g.cards for g in melds} == {(X1, X2, X3), (X1, D1, D1)}
        assert "你 吃 一（二三），摆 一壹壹" in app.log_lines
        assert app.state.turn == 0 and "请打一张牌" in app.prompt_text
        await _play_to_result(app, pilot, 200)
        assert app.state.result is not None and app.actions[0] == (0, with_hua)
        assert ("荒庄" if not app.state.result.is_win else "胡的牌") in _result(app)


async def test_hints_show_waits_and_space_plays_the_suggestion() -> None:
    """h toggles the hints: the person's waits (下叫) with scores and a suggestion; space
    plays the suggested move."""
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
        await pilot.press("space")
        assert app.state.result is not None and app.state.result.winner == 0


async def test_help_wraps_and_scrolls_to_its_end() -> None:
    """? opens the help with the hu table, the tiers and the rules a player meets (上吐下泻,
    八块, 过张, 回笼, 过胡) and where the full rules are; at 80×24 it fits the width and End
    reaches its last line; Esc closes it; F1 opens it too."""
    app = ErqishiApp(LESHAN, 18, ["random", "random"], 1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.text
        for term in ("胡数表", "滚", "台和", "小和", "上吐下泻", "八块", "过张", "回笼", "过胡", "/rules"):
            assert term in text, term
        scroll = app.screen.query_one("#help-scroll")
        assert scroll.region.right <= 80
        assert app.screen.query_one("#help-text").region.width <= 80
        await pilot.press("end")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y > 0
        await pilot.press("home")
        await pilot.pause()
        assert scroll.scroll_y == 0
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
        # every card of the hand: its Chinese face over its rank (1-10), which a reader new
        # to the numerals can read; the Chinese screen shows the face alone
        buttons = list(app.query(CardButton))
        assert buttons and all(str(b.label).split("\n") == [str(b.card), f"{b.card.rank:>2}"] for b in buttons)
        assert all(b.region.height == 2 for b in buttons)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "The rules in brief" in app.screen.text and "Hu table" in app.screen.text
    chinese = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with chinese.run_test(size=SIZE):
        assert all(str(b.label) == str(b.card) for b in chinese.query(CardButton))


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


async def _all_reachable(app: ErqishiApp, pilot: Pilot[None]) -> set[Action]:
    """Every action reachable from the buttons (opening each 吃's 摆 choices), checking that
    each button is drawn inside the screen and found where it is drawn."""
    reached: set[Action] = set()
    screen = app.screen.region
    for button in list(app.query(ActionButton)):
        region = button.region
        assert region.width > 0 and screen.contains_region(region), (str(button.label), region)
        assert app.get_widget_at(region.x + 1, region.y)[0] is button
        if button.move is not None:
            reached.add(button.move)
    for pair in [o.pair for o in app.offered if o.pair is not None]:
        app.chi_pair = pair
        await app.refresh_view()
        await pilot.pause()
        for button in app.query(ActionButton):
            assert screen.contains_region(button.region), (str(button.label), button.region)
            if button.move is not None:
                reached.add(button.move)
        assert app.offered[-1] == Option(back=True)
        await pilot.press("escape")
    return reached


async def test_many_options_fit_at_every_size() -> None:
    """22 options (对, 20 吃/摆 variants on 捌, 过): each 吃 is one button and its 摆 choices
    the next step, so every option is reachable and drawn inside the screen at 80×24,
    100×30 and 150×45, keys go on past 9, and the log keeps several lines."""
    for size in ((80, 24), (100, 30), (150, 45)):
        app = _many_options_app()
        async with app.run_test(size=size) as pilot:
            legal = set(app.human_view().legal)
            assert len(legal) == 22 and len(app.offered) < 10
            assert await _all_reachable(app, pilot) == legal, size
            assert app.query_one("#log").region.height >= 4, size
            assert "轮到：你（回应）" in str(app.query_one("#status").render())
            chis = [o for o in app.offered if o.pair is not None]
            assert chis and all("吃捌：" in app.option_label(o, app.state.pending) for o in chis)
            # with the hints shown, they and the log are both readable
            await pilot.press("h")
            await pilot.pause()
            hints, log = app.query_one("#hints").region, app.query_one("#log").region
            assert hints.width >= 30 and hints.height >= 4 and log.width >= 30 and log.height >= 4, size


async def test_a_choice_on_a_later_step_is_played_by_key() -> None:
    """The last 摆 choice of the last 吃, by its key, plays exactly it; 过 by its button."""
    app = _many_options_app()
    async with app.run_test(size=(100, 30)) as pilot:
        last_pair = [i for i, o in enumerate(app.offered) if o.pair is not None][-1]
        await pilot.press(ACTION_KEYS[last_pair])
        assert app.chi_pair is not None
        choice = len(app.offered) - 2  # the last 摆 choice (the very last is 返回)
        chosen = app.offered[choice].action
        assert chosen is not None and chosen.bai
        before = len(app.actions)
        await pilot.press(ACTION_KEYS[choice])
        assert app.actions[before:] == [(1, chosen)]
        assert app.log_lines[-1].startswith(f"你 吃 捌（{''.join(map(str, chosen.cards))}），摆 ")
    app = _many_options_app()
    async with app.run_test(size=(100, 30)) as pilot:
        button = app.query_one(f"#act-{len(app.offered) - 1}", ActionButton)
        assert button.move == PASS
        before = len(app.actions)
        await pilot.click(f"#{button.id}")
        assert app.actions[before][1] == PASS and "无人要 捌" in app.log_lines


async def test_save_failure_and_no_overwrite(tmp_path: Path) -> None:
    """s with an unwritable save_dir shows a message instead of crashing; saving twice keeps
    both files (a numeric suffix)."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, save_dir=Path("/proc/nope"))
    async with app.run_test(size=SIZE) as pilot:
        await _play_to_result(app, pilot)
        await pilot.press("s")
        assert app.result_shown
        assert app.last_saved is None and app.status_message.startswith("无法保存记录：")
        assert app.status_message in str(app.query_one("#result-status").render())
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
    the person may win on the pending card now."""
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
        assert "封顶：每家最多付 100" in text and "天胡：一番" in text and "规则：游戏大厅 app" in text
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
    """With one 圈 the match ends: the last result shows the final standings and the leader,
    offers no next hand, saves the hand with s and the whole match with m."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(10):
            await _play_to_result(app, pilot)
            if app.match.is_over:
                break
            assert "save_match" not in _active_actions(app)
            await pilot.press("n")
            await pilot.pause()
        assert app.match.is_over and app.result_shown
        text = _result(app)
        assert "最终成绩" in text and "下一手" not in text
        leaders = "、".join(app.who(s) for s in app.match.leaders)
        assert f"第一名：{leaders}" in text or f"并列第一：{leaders}" in text
        keys = _active_actions(app)
        assert "next_hand" not in keys and {"save", "save_match"} <= keys
        await pilot.press("n")
        assert app.result_shown
        await pilot.press("m")
        assert app.last_saved == tmp_path / "erqishi-18-match.json"
        data = json.loads(app.last_saved.read_text(encoding="utf-8"))
        assert data["kind"] == "match" and data["totals"] == list(app.match.totals)
        assert len(data["hands"]) == app.match.hands_played == len(app.outcomes)
        assert [h["result"]["payments"] for h in data["hands"]] == [list(o.payments) for o in app.outcomes]
        await pilot.press("s")
        assert app.last_saved == tmp_path / f"erqishi-18-hand{app.match.hands_played}.json"


async def test_compulsory_kai_and_pass_in_the_prompt_line() -> None:
    """Flipping the 4th card of a 坎: the prompt says 开 is compulsory; p explains why it does
    nothing in the prompt line (not over the hand), and the log names the card."""
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
        assert [a.kind for a in _actions(app)] == [ActionKind.KAI]
        assert app.prompt_text == "你翻出 五：开——必须开（有开必开）"
        await pilot.press("p")
        assert app.notice == "不能过：必须开（有开必开）" and not app.actions
        assert app.prompt_text == app.notice and not list(app._notifications)
        await pilot.press("1")
        assert app.log_lines[-1] == "你 开 五"
        await pilot.press("p")
        assert app.notice == "现在不能过：请打一张牌" and app.prompt_text == app.notice


async def test_footer_has_player_keys_only_and_english_grammar() -> None:
    """Footer labels follow the language and show no developer key; English verbs agree
    with "You"."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=SIZE):
        descriptions = {b.binding.description for b in app.screen.active_bindings.values()}
        assert {"提示", "帮助", "过", "退出", "按建议"} <= descriptions
        assert not app.ENABLE_COMMAND_PALETTE
        assert "palette" not in " ".join(descriptions).lower()
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        assert "—— Hand 1: round (圈) 1, dealer: You ——" in app.log_lines
        assert any(line.startswith("You discard ") for line in app.log_lines)
        assert not any("You discards" in line or "You deals" in line for line in app.log_lines)


def _luminance(color: str) -> float:
    """Relative luminance of a #rrggbb colour (WCAG 2)."""
    channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


async def test_every_card_state_has_contrast_and_the_seeds_colours() -> None:
    """R-1.1: 大 red, 小 black, on a paper face; every card state (free, locked, selected;
    big and small) has a contrast of at least 4.5:1, read off the widgets as drawn."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=SIZE) as pilot:
        seen: set[tuple[bool, bool, bool]] = set()
        for _ in range(3):
            for button in app.query(CardButton):
                fg, bg = button.styles.color.hex, button.styles.background.hex
                assert _contrast(fg, bg) >= 4.5, (str(button.label), fg, bg, button.classes)
                if button.card.is_big:
                    assert int(fg[1:3], 16) > 2 * max(int(fg[3:5], 16), int(fg[5:7], 16)), fg  # red
                else:
                    assert max(int(fg[i : i + 2], 16) for i in (1, 3, 5)) < 0x30, fg  # black
                seen.add((button.card.is_big, button.has_class("locked"), button.has_class("selected")))
            await pilot.press("right")
        assert {(True, False, False), (False, False, False)} <= seen and any(sel for *_, sel in seen)


@pytest.mark.parametrize(("players", "bots"), [(2, ["heuristic"]), (4, ["heuristic", "random", "heuristic"])])
async def test_two_and_four_players(players: int, bots: list[str]) -> None:
    """对抠 (two players) and four players play in the terminal, the bots in every other seat;
    with four the seat that sits the hand out is shown as such (R-10)."""
    rules = RuleSet.preset("duikou") if players == 2 else RuleSet.from_options({"players": 4})
    app = ErqishiApp(rules, 7, bots, 1)
    async with app.run_test(size=SIZE) as pilot:
        assert len(app.query(".seat")) == players
        if players == 4:
            out = next(s for s in range(4) if s not in app.state.order)
            assert "本手轮空" in str(app.query_one(f"#seat-{out}").render())
            assert "对家" in {app.who(s) for s in range(4)}
        else:
            assert app.who(1) == "对家"
        await _play_to_result(app, pilot)
        assert app.state.result is not None and len(app.state.result.payments) == players


async def test_quit_asks_first() -> None:
    """q asks; n goes back to the table; q then y leaves."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        assert "erqishi play --resume" in str(app.screen.query_one("#quit-body").render())
        await pilot.press("n")
        assert not isinstance(app.screen, QuitScreen) and app.is_running
        await pilot.press("q")
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code is not None or not app.is_running


async def test_quit_names_the_saved_file_it_will_resume(tmp_path: Path) -> None:
    """A match saved to a file of its own (``--saved-file``): the quit question gives the
    command that finds it, with that file (plain ``--resume`` would look elsewhere)."""
    path = tmp_path / "my match.json"
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, resume_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        body = str(app.screen.query_one("#quit-body").render())
        assert f"erqishi play --resume --saved-file '{path}'" in body, body
        assert path.exists()


async def _play_some(app: ErqishiApp, pilot: Pilot[None], rng: random.Random, decisions: int) -> None:
    for _ in range(decisions):
        if app.result_shown:
            if app.match.is_over:
                return
            await pilot.press("n")
            await pilot.pause()
            continue
        option = rng.randrange(len(app.offered))
        await pilot.press(ACTION_KEYS[option])


async def test_a_match_resumes_exactly_where_it_stopped(tmp_path: Path) -> None:
    """Leave in the middle of a match and resume it: the same hands, moves, declarations and
    bots' choices follow as in a match played without a break (same seed, same decisions)."""
    from erqishi.tui import resume

    rules = RuleSet.from_options({"match_quan": 1})
    saved = tmp_path / "saved.json"

    async def play_through(path: Path | None, decisions: random.Random, stop_after: int) -> ErqishiApp:
        app = ErqishiApp(rules, 31, ["heuristic", "search"], None, resume_path=path)
        async with app.run_test(size=SIZE) as pilot:
            await _play_some(app, pilot, decisions, stop_after)
        return app

    straight = await play_through(None, random.Random(1), 400)
    assert straight.match.is_over
    decisions = random.Random(1)  # the same decisions, in two parts
    before = await play_through(saved, decisions, 25)
    assert saved.exists() and not before.match.is_over
    again = ErqishiApp(rules, 0, ["random", "random"], None, resume_path=saved, saved=resume.load(saved))
    async with again.run_test(size=SIZE) as pilot:
        assert (again.seed, again.bot_names) == (31, before.bot_names)
        assert again.table.actions == before.table.actions and again.state.seats == before.state.seats
        assert [h.record_json() for h in again.table.hands] == [h.record_json() for h in before.table.hands]
        assert again.offered == before.offered and again.table.declared == before.table.declared
        await _play_some(again, pilot, decisions, 400)
    # the continuous match and the stopped-and-resumed one are the same match
    assert [h.record_json() for h in again.table.hands] == [h.record_json() for h in straight.table.hands]
    assert again.match.is_over and not saved.exists()  # a finished match is not kept


async def test_a_saved_match_is_offered_at_start_up(tmp_path: Path) -> None:
    """Starting a new game while a match is saved asks whether to continue it."""
    from erqishi.tui import resume

    saved = tmp_path / "saved.json"
    app = ErqishiApp(LESHAN, 44, ["heuristic", "heuristic"], 1, resume_path=saved)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        await pilot.pause()
        moves = list(app.actions)
    fresh = ErqishiApp(LESHAN, 45, ["random", "random"], 1, resume_path=saved, saved=resume.load(saved), offer=True)
    async with fresh.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert type(fresh.screen).__name__ == "ResumeScreen"
        await pilot.press("y")
        await pilot.pause()
        assert fresh.seed == 44 and fresh.actions == moves
        assert "—— 接着上次的比赛 ——" in fresh.log_lines


async def test_a_saved_match_continues_in_the_language_asked_for(tmp_path: Path) -> None:
    """A match saved in Chinese continued with ``lang="en"`` (``--lang en``) is English on
    the whole screen, the log and the footer alike (review: the board stayed Chinese while
    the footer was English)."""
    from erqishi.tui import resume

    saved = tmp_path / "saved.json"
    app = ErqishiApp(LESHAN, 44, ["heuristic", "heuristic"], 1, resume_path=saved)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        await pilot.pause()
    for offer in (True, False):  # answered at start-up, or erqishi play --resume --lang en
        again = ErqishiApp(
            LESHAN, 45, ["random", "random"], 1, lang="en", resume_path=saved, saved=resume.load(saved), offer=offer
        )
        async with again.run_test(size=SIZE) as pilot:
            await pilot.pause()
            if offer:
                await pilot.press("y")
                await pilot.pause()
            assert again.lang == "en"
            assert any(line.startswith("—— Hand 1") for line in again.log_lines), again.log_lines[:3]
            footer = {b.binding.description for b in again.screen.active_bindings.values() if b.binding.show}
            assert "Quit" in footer and "退出" not in footer


async def test_a_hand_that_ends_without_the_person_shows_its_own_result() -> None:
    """Four players: in a hand the person sits out (or one a bot ends before the person
    decides), the result shown is that hand's, and at the match end the standings show."""
    rules = RuleSet.from_options({"players": 4, "match_quan": 1})
    app = ErqishiApp(rules, 7, ["random", "random", "random"], None)
    async with app.run_test(size=SIZE) as pilot:
        sat_out = False
        for _ in range(12):
            await _play_to_result(app, pilot)
            result = app.state.result
            assert result is not None
            score = f"得分：{result.analysis.score}" if result.is_win and result.analysis else "荒庄"
            assert score in _result(app), (app.table.hand_number, _result(app))
            sat_out |= app.human_seat not in app.state.order
            if app.match.is_over:
                break
            await pilot.press("n")
            await pilot.pause()
        assert sat_out and app.match.is_over and "最终成绩" in _result(app)
        assert "next_hand" not in _active_actions(app)


async def test_home_end_and_enter_reach_the_hand_without_a_click() -> None:
    """The keys the help and the README promise work from the first screen: the log never
    takes the keyboard, so Home/End move the card cursor and Enter discards; on a result,
    Enter deals the next hand as n does (review: Home/End scrolled the log instead)."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=(100, 30)) as pilot:
        hand = app.human_view().hand
        await pilot.press("end")
        assert app.cursor == len(hand) - 1
        await pilot.press("home")
        assert app.cursor == 0
        await pilot.press("space")  # the suggested opening discard
        await _play_to_result(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert not app.result_shown and app.match.hands_played == 1


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 45)])
async def test_the_log_wraps_to_its_width_and_shows_the_newest_line(size: tuple[int, int]) -> None:
    """Every line of the story is wrapped at the log's own width, also after the log grows
    narrower (the result beside it) and after the terminal shrinks; the newest line is in
    view, also after the next hand is dealt (review: lines were cut, the log lagged)."""
    from erqishi.tui.app import StoryLog

    def shown(log: StoryLog) -> str:
        return "".join("".join(seg.text for seg in strip) for strip in log.lines).replace(" ", "")

    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=size) as pilot:
        await _play_to_result(app, pilot)
        await pilot.pause()
        log = app.query_one("#log", StoryLog)
        width = log.scrollable_content_region.width
        assert all(strip.cell_length <= width for strip in log.lines)
        text = shown(log)
        for line in app.log_lines:  # every word of every line, none cut off
            assert line.replace(" ", "") in text, line
        assert log.scroll_offset.y == log.max_scroll_y  # the newest line is in view
        await pilot.resize_terminal(size[0] - 20, size[1])
        await pilot.pause()
        log = app.query_one("#log", StoryLog)
        width = log.scrollable_content_region.width
        assert all(strip.cell_length <= width for strip in log.lines)
        assert app.log_lines[-1].replace(" ", "") in shown(log)
        await pilot.press("n")
        await pilot.pause()
        await pilot.pause()
        assert sum("做庄" in line for line in app.log_lines) == 2  # the next hand was dealt
        assert log.scroll_offset.y == log.max_scroll_y


async def test_quit_never_says_saved_when_saving_failed(tmp_path: Path) -> None:
    """q saves first, so the question says what is true: when the progress cannot be
    written (here its folder is a file), it says the match cannot be continued, not that it
    is saved (review: "进度已经保存" was shown and nothing was written)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1, resume_path=blocker / "progress.json")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        body = str(app.screen.query_one("#quit-body").render())
        assert "没能保存" in body and "已经保存" not in body
        await pilot.press("y")
        await pilot.pause()
    assert not (blocker / "progress.json").exists()


async def test_a_reason_given_twice_by_the_engine_is_said_once() -> None:
    """Two 吃 of the pending card refused for the same reason (R-5.8: the held copy cannot
    be laid in a 摆) read as one sentence in the prompt, not the same sentence twice."""
    from erqishi.core.engine.explain import Refusal

    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=SIZE):
        x4 = Card.parse("x4")
        twice = [Refusal("R-5.8", "bai_impossible", "R-5.8: …", x4), Refusal("R-5.8", "bai_impossible", "R-5.8: …", x4)]

        class Twice:  # the table, but for its refusals (a compiled Table takes no patch)
            def __init__(self, table: object) -> None:
                self._table = table

            def refusals(self, seat: int) -> list[Refusal]:
                return twice

            def __getattr__(self, name: str) -> object:
                return getattr(self._table, name)

        real = app.table
        app.table = Twice(real)  # type: ignore[assignment]
        try:  # no await in between: nothing else reads the table meanwhile
            said = app.response_refusals()
        finally:
            app.table = real
        assert len(said) == 1 and "R-5.8" in said[0]


async def test_hints_leave_out_wins_the_person_may_not_make() -> None:
    """R-6.2: the hints list no win on a card the person discarded (回笼) nor, after a
    declined win, one that scores no more than it until the next take (过胡) (review: the
    panel kept showing 下叫 the engine then refused)."""
    from erqishi.core.hands import find_waits

    waits = list(find_waits("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"]))  # 一 四 七, 10 each
    assert [str(w.card) for w in waits] == ["一", "四", "七"] and {w.score for w in waits} == {10}
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=SIZE):
        state = app.table.state
        assert state is not None
        seats = list(state.seats)
        me = seats[app.human_seat]
        four = Card.parse("x4")
        seats[app.human_seat] = me.evolve(discarded=1 << int(four), guohu=-1)
        app.table.state = replace(state, seats=tuple(seats))
        assert [str(w.card) for w in app._may_win(waits)] == ["一", "七"]  # 回笼 on 四
        assert [str(w.card) for w in app._may_win(waits, Card.parse("x1"))] == ["七"]  # and the discard
        seats[app.human_seat] = me.evolve(guohu=10)
        app.table.state = replace(state, seats=tuple(seats))
        assert app._may_win(waits) == []  # 过胡 at 10: only a higher score may win
        seats[app.human_seat] = me.evolve(guohu=9)
        app.table.state = replace(state, seats=tuple(seats))
        assert len(app._may_win(waits)) == 3


async def test_ctrl_c_asks_in_the_screens_language() -> None:
    """Ctrl-C opens the same question as q, in Chinese on a Chinese screen (review: it showed
    Textual's English notice about Ctrl-Q)."""
    app = ErqishiApp(LESHAN, 18, ["heuristic", "random"], 1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert "退出这场比赛" in str(app.screen.query_one("#quit-title").render())
        await pilot.press("n")
        assert not isinstance(app.screen, QuitScreen) and app.is_running
