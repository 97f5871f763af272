"""The terminal game (Textual): one person against bots, a whole match of 贰柒拾, for two,
three or four players.

The app drives the one :class:`~erqishi.play.Table` and shows its events through the one
narration (:mod:`erqishi.play.narrate`). It never decides legality: the person is offered
exactly their own options (``PlayerView.legal``, R-9), bots decide from their own views
(:func:`~erqishi.play.play_until`), and when a card may not be played the engine says why
(:meth:`~erqishi.play.Table.why_not`). The match is saved as it goes
(:mod:`erqishi.tui.resume`), so ``erqishi play --resume`` continues it.
"""

from __future__ import annotations

import contextlib
import random
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, RichLog, Static

from erqishi.bots import Bot, adviser, make_bot
from erqishi.core import Card, ErqishiError, IllegalActionError, RuleSet, format_cards
from erqishi.core.engine import KAI, PASS, Action, ActionKind, Deal, Match, Outcome, Phase, PlayerView, State
from erqishi.core.engine.explain import why_illegal
from erqishi.core.hands import Wait, WinSource
from erqishi.learn.coach import coach
from erqishi.play import Event, Names, Table, narrate_lines, play_until
from erqishi.play.hints import Advice, discard_hints, live_waits, suggest
from erqishi.play.narrate import VERB_EN, Lang, explain, template
from erqishi.records import dumps
from erqishi.tui import resume
from erqishi.tui.i18n import ACTION_KEYS, tr
from erqishi.tui.widgets import (
    ActionButton,
    ActionsBox,
    CardButton,
    HelpScreen,
    QuitScreen,
    ResultPanel,
    cards_text,
    localize_bindings,
)

__all__ = ["ActionButton", "ActionsBox", "CardButton", "ErqishiApp", "HelpScreen", "Option", "ResultPanel"]


def unique_path(directory: Path, stem: str) -> Path:
    """``directory/stem.json``, or ``stem-2.json``, ``stem-3.json``… if it exists already."""
    path = directory / f"{stem}.json"
    n = 2
    while path.exists():
        path = directory / f"{stem}-{n}.json"
        n += 1
    return path


@dataclass(frozen=True, slots=True)
class Option:
    """One button: an action to play, a 吃 whose 摆 choices to show next (``pair``), or the
    way back from those choices."""

    action: Action | None = None
    pair: tuple[Card, Card] | None = None
    back: bool = False


class StoryLog(RichLog):
    """The running story of the match. It never takes the keyboard (Home, End and Enter
    belong to the hand), always shows its newest line, and is wrapped again whenever its
    width changes: a ``RichLog`` wraps a line once, at the width it had when written, so a
    log that grew narrower (hints or the result beside it, a smaller terminal) cut lines off.

    Args:
        lines: the story so far, read again at each new width (the app's list).
    """

    can_focus = False

    def __init__(self, lines: Callable[[], list[str]], **kwargs: Any) -> None:
        # min_width 1: a line is wrapped at the log's own width (RichLog's default of 78
        # rendered wider than a narrow log and cut the lines off)
        super().__init__(wrap=True, markup=False, auto_scroll=True, min_width=1, **kwargs)
        self._lines = lines
        self._width = -1

    def add(self, line: str) -> None:
        """Append ``line`` and scroll to it."""
        self.write(line, scroll_end=True)

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again at the new width, and show the newest."""
        super().on_resize(event)
        if event.size.width == self._width:
            return
        self._width = event.size.width
        self.call_after_refresh(self._rewrap)  # once the new region is laid out

    def _rewrap(self) -> None:
        self.clear()
        for line in self._lines():
            self.write(line, scroll_end=True)


class ResumeScreen(ModalScreen[bool]):
    """At start-up, when a match in progress is saved: continue it, or start anew."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Resume"),
        Binding("n", "answer(False)", "New"),
        Binding("escape", "answer(False)", "New", show=False),
    ]

    DEFAULT_CSS = """
    ResumeScreen { align: center middle; }
    ResumeScreen > Static { width: 100%; max-width: 72; height: auto; border: thick $warning;
                            background: $surface; padding: 0 1; }
    """

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        """The question."""
        yield Static(tr(self.lang, "resume_question"), id="resume-question")

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)


