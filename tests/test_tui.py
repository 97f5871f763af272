"""The terminal game driven headless with Textual's pilot: a whole hand to the result
screen, a 吃 with a choice of 摆 (R-5.8), card selection, hints (下叫), help and English."""

from __future__ import annotations

import json
from pathlib import Path

from erqishi.core import Card, parse_cards
from erqishi.core.engine import Action, ActionKind, Deal
from erqishi.core.rules import LESHAN
from erqishi.tui.app import ActionButton, CardButton, ErqishiApp, HelpScreen, ResultScreen

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
        assert sum("新的一手" in line for line in app.log_lines) == 2


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
        assert any(label.endswith(with_run.chinese) for label in labels)
        assert any(label.endswith(with_hua.chinese) for label in labels)
        assert {b.move for b in buttons} == set(app.human_view().legal)
        target = next(b for b in buttons if b.move == with_hua)
        await pilot.click(f"#{target.id}")
        assert app.actions == [(0, with_hua)]
        melds = app.state.seats[0].melds
        assert {g.cards for g in melds} == {(X1, X2, X3), (X1, D1, D1)}
        assert any("吃 二三 摆 一壹壹" in line for line in app.log_lines)
        assert app.state.turn == 0 and "请打一张牌" in app.prompt_text


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
        assert "下叫：" in app.hints_text
        assert "四 " in app.hints_text and "七 " in app.hints_text
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
        assert "Waits (下叫)" in app.hints_text and "Suggestion" in app.hints_text
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "The rules in brief" in app.screen.text and "Hu table" in app.screen.text
