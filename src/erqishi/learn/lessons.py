"""The lessons (RULES.md in the order a learner needs it): each one concept, one
constructed position or hand in card notation (R-1.2), and one goal that the engine or the
scorer checks (:mod:`erqishi.learn.run`). The web page ``/learn`` and ``erqishi learn`` both
read this data; nothing here is retyped elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from erqishi.learn.position import Position, SeatSpec

__all__ = ["LESSONS", "GoalKind", "Lesson", "Step", "Text", "WinSpec", "lesson"]


@dataclass(frozen=True, slots=True)
class Text:
    """A text in Chinese and English."""

    zh: str
    en: str

    def get(self, lang: str) -> str:
        """The text in ``lang`` (``zh`` or ``en``; anything else reads as ``zh``)."""
        return self.en if lang == "en" else self.zh


class GoalKind(StrEnum):
    """What the learner does in a lesson."""

    PICK = "pick"  # tap the cards of a hand that answer a question
    GROUP = "group"  # tap cards of a hand that make the group of most hu
    WAITS = "waits"  # tap every card that wins (下叫)
    CHOOSE = "choose"  # pick one of the answers offered
    MOVE = "move"  # make moves at a position, one goal per step
    PLAY = "play"  # play a whole hand against bots, with the coach


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a :attr:`GoalKind.MOVE` lesson.

    Attributes:
        goal: what to do, in words.
        accept: the action kinds that reach the goal (``chi``, ``discard`` …); a legal
            move of another kind is told why it is not the goal.
        cards: with ``accept == ("chi",)``: the two hand cards the 吃 must use, if any.
        tempt: actions shown although the engine refuses them, so that a learner who tries
            one hears the engine's reason (ASCII action notation, FORMATS.md).
    """

    goal: Text
    accept: tuple[str, ...]
    cards: str = ""
    tempt: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WinSpec:
    """A winning hand to score (:attr:`GoalKind.CHOOSE` lessons): hand, melds, the winning
    card, how it came (R-6.4) and, for a discard, the discarder's seat; the winner is seat 1
    of three."""

    hand: str
    melds: tuple[str, ...]
    card: str
    source: str = "discard"
    discarder: int = 0
    quan: int | None = None


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson.

    Attributes:
        id: a short stable name (the page address ``/learn/<id>``).
        title: the concept.
        rules: the RULES.md ids it teaches.
        intro: the explanation, paragraph by paragraph.
        kind: what the learner does.
        goal: the goal in words (for MOVE, each step has its own).
        done: said once the goal is reached.
        cards: PICK, GROUP, WAITS: the hand shown.
        melds: WAITS: the exposed melds with ``cards``.
        question: PICK: which cards answer (``big``, ``red``: a named test on each card).
        position: MOVE: the position, the learner at seat ``seat``.
        steps: MOVE: the decisions, in order.
        win: CHOOSE: the winning hand to score.
        ask: CHOOSE: ``score`` (how much) or ``payments`` (who pays what).
        seat: the learner's seat.
    """

    id: str
    title: Text
    rules: tuple[str, ...]
    intro: tuple[Text, ...]
    kind: GoalKind
    goal: Text
    done: Text
    cards: str = ""
    melds: tuple[str, ...] = ()
    question: str = ""
    position: Position | None = None
    steps: tuple[Step, ...] = ()
    win: WinSpec | None = None
    ask: str = ""
    seat: int = 1


def T(zh: str, en: str) -> Text:
    return Text(zh, en)


#: A hand that waits on 肆 and 柒 (伍陆 + 肆/柒) with 12 hu in its other groups (R-6.1).
_WAITING = "二七十贰柒拾三三三四五六八九十壹贰叁伍陆"
#: The same groups waiting on 伍 (肆陆 + 伍).
_WAITING_5 = "二七十贰柒拾三三三四五六八九十壹贰叁肆陆"

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        id="cards",
        title=T("牌：小和大", "The cards: 小 and 大"),
        rules=("R-1.1", "R-1.2"),
        intro=(
            T(
                "贰柒拾有 80 张牌：一到十的小牌（黑色，写作 一 二 三 … 十）和大牌（红色，写作 壹 贰 叁 … 拾），每种 4 张。",
                "The game has 80 cards: ranks 1 to 10 in two sizes, four of each. Small cards (小, black) are"
                " written 一 二 三 … 十, big cards (大, red) 壹 贰 叁 … 拾.",
            ),
            T(
                "二、七、十 是特别的三张：小的 二七十 和大的 贰柒拾 各成一房，算胡。这里它们下面有一条线。",
                "二, 七 and 十 are special: the small 二七十 and the red 贰柒拾 each make a group worth hu."
                " Here they are underlined.",
            ),
        ),
        kind=GoalKind.PICK,
        question="big",
        cards="一二五七十六壹贰伍柒拾陆",
        goal=T("点出所有的大牌（红的）。", "Tap every big (red, 大) card."),
        done=T("对了：大牌写作 壹 贰 叁 … 拾，是红的。", "Right: big cards are written 壹 贰 叁 … 拾 and are red."),
    ),
    Lesson(
        id="groups",
        title=T("房和胡数", "Groups and their hu"),
        rules=("R-3",),
        intro=(
            T(
                "赢的牌由「房」组成：顺子（一二三）、二七十、花吃（六六陆）、对、坎、开、滚。每房有胡数，红的（大）比黑的多。",
                "A winning hand is made of groups (房): runs (一二三), 二七十, mixed 花吃 (六六陆), 对, 坎, 开 and 滚."
                " Each group is worth some hu, and a big (red) group more than a small one.",
            ),
            T(
                "三张一样的牌在手里是「坎」；别人打的第三张凑成的是「对」。下面的胡数表就是计分用的。",
                "Three identical cards in your hand are a 坎; a pair plus a third from outside is a 对."
                " The hu table below is the one the scorer uses.",
            ),
        ),
        kind=GoalKind.GROUP,
        cards="一二三二七十贰柒拾六六陆四四四",
        goal=T(
            "点三张牌，组成这手牌里胡数最多的一房。", "Tap three cards that make the group of most hu in this hand."
        ),
        done=T(
            "对了：贰柒拾 6 胡，比 二七十 和 坎 的 3 胡多。",
            "Right: 贰柒拾 is 6 hu, more than the 3 of 二七十 or a small 坎.",
        ),
    ),
    Lesson(
        id="locked",
        title=T("坎和滚不能拆", "坎 and 滚 are locked"),
        rules=("R-3.1", "R-5.14"),
        intro=(
            T(
                "手里三张一样的是坎，四张一样的是滚。坎和滚锁在一起：不能拆开打，也不能拿去吃。",
                "Three identical cards in the hand are a 坎, four a 滚. They are locked: you may not discard"
                " their cards or use them in a 吃.",
            ),
        ),
        kind=GoalKind.MOVE,
        position=Position(
            seats={1: SeatSpec(hand="五五五柒柒柒九九九九二八壹壹捌四陆六", melds=("三三三",))},
            phase="discard",
            turn=1,
        ),
        steps=(
            Step(
                goal=T(
                    "你对了 三，现在要打一张。试试打坎里的牌，再打一张可以打的。",
                    "You made a 对 of 三 and owe a discard. Try a card of a 坎, then discard one you may.",
                ),
                accept=("discard",),
            ),
        ),
        goal=T("打一张不在坎或滚里的牌。", "Discard a card that is not in a 坎 or 滚."),
        done=T("对了：坎、滚里的牌要留着。", "Right: the cards of a 坎 or 滚 stay in the hand."),
    ),
    Lesson(
        id="winning",
        title=T("胡牌：七房，至少十胡", "A winning hand: seven groups, at least 10 hu"),
        rules=("R-4.4", "R-6.1"),
        intro=(
            T(
                "胡牌要：手里的牌、亮出的牌和刚打出或翻出的那张，正好分成七房，没有散牌，而且至少 10 胡。",
                "You win when your hand, your melds and the card just discarded or flipped make exactly seven"
                " groups with no loose card, worth at least 10 hu.",
            ),
        ),
        kind=GoalKind.MOVE,
        position=Position(
            seats={1: SeatSpec(hand=_WAITING), 0: SeatSpec(row="九")},
            pending="肆",
            turn=0,
        ),
        steps=(Step(goal=T("上家打了 肆。能胡就胡。", "Your 上家 discarded 肆. Win if you can."), accept=("hu",)),),
        goal=T("胡 上家打的牌。", "Win on the card your 上家 discarded."),
        done=T(
            "胡了：肆伍陆 凑齐七房，二七十 3 + 贰柒拾 6 + 坎 3 = 12 胡。",
            "A win: 肆伍陆 completes seven groups; 二七十 3 + 贰柒拾 6 + 坎 3 = 12 hu.",
        ),
    ),
    Lesson(
        id="chi",
        title=T("吃：上家打的牌和翻出的牌", "吃: a chow from your 上家 or a flip"),
        rules=("R-5.2", "R-5.3", "R-5.7"),
        intro=(
            T(
                "吃：用手里两张牌和上家打出的牌（或自己、上家翻出的牌）组成顺子、二七十或花吃，亮在桌上，再打一张。",
                "吃 (chi): two hand cards with the card your 上家 discarded (or a card you or your 上家 flipped)"
                " make a run, a 二七十 or a 花吃; you lay it down and then discard.",
            ),
            T(
                "只有下家能吃打出的牌；别人只能对、开或胡。",
                "Only the discarder's 下家 may 吃 a discard; others may only 对, 开 or 胡.",
            ),
        ),
        kind=GoalKind.MOVE,
        position=Position(
            seats={1: SeatSpec(hand="一二四五七九壹叁伍柒玖捌捌十拾肆陆六八贰")},
            pending="三",
            turn=0,
        ),
        steps=(Step(goal=T("上家打了 三。吃它。", "Your 上家 discarded 三. 吃 it."), accept=("chi",)),),
        goal=T("吃 上家打的 三。", "吃 the 三 your 上家 discarded."),
        done=T("吃了。吃完要打一张牌。", "You took it; after a 吃 you discard a card."),
    ),
    Lesson(
        id="bai",
        title=T("摆：吃了要把同样的牌一起摆下", "摆: lay down every copy of the card taken"),
        rules=("R-5.8",),
        intro=(
            T(
                "吃一张牌时，手里如果还有同样的牌，要同时把它们都组成房摆下来；摆不起就不能吃。",
                "When you 吃 a card and still hold copies of it, you must lay every copy down at once in"
                " further groups (摆); if you cannot, the 吃 is not allowed.",
            ),
        ),
        kind=GoalKind.MOVE,
        position=Position(
            seats={1: SeatSpec(hand="一二二三三七九贰叁伍柒玖捌捌十拾肆陆六八")},
            pending="一",
            turn=0,
        ),
        steps=(
            Step(
                goal=T(
                    "上家打了 一，你手里也有 一。吃它，并把手里的 一 摆下。",
                    "Your 上家 discarded 一 and you hold a 一. 吃 it and lay your 一 down with it.",
                ),
                accept=("chi",),
            ),
        ),
        goal=T("吃 一，带着摆。", "吃 the 一 with its 摆."),
        done=T(
            "对了：一二三 吃下，手里的 一 也摆成 一二三。", "Right: 一二三 taken, and your own 一 laid as 一二三 too."
        ),
    ),
    Lesson(
        id="guozhang",
        title=T("过张：不吃的牌以后不能再吃", "过张: a card you did not 吃"),
        rules=("R-5.9",),
        intro=(
            T(
                "能吃一张牌而没有吃，这手牌里就再也不能吃同样的牌（过张）；自己打出去过的牌也不能吃。对、开、胡不受影响。",
                "Decline a 吃 you could make and you may never 吃 that card again this hand (过张); nor 吃 a card"
                " you discarded. 对, 开 and 胡 are not affected.",
            ),
        ),
        kind=GoalKind.MOVE,
        position=Position(
            seats={1: SeatSpec(hand="四六七九壹叁伍柒玖捌捌十拾肆陆八贰一二三", guozhang="五")},
            pending="五",
            turn=0,
        ),
        steps=(
            Step(
                goal=T(
                    "你之前没吃 五。上家又打了 五：试试吃，再决定。",
                    "You passed a 五 earlier. Your 上家 discards 五 again: try to 吃 it, then decide.",
                ),
                accept=("pass",),
                tempt=("chi x4 x6",),
            ),
        ),
        goal=T("过（这张不能吃了）。", "Pass (this card cannot be taken by 吃 now)."),
        done=T("对了：过张的牌不能再吃。", "Right: a card you passed cannot be taken by 吃 again."),
    ),
    Lesson(
        id="shangtu",
        title=T("上吐下泻：吃后那张不能打", "上吐下泻: the discard after a 吃"),
        rules=("R-5.10",),
        intro=(
            T(
                "吃了之后打的那张，不能和吃用的两张手牌又组成一房。例如用 三四 吃 二，就不能打 五。",
                "The discard after a 吃 may not make a group with the two hand cards the 吃 used: take 二 with"
                " 三四 and you may not discard 五.",
            ),
        ),
        kind=GoalKind.MOVE,
        position=Position(
            seats={1: SeatSpec(hand="三四五七九壹叁伍柒玖捌捌十拾肆陆八六贰贰")},
            pending="二",
            turn=0,
        ),
        steps=(
            Step(
                goal=T("上家打了 二。用 三四 吃。", "Your 上家 discarded 二. 吃 it with 三四."),
                accept=("chi",),
                cards="三四",
            ),
            Step(goal=T("现在打一张：先试试 五。", "Now discard: try 五 first."), accept=("discard",)),
        ),
        goal=T("用 三四 吃 二，再打一张可以打的牌。", "吃 二 with 三四, then discard a card you may."),
        done=T("对了：吃后不能马上把同一房的牌打出去。", "Right: right after a 吃 you may not throw back its group."),
    ),
    Lesson(
        id="dui",
        title=T("对：一对加第三张", "对: a pair takes its third card"),
        rules=("R-5.2", "R-5.11"),
        intro=(
            T(
                "手里有一对，谁打出或翻出第三张，你都可以对：三张亮出来，再打一张。对可以不对。",
                "Holding a pair, you may take the third copy from anyone's discard or flip as a 对: lay the"
                " three down, then discard. A 对 is optional.",
            ),
        ),
        kind=GoalKind.MOVE,
        position=Position(
            seats={1: SeatSpec(hand="八八一三五七九壹叁伍柒玖捌十拾肆陆六贰四")},
            pending="八",
            turn=2,
        ),
        steps=(
            Step(
                goal=T("下家打了 八，你有一对 八。对它。", "Your 下家 discarded 八 and you hold two. 对 it."),
                accept=("dui",),
            ),
        ),
        goal=T("对 八。", "对 the 八."),
        done=T(
            "对了：谁打的都能对，只有吃要看是不是上家。", "Right: a 对 may come from anyone; only a 吃 needs your 上家."
        ),
    ),
    Lesson(
        id="kai",
        title=T("开：有开必开", "开: a 坎 must take its fourth card"),
        rules=("R-5.12", "R-3"),
        intro=(
            T(
                "手里有坎，第四张不管谁打出、谁翻出，都必须开（除非胡）。开是 4 张，胡数高：小 6 胡，大 9 胡。",
                "Holding a 坎, you must take its fourth card as a 开 whoever discards or flips it, unless you"
                " win on it. A 开 is four cards and worth 6 hu small, 9 big.",
            ),
        ),
        kind=GoalKind.MOVE,
        position=Position(
            seats={1: SeatSpec(hand="玖玖玖一三五七九壹叁伍柒捌十拾肆陆六贰四")},
            pending="玖",
            turn=2,
            flip=True,
        ),
        steps=(
            Step(
                goal=T(
                    "下家翻出 玖，你有 玖 的坎。试试过，再做该做的。",
                    "Your 下家 flipped 玖 and you hold a 坎 of 玖. Try to pass, then do what you must.",
                ),
                accept=("kai",),
                tempt=("pass",),
            ),
        ),
        goal=T("开 玖。", "开 the 玖."),
        done=T("对了：有开必开。", "Right: a 开 is compulsory (有开必开)."),
    ),
    Lesson(
        id="bakuai",
        title=T("八块：第二个开多留一张", "八块: a second quad keeps a card"),
        rules=("R-4.1", "R-4.2", "R-4.4"),
        intro=(
            T(
                "开和滚都是四张。第一个不改变什么；从第二个起，每多一个就少打一张牌，要喊出块数：八块、十二块。",
                "开 and 滚 are quads. The first changes nothing; each quad after it is one card you keep"
                " instead of discarding, and you announce the count: 八块 (8), 十二块 (12).",
            ),
            T(
                "所以有两个开的人，胡牌时是 22 张，其中一对将。",
                "So with two quads a winning hand has 22 cards, one pair among them.",
            ),
        ),
        kind=GoalKind.MOVE,
        position=Position(
            seats={1: SeatSpec(hand="六六六一三五七九壹叁柒捌十拾肆陆", melds=("伍伍伍伍",))},
            pending="六",
            turn=0,
        ),
        steps=(
            Step(
                goal=T(
                    "你已经开了 伍，手里有 六 的坎。上家打了 六：开。",
                    "You have a 开 of 伍 and a 坎 of 六. Your 上家 discards 六: 开 it.",
                ),
                accept=("kai",),
            ),
        ),
        goal=T("开 六，第二个开。", "开 the 六: your second quad."),
        done=T("对了：第二个开，喊八块，这次不用打牌。", "Right: a second quad: you announce 八块 and keep the card."),
    ),
    Lesson(
        id="huilong",
        title=T("回笼和过胡", "回笼 and 过胡"),
        rules=("R-6.2",),
        intro=(
            T(
                "自己打出去过的牌，这手牌里不能再用它胡（回笼）。能胡而不胡（过胡），要等下一次吃、对、开以后才能再胡，除非分数更高。",
                "You may not win on a card you discarded earlier in the hand (回笼). Decline a win (过胡) and"
                " you may not win again until your next 吃, 对 or 开, unless for a strictly higher score.",
            ),
        ),
        kind=GoalKind.MOVE,
        position=Position(
            seats={1: SeatSpec(hand=_WAITING_5, row="伍", discarded="伍"), 0: SeatSpec(row="九")},
            pending="伍",
            turn=0,
        ),
        steps=(
            Step(
                goal=T(
                    "上家打了 伍，你正叫 伍。可是你打过 伍：试试胡，再决定。",
                    "Your 上家 discards 伍, the card you wait"
                    " for. But you discarded a 伍 earlier: try to win, then decide.",
                ),
                accept=("pass",),
                tempt=("hu",),
            ),
        ),
        goal=T("过：回笼不能胡。", "Pass: 回笼 cannot win."),
        done=T("对了：自己打过的牌不能胡。", "Right: you cannot win on a card you discarded."),
    ),
    Lesson(
        id="waits",
        title=T("下叫：哪几张牌能胡", "Your 下叫: which cards win"),
        rules=("R-6.1", "R-7"),
        intro=(
            T(
                "差一张就胡的牌叫「下叫」。要知道哪几张能胡，各是多少分；打牌时还要看它们还剩几张没出现。",
                "A hand one card short of a win is waiting (下叫). Know which cards win and for how much;"
                " in play, also count how many of each are still unseen.",
            ),
        ),
        kind=GoalKind.WAITS,
        cards=_WAITING,
        goal=T("点出每一张能让这手牌胡的牌。", "Tap every card that would make this hand win."),
        done=T("对了，这就是你的下叫。", "Right: these are your waits."),
    ),
    Lesson(
        id="fan",
        title=T("规格和番", "Tiers and 番"),
        rules=("R-7.2", "R-7.3", "R-7.4"),
        intro=(
            T(
                "胡数先定规格（小和 10、中和 20、大和 40/50、30和 60、台和）。再看番，每番翻一倍：天胡、地胡、坤胡（每房都有胡）、"
                "瞟胡（没有坎、滚，胡都是桌上挣的）、圈胡（有三张圈牌）。",
                "The hu decide the tier (小和 10, 中和 20, 大和 40/50, 30和 60, 台和). Then each 番 doubles: 天胡,"
                " 地胡, 坤胡 (every group scores), 瞟胡 (no 坎 or 滚: every hu earned on the table), 圈胡 (three of"
                " the 圈 card).",
            ),
        ),
        kind=GoalKind.CHOOSE,
        ask="score",
        win=WinSpec(hand="一二三四五六七八", melds=("八八八", "捌捌捌", "贰柒拾", "玖玖玖"), card="九"),
        goal=T("上家打 九，这手牌胡了。得多少分？", "Your 上家 discards 九 and this hand wins. What is it worth?"),
        done=T(
            "对了：13 胡是小和 10 分，没有坎和滚，瞟胡一番，10 × 2 = 20。",
            "Right: 13 hu is 小和 10; no 坎 or 滚 makes 瞟胡, one 番: 10 × 2 = 20.",
        ),
    ),
    Lesson(
        id="payments",
        title=T("谁付钱：包三家", "Who pays: 包三家"),
        rules=("R-8.1", "R-8.2"),
        intro=(
            T(
                "胡翻出的牌或自摸，其他每家各付一份。胡别人打出的牌（抬炮），打牌的人一个人付三份（包三家），另一家不付。",
                "A win on a flip (翻胡, 自摸) or 天胡: each other player pays the score. A win on a discard"
                " (抬炮): the discarder alone pays three times the score (包三家); the third player pays nothing.",
            ),
        ),
        kind=GoalKind.CHOOSE,
        ask="payments",
        win=WinSpec(hand="一二三四五六七八", melds=("八八八", "捌捌捌", "贰柒拾", "玖玖玖"), card="九"),
        goal=T("你胡了上家打的 九，20 分。谁付多少？", "You win 20 on the 九 your 上家 discarded. Who pays what?"),
        done=T(
            "对了：抬炮的上家一个人付 3 × 20 = 60。", "Right: your 上家 fired the cannon and pays 3 × 20 = 60 alone."
        ),
    ),
    Lesson(
        id="play",
        title=T("打一整手", "Play a whole hand"),
        rules=("R-5", "R-6", "R-7", "R-8"),
        intro=(
            T(
                "和两个机器人打一手，教练在旁边：你的一步明显不好时，会说为什么，该怎么打。",
                "Play a hand against two bots with a coach beside you: when a move is clearly worse, the"
                " coach says why and what would be better.",
            ),
        ),
        kind=GoalKind.PLAY,
        goal=T("打完一手牌。", "Finish one hand."),
        done=T("打完了一手！现在可以去大厅开一桌。", "You finished a hand! Now open a table in the lobby."),
    ),
)

_BY_ID = {lesson.id: lesson for lesson in LESSONS}


def lesson(lesson_id: str) -> Lesson:
    """The lesson named ``lesson_id``.

    Raises:
        KeyError: no such lesson, naming it and the lessons there are.
    """
    try:
        return _BY_ID[lesson_id]
    except KeyError:
        raise KeyError(f"no lesson {lesson_id!r}; the lessons are {', '.join(_BY_ID)}") from None