class HandBox(Horizontal):
    """The player's hand: the cards in rows as wide as the screen (a 21-card hand wraps on a
    narrow terminal instead of losing cards past its edge, R-9: the player sees the whole
    own hand)."""

    #: columns a card takes (its face of 2 and a gap of 1)
    CARD_WIDTH = 3
    #: rows a line of cards takes (its face and the gaps above and below, or face and rank)
    LINE_HEIGHT = 3

    def fit(self) -> None:
        """Lay the cards out in as many lines as the width needs."""
        width = self.size.width or self.app.size.width
        per_line = max(1, (width - 2) // self.CARD_WIDTH)  # (the box's padding of 1 each side)
        cards = len(self.children)
        lines = max(1, -(-cards // per_line))
        self.styles.grid_size_columns = min(per_line, max(1, cards))
        self.styles.height = self.LINE_HEIGHT * lines

    def on_resize(self, event: events.Resize) -> None:
        """A new width: the lines again."""
        self.fit()


class ErqishiApp(App[None]):
    """贰柒拾 in the terminal: a person at ``human_seat`` against bots, a whole match.

    Args:
        rules: the rule set (2, 3 or 4 players).
        seed: the match seed: the first dealer, every deal and each bot's generator derive from it.
        bots: a bot name for :func:`~erqishi.bots.make_bot` per other seat, in seat order.
        match_quan: 圈 per match (R-2.4), or None for the rule set's ``match_quan``.
        lang: ``"zh"`` (default) or ``"en"`` for labels; card faces are always Chinese.
        human_seat: the person's seat.
        save_dir: where ``s`` writes records (default: the current directory).
        deal: a fixed deal for the first hand (tests, puzzles, lessons); its dealer deals.
        moves: effective moves applied to ``deal`` before the game starts (a position).
        resume_path: where the match in progress is saved as it goes (None: not saved).
        saved: a saved match to continue (``erqishi play --resume``); or offer to continue
            it at start-up with ``offer=True``.
        coach: after each of the person's decisions, the coach (:func:`erqishi.learn.coach.coach`,
            from the person's view only) notes a clearly worse move in the log and the prompt.
        one_hand: play one hand only (the last lesson): no next hand, and ``q`` leaves at once
            once it is over.

    Raises:
        ErqishiError: the bot list does not name one bot per other seat, or the seat is wrong.
    """

    TITLE = "贰柒拾"
    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit_match", "Quit"),
        # Ctrl-C asks as q does, in the screen's language (Textual's own notice is English)
        Binding("ctrl+c", "quit_match", "Quit", show=False, priority=True),
        Binding("h", "toggle_hints", "Hints"),
        Binding("question_mark", "help", "Help"),
        Binding("f1", "help", "Help", show=False),
        Binding("space", "suggested", "Suggested"),
        Binding("left", "select(-1)", "←", show=False),
        Binding("right", "select(1)", "→", show=False),
        Binding("home", "select_edge(0)", "Home", show=False),
        Binding("end", "select_edge(1)", "End", show=False),
        Binding("enter", "discard_selected", "Discard", show=False),
        Binding("p", "pass_", "Pass"),
        Binding("escape", "back", "Back", show=False),
        Binding("n", "next_hand", "Next"),
        Binding("enter", "next_hand", "Next", show=False),  # on a result (the help says n / Enter)
        Binding("s", "save", "Save"),
        Binding("m", "save_match", "Save match"),
        *[Binding(key, f"choose({i})", key, show=False) for i, key in enumerate(ACTION_KEYS)],
    ]

    #: keys of the table while a hand is played; ``_RESULT_ACTIONS`` once it is over
    _PLAY_ACTIONS = frozenset(
        {"toggle_hints", "pass_", "choose", "select", "select_edge", "discard_selected", "suggested", "back"}
    )
    _RESULT_ACTIONS = frozenset({"next_hand", "save", "save_match"})

    def __init__(
        self,
        rules: RuleSet,
        seed: int,
        bots: list[str],
        match_quan: int | None,
        lang: str = "zh",
        human_seat: int = 0,
        save_dir: Path | None = None,
        *,
        deal: Deal | None = None,
        moves: Sequence[tuple[int, Action]] = (),
        resume_path: Path | None = None,
        saved: resume.SavedMatch | None = None,
        offer: bool = False,
        coach: bool = False,
        one_hand: bool = False,
    ) -> None:
        super().__init__()
        self.coach_on = coach
        self.one_hand = one_hand
        self.coach_notes: list[str] = []
        self.coach_text = ""
        self.used_hints = False
        if match_quan is not None:
            rules = replace(rules, match_quan=match_quan)
        self.lang: Lang = "en" if lang == "en" else "zh"
        self.save_dir = save_dir
        self.resume_path = resume_path
        self.last_saved: Path | None = None
        self.status_message = ""
        self.notice = ""
        self.log_lines: list[str] = []
        self.show_hints = False
        self.hints_text = ""
        self.prompt_text = ""
        self.offered: list[Option] = []
        self.chi_pair: tuple[Card, Card] | None = None
        self.cursor = 0
        self.cursor_card: Card | None = None
        self._cursor_state: State | None = None
        self._suggestion: tuple[State | None, Advice | None] = (None, None)
        self._adviser: Bot | None = None  # the strongest bot there is (bots.adviser), loaded at the first hint
        self._offer = saved if offer else None
        self._setup(rules, seed, bots, human_seat, deal=deal, moves=moves)
        if saved is not None and not offer:
            self._restore(saved)
        localize_bindings(self, self.lang)

    def _setup(
        self,
        rules: RuleSet,
        seed: int,
        bots: Sequence[str],
        human_seat: int,
        *,
        deal: Deal | None = None,
        moves: Sequence[tuple[int, Action]] = (),
        auto_close: bool = True,
    ) -> None:
        """A new match at a new table (also when a saved match is restored: then its windows
        are not closed by themselves, since the saved moves hold every pass)."""
        n = rules.players
        if not 0 <= human_seat < n:
            raise ErqishiError(
                f"human seat {human_seat} is not one of 0-{n - 1}", zh=f"玩家的座位 {human_seat} 不在 0-{n - 1} 之中"
            )
        if len(bots) != n - 1:
            raise ErqishiError(
                f"expected {n - 1} bot names for {n} players, got {len(bots)}",
                zh=f"{n} 人局要 {n - 1} 个机器人，给了 {len(bots)} 个",
            )
        self.rules = rules
        self.seed = seed
        self.human_seat = human_seat
        self.bot_names: dict[int, str] = {}
        self.bots: dict[int, Bot] = {}
        self.bot_rngs: dict[int, random.Random] = {}
        others = [s for s in range(n) if s != human_seat]
        for seat, name in zip(others, bots, strict=True):
            self.bots[seat] = make_bot(name)
            self.bot_names[seat] = name
            self.bot_rngs[seat] = random.Random(f"{seed}:bot:{seat}")
        self.hint_rng = random.Random(f"{seed}:hints")
        rng = random.Random(seed)
        match = Match.start(rng, rules)
        if deal is not None:
            match = replace(match, dealer=deal.dealer)
        self.table = Table(rules, rng, self.seat_names(), match=match, auto_close=auto_close)
        self.names = Names([self.who(s) for s in range(n)], you=human_seat)
        self._fixed_deal = deal is not None
        self._pending_log = self.table.start_hand(deal)
        for seat, action in moves:
            self._pending_log += self.table.apply_move(seat, action)

    def _restore(self, saved: resume.SavedMatch) -> None:
        """Replay a saved match: the same seed gives the same deals, the engine checks every
        move, the window's declarations and the generators come back as they were.

        The screen keeps its language (``--lang``, or the saved one that ``--resume``
        passes when none is given): the whole screen is in one language.

        Raises:
            ErqishiError: the saved moves do not fit its seed and rules.
        """
        self._setup(saved.rules, saved.seed, list(saved.bots), saved.human_seat, auto_close=False)
        table = self.table
        events: list[Event] = list(self._pending_log)

        def step(hand: int, k: int, seat: int, action: Action, *, declare: bool = False) -> list[Event]:
            """One saved move or declaration, or why the engine refuses it, in both languages."""
            state = table.state
            try:
                return table.declare(seat, action) if declare else table.apply_move(seat, action)
            except IllegalActionError as exc:
                if state is None:
                    raise
                refusal = why_illegal(state, seat, action, declaring=declare)
                where_en, where_zh = f"hand {hand}, step {k}", f"第 {hand} 手第 {k} 步"
                raise ErqishiError(
                    f"the saved match is damaged: {where_en}: {exc}",
                    zh=f"存档已损坏：{where_zh}：{explain(refusal, 'zh')}",
                ) from None

        for i, moves in enumerate(saved.hands):
            if i:
                events += table.start_hand()
            for k, (seat, action) in enumerate(moves, 1):
                events += step(i + 1, k, seat, action)
            if table.in_hand:
                raise ErqishiError(
                    f"the saved match is damaged: hand {i + 1} does not end", zh=f"存档已损坏：第 {i + 1} 手没有打完"
                )
        if saved.actions is not None:
            if saved.hands:
                events += table.start_hand()
            last = len(saved.hands) + 1
            for k, (seat, action) in enumerate(saved.actions, 1):
                events += step(last, k, seat, action)
            for seat, action in saved.declared.items():
                events += step(last, len(saved.actions) + 1, seat, action, declare=True)
        table.auto_close = True
        for seat, state in saved.bot_rngs.items():
            if seat in self.bot_rngs:
                self.bot_rngs[seat].setstate(state)
        self.hint_rng.setstate(saved.hint_rng)
        self._pending_log = [*events]
        self.log_lines = []
        self._resumed = True

    _resumed = False
    _result_of = 0  # the hand whose result the panel shows

    # ------------------------------------------------------------------ the table

    @property
    def state(self) -> State:
        """The hand's current state (the person sees only :meth:`human_view`)."""
        state = self.table.state
        assert state is not None
        return state

    @property
    def match(self) -> Match:
        """The match: 圈, dealer, totals (R-2.2, R-2.4, R-8.3)."""
        return self.table.match

    @property
    def actions(self) -> list[tuple[int, Action]]:
        """The effective moves of this hand so far, as its record lists them."""
        return self.table.actions

    @property
    def outcomes(self) -> list[Outcome]:
        """The outcome of every finished hand of the match."""
        return [h.outcome for h in self.table.hands]

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players

    @property
    def hand_over(self) -> bool:
        """The hand on the table has ended (its result is shown)."""
        return not self.table.in_hand

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """Status line, every seat, the log beside the hints or the result, the prompt,
        the hand and the options."""
        yield Static("", id="status")
        with Horizontal(id="table"):
            for seat in range(self.players):
                yield Static("", id=f"seat-{seat}", classes="seat")
        with Horizontal(id="middle"):
            yield StoryLog(lambda: self.log_lines, id="log")
            yield Static("", id="hints", classes="hidden")
            yield ResultPanel(id="result", classes="hidden")
        yield Static("", id="prompt")
        yield HandBox(id="hand")
        yield ActionsBox(id="actions")
        yield Footer()

    async def on_mount(self) -> None:
        """Show the first hand and let the bots play up to the person's first decision."""
        self.title = tr(self.lang, "title")
        if self._resumed:
            self.add_log(tr(self.lang, "resumed"))
        self.add_events(self._pending_log)
        self._pending_log = []
        self._advance()
        await self.refresh_view()
        if self._offer is not None:
            await self.push_screen(ResumeScreen(self.lang), self._answer_resume)

    async def _answer_resume(self, yes: bool | None) -> None:
        saved, self._offer = self._offer, None
        if not yes or saved is None:
            return
        self._restore(saved)
        with contextlib.suppress(NoMatches):
            self.query_one("#log", StoryLog).clear()
        self.add_log(tr(self.lang, "resumed"))
        self.add_events(self._pending_log)
        self._pending_log = []
        self._advance()
        await self.refresh_view()

    # ------------------------------------------------------------------ naming

    @property
    def colon(self) -> str:
        """The colon of the language (full width in Chinese)."""
        return ": " if self.lang == "en" else "："

    def who(self, seat: int) -> str:
        """The seat as the person knows it: 你, 下家, 上家, 对家 (R-2.1)."""
        lang = self.lang
        if seat == self.human_seat:
            return tr(lang, "you")
        n = self.rules.players
        step = (seat - self.human_seat) % n
        if n == 2:
            return tr(lang, "opponent")
        if n == 4 and step == 2:
            return tr(lang, "duijia")
        return tr(lang, "xiajia") if step == 1 else tr(lang, "shangjia")

    def s(self, seat: int) -> str:
        """The English verb ending for ``seat``: "You win", "Next (下家) wins"."""
        return "" if seat == self.human_seat else "s"

    def action_label(self, action: Action, taken: Card | None = None) -> str:
        """An option for its button (card faces in Chinese); a 吃 names the card ``taken``,
        e.g. ``吃捌：八八 + 摆 陆柒捌 / 柒捌玖``."""
        lang = self.lang
        if action.kind is ActionKind.CHI and taken is not None:
            text = tr(lang, "chi_label", card=str(taken), pair=format_cards(action.cards))
            if action.bai:
                text += tr(lang, "chi_bai", groups=" / ".join(format_cards(g) for g in action.bai))
            return text
        if lang == "en":
            if action.kind is ActionKind.PASS:
                return tr("en", "pass")
            if action.kind is ActionKind.DISCARD:
                return tr("en", "discard_selected", card=str(action.cards[0]))
            words = {"chi": "Chow", "dui": "Pung", "kai": "Kong", "hu": "Win"}
            return f"{words[action.kind.value]} {action.chinese}"
        return action.chinese

    def option_label(self, option: Option, taken: Card | None) -> str:
        """The button text of ``option``."""
        if option.back:
            return tr(self.lang, "back")
        if option.pair is not None:
            n = sum(1 for a in self.human_view().legal if a.kind is ActionKind.CHI and a.cards == option.pair)
            return tr(self.lang, "chi_choose_bai", card=str(taken), pair=format_cards(option.pair), n=n)
        assert option.action is not None
        if option.action.kind is ActionKind.CHI and self.chi_pair is not None and option.action.bai:
            return tr(self.lang, "bai_only", groups=" / ".join(format_cards(g) for g in option.action.bai))
        return self.action_label(option.action, taken)

    def add_events(self, events: Iterable[Event]) -> None:
        """Append the events' narration (the one wording, :mod:`erqishi.play.narrate`) to
        the log; a settled hand shows its first line there (the result panel has the rest)."""
        for event in events:
            lines = narrate_lines(event, self.lang, self.names)
            if event.kind.value == "scored":
                lines = lines[:1]
            for line in lines:
                self.add_log(line)

    def add_log(self, line: str) -> None:
        """Append a line to the running log."""
        self.log_lines.append(line)
        with contextlib.suppress(NoMatches):
            self.query_one("#log", StoryLog).add(line)

    # ------------------------------------------------------------------ play

    def next_hand(self) -> None:
        """Deal the next hand of the match (after a result)."""
        if self.match.is_over or self.table.in_hand:
            return
        self.add_events(self.table.start_hand())
        self.chi_pair = None
        self._advance()
        self.call_later(self.refresh_view)

    def _advance(self) -> None:
        """Let the bots decide until the person must or the hand is over; then save."""
        self.add_events(play_until(self.table, self.bots, self.bot_rngs))
        self.save_progress()

    async def play(self, action: Action) -> None:
        """The person's decision ``action`` (one of the offered options); the bots then play on."""
        if not self.table.in_hand or action not in self.table.options(self.human_seat):
            return
        self.chi_pair = None
        self.notice = ""
        before = self.human_view() if self.coach_on else None
        self.add_events(self.table.declare(self.human_seat, action))
        self.coach_text = ""
        if before is not None:
            self.coach_says(before, action)
        self._advance()
        await self.refresh_view()

    def coach_says(self, before: PlayerView, action: Action) -> None:
        """The coach's note on ``action`` made from the view ``before`` (never a hidden card),
        written to the log and kept for the prompt line until the next decision."""
        try:
            note = coach(before, action)
        except ErqishiError:
            return
        if note is None:
            return
        text = note.text.get(self.lang)
        self.coach_notes.append(text)
        self.coach_text = text
        self.add_log(text)

    # ------------------------------------------------------------------ saving

    def saved_match(self) -> resume.SavedMatch:
        """The match as :mod:`erqishi.tui.resume` keeps it."""
        table = self.table
        finished = tuple(h.record.actions for h in table.hands)
        return resume.SavedMatch(
            seed=self.seed,
            rules=self.rules,
            bots=tuple(self.bot_names[s] for s in sorted(self.bot_names)),
            human_seat=self.human_seat,
            lang=self.lang,
            hands=finished,
            actions=tuple(table.actions) if table.in_hand else None,
            declared=dict(table.declared),
            bot_rngs={seat: rng.getstate() for seat, rng in self.bot_rngs.items()},
            hint_rng=self.hint_rng.getstate(),
        )

    def save_progress(self) -> str | None:
        """Save the match in progress (:attr:`resume_path`); once it is over, forget it. A
        failure is shown, never raised: the game goes on. Returns why it failed, else None."""
        if self.resume_path is None or self._fixed_deal or self._offer is not None:
            return None
        try:
            if self.match.is_over and not self.table.in_hand:
                resume.remove(self.resume_path)
            else:
                resume.save(self.resume_path, self.saved_match())
        except OSError as exc:
            error = f"{exc.strerror or exc}"
            self.status_message = tr(self.lang, "save_progress_failed", error=error)
            return error
        return None

    # ------------------------------------------------------------------ display

    def human_view(self) -> PlayerView:
        """The person's view of the current state (R-9)."""
        return self.table.player_view(self.human_seat)

    def _discard_options(self, v: PlayerView) -> dict[Card, Action]:
        return {a.cards[0]: a for a in v.legal if a.kind is ActionKind.DISCARD}

    def _offered(self, v: PlayerView) -> list[Option]:
        """The buttons: 打 for the selected card when it may be discarded, then every other
        option; a 吃 with several 摆 choices is one button that opens them (two short steps)."""
        if v.phase is Phase.OVER or self.human_seat not in self.table.waiting():
            return []
        legal = v.legal
        if self.chi_pair is not None:
            choices = [Option(a) for a in legal if a.kind is ActionKind.CHI and a.cards == self.chi_pair]
            if choices:
                return [*choices, Option(back=True)]
            self.chi_pair = None
        out: list[Option] = []
        discards = self._discard_options(v)
        if discards and self.cursor_card in discards:
            out.append(Option(discards[self.cursor_card]))
        pairs: dict[tuple[Card, Card], list[Action]] = {}
        for a in legal:
            if a.kind is ActionKind.CHI:
                pairs.setdefault((a.cards[0], a.cards[1]), []).append(a)
        seen: set[tuple[Card, Card]] = set()
        for a in legal:
            if a.kind is ActionKind.DISCARD or a.kind is ActionKind.PASS:
                continue
            if a.kind is ActionKind.CHI:
                pair = (a.cards[0], a.cards[1])
                if pair in seen:
                    continue
                seen.add(pair)
                out.append(Option(pair=pair) if len(pairs[pair]) > 1 else Option(a))
            else:
                out.append(Option(a))
        if PASS in legal:
            out.append(Option(PASS))
        return out

    def _seat_text(self, v: PlayerView, seat: int) -> Text:
        sv = v.seats[seat]
        lang = self.lang
        title = self.who(seat)
        if seat in self.bot_names:
            title += f" [{self.bot_names[seat]}]"
        title += f" {tr(lang, 'seat', seat=seat)}"
        if seat == v.dealer:
            title += " 庄" if lang == "zh" else " (dealer)"
        text = Text(title, style="bold")
        if seat not in v.order:
            text.append(f"\n{tr(lang, 'sits_out')}", style="italic")
            return text
        text.append(f"\n{tr(lang, 'hand_size', n=sv.hand_size)}")
        if sv.announced:
            text.append(f"  {tr(lang, 'announced', n=sv.announced)}", style="bold magenta")
        text.append(f"\n{tr(lang, 'melds')}{self.colon}")
        if not sv.melds:
            text.append(tr(lang, "none"))
        for group in sv.melds:
            text.append(f"{group.name} ")
            text.append_text(cards_text(group.cards))
            text.append(f"({group.hu}) ")
        text.append(f"\n{tr(lang, 'row')}{self.colon}")
        text.append_text(cards_text(sv.row) if sv.row else Text(tr(lang, "none")))
        if self.hand_over and sv.hand is not None and seat != self.human_seat:
            text.append(f"\n{tr(lang, 'hand_shown')}{self.colon}")
            text.append_text(cards_text(sv.hand))
        return text

    def _prompt(self, v: PlayerView, offered: list[Option]) -> str:
        lang = self.lang
        if self.hand_over:
            if self.one_hand:
                return tr(lang, "result_keys_lesson")
            return tr(lang, "result_keys_final_short" if self.match.is_over else "result_keys_short")
        if self.notice:
            return self.notice
        if self.coach_text:
            return f"{self.coach_text}\n{self._prompt_of_table(v, offered)}"
        return self._prompt_of_table(v, offered)

    def _prompt_of_table(self, v: PlayerView, offered: list[Option]) -> str:
        lang = self.lang
        if self.chi_pair is not None and v.pending is not None:
            return tr(lang, "prompt_bai", card=str(v.pending), pair=format_cards(self.chi_pair))
        actions = [o.action for o in offered if o.action is not None] + [
            a for o in offered if o.pair is not None for a in v.legal if a.kind is ActionKind.CHI and a.cards == o.pair
        ]
        if v.phase is Phase.RESPONSE and v.pending is not None and actions:
            kinds = dict.fromkeys(a.kind for a in actions)
            if lang == "zh":
                opts = "/".join(kind.chinese for kind in kinds)
            else:
                opts = "/".join(VERB_EN[kind.value] for kind in kinds)
            key = "prompt_flipped" if v.pending_flip else "prompt_discarded"
            text = tr(lang, key, who=self.who(v.turn), card=str(v.pending), opts=opts)
            if KAI in actions and PASS not in actions:
                must = "prompt_must_kai" if set(kinds) == {ActionKind.KAI} else "prompt_must_kai_hu"
                text = text.rstrip("？?") + tr(lang, must)
            return " ".join([text, *self.response_refusals()])
        why = self._why_cursor(v)
        if why:
            return why
        if v.phase is Phase.OPENING and v.turn == self.human_seat:
            return tr(lang, "prompt_opening")
        if v.phase is Phase.DISCARD and v.turn == self.human_seat:
            return tr(lang, "prompt_discard")
        return tr(lang, "prompt_wait")

    def response_refusals(self) -> list[str]:
        """Why a 胡, 对 or 吃 of the pending card is not offered to the person (回笼, 过胡,
        过张, a locked 坎 …), from the engine, in the person's language; who may 吃 at all
        (R-5.2) is left out: it is the same on every card. Each reason once: two 吃 refused
        for the same reason read as one sentence, not the same sentence twice."""
        said = [
            explain(r, self.lang)
            for r in self.table.refusals(self.human_seat)
            if r.reason != "not_chi_seat" and r.card is not None
        ]
        return list(dict.fromkeys(said))

    def _why_cursor(self, v: PlayerView) -> str:
        """Why the card under the cursor may not be discarded now, when the person owes a
        discard: the engine's reason, in the person's language."""
        discards = self._discard_options(v)
        card = self.cursor_card
        if not discards or card is None or card in discards:
            return ""
        return self.why_card(card)

    def why_card(self, card: Card) -> str:
        """Why ``card`` may not be discarded now (the engine's reason, R-3.1, R-5.10 …), in
        the person's language (:func:`erqishi.play.narrate.explain`)."""
        refusal = self.table.why_not(self.human_seat, Action.discard(card))
        lang = self.lang
        return template("why_card", lang).format(card=str(card), why=explain(refusal, lang))

    @staticmethod
    def _format_waits(waits: list[Wait]) -> str:
        return ", ".join(f"{w.card}({w.score})" for w in waits)

    def advice(self, v: PlayerView) -> Advice | None:
        """The move the hints suggest now and what it expects: the learned bot's choice
        (the strongest bot that answers at once, docs/learned-bot.md) from the person's
        view only (R-9), with its expected net payment of the hand (score units) and the
        waits it keeps; worked out once per state."""
        state = self.table.state
        if self._suggestion[0] is state:
            return self._suggestion[1]
        if self._adviser is None:
            self._adviser = adviser()
        found = suggest(v, self._adviser, self.hint_rng)
        self._suggestion = (state, found)
        return found

    def suggestion(self, v: PlayerView) -> Action | None:
        """The suggested move (:meth:`advice`), None when there is nothing to decide."""
        found = self.advice(v)
        return found.action if found is not None else None

    def compute_hints(self, v: PlayerView) -> str:
        """The hints text and a suggested action. Owing a discard: for each legal discard that
        leaves a waiting hand, its waits (下叫) with their scores, best first; otherwise the
        current waits. Waits whose four copies are all in sight are left out, and so are the
        wins the person may not make: on a card they discarded (回笼) and, after a declined
        win, one that scores no more than it until their next take (过胡, R-6.2)."""
        lang = self.lang
        lines = [tr(lang, "hints_title")]
        if self._discard_options(v):
            options = []
            for hint in discard_hints(v):
                kept = self._may_win(list(hint.waits), hint.card)
                if kept:
                    options.append((hint.card, kept))
            for card, kept in options:
                lines.append(tr(lang, "hints_discard", card=str(card), waits=self._format_waits(kept)))
            if not options:
                lines.append(tr(lang, "hints_discard_none"))
        else:
            waits = self._may_win(live_waits(v))
            if waits:
                lines.append(tr(lang, "hints_waits", waits=self._format_waits(waits)))
            else:
                lines.append(tr(lang, "hints_no_waits"))
        advice = self.advice(v) if self.human_seat in self.table.waiting() else None
        if advice is not None:
            line = tr(lang, "hints_suggest", action=self.action_label(advice.action, v.pending))
            expects = advice.describe(lang)
            lines.append(f"{line} ({expects})" if expects else line)
        return "\n".join(lines)

    def _may_win(self, waits: list[Wait], discarding: Card | None = None) -> list[Wait]:
        """The waits the person may still win on (R-6.2): not a card they discarded (回笼;
        ``discarding`` is one about to be), and above the best win they declined since their
        last take (过胡). The person's own marks: what they know of their own play (R-9)."""
        state = self.table.state
        if state is None:
            return waits
        me = state.seats[self.human_seat]
        gone = me.discarded | (0 if discarding is None else 1 << int(discarding))
        return [w for w in waits if not gone >> int(w.card) & 1 and w.score > me.guohu]

    def _place_cursor(self, v: PlayerView) -> None:
        """Keep the cursor on its card across redraws; at a new discard decision, start on
        the suggested discard (else the first card that may be discarded)."""
        hand = v.hand
        if not hand:
            self.cursor, self.cursor_card = 0, None
            return
        discards = self._discard_options(v)
        state = self.table.state
        fresh = discards and self._cursor_state is not state and self.human_seat in self.table.waiting()
        if fresh:
            self._cursor_state = state
            move = self.suggestion(v)
            if move is not None and move.kind is ActionKind.DISCARD:
                self.cursor_card = move.cards[0]
            elif self.cursor_card not in discards:
                self.cursor_card = next(c for c in hand if c in discards)
        if self.cursor_card in hand:
            if not (0 <= self.cursor < len(hand) and hand[self.cursor] == self.cursor_card):
                self.cursor = hand.index(self.cursor_card)
        else:
            self.cursor = min(self.cursor, len(hand) - 1)
            self.cursor_card = hand[self.cursor]

    async def refresh_view(self) -> None:
        """Redraw everything from the person's view of the current state."""
        v = self.human_view()
        lang = self.lang
        responding = v.phase is Phase.RESPONSE and self.human_seat in self.table.waiting()
        if responding:
            turn = tr(lang, "status_respond")
        else:
            turn = self.who(v.turn) if v.turn >= 0 else "-"
        self.query_one("#status", Static).update(
            tr(lang, "status", quan=self.hand_quan, dealer=self.who(v.dealer), turn=turn, stock=v.stock_left)
        )
        for seat in range(self.players):
            widget = self.query_one(f"#seat-{seat}", Static)
            widget.update(self._seat_text(v, seat))
            widget.set_class(seat == v.turn and not self.hand_over, "turn")
        self._place_cursor(v)
        offered = self._offered(v)
        self.offered = offered
        self.prompt_text = self._prompt(v, offered)
        self.query_one("#prompt", Static).update(self.prompt_text)
        discards = self._discard_options(v)
        hand_box = self.query_one("#hand", HandBox)
        await hand_box.remove_children()
        await hand_box.mount_all(
            [
                CardButton(
                    card,
                    i,
                    selected=bool(discards) and i == self.cursor,
                    playable=card in discards,
                    rank=self.lang == "en",
                )
                for i, card in enumerate(v.hand)
            ]
        )
        hand_box.fit()
        await self.mount_actions(v)
        over = self.hand_over
        hints = self.query_one("#hints", Static)
        hints.set_class(over or not self.show_hints, "hidden")
        self.hints_text = self.compute_hints(v) if self.show_hints and not over else ""
        hints.update(self.hints_text)
        result = self.query_one("#result", ResultPanel)
        hand_box.set_class(over, "hidden")
        self.query_one("#actions", ActionsBox).set_class(over, "hidden")
        if over and (result.has_class("hidden") or self._result_of != self.table.hand_number):
            # (a hand can end before the person decides anything: the panel then shows
            # this hand's result, not the one it showed before)
            self._result_of = self.table.hand_number
            result.remove_class("hidden")
            result.show(self.result_text())
            result.focus()
        elif not over:
            result.add_class("hidden")
        self.refresh_bindings()

    @property
    def hand_quan(self) -> int:
        """The 圈 of the hand on the table (from 1)."""
        return self.table.quan

    @property
    def result_shown(self) -> bool:
        """The result of the hand is on the screen."""
        with contextlib.suppress(NoMatches):
            return not self.query_one("#result", ResultPanel).has_class("hidden")
        return False

    async def mount_actions(self, v: PlayerView | None = None) -> None:
        """The option buttons, packed into as many rows as the screen width needs."""
        if v is None:
            v = self.human_view()
        box = self.query_one("#actions", ActionsBox)
        await box.remove_children()
        buttons = [ActionButton(o, i, self.option_label(o, v.pending)) for i, o in enumerate(self.offered)]
        width = max(20, box.scrollable_content_region.width - 1 or self.size.width - 4)
        rows: list[list[ActionButton]] = []
        used = width
        for button in buttons:
            if used + button.cells + 1 > width:
                rows.append([])
                used = 0
            rows[-1].append(button)
            used += button.cells + 1
        await box.mount_all([Horizontal(*row) for row in rows])

    def result_text(self) -> Text:
        """The end-of-hand report (R-6.4, R-7, R-8, R-9)."""
        lang = self.lang
        result = self.state.result
        text = Text(tr(lang, "result_title") + "\n", style="bold")
        if result is None:
            return text
        if result.is_win and result.winner is not None and result.analysis is not None:
            analysis = result.analysis
            source = result.source.chinese if result.source is not None else ""
            win = tr(lang, "result_win", who=self.who(result.winner), source=source, s=self.s(result.winner))
            text.append(win + "\n", style="bold green")
            if analysis.win_card is not None:
                line = tr(lang, "result_card", card=str(analysis.win_card))
                if result.source_seat is not None and result.source is WinSource.DISCARD:
                    line += tr(lang, "result_from_discard", who=self.who(result.source_seat))
                elif result.source_seat is not None and result.source is WinSource.FLIP:
                    line += tr(lang, "result_from_flip", who=self.who(result.source_seat))
                text.append(line + "\n", style="bold")
            text.append(tr(lang, "result_groups") + self.colon + "\n")
            for group in analysis.groups:
                text.append(f"  {group.name} ")
                text.append_text(cards_text(group.cards))
                text.append(f"  {tr(lang, 'hu_unit', hu=group.hu)}\n")
            tier = analysis.tier
            text.append(
                tr(lang, "result_hu", hu=analysis.hu, tier=tier.name if tier else "-", base=tier.base if tier else 0)
                + "\n"
            )
            text.append(tr(lang, "result_fan", fans="、".join(analysis.fan_names) or tr(lang, "none")) + "\n")
            text.append(tr(lang, "result_score", score=analysis.score) + "\n", style="bold")
        else:
            text.append(tr(lang, "result_dead") + "\n", style="bold")
        text.append(tr(lang, "result_payments") + self.colon + "\n")
        for seat, pay in enumerate(result.payments):
            text.append(f"  {self.who(seat)} {pay:+d}\n")
        text.append(tr(lang, "result_totals") + self.colon + "\n")
        for seat, total in enumerate(self.match.totals):
            text.append(f"  {self.who(seat)} {total:+d}\n")
        if self.match.is_over:
            text.append("\n" + tr(lang, "result_match_over") + "\n", style="bold")
            text.append(tr(lang, "result_final") + self.colon + "\n", style="bold")
            ranked = sorted(range(self.players), key=lambda seat: -self.match.totals[seat])
            for seat in ranked:
                text.append(f"  {self.who(seat)} {self.match.totals[seat]:+d}\n")
            leaders = self.match.leaders
            key = "result_leader" if len(leaders) == 1 else "result_leaders"
            text.append(tr(lang, key, who="、".join(self.who(seat) for seat in leaders)) + "\n", style="bold green")
            text.append("\n" + tr(lang, "result_keys_final"))
        elif self.one_hand:
            text.append("\n" + tr(lang, "result_keys_lesson"))
        else:
            text.append("\n" + tr(lang, "result_keys"))
        return text

    def seat_names(self) -> tuple[str, ...]:
        """The seats' names in records: ``human`` and the bots' names."""
        return tuple("human" if s == self.human_seat else self.bot_names[s] for s in range(self.rules.players))

    def _write(self, stem: str, data: dict[str, object]) -> Path:
        directory = self.save_dir if self.save_dir is not None else Path.cwd()
        directory.mkdir(parents=True, exist_ok=True)
        path = unique_path(directory, stem)
        path.write_text(dumps(data), encoding="utf-8")
        self.last_saved = path
        return path

    def save_record(self) -> Path:
        """Write the current hand's record (FORMATS.md) to ``save_dir`` and return its path;
        an existing file is not overwritten (a numeric suffix is added).

        Raises:
            OSError: the file cannot be written.
        """
        record = self.table.hand_record()
        return self._write(f"erqishi-{self.seed}-hand{self.match.hands_played}", record.to_json(self.state.result))

    def save_match_record(self) -> Path:
        """Write the record of every hand played so far, with the totals (FORMATS.md).

        Raises:
            OSError: the file cannot be written.
        """
        return self._write(f"erqishi-{self.seed}-match", self.table.match_record_json())

    # ------------------------------------------------------------------ input

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """Cards select (a second click discards, or says why not); option buttons play."""
        button = event.button
        if isinstance(button, ActionButton):
            await self.choose_option(button.option)
        elif isinstance(button, CardButton):
            v = self.human_view()
            discards = self._discard_options(v)
            if button.index == self.cursor and button.card in discards:
                await self.play(discards[button.card])
                return
            self.cursor, self.cursor_card = button.index, button.card
            self.notice = ""
            await self.refresh_view()

    async def choose_option(self, option: Option) -> None:
        """Play an option, open a 吃's 摆 choices, or go back from them."""
        if option.back:
            self.chi_pair = None
            await self.refresh_view()
        elif option.pair is not None:
            self.chi_pair = option.pair
            await self.refresh_view()
        elif option.action is not None:
            await self.play(option.action)

    async def action_select(self, step: int) -> None:
        """Move the cursor one card left or right (any card: one that may not be discarded
        says why)."""
        v = self.human_view()
        if not v.hand or self.hand_over:
            return
        self.cursor = (self.cursor + step) % len(v.hand)
        self.cursor_card = v.hand[self.cursor]
        self.notice = ""
        await self.refresh_view()

    async def action_select_edge(self, end: int) -> None:
        """Home: the first card; End: the last."""
        v = self.human_view()
        if not v.hand or self.hand_over:
            return
        self.cursor = len(v.hand) - 1 if end else 0
        self.cursor_card = v.hand[self.cursor]
        self.notice = ""
        await self.refresh_view()

    async def action_discard_selected(self) -> None:
        """Discard the card under the cursor (when a discard is owed); else say why not."""
        v = self.human_view()
        discards = self._discard_options(v)
        if not discards or self.cursor_card is None:
            return
        if self.cursor_card in discards:
            await self.play(discards[self.cursor_card])
        else:
            self.notice = self.why_card(self.cursor_card)
            await self.refresh_view()

    async def action_suggested(self) -> None:
        """Play the move the hints suggest (space)."""
        if not self.table.in_hand or self.human_seat not in self.table.waiting():
            return
        self.used_hints = True
        move = self.suggestion(self.human_view())
        if move is None:
            self.notice = tr(self.lang, "suggested_none")
            await self.refresh_view()
            return
        await self.play(move)

    async def action_choose(self, index: int) -> None:
        """Play the option of button number ``index + 1``."""
        if 0 <= index < len(self.offered):
            await self.choose_option(self.offered[index])

    async def action_back(self) -> None:
        """Leave the 摆 choices of a 吃."""
        if self.chi_pair is not None:
            self.chi_pair = None
            await self.refresh_view()

    async def action_pass_(self) -> None:
        """过: decline the pending card (when passing is offered); otherwise say why not, in
        the prompt line."""
        v = self.human_view()
        if PASS in v.legal and self.human_seat in self.table.waiting():
            await self.play(PASS)
            return
        if KAI in v.legal:
            key = "notice_no_pass_kai"
        elif self._discard_options(v):
            key = "notice_no_pass_discard"
        else:
            key = "notice_no_pass"
        self.notice = tr(self.lang, key)
        await self.refresh_view()

    def action_next_hand(self) -> None:
        """Leave the result and deal the next hand (if the match goes on)."""
        if self.result_shown and not self.match.is_over and not self.one_hand:
            self.next_hand()

    def action_save(self) -> None:
        """Save the hand's record (a message, not a crash, when it cannot be written)."""
        self._save(match=False)

    def action_save_match(self) -> None:
        """Save the whole match's record (once the match is over)."""
        self._save(match=True)

    def _save(self, *, match: bool) -> None:
        try:
            path = self.save_match_record() if match else self.save_record()
        except OSError as exc:
            message = tr(self.lang, "save_failed", error=f"{exc.strerror or exc} ({exc.filename or ''})")
        else:
            message = tr(self.lang, "saved_match" if match else "saved", path=str(path))
        self.status_message = message
        with contextlib.suppress(NoMatches):
            self.query_one("#result-status", Static).update(message)

    async def action_quit_match(self) -> None:
        """q: ask first; the match stays saved for ``erqishi play --resume``."""
        if isinstance(self.screen, QuitScreen):
            return
        if self.one_hand and self.hand_over:
            self.exit()
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.exit()

        # saved first, so that the question says what is true: saved, or lost if you leave
        error = None if self.one_hand else self.save_progress()
        if error is not None:
            await self.push_screen(QuitScreen(self.lang, "quit_body_unsaved", error=error), answered)
            return
        if self.one_hand:
            await self.push_screen(QuitScreen(self.lang, "quit_body_lesson"), answered)
            return
        # the command that finds this save: --saved-file too when it is not the default one
        path = self.resume_path
        where = "" if path is None or path == resume.default_path() else f" --saved-file {shlex.quote(str(path))}"
        await self.push_screen(QuitScreen(self.lang, "quit_body", where=where), answered)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The table's keys work (and show in the footer) only on the main screen, while a
        hand is played; n/s/m only on a result (m and no n once the match is over)."""
        if self.screen is not self.screen_stack[0] and action != "quit_match":
            return action not in self._PLAY_ACTIONS | self._RESULT_ACTIONS | {"help"}
        if action in self._PLAY_ACTIONS:
            return not self.hand_over
        if action in self._RESULT_ACTIONS:
            if not self.hand_over:
                return False
            if action == "next_hand":
                return not self.match.is_over and not self.one_hand
            if action == "save_match":
                return self.match.is_over
        return True

    async def action_toggle_hints(self) -> None:
        """Show or hide the hints (下叫 with scores, a suggested action)."""
        self.show_hints = not self.show_hints
        self.used_hints = self.used_hints or self.show_hints
        await self.refresh_view()

    async def action_help(self) -> None:
        """Open the help screen."""
        if not isinstance(self.screen, HelpScreen):
            await self.push_screen(HelpScreen(self.lang, self.rules))
