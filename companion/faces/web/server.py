"""The web face's HTTP server: Starlette on uvicorn, on this machine only
(127.0.0.1) unless told otherwise.

- ``GET /``: the page (the question focused, the reply first);
- ``POST /answer``: an answer, an option chosen or a word's button; the
  reply comes when the conversation has taken it and asks the next
  question (at most :data:`ANSWER_WAIT` seconds): a new page (after a
  redirect, so that reloading it sends nothing again) or, for the page's
  script, an update (JSON);
- ``GET /events``: what the companion says by itself (Server-Sent Events),
  as updates;
- ``GET /static/...``: the page's script and style sheet, from the package.

What keeps it safe: only the hosts it serves as are answered (another name
pointed at it, DNS rebinding, gets 400); every post carries the page's
token and comes from the page's own origin (else 403, and nothing is
sent); a body larger than :data:`LARGEST_POST` is refused (413); every
response has a strict Content-Security-Policy (scripts and styles of this
server only, no frames, forms posting only here) and is never cached.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import re
import socket
import threading
import urllib.parse
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from importlib.resources import files
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion.contract.events import Chosen, Item, Pressed, Typed
from companion.conversation.inbox import LINE_LONGEST
from companion.faces.web.face import WebFace
from companion.faces.web.page import NOTICES, Joining, JoinPages, Window, best_language, drawn
from companion.faces.web.seats import SEAT_COOKIE, SEAT_COOKIE_AGE, Seats, plain
from companion.i18n import N_, Catalog

if TYPE_CHECKING:
    import uvicorn

#: Seconds a post waits, at most, for the conversation to take the answer
#: and ask the next question; past it the page says the reply is coming
#: (and the page's script shows it when it comes).
ANSWER_WAIT = 10.0
#: The largest body of a post, in bytes: an answer is a line.
LARGEST_POST = 16 * 1024
#: Seconds between the comments that keep an update stream open.
KEEP_ALIVE = 15.0

#: The files the page loads, and their types: nothing else is served.
STATIC = {"web.js": "text/javascript; charset=utf-8", "web.css": "text/css; charset=utf-8"}

#: What every response says of itself.
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",  # ("no-referrer" makes a post's Origin "null")
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
    "cache-control": "no-store",
}

#: The hosts a server on this machine only answers as.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")


class _Secured:
    """Adds :data:`SECURITY_HEADERS` to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.decode("latin-1").lower() not in SECURITY_HEADERS]
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, secured)


#: The fields a post may have, at most (an answer, its question, the token...).
FIELDS = 8


