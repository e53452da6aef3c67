"""The inbox: what the player types and what the scanner reads arrive in one
queue, in the order they came, whatever thread gave them."""

from __future__ import annotations

import threading

from companion.contract.events import Typed
from companion.conversation.inbox import Inbox
from firmware_bridge.events import CardIdentified, CardRefused, Source


def test_typed_and_scanned_cards_arrive_in_one_queue_in_order() -> None:
    inbox = Inbox()
    scanned = CardIdentified("sushigo", "squid", Source.SCANNER, "DEADBEEF", None, 0)
    refused = CardRefused("zz", "no such tag", Source.SCANNER)
    link = threading.Thread(target=inbox, args=(scanned,))  # the link's on_event, its thread
    link.start()
    link.join()
    inbox.put_line("t\r\n")
    inbox.post(refused)
    inbox.end()
    assert [inbox.get() for _ in range(4)] == [scanned, Typed("t"), refused, None]


def test_an_item_given_from_another_thread_wakes_the_reader() -> None:
    inbox = Inbox()
    scanned = CardIdentified("sushigo", "salmon", Source.SCANNER, "04A1B2C3", None, 17)
    timer = threading.Timer(0.05, inbox.post, args=(scanned,))
    timer.start()
    try:
        assert inbox.get() == scanned
        assert inbox.arrived > 0
    finally:
        timer.cancel()
