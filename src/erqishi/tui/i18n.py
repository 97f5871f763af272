"""Labels of the terminal game in Chinese (default) and English; card faces stay Chinese."""

from __future__ import annotations

from dataclasses import replace

from rich.cells import cell_len

from erqishi.core.hands.scoring import tier_of
from erqishi.core.rule_info import preset_name
from erqishi.core.rules import RuleSet, TianhuRule

__all__ = ["ACTION_KEYS", "LANGS", "pad", "rules_brief", "rules_extra", "tiers_text", "tr"]

#: The keys that choose the offered actions, in button order: 1-9, 0, then letters that
#: no other binding uses (h hints, p pass, q quit, s save, n next, m save match).
ACTION_KEYS = "1234567890abcdefgijklortuvwxyz"

#: The supported languages.
LANGS = ("zh", "en")

_TEXT: dict[str, tuple[str, str]] = {
    "title": ("贰柒拾", "Erqishi (2-7-10)"),
    "you": ("你", "You"),
    "xiajia": ("下家", "Next (下家)"),
    "shangjia": ("上家", "Previous (上家)"),
    "duijia": ("对家", "Across (对家)"),
    "opponent": ("对家", "Opponent (对家)"),
    "sits_out": ("本手轮空", "sits this hand out"),
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
    "chi_label": ("吃{card}：{pair}", "Chow (吃) {card} with {pair}"),
    "chi_bai": (" + 摆 {groups}", " + lay down {groups}"),
    "chi_choose_bai": ("吃{card}：{pair} ▸ 摆（{n} 种）", "Chow (吃) {card} with {pair} ▸ 摆 ({n} ways)"),
    "bai_only": ("摆 {groups}", "lay down (摆) {groups}"),
    "back": ("返回", "Back"),
    "prompt_bai": (
        "吃{card}（{pair}）：手里的{card}要同时摆出，选一种摆法（Esc 返回）",
        "Chow (吃) {card} with {pair}: the {card} you hold must go down too; choose how (摆; Esc goes back)",
    ),
    "status_respond": ("你（回应）", "You (respond)"),
    "prompt_must_kai": ("——必须开（有开必开）", " — you must Kong (开): it is compulsory (有开必开)"),
    "prompt_must_kai_hu": (
        "——必须开或胡（有开必开）",
        " — you must Kong (开) or Win (胡): the 开 is compulsory (有开必开)",
    ),
    "notice_no_pass_kai": (
        "不能过：必须开（有开必开）",
        "You cannot pass: you must Kong (开), it is compulsory (有开必开)",
    ),
    "notice_no_pass_discard": ("现在不能过：请打一张牌", "You cannot pass now: make a discard"),
    "notice_no_pass": ("现在没有可以过的牌", "There is nothing to pass now"),
    "quit_title": ("退出这场比赛？", "Leave this match?"),
    "quit_body": (
        "进度已经保存。以后用 erqishi play --resume{where} 从这里继续。",
        "Your match is saved. Continue it later where you left off with: erqishi play --resume{where}",
    ),
    "quit_body_unsaved": (
        "进度没能保存（{error}）。现在退出，这场比赛就不能再继续了。",
        "Your progress could not be saved ({error}). If you leave now, this match cannot be continued.",
    ),
    "quit_body_lesson": (
        "这一手不保存；打完一手才算完成这一课。",
        "This hand is not saved; the lesson is finished once a hand is played to its end.",
    ),
    "quit_yes": ("y 退出", "y Leave"),
    "quit_no": ("n 继续打", "n Keep playing"),
    "resume_notice": (
        "有一场没打完的比赛：退出后用 erqishi play --resume 继续（开始这场新比赛会覆盖它）",
        "A match in progress is saved: leave and run erqishi play --resume to continue it "
        "(playing this new match replaces it)",
    ),
    "resumed": ("—— 接着上次的比赛 ——", "—— Resuming your match ——"),
    "resume_question": (
        "有一场没打完的比赛。y 接着打  ·  n 开始新的比赛（旧的会被替换）",
        "A match in progress is saved.  y continue it  ·  n start a new match (it replaces the saved one)",
    ),
    "hand_shown": ("手牌", "Hand"),
    "save_progress_failed": ("进度没能保存：{error}", "Could not save your progress: {error}"),
    "suggested_none": ("没有建议", "No suggestion now"),
    "result_keys_short": ("n 下一手 · s 保存本手 · q 退出", "n next hand · s save hand · q quit"),
    "result_keys_final_short": ("s 保存本手 · m 保存比赛 · q 退出", "s save hand · m save match · q quit"),
    "hints_title": ("提示", "Hints"),
    "hints_waits": ("下叫：{waits}", "Waits (下叫): {waits}"),
    "hints_no_waits": ("下叫：无", "Waits (下叫): none"),
    "hints_discard": ("打{card} → 下叫 {waits}", "Discard {card} → waits {waits}"),
    "hints_discard_none": ("打哪张都不下叫", "No discard leaves a waiting hand"),
    "hints_suggest": ("建议：{action}", "Suggestion: {action}"),
    "hints_off": ("按 h 显示提示", "Press h for hints"),
    "result_title": ("本手结果", "Result of the hand"),
    "result_win": ("{who} 胡了（{source}）", "{who} win{s} ({source})"),
    "result_card": ("胡的牌：{card}", "Winning card: {card}"),
    "result_from_discard": ("（{who}打出，抬炮）", " (discarded by {who}, 抬炮)"),
    "result_from_flip": ("（{who}翻出）", " (flipped by {who})"),
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
    "result_keys_final": (
        "s 保存本手记录   m 保存整场比赛记录   q 退出",
        "s save this hand   m save the match record   q quit",
    ),
    "result_match_over": ("比赛结束！", "The match is over!"),
    "result_final": ("最终成绩", "Final standings"),
    "result_leader": ("第一名：{who}", "Winner: {who}"),
    "result_leaders": ("并列第一：{who}", "Tied for first: {who}"),
    "saved": ("记录已保存：{path}", "Record saved: {path}"),
    "saved_match": ("比赛记录已保存：{path}", "Match record saved: {path}"),
    "save_failed": ("无法保存记录：{error}", "Could not save the record: {error}"),
    "help_title": ("规则简介", "The rules in brief"),
    "help_keys": (
        "按键：←/→ 选牌，Home/End 第一张/最后一张，Enter 打出，空格 按建议出牌，"
        "1–9、0 和按钮上的字母选择动作，p 过，h 提示，? 或 F1 帮助，q 退出（会先问）",
        "Keys: ←/→ select a card, Home/End the first/last card, Enter discard it, Space plays the "
        "suggested move, 1-9, 0 and the letters on the buttons choose an action, p pass, h hints, "
        "? or F1 help, q leave (asks first)",
    ),
    "help_close": (
        "↑/↓、PageUp/PageDown、Home/End 翻看；按 Esc 关闭",
        "↑/↓, PageUp/PageDown, Home/End to scroll; Esc to close",
    ),
    "help_more": (
        "完整规则：erqishi serve 后打开 /rules，或读规则书 RULES.md；erqishi rules 列出各规则选项。",
        "The full rules: run erqishi serve and open /rules, or read the rule book RULES.md; "
        "erqishi rules lists every rule option.",
    ),
    "help_learn": (
        "还不会打？erqishi learn：{n} 课，从认牌到和机器人打一整手，带教练。",
        "New to the game? erqishi learn: {n} lessons, from the cards to a whole hand against bots with a coach.",
    ),
    "result_keys_lesson": ("q 回到课程", "q back to the lessons"),
    "help_hu_table": ("胡数表", "Hu table"),
    "help_tiers": ("规格", "Tiers"),
    "help_group": ("组合", "group"),
    "help_small": ("小", "small"),
    "help_big": ("大", "big"),
    "pass": ("过", "Pass (过)"),
    "help_rules": ("规则：{name}", "Rules: {name}"),
    "help_custom": ("自定", "custom"),
    "help_cap": ("封顶：每家最多付 {cap}（抬炮倍数之前）", "Cap: at most {cap} per payer (before the 抬炮 multiple)"),
    "help_no_cap": ("不封顶", "No cap"),
    "help_tianhu": ("天胡：{worth}", "天胡: {worth}"),
    "tianhu_one_fan": ("一番", "one doubling (番)"),
    "tianhu_two_fan": ("两番", "two doublings (番)"),
    "tianhu_fixed_100": ("固定 100 分", "a flat score of 100"),
    "tier_no_win": ("< 10 胡：不能胡", "< 10 hu: no win"),
    "tier_row": ("{lo}–{hi}：{name} {base}", "{lo}-{hi}: {name} {base}"),
    "tier_one": ("{hu}：{name} {base}", "{hu}: {name} {base}"),
    "tier_top_formula": (
        "≥ {lo}：{name} 4 × (胡数四舍五入到 5 的倍数)",
        ">= {lo}: {name} 4 x (hu rounded half up to a multiple of 5)",
    ),
    "tier_top": ("≥ {lo}：{name} {base}", ">= {lo}: {name} {base}"),
    # erqishi learn
    "learn_title": ("贰柒拾 课程", "Learn 贰柒拾"),
    "learn_summary": ("已完成 {done}/{n} 课。下一课：{next}", "{done} of {n} lessons done. Next: {next}"),
    "learn_menu_keys": ("↑/↓ 选课，Enter 开始，q 退出", "↑/↓ choose a lesson, Enter starts it, q quits"),
    "learn_goal": ("目标：", "Goal:"),
    "learn_keys_tap": (
        "（←/→ 移动，空格 点牌，Enter 确定，h 提示）",
        "(←/→ move, Space taps a card, Enter checks, h hint)",
    ),
    "learn_keys_choose": ("（按答案前的数字，h 提示）", "(press an answer's number, h hint)"),
    "learn_keys_move": (
        "（按动作前的键；打牌：←/→ 选牌，Enter 打出；h 提示）",
        "(press a move's key; to discard: ←/→ then Enter; h hint)",
    ),
    "learn_keys_done": ("（Enter/n 下一课，Esc 课程列表）", "(Enter/n next lesson, Esc the list)"),
    "learn_the_hand": ("手牌：", "The hand:"),
    "learn_win_card": ("胡的牌：", "winning card:"),
    "learn_pending_discard": ("{who}打出了", "{who} discarded"),
    "learn_pending_flip": ("{who}翻出了", "{who} flipped"),
    "learn_owe_discard": ("轮到你打一张牌。", "You owe a discard."),
    "learn_wrong": ("不行：", "Not so:"),
    "learn_hint": (
        "提示（用了提示，这一课只得一颗星）：{hint}",
        "Hint (with a hint the lesson earns one star): {hint}",
    ),
    "learn_stars": ("这一课：{stars}", "This lesson: {stars}"),
    "learn_next": ("Enter/n 下一课：{title}", "Enter/n next lesson: {title}"),
    "learn_back": ("Enter/Esc 回到课程列表", "Enter/Esc back to the list"),
    "key_lessons": ("课程", "Lessons"),
    "key_hint": ("提示", "Hint"),
    # key bindings (footer)
    "key_quit": ("退出", "Quit"),
    "key_hints": ("提示", "Hints"),
    "key_help": ("帮助", "Help"),
    "key_pass": ("过", "Pass"),
    "key_close": ("关闭", "Close"),
    "key_next": ("下一手", "Next hand"),
    "key_save": ("保存本手", "Save hand"),
    "key_save_match": ("保存比赛", "Save match"),
    "key_suggest": ("按建议", "Suggested"),
}

