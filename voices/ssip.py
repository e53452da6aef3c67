"""A client of speech-dispatcher's own protocol, SSIP, on its Unix socket.

One connection kept open for the app's whole run: a sentence is one
``SPEAK`` on it and a stop one ``CANCEL`` (``spd-say`` is a new process, a
new connection and a new greeting for each). Replies come in order; the
server's events (``701 BEGIN``, ``702 END``, ``703 CANCELED``) come between
them, read by a thread of the connection.

Every wait is bounded: the connection (:data:`CONNECT_WITHIN`) and every
answer (:data:`ANSWER_WITHIN`). A daemon that does not answer in time is a
:class:`~voices.base.SpeechError` with :attr:`~voices.base.Cause.NO_ANSWER`,
one that closed the connection :attr:`~voices.base.Cause.DIED`.
"""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

from voices.base import Cause, SpeechError

#: Events: where a message stands.
BEGIN, END, CANCELED = 701, 702, 703
DONE = frozenset({END, CANCELED, 704})  # 704 PAUSED: it will not go on alone
#: Seconds a connection may take to open, and the daemon to answer a command.
CONNECT_WITHIN = 2.0
ANSWER_WITHIN = 3.0


def socket_path(environment: Mapping[str, str]) -> Path | None:
    """Where the daemon listens, as its own clients find it:
    ``SPEECHD_ADDRESS`` (``unix_socket:PATH``), else
    ``speech-dispatcher/speechd.sock`` in the runtime folder, or without one
    in the cache folder. ``None`` for an address that is not a Unix socket.

    >>> socket_path({"XDG_RUNTIME_DIR": "/run/user/1000"})
    PosixPath('/run/user/1000/speech-dispatcher/speechd.sock')
    >>> socket_path({"HOME": "/home/ana"})
    PosixPath('/home/ana/.cache/speech-dispatcher/speechd.sock')
    >>> socket_path({"SPEECHD_ADDRESS": "inet_socket:localhost:6560"}) is None
    True
    """
    address = environment.get("SPEECHD_ADDRESS", "")
    if address:
        method, _, path = address.partition(":")
        return Path(path) if method == "unix_socket" and path else None
    folder = environment.get("XDG_RUNTIME_DIR") or environment.get("XDG_CACHE_HOME") or str(
        Path(environment.get("HOME") or Path.home()) / ".cache")
    return Path(folder) / "speech-dispatcher" / "speechd.sock"


