"""The wire protocol: lines, checksums, limits, sequence numbers; fuzzed."""

from __future__ import annotations

import contextlib
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.protocol import (
    MAX_LINE,
    Card,
    DeviceError,
    Hello,
    LineSplitter,
    Pong,
    ProtocolError,
    SequenceTracker,
    SeqVerdict,
    checksum,
    format_line,
    parse_line,
)
from tests.fuzz import examples


@pytest.mark.parametrize(
    ("message", "parsed"),
    [
        ("HELLO tactile-scanner proto=1 fw=1.0.0", Hello("tactile-scanner", 1, "1.0.0")),
        ("CARD 04A1B2C3D4E5F6 65535", Card("04A1B2C3D4E5F6", 65535)),
        ("CARD DEADBEEF 0", Card("DEADBEEF", 0)),
        ("PONG", Pong()),
        ("ERR READER no NFC reader answers on SPI",
         DeviceError("READER", "no NFC reader answers on SPI")),
    ],
)
def test_messages_round_trip(message: str, parsed: object) -> None:
    assert parse_line(format_line(message)) == parsed
    assert parse_line(format_line(message).replace(b"\n", b"\r\n")) == parsed


def test_the_checksum_is_the_xor_of_the_bytes() -> None:
    assert checksum("PING") == f"{ord('P') ^ ord('I') ^ ord('N') ^ ord('G'):02X}"
    assert format_line("PONG") == b"PONG*" + checksum("PONG").encode() + b"\n"


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"PONG*00\n", "bad checksum"),
        (b"PONG\n", "no checksum"),
        (b"PO\x00NG*1E\n", "NUL"),
        ("PONGÉ*00\n".encode(), "not ASCII"),
        (b"PO\x07NG*00\n", "control"),
        (b"A" * 100 + b"\n", "too long"),
        (format_line("CARD 04A1B2C3 99999"), "out of range"),
        (format_line("CARD 04A1B2 1"), "unknown message"),
        (format_line("HELLO?"), "unknown message"),
    ],
)
def test_bad_lines_are_refused_with_a_reason(raw: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        parse_line(raw)


def test_a_message_too_long_for_a_line_cannot_be_sent() -> None:
    with pytest.raises(ProtocolError):
        format_line("ERR X " + "y" * 80)


def test_lines_split_anywhere_come_out_whole() -> None:
    stream = format_line("PONG") + format_line("CARD DEADBEEF 3") + format_line("PONG")
    splitter = LineSplitter()
    out: list[bytes | ProtocolError] = []
    for i in range(len(stream)):
        out.extend(splitter.feed(stream[i : i + 1]))
    assert out == [format_line("PONG"), format_line("CARD DEADBEEF 3"), format_line("PONG")]


def test_an_endless_line_is_cut_off_and_reported_once() -> None:
    splitter = LineSplitter()
    out = list(splitter.feed(b"x" * 10_000))
    assert out == []
    out = list(splitter.feed(b"x" * 10 + b"\n" + format_line("PONG")))
    assert isinstance(out[0], ProtocolError) and "10011" in str(out[0])
    assert out[1:] == [format_line("PONG")]


def test_sequence_numbers_show_repeats_gaps_and_restarts() -> None:
    seen = SequenceTracker()
    assert seen.see(7) == (SeqVerdict.NEW, 0)
    assert seen.see(7) == (SeqVerdict.REPEAT, 0)
    assert seen.see(10) == (SeqVerdict.NEW, 2)
    assert seen.see(11) == (SeqVerdict.NEW, 0)
    assert seen.see(9) == (SeqVerdict.RESTART, 0)  # behind: the board started again
    assert seen.see(10) == (SeqVerdict.NEW, 0)
    seen.last = 65533
    for seq in (65534, 65535, 0, 1):  # across the wrap
        assert seen.see(seq) == (SeqVerdict.NEW, 0)
    assert seen.see(5) == (SeqVerdict.NEW, 3)
    assert seen.see(0) == (SeqVerdict.RESTART, 0)  # counts from 0 again, nothing lost
    seen.restart()
    assert seen.see(0) == (SeqVerdict.NEW, 0)
    assert (seen.dropped, seen.restarts) == (2 + 3, 2)


def test_the_same_number_with_another_tag_is_a_restart() -> None:
    seen = SequenceTracker()
    assert seen.see(0, "04A1B2C3") == (SeqVerdict.NEW, 0)
    assert seen.see(0, "04A1B2C3") == (SeqVerdict.REPEAT, 0)
    assert seen.see(0, "0A0B0C0D") == (SeqVerdict.RESTART, 0)


@settings(max_examples=300, deadline=None, database=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(["0A0B0C0D", "04A1B2C3", "DEADBEEF"]),
                                   st.booleans()), min_size=1, max_size=150),
                min_size=1, max_size=5))
