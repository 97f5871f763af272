"""Writes the hand-made golden records of this folder and their index.

Each scenario is a deal (a few hands fixed by hand, the rest spread so that fillers make
no 坎) and the actions chosen by hand to exercise one rule; the expected verdict in the
index was worked out from RULES.md and FORMATS.md, not by the engine. Run from the
repository root: ``.venv/bin/python tests/data/records/make_records.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from support.positions import deal_with  # noqa: E402

WINS_ON_X1 = "一一二三四四五六七七七壹贰叁陆陆陆捌玖拾"  # 对一 1 + 坎七 3 + 坎陆 6 = 10 hu
DEALER = "一三五七九壹叁伍柒玖二四六八十贰肆陆捌拾九"  # one of most cards: nothing to take
DEALER_NO_X5 = "一三三七九壹叁伍柒玖二四六八十贰肆陆捌拾九"  # no 五
DEALER_NO_X9 = "一三五七壹叁伍柒玖二四六八十贰肆陆捌拾壹贰"  # no 九

SCENARIOS: list[dict[str, Any]] = [
    {
        "file": "r4-1-first-kai-discards.json",
        "rules_ids": "R-4.1, R-5.12",
        "note": "seat 1 holds 伍伍伍: it must 开 the opening 伍, then owes a discard (21 > 20)",
        "hands": {0: DEALER, 1: "伍伍伍一三五七九壹叁柒玖二四六八十贰肆陆"},
        "stock": "x10 d8 d8",
        "actions": [[0, "discard d5"], [1, "kai"], [1, "discard x1"]],
        "expect": {"ok": True},
    },
    {
        "file": "r4-1-kai-then-no-discard-rejected.json",
        "rules_ids": "R-4.1, R-5.5",
        "note": "after the first 开 a discard is owed: a pass there is illegal",
        "hands": {0: DEALER, 1: "伍伍伍一三五七九壹叁柒玖二四六八十贰肆陆"},
        "stock": "x10 d8 d8",
        "actions": [[0, "discard d5"], [1, "kai"], [1, "pass"]],
        "expect": {"ok": False, "step": 2},
    },
    {
        "file": "r4-2-second-kai-keeps.json",
        "rules_ids": "R-4.1, R-4.2, R-5.3",
        "note": "seat 1 holds 五五五 and 伍伍伍: 开 伍, discard, then the flipped 五 is a second "
        "开 and the card is kept (八块): no discard follows, seat 2 flips",
        "hands": {0: DEALER_NO_X5, 1: "五五五伍伍伍一三七九壹叁柒玖二四六八十贰"},
        "stock": "x5 d8 d8",
        "actions": [[0, "discard d5"], [1, "kai"], [1, "discard x1"], [2, "pass"], [1, "kai"]],
        "expect": {"ok": True},
    },
    {
        "file": "r4-2-discard-after-second-kai-rejected.json",
        "rules_ids": "R-4.1, R-5.2",
        "note": "the same, then seat 1 tries to discard: no discard is owed after the kept card",
        "hands": {0: DEALER_NO_X5, 1: "五五五伍伍伍一三七九壹叁柒玖二四六八十贰"},
        "stock": "x5 d8 d8",
        "actions": [[0, "discard d5"], [1, "kai"], [1, "discard x1"], [2, "pass"], [1, "kai"], [1, "discard x3"]],
        "expect": {"ok": False, "step": 5},
    },
    {
        "file": "r4-3-dealer-two-gun-no-opening.json",
        "rules_ids": "R-4.3, R-5.1",
        "note": "the dealer dealt two 滚 makes no opening discard; seat 1 flips first, and a pass closes that flip",
        "hands": {0: "一一一一二二二二三四五六七八九十壹贰叁肆伍"},
        "stock": "d10 d9",
        "actions": [[1, "pass"]],
        "expect": {"ok": True},
    },
    {
        "file": "r4-3-dealer-two-gun-discard-rejected.json",
        "rules_ids": "R-4.3, R-5.1",
        "note": "the same dealer may not make an opening discard",
        "hands": {0: "一一一一二二二二三四五六七八九十壹贰叁肆伍"},
        "stock": "d10 d9",
        "actions": [[0, "discard x3"]],
        "expect": {"ok": False, "step": 0},
    },
    {
        "file": "r5-2-chi-by-non-xiajia-rejected.json",
        "rules_ids": "R-5.2",
        "note": "only the discarder's 下家 (seat 1) may 吃 a discard; seat 2 may not",
        "hands": {0: DEALER, 2: "二三四六七八九十壹贰叁肆伍陆柒捌玖拾一五"},
        "stock": "d10 d9",
        "actions": [[0, "discard x1"], [2, "chi x2 x3"]],
        "expect": {"ok": False, "step": 1},
    },
    {
        "file": "r5-3-flip-chi-by-xiajia.json",
        "rules_ids": "R-5.3",
        "note": "seat 1 flips 一; seat 2, the flipper's 下家, 吃 it with 二三 and discards",
        "hands": {0: DEALER, 2: "二三五六七八九十壹贰叁肆伍陆柒捌玖拾五六"},
        "stock": "x1 d10 d9",
        "actions": [[0, "discard d10"], [0, "pass"], [2, "chi x2 x3"], [2, "discard d9"]],
        "expect": {"ok": True},
    },
    {
        "file": "r5-11-dui.json",
        "rules_ids": "R-5.11, R-5.5",
        "note": "seat 2 holds 一一 and takes the discarded 一 as a 对, then discards",
        "hands": {0: DEALER, 2: "一一三五七九壹叁伍柒玖二四六八十贰肆陆捌"},
        "stock": "d10 d9",
        "actions": [[0, "discard x1"], [2, "dui"], [2, "discard x3"]],
        "expect": {"ok": True},
    },
    {
        "file": "r5-13-kai-onto-dui-rejected.json",
        "rules_ids": "R-5.13",
        "note": "with yu off, the 4th 一 onto seat 2's exposed 对 一 is no 开",
        "hands": {0: DEALER, 2: "一一三五七九壹叁伍柒玖二四六八十贰肆陆捌"},
        "stock": "x1 d10 d9",
        "actions": [[0, "discard x1"], [2, "dui"], [2, "discard x3"], [0, "pass"], [2, "kai"]],
        "expect": {"ok": False, "step": 4},
    },
    {
        "file": "r5-13-yu-kai-onto-dui.json",
        "rules_ids": "R-5.13, R-10 yu",
        "rules": {"yu": True},
        "note": "the same with yu on: the 4th 一 onto the exposed 对 makes a 开",
        "hands": {0: DEALER, 2: "一一三五七九壹叁伍柒玖二四六八十贰肆陆捌"},
        "stock": "x1 d10 d9",
        "actions": [[0, "discard x1"], [2, "dui"], [2, "discard x3"], [0, "pass"], [2, "kai"]],
        "expect": {"ok": True},
    },
    {
        "file": "r5-14-chi-without-discard-rejected.json",
        "rules_ids": "R-5.14",
        "note": "seat 1 holds 二三 and six 坎: after 吃 一 no legal discard would follow",
        "hands": {0: DEALER_NO_X9, 1: "二三四四四五五五六六六八八八九九九十十十"},
        "stock": "d10 d9",
        "actions": [[0, "discard x1"], [1, "chi x2 x3"]],
        "expect": {"ok": False, "step": 1},
    },
    {
        "file": "r6-1-not-a-win-rejected.json",
        "rules_ids": "R-6.1",
        "note": "seat 1's cards with the discarded 三 are no win",
        "hands": {0: DEALER, 1: WINS_ON_X1},
        "stock": "d10 d9",
        "actions": [[0, "discard x3"], [1, "hu"]],
        "expect": {"ok": False, "step": 1},
    },
    {
        "file": "r6-3-dihu.json",
        "rules_ids": "R-6.3, R-7.3, R-8.2",
        "note": "seat 1 wins on the dealer's opening 一: 10 hu, 地胡 doubles to 20, the dealer pays 3 x 20",
        "hands": {0: DEALER, 1: WINS_ON_X1},
        "stock": "d10 d9",
        "actions": [[0, "discard x1"], [1, "hu"]],
        "expect": {
            "ok": True,
            "finished": True,
            "result": {
                "kind": "win",
                "winner": 1,
                "source": "discard",
                "hu": 10,
                "fan": ["地胡"],
                "score": 20,
                "payments": [-60, 60, 0],
            },
        },
    },
    {
        "file": "r6-2-guohu-rejected.json",
        "rules_ids": "R-6.2",
        "note": "seat 1 lets the 地胡 on 一 (20) pass, then flips another 一: a win of 10 is "
        "not more than the one declined",
        "hands": {0: DEALER, 1: WINS_ON_X1},
        "stock": "x1 d10 d9",
        "actions": [[0, "discard x1"], [0, "pass"], [1, "hu"]],
        "expect": {"ok": False, "step": 2},
    },
    {
        "file": "r6-4-own-flip.json",
        "rules_ids": "R-6.4, R-8.1",
        "note": "seat 1 wins on its own flip of 一 (自摸): 10 hu, each other seat pays 10",
        "hands": {0: DEALER, 1: WINS_ON_X1},
        "stock": "x1 d10 d9",
        "actions": [[0, "discard d10"], [0, "pass"], [1, "hu"]],
        "expect": {
            "ok": True,
            "finished": True,
            "result": {
                "kind": "win",
                "winner": 1,
                "source": "own_flip",
                "hu": 10,
                "fan": [],
                "score": 10,
                "payments": [-10, 20, -10],
            },
        },
    },
    {
        "file": "r5-8-bai-then-discard-a-bai-card.json",
        "rules_ids": "R-5.8, R-5.14",
        "note": "seat 1 (一 滚, 坎 of 三 五 壹) takes the discarded 十 with 二七 and must lay its own "
        "十 as 八九十; the 八 and 九 left over are legal discards, so the 吃 is allowed",
        "hands": {
            0: "x2 x5 x6 x6 x6 x8 x9 x10 x10 d1 d2 d3 d3 d4 d4 d5 d6 d7 d8 d8 d10",
            1: "x1 x1 x1 x1 x2 x3 x3 x3 x5 x5 x5 x7 x8 x8 x9 x9 x10 d1 d1 d1",
            2: "x2 x4 x7 x7 x8 x9 d3 d5 d5 d6 d6 d7 d7 d7 d8 d8 d9 d10 d10 d10",
        },
        "stock": "d9 d2 d3 x4 x2 x7 d4 d9 d5 d2 x4 d4 d9 x4 x3 d6 d2 x6 x10",
        "actions": [[0, "discard x10"], [1, "chi x2 x7 bai x8 x9 x10"], [1, "discard x8"]],
        "expect": {"ok": True},
    },
]


def main() -> None:
    index = []
    for sc in SCENARIOS:
        deal = deal_with(0, {int(k): v for k, v in sc["hands"].items()}, sc["stock"])
        record = {
            "format": 1,
            "rules": sc.get("rules", "leshan"),
            "seats": ["A", "B", "C"],
            "quan": None,
            "deal": {
                "dealer": deal.dealer,
                "hands": [" ".join(c.ascii for c in h) for h in deal.hands],
                "stock": " ".join(c.ascii for c in deal.stock),
            },
            "actions": sc["actions"],
        }
        (HERE / sc["file"]).write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        index.append({"file": sc["file"], "expect": sc["expect"], "rules": sc["rules_ids"], "note": sc["note"]})
    (HERE / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
