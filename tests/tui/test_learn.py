"""``erqishi learn`` driven headless with Textual's pilot, like the terminal game: three
lessons finished by keys (a PICK, a MOVE with a wrong move first that hears the engine's
rule, a CHOOSE), the stars saved to the progress file and read back, hints costing stars,
English, an 80×24 screen, the PLAY lesson handing over to the game, the coach at the table
(``erqishi play --coach``) and the help pointing to ``/rules`` and ``erqishi learn``.

Expected values come from RULES.md and the lesson data (card notation, R-1.1: 壹…拾 are the
大 cards; R-3.1: a 坎 stays whole; R-7: 13 hu is 小和 10, 瞟胡 doubles it), not from the
code under test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from erqishi import cli
from erqishi.core import Card, parse_cards
from erqishi.core.engine import Action, Deal
from erqishi.core.rules import LESHAN
from erqishi.learn import LESSONS, lesson
from erqishi.learn.progress import Progress
from erqishi.tui import learn as tui_learn
from erqishi.tui.app import ErqishiApp, HelpScreen
from erqishi.tui.learn import (
    PLAY,
    LearnApp,
    LessonCard,
    LessonScreen,
    MenuScreen,
    OptionButton,
    finish_play_lesson,
    play_lesson_game,
)

SIZE = (100, 30)
#: R-1.2: the 大 cards are written 壹 … 拾.
BIG_FACES = "壹贰叁肆伍陆柒捌玖拾"


def _screen(app: LearnApp) -> LessonScreen:
    screen = app.screen
    assert isinstance(screen, LessonScreen), type(screen)
    return screen


def _feedback(app: LearnApp) -> str:
    return _screen(app).feedback.plain


def _stored(path: Path) -> dict[str, int]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == 1
    stars: dict[str, int] = data["stars"]
    return stars


async def _cursor_to(pilot: Pilot[str | None], screen: LessonScreen, index: int) -> None:
    """Move the lesson's cursor to card ``index`` with the arrow keys."""
    n = len(screen.tap_cards())
    steps = (index - screen.cursor) % n
    for _ in range(steps):
        await pilot.press("right")
    assert screen.cursor == index


async def test_three_lessons_by_keys_and_progress_read_back(tmp_path: Path) -> None:
    """PICK (cards): tap every 大 card and Enter; MOVE (locked): a 坎 card first, refused
    with R-3.1, then a free card; CHOOSE (fan): 20. Stars: 3, 2 (one mistake), 3; each is
    saved at once, and a new session reads them back and offers the next lesson."""
    path = tmp_path / "lessons.json"
    app = LearnApp(Progress(), path, "zh", start="cards")
    async with app.run_test(size=SIZE) as pilot:
        screen = _screen(app)
        cards = screen.tap_cards()
        assert "".join(map(str, cards)) == lesson("cards").cards
        for i, card in enumerate(cards):
            if str(card) in BIG_FACES:
                await _cursor_to(pilot, screen, i)
                await pilot.press("space")
        assert {cards[i] for i in screen.picked} == {c for c in cards if str(c) in BIG_FACES}
        await pilot.press("enter")
        assert lesson("cards").done.zh in _feedback(app)
        assert "★★★" in _feedback(app)
        assert _stored(path) == {"cards": 3}

        # the next lesson with Enter; then straight to the locked lesson from the list
        await pilot.press("enter")
        assert _screen(app).lesson.id == LESSONS[1].id
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)
        app.open_lesson("locked")
        await pilot.pause()
        screen = _screen(app)
        hand = screen.tap_cards()
        kan = next(i for i, c in enumerate(hand) if hand.count(c) == 3)  # 五五五: a 坎
        await _cursor_to(pilot, screen, kan)
        await pilot.press("enter")
        said = _feedback(app)
        assert "R-3.1" in said and "坎" in said and str(hand[kan]) in said
        assert not screen.run.done and _stored(path) == {"cards": 3}
        # a card in no 坎 or 滚 is offered among the moves: press its key
        labels = screen.option_labels()
        free = next(i for i, c in enumerate(hand) if hand.count(c) < 3)
        key = labels.index(f"打 {hand[free]}") + 1
        await pilot.press(str(key))
        said = _feedback(app)
        assert lesson("locked").done.zh in said and "★★☆" in said
        assert f"你 打 {hand[free]}" in said  # the story of the move, narrated
        assert _stored(path) == {"cards": 3, "locked": 2}

        await pilot.press("escape")
        app.open_lesson("fan")
        await pilot.pause()
        screen = _screen(app)
        # 13 hu (八八八 捌捌捌 贰柒拾 玖玖玖 melds, 一二三 四五六 七八九) is 小和 10; no 坎 or 滚: 瞟胡, ×2
        labels = screen.option_labels()
        await pilot.press(str(labels.index("20 分") + 1))
        assert lesson("fan").done.zh in _feedback(app) and "★★★" in _feedback(app)
        assert _stored(path) == {"cards": 3, "locked": 2, "fan": 3}

    again = LearnApp(Progress.load(path), path, "zh")
    async with again.run_test(size=SIZE) as pilot:
        menu = again.screen
        assert isinstance(menu, MenuScreen)
        box = menu.query_one("#lessons", OptionList)
        prompts = [str(box.get_option_at_index(i).prompt) for i in range(box.option_count)]
        assert len(prompts) == len(LESSONS)
        assert "★★★ 牌：小和大" in prompts[0]
        assert "★★☆ 坎和滚不能拆" in prompts[2]
        assert prompts[1].startswith("▶") and "☆☆☆" in prompts[1]  # the first not finished
        await pilot.press("enter")
        assert _screen(again).lesson.id == "groups"