class Connection:
    """An SSIP connection to the daemon at ``path``; ``OSError`` if none
    listens there, :class:`~voices.base.SpeechError` if it does not answer."""

    def __init__(self, path: Path, *, timeout: float = ANSWER_WITHIN,
                 connect_within: float = CONNECT_WITHIN) -> None:
        self.timeout = timeout
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._socket.settimeout(connect_within)
            self._socket.connect(str(path))
            self._socket.settimeout(None)
        except TimeoutError:
            self._socket.close()
            raise SpeechError(f"speech-dispatcher did not take the connection at {path}",
                              Cause.NO_ANSWER) from None
        except OSError:
            self._socket.close()
            raise
        self._replies: queue.Queue[tuple[int, list[str]] | None] = queue.Queue()
        self._states: dict[int, int] = {}
        #: Every kind of event that came on this connection, for any message.
        self.seen: set[int] = set()
        self._changed = threading.Condition()
        self._alive = True
        self._send_lock = threading.Lock()
        #: Held for a whole exchange: a command and its reply, or a SPEAK and
        #: its text (a command sent between the two would be spoken).
        self._exchange = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True, name="ssip")
        self._reader.start()
        try:
            self.command("SET self CLIENT_NAME user:tactile-companion:speech")
            self.command("SET self NOTIFICATION ALL on")
        except SpeechError:
            self.close()
            raise

    @property
    def alive(self) -> bool:
        return self._alive

    def _read(self) -> None:
        pending = b""
        lines: list[str] = []
        try:
            while True:
                data = self._socket.recv(65536)
                if not data:
                    break
                pending += data
                *complete, pending = pending.split(b"\r\n")
                for raw in complete:
                    line = raw.decode("utf-8", "replace")
                    code, final, text = int(line[:3]), line[3:4] == " ", line[4:]
                    lines.append(text)
                    if final:
                        self._arrived(code, lines)
                        lines = []
        except (OSError, ValueError):
            pass
        finally:
            with self._changed:
                self._alive = False
                self._changed.notify_all()
            self._replies.put(None)

    def _arrived(self, code: int, lines: list[str]) -> None:
        if 700 <= code < 800:  # an event: message id, client id, the event
            if lines and lines[0].isdigit():
                with self._changed:
                    self._states[int(lines[0])] = code
                    self.seen.add(code)
                    self._changed.notify_all()
            return
        self._replies.put((code, lines))

    def _send(self, data: bytes) -> None:
        with self._send_lock:
            self._socket.sendall(data)

    def command(self, line: str, expect: str = "2") -> list[str]:
        """Send one command; the lines of its reply (an error if the reply
        is not in the 2xx class, or ``expect``'s)."""
        with self._exchange:
            self._sent(line.encode("utf-8") + b"\r\n")
            return self._reply(line, expect)

    def _sent(self, data: bytes) -> None:
        try:
            self._send(data)
        except OSError:
            raise SpeechError("speech-dispatcher closed the connection", Cause.DIED) from None

    def _reply(self, what: str, expect: str) -> list[str]:
        what = what.split(maxsplit=1)[0]
        try:
            reply = self._replies.get(timeout=self.timeout)
        except queue.Empty:
            # its reply may still come: the replies are out of step from now on
            self._alive = False
            raise SpeechError(f"speech-dispatcher did not answer {what}",
                              Cause.NO_ANSWER) from None
        if reply is None:
            self._replies.put(None)  # and for whoever asks next
            raise SpeechError("speech-dispatcher closed the connection", Cause.DIED)
        code, lines = reply
        if not str(code).startswith(expect):
            raise SpeechError(f"speech-dispatcher refused {what}: {code} {lines}")
        return lines

    def speak(self, text: str) -> int:
        """Queue ``text`` (one line: the app's text has no line breaks);
        its message id."""
        body = "\r\n".join("." + line if line.startswith(".") else line
                           for line in text.splitlines() or [""])
        with self._exchange:
            self._sent(b"SPEAK\r\n")
            self._reply("SPEAK", "230")
            self._sent(body.encode("utf-8") + b"\r\n.\r\n")
            lines = self._reply("SPEAK", "225")
        return int(lines[0])

    def state(self, message: int) -> int | None:
        """The last event of ``message`` (:data:`BEGIN`, one of :data:`DONE`), if any."""
        with self._changed:
            return self._states.get(message)

    def forget(self, message: int) -> None:
        with self._changed:
            self._states.pop(message, None)

    def wait_change(self, timeout: float, until: Callable[[], bool] | None = None) -> None:
        """Until an event comes, the connection is lost, :meth:`nudge` is
        called, or ``timeout`` seconds pass; not at all if ``until()`` is
        true already (checked under the lock :meth:`nudge` takes, so that a
        nudge that comes after it was set is never missed)."""
        with self._changed:
            if self._alive and not (until is not None and until()):
                self._changed.wait(timeout)

    def nudge(self) -> None:
        """Wake whoever is in :meth:`wait_change`."""
        with self._changed:
            self._changed.notify_all()

    def wait(self, message: int, timeout: float) -> bool:
        """Until ``message`` has been spoken or cancelled; False if the
        connection was lost first, or ``timeout`` passed."""
        with self._changed:
            self._changed.wait_for(
                lambda: self._states.get(message) in DONE or not self._alive, timeout)
            done = self._states.pop(message, None) in DONE
        return done

    def close(self) -> None:
        with self._changed:
            was_alive = self._alive
        if was_alive:
            with contextlib.suppress(OSError):
                self._send(b"QUIT\r\n")
        with contextlib.suppress(OSError):
            self._socket.shutdown(socket.SHUT_RDWR)
        self._socket.close()
        self._reader.join(timeout=2)
