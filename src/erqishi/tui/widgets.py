"""The terminal game's widgets and screens: cards of the hand, option buttons packed into
rows, the help screen and the result screen. They show what the app gives them and send
the player's choice back; they decide nothing about the rules."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Static
from textual.widgets.button import ButtonVariant

from erqishi.core import Card, RuleSet
from erqishi.core.engine import Action, ActionKind
from erqishi.core.hands import HU_TABLE
from erqishi.tui.i18n import ACTION_KEYS, pad, rules_brief, rules_extra, tiers_text, tr

if TYPE_CHECKING:
    from erqishi.tui.app import ErqishiApp

__all__ = [
    "ActionButton",
    "ActionsBox",
    "CardButton",
    "HelpScreen",
    "ResultScreen",
    "card_text",
    "cards_text",
    "localize_bindings",
]

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


def card_text(card: Card) -> Text:
    """A card face in Chinese, 大 cards red (R-1.1)."""
    return Text(str(card), style="bold red" if card.is_big else "bold")


def cards_text(cards: tuple[Card, ...] | list[Card]) -> Text:
    """Card faces side by side, 大 cards red."""
    text = Text()
    for card in cards:
        text.append_text(card_text(card))
    return text


def _game(node: DOMNode) -> ErqishiApp | None:
    from erqishi.tui.app import ErqishiApp

    app = node.app
    return app if isinstance(app, ErqishiApp) else None


class CardButton(Button):
    """One card of the player's hand; a click selects it, a second click discards it."""

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
    """One of the player's current options (an :class:`~erqishi.core.engine.Action`)."""

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
    """The option buttons in rows that fit the width (scrolling if they ever outgrow it)."""

    packed_width = 80

    async def on_resize(self, event: events.Resize) -> None:
        """Pack the buttons again when the width changes."""
        width = event.size.width
        if width != self.packed_width:
            self.packed_width = width
            game = _game(self)
            if game is not None:
                await game.mount_actions()


class HelpScreen(ModalScreen[None]):
    """The rules in brief, the hu table (R-3) and the tiers (R-7.2) of the rule set in play."""

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
        game = _game(self)
        if game is not None and not game.match.is_over:
            self.dismiss(None)
            game.next_hand()

    def action_save(self) -> None:
        """Save the hand's record (a message, not a crash, when it cannot be written)."""
        self._save(match=False)

    def action_save_match(self) -> None:
        """Save the whole match's record (once the match is over)."""
        self._save(match=True)

    def _save(self, *, match: bool) -> None:
        game = _game(self)
        if game is None:
            return
        try:
            path = game.save_match_record() if match else game.save_record()
        except OSError as exc:
            message = tr(game.lang, "save_failed", error=f"{exc.strerror or exc} ({exc.filename or ''})")
        else:
            message = tr(game.lang, "saved_match" if match else "saved", path=str(path))
        game.status_message = message
        self.query_one("#result-status", Static).update(message)