async def test_hints_and_mistakes_cost_stars(tmp_path: Path) -> None:
    """A hint leaves one star; a better result later replaces it, a worse one does not."""
    path = tmp_path / "p.json"
    app = LearnApp(Progress(), path, "zh", start="payments")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        assert "提示" in _feedback(app)
        screen = _screen(app)
        # a win on a discard is paid by the discarder alone, three times the score (20)
        labels = screen.option_labels()
        await pilot.press(str(labels.index("上家 付 60") + 1))
        assert "★☆☆" in _feedback(app)
        assert _stored(path) == {"payments": 1}
    app = LearnApp(Progress.load(path), path, "zh", start="payments")
    async with app.run_test(size=SIZE) as pilot:
        labels = _screen(app).option_labels()
        await pilot.press(str(labels.index("上家 付 20") + 1))  # wrong: names R-8
        assert "R-8" in _feedback(app)
        await pilot.press(str(labels.index("上家 付 60") + 1))
        assert _stored(path) == {"payments": 2}


async def test_english_screen() -> None:
    """--lang en: the lesson's English title, intro, goal and moves; the footer's keys."""
    app = LearnApp(Progress(), None, "en", start="shangtu")
    async with app.run_test(size=SIZE) as pilot:
        screen = _screen(app)
        item = lesson("shangtu")
        title = str(app.screen.query_one("#lesson-title").render())
        assert item.title.en in title
        assert item.intro[0].en[:40] in str(screen.query_one("#lesson-intro").render())
        goal = str(screen.query_one("#lesson-goal").render())
        assert goal.startswith("Goal:") and item.steps[0].goal.en in goal
        assert "Pass (过)" in screen.option_labels()
        cards = list(screen.query(LessonCard))  # the face over the rank (1-10) in English
        assert cards and all(str(c.label).split("\n") == [str(c.card), f"{c.card.rank:>2}"] for c in cards)
        descriptions = {b.binding.description for b in app.screen.active_bindings.values()}
        assert {"Lessons", "Hint"} <= descriptions
        # step 1: 吃 二 with 三四; step 2: 五 is refused by 上吐下泻
        labels = screen.option_labels()
        await pilot.press(str(labels.index("Chow 吃 三四") + 1))
        assert "Good" in _feedback(app)
        hand = screen.tap_cards()
        await _cursor_to(pilot, screen, hand.index(Card.parse("五")))
        await pilot.press("enter")
        assert "R-5.10" in _feedback(app) and "Not so" in _feedback(app)


