"""The bot handle over the wire protocol, unjailed: what each kind of bot file gives back."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.bots.handle import Fault
from sandbox.limits import JailLimits
from sandbox.process_bot import BotFileError, open_file_bot
from tests.sandbox.hostile_match import thinking_while_paused_and_running

BOTS = Path(__file__).with_name("bots")
HOSTILE = Path(__file__).with_name("hostile")
CHOICE = [{"type": "roll"}, {"type": "accuse"}]


def unjailed(path: Path, **options):
    return open_file_bot(path, jail=False, **options)


def observation(history: list) -> dict:
    return {"api_version": 1, "history": history, "legal_actions": CHOICE}


def test_a_bot_sees_the_whole_history_though_only_new_events_travel():
    bot = unjailed(BOTS / "echo_history.py")
    assert bot.start() is None
    history: list = []
    seen = []
    try:
        for turn in range(4):
            history += [{"type": "event", "turn": turn, "n": n} for n in range(turn + 1)]
            seen.append(bot.decide(observation(history), 2.0))
    finally:
        log = bot.close()
    assert [action["count"] for action in seen] == [1, 3, 6, 10]
    assert seen[-1]["history"] == history
    assert "history_start" not in seen[-1]["keys"]
    assert "thinking about 10 events" in log


def test_what_a_bot_prints_is_taken_decision_by_decision(tmp_path):
    source = tmp_path / "chatty.py"
    source.write_text(
        "print('loading')\n"
        "def act(observation):\n"
        "    print('deciding with', len(observation['history']), end=' events')\n"
        "    return observation['legal_actions'][0]\n"
    )
    bot = unjailed(source)
    assert bot.start() is None
    try:
        taken = []
        for events in range(3):
            bot.decide(observation([{"n": n} for n in range(events)]), 2.0)
            taken.append(bot.take_log())
        assert bot.take_log() == ""
    finally:
        log = bot.close()
    assert taken == [f"deciding with {events} events" for events in range(3)]
    assert log.startswith("loading\n")


def test_a_history_that_starts_over_is_sent_whole():
    bot = unjailed(BOTS / "echo_history.py")
    assert bot.start() is None
    try:
        bot.decide(observation([{"n": 1}, {"n": 2}]), 2.0)
        answer = bot.decide(observation([{"n": 3}]), 2.0)
    finally:
        bot.close()
    assert answer["history"] == [{"n": 3}]


def test_a_reply_is_the_action_the_bot_returned():
    bot = unjailed(BOTS / "echo_history.py", name="echo")
    assert bot.name == "echo"
    assert bot.start() is None
    try:
        answer = bot.decide(observation([]), 2.0)
    finally:
        bot.close()
    assert answer["type"] == "seen"


def test_a_bot_that_raises_gets_an_infraction_and_keeps_playing():
    bot = unjailed(HOSTILE / "raising_act.py")
    assert bot.start() is None
    try:
        replies = [bot.decide(observation([]), 2.0) for _ in range(3)]
    finally:
        log = bot.close()
    assert replies[0] == Fault("act raised ValueError: no idea what to do")
    assert replies[1] == Fault("act raised TypeError: Object of type set is not JSON serializable")
    assert replies[2] == {"type": "roll"}
    assert 'raise ValueError("no idea what to do")' in log  # tracebacks show bot source lines


def test_junk_on_the_wire_is_an_infraction():
    bot = unjailed(HOSTILE / "junk_replies.py")
    assert bot.start() is None
    try:
        answer = bot.decide(observation([]), 2.0)
    finally:
        bot.close()
    assert isinstance(answer, Fault) and not answer.crash
    assert answer.reason.startswith("malformed reply: ")


def test_a_late_reply_is_an_infraction_and_is_dropped_when_it_comes():
    bot = unjailed(HOSTILE / "sleep_past_deadline.py")
    assert bot.start() is None
    timed = {**observation([]), "time": {"decision_seconds": 0.1}}
    try:
        late = bot.decide(timed, 0.1)
        next_reply = bot.decide(timed, 2.0)
    finally:
        bot.close()
    assert late == Fault("late: no reply within 0.1 s")
    assert next_reply == {"type": "roll"}


def test_a_bot_failing_at_import_cannot_start_and_its_traceback_is_the_log():
    bot = unjailed(BOTS / "crash_at_import.py")
    reason = bot.start()
    log = bot.close()
    assert reason == "the bot file failed to load (ZeroDivisionError); the traceback is in its log"
    assert "Traceback" in log and "ratio = 1 / 0" in log
    assert bot.decide(observation([]), 1.0) == Fault(reason, crash=True)


def test_a_bot_without_act_cannot_start():
    bot = unjailed(BOTS / "no_act.py")
    reason = bot.start()
    bot.close()
    assert reason == "the bot file defines no callable act(observation)"


def test_a_bot_exiting_in_act_is_a_crash():
    bot = unjailed(BOTS / "exit_in_act.py")
    assert bot.start() is None
    answer = bot.decide(observation([]), 2.0)
    bot.close()
    assert answer == Fault("the bot process exited with code 7", crash=True)


def test_a_closed_bot_answers_with_a_crash():
    bot = unjailed(BOTS / "echo_history.py")
    assert bot.start() is None
    bot.close()
    assert bot.decide(observation([]), 1.0) == Fault("the bot was closed", crash=True)
    assert bot.close() == bot.close()


def test_a_symbolic_link_is_refused(tmp_path):
    link = tmp_path / "bot.py"
    link.symlink_to(BOTS / "echo_history.py")
    with pytest.raises(BotFileError, match="symbolic link"):
        unjailed(link)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(BotFileError, match="not a regular file"):
        unjailed(tmp_path)


def test_a_file_over_the_size_limit_is_refused(tmp_path):
    big = tmp_path / "big.py"
    big.write_text("x = 1\n" * 100)
    with pytest.raises(BotFileError, match="larger than 100 bytes"):
        unjailed(big, limits=JailLimits(source_bytes=100))


def test_a_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        unjailed(tmp_path / "absent.py")


def test_a_bot_too_slow_to_import_cannot_start():
    bot = unjailed(BOTS / "slow_import.py", limits=JailLimits(startup_seconds=0.5))
    reason = bot.start()
    bot.close()
    assert reason == "the bot did not start within 0.5 s"


def test_an_unjailed_bot_is_paused_between_its_turns_too():
    paused, running = thinking_while_paused_and_running(
        unjailed(HOSTILE / "think_between_turns.py")
    )
    assert running > 1000
    assert paused < running / 5
