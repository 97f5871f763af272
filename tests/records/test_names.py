"""Names that pass for a bot's seat are refused (issue: "display names are checked …, no
names reserved for bots"; docs/protocol.md ``bad_name``): the word "bot" however it is
disguised, 机器人 and 电脑, a bot level's name and the words people see for it."""

from __future__ import annotations

import pytest

from erqishi.records import looks_like_bot
from erqishi.records.names import BOT_WORDS

BOT_LEVELS = tuple(BOT_WORDS)  # every bot level that has words for people


@pytest.mark.parametrize(
    "name",
    [
        # the words every page shows for the bot levels (机器人·稳健 2, "Bot (steady) 2")
        "稳健",
        "高手",
        "新手",
        "稳健 2",
        "高手 1",
        "steady",
        "Steady 2",
        "expert",
        "novice",
        "自学 3",
        "Self-taught",
        # 机器人 and 电脑 with a space inside
        "机器 人",
        "机器\u3000人",
        "电 脑",
        # "bot" with marks on its letters, in small capitals, spelled out
        "B\u0336ot",
        "bót",
        "ʙᴏᴛ",
        "bᴏt",
        "b-o-t",
        "b o t",
        "б0т",
        # look-alikes of other scripts and symbol sets (Unicode's confusables), a stroke,
        # squared letters, a variation selector, a gap inside, the robot emoji, variants
        "bøt",
        "b ot",
        "bo t",
        "ᏴOT",
        "ᗷOT",
        "🅱🅾🆃",
        "🅱\ufe0fot",
        "b\u200bot",
        "🤖",
        "机噐人",
        "機器人",
        "電腦",
        # already refused before, kept
        "ｂｏｔ",
        "b0t",
        "heuristic bot",
        "heuristic-bot-1",
        "random 2",
        "机器人",
    ],
)
def test_a_name_that_passes_for_a_bot_is_refused(name: str) -> None:
    assert looks_like_bot(name, BOT_LEVELS)


@pytest.mark.parametrize(
    "name",
    [
        "Robot",
        "robots",
        "Abbott",
        "about",
        "both",
        "Bob",
        "小明",
        "稳健派",
        "Steadyhand",
        "老王",
        "Bo Tang",
        "Jacob Otto",
        "Søren",
        "Øyvind",
        "Boston",
        "机器",
    ],
)
def test_a_name_that_merely_holds_the_letters_is_kept(name: str) -> None:
    assert not looks_like_bot(name, BOT_LEVELS)
