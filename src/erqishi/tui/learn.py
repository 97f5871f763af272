"""``erqishi learn``: the lessons in the terminal (Textual), from the one lesson data
(:mod:`erqishi.learn`) that the web page ``/learn`` reads too.

The list of lessons shows each one's stars and the next one to do. In a lesson the learner
taps cards (PICK, GROUP, WAITS), picks an answer (CHOOSE) or makes a move at a position
(MOVE); :class:`~erqishi.learn.LessonRun` checks each try with the engine or the scorer and
its :class:`~erqishi.learn.Verdict` is shown at once (a wrong try with the engine's reason
and its R-id). Nothing here decides a rule. A finished lesson's stars are saved to the
progress file (:class:`~erqishi.learn.progress.Progress`). The last lesson (PLAY) is the
terminal game itself (:class:`~erqishi.tui.app.ErqishiApp`, one hand against two heuristic
bots, the coach on): :func:`run_learn` leaves the lessons for it and comes back after.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, OptionList, Static
from textual.widgets.option_list import Option

from erqishi.core import Card, RuleSet
from erqishi.core.engine import Action, ActionKind, Phase, PlayerView
from erqishi.learn import LESSONS, GoalKind, LessonRun, Verdict, lesson
from erqishi.learn.progress import Progress
from erqishi.tui.app import ErqishiApp
from erqishi.tui.i18n import ACTION_KEYS, tr
from erqishi.tui.widgets import INK_BIG, INK_SMALL, PAPER, SELECTED_PAPER, localize_bindings

__all__ = [
    "PLAY",
    "PLAY_LESSON",
    "LearnApp",
    "LessonCard",
    "LessonScreen",
    "MenuScreen",
    "finish_play_lesson",
    "play_lesson_game",
    "run_learn",
    "stars_text",
]

#: What :class:`LearnApp` returns when the learner opens the PLAY lesson.
PLAY = "play"
#: The id of the PLAY lesson (the last one).
PLAY_LESSON = next(item.id for item in LESSONS if item.kind is GoalKind.PLAY)

#: The cursor's face (a light blue) and a tapped card under the cursor (light green).
CURSOR_PAPER = "#9cc8ff"
PICKED_CURSOR_PAPER = "#b6e07a"


def stars_text(stars: int) -> str:
    """``★★☆`` for 2 of 3 stars."""
    return "★" * stars + "☆" * (3 - stars)


def card_face(card: Card) -> Text:
    """A card face as the game draws it (R-1.1: 大 red, 小 black, on paper), 二 七 十 and
    贰 柒 拾 underlined as the first lesson says."""
    ink = INK_BIG if card.is_big else INK_SMALL
    style = f"bold {ink} on {PAPER}"
    if card.rank in (2, 7, 10):
        style += " underline"
    return Text(str(card), style=style)


def faces(cards: tuple[Card, ...] | list[Card]) -> Text:
    """Card faces side by side, a space between."""
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append_text(card_face(card))
    return text


class LessonCard(Button):
    """A card to tap in a lesson: 大 red, 小 black, 二七十 underlined; a tapped card is
    yellow, the cursor's card blue."""

    can_focus = False

    DEFAULT_CSS = f"""
    LessonCard.card {{ min-width: 2; width: 2; height: 1; margin: 0 1 0 0; padding: 0; border: none;
                      text-style: bold; }}
    LessonCard.card, LessonCard.card:hover {{ background: {PAPER}; }}
    LessonCard.card.small {{ color: {INK_SMALL}; }}
    LessonCard.card.big {{ color: {INK_BIG}; }}
    LessonCard.card.ejs {{ text-style: bold underline; }}
    LessonCard.card.picked, LessonCard.card.picked:hover {{ background: {SELECTED_PAPER}; }}
    LessonCard.card.cursor, LessonCard.card.cursor:hover {{ background: {CURSOR_PAPER}; }}
    LessonCard.card.picked.cursor, LessonCard.card.picked.cursor:hover {{ background: {PICKED_CURSOR_PAPER}; }}
    LessonCard.card.ranked {{ height: 2; }}
    """

    def __init__(self, card: Card, index: int, *, picked: bool, cursor: bool, rank: bool = False) -> None:
        """``rank``: the card's rank (1-10) under its face (the English lessons)."""
        classes = "card big" if card.is_big else "card small"
        if rank:
            classes += " ranked"
        if card.rank in (2, 7, 10):
            classes += " ejs"
        if picked:
            classes += " picked"
        if cursor:
            classes += " cursor"
        label = f"{card}\n{card.rank:>2}" if rank else str(card)
        super().__init__(label, id=f"lcard-{index}", classes=classes, compact=True)
        self.styles.line_pad = 0
        self.card = card
        self.index = index


