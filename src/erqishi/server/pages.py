"""The JSON behind the learning pages, generated from the package's own rule data
(RULES.md), never retyped: the rules page and the pocket scorer
(:mod:`erqishi.server.rules_page`) and the lessons (:mod:`erqishi.server.learn_page`);
and the error pages a browser is shown (:func:`error_page`): no such page (404), no such
room (404), a fault of the server (500), in the game's style and in both languages.
"""

from __future__ import annotations

import html
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from erqishi.server.guard import SECURITY_HEADERS
from erqishi.server.learn_page import learn_router
from erqishi.server.rules_page import rules_router

__all__ = ["ErrorKind", "error_page", "pages_router", "wants_html"]

INDEX = Path(str(resources.files("erqishi.server") / "static")) / "index.html"

#: What went wrong, for the error page: no such page, no such room, a fault of the server.
ErrorKind = Literal["not_found", "room_missing", "server_error", "too_many_misses"]

#: The words of each error page before the client takes over (and without JavaScript), in
#: both languages: (title, text) in Chinese and in English; the client words the same page
#: in the reader's language (``static/js/errors.js``).
_WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "not_found": (
        ("找不到这个页面", "这个网址上什么也没有。"),
        ("Page not found", "There is nothing at this address."),
    ),
    "room_missing": (
        ("没有这个房间", "房间 {code} 不存在，或者已经关了。请向朋友要新的链接或房间号。"),
        ("No such room", "There is no room {code}: it may have closed. Ask your friends for a new link or code."),
    ),
    "server_error": (
        ("服务器出错了", "请稍后再试；牌局都保存着。"),
        ("Something went wrong on the server", "Try again in a moment; the games are kept."),
    ),
    "too_many_misses": (
        ("找了太多不存在的房间", "请一分钟后再试，或向朋友要房间的链接。"),
        ("Too many rooms that are not there", "Try again in a minute, or ask your friends for the room's link."),
    ),
}


def pages_router() -> APIRouter:
    """The routes of the learning pages."""
    router = APIRouter()
    router.include_router(rules_router())
    router.include_router(learn_router())
    return router


def wants_html(path: str, accept: str) -> bool:
    """Whether an error at ``path`` is answered with a page: a browser's request (it accepts
    ``text/html``) for anything but the JSON API, the socket and the client's files."""
    if path.startswith(("/api/", "/ws/", "/static/")) or path in ("/api", "/healthz"):
        return False
    return "text/html" in accept


@cache
def _index() -> str:
    return INDEX.read_text(encoding="utf-8")


def error_page(status: int, kind: ErrorKind, code: str | None = None) -> HTMLResponse:
    """The client page for an error: ``index.html`` that tells the client what went wrong
    (``<meta name="erqishi-error">``, read by ``static/js/main.js``, which shows the page in
    the reader's language with the header), with the words in both languages in the page
    itself until then (and without JavaScript). A missing room's page names its ``code``
    and offers no link to share."""
    (zh_title, zh_text), (en_title, en_text) = _WORDS[kind]
    shown = html.escape((code or "")[:16])
    meta = f'  <meta name="erqishi-error" content="{status}" data-kind="{kind}" data-code="{shown}">\n'
    zh_text, en_text = (html.escape(text).replace("{code}", shown) for text in (zh_text, en_text))
    body = (
        f'<section class="card error-page" data-testid="error-page" data-status="{status}" data-kind="{kind}">'
        f'<h1 lang="zh-CN">{html.escape(zh_title)}</h1><p lang="zh-CN">{zh_text}</p>'
        f'<h1 lang="en">{html.escape(en_title)}</h1><p lang="en">{en_text}</p>'
        '<p><a class="btn primary" href="/">回首页 · Home</a></p></section>'
    )
    page = _index().replace("</head>", meta + "</head>", 1)
    page = page.replace('<main id="app"><p class="muted">贰柒拾……</p></main>', f'<main id="app">{body}</main>', 1)
    title = {"not_found": "404", "room_missing": "404", "server_error": "500", "too_many_misses": "429"}[kind]
    page = page.replace("<title>贰柒拾</title>", f"<title>{title} · 贰柒拾</title>", 1)
    headers = dict(SECURITY_HEADERS) if status >= 500 else None  # a 500 is answered outside the guard
    return HTMLResponse(page, status_code=status, headers=headers)
