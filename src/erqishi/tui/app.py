"""The terminal game (Textual): one human against two bots, a whole match of 贰柒拾.

The app never decides legality: the human is offered exactly ``view(state, seat).legal``
(R-9), bots choose from their own views, response windows are resolved by
:func:`~erqishi.core.engine.resolve_responses` (R-5.4) and every move goes through
:func:`~erqishi.core.engine.apply`. Bots act synchronously between human decisions.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, RichLog, Static
from textual.widgets.button import ButtonVariant

from erqishi.bots import Bot, HeuristicBot, make_bot
from erqishi.core import Card, RuleSet, format_cards
from erqishi.core.engine import (
    KAI,
    PASS,
    Action,
    ActionKind,
    Deal,
    Match,
    Outcome,
    Phase,
    PlayerView,
    State,
    apply,
    new_hand,
    resolve_responses,
    seat_options,
    view,
)
from erqishi.core.hands import HU_TABLE, Wait
from erqishi.core.hands.scoring import WinSource
from erqishi.play.hints import discard_hints, live_waits
from erqishi.records import HandRecord, MatchRecord, dumps
from erqishi.tui.i18n import ACTION_KEYS, pad, rules_brief, rules_extra, tiers_text, tr

__all__ = ["ActionButton", "ActionsBox", "CardButton", "ErqishiApp", "HelpScreen", "ResultScreen"]


#: Footer descriptions of the bindings (English in the class, translated per app).
_KEY_LABELS = {
    "Quit": "key_quit",
    "Hints": "key_hints",
    "Help": "key_help",
    "Pass": "key_pass",
    "Close": "key_close",
    "Next": "key_next",
    "Save": "key_save",
    "Save match": "key_save_match",
}


def localize_bindings(node: DOMNode, lang: str) -> None:
    """Give ``node``'s bindings footer labels in ``lang`` (the class bindings stay English)."""
    keys = {
        key: [
            replace(b, description=tr(lang, _KEY_LABELS[b.description])) if b.description in _KEY_LABELS else b
            for b in bindings
        ]
        for key, bindings in node._bindings.key_to_bindings.items()
    }
    node._bindings = BindingsMap.from_keys(keys)


def unique_path(directory: Path, stem: str) -> Path:
    """``directory/stem.json``, or ``stem-2.json``, ``stem-3.json``… if it exists already."""
    path = directory / f"{stem}.json"
    n = 2
    while path.exists():
        path = directory / f"{stem}-{n}.json"
        n += 1
    return path


def card_text(card: Card) -> Text:
    """A card face in Chinese, 大 cards red (R-1.1)."""
    return Text(str(card), style="bold red" if card.is_big else "bold")


def cards_text(cards: tuple[Card, ...] | list[Card]) -> Text:
    """Card faces side by side, 大 cards red."""
    text = Text()
    for card in cards:
        text.append_text(card_text(card))
    return text


class CardButton(Button):
    """One card of the human's hand; a click selects it, a second click discards it."""

    can_focus = False

    def __init__(self, card: Card, index: int, *, selected: bool, playable: bool) -> None:
        classes = "card big" if card.is_big else "card small"
        if selected:
            classes += " selected"
        if not playable:
            classes += " locked"
        super().__init__(str(card), id=f"card-{index}", classes=classes, compact=True)
        self.card = card
        self.index = index


class ActionButton(Button):
    """One of the human's current options (an :class:`~erqishi.core.engine.Action`)."""

    can_focus = False

    def __init__(self, action: Action, index: int, label: str) -> None:
        variant: ButtonVariant = "primary" if action.kind is not ActionKind.PASS else "default"
        if action.kind is ActionKind.HU:
            variant = "success"
        self.key = ACTION_KEYS[index] if index < len(ACTION_KEYS) else ""
        text = f"{self.key} {label}" if self.key else label
        super().__init__(text, id=f"act-{index}", variant=variant, compact=True)
        self.styles.width = self.cells = cell_len(text) + 2
        self.move = action
        self.index = index


class ActionsBox(VerticalScroll):
    """The action buttons in rows that fit the width (scrolling if they ever outgrow it)."""

    packed_width = 80

    async def on_resize(self, event: events.Resize) -> None:
        """Pack the buttons again when the width changes."""
        width = event.size.width
        if width != self.packed_width:
            self.packed_width = width
            app = self.app
            if isinstance(app, ErqishiApp):
                await app._mount_actions()


