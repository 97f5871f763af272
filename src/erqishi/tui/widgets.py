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
from textual.screen import ModalScreen
from textual.widgets import Button, Static
from textual.widgets.button import ButtonVariant

from erqishi.core import Card, RuleSet
from erqishi.core.engine import PASS, ActionKind
from erqishi.core.hands import HU_TABLE
from erqishi.learn import LESSONS
from erqishi.tui.i18n import ACTION_KEYS, pad, rules_brief, rules_extra, tiers_text, tr

if TYPE_CHECKING:
    from erqishi.tui.app import ErqishiApp, Option

__all__ = [
    "ActionButton",
    "ActionsBox",
    "CardButton",
    "HelpScreen",
    "QuitScreen",
    "ResultPanel",
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
    "Suggested": "key_suggest",
    "Lessons": "key_lessons",
    "Hint": "key_hint",
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


#: The colours of a card, as the seeds describe the cards (R-1.1): 小 black, 大 red, on a
#: paper face. Every pair of text and face has a contrast of at least 4.5:1 (WCAG AA).
PAPER = "#f4ecd8"
INK_SMALL = "#000000"
INK_BIG = "#b00000"
#: a card that may not be played now (in a 坎/滚, 上吐下泻…): a grey face, darker red
LOCKED_PAPER = "#c9c9c9"
LOCKED_INK_BIG = "#800000"
#: the selected card: a yellow face
SELECTED_PAPER = "#ffd24d"


def card_text(card: Card) -> Text:
    """A card face in Chinese on paper, 大 cards red and 小 black (R-1.1)."""
    ink = INK_BIG if card.is_big else INK_SMALL
    return Text(str(card), style=f"bold {ink} on {PAPER}")


def cards_text(cards: tuple[Card, ...] | list[Card]) -> Text:
    """Card faces side by side."""
    text = Text()
    for card in cards:
        text.append_text(card_text(card))
    return text


def _game(node: DOMNode) -> ErqishiApp | None:
    from erqishi.tui.app import ErqishiApp

    app = node.app
    return app if isinstance(app, ErqishiApp) else None


class CardButton(Button):
    """One card of the player's hand; a click selects it, a second click discards it. A
    card that may not be discarded now is ``locked`` (grey); selecting it tells why."""

    can_focus = False

    DEFAULT_CSS = f"""
    CardButton.card {{ min-width: 2; width: 2; height: 1; margin: 1 1 1 0; padding: 0; border: none;
                      text-style: bold; }}
    CardButton.card, CardButton.card:hover {{ background: {PAPER}; }}
    CardButton.card.small {{ color: {INK_SMALL}; }}
    CardButton.card.big {{ color: {INK_BIG}; }}
    CardButton.card.locked, CardButton.card.locked:hover {{ background: {LOCKED_PAPER}; }}
    CardButton.card.locked.big {{ color: {LOCKED_INK_BIG}; }}
    CardButton.card.selected, CardButton.card.selected:hover {{ background: {SELECTED_PAPER};
                                                               text-style: bold underline; }}
    CardButton.card.ranked {{ height: 2; margin: 0 1 1 0; }}
    """

    def __init__(self, card: Card, index: int, *, selected: bool, playable: bool, rank: bool = False) -> None:
        """``rank``: the card's rank (1-10) under its face, for readers new to the numerals
        (the English screen)."""
        classes = "card big" if card.is_big else "card small"
        if rank:
            classes += " ranked"
        if selected:
            classes += " selected"
        if not playable:
            classes += " locked"
        label = f"{card}\n{card.rank:>2}" if rank else str(card)
        super().__init__(label, id=f"card-{index}", classes=classes, compact=True)
        self.styles.line_pad = 0  # the face alone: two cells, and a gap beside it
        self.card = card
        self.index = index
        self.playable = playable


class ActionButton(Button):
    """One of the player's current options (:class:`~erqishi.tui.app.Option`): an action, a
    吃 whose 摆 choices it opens, or the way back."""

    can_focus = False

    def __init__(self, option: Option, index: int, label: str) -> None:
        action = option.action
        variant: ButtonVariant = "default" if option.back or action == PASS else "primary"
        if action is not None and action.kind is ActionKind.HU:
            variant = "success"
        self.key = ACTION_KEYS[index] if index < len(ACTION_KEYS) else ""
        text = f"{self.key} {label}" if self.key else label
        super().__init__(text, id=f"act-{index}", variant=variant, compact=True)
        self.styles.width = self.cells = cell_len(text) + 2
        self.option = option
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
    HelpScreen > VerticalScroll { width: 100%; max-width: 110; height: 100%; max-height: 44;
                                  border: thick $accent; background: $surface; padding: 0 1; }
    HelpScreen #help-text { width: 100%; }
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
        lines += ["", tr(lang, "help_keys"), "", tr(lang, "help_more"), tr(lang, "help_learn", n=len(LESSONS))]
        lines.append(tr(lang, "help_close"))
        return "\n".join(lines)

    def compose(self) -> ComposeResult:
        """The help text in a box that wraps to the screen's width and scrolls to its end."""
        with VerticalScroll(id="help-scroll", can_focus=True):
            yield Static(self.text, id="help-text", markup=False)

    def on_mount(self) -> None:
        """The keys scroll the help at once (↑/↓, PageUp/PageDown, Home/End)."""
        self.query_one("#help-scroll", VerticalScroll).focus()


class ResultPanel(VerticalScroll):
    """The end of a hand beside the final table and the log (R-6 to R-8, R-9): the winner's
    groups with their hu, the 番, the score, each payment and the match totals; it scrolls
    with the keys when it is taller than its place."""

    can_focus = True

    DEFAULT_CSS = """
    ResultPanel { width: 1fr; min-width: 40; border: round $success; padding: 0 1; }
    ResultPanel.hidden { display: none; }
    """

    def compose(self) -> ComposeResult:
        """The result text and a status line for saves."""
        yield Static("", id="result-text")
        yield Static("", id="result-status")

    def show(self, text: Text) -> None:
        """Show ``text`` as the result (scrolled to its top)."""
        self.text = text
        self.query_one("#result-text", Static).update(text)
        self.query_one("#result-status", Static).update("")
        self.scroll_home(animate=False)

    text: Text = Text()


class QuitScreen(ModalScreen[bool]):
    """Asks before leaving a match: the match is saved and ``erqishi play --resume``
    continues it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "leave", "Quit"),
        Binding("q", "leave", "Quit", show=False),
        Binding("n", "stay", "Close"),
        Binding("escape", "stay", "Close", show=False),
    ]

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > VerticalScroll { width: 100%; max-width: 72; height: auto; max-height: 12;
                                  border: thick $warning; background: $surface; padding: 0 1; }
    """

    def __init__(self, lang: str, body: str, **fill: object) -> None:
        super().__init__()
        self.lang = lang
        self.body = body
        self.fill = fill
        localize_bindings(self, lang)

    def compose(self) -> ComposeResult:
        """The question, what happens to the match, and the two keys."""
        lang = self.lang
        with VerticalScroll():
            yield Static(tr(lang, "quit_title"), id="quit-title")
            yield Static(tr(lang, self.body, **self.fill), id="quit-body")
            yield Static(f"{tr(lang, 'quit_yes')}    {tr(lang, 'quit_no')}", id="quit-keys")

    def action_leave(self) -> None:
        """Leave the match (it stays saved)."""
        self.dismiss(True)

    def action_stay(self) -> None:
        """Go back to the table."""
        self.dismiss(False)
