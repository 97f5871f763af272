"""The terminal game (Textual): one person against bots, a whole match of 贰柒拾.

The app drives the one :class:`~erqishi.play.Table` and shows its events through the one
narration (:mod:`erqishi.play.narrate`). It never decides legality: the person is offered
exactly their own options (``PlayerView.legal``, R-9), bots decide from their own views
(:func:`~erqishi.play.play_until`), and a refused choice would come back from the engine.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.widgets import Button, Footer, RichLog, Static

from erqishi.bots import Bot, HeuristicBot, make_bot
from erqishi.core import Card, RuleSet, format_cards
from erqishi.core.engine import KAI, PASS, Action, ActionKind, Deal, Match, Outcome, Phase, PlayerView, State
from erqishi.core.hands import Wait, WinSource
from erqishi.play import Event, Names, Table, narrate_lines, play_until
from erqishi.play.hints import discard_hints, live_waits
from erqishi.play.narrate import Lang
from erqishi.records import dumps
from erqishi.tui.i18n import ACTION_KEYS, tr
from erqishi.tui.widgets import (
    ActionButton,
    ActionsBox,
    CardButton,
    HelpScreen,
    ResultScreen,
    cards_text,
    localize_bindings,
)

__all__ = ["ActionButton", "ActionsBox", "CardButton", "ErqishiApp", "HelpScreen", "ResultScreen", "unique_path"]


def unique_path(directory: Path, stem: str) -> Path:
    """``directory/stem.json``, or ``stem-2.json``, ``stem-3.json``… if it exists already."""
    path = directory / f"{stem}.json"
    n = 2
    while path.exists():
        path = directory / f"{stem}-{n}.json"
        n += 1
    return path


class ErqishiApp(App[None]):
    """贰柒拾 in the terminal: a person at ``human_seat`` against bots, a whole match.

    Args:
        rules: the rule set (three players).
        seed: the match seed: the first dealer, every deal and each bot's generator derive from it.
        bots: two bot names for :func:`~erqishi.bots.make_bot`, for the other seats in seat order.
        match_quan: 圈 per match (R-2.4), or None for the rule set's ``match_quan``.
        lang: ``"zh"`` (default) or ``"en"`` for labels; card faces are always Chinese.
        human_seat: the person's seat.
        save_dir: where ``s`` writes records (default: the current directory).
        deal: a fixed deal for the first hand (tests, puzzles, lessons); its dealer deals.
        moves: effective moves applied to ``deal`` before the game starts (a position).

    Raises:
        ErqishiError: the rule set is not for three players, or the bot list or seat is wrong.
    """

    TITLE = "贰柒拾"
    CSS_PATH = "app.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("h", "toggle_hints", "Hints"),
        Binding("question_mark", "help", "Help"),
        Binding("f1", "help", "Help", show=False),
        Binding("left", "select(-1)", "←", show=False),
        Binding("right", "select(1)", "→", show=False),
        Binding("enter", "discard_selected", "Discard", show=False),
        Binding("p", "pass_", "Pass"),
        *[Binding(key, f"choose({i})", key, show=False) for i, key in enumerate(ACTION_KEYS)],
    ]

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
    ) -> None:
        super().__init__()
        from erqishi.core.errors import ErqishiError

        if rules.players != 3:
            raise ErqishiError(f"the terminal game plays three players, not {rules.players}")
        if len(bots) != 2:
            raise ErqishiError(f"expected two bot names, got {len(bots)}")
        if not 0 <= human_seat < 3:
            raise ErqishiError(f"human seat {human_seat} is not one of 0-2")
        if match_quan is not None:
            rules = replace(rules, match_quan=match_quan)
        self.rules = rules
        self.seed = seed
        self.lang: Lang = "en" if lang == "en" else "zh"
        self.human_seat = human_seat
        self.save_dir = save_dir
        self.bot_names: dict[int, str] = {}
        self.bots: dict[int, Bot] = {}
        self.bot_rngs: dict[int, random.Random] = {}
        others = [s for s in range(3) if s != human_seat]
        for seat, name in zip(others, bots, strict=True):
            self.bots[seat] = make_bot(name)
            self.bot_names[seat] = name
            self.bot_rngs[seat] = random.Random(f"{seed}:bot:{seat}")
        self.hint_rng = random.Random(f"{seed}:hints")
        rng = random.Random(seed)
        match = Match.start(rng, rules)
        if deal is not None:
            match = replace(match, dealer=deal.dealer)
        self.table = Table(rules, rng, self.seat_names(), match=match)
        self.names = Names([self.who(s) for s in range(3)], you=human_seat)
        self.log_lines: list[str] = []
        self.selected = 0
        self.show_hints = False
        self.hints_text = ""
        self.prompt_text = ""
        self.offered: list[Action] = []
        self.last_saved: Path | None = None
        self.status_message = ""
        self.notice = ""
        self._pending_log = self.table.start_hand(deal)
        for seat, action in moves:
            self._pending_log += self.table.apply_move(seat, action)
        localize_bindings(self, self.lang)

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

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """Status line, the three seats, log and hints, prompt, hand and actions."""
        yield Static("", id="status")
        with Horizontal(id="table"):
            for seat in range(3):
                yield Static("", id=f"seat-{seat}", classes="seat")
        with Horizontal(id="middle"):
            yield RichLog(id="log", wrap=True, markup=False)
            yield Static("", id="hints", classes="hidden")
        yield Static("", id="prompt")
        yield Horizontal(id="hand")
        yield ActionsBox(id="actions")
        yield Footer()

    async def on_mount(self) -> None:
        """Show the first hand and let the bots play up to the person's first decision."""
        self.title = tr(self.lang, "title")
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
        """The seat as the person knows it: 你, 下家 or 上家 (R-2.1)."""
        if seat == self.human_seat:
            return tr(self.lang, "you")
        if seat == (self.human_seat + 1) % 3:
            return tr(self.lang, "xiajia")
        return tr(self.lang, "shangjia")

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

    def add_events(self, events: Iterable[Event]) -> None:
        """Append the events' narration (the one wording, :mod:`erqishi.play.narrate`) to
        the log; a settled hand shows its first line there (the result screen has the rest)."""
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
            self.query_one("#log", RichLog).write(line)

    # ------------------------------------------------------------------ play

    def next_hand(self) -> None:
        """Deal the next hand of the match (after the result screen)."""
        if self.match.is_over:
            return
        self.add_events(self.table.start_hand())
        self.selected = 0
        self._advance()
        self.call_later(self.refresh_view)

    def _advance(self) -> None:
        """Let the bots decide until the person must or the hand is over."""
        self.add_events(play_until(self.table, self.bots, self.bot_rngs))

    async def play(self, action: Action) -> None:
        """The person's decision ``action`` (one of the offered options); the bots then play on."""
        if not self.table.in_hand or action not in self.table.options(self.human_seat):
            return
        self.add_events(self.table.declare(self.human_seat, action))
        self._advance()
        await self.refresh_view()

    # ------------------------------------------------------------------ display

    def human_view(self) -> PlayerView:
        """The person's view of the current state (R-9)."""
        return self.table.player_view(self.human_seat)

    def _discard_options(self, v: PlayerView) -> dict[Card, Action]:
        return {a.cards[0]: a for a in v.legal if a.kind is ActionKind.DISCARD}

    def _offered(self, v: PlayerView) -> list[Action]:
        """The buttons: every non-discard option, and 打 for the selected card when legal."""
        if v.phase is Phase.OVER or self.human_seat not in self.table.waiting():
            return []
        offered = [a for a in v.legal if a.kind is not ActionKind.DISCARD]
        discards = self._discard_options(v)
        if discards:
            hand = v.hand
            if not 0 <= self.selected < len(hand) or hand[self.selected] not in discards:
                self.selected = next(i for i, c in enumerate(hand) if c in discards)
            offered.insert(0, discards[hand[self.selected]])
        if v.phase is Phase.RESPONSE:
            # pass last, everything else in the engine's order
            offered = [a for a in offered if a.kind is not ActionKind.PASS] + [a for a in offered if a == PASS]
        return offered

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
        return text

    def _prompt(self, v: PlayerView, offered: list[Action]) -> str:
        lang = self.lang
        if v.phase is Phase.RESPONSE and v.pending is not None:
            kinds = dict.fromkeys(a.kind for a in offered)
            if lang == "zh":
                opts = "/".join(kind.chinese for kind in kinds)
            else:
                words = {"chi": "chow", "dui": "pung", "kai": "kong", "hu": "win", "pass": "pass", "discard": "discard"}
                opts = "/".join(words[kind.value] for kind in kinds)
            key = "prompt_flipped" if v.pending_flip else "prompt_discarded"
            text = tr(lang, key, who=self.who(v.turn), card=str(v.pending), opts=opts)
            if KAI in offered and PASS not in offered:
                must = "prompt_must_kai" if set(kinds) == {ActionKind.KAI} else "prompt_must_kai_hu"
                text = text.rstrip("？?") + tr(lang, must)
            return text
        if v.phase is Phase.OPENING and v.turn == self.human_seat:
            return tr(lang, "prompt_opening")
        if v.phase is Phase.DISCARD and v.turn == self.human_seat:
            return tr(lang, "prompt_discard")
        return tr(lang, "prompt_wait")

    @staticmethod
    def _format_waits(waits: list[Wait]) -> str:
        return ", ".join(f"{w.card}({w.score})" for w in waits)

    def compute_hints(self, v: PlayerView) -> str:
        """The hints text and a suggested action. Owing a discard: for each legal discard that
        leaves a waiting hand, its waits (下叫) with their scores, best first; otherwise the
        current waits. Waits whose four copies are all in sight are left out."""
        lang = self.lang
        lines = [tr(lang, "hints_title")]
        if self._discard_options(v):
            options = discard_hints(v)
            for hint in options:
                lines.append(tr(lang, "hints_discard", card=str(hint.card), waits=self._format_waits(list(hint.waits))))
            if not options:
                lines.append(tr(lang, "hints_discard_none"))
        else:
            waits = live_waits(v)
            if waits:
                lines.append(tr(lang, "hints_waits", waits=self._format_waits(waits)))
            else:
                lines.append(tr(lang, "hints_no_waits"))
        if v.legal and v.phase is not Phase.OVER:
            suggestion = HeuristicBot().choose(v, self.hint_rng)
            lines.append(tr(lang, "hints_suggest", action=self.action_label(suggestion, v.pending)))
        return "\n".join(lines)

    async def refresh_view(self) -> None:
        """Redraw everything from the person's view of the current state."""
        v = self.human_view()
        lang = self.lang
        responding = v.phase is Phase.RESPONSE and bool(v.legal) and v.legal != (PASS,)
        if responding:
            turn = tr(lang, "status_respond")
        else:
            turn = self.who(v.turn) if v.turn >= 0 else "-"
        self.query_one("#status", Static).update(
            tr(lang, "status", quan=self.hand_quan, dealer=self.who(v.dealer), turn=turn, stock=v.stock_left)
        )
        self.notice = ""
        for seat in range(3):
            widget = self.query_one(f"#seat-{seat}", Static)
            widget.update(self._seat_text(v, seat))
            widget.set_class(seat == v.turn, "turn")
        offered = self._offered(v)
        self.offered = offered
        self.prompt_text = self._prompt(v, offered)
        self.query_one("#prompt", Static).update(self.prompt_text)
        discards = self._discard_options(v)
        hand_box = self.query_one("#hand", Horizontal)
        await hand_box.remove_children()
        await hand_box.mount_all(
            [
                CardButton(card, i, selected=bool(discards) and i == self.selected, playable=card in discards)
                for i, card in enumerate(v.hand)
            ]
        )
        await self.mount_actions(v)
        hints = self.query_one("#hints", Static)
        hints.set_class(not self.show_hints, "hidden")
        self.hints_text = self.compute_hints(v) if self.show_hints else ""
        hints.update(self.hints_text)
        if self.state.is_over and not isinstance(self.screen, ResultScreen):
            await self.push_screen(ResultScreen(self.result_text(), final=self.match.is_over, lang=lang))

    @property
    def hand_quan(self) -> int:
        """The 圈 of the hand on the table (from 1)."""
        return self.table.quan

    async def mount_actions(self, v: PlayerView | None = None) -> None:
        """The option buttons, packed into as many rows as the screen width needs."""
        if v is None:
            v = self.human_view()
        box = self.query_one("#actions", ActionsBox)
        await box.remove_children()
        buttons = [ActionButton(a, i, self.action_label(a, v.pending)) for i, a in enumerate(self.offered)]
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
        v = self.human_view()
        text = Text(tr(lang, "result_title") + "\n\n", style="bold")
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
        text.append("\n" + tr(lang, "result_payments") + self.colon + "\n")
        for seat, pay in enumerate(result.payments):
            text.append(f"  {self.who(seat)} {pay:+d}\n")
        text.append("\n" + tr(lang, "result_totals") + self.colon + "\n")
        for seat, total in enumerate(self.match.totals):
            text.append(f"  {self.who(seat)} {total:+d}\n")
        text.append("\n" + tr(lang, "result_hands") + self.colon + "\n")
        for seat in range(3):
            sv = v.seats[seat]
            text.append(f"  {self.who(seat)}{self.colon}")
            text.append_text(cards_text(sv.hand or ()))
            for group in sv.melds:
                text.append(f"  [{group.name} {format_cards(group.cards)}]")
            text.append("\n")
        if self.match.is_over:
            text.append("\n" + tr(lang, "result_match_over") + "\n", style="bold")
            text.append(tr(lang, "result_final") + self.colon + "\n", style="bold")
            ranked = sorted(range(3), key=lambda seat: -self.match.totals[seat])
            for seat in ranked:
                text.append(f"  {self.who(seat)} {self.match.totals[seat]:+d}\n")
            leaders = self.match.leaders
            key = "result_leader" if len(leaders) == 1 else "result_leaders"
            text.append(tr(lang, key, who="、".join(self.who(seat) for seat in leaders)) + "\n", style="bold green")
            text.append("\n" + tr(lang, "result_keys_final"))
        else:
            text.append("\n" + tr(lang, "result_keys"))
        return text

    def seat_names(self) -> tuple[str, ...]:
        """The seats' names in records: ``human`` and the bots' names."""
        return tuple("human" if s == self.human_seat else self.bot_names[s] for s in range(3))

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
        """Cards select (a second click discards); option buttons play their action."""
        button = event.button
        if isinstance(button, ActionButton):
            await self.play(button.move)
        elif isinstance(button, CardButton):
            v = self.human_view()
            discards = self._discard_options(v)
            if button.card not in discards:
                return
            if button.index == self.selected:
                await self.play(discards[button.card])
            else:
                self.selected = button.index
                await self.refresh_view()

    async def action_select(self, step: int) -> None:
        """Move the card selection to the next legal discard left or right."""
        v = self.human_view()
        discards = self._discard_options(v)
        if not discards:
            return
        n = len(v.hand)
        i = self.selected
        for _ in range(n):
            i = (i + step) % n
            if v.hand[i] in discards:
                break
        self.selected = i
        await self.refresh_view()

    async def action_discard_selected(self) -> None:
        """Discard the selected card (when a discard is owed)."""
        v = self.human_view()
        discards = self._discard_options(v)
        if discards and 0 <= self.selected < len(v.hand) and v.hand[self.selected] in discards:
            await self.play(discards[v.hand[self.selected]])

    async def action_choose(self, index: int) -> None:
        """Play the offered action number ``index + 1``."""
        if 0 <= index < len(self.offered):
            await self.play(self.offered[index])

    async def action_pass_(self) -> None:
        """过: decline the pending card (when passing is offered); otherwise say why not."""
        if PASS in self.offered:
            await self.play(PASS)
            return
        if KAI in self.offered:
            key = "notice_no_pass_kai"
        elif self._discard_options(self.human_view()):
            key = "notice_no_pass_discard"
        else:
            key = "notice_no_pass"
        self.notice = tr(self.lang, key)
        self.notify(self.notice, severity="warning", timeout=3)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The game's keys work (and show in the footer) only on the main screen."""
        return not (action in self._GAME_ACTIONS and self.screen is not self.screen_stack[0])

    _GAME_ACTIONS = frozenset({"toggle_hints", "pass_", "choose", "select", "discard_selected", "help"})

    async def action_toggle_hints(self) -> None:
        """Show or hide the hints (下叫 with scores, a suggested action)."""
        self.show_hints = not self.show_hints
        await self.refresh_view()

    async def action_help(self) -> None:
        """Open the help screen."""
        if not isinstance(self.screen, HelpScreen):
            await self.push_screen(HelpScreen(self.lang, self.rules))