async def _form(request: Request) -> dict[str, str] | Response:
    """The fields of a form post (``application/x-www-form-urlencoded``, as
    a form and the page's script send them), each once; a response that
    refuses it when it is larger than :data:`LARGEST_POST` or of another
    kind."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        return PlainTextResponse("Refused: send the page's form.", 415)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > LARGEST_POST:
            return PlainTextResponse("Refused: an answer is one line.", 413)
    try:
        fields = urllib.parse.parse_qsl(body.decode("utf-8"), keep_blank_values=True,
                           max_num_fields=FIELDS, strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        return PlainTextResponse("Refused: send the page's form.", 400)
    return dict(fields)


#: What a device that holds no seat (any more: the host freed it) is told.
LOST = N_("This device holds no seat of the table any more (the host freed it): open the "
          "table's address again to take a seat.")


async def _once(lost: str) -> AsyncIterator[str]:
    """An update stream of one news, that the seat is lost."""
    yield f"data: {json.dumps({'lost': lost}, ensure_ascii=False)}\n\n"


def number(text: str) -> int | None:
    """A whole number as a page sends it (ASCII digits, at most nine), else
    ``None``: nothing else of a post is read as a number.

    >>> number("12"), number("²"), number("1" * 5000), number("-1")
    (12, None, None, None)
    """
    return int(text) if re.fullmatch(r"[0-9]{1,9}", text) else None


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host`` and ``port`` (0: any free port);
    raises :class:`OSError` (the port taken, say)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # each response is its head and its body, written apart: with Nagle's
        # algorithm the body waited for the head's acknowledgement, which a
        # client delays (40 ms an answer); accepted sockets inherit this
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    return sock


class WebServer:
    """The web face served: its pages, the answers posted to the
    conversation (through ``face``), the updates streamed.

    ``actions``: the words that work now, as (name, label); ``hosts``: the
    host names it answers as (this machine's, by default). ``seats``: the
    seats of a table shared between devices, when it serves one (then
    ``/join`` and each seat's pages, ``/seat/``, are served too); ``lan``:
    it is reached from the local network, so the host's own pages answer
    only this machine."""

    def __init__(self, face: WebFace, *,
                 actions: Callable[[], Sequence[tuple[str, str]]] = tuple,
                 hosts: Sequence[str] = LOCAL_HOSTS, seats: Seats | None = None,
                 lan: bool = False) -> None:
        self.face = face
        self.seats = seats
        self.lan = lan
        self.host = Window(face, actions, joining=self._joining)
        self.token = self.host.token
        self.actions = actions
        self.pages = self.host.pages
        self.hosts = tuple(hosts)
        self.port = 0
        self._server: uvicorn.Server | None = None
        self._stopping = threading.Event()
        self._wakers: set[Callable[[], None]] = set()
        self._wakers_lock = threading.Lock()
        self._join_pages = JoinPages()
        routes = [
            Route("/", self.home, methods=["GET"]),
            Route("/answer", self.answer, methods=["POST"]),
            Route("/events", self.events, methods=["GET"]),
            Route("/static/{name}", self.static, methods=["GET"]),
        ]
        if seats is not None:
            routes += [
                Route("/join", self.join, methods=["GET", "POST"]),
                Route("/free", self.free, methods=["POST"]),
                Route("/seat/", self.seat_home, methods=["GET"]),
                Route("/seat/answer", self.seat_answer, methods=["POST"]),
                Route("/seat/events", self.seat_events, methods=["GET"]),
            ]
        self.app = Starlette(
            routes=routes,
            middleware=[
                Middleware(_Secured),
                Middleware(TrustedHostMiddleware,
                           allowed_hosts=[h.strip("[]") if h.startswith("[") else h
                                          for h in self.hosts] + list(self.hosts)),
            ],
        )

    def _joining(self) -> Joining | None:
        seats = self.seats
        if seats is None or not seats.is_open:
            return None
        return Joining(seats.join_address(), seats.code,
                       tuple((seat.name, seat.taken) for seat in seats.seats()),
                       local=not self.lan)

    def _hosts_only(self, request: Request) -> Response | None:
        """The host's pages answer this machine only, when served on the
        local network (a refusal, else ``None``)."""
        client = request.client.host if request.client is not None else ""
        if not self.lan or client in ("127.0.0.1", "::1", "::ffff:127.0.0.1"):
            return None
        return PlainTextResponse(
            "Refused: this page is the host's. To take a seat, open /join.", 403)

    # -- the pages -------------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        return self._hosts_only(request) or await self._page(self.host, request)

    async def _page(self, window: Window, request: Request) -> Response:
        # the page as the conversation asks its question (the first one, at
        # the start), not while it is on its way there
        await run_in_threadpool(window.face.settled, ANSWER_WAIT)
        notice = request.query_params.get("notice")
        return HTMLResponse(window.pages.page(
            window.face.view(), notice if notice in NOTICES else None,
            since=number(request.query_params.get("since", ""))))

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return PlainTextResponse("Not found.", status_code=404)
        body = (files("companion.faces.web") / "static" / name).read_bytes()
        return Response(body, media_type=STATIC[name])

    def _origin_is_ours(self, request: Request) -> bool:
        """Whether a post comes from a page of this server (its Origin, when
        the browser says it, is one of ours)."""
        origin = request.headers.get("origin")
        if origin is None:
            return request.headers.get("sec-fetch-site") in (None, "same-origin", "none")
        ours = {f"http://{host}:{self.port}" for host in self.hosts}
        return origin in ours

    def _item(self, window: Window, form: Mapping[str, str]) -> Item | None:
        """What a post gives the conversation, if it is something it may
        give now: an option of the menu open, a word that works now, or a
        line typed (cut at a line's length, its controls dropped)."""
        view = window.face.view()
        if "choice" in form:
            options = drawn(view.question).options if view.question is not None else ()
            choice = number(form["choice"])
            return Chosen(choice) if choice is not None and choice < len(options) else None
        if "action" in form:
            name = str(form["action"])
            return Pressed(name) if name in {n for n, _ in window.actions()} else None
        if "answer" in form:
            text = str(form["answer"])[:LINE_LONGEST]
            return Typed("".join(" " if ch in "\r\n\t" else ch for ch in text
                                 if ch.isprintable() or ch in "\r\n\t"))
        return None

    async def answer(self, request: Request) -> Response:
        return self._hosts_only(request) or await self._answer(self.host, request)

    async def _checked_form(self, request: Request, token: str) -> Mapping[str, str] | Response:
        """A post's form, if it comes from a page of ours (its Origin) with
        the page's ``token``; else the refusal to send back."""
        if not self._origin_is_ours(request):
            return PlainTextResponse("Refused: this page is not the companion's.", 403)
        form = await _form(request)
        if isinstance(form, Response):
            return form
        if not hmac.compare_digest(form.get("token", "").encode(), token.encode()):
            return PlainTextResponse("Refused: reload the companion's page.", 403)
        return form

    async def _answer(self, window: Window, request: Request) -> Response:
        form = await self._checked_form(request, window.token)
        if isinstance(form, Response):
            return form
        notice: str | None = None
        await run_in_threadpool(window.face.steady)  # (a question a move elsewhere closed)
        view = window.face.view()
        # what was said before this answer: the page after it begins after that
        said = view.entries[-1].number if view.entries else 0
        if not view.ended:
            asked = number(form.get("question", ""))
            item = self._item(window, form)
            if asked != view.question_id or view.question is None:
                notice = "stale"
            elif item is None:
                notice = "refused"
            elif not window.face.give_for(asked, item):
                notice = "stale"  # answered meanwhile (another window, a double submit)
            elif not await run_in_threadpool(window.face.settled, ANSWER_WAIT):
                notice = "slow"
        view = window.face.view()
        if "application/json" in request.headers.get("accept", ""):
            since = number(form.get("since", ""))
            return JSONResponse(window.pages.update(view, since or 0, notice))
        if view.ended:  # the server stops: this page is the last one
            return HTMLResponse(window.pages.page(view, notice, since=said))
        query = {"since": str(said), **({"notice": notice} if notice else {})}
        return RedirectResponse(f"{window.base}/?" + urllib.parse.urlencode(query), 303)

    # -- the updates that come by themselves -----------------------------------------------

    async def events(self, request: Request) -> Response:
        return self._hosts_only(request) or await self._events(self.host, request)

    async def _events(self, window: Window, request: Request,
                      still: Callable[[], bool] = lambda: True, lost: str = "") -> Response:
        """The updates of ``window``'s page, while ``still`` holds (a
        seat's device that holds it; then ``lost`` is its last news)."""
        numbers = [number(request.query_params.get("since", "")),
                   number(request.headers.get("last-event-id", ""))]
        since = max([n for n in numbers if n is not None] or [0])
        # the version of the page that listens: what changed since it was drawn comes first
        shown = number(request.query_params.get("version", ""))
        version = shown if shown is not None else window.face.view().version
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()

        def wake() -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nothing to wake
                loop.call_soon_threadsafe(changed.set)

        async def stream() -> AsyncIterator[str]:
            nonlocal since, version
            stop = window.face.listen(wake)
            with self._wakers_lock:
                self._wakers.add(wake)
            try:
                yield "retry: 3000\n\n"
                while True:
                    if not still():  # (a seat freed: its old device is told nothing more)
                        yield f"data: {json.dumps({'lost': lost}, ensure_ascii=False)}\n\n"
                        return
                    # asked before the view is read: the app ends the face before
                    # it stops the server, so a stop seen here is in the view read
                    # next, and the last news (the goodbye, "stopped") goes first
                    stopping = self._stopping.is_set()
                    view = window.face.view()
                    if view.version > version:
                        update = window.pages.update(view, since)
                        since = max([since, *(e.number for e in view.entries)])
                        yield (f"id: {since}\ndata: "
                               f"{json.dumps(update, ensure_ascii=False)}\n\n")
                    if view.ended or stopping:
                        return
                    version = view.version
                    try:
                        await asyncio.wait_for(changed.wait(), KEEP_ALIVE)
                    except TimeoutError:
                        yield ": still here\n\n"
                    changed.clear()
            finally:
                stop()
                with self._wakers_lock:
                    self._wakers.discard(wake)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no"})

    # -- a shared table: joining, and each seat's pages ---------------------------------------

    def _seat(self, request: Request) -> Window | None:
        """The seat's window of the device that sent ``request`` (its cookie)."""
        assert self.seats is not None
        return self.seats.window(request.cookies.get(SEAT_COOKIE))

    async def seat_home(self, request: Request) -> Response:
        window = self._seat(request)
        if window is None:  # no seat on this device (or no more): join first
            return RedirectResponse("/join", 303)
        return await self._page(window, request)

    def _lost(self, request: Request) -> str:
        """What a device that holds no seat (any more) is told, in its language."""
        language = best_language(request.headers.get("accept-language", ""),
                                 self.face.view().language)
        return Catalog.for_language(language).text(LOST)

    async def seat_answer(self, request: Request) -> Response:
        window = self._seat(request)
        if window is None:  # nothing sent; the page's script says why, a form goes to /join
            if "application/json" in request.headers.get("accept", ""):
                return JSONResponse({"lost": self._lost(request)}, 403)
            return RedirectResponse("/join", 303)
        return await self._answer(window, request)

    async def seat_events(self, request: Request) -> Response:
        window = self._seat(request)
        lost = self._lost(request)
        if window is None:
            # (a stream of its one news: a browser's EventSource reads no other status)
            return StreamingResponse(_once(lost), media_type="text/event-stream")
        return await self._events(window, request, lambda: self._seat(request) is window,
                                  lost=lost)

    async def join(self, request: Request) -> Response:
        """The join page: the table's code (in the address or typed), then
        the seat; a seat taken gives this device its session, and its page."""
        seats = self.seats
        assert seats is not None
        language = best_language(request.headers.get("accept-language", ""),
                                 self.face.view().language)
        if self._seat(request) is not None:
            return RedirectResponse("/seat/", 303)
        form: Mapping[str, str] = {}
        if request.method == "POST":
            if not self._origin_is_ours(request):
                return PlainTextResponse("Refused: this page is not the companion's.", 403)
            posted = await _form(request)
            if isinstance(posted, Response):
                return posted
            form = posted
            code = form.get("code", "")
        else:
            code = request.query_params.get("code", "")
        pages = self._join_pages
        if seats.over:
            return HTMLResponse(pages.over(language))
        if not seats.is_open:
            return HTMLResponse(pages.closed(language, plain(code)))
        if not code:
            return HTMLResponse(pages.code(language))
        if not seats.code_is(code):
            return HTMLResponse(pages.code(language, wrong=True), 403)
        taken: str | None = None
        if "seat" in form:
            seat = number(form["seat"])
            session = (await run_in_threadpool(seats.take, seat, language)
                       if seat is not None else None)
            if session is not None:
                response = RedirectResponse("/seat/", 303)
                response.set_cookie(SEAT_COOKIE, session, max_age=SEAT_COOKIE_AGE,
                                    httponly=True, samesite="lax", path="/")
                return response
            taken = "taken"
        return HTMLResponse(pages.seats(language, plain(seats.code), seats.seats(),
                                        taken=taken is not None))

    async def free(self, request: Request) -> Response:
        """The host frees a seat whose device is lost."""
        refused = self._hosts_only(request)
        if refused is not None:
            return refused
        form = await self._checked_form(request, self.token)
        if isinstance(form, Response):
            return form
        seat = number(form.get("free", ""))
        assert self.seats is not None
        freed = seat is not None and self.seats.free(seat)
        return RedirectResponse("/?" + urllib.parse.urlencode(
            {"notice": "freed" if freed else "refused"}), 303)

    # -- running ---------------------------------------------------------------------------

    def serve(self, sock: socket.socket) -> None:
        """Serve on ``sock`` until :meth:`stop` (or Control C, SIGTERM):
        uvicorn takes the signals meanwhile, and raises them again once it
        has stopped."""
        import uvicorn  # noqa: PLC0415 - the server, when served

        self.port = sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_config=None, log_level="warning",
                                access_log=False, ws="none", lifespan="off",
                                timeout_graceful_shutdown=2, server_header=False,
                                # never behind a proxy: the client's own address,
                                # which the host's pages check, is never rewritten
                                proxy_headers=False)
        owner = self

        class Server(uvicorn.Server):
            async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
                owner.stop()  # (Control C too) the update streams end first, at once
                await super().shutdown(sockets)

        server = Server(config)
        self._server = server
        if self._stopping.is_set():
            return
        server.run(sockets=[sock])

    def stop(self) -> None:
        """Stop serving (from any thread): the update streams end, and the
        responses under way are given first."""
        self._stopping.set()
        with self._wakers_lock:
            wakers = list(self._wakers)
        for wake in wakers:
            wake()
        server = self._server
        if server is not None:
            server.should_exit = True


__all__ = ["ANSWER_WAIT", "WebServer", "bind"]