def test_a_board_restarting_unheard_loses_no_scan(
    sessions: list[list[tuple[str, bool]]],
) -> None:
    """Boards that start again (numbers from 0, the HELLO never heard), the
    same few tags again and again, some lines sent twice: every scan is
    taken once, no loss is reported."""
    seen = SequenceTracker()
    taken = sent = 0
    previous: tuple[int, str] | None = None
    for session in sessions:
        for seq, (uid, twice) in enumerate(session):
            if seq == 0 and previous == (0, uid):
                continue  # the very line it ended with: a repeat by any reckoning
            sent += 1
            for _ in range(2 if twice else 1):
                taken += seen.see(seq, uid)[0] is not SeqVerdict.REPEAT
            previous = (seq, uid)
    assert (taken, seen.dropped) == (sent, 0)


# -- fuzzing: 100,000 generated inputs in all ----------------------------------------


@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=examples(40_000), deadline=None, database=None)
@given(st.binary(max_size=120))
def test_any_bytes_parse_or_are_refused_with_a_reason(raw: bytes) -> None:
    try:
        message = parse_line(raw)
    except ProtocolError as error:
        assert str(error)
        return
    assert isinstance(message, Hello | Card | Pong | DeviceError)
    assert len(raw.rstrip(b"\r\n")) <= MAX_LINE


LINE_CHARS = st.sampled_from([*list("CARDHELOPNG0123456789ABCDEF *=.?-\r"), "\n"])


@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=examples(30_000), deadline=None, database=None)
@given(st.text(LINE_CHARS, max_size=200))
def test_near_miss_lines_never_crash_the_parser(text: str) -> None:
    for line in LineSplitter().feed(text.encode("ascii")):
        if isinstance(line, ProtocolError):
            continue
        with contextlib.suppress(ProtocolError):
            parse_line(line)


@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=examples(30_000), deadline=None, database=None)
@given(
    st.lists(st.sampled_from(["PONG", "CARD DEADBEEF 1", "CARD 04A1B2C3D4E5F6 42",
                              "HELLO s proto=1 fw=1.0.0"]), max_size=6),
    st.binary(max_size=40),
    st.lists(st.integers(1, 20), min_size=1, max_size=10),
)
def test_valid_lines_survive_any_chunking_after_garbage(
    messages: list[str], garbage: bytes, cuts: list[int]
) -> None:
    stream = garbage.replace(b"\n", b"") + b"\n" + b"".join(format_line(m) for m in messages)
    splitter = LineSplitter()
    parsed = []
    position = 0
    chunks = itertools.cycle(cuts)
    while position < len(stream):
        size = next(chunks)
        for line in splitter.feed(stream[position : position + size]):
            if isinstance(line, bytes):
                with contextlib.suppress(ProtocolError):
                    parsed.append(parse_line(line))
        position += size
    expected = [parse_line(format_line(m)) for m in messages]
    if expected:
        assert parsed[-len(expected) :] == expected
