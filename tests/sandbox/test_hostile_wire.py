"""Hostile bots abusing the wire protocol: infractions or crashes, never a runner failure."""

from __future__ import annotations

import time

import pytest

from arena.bots.handle import Fault
from arena.runner import TimeControl
from tests.sandbox.hostile_match import (
    FAST_LIMITS,
    assert_others_unaffected,
    hostile_bot,
    play,
)

pytestmark = [pytest.mark.jail, pytest.mark.usefixtures("both_jail_kinds")]

MIB = 1024 * 1024


def test_a_stdout_flood_without_newline_is_one_malformed_reply():
    record = play("stdout_flood", opponents=2)
    hostile = record.seats[0]
    assert not hostile.crashed
    assert hostile.infraction_reasons[0].reason == "malformed reply: longer than 65536 bytes"
    assert hostile.decisions > hostile.infractions  # later turns are read cleanly
    assert_others_unaffected(record)


def test_a_stderr_flood_is_cut_to_the_log_cap():
    record = play("stderr_flood")
    hostile = record.seats[0]
    assert not hostile.crashed and hostile.infractions == 0
    assert hostile.log.startswith("[... ")
    assert "earlier bytes of log cut" in hostile.log.splitlines()[0]
    assert len(hostile.log.encode()) <= FAST_LIMITS.log_bytes + 100
    assert_others_unaffected(record)


def test_unsolicited_lines_are_infractions():
    record = play("unsolicited_lines", opponents=2)
    hostile = record.seats[0]
    assert not hostile.crashed
    assert hostile.infraction_reasons[0].reason == (
        "unsolicited output: the bot wrote a line the runner did not ask for"
    )
    assert_others_unaffected(record)


def test_closing_the_output_is_a_crash():
    record = play("close_stdout", opponents=2)
    hostile = record.seats[0]
    assert hostile.crashed
    assert hostile.crash_reason == "the bot closed its output"
    assert_others_unaffected(record)


def test_a_bot_that_never_reads_cannot_hang_the_runner():
    bot = hostile_bot("never_read_stdin")
    assert bot.start() is None
    big = {"history": [{"type": "note", "text": "x" * MIB}], "legal_actions": [{"type": "roll"}]}
    try:
        first = bot.decide(big, 0.2)  # read whole, then act blocks for good
        started = time.monotonic()
        second = bot.decide({**big, "history": big["history"] * 2}, 0.3)
        waited = time.monotonic() - started
    finally:
        bot.close()
    assert first == Fault("late: no reply within 0.2 s")
    assert second == Fault("late: the bot did not read its observation within 0.3 s")
    assert waited < 1.0


def test_a_bot_that_never_reads_is_dropped_once_its_unread_input_piles_up():
    bot = hostile_bot("never_read_stdin")
    assert bot.start() is None
    history: list = []
    replies = []
    try:
        for _ in range(4):
            history.append({"type": "note", "text": "x" * 4 * MIB})
            replies.append(bot.decide({"history": history, "legal_actions": []}, 0.1))
    finally:
        bot.close()
    assert replies[-1] == Fault("the bot stopped reading its input", crash=True)


def test_a_bot_that_never_reads_loses_the_match_on_time():
    record = play("never_read_stdin", clock=TimeControl(0.1, 0.0), opponents=2)
    hostile = record.seats[0]
    assert hostile.infraction_reasons[0].reason == "late: no reply within 0.1 s"
    assert_others_unaffected(record)


def test_deeply_nested_json_is_a_malformed_reply():
    record = play("nested_json", opponents=2)
    reasons = [infraction.reason for infraction in record.seats[0].infraction_reasons]
    assert reasons[:2] == [
        "malformed reply: JSON nested too deeply",
        "malformed reply: longer than 65536 bytes",
    ]
    assert not record.seats[0].crashed
    assert_others_unaffected(record)


def test_a_five_thousand_digit_number_is_a_malformed_reply():
    record = play("huge_number", opponents=2)
    reason = record.seats[0].infraction_reasons[0].reason
    assert reason.startswith("malformed reply: Exceeds the limit (4300 digits)")
    assert not record.seats[0].crashed
    assert_others_unaffected(record)


def test_junk_replies_are_infractions_each_with_its_reason():
    record = play("junk_replies", opponents=2)
    reasons = [infraction.reason for infraction in record.seats[0].infraction_reasons]
    assert reasons[0].startswith("malformed reply: Expecting value")
    assert reasons[1].startswith("malformed reply: 'utf-8' codec can't decode")
    assert reasons[2] == "malformed reply: not a JSON object"
    assert reasons[3] == "malformed action: roll, not an object"
    assert reasons[4] == "malformed reply: unknown message type surprise"
    assert reasons[5].startswith("malformed reply: Expecting ',' delimiter")
    assert not record.seats[0].crashed
    assert_others_unaffected(record)


def test_illegal_actions_are_infractions():
    record = play("illegal_actions", opponents=2)
    reasons = [infraction.reason for infraction in record.seats[0].infraction_reasons]
    assert [reason.split(":")[0] for reason in reasons[:3]] == ["illegal action"] * 3
    assert not record.seats[0].crashed
    assert_others_unaffected(record)


def test_act_raising_or_returning_a_non_json_value_is_an_infraction():
    record = play("raising_act", opponents=2)
    hostile = record.seats[0]
    assert [infraction.reason for infraction in hostile.infraction_reasons[:2]] == [
        "act raised ValueError: no idea what to do",
        "act raised TypeError: Object of type set is not JSON serializable",
    ]
    assert "Traceback" in hostile.log
    assert not hostile.crashed
    assert_others_unaffected(record)