@pytest.mark.parametrize("lesson_id", ["chi", "waits", "payments", "locked"])
async def test_80x24_shows_goal_cards_and_options(lesson_id: str) -> None:
    """At 80×24 the goal, every card to tap and every option are on the screen."""
    app = LearnApp(Progress(), None, "zh", start=lesson_id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = _screen(app)
        region = screen.region
        goal = screen.query_one("#lesson-goal").region
        assert goal.height > 0 and region.contains_region(goal)
        buttons = list(screen.query(OptionButton))
        assert len(buttons) == len(screen.option_labels())
        for widget in [*buttons, *screen.query("LessonCard")]:
            assert widget.region.width > 0 and region.contains_region(widget.region), widget
        if lesson_id == "waits":
            assert len(screen.query("LessonCard")) == 20  # every card, to tap the winning ones


async def test_waits_lesson_taps_the_winning_cards() -> None:
    """WAITS: the hand waits on 肆 and 柒 (伍陆 + 肆/柒, RULES R-6.1 as the lesson says)."""
    app = LearnApp(Progress(), None, "zh", start="waits")
    async with app.run_test(size=SIZE) as pilot:
        screen = _screen(app)
        keys = screen.tap_cards()
        await _cursor_to(pilot, screen, keys.index(Card.parse("肆")))
        await pilot.press("space")
        await pilot.press("enter")
        assert "R-6.1" in _feedback(app)
        await _cursor_to(pilot, screen, keys.index(Card.parse("柒")))
        await pilot.press("space")
        await pilot.press("enter")
        assert lesson("waits").done.zh in _feedback(app)


async def test_the_play_lesson_is_the_game_with_the_coach(tmp_path: Path) -> None:
    """Opening the last lesson leaves the lessons for the game (one hand, two heuristic
    bots, the coach on); finishing the hand finishes the lesson."""
    app = LearnApp(Progress(), None, "zh")
    async with app.run_test(size=SIZE) as pilot:
        app.open_lesson(LESSONS[-1].id)
        await pilot.pause()
    assert app.return_value == PLAY

    path = tmp_path / "p.json"
    progress = Progress()
    game = play_lesson_game("zh", seed=18)
    assert game.coach_on and game.one_hand and game.bot_names == {1: "heuristic", 2: "heuristic"}
    async with game.run_test(size=(120, 45)) as pilot:
        for _ in range(300):
            if game.result_shown:
                break
            await pilot.press("1")
        assert game.result_shown
        assert "q" in game.prompt_text and "n " not in game.prompt_text
        assert game.check_action("next_hand", ()) is False
        await pilot.press("q")  # leaves at once after the one hand
    assert finish_play_lesson(game, progress, path) == 3
    assert _stored(path) == {"play": 3}


def _waiting_deal() -> Deal:
    """Seat 0 holds the lesson hand that waits on 肆/柒 (R-6.1); the dealer (seat 2, seat 0's
    上家) holds one 肆 and will open with it."""
    human = list(parse_cards("二七十贰柒拾三三三四五六八九十壹贰叁伍陆"))
    x = Card.parse("肆")
    pool = {c: 4 for c in Card}
    for c in [*human, x]:
        pool[c] -= 1
    rest = [c for c in Card if c != x for _ in range(pool[c])]
    dealer = [x, *rest[:20]]
    return Deal(dealer=2, hands=(tuple(human), tuple(rest[20:40]), tuple(dealer)), stock=(*rest[40:], *[x] * pool[x]))


@pytest.mark.parametrize(("lang", "words"), [("zh", "过胡"), ("en", "过胡")])
async def test_the_coach_notes_a_missed_win(lang: str, words: str) -> None:
    """With the coach on, passing a 胡 on 肆 gets a note in the log and the prompt that names
    过胡 (R-6.2) and the card; without the coach, no note."""
    for on in (True, False):
        app = ErqishiApp(
            LESHAN,
            1,
            ["heuristic", "heuristic"],
            None,
            lang=lang,
            coach=on,
            deal=_waiting_deal(),
            moves=[(2, Action.discard(Card.parse("肆")))],
        )
        async with app.run_test(size=(120, 45)) as pilot:
            assert Action.parse("hu") in app.human_view().legal
            await pilot.press("p")
            notes = [line for line in app.log_lines if "R-6.2" in line]
            if on:
                assert len(notes) == 1 and words in notes[0] and "肆" in notes[0]
                assert notes[0] in app.prompt_text
                assert ("Coach" if lang == "en" else "教练") in notes[0]
            else:
                assert notes == [] and app.coach_notes == []


def test_play_coach_option_reaches_the_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`erqishi play --coach` starts the game with the coach on (off without it)."""
    seen: list[bool] = []
    monkeypatch.setattr(ErqishiApp, "run", lambda self, *a, **k: seen.append(self.coach_on))
    saved = tmp_path / "saved.json"
    assert cli.main(["play", "--coach", "--seed", "3", "--saved-file", str(saved)]) == 0
    assert cli.main(["play", "--seed", "3", "--saved-file", str(saved)]) == 0
    assert seen == [True, False]


def test_learn_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`erqishi learn`: an unknown lesson or a damaged progress file is a one-line error
    (exit 2) naming it; otherwise the lessons start with the language and the file."""
    calls: list[tuple[str, Path, str | None]] = []
    monkeypatch.setattr(tui_learn, "run_learn", lambda lang, path, start=None: calls.append((lang, path, start)))
    assert cli.main(["learn", "nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2", encoding="utf-8")
    assert cli.main(["learn", "--progress", str(bad)]) == 2
    assert str(bad) in capsys.readouterr().err
    assert cli.main(["learn", "--lang", "fr"]) == 2
    good = tmp_path / "good.json"
    assert cli.main(["learn", "kai", "--lang", "en", "--progress", str(good)]) == 0
    assert calls == [("en", good, "kai")]


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_help_points_to_the_rules_page_and_the_lessons(lang: str) -> None:
    """The game's ? help names the /rules page of erqishi serve and erqishi learn."""
    app = ErqishiApp(LESHAN, 5, ["heuristic", "heuristic"], None, lang=lang)
    async with app.run_test(size=(120, 45)) as pilot:
        await pilot.press("question_mark")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        assert "/rules" in screen.text and "erqishi serve" in screen.text
        assert "erqishi learn" in screen.text