class OptionButton(Button):
    """An answer (CHOOSE) or a move (MOVE) with its key."""

    can_focus = False

    def __init__(self, index: int, label: str) -> None:
        key = ACTION_KEYS[index] if index < len(ACTION_KEYS) else ""
        text = f"{key} {label}" if key else label
        super().__init__(text, id=f"lopt-{index}", variant="primary", compact=True)
        self.styles.width = self.cells = cell_len(text) + 2
        self.index = index


def _learn_app(node: Screen[None]) -> LearnApp:
    app = node.app
    assert isinstance(app, LearnApp)
    return app


class MenuScreen(Screen[None]):
    """The lessons with their stars; the next lesson to do is marked and highlighted."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "Quit"),
        Binding("escape", "app.quit", "Quit", show=False),
    ]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        localize_bindings(self, lang)

    def compose(self) -> ComposeResult:
        """The title, how far the learner is, the list."""
        yield Static(tr(self.lang, "learn_title"), id="menu-title")
        yield Static("", id="menu-summary")
        yield OptionList(id="lessons")
        yield Static(tr(self.lang, "learn_menu_keys"), id="menu-keys")
        yield Footer()

    def on_mount(self) -> None:
        """Fill the list."""
        self.refresh_list()

    def on_screen_resume(self) -> None:
        """Back from a lesson: its stars show."""
        self.refresh_list()

    def refresh_list(self) -> None:
        """The lessons, each with its stars, the next one marked ▶."""
        app = _learn_app(self)
        lang = self.lang
        progress = app.progress
        nxt = progress.next_lesson()
        options = []
        for i, item in enumerate(LESSONS):
            stars = progress.stars.get(item.id, 0)
            mark = "▶" if item.id == nxt else " "
            options.append(Option(f"{mark} {i + 1:2d}. {stars_text(stars)} {item.title.get(lang)}", id=item.id))
        box = self.query_one("#lessons", OptionList)
        box.clear_options()
        box.add_options(options)
        box.highlighted = [item.id for item in LESSONS].index(nxt)
        box.focus()
        summary = tr(lang, "learn_summary", done=progress.finished, n=len(LESSONS), next=lesson(nxt).title.get(lang))
        if app.notice:
            summary = f"{app.notice}\n{summary}"
        self.query_one("#menu-summary", Static).update(summary)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Open the lesson chosen."""
        if event.option_id is not None:
            _learn_app(self).open_lesson(event.option_id)