class HelpScreen(ModalScreen[None]):
    """The rules in brief, the hu table (R-3) and the tiers (R-7.2)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("question_mark", "dismiss", "Close", show=False),
        Binding("f1", "dismiss", "Close", show=False),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 110; height: 40; border: thick $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, lang: str, rules: RuleSet) -> None:
        super().__init__()
        self.lang = lang
        self.rules = rules
        self.text = self._build()
        localize_bindings(self, lang)

    def _build(self) -> str:
        lang = self.lang
        lines = [tr(lang, "help_title"), "", rules_brief(lang), "", tr(lang, "help_hu_table")]
        head = (tr(lang, "help_group"), tr(lang, "help_small"), tr(lang, "help_big"))
        lines.append(f"  {pad(head[0], 12)} {pad(head[1], 6, right=True)} {pad(head[2], 6, right=True)}")
        for kind, (small, big) in HU_TABLE.items():
            label = kind.chinese if lang == "zh" else f"{kind.chinese} {kind.value}"
            lines.append(f"  {pad(label, 12)} {pad(str(small), 6, right=True)} {pad(str(big), 6, right=True)}")
        lines += ["", tr(lang, "help_tiers"), tiers_text(lang, self.rules), "", rules_extra(lang, self.rules)]
        lines += ["", tr(lang, "help_keys"), tr(lang, "help_close")]
        return "\n".join(lines)

    def compose(self) -> ComposeResult:
        """The help text in a scrollable box."""
        with VerticalScroll():
            yield Static(self.text, id="help-text", markup=False)


class ResultScreen(Screen[None]):
    """The end of a hand (R-6 to R-8, R-9): every hand, the winner's groups with their hu, the
    番, the score, each payment and the match totals."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_hand", "Next"),
        Binding("enter", "next_hand", "Next", show=False),
        Binding("s", "save", "Save"),
        Binding("m", "save_match", "Save match"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, text: Text, *, final: bool = False, lang: str = "zh") -> None:
        super().__init__()
        self.text = text
        self.final = final
        localize_bindings(self, lang)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No next hand once the match is over; the match record only then."""
        if action == "next_hand":
            return not self.final
        if action == "save_match":
            return self.final
        return True

    def compose(self) -> ComposeResult:
        """The result text and the key line."""
        with VerticalScroll():
            yield Static(self.text, id="result-text")
            yield Static("", id="result-status")
        yield Footer()

    def action_next_hand(self) -> None:
        """Leave the result and deal the next hand (if the match goes on)."""
        app = self.app
        if isinstance(app, ErqishiApp) and not app.match.is_over:
            self.dismiss(None)
            app.next_hand()

    def action_save(self) -> None:
        """Save the hand's record (a message, not a crash, when it cannot be written)."""
        self._save(match=False)

    def action_save_match(self) -> None:
        """Save the whole match's record (once the match is over)."""
        self._save(match=True)

    def _save(self, *, match: bool) -> None:
        app = self.app
        if not isinstance(app, ErqishiApp):
            return
        try:
            path = app.save_match_record() if match else app.save_record()
        except OSError as exc:
            message = tr(app.lang, "save_failed", error=f"{exc.strerror or exc} ({exc.filename or ''})")
        else:
            message = tr(app.lang, "saved_match" if match else "saved", path=str(path))
        app.status_message = message
        self.query_one("#result-status", Static).update(message)