_RULES_BRIEF = {
    "zh": (
        "三人游戏（对抠两人，四人时庄家的上家本手轮空），80 张牌：小 一…十（黑），大 壹…拾（红），每种四张。"
        "庄家 21 张，其余 20 张，剩下的是堂牌。",
        "庄家先打一张；下家可以吃，任何人可以对、开、胡。没人要，下家从堂牌翻一张；翻出的牌不进手。",
        "优先：胡 > 开 > 对 > 吃；同样的应答按座位顺序。",
        "吃：用两张手牌和这张牌成顺子、二七十或花吃（六六陆）。手里还有同样的牌，必须同时摆出（摆）。",
        "坎（三张）、滚（四张）锁在手里：不能拆开吃，也不能打。有坎必开：有坎的人必须开第四张，除非用它胡。",
        "过张：能吃不吃，这一手不能再吃这张牌；自己打过的牌也不能再吃。",
        "上吐下泻：吃了以后，不能打出和吃用的两张手牌成一组的牌。",
        "八块：第二个开或滚起，每多一个就少打一张牌，要报“八块”（十二块……）。",
        "回笼：自己打过的牌不能胡。过胡：能胡不胡，下一次吃、对、开之前只能胡分数更高的牌。",
        "胡牌：七房（有开或滚时带一对桩子），至少十胡。番：天胡、地胡、坤胡、瞟胡、圈胡（双圈两番），每番翻倍。",
        "结算：翻胡、自摸、天胡每家付分；抬炮由打这张牌的人包三家。",
    ),
    "en": (
        "Three players (two in 对抠; with four, the dealer's previous seat sits each hand out), 80 cards: "
        "small 一…十 (black) and big 壹…拾 (red), four of each. The dealer gets 21 cards, the others 20; "
        "the rest is the stock.",
        "The dealer discards first; the next player (下家) may chow (吃), anyone may pung (对), kong (开) or "
        "win (胡). If nobody takes it, the next player flips a stock card (it never enters a hand).",
        "Priority: 胡 > 开 > 对 > 吃; equal answers go by seat order.",
        "吃 makes a run, 二七十 or a mixed 花吃 (六六陆) with two hand cards; any copy of the card still in "
        "your hand must go down at once in more groups (摆).",
        "A 坎 (three alike) or 滚 (four) stays whole: it cannot be chowed with or discarded. A 坎 must take "
        "its fourth card as a 开 (有开必开), unless you win on it.",
        "过张: pass a chow and you may not chow that card again this hand, nor chow a card you discarded.",
        "上吐下泻: after a 吃 you may not discard a card that makes a group with the two cards you used.",
        "八块: from your second 开 or 滚, each one lets you keep a card instead of discarding; you announce "
        "八块 (十二块 …).",
        "回笼: no win on a card you discarded. 过胡: pass a win and, until your next take, you may only win "
        "for a higher score.",
        "A win is 7 groups (a pair too when you own a quad) and at least 10 hu. Doublings (番): 天胡, 地胡, "
        "坤胡, 瞟胡, 圈胡 (双圈 two); each doubles the score.",
        "A win on a flip, 自摸 or 天胡 is paid by everyone; a win on a discard (抬炮) is paid three times by "
        "the discarder alone.",
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
    """The rules in brief (R-1 to R-8) for the help screen, a paragraph a rule (the screen
    wraps them to its width)."""
    return "\n".join(_RULES_BRIEF["en" if lang == "en" else "zh"])


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` terminal cells (CJK characters are two wide)."""
    space = " " * max(0, width - cell_len(text))
    return space + text if right else text + space


def tiers_text(lang: str, rules: RuleSet) -> str:
    """The tier table of R-7.2 under ``rules.tiers``, from :func:`tier_of` (one row per run of
    hu with the same tier; the open-ended top row last)."""
    lines = [tr(lang, "tier_no_win")]
    top = 31
    lo = 10
    current = tier_of(lo, rules)
    for hu in range(11, top + 1):
        tier = tier_of(hu, rules)
        if hu == top or tier != current:
            assert current is not None
            if lo == hu - 1:
                lines.append(tr(lang, "tier_one", hu=lo, name=current.name, base=current.base))
            else:
                lines.append(tr(lang, "tier_row", lo=lo, hi=hu - 1, name=current.name, base=current.base))
            lo, current = hu, tier
    first, last = tier_of(top, rules), tier_of(200, rules)
    assert first is not None and last is not None
    if first.base == last.base:
        lines.append(tr(lang, "tier_top", lo=top, name=first.name, base=first.base))
    else:
        lines.append(tr(lang, "tier_top_formula", lo=top, name=first.name))
    return "\n".join(lines)


def rules_extra(lang: str, rules: RuleSet) -> str:
    """The rule set's name, its cap and what a 天胡 is worth (R-7.3, R-8.2, R-10)."""
    worth = {
        TianhuRule.ONE_FAN: "tianhu_one_fan",
        TianhuRule.TWO_FAN: "tianhu_two_fan",
        TianhuRule.FIXED_100: "tianhu_fixed_100",
    }[rules.tianhu]
    cap = tr(lang, "help_cap", cap=rules.cap) if rules.cap is not None else tr(lang, "help_no_cap")
    preset = replace(rules, match_quan=RuleSet().match_quan).name
    name = preset_name(preset, "en" if lang == "en" else "zh") if preset is not None else tr(lang, "help_custom")
    return "\n".join(
        [
            tr(lang, "help_rules", name=name),
            tr(lang, "help_tianhu", worth=tr(lang, worth)),
            cap,
        ]
    )