class LessonScreen(Screen[None]):
    """One lesson: the title, the explanation, the goal, the cards or the position, the
    options, and the verdict of each try."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Lessons"),
        Binding("h", "hint", "Hint"),
        Binding("left", "move_cursor(-1)", "←", show=False),
        Binding("right", "move_cursor(1)", "→", show=False),
        Binding("space", "tap", "Tap", show=False),
        Binding("enter", "confirm", "OK", show=False),
        Binding("n", "next_lesson", "Next", show=False),
        *[Binding(key, f"choose({i})", key, show=False) for i, key in enumerate(ACTION_KEYS)],
    ]

    def __init__(self, lesson_id: str, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.lesson = lesson(lesson_id)
        self.run = LessonRun(self.lesson)
        self.cursor = 0
        self.picked: set[int] = set()
        self.feedback = Text()
        self._shown: tuple[tuple[Card, ...], list[str]] | None = None
        localize_bindings(self, lang)

    # ------------------------------------------------------------------ what is shown

    @property
    def kind(self) -> GoalKind:
        """What the learner does here."""
        return self.lesson.kind

    def tap_cards(self) -> tuple[Card, ...]:
        """The cards the cursor moves over: the hand (PICK, GROUP, MOVE), or every card, 小
        then 大, to tap the winning ones (WAITS)."""
        if self.kind is GoalKind.WAITS:
            return tuple(Card)
        if self.kind is GoalKind.MOVE:
            return self.run.view().hand if not self.run.done else ()
        if self.kind in (GoalKind.PICK, GoalKind.GROUP):
            return self.run.hand()
        return ()

    def option_labels(self) -> list[str]:
        """The answers (CHOOSE) or the moves (MOVE, the tempting refused ones included)."""
        if self.kind is GoalKind.CHOOSE:
            return [c.text.get(self.lang) for c in self.run.choices()] if not self.run.done else []
        if self.kind is GoalKind.MOVE:
            return [self.move_label(a) for a in self.run.options()]
        return []

    def move_label(self, action: Action) -> str:
        """A move in words (card faces in Chinese)."""
        if self.lang != "en":
            return action.chinese
        if action.kind is ActionKind.PASS:
            return tr("en", "pass")
        if action.kind is ActionKind.DISCARD:
            return tr("en", "discard_selected", card=str(action.cards[0]))
        words = {"chi": "Chow", "dui": "Pung", "kai": "Kong", "hu": "Win"}
        return f"{words[action.kind.value]} {action.chinese}"

    def who(self, seat: int) -> str:
        """A seat as the learner knows it (R-2.1)."""
        me = self.lesson.seat
        if seat == me:
            return tr(self.lang, "you")
        n = self.run.view().rules.players
        return tr(self.lang, "xiajia") if (seat - me) % n == 1 else tr(self.lang, "shangjia")

    def position_text(self) -> Text:
        """MOVE: every seat's melds and row, the pending card and whose it is (R-9: only
        what the learner sees)."""
        v: PlayerView = self.run.view()
        lang = self.lang
        colon = ": " if lang == "en" else "："
        text = Text()
        for seat in v.order:
            sv = v.seats[seat]
            text.append(f"{self.who(seat)}", style="bold")
            text.append(f" ({tr(lang, 'hand_size', n=sv.hand_size)})  {tr(lang, 'melds')}{colon}")
            if not sv.melds:
                text.append(tr(lang, "none"))
            for group in sv.melds:
                text.append(f"{group.name} ")
                text.append_text(faces(list(group.cards)))
                text.append(" ")
            text.append(f"  {tr(lang, 'row')}{colon}")
            text.append_text(faces(list(sv.row)) if sv.row else Text(tr(lang, "none")))
            text.append("\n")
        if v.pending is not None and v.phase is Phase.RESPONSE:
            key = "learn_pending_flip" if v.pending_flip else "learn_pending_discard"
            text.append(tr(lang, key, who=self.who(v.turn)) + " ", style="bold")
            text.append_text(card_face(v.pending))
            text.append("\n")
        elif v.phase in (Phase.DISCARD, Phase.OPENING) and v.turn == self.lesson.seat:
            text.append(tr(lang, "learn_owe_discard") + "\n", style="bold")
        return text

    def body_text(self) -> Text:
        """The explanation, then (MOVE) the position, (WAITS) the hand and its melds."""
        lang = self.lang
        text = Text()
        for paragraph in self.lesson.intro:
            text.append(paragraph.get(lang) + "\n")
        if self.kind is GoalKind.MOVE:
            text.append("\n")
            text.append_text(self.position_text())
        elif self.kind is GoalKind.WAITS:
            text.append("\n" + tr(lang, "learn_the_hand") + " ", style="bold")
            text.append_text(faces(list(self.run.hand())))
            if self.lesson.melds:
                text.append("  " + tr(lang, "melds") + " " + " ".join(self.lesson.melds))
            text.append("\n")
        elif self.kind is GoalKind.CHOOSE and self.lesson.win is not None:
            win = self.lesson.win
            text.append("\n" + tr(lang, "learn_the_hand") + " ", style="bold")
            text.append_text(faces(list(Card.parse(c) for c in win.hand)))
            text.append("  " + tr(lang, "melds") + " " + " ".join(win.melds))
            text.append("  " + tr(lang, "learn_win_card") + " ")
            text.append_text(card_face(Card.parse(win.card)))
            text.append("\n")
        return text

    def goal_text(self) -> Text:
        """The goal now (a MOVE lesson's step), and the keys that reach it."""
        lang = self.lang
        text = Text(tr(lang, "learn_goal") + " ", style="bold")
        text.append(self.run.goal().get(lang), style="bold yellow")
        keys = {
            GoalKind.PICK: "learn_keys_tap",
            GoalKind.GROUP: "learn_keys_tap",
            GoalKind.WAITS: "learn_keys_tap",
            GoalKind.CHOOSE: "learn_keys_choose",
            GoalKind.MOVE: "learn_keys_move",
        }
        if self.run.done:
            text.append("  " + tr(lang, "learn_keys_done"))
        elif self.kind in keys:
            text.append("  " + tr(lang, keys[self.kind]))
        return text

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """Title, explanation (scrolls), goal, cards, options, feedback, keys."""
        number = [item.id for item in LESSONS].index(self.lesson.id) + 1
        rules = " ".join(self.lesson.rules)
        yield Static(f"{number}. {self.lesson.title.get(self.lang)}  ({rules})", id="lesson-title")
        with VerticalScroll(id="lesson-body"):
            yield Static("", id="lesson-intro")
        yield Static("", id="lesson-goal")
        yield Vertical(id="lesson-cards")
        yield Vertical(id="lesson-options")
        yield Static("", id="lesson-feedback")
        yield Footer()

    async def on_mount(self) -> None:
        """Show the lesson."""
        await self.redraw()

    async def redraw(self) -> None:
        """Everything from the lesson run as it is now."""
        self.query_one("#lesson-intro", Static).update(self.body_text())
        self.query_one("#lesson-goal", Static).update(self.goal_text())
        self.query_one("#lesson-feedback", Static).update(self.feedback)
        cards = self.tap_cards()
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        labels = self.option_labels()
        if (cards, labels) == self._shown:
            for card in self.query(LessonCard):  # the same cards: only the cursor and taps change
                card.set_class(card.index in self.picked, "picked")
                card.set_class(card.index == self.cursor and not self.run.done, "cursor")
            self.refresh_bindings()
            return
        self._shown = (cards, labels)
        box = self.query_one("#lesson-cards", Vertical)
        await box.remove_children()
        buttons = [
            LessonCard(
                card, i, picked=i in self.picked, cursor=i == self.cursor and not self.run.done, rank=self.lang == "en"
            )
            for i, card in enumerate(cards)
        ]
        if self.kind is GoalKind.WAITS:
            rows = [buttons[:10], buttons[10:]]
        else:
            rows = [buttons]
        row_class = "card-row ranked" if self.lang == "en" else "card-row"
        await box.mount_all([Horizontal(*row, classes=row_class) for row in rows if row])
        options = self.query_one("#lesson-options", Vertical)
        await options.remove_children()
        width = max(20, (self.size.width or 80) - 2)
        packed: list[list[OptionButton]] = []
        used = width
        for i, label in enumerate(labels):
            button = OptionButton(i, label)
            if used + button.cells + 1 > width:
                packed.append([])
                used = 0
            packed[-1].append(button)
            used += button.cells + 1
        await options.mount_all([Horizontal(*row, classes="option-row") for row in packed])
        self.refresh_bindings()

    # ------------------------------------------------------------------ the verdict

    async def show_verdict(self, verdict: Verdict) -> None:
        """Say at once what the try was worth: a wrong one with its reason and R-id; a
        right one with what happened; a finished lesson with its stars (saved)."""
        lang = self.lang
        text = Text()
        for line in verdict.story:  # a settled hand's first line only (the score); the rest is long
            text.append(line.get(lang).split("\n")[0] + "\n", style="italic")
        said = verdict.text.get(lang)
        if verdict.ok:
            text.append(said, style="bold green")
        else:
            if verdict.rule and verdict.rule not in said:
                said += f" ({verdict.rule})"
            text.append(tr(lang, "learn_wrong") + " ", style="bold red")
            text.append(said, style="red")
        if verdict.done:
            self.picked.clear()
            text.append("\n" + tr(lang, "learn_stars", stars=stars_text(self.run.stars)), style="bold")
            error = _learn_app(self).record(self.lesson.id, self.run.stars)
            if error:
                text.append("\n" + error, style="bold red")
            nxt = self.next_id()
            if nxt is not None:
                text.append("\n" + tr(lang, "learn_next", title=lesson(nxt).title.get(lang)))
            else:
                text.append("\n" + tr(lang, "learn_back"))
        elif verdict.ok:
            self.picked.clear()
        self.feedback = text
        await self.redraw()

    def next_id(self) -> str | None:
        """The lesson after this one, if any."""
        ids = [item.id for item in LESSONS]
        i = ids.index(self.lesson.id)
        return ids[i + 1] if i + 1 < len(ids) else None

    # ------------------------------------------------------------------ input

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Tries only while the lesson is not done; ``n`` only once it is."""
        if action in ("hint", "tap", "choose", "move_cursor"):
            return not self.run.done
        if action == "next_lesson":
            return self.run.done
        return True

    async def action_move_cursor(self, step: int) -> None:
        """Move the cursor over the cards."""
        cards = self.tap_cards()
        if cards:
            self.cursor = (self.cursor + step) % len(cards)
            await self.redraw()

    async def action_tap(self) -> None:
        """Tap (or untap) the card under the cursor."""
        if self.kind in (GoalKind.PICK, GoalKind.GROUP, GoalKind.WAITS) and self.tap_cards():
            self.picked ^= {self.cursor}
            await self.redraw()

    async def action_confirm(self) -> None:
        """Enter: check the tapped cards; MOVE: discard the card under the cursor; once
        done, the next lesson."""
        if self.run.done:
            self.action_next_lesson()
            return
        cards = self.tap_cards()
        if self.kind in (GoalKind.PICK, GoalKind.GROUP, GoalKind.WAITS):
            await self.show_verdict(self.run.try_cards([cards[i] for i in sorted(self.picked)]))
        elif self.kind is GoalKind.MOVE and cards and self._owes_discard():
            await self.show_verdict(self.run.try_move(Action.discard(cards[self.cursor])))

    def _owes_discard(self) -> bool:
        v = self.run.view()
        return v.phase in (Phase.DISCARD, Phase.OPENING) and v.turn == self.lesson.seat

    async def action_choose(self, index: int) -> None:
        """Answer number ``index + 1`` (CHOOSE) or make move number ``index + 1`` (MOVE)."""
        if self.run.done:
            return
        if self.kind is GoalKind.CHOOSE:
            choices = self.run.choices()
            if 0 <= index < len(choices):
                await self.show_verdict(self.run.try_choice(choices[index].key))
        elif self.kind is GoalKind.MOVE:
            options = self.run.options()
            if 0 <= index < len(options):
                await self.show_verdict(self.run.try_move(options[index]))

    async def action_hint(self) -> None:
        """A hint (it costs stars)."""
        hint = self.run.hint().get(self.lang)
        self.feedback = Text(tr(self.lang, "learn_hint", hint=hint), style="bold yellow")
        await self.redraw()

    def action_back(self) -> None:
        """Back to the list of lessons."""
        self.dismiss(None)

    def action_next_lesson(self) -> None:
        """The next lesson (or the list after the last)."""
        nxt = self.next_id() if self.run.done else None
        if nxt is None:
            self.dismiss(None)
            return
        _learn_app(self).open_lesson(nxt, replace=True)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click taps a card (MOVE: a second click on the cursor's card discards it), or
        picks an option."""
        button = event.button
        if self.run.done:
            return
        if isinstance(button, OptionButton):
            await self.action_choose(button.index)
        elif isinstance(button, LessonCard):
            if self.kind is GoalKind.MOVE:
                if button.index == self.cursor:
                    await self.action_confirm()
                    return
                self.cursor = button.index
                await self.redraw()
            else:
                self.cursor = button.index
                await self.action_tap()


class LearnApp(App[str | None]):
    """``erqishi learn``: the list of lessons and the lessons themselves.

    Args:
        progress: the stars so far (recorded into as lessons are finished).
        path: where the progress is saved after each finished lesson (None: not saved).
        lang: ``zh`` (default) or ``en``.
        start: a lesson to open at once.
        notice: a line to show above the list (e.g. after the PLAY lesson).

    It returns :data:`PLAY` when the learner opens the PLAY lesson (:func:`run_learn` then
    runs the game), else None.
    """

    TITLE = "贰柒拾"
    ENABLE_COMMAND_PALETTE = False

    CSS = """
    #menu-title, #lesson-title { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    #menu-summary { height: auto; padding: 0 1; }
    #menu-keys { height: auto; padding: 0 1; color: $text-muted; }
    #lessons { height: 1fr; }
    #lesson-body { height: 1fr; min-height: 3; padding: 0 1; }
    #lesson-goal { height: auto; padding: 0 1; }
    #lesson-cards { height: auto; padding: 0 1; }
    .card-row { height: 1; margin: 0 0 1 0; }
    .card-row.ranked { height: 2; }
    #lesson-options { height: auto; max-height: 6; padding: 0 1; }
    .option-row { height: 1; }
    OptionButton { margin: 0 1 0 0; min-width: 4; }
    #lesson-feedback { height: auto; max-height: 8; padding: 0 1; }
    """

    def __init__(
        self,
        progress: Progress,
        path: Path | None,
        lang: str = "zh",
        start: str | None = None,
        notice: str = "",
    ) -> None:
        super().__init__()
        self.progress = progress
        self.path = path
        self.lang = "en" if lang == "en" else "zh"
        self.start = start
        self.notice = notice

    async def on_mount(self) -> None:
        """The list, and the starting lesson over it."""
        self.title = tr(self.lang, "learn_title")
        await self.push_screen(MenuScreen(self.lang))
        if self.start is not None:
            self.open_lesson(self.start)

    def open_lesson(self, lesson_id: str, *, replace: bool = False) -> None:
        """Open a lesson (in place of the current one with ``replace``); the PLAY lesson
        leaves for the game."""
        if lesson(lesson_id).kind is GoalKind.PLAY:
            self.exit(PLAY)
            return
        screen = LessonScreen(lesson_id, self.lang)
        if replace and isinstance(self.screen, LessonScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    @property
    def lesson_screen(self) -> LessonScreen | None:
        """The lesson on the screen, if one is."""
        return self.screen if isinstance(self.screen, LessonScreen) else None

    def record(self, lesson_id: str, stars: int) -> str:
        """Note a finished lesson and save the progress; the error to show, if saving fails."""
        self.progress.record(lesson_id, stars)
        if self.path is None:
            return ""
        try:
            self.progress.save(self.path)
        except OSError as exc:
            return tr(self.lang, "save_progress_failed", error=f"{exc.strerror or exc} ({self.path})")
        return ""


def play_lesson_game(lang: str, seed: int | None = None) -> ErqishiApp:
    """The PLAY lesson: the terminal game, one hand against two heuristic bots, the coach on."""
    return ErqishiApp(
        RuleSet.preset("leshan"),
        seed=secrets.randbelow(10**9) if seed is None else seed,
        bots=["heuristic", "heuristic"],
        match_quan=None,
        lang=lang,
        coach=True,
        one_hand=True,
    )


def finish_play_lesson(game: ErqishiApp, progress: Progress, path: Path | None) -> int:
    """After the PLAY lesson's game: a finished hand finishes the lesson (3 stars, 1 if the
    hints or the suggested move were used), saved to ``path``; the stars (0: not finished).

    Raises:
        OSError: the progress cannot be saved.
    """
    if not game.table.hands:
        return 0
    stars = 1 if game.used_hints else 3
    progress.record(PLAY_LESSON, stars)
    if path is not None:
        progress.save(path)
    return stars


def run_learn(lang: str, path: Path, start: str | None = None, seed: int | None = None) -> None:
    """``erqishi learn``: the lessons, and the game for the PLAY lesson, back and forth
    until the learner quits.

    Raises:
        ErqishiError: the progress file is not lesson progress.
    """
    progress = Progress.load(path)
    notice = ""
    while True:
        result = LearnApp(progress, path, lang, start, notice).run()
        if result != PLAY:
            return
        game = play_lesson_game(lang, seed)
        game.run()
        notice = ""
        try:
            stars = finish_play_lesson(game, progress, path)
        except OSError as exc:
            notice = tr(lang, "save_progress_failed", error=f"{exc.strerror or exc} ({path})")
        else:
            if stars:
                notice = f"{lesson(PLAY_LESSON).done.get(lang)} {stars_text(stars)}"
        start = None
