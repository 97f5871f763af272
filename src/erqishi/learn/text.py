"""The lessons' feedback sentences in Chinese and English, filled with what the engine or
the scorer worked out ({hu}, {cards} …). The rules' own reasons come from the engine
(:func:`erqishi.play.narrate.explain`); these say only what a lesson adds."""

from __future__ import annotations

from erqishi.play.narrate import fill

__all__ = ["SENTENCES", "say"]

#: key → (Chinese, English)
SENTENCES: dict[str, tuple[str, str]] = {
    "you": ("你", "you"),
    "shangjia": ("上家", "your 上家"),
    "xiajia": ("下家", "your 下家"),
    "choice_no_win": ("不算胡", "no win"),
    "choice_score": ("{score} 分", "{score} points"),
    "hint_pick": ("一共有 {n} 张。", "There are {n} of them."),
    "hint_group": ("最多的一房是 {hu} 胡。", "The best group is worth {hu} hu."),
    "hint_waits": ("有 {n} 张牌能胡。", "{n} different cards win."),
    "hint_choose": ("{hu} 胡，规格 {base}，番：{fans}。", "{hu} hu, base {base}, 番: {fans}."),
    "hint_move": ("试试：{move}。", "Try: {move}."),
    "not_in_hand": ("这手牌里没有这些牌。", "Those cards are not all in this hand."),
    "pick_extra_big": (
        "{cards} 是小牌（黑的），不是大牌（R-1.1）。",
        "{cards}: small (black) cards, not big ones (R-1.1).",
    ),
    "pick_extra_small": (
        "{cards} 是大牌（红的），不是小牌（R-1.1）。",
        "{cards}: big (red) cards, not small ones (R-1.1).",
    ),
    "pick_extra_ejs": ("{cards} 不是 二、七、十（R-3）。", "{cards}: not 二, 七 or 十 (R-3)."),
    "pick_missing": ("还差 {n} 张。", "{n} more card(s) to find."),
    "not_a_group": (
        "{cards} 不成一房：要顺子、二七十、花吃，或三、四张一样的（R-3）。",
        "{cards} make no group: a run, a 二七十, a 花吃, or three or four identical cards (R-3).",
    ),
    "group_less": (
        "{cards} 是{name}，{hu} 胡；这手牌里有 {best} 胡的一房（R-3）。",
        "{cards} is a {name} of {hu} hu; this hand has a group of {best} hu (R-3).",
    ),
    "waits_are": ("能胡的牌和分数：{waits}。", "The winning cards and their scores: {waits}."),
    "waits_extra": (
        "{cards} 胡不了：加上它分不成七房或不够 10 胡（R-6.1）。",
        "{cards} does not win: with it the cards make no seven groups of 10 hu or more (R-6.1).",
    ),
    "waits_missing": ("还有 {n} 张能胡的牌没点。", "{n} more winning card(s) to find."),
    "tap_once": ("每张牌点一次就够了。", "Tap each card once."),
    "not_a_choice": ("没有这个答案。", "That is not one of the answers."),
    "wrong_score": (
        "不对：{hu} 胡是规格 {base}，番：{fans}，所以是 {score} 分（R-7）。",
        "Not so: {hu} hu is a base of {base}, 番: {fans}, so the score is {score} (R-7).",
    ),
    "wrong_payments": (
        "不对：这是抬炮，打牌的人一个人付三份，另一家不付（R-8.2）。",
        "Not so: a win on a discard is paid"
        " by the discarder alone, three times the score; the third player pays nothing (R-8.2).",
    ),
    "not_goal": ("{move} 可以，但这一课要做的不是这个。", "{move} is allowed, but it is not this lesson's goal."),
    "step_done": ("好，下一步。", "Good. Next step."),
    "coach_missed_hu": (
        "教练：{card} 能胡，你没胡。不胡就是过胡，下一次吃、对、开以前不能再胡同样的分（R-6.2）。",
        "Coach: {card} wins for you and you let it go. Declining is 过胡: no win for the same score"
        " until your next 吃, 对 or 开 (R-6.2).",
    ),
    "coach_passed_wait": (
        "教练：{better}，再打 {discard}，你就下叫了（叫 {waits}）。",
        "Coach: {better}, then discard {discard}, and you would be waiting (on {waits}).",
    ),
    "coach_leaves_wait": (
        "教练：{played} 以后没有叫了；{better} 还叫 {waits}。",
        "Coach: after {played} nothing wins for you; {better} keeps you waiting on {waits}.",
    ),
    "coach_breaks_ejs": (
        "教练：{played} 拆了二七十（{hu} 胡）；{better} 更好。",
        "Coach: {played} breaks a 二七十 worth {hu} hu; {better} was better.",
    ),
    "coach_further": (
        "教练：{played} 离下叫远了一步；{better} 更近。",
        "Coach: {played} takes you a step further from waiting; {better} keeps you closer.",
    ),
}


def say(key: str, lang: str, **params: object) -> str:
    """The sentence ``key`` in ``lang`` (``zh`` or ``en``) with ``{name}`` fields filled.

    Raises:
        KeyError: no such sentence.
    """
    zh, en = SENTENCES[key]
    if lang != "en":
        return fill(zh, params)
    out = fill(en, params)
    return out[:1].upper() + out[1:]  # a sentence that opens with a move ("pass (过) is …")
