"""Labels of the terminal game in Chinese (default) and English; card faces stay Chinese."""

from __future__ import annotations

__all__ = ["LANGS", "rules_brief", "tiers_text", "tr"]

#: The supported languages.
LANGS = ("zh", "en")

_TEXT: dict[str, tuple[str, str]] = {
    "title": ("贰柒拾", "Erqishi (2-7-10)"),
    "you": ("你", "You"),
    "xiajia": ("下家", "Next (下家)"),
    "shangjia": ("上家", "Previous (上家)"),
    "seat": ("座{seat}", "seat {seat}"),
    "status": (
        "圈{quan}  庄家：{dealer}  轮到：{turn}  堂牌剩 {stock} 张",
        "Round {quan}  Dealer: {dealer}  Turn: {turn}  Stock: {stock} left",
    ),
    "hand_size": ("手牌 {n} 张", "{n} cards in hand"),
    "melds": ("摆出", "Melds"),
    "row": ("打出/翻出", "Row"),
    "none": ("无", "none"),
    "announced": ("报 {n} 块", "announced {n} 块"),
    "hu_unit": ("{hu}胡", "{hu} hu"),
    "your_hand": ("你的手牌", "Your hand"),
    "prompt_discarded": ("{who}打出 {card}：{opts}？", "{who} discarded {card}: {opts}?"),
    "prompt_flipped": ("{who}翻出 {card}：{opts}？", "{who} flipped {card}: {opts}?"),
    "prompt_discard": (
        "请打一张牌（选牌后按 Enter 或再点一次）",
        "Your discard: select a card, then Enter or click again",
    ),
    "prompt_opening": ("你是庄家：请打第一张牌", "You deal: make the opening discard"),
    "prompt_wait": ("等待其他玩家……", "Waiting for the others…"),
    "discard_selected": ("打 {card}", "Discard {card}"),
    "log_title": ("记录", "Log"),
    "log_discard": ("{who} 打 {card}", "{who} discards {card}"),
    "log_flip": ("{who} 翻出 {card}", "{who} flips {card}"),
    "log_action": ("{who}：{action}", "{who}: {action}"),
    "log_pass": ("无人要 {card}", "nobody takes {card}"),
    "log_new_hand": ("—— 新的一手：圈{quan}，{dealer} 做庄 ——", "—— New hand: round {quan}, {dealer} deals ——"),
    "hints_title": ("提示", "Hints"),
    "hints_waits": ("下叫：{waits}", "Waits (下叫): {waits}"),
    "hints_no_waits": ("下叫：无", "Waits (下叫): none"),
    "hints_suggest": ("建议：{action}", "Suggestion: {action}"),
    "hints_off": ("按 h 显示提示", "Press h for hints"),
    "result_title": ("本手结果", "Result of the hand"),
    "result_win": ("{who} 胡了（{source}）", "{who} wins ({source})"),
    "result_dead": ("荒庄：无人胡牌，不付分", "Dead hand (荒庄): nobody wins, nobody pays"),
    "result_groups": ("胡牌组合", "Winning groups"),
    "result_hu": ("共 {hu} 胡，{tier}，规格 {base}", "{hu} hu, {tier}, base {base}"),
    "result_fan": ("番：{fans}", "Doublings (番): {fans}"),
    "result_score": ("得分：{score}", "Score: {score}"),
    "result_payments": ("付分", "Payments"),
    "result_totals": ("总分", "Match totals"),
    "result_hands": ("各家手牌", "Every hand"),
    "result_keys": (
        "n / Enter 下一手   s 保存记录   q 退出",
        "n / Enter next hand   s save record   q quit",
    ),
    "result_match_over": ("比赛结束！", "The match is over!"),
    "saved": ("记录已保存：{path}", "Record saved: {path}"),
    "help_title": ("规则简介", "The rules in brief"),
    "help_keys": (
        "按键：←/→ 选牌，Enter 打出，1–9 选择动作，p 过，h 提示，? 或 F1 帮助，q 退出",
        "Keys: ←/→ select a card, Enter discard it, 1-9 choose an action, p pass, h hints, ? or F1 help, q quit",
    ),
    "help_close": ("按 Esc 关闭", "Press Esc to close"),
    "help_hu_table": ("胡数表", "Hu table"),
    "help_tiers": ("规格", "Tiers"),
    "help_group": ("组合", "group"),
    "help_small": ("小", "small"),
    "help_big": ("大", "big"),
    "pass": ("过", "Pass"),
}

