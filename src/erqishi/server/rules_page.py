"""规则 The rules page (``/rules``) and the pocket scorer's rule data (``/score``), from the
package's own rule data (RULES.md R-1 - R-10), never retyped.

``GET /api/rules`` (:func:`rules_json`) serves everything both pages need:

- the cards (R-1.1), the groups and their hu (:data:`~erqishi.core.hands.groups.HU_TABLE`,
  R-3), the least winning hu (R-6.1);
- every tier table (``TIER_ROWS``, and the tier of every hu 0-200 by ``tier_of``, R-7.2, R-10);
- the 番 of ``FAN_RULES`` (R-7.3) with their switches and weights under each rule option
  that changes a weight (R-10 ``tianhu``), and the flat 天胡 score (R-10 ``fixed_100``);
- the rule options in words (``rule_info.OPTIONS``), every preset with all its options and
  what it changes (``PRESETS``, ``RuleSet.to_options``, ``rule_info.PRESET_NAMES``), the
  抬炮 multiple by player count (R-8.2);
- worked examples and payment tables computed by ``analyze_hand`` and ``settle`` (R-8);
- the text of the rules, in the order a learner needs them, each section with its R-ids,
  an anchor and the lesson (``/learn/<id>``) that teaches it (:data:`SECTIONS`).

The pocket scorer (``static/js/scorer.js``) scores hands in the page from this data, so it
keeps working offline: the service worker (``GET /sw.js``, :func:`service_worker_js`)
precaches the client, ``/api/rules`` and the other JSON the client starts with.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from erqishi import learn
from erqishi.core import Card, RuleSet, analyze_hand
from erqishi.core.hands import (
    FAN_RULES,
    HU_TABLE,
    MIN_HU,
    Group,
    GroupKind,
    NoWinReason,
    WinContext,
    WinSource,
    classify_triple,
    settle,
    tier_of,
)
from erqishi.core.hands.scoring import TIANHU_FIXED_SCORE, TIER_ROWS
from erqishi.core.rule_info import OPTIONS, PRESET_NAMES, describe_option, describe_rules, differences
from erqishi.core.rules import LESHAN, NUMBER_RANGES, PRESETS, TianhuRule, Tiers
from erqishi.server.settings import PROTOCOL_VERSION

__all__ = ["LESSONS", "SECTIONS", "Section", "rules_json", "rules_router", "service_worker_js"]

STATIC = Path(str(resources.files("erqishi.server") / "static"))

#: The lessons of ``/learn`` a rule links to ("学这条 learn it"), by id (:data:`erqishi.learn.LESSONS`).
LESSONS: tuple[str, ...] = tuple(lesson.id for lesson in learn.LESSONS)

#: Text in both languages: (Chinese, English).
Words = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Section:
    """One section of the rules page: the rules of RULES.md it states, in words.

    Attributes:
        id: the anchor (``/rules#chi``).
        rules: the R-ids it states (``R-5.7``).
        lesson: the lesson of ``/learn`` that teaches it (one of :data:`LESSONS`).
        title: its heading.
        body: its paragraphs.
        table: the generated table shown under it (``cards``, ``hu``, ``example``,
            ``sources``, ``tiers``, ``fans``, ``payments``, ``presets``), or None.
    """

    id: str
    rules: tuple[str, ...]
    lesson: str
    title: Words
    body: tuple[Words, ...]
    table: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The section as JSON: every text as ``[Chinese, English]``."""
        return {
            "id": self.id,
            "rules": list(self.rules),
            "lesson": self.lesson,
            "title": list(self.title),
            "body": [list(p) for p in self.body],
            "table": self.table,
        }


#: The rules as erqishi plays them (RULES.md), in the order a learner needs them. Only the
#: words are here; every table (hu, tiers, 番, payments, presets) is generated.
SECTIONS: tuple[Section, ...] = (
    Section(
        "cards",
        ("R-1.1", "R-1.2"),
        "cards",
        ("牌", "The cards"),
        (
            (
                "一副牌 80 张：点数一到十，分小、大两种，每种四张。小牌黑字：一二三四五六七八九十；"
                "大牌红字：壹贰叁肆伍陆柒捌玖拾。同一种牌的四张完全一样。",
                "80 cards: ranks 1 to 10 in two sizes, four copies of each. 小 small cards are black: "
                "一二三四五六七八九十; 大 big cards are red: 壹贰叁肆伍陆柒捌玖拾. The four copies of a card "
                "are interchangeable.",
            ),
            (
                "二、七、十（贰、柒、拾）是游戏得名的点数：同一大小的二七十合成一房，有胡（下表中带下划线）。",
                "Ranks 2, 7 and 10 give the game its name: 二七十 of one size make a group that scores "
                "(underlined below).",
            ),
            (
                "记法：一个汉字一张牌（一一二七十壹）；也可写 ASCII：小 x1…x10、大 d1…d10（x1 x1 x2 d1）。"
                "排列顺序：先小后大，再按点数。",
                "Notation: one Chinese character per card (一一二七十壹), or ASCII tokens: small x1…x10, "
                "big d1…d10 (x1 x1 x2 d1). Display order: small before big, then by rank.",
            ),
        ),
        "cards",
    ),
    Section(
        "seats",
        ("R-2.1", "R-2.2", "R-2.3", "R-2.4"),
        "play",
        ("座位、发牌与圈", "Seats, the deal and the 圈"),
        (
            (
                "默认三人，按逆时针出牌。你之前出牌的是上家，之后的是下家。",
                "Three players by default; play runs counter-clockwise. The player just before you is your "
                "上家 (upstream), the one just after you your 下家 (downstream).",
            ),
            (
                "庄家拿 21 张，其余各 20 张；第 21 张叫当底。三人时剩下 19 张是堂牌。"
                "每手结束（荒庄也一样）庄家的下家接庄。",
                "The dealer (庄家) gets 21 cards, the others 20; the 21st is the 当底. With three players 19 "
                "cards stay in the stock (堂牌). After every hand, a dead hand included, the deal passes to the "
                "old dealer's 下家.",
            ),
            (
                "每家都坐过一次庄为一圈，一场默认 10 圈。第 N 圈的圈牌是大牌 N（圈1 壹、圈2 贰……）。",
                "Once everyone has dealt, one 圈 (round) is complete; a match is 10 圈 by default. In 圈 N "
                "the 圈 card is the big card of rank N (圈1 → 壹, 圈2 → 贰 …).",
            ),
            (
                "每人看得到自己的手牌和桌上公开的一切：亮出的牌、打出和翻出的牌、堂牌剩几张、报的八块、各家手牌张数；"
                "手里的滚和堂牌的顺序看不到。一手结束时亮出所有手牌。",
                "Each player sees their own hand and everything public: exposed melds, discard rows, the cards "
                "left in the stock, every 八块 announcement, how many cards each player holds. Concealed 滚 and "
                "the stock's order stay hidden; at the end of a hand all hands are shown.",
            ),
        ),
    ),
    Section(
        "groups",
        ("R-3",),
        "groups",
        ("房（组合）和胡数", "Groups (房) and their hu"),
        (
            (
                "胡牌的手由七房组成。每房要么亮在桌上（吃、对、开得来），要么藏在手里。",
                "A winning hand is made of seven groups (房). Each lies exposed on the table (taken by 吃, 对 "
                "or 开) or stays concealed in the hand.",
            ),
            (
                "顺子：同一大小连续三张（一二三 … 八九十，不能转圈）；大小混合的（一贰三）不是一房。"
                "花吃：同一点数、大小都有的三张（六六陆、陆陆六）。二七十：同一大小的二、七、十。",
                "A run (顺子): three consecutive ranks of one size (一二三 … 八九十, no wrap); mixed sizes "
                "(一贰三) are no group. 花吃: three cards of one rank in both sizes (六六陆, 陆陆六). 二七十: "
                "ranks 2, 7, 10 of one size.",
            ),
            (
                "三张相同：第三张来自外面（对别人的牌，或胡牌那张凑成）叫对；三张都在自己手里叫坎。四张相同："
                "坎加外来的第四张叫开；四张都在手里叫滚。桩子（一对）只在有四张一房（开或滚）的手里出现。",
                "Three identical cards: a 对 when the third came from outside (claimed, or the winning card "
                "completing a pair); a 坎 when all three were held. Four identical: a 开 when a 坎 took the "
                "fourth from outside; a 滚 when all four were held. The pair (桩子) exists only in a hand "
                "with a quad (开 or 滚).",
            ),
            (
                "每房的胡数见下表（小牌 / 大牌）；二七十不论是吃来的还是手里的都算胡。",
                "The hu of each group is in the table (small / big cards); a 二七十 scores whether claimed or held.",
            ),
        ),
        "hu",
    ),
    Section(
        "locked",
        ("R-3.1", "R-3.2"),
        "locked",
        ("坎和滚是锁定的", "A 坎 or 滚 is locked"),
        (
            (
                "手里三张相同的牌一定是坎，四张一定是滚：不能拆开去组别的房，不能拿去吃，也不能打出去。",
                "Three identical cards in the hand are always a 坎, four always a 滚: they may not be split "
                "into other groups, used in a 吃, or discarded.",
            ),
            (
                "胡牌那张所在的房按亮出来算：一对加胡牌是对（不是坎），坎加胡牌是开（不是滚）。胡牌也可以进别的房、"
                "让同样的坎保持完整——哪种分法得分最高就算哪种。天胡没有胡牌，手里三张相同都是坎。",
                "The group holding the winning card counts as exposed in kind: a pair plus the winning card "
                "is a 对 (not a 坎); a 坎 plus the winning card is a 开 (not a 滚). The winning card may also go "
                "into another group and leave the 坎 whole: the best grouping decides. A 天胡 has no winning "
                "card: three identical cards are a 坎.",
            ),
        ),
    ),
    Section(
        "winning",
        ("R-4.4", "R-6.1"),
        "winning",
        ("胡牌的手", "A winning hand"),
        (
            (
                "手牌、亮出的牌加上刚打出或翻出的那张（谁的都行），正好组成七房、没有散牌，而且至少 10 胡，就胡了。"
                "胡牌那张可以进任何一房，不必是能吃的组合。",
                "You win when your hand, your exposed melds and the card just discarded or flipped (by "
                "anyone) form exactly seven groups with no card left over and at least 10 hu. The winning "
                "card may go into any group; it need not be a legal 吃.",
            ),
            (
                "没有开或滚：七个三张的房，共 21 张，没有桩子。有 q 个开或滚：q 个四张、6 − q 个三张和正好一个桩子，"
                "共 21 + (q − 1) 张；胡牌那张可以凑成桩子（单吊）。多牌或少牌都不能胡。",
                "No quad: seven groups of three, 21 cards, no pair. With q quads (开 or 滚): q quads, 6 − q "
                "triples and exactly one pair, 21 + (q − 1) cards; the winning card may complete the pair "
                "(单吊). Too many cards (多牌) or too few (少牌) cannot win.",
            ),
        ),
        "example",
    ),
    Section(
        "turn",
        ("R-5.1", "R-5.2", "R-5.3", "R-5.4", "R-5.5", "R-5.14"),
        "play",
        ("一轮怎么走", "How a turn goes"),
        (
            (
                "庄家先走：报天胡，或打出第一张牌。手里全是坎、打不出牌的庄家必须报天胡。",
                "The dealer starts: declares 天胡, or makes the opening discard. A dealer whose every card is in "
                "a 坎 must declare 天胡.",
            ),
            (
                "有人打出一张牌：另外两家都可以胡、开、对它；只有打牌者的下家可以吃。没人要，牌留在打牌者面前，"
                "由他的下家翻牌。",
                "After a discard the other players may 胡, 开 or 对 it; only the discarder's 下家 may 吃 it. If "
                "nobody takes it, it stays face up in the discarder's row and the discarder's 下家 flips.",
            ),
            (
                "翻牌：把堂牌最上面一张翻开，这张牌从不进手。谁都可以胡、开、对它（翻牌者也可以）；翻牌者可以吃，"
                "翻牌者不吃，他的下家可以吃。没人要，它放进翻牌者面前，由翻牌者的下家接着翻，不用打牌。",
                "To flip, turn the top stock card face up; it never enters a hand. Anyone, the flipper "
                "included, may 胡, 开 or 对 it; the flipper may 吃 it, and if the flipper does not, the "
                "flipper's 下家 may. Untaken, it goes into the flipper's row and the flipper's 下家 flips next; "
                "no discard follows.",
            ),
            (
                "优先：胡 > 开 > 对 > 吃；同样的回应按座位先后（翻牌时从翻牌者起，打牌时从打牌者的下家起）。"
                "一张牌只给一家。",
                "Priority: 胡 > 开 > 对 > 吃; among equal responses the first in seat order (for a flip the "
                "flipper, then downstream; for a discard the discarder's 下家, then downstream). Only one "
                "player takes a card.",
            ),
            (
                "要了牌（吃、对、开）就把这房亮出来，再打一张（八块时不打）；然后由他的下家翻牌。打出的牌要从手里出，"
                "不能是坎或滚里的牌，也不能是上吐下泻禁止的牌；吃或对之后没有能打的牌，就不能吃或对。",
                "A player who takes a card (吃, 对, 开) lays the group face up, then discards one card (unless "
                "八块 lets them keep it); then their 下家 flips. A discard comes from the hand, never from a 坎 or "
                "滚 nor one barred by 上吐下泻; a 吃 or 对 that would leave no legal discard is not allowed.",
            ),
        ),
    ),
    Section(
        "chi",
        ("R-5.7",),
        "chi",
        ("吃", "吃 chi"),
        (
            (
                "吃：用手里两张牌和这张牌组成顺子、二七十或花吃，亮在桌上。这两张不能来自坎或滚。",
                "吃 takes the card with two hand cards into a run, a 二七十 or a 花吃, laid face up. The two "
                "hand cards may not come from a locked 坎 or 滚.",
            ),
        ),
    ),
    Section(
        "bai",
        ("R-5.8",),
        "bai",
        ("摆", "摆 bai"),
        (
            (
                "吃了之后手里还有同样的牌，就必须同时把它们全部摆出来：每张和手里另外两张组成顺子、二七十或花吃，"
                "手里不能再留这种牌。摆不起，就不能吃。",
                "If after the 吃 the hand still holds copies of the card taken, every copy must be laid down "
                "at once, each in a run, 二七十 or 花吃 with two more free hand cards, so that none is left; "
                "if that cannot be done, the 吃 is not allowed.",
            ),
            (
                "例：手里 一 二 二 三 三，用二三吃一，手里的一必须同时摆成一二三。手里 一 二 三 七，用二三吃一，"
                "剩下的一摆不起，不能吃。",
                "Example: holding 一 二 二 三 三, taking 一 with 二三 obliges the held 一 to go down at once as "
                "一二三 too; holding 一 二 三 七, taking 一 with 二三 is refused (the held 一 cannot be laid).",
            ),
        ),
    ),
    Section(
        "guozhang",
        ("R-5.9",),
        "guozhang",
        ("过张", "过张 guozhang: a passed 吃"),
        (
            (
                "能吃而不吃的牌，这一手再也不能吃这种牌；自己从手里打出去过的牌，也不能再吃（没人要的翻牌不算）。"
                "过张只限制吃，不限制对、开、胡。",
                "A card you could 吃 and did not is one you may never 吃 again this hand; nor may you 吃 a "
                "card you have discarded from your hand (untaken flips in your row do not count). 过张 limits "
                "吃 only, never 对, 开 or 胡.",
            ),
        ),
    ),
    Section(
        "shangtu",
        ("R-5.10",),
        "shangtu",
        ("上吐下泻", "上吐下泻: the discard after a 吃"),
        (
            (
                "吃完要打的那张牌，不能和吃时用的两张手牌组成顺子、二七十或花吃。",
                "The discard after a 吃 may not be a card that would make a run, 二七十 or 花吃 with the two "
                "hand cards used in that 吃.",
            ),
            (
                "例：手里三四五，用三四吃二，不能打五；用二三吃一、手里还有四，打牌时不能打四。",
                "Examples: holding 三四五, taking 二 with 三四 and discarding 五 is forbidden; taking 一 with 二三 "
                "while holding 四 forbids discarding 四.",
            ),
        ),
    ),
    Section(
        "dui",
        ("R-5.11",),
        "dui",
        ("对", "对 dui"),
        (
            (
                "手里有一对，可以要第三张（别人打出的或任何翻出的）组成对，亮在桌上。对是自愿的。",
                "Holding a pair, you may take the third card (a discard or any flip) as a 对, laid face up. "
                "A 对 is optional.",
            ),
        ),
    ),
    Section(
        "kai",
        ("R-5.12", "R-5.13"),
        "kai",
        ("开：有开必开", "开 kai: you must"),
        (
            (
                "手里有坎，别人打出或任何翻出的第四张必须开——除非你用这张胡牌。",
                "Holding a 坎, you must take the fourth card, from a discard or any flip, as a 开 — unless you "
                "win on it instead (有开必开).",
            ),
            (
                "亮出的对加第四张默认不是一房；规则选项“下雨”（yu）下可以加成开，这种开可开可不开，"
                "而且是桌上得来的（不妨碍瞟胡）。",
                "A fourth card onto an exposed 对 is no group by default; under the option 下雨 (yu) it makes "
                "a 开, an optional one, earned on the table (it does not block 瞟胡).",
            ),
        ),
    ),
    Section(
        "bakuai",
        ("R-4.1", "R-4.2", "R-4.3"),
        "bakuai",
        ("八块", "八块: the second quad"),
        (
            (
                "开和滚都是四张一房。第一个不改变什么；从第二个起，每多一个，就可以多留一张牌、这次要牌后不打。",
                "开 and 滚 are quads. The first changes nothing; each quad after the first is one card you keep: "
                "after a take-in you owe a discard only while your cards exceed 20 + (quads − 1).",
            ),
            (
                "留牌时要报出四张一房的总张数：八块（8）、十二块（12）……报数是公开的，哪些是手里的滚要到结束才知道。",
                "When you keep a card you announce your quad cards: 八块 (8), 十二块 (12) … The count is "
                "public; which quads are concealed 滚 stays hidden until the hand ends.",
            ),
            (
                "庄家发到两个以上的滚，不打第一张，报 4q 块，由庄家的下家翻牌；"
                "闲家发到两个以上的滚，在下一次要牌时留牌。",
                "A dealer dealt two or more 滚 makes no opening discard and announces 4q 块; the dealer's 下家 "
                "then flips. A non-dealer dealt two or more 滚 keeps the card at their next take.",
            ),
        ),
    ),
    Section(
        "huilong",
        ("R-6.2",),
        "huilong",
        ("回笼和过胡", "回笼 and 过胡: wins you may not take"),
        (
            (
                "回笼：自己从手里打出过的牌，这一手不能再用它胡。",
                "回笼 (huilong): you may not win on a card whose kind you have discarded from your hand earlier "
                "this hand.",
            ),
            (
                "过胡：能胡而不胡，到你下一次要牌（吃、对、开）之前都不能胡，除非新的胡比放过的每一次得分都高。"
                "庄家能报天胡却打了第一张牌，也算过胡。",
                "过胡: after declining a win you may not win again until your next take (吃, 对, 开), except with "
                "a strictly higher score than every win you declined since. A dealer who could declare 天胡 and "
                "discards instead has declined a win.",
            ),
        ),
    ),
    Section(
        "dead",
        ("R-5.6",),
        "play",
        ("荒庄", "荒庄: the dead hand"),
        (
            (
                "该翻牌而堂牌已经翻完，这一手就荒庄：没人胡，没人付，庄家的下家接庄。最后一次翻牌后打出的牌仍可以要或胡。",
                "When a flip is due and the stock is empty the hand is dead (荒庄): nobody wins, nobody pays, "
                "the deal passes on. A discard made after the last flip can still be taken or won.",
            ),
        ),
    ),
    Section(
        "sources",
        ("R-6.3", "R-6.4"),
        "winning",
        ("怎么胡的：抬炮、翻胡、自摸、天胡、地胡", "How the win came: 抬炮, 翻胡, 自摸, 天胡, 地胡"),
        (
            (
                "天胡：庄家发到的 21 张本来就胡。地胡：闲家胡庄家打出的第一张牌（庄家没打第一张时，胡第一张翻牌）。",
                "天胡: the dealer's 21 dealt cards already win. 地胡: a non-dealer wins on the dealer's opening "
                "discard (or on the first flip when the dealer made none).",
            ),
        ),
        "sources",
    ),
    Section(
        "waits",
        ("R-6.1",),
        "waits",
        ("下叫", "下叫: waiting to win"),
        (
            (
                "差一张就胡的手叫下叫：哪些牌能让它胡、胡了得多少分。计胡器可以算出来：只输入手牌和亮牌，不选胡牌。",
                "A hand one card short of a win is waiting (下叫): which cards would complete it, and what each "
                "would score. The pocket scorer lists them: enter the hand and melds without a winning card.",
            ),
        ),
    ),
    Section(
        "tiers",
        ("R-7.1", "R-7.2"),
        "fan",
        ("胡数和规格", "Hu and the base (规格)"),
        (
            (
                "一手的胡数是各房胡数之和。同一手牌有几种分法时，算得分最高的那种；得分相同看胡数高的，再看番名按字符顺序"
                "排在前面的。",
                "A hand's hu is the sum of its groups' hu. Where the cards group several ways, the grouping with "
                "the highest score counts; ties go to the higher hu, then to the fan list that sorts first.",
            ),
            (
                "胡数换成规格（底分）要看规格表；默认是乐山的表，大和翻倍，台和翻两番。",
                "The hu gives the base (规格) by a tier table; by default Leshan's, where 大和 doubles and 台和 "
                "doubles twice.",
            ),
        ),
        "tiers",
    ),
    Section(
        "fan",
        ("R-7.3", "R-7.4"),
        "fan",
        ("番", "番 fan: the doublings"),
        (
            (
                "每个番让得分翻一倍，几个番相乘：得分 = 规格 × 2^番数。",
                "Each 番 doubles the score, all multiplied together: score = base × 2^(番).",
            ),
        ),
        "fans",
    ),
    Section(
        "payments",
        ("R-8.1", "R-8.2", "R-8.3"),
        "payments",
        ("谁付多少", "Who pays what"),
        (
            (
                "翻胡、自摸、天胡：其他每家各付胡家得分。抬炮：打出那张牌的人一家付三倍（包三家），另一家不付；"
                "两人对抠时付两倍。有封顶时先封顶再乘倍数。荒庄不付。一场比赛累计各手的分。",
                "翻胡, 自摸 or 天胡: each other player pays the winner the score. 抬炮: the discarder alone pays "
                "3 × the score (包三家), the third player nothing; with two players 2 ×. With a cap, the score is "
                "capped first, then multiplied. A dead hand pays nothing; totals carry across a match.",
            ),
        ),
        "payments",
    ),
    Section(
        "presets",
        ("R-10",),
        "play",
        ("各地规则", "The rule presets"),
        (
            (
                "各地打法不同的地方都是规则选项；几种预设打法如下，标出的是与乐山不同的选项。",
                "Every rule that regions play differently is an option; the presets are below, with the options "
                "each changes from Leshan marked.",
            ),
        ),
        "presets",
    ),
)

#: What each 番 rewards (R-7.3), in words; the weights and switches are generated.
FAN_WORDS: dict[str, Words] = {
    "天胡": ("庄家发到的 21 张本来就胡", "the dealer's 21 dealt cards win as they are"),
    "地胡": ("闲家胡庄家打出的第一张", "a non-dealer wins on the dealer's opening discard"),
    "坤胡": ("除桩子外每房至少 1 胡（房房数）", "every group but the pair scores at least 1 hu"),
    "瞟胡": (
        "胡数全在桌上或靠胡牌得来：没有坎、滚、由坎开成的开，胡前手里没有整副二七十",
        "all hu earned on the table or with the winning card: no 坎, 滚 or 开 grown from a 坎, and no whole "
        "二七十 held just before the win",
    ),
    "圈胡": ("有三张圈牌（对或坎）", "three of the 圈 card, as a 对 or 坎"),
    "双圈": ("有四张圈牌（开或滚）", "all four 圈 cards, as a 开 or 滚"),
}

#: Worked examples the page shows, scored by the package when served.
EXAMPLES: tuple[tuple[str, tuple[str, ...], str, WinSource, Words], ...] = (
    (
        "二三四五六七七七壹贰叁陆陆陆捌玖拾",
        ("一一一",),
        "四",
        WinSource.DISCARD,
        ("最小的胡：10 胡，小和", "The least win: 10 hu, 小和"),
    ),
    (
        "一二三四五六九十",
        ("贰柒拾", "捌捌捌", "肆肆肆", "二七十"),
        "八",
        WinSource.DISCARD,
        ("胡数全在桌上：瞟胡一番", "Every hu earned on the table: 瞟胡, one 番"),
    ),
)

#: The scores of the payment examples (R-8): one ordinary score and one above a cap.
PAYMENT_SCORES = (20, 160)


def _card_json(card: Card) -> dict[str, Any]:
    return {"id": int(card), "ascii": card.ascii, "char": card.char, "big": card.is_big, "rank": card.rank}


def _ejs_ranks() -> list[int]:
    """The ranks of 二七十, as the group table of R-3 decides them (``classify_triple``)."""
    small = [c for c in Card if not c.is_big]
    found = {c.rank for trio in combinations(small, 3) if classify_triple(trio) is GroupKind.EJS for c in trio}
    return sorted(found)


def _groups_json() -> list[dict[str, Any]]:
    """The hu table (R-3), in ``HU_TABLE`` order, with each kind's names."""
    return [
        {
            "kind": kind.value,
            "name": Group(kind, (Card.X2,)).name,
            "name_big": Group(kind, (Card.D2,)).name,
            "hu": list(hu),
            "quad": kind.is_quad,
        }
        for kind, hu in HU_TABLE.items()
    ]


def _tiers_json() -> dict[str, Any]:
    """Every tier table (R-7.2, R-10): its rows, its open top row, and the tier of each hu
    0-200 (``tier_of``), for scoring in the page."""
    out: dict[str, Any] = {}
    for tiers in Tiers:
        rules = RuleSet.from_options({"tiers": tiers.value})
        rows, top = TIER_ROWS[tiers]
        by_hu: list[list[Any] | None] = []
        for hu in range(201):
            tier = tier_of(hu, rules)
            by_hu.append(None if tier is None else [tier.name, tier.base])
        low = MIN_HU
        shown = []
        for high, name, base in rows:
            shown.append({"low": low, "high": high, "name": name, "base": base})
            low = high + 1
        top_tier = tier_of(low, rules)
        assert top_tier is not None
        examples = [[hu, *(by_hu[hu] or [])] for hu in (low, 33, 72)] if top is None else []
        shown.append({"low": low, "high": None, "name": top_tier.name, "base": top})
        out[tiers.value] = {"rows": shown, "top_examples": examples, "by_hu": by_hu}
    return out


def _weight_variants(fan: Any, weight: Any) -> dict[str, dict[str, int]]:
    """The options (R-10) under which a 番 is worth other than under ``leshan``, by value."""
    base = weight(fan, LESHAN)
    out: dict[str, dict[str, int]] = {}
    for info in OPTIONS:
        default = getattr(LESHAN, info.name)
        if not isinstance(default, StrEnum):
            continue
        values = {m.value: weight(fan, RuleSet.from_options({info.name: m.value})) for m in type(default)}
        if any(w != base for w in values.values()):
            out[info.name] = values
    return out


def _fans_json() -> list[dict[str, Any]]:
    """The 番 registry (R-7.3): each rule with its fans, switch (R-10), R-ids and weights."""
    out = []
    for rule in FAN_RULES:
        fans = []
        for fan in rule.fans:
            fans.append(
                {
                    "name": fan.value,
                    "weight": rule.weight(fan, LESHAN),
                    "weight_by": _weight_variants(fan, rule.weight),
                    "words": list(FAN_WORDS.get(fan.value, ("", ""))),
                }
            )
        out.append({"test": rule.test.__name__, "fans": fans, "switch": rule.switch, "rule": rule.rule})
    return out


def _options_json() -> list[dict[str, Any]]:
    """Every rule option in words (``rule_info.OPTIONS``, R-10)."""
    return [
        {
            "name": o.name,
            "label": [o.zh, o.en],
            "rule": o.rule_id,
            "meaning": [o.meaning_zh, o.meaning_en],
            "section": list(o.section),
            "values": [[value, zh, en] for value, (zh, en) in o.values.items()],
            "number": None if o.number is None else list(o.number),
            "range": list(NUMBER_RANGES[o.name]) if o.name in NUMBER_RANGES else None,
        }
        for o in OPTIONS
    ]


def _presets_json() -> list[dict[str, Any]]:
    """Every preset (R-10): its name in words, all its options, each option in words, and
    the options it changes from ``leshan``."""
    out = []
    for name in PRESETS:
        rules = RuleSet.preset(name)
        zh, en = PRESET_NAMES.get(name, (name, name))
        out.append(
            {
                "name": name,
                "words": [zh, en],
                "about": [describe_rules(rules, "zh"), describe_rules(rules, "en")],
                "rules": rules.to_options(),
                "words_of": {
                    o.name: [describe_option(rules, o.name, "zh"), describe_option(rules, o.name, "en")]
                    for o in OPTIONS
                },
                "differs": list(differences(rules, LESHAN)),
            }
        )
    return out


def _group_json(g: Group) -> dict[str, Any]:
    return {
        "kind": g.kind.value,
        "name": g.name,
        "cards": "".join(c.char for c in g.cards),
        "hu": g.hu,
        "exposed": g.exposed,
        "winning": g.winning,
    }


def _examples_json() -> list[dict[str, Any]]:
    """The worked examples, scored by ``analyze_hand`` (R-3, R-7)."""
    out = []
    for hand, melds, win, source, words in EXAMPLES:
        r = analyze_hand(hand, list(melds), win, WinContext(source))
        out.append(
            {
                "hand": hand,
                "melds": list(melds),
                "win": win,
                "source": source.value,
                "words": list(words),
                "groups": [_group_json(g) for g in r.groups],
                "hu": r.hu,
                "tier": None if r.tier is None else r.tier.name,
                "base": r.base,
                "fan": r.fan_names,
                "score": r.score,
            }
        )
    return out


def _payments_json() -> list[dict[str, Any]]:
    """Payment tables (R-8) computed by ``settle``: per player count and win source, the
    winner as seat 0 and the discarder the last playing seat; and the ``app`` preset's cap."""
    out = []
    cases: list[tuple[RuleSet, str | None]] = [(RuleSet.from_options({"players": n}), None) for n in (3, 2, 4)]
    cases.append((RuleSet.preset("app"), "app"))
    for rules, preset in cases:
        n = rules.players
        sitting_out = 3 if n == 4 else None
        playing = [s for s in range(n) if s != sitting_out]
        for score in PAYMENT_SCORES if preset else PAYMENT_SCORES[:1]:
            for source in (WinSource.DISCARD, WinSource.FLIP):
                discarder = playing[-1] if source is WinSource.DISCARD else None
                pay = settle(score, source, 0, rules, discarder=discarder, sitting_out=sitting_out)
                roles = [
                    "winner"
                    if s == 0
                    else "sitting_out"
                    if s == sitting_out
                    else "discarder"
                    if s == discarder
                    else "other"
                    for s in range(n)
                ]
                out.append(
                    {
                        "players": n,
                        "preset": preset,
                        "cap": rules.cap,
                        "factor": rules.taipao_factor,
                        "source": source.value,
                        "score": score,
                        "payments": list(pay),
                        "roles": roles,
                    }
                )
    return out


@lru_cache(maxsize=1)
def _rules_json_text() -> str:
    data: dict[str, Any] = {
        "v": PROTOCOL_VERSION,
        "cards": [_card_json(c) for c in Card],
        "ejs_ranks": _ejs_ranks(),
        "copies": 4,
        "groups": _groups_json(),
        "min_hu": MIN_HU,
        "tiers": _tiers_json(),
        "fans": _fans_json(),
        "tianhu_fixed": {"option": "tianhu", "value": TianhuRule.FIXED_100.value, "score": TIANHU_FIXED_SCORE},
        "sources": [{"value": s.value, "name": s.chinese} for s in WinSource],
        "reasons": [{"value": r.value, "words": [r.chinese, r.english]} for r in NoWinReason],
        "options": _options_json(),
        "defaults": LESHAN.to_options(),
        "presets": _presets_json(),
        "taipao_default": {str(n): RuleSet.from_options({"players": n}).taipao_factor for n in (2, 3, 4)},
        "examples": _examples_json(),
        "payments": _payments_json(),
        "sections": [s.to_json() for s in SECTIONS],
        "lessons": list(LESSONS),
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def rules_json() -> dict[str, Any]:
    """``GET /api/rules``: the rule data of the rules page and the pocket scorer, generated
    from the package (R-1 - R-10; see the module docstring).

    >>> data = rules_json()
    >>> data["groups"][1]["kind"], data["groups"][1]["hu"], data["tiers"]["seed"]["by_hu"][33]
    ('ejs', [3, 6], ['台和', 140])
    """
    loaded: dict[str, Any] = json.loads(_rules_json_text())
    return loaded


#: The pages and JSON the client needs to start offline (besides its static files).
OFFLINE_PAGES = ("/", "/score", "/rules", "/api/rules", "/api/presets", "/api/narration", "/icon.svg")


def service_worker_js() -> str:
    """``GET /sw.js``: the service worker (``static/sw.js``) headed by the list of files it
    precaches (every static file and :data:`OFFLINE_PAGES`) and a version that changes
    with any of them, so a new client replaces the old cache."""
    digest = hashlib.sha256(_rules_json_text().encode())
    files = []
    for path in sorted(STATIC.rglob("*")):
        if not path.is_file() or path.name == "sw.js" or "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(STATIC).as_posix().encode())
        digest.update(path.read_bytes())
        files.append("/static/" + path.relative_to(STATIC).as_posix())
    worker = (STATIC / "sw.js").read_text(encoding="utf-8")
    digest.update(worker.encode())
    head = (
        f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
        f"const PRECACHE = {json.dumps([*OFFLINE_PAGES, *files])};\n"
    )
    return head + worker


ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
    '<rect width="512" height="512" rx="96" fill="#8a2a1b"/>'
    '<rect x="116" y="76" width="280" height="360" rx="36" fill="#f6e7b8" stroke="#9c7a1e" stroke-width="14"/>'
    '<text x="256" y="330" font-size="220" text-anchor="middle" fill="#c8161d" '
    'font-family="WenQuanYi Micro Hei, Noto Sans CJK SC, sans-serif" font-weight="bold">柒</text></svg>'
)


def rules_router() -> APIRouter:
    """The routes of the rules page and the pocket scorer: ``GET /api/rules`` (the rule
    data), ``GET /sw.js`` (the service worker, scope ``/``) and ``GET /icon.svg`` (the
    installed app's icon)."""
    router = APIRouter()

    @router.get("/api/rules")
    async def api_rules() -> Response:
        return Response(_rules_json_text(), media_type="application/json")

    @router.get("/sw.js")
    async def sw() -> Response:
        return Response(
            service_worker_js(),
            media_type="text/javascript",
            headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
        )

    @router.get("/icon.svg")
    async def icon() -> Response:
        return Response(ICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    return router
