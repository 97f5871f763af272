"""Seat and display names as text that is safe to show: the one place that decides what of
a name reaches a terminal or another player.

A name comes from a person (the web's ``hello``) or from a record file anyone may have
written, so it may hold escape sequences, bidirectional overrides or nothing visible.
:func:`printable_name` is what every terminal prints (``erqishi replay``, the terminal
game's narration); :func:`display_name` is what the server accepts as a display name, and
:func:`looks_like_bot` refuses names that pass for a bot's seat.

A bot's seat keeps a machine name in the records (``heuristic-bot-2``: the level and the
seat number from 1, :func:`bot_seat_name`), which ratings read back; people are shown
:func:`bot_label` of it in their language (机器人·稳健 2, "Bot (steady) 2").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = [
    "BOT_WORDS",
    "MAX_NAME_CHARS",
    "bot_label",
    "bot_seat",
    "bot_seat_name",
    "display_name",
    "looks_like_bot",
    "name_key",
    "printable_name",
    "seat_label",
]

#: The longest display name, in characters (code points) after cleaning.
MAX_NAME_CHARS = 24


def name_key(name: str) -> str:
    """What makes two display names the same to a reader: case and width folded, and a
    letter with a combining accent the same as the accented letter (NFKC, then casefold):
    "Ann", "ANN" and "ＡＮＮ" are one name, as are "Ánn" written either way.

    >>> name_key("ＡＮＮ") == name_key("ann"), name_key("A\u0301nn") == name_key("Ánn")
    (True, True)
    >>> name_key("Ann") == name_key("Ánn")
    False
    """
    return unicodedata.normalize("NFKC", name).casefold()


#: Characters that are letters or symbols to Unicode but draw nothing (fillers, blanks,
#: variation selectors, the combining grapheme joiner): dropped like control characters.
_INVISIBLE = (
    frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0, 0x1D159, 0x1D173, 0x1D17A])
    | frozenset(range(0xFE00, 0xFE10))
    | frozenset(range(0xE0100, 0xE01F0))
)

#: Latin look-alikes from other scripts (and digits) folded before matching bot names.
_LOOKALIKE = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x",
        "һ": "h", "і": "i", "ѕ": "s", "ԁ": "d", "ո": "n", "м": "m", "н": "h", "к": "k", "г": "r",
        "α": "a", "β": "b", "ε": "e", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "ι": "i", "η": "n",
        "б": "b", "ь": "b",
        "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h", "ɪ": "i",
        "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s",
        "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
        "0": "o",
    }
)  # fmt: skip

#: "bot" as a word, or spelled with anything but letters between its letters ("b-o-t")
#: Characters that look like b, o, s or t in other scripts and symbol sets, from Unicode's
#: confusables data (UTS #39, confusables.txt): every character listed there as
#: confusable with one of the four letters (or with one of them under a mark).
_CONFUSABLE = {
    "b": "ƀƂƃƄɓΒБВЬѢѣҌҍᏏᏴᑲᑳᖯᗷꓐꞴ𐊂𐊡𐌁𝚩𝛣𝜝𝝗𝞑",
    "o": "0ØøƟǾɵΘΟθοσϑϴОоѲѳӨөՕօ۵०০੦૦ଠ୦௦ం౦ಂ೦ംഠ൦ං๐໐ဝ၀ჿዐᎾᏫᴏᴑ⁰⊖⊝⍬Ⲟⲟⴱⵁⵔ〇ꓳꝊꝋꬽꬾꭴꮎꮻ𐊒𐊫𐐄𐐬𐓂𐓪𐔖𑓐𑢵𑣈𑣗𑣠"
    "𝈚𝚯𝚶𝚹𝛉𝛐𝛔𝛝𝛩𝛰𝛳𝜃𝜊𝜎𝜗𝜣𝜪𝜭𝜽𝝄𝝈𝝑𝝝𝝤𝝧𝝷𝝾𝞂𝞋𝞗𝞞𝞡𝞱𝞸𝞼𝟅𝟎𝟘𝟢𝟬𝟶🜔🯰",
    "s": "ƽʂЅѕՏᏕᏚᣵᵴꓢꜱꮪ𐊖𐐠𐑈𑣁𖼺",
    "t": "ŦŧƫƭƮȾΤТҬᎢᵵ₮⊤⍡⟙Ⲧꓔ𐊗𐊱𐌕𑢼𖼊𝚻𝛵𝜯𝝩𝞣🝨",
}
_CONFUSABLE_TO = str.maketrans({ch: letter for letter, chars in _CONFUSABLE.items() for ch in chars})
#: a letter of the Latin alphabet by its Unicode name, in any dress: with marks or a
#: stroke (ø), squared, circled, negative (🅱), as a regional indicator
_LATIN_NAME = re.compile(r"(?:LATIN (?:CAPITAL|SMALL) LETTER|REGIONAL INDICATOR SYMBOL LETTER) ([A-Z])(?![A-Z])")
#: "bot" or "bots", whole or with anything but letters between its letters ("b-o-t", "bo t")
_BOT_WORD = re.compile(r"(?<![a-z])b[^a-z]*o[^a-z]*t(?:[^a-z]*s)?(?![a-z])")
_BOT_ZH = ("机器人", "电脑", "人机")
#: traditional and variant forms of the characters of 机器人, 电脑, 人机
_ZH_VARIANTS = str.maketrans({"機": "机", "噐": "器", "電": "电", "腦": "脑", "脳": "脑"})
#: emoji that stand for a machine player
_BOT_EMOJI = ("\U0001f916",)  # 🤖 ROBOT FACE


def _latin_skeleton(text: str) -> str:
    """``text`` with every character that draws a Latin letter made that letter (lower
    case): its confusables (:data:`_CONFUSABLE`, :data:`_LOOKALIKE`) and any character
    whose Unicode name is a Latin letter in some dress (:data:`_LATIN_NAME`)."""
    out = []
    for ch in text.translate(_LOOKALIKE).translate(_CONFUSABLE_TO):
        if ch > "\x7f":
            found = _LATIN_NAME.search(unicodedata.name(ch, ""))
            if found is not None:
                ch = found.group(1).lower()
        out.append(ch)
    return "".join(out)


#: format characters and fillers left out before matching (zero-width joiners and spaces,
#: variation selectors, :data:`_INVISIBLE`)
_DROP = frozenset(chr(c) for c in _INVISIBLE) | frozenset("\u200b\u200c\u200d\u2060\ufeff")


def printable_name(name: str) -> str:
    """The name without control, format, private-use, unassigned or invisible characters
    (Unicode categories C*, line and paragraph separators, fillers), other spaces made
    plain and runs of them collapsed: what a terminal may print of a name from a record
    or a player. Never raises; may return ``""``.

    >>> printable_name("\\x1b[31mEve\\x07  \\u202eAnn\\n")
    '[31mEve Ann'
    """
    if name.isascii() and name.isprintable() and "  " not in name and name == name.strip():
        return name  # the usual case: nothing to remove
    kept = []
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] == "C" or category in ("Zl", "Zp") or ord(ch) in _INVISIBLE:
            if ch in "\t\n\r\x0b\x0c":
                kept.append(" ")
            continue
        kept.append(" " if category == "Zs" else ch)
    return " ".join("".join(kept).split())


def display_name(name: str) -> str:
    """A display name as the server keeps it: :func:`printable_name` of it, which must hold
    a visible character (a letter, digit, punctuation or symbol, not only combining marks)
    and at most :data:`MAX_NAME_CHARS` characters.

    Raises:
        ValueError: nothing visible is left, or the name is too long (the message says which).

    >>> display_name("  小  明 ")
    '小 明'
    >>> display_name("\\u3164\\u200b")
    Traceback (most recent call last):
    ...
    ValueError: a name needs at least one visible character
    """
    kept = printable_name(name)
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in kept):
        raise ValueError("a name needs at least one visible character")
    if len(kept) > MAX_NAME_CHARS:
        raise ValueError(f"a name has at most {MAX_NAME_CHARS} characters")
    return kept


def looks_like_bot(name: str, levels: Iterable[str] = ()) -> bool:
    """Whether ``name`` would pass for a bot's seat: the word "bot" (in any width, case,
    look-alike letters of any script or symbol set, small capitals, squared or circled
    letters, with marks or strokes on its letters, or with something between them: "Bot 2",
    "heuristic-bot-1", "ｂ０ｔ", "ʙᴏᴛ", "ᏴOT", "bøt", "🅱🅾🆃", "b-o-t", "bo t"), 机器人, 电脑
    or 人机 (in traditional or variant characters, spaces between them too), the robot
    emoji, or a bot level's name (``levels``, e.g. "random") or its words as people see
    them (:data:`BOT_WORDS`: 稳健, "steady") alone or with a number.

    >>> looks_like_bot("heuristic-bot-1"), looks_like_bot("Robot"), looks_like_bot("random 2", ["random"])
    (True, False, True)
    >>> looks_like_bot("稳健 2", ["heuristic"]), looks_like_bot("机器 人"), looks_like_bot("b o t")
    (True, True, True)
    """
    if any(emoji in name for emoji in _BOT_EMOJI):
        return True
    folded = unicodedata.normalize("NFKC", name).casefold()
    # marks on letters dropped (B̶ot, bót), and what draws nothing of its own (a variation
    # selector after 🅱, a joiner): decompose, leave out marks and format characters
    folded = "".join(
        ch for ch in unicodedata.normalize("NFKD", folded) if unicodedata.category(ch)[0] != "M" and ch not in _DROP
    )
    folded = unicodedata.normalize("NFC", folded)
    compact = re.sub(r"[\W_]+", "", folded).translate(_ZH_VARIANTS)
    if any(word in compact for word in _BOT_ZH):
        return True
    plain = _latin_skeleton(folded)
    if _BOT_WORD.search(plain):
        return True
    bare = re.sub(r"[\W\d_]+", "", folded)
    for level in levels:
        words = BOT_WORDS.get(level)
        names = (level, *words[0]) if words is not None else (level,)
        if any(bare == re.sub(r"[\W\d_]+", "", word.casefold()) for word in names):
            return True
    return False


#: The bot levels in words, for people: level -> (Chinese, English) of the bot's kind of
#: play, and a one-line note (Chinese, English) on how it plays (erqishi.bots).
BOT_WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "random": (("新手", "novice"), ("随手出牌", "plays at random")),
    "heuristic": (
        ("稳健", "steady"),
        ("留坎、留二七十和对子，打安全牌", "keeps triples (坎), 2-7-10s (二七十) and pairs; discards safe cards"),
    ),
    "search": (("高手", "expert"), ("模拟多种牌局再选最好的一步", "plays each choice out in sampled deals")),
    "search-old": (("老高手", "old expert"), ("较早的搜索机器人", "the earlier search bot")),
    "learned": (
        ("自学", "self-taught"),
        ("用模拟对局训练的神经网络估计每一步的得失", "a network trained on simulated hands values every move"),
    ),
}

_BOT_SEAT = re.compile(r"^(?P<level>[a-z][a-z-]*?)-bot-(?P<n>[1-9][0-9]?)$")


def bot_seat_name(level: str, seat: int) -> str:
    """The machine name of a bot's seat, as records keep it: the level and the seat
    numbered from 1.

    >>> bot_seat_name("heuristic", 1)
    'heuristic-bot-2'
    """
    return f"{level}-bot-{seat + 1}"


def bot_seat(name: str) -> tuple[str, int] | None:
    """The level and the number (from 1) of a bot seat's machine name, or None for any
    other name.

    >>> bot_seat("search-bot-3"), bot_seat("小明")
    (('search', 3), None)
    """
    m = _BOT_SEAT.match(name)
    return None if m is None else (m.group("level"), int(m.group("n")))


def bot_label(level: str, number: int, lang: str = "zh") -> str:
    """A bot's name for people: 机器人·稳健 2 / "Bot (steady) 2" (``number`` from 1); a
    level without words is named by its code.

    >>> bot_label("heuristic", 2), bot_label("search", 3, "en")
    ('机器人·稳健 2', 'Bot (expert) 3')
    """
    words = BOT_WORDS.get(level)
    kind = (words[0][1] if lang == "en" else words[0][0]) if words is not None else level
    return f"Bot ({kind}) {number}" if lang == "en" else f"机器人·{kind} {number}"


def seat_label(name: str, lang: str = "zh") -> str:
    """How a seat's name is shown: a bot's machine name as :func:`bot_label`, any other
    name as it is.

    >>> seat_label("random-bot-1", "en"), seat_label("阿华")
    ('Bot (novice) 1', '阿华')
    """
    found = bot_seat(name)
    return name if found is None else bot_label(found[0], found[1], lang)