_RULES_BRIEF = {
    "zh": (
        "三人游戏，80 张牌：小 一…十，大 壹…拾，每种四张。庄家 21 张，其余 20 张，剩 19 张为堂牌。\n"
        "庄家先打一张；下家可吃，任何人可对、开、胡。无人要则下家翻牌。翻出的牌不进手。\n"
        "优先：胡 > 开 > 对 > 吃。吃：与两张手牌成顺子、二七十或花吃；手里还有同样的牌必须同时摆出。\n"
        "有坎必开；坎、滚不能拆。过张不能再吃，打过的牌不能胡（回笼）。\n"
        "胡牌：七房（有开/滚时带一对桩子），至少十胡。番：天胡、地胡、坤胡、瞟胡、圈胡（双圈两番），每番翻倍。\n"
        "结算：翻胡、自摸、天胡每家付分；抬炮由打牌者包三家。"
    ),
    "en": (
        "Three players, 80 cards: small 一…十 and big 壹…拾, four of each. The dealer gets 21 cards, the others 20;\n"
        "19 stay in the stock. The dealer discards first; the next player (下家) may chow (吃), anyone may\n"
        "pung (对), kong (开) or win (胡). If nobody takes it, the next player flips a stock card (it never enters\n"
        "a hand). Priority: 胡 > 开 > 对 > 吃. A 吃 makes a run, 二七十 or mixed 花吃 with two hand cards; remaining\n"
        "copies of the card must be laid down at once (摆). A 坎 must take its 4th card (开). Passed chows (过张)\n"
        "and winning on a card you discarded (回笼) are forbidden. A win is 7 groups (a pair with quads) and at\n"
        "least 10 hu. Doublings (番): 天胡, 地胡, 坤胡, 瞟胡, 圈胡 (双圈 two). Self-drawn, flip wins and 天胡 are\n"
        "paid by everyone; a discard win (抬炮) is paid three times by the discarder alone."
    ),
}

_TIERS = {
    "zh": (
        "< 10 胡：不能胡\n10–14：小和 10\n15–20：中和 20\n21–22：大和 40\n23–27：大和 50\n28–30：30和 60\n"
        "≥ 31：台和 4 × (胡数四舍五入到 5 的倍数)"
    ),
    "en": (
        "< 10 hu: no win\n10-14: 小和 10\n15-20: 中和 20\n21-22: 大和 40\n23-27: 大和 50\n28-30: 30和 60\n"
        ">= 31: 台和 4 x (hu rounded half up to a multiple of 5)"
    ),
}


def tr(lang: str, key: str, **kwargs: object) -> str:
    """The label ``key`` in ``lang`` (``"zh"`` or ``"en"``), formatted with ``kwargs``.

    >>> tr("en", "hand_size", n=20)
    '20 cards in hand'
    """
    zh, en = _TEXT[key]
    text = en if lang == "en" else zh
    return text.format(**kwargs) if kwargs else text


def rules_brief(lang: str) -> str:
    """The rules in brief (R-1 to R-8) for the help screen."""
    return _RULES_BRIEF["en" if lang == "en" else "zh"]


def tiers_text(lang: str) -> str:
    """The tier table of R-7.2 for the help screen."""
    return _TIERS["en" if lang == "en" else "zh"]