class ErqishiApp(App[None]):
    """贰柒拾 in the terminal: a human at ``human_seat`` against two bots, a whole match.

    Args:
        rules: the rule set (three players).
        seed: the match seed: the first dealer, every deal and each bot's generator derive from it.
        bots: two bot names for :func:`~erqishi.bots.make_bot`, for the other seats in seat order.
        quan_count: 圈 per match (R-2.4), or None for ``rules.match_quan``.
        lang: ``"zh"`` (default) or ``"en"`` for labels; card faces are always Chinese.
        human_seat: the human's seat.
        save_dir: where ``s`` writes records (default: the current directory).
        deal: a fixed deal for the first hand (tests, puzzles); its dealer deals.
    """

    TITLE = "贰柒拾"

    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $boost; padding: 0 1; }
    #table { height: auto; }
    .seat { width: 1fr; height: auto; min-height: 7; border: round $primary; padding: 0 1; }
    .seat.turn { border: double $warning; }
    #middle { height: 1fr; }
    #log { width: 1fr; border: round $secondary; }
    #hints { width: 44; border: round $success; padding: 0 1; }
    #hints.hidden { display: none; }
    #prompt { height: auto; padding: 0 1; text-style: bold; color: $warning; }
    #hand { height: 3; padding: 0 1; }
    #actions { height: auto; max-height: 50%; padding: 0 1; }
    #actions > Horizontal { height: auto; }
    CardButton { min-width: 4; width: 4; height: 1; margin: 1 0 1 0; }
    CardButton.big { color: red; }
    CardButton.small { color: $text; }
    CardButton.selected { background: $accent; text-style: bold reverse; }
    CardButton.locked { text-style: dim; }
    ActionButton { margin: 0 1 0 0; min-width: 6; }
    """

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
        quan_count: int | None,
        lang: str = "zh",
        human_seat: int = 0,
        save_dir: Path | None = None,
        *,
        deal: Deal | None = None,
    ) -> None:
        super().__init__()
        if rules.players != 3:
            raise ValueError(f"the terminal game plays three players, not {rules.players}")
        if len(bots) != 2:
            raise ValueError(f"expected two bot names, got {len(bots)}")
        if not 0 <= human_seat < 3:
            raise ValueError(f"human seat {human_seat} is not one of 0-2")
        if quan_count is not None:
            rules = replace(rules, match_quan=quan_count)
        self.rules = rules
        self.seed = seed
        self.lang = "en" if lang == "en" else "zh"
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
        self.rng = random.Random(seed)
        self.hint_rng = random.Random(f"{seed}:hints")
        self.match = Match.start(self.rng, rules)
        if deal is not None:
            self.match = replace(self.match, dealer=deal.dealer)
        self.deal = deal if deal is not None else self.match.deal(self.rng)
        self.state: State = new_hand(self.deal, rules, self.match.quan_card_number)
        self.actions: list[tuple[int, Action]] = []
        self.log_lines: list[str] = []
        self.declared: dict[int, Action] = {}
        self.selected = 0
        self.show_hints = False
        self.hints_text = ""
        self.prompt_text = ""
        self.offered: list[Action] = []
        self.last_saved: Path | None = None
        self.status_message = ""
        self.notice = ""
        self.hand_quan = self.match.quan
        self.hand_records: list[HandRecord] = []
        self.outcomes: list[Outcome] = []
        self.win_card: Card | None = None
        self.win_from: int | None = None
        localize_bindings(self, self.lang)

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
        """Start the first hand."""
        self.title = tr(self.lang, "title")
        await self._start_hand()

    # ------------------------------------------------------------------ naming

    @property
    def colon(self) -> str:
        """The colon of the language (full width in Chinese)."""
        return ": " if self.lang == "en" else "："

    def who(self, seat: int) -> str:
        """The seat's name as the human sees it: 你, 下家 or 上家 (R-2.1)."""
        if seat == self.human_seat:
            return tr(self.lang, "you")
        if seat == (self.human_seat + 1) % 3:
            return tr(self.lang, "xiajia")
        return tr(self.lang, "shangjia")

    def s(self, seat: int) -> str:
        """The English verb ending for ``seat``: "You discard", "Next (下家) discards"."""
        return "" if seat == self.human_seat else "s"

    def action_label(self, action: Action, taken: Card | None = None) -> str:
        """An action for display (card faces in Chinese); a 吃 names the card ``taken``,
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

    def log_line(self, seat: int, action: Action, card: Card | None) -> str:
        """The log line of ``seat`` playing ``action`` on the pending ``card``: names the card
        for 对/开/胡 and the card taken with the two hand cards for 吃."""
        lang, who, s = self.lang, self.who(seat), self.s(seat)
        kind = action.kind
        if kind is ActionKind.DISCARD:
            return tr(lang, "log_discard", who=who, card=str(action.cards[0]), s=s)
        if kind is ActionKind.PASS:
            return tr(lang, "log_pass", card=str(card))
        if card is None:
            if kind is ActionKind.HU:
                return tr(lang, "log_tianhu", who=who, s=s)
            return tr(lang, "log_action", who=who, action=self.action_label(action))
        if kind is ActionKind.CHI:
            bai = tr(lang, "log_bai", groups=" / ".join(format_cards(g) for g in action.bai), s=s) if action.bai else ""
            return tr(lang, "log_chi", who=who, card=str(card), pair=format_cards(action.cards), bai=bai, s=s)
        return tr(lang, f"log_{kind.value}", who=who, card=str(card), s=s)

    def add_log(self, line: str) -> None:
        """Append a line to the running log of moves."""
        self.log_lines.append(line)
        with contextlib.suppress(NoMatches):
            self.query_one("#log", RichLog).write(line)

    # ------------------------------------------------------------------ play

    async def _start_hand(self) -> None:
        self.hand_quan = self.match.quan
        self.actions = []
        self.declared = {}
        self.win_card = self.win_from = None
        self.add_log(tr(self.lang, "log_new_hand", quan=self.match.quan, dealer=self.who(self.state.dealer)))
        self._log_pending(self.state)
        self._advance()
        await self.refresh_view()

    def next_hand(self) -> None:
        """Deal the next hand of the match (after the result screen)."""
        if self.match.is_over:
            return
        self.deal = self.match.deal(self.rng)
        self.state = new_hand(self.deal, self.rules, self.match.quan_card_number)
        self.selected = 0
        self.call_later(self._start_hand)

    def _log_pending(self, state: State) -> None:
        if state.phase is Phase.RESPONSE and state.pending is not None and state.pending_flip:
            who = self.who(state.turn)
            self.add_log(tr(self.lang, "log_flip", who=who, card=str(state.pending), s=self.s(state.turn)))

    def _apply(self, seat: int, action: Action) -> None:
        before = self.state
        self.state = apply(before, seat, action)
        self.actions.append((seat, action))
        pending = before.pending if before.phase is Phase.RESPONSE else None
        self.add_log(self.log_line(seat, action, pending))
        announced = self.state.seats[seat].announced
        if announced > before.seats[seat].announced:
            self.add_log(f"{self.who(seat)}{self.colon}{announced}块")
        self._log_pending(self.state)
        if action.kind is ActionKind.HU:
            self.win_card = pending
            self.win_from = before.turn if pending is not None else None
        if self.state.is_over:
            result = self.state.result
            assert result is not None
            self.match = self.match.after(result)
            self.hand_records.append(
                HandRecord(self.rules, self.seat_names(), self.state.quan, self.deal, tuple(self.actions))
            )
            self.outcomes.append(result)

    def _advance(self) -> None:
        """Let the bots act until the human must decide or the hand is over."""
        self.declared = {}
        while not self.state.is_over:
            state = self.state
            if state.phase is Phase.RESPONSE:
                declared: dict[int, Action] = {}
                human_waits = False
                for seat in state.order:
                    options = seat_options(state, seat)
                    if not options or options == (PASS,):
                        continue
                    if seat == self.human_seat:
                        human_waits = True
                        continue
                    declared[seat] = self.bots[seat].choose(view(state, seat), self.bot_rngs[seat])
                if human_waits:
                    self.declared = declared
                    return
                self._apply(*resolve_responses(state, declared))
            else:
                if state.turn == self.human_seat:
                    return
                seat = state.turn
                self._apply(seat, self.bots[seat].choose(view(state, seat), self.bot_rngs[seat]))

    async def play(self, action: Action) -> None:
        """The human's decision ``action`` (one of the offered options); the bots then play on."""
        state = self.state
        if state.is_over or action not in seat_options(state, self.human_seat):
            return
        if state.phase is Phase.RESPONSE:
            declared = dict(self.declared)
            declared[self.human_seat] = action
            self._apply(*resolve_responses(state, declared))
        else:
            self._apply(self.human_seat, action)
        self._advance()
        await self.refresh_view()

    # ------------------------------------------------------------------ display

    def human_view(self) -> PlayerView:
        """The human's view of the current state (R-9)."""
        return view(self.state, self.human_seat)

    def _discard_options(self, v: PlayerView) -> dict[Card, Action]:
        return {a.cards[0]: a for a in v.legal if a.kind is ActionKind.DISCARD}

    def _offered(self, v: PlayerView) -> list[Action]:
        """The buttons: every non-discard option, and 打 for the selected card when legal."""
        if v.phase is Phase.OVER:
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
        """Redraw everything from the current state (the human's view)."""
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
        await self._mount_actions(v)
        hints = self.query_one("#hints", Static)
        hints.set_class(not self.show_hints, "hidden")
        self.hints_text = self.compute_hints(v) if self.show_hints else ""
        hints.update(self.hints_text)
        if self.state.is_over and not isinstance(self.screen, ResultScreen):
            await self.push_screen(ResultScreen(self.result_text(), final=self.match.is_over, lang=lang))

    async def _mount_actions(self, v: PlayerView | None = None) -> None:
        """The action buttons, packed into as many rows as the screen width needs."""
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
        if result.kind == "win" and result.winner is not None and result.analysis is not None:
            analysis = result.analysis
            source = result.source.chinese if result.source is not None else ""
            win = tr(lang, "result_win", who=self.who(result.winner), source=source, s=self.s(result.winner))
            text.append(win + "\n", style="bold green")
            if self.win_card is not None:
                line = tr(lang, "result_card", card=str(self.win_card))
                if self.win_from is not None and result.source is WinSource.DISCARD:
                    line += tr(lang, "result_from_discard", who=self.who(self.win_from))
                elif self.win_from is not None and result.source is WinSource.FLIP:
                    line += tr(lang, "result_from_flip", who=self.who(self.win_from))
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
        record = HandRecord(self.rules, self.seat_names(), self.state.quan, self.deal, tuple(self.actions))
        return self._write(f"erqishi-{self.seed}-hand{self.match.hands_played}", record.to_json(self.state.result))

    def save_match_record(self) -> Path:
        """Write the record of every hand played so far, with the totals (FORMATS.md).

        Raises:
            OSError: the file cannot be written.
        """
        record = MatchRecord(self.rules, self.seat_names(), tuple(self.hand_records), self.match.totals)
        return self._write(f"erqishi-{self.seed}-match", record.to_json(self.outcomes))

    # ------------------------------------------------------------------ input

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """Cards select (a second click discards); action buttons play their action."""
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
