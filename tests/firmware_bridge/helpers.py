"""Shared test equipment for the bridge: event collection and waiting."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from firmware_bridge.events import CardIdentified, InputEvent, ScannerFound, ScannerLost
from firmware_bridge.link import LinkSettings

QUICK = LinkSettings(heartbeat=0.2, missed_heartbeats=3, hello_every=0.1, hello_for=1.0,
                     backoff_first=0.1, backoff_max=0.4, problem_every=0.0)


class Events:
    """Collects a link's events, thread-safely, and waits for them."""

    def __init__(self) -> None:
        self.items: list[InputEvent] = []
        self._lock = threading.Condition()

    def __call__(self, event: InputEvent) -> None:
        with self._lock:
            self.items.append(event)
            self._lock.notify_all()

    def wait(self, test: Callable[[list[InputEvent]], bool], timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        with self._lock:
            while not test(self.items):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out; events so far: {self.items}")
                self._lock.wait(left)

    def cards(self) -> list[CardIdentified]:
        with self._lock:
            return [e for e in self.items if isinstance(e, CardIdentified)]

    def count(self, kind: type) -> int:
        with self._lock:
            return sum(1 for e in self.items if isinstance(e, kind))

    def wait_cards(self, n: int, timeout: float = 10.0) -> list[CardIdentified]:
        self.wait(lambda items: sum(isinstance(e, CardIdentified) for e in items) >= n, timeout)
        return self.cards()

    def wait_found(self, n: int = 1, timeout: float = 10.0) -> None:
        self.wait(lambda items: sum(isinstance(e, ScannerFound) for e in items) >= n, timeout)

    def wait_lost(self, n: int = 1, timeout: float = 10.0) -> None:
        self.wait(lambda items: sum(isinstance(e, ScannerLost) for e in items) >= n, timeout)
