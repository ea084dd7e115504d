"""The per-session message rate (ui/inbox.py): a student's messages never wait, a flood does, and a
newer rerun replaces the waiting one of the same kind (the whole page, or the same fragment)."""

from streamlit.proto.BackMsg_pb2 import BackMsg

from ui import inbox


def test_a_student_typing_and_clicking_never_waits():
    """Typing with the prompt's 250 ms pause (4 reruns a second) for a minute, with a burst of 20 quick
    clicks in the middle: every message finds a token."""
    bucket, now = inbox.Bucket(inbox.RATE, inbox.BURST), 0.0
    for step in range(240):
        now += 0.25
        assert bucket.take(now)
        if step == 120:
            assert all(bucket.take(now + i * 0.05) for i in range(20))
            now += 1.0


def test_a_flood_gets_the_rate_after_its_burst():
    bucket, now, taken = inbox.Bucket(rate=10, burst=30), 0.0, 0
    for _ in range(10_000):  # 1,000 messages a second for 10 s
        now += 0.001
        taken += bucket.take(now)
    assert 30 + 10 * 10 - 2 <= taken <= 30 + 10 * 10 + 1
    assert 0 < bucket.wait_s() <= 0.1


def test_what_a_newer_message_replaces():
    page, again, fragment, beat = BackMsg(), BackMsg(), BackMsg(), BackMsg()
    page.rerun_script.query_string = "prompt=a"
    again.rerun_script.query_string = "prompt=b"
    fragment.rerun_script.fragment_id = "f1"
    beat.app_heartbeat = True
    assert inbox.kind(page) == inbox.kind(again)  # the newer page rerun replaces the waiting one
    assert len({inbox.kind(page), inbox.kind(fragment), inbox.kind(beat)}) == 3


def test_bytes_read_are_paid_off_before_the_next_read():
    """The byte bucket (inbox.READ_BYTES a second after READ_BURST_BYTES): one 1 MB message at once, then
    the next read waits until its megabyte is paid off; a browser's 10 KB reruns never wait."""
    size = inbox.Bucket(inbox.READ_BYTES, inbox.READ_BURST_BYTES)
    size.charge(0.0, 2**20)
    size.charge(0.0, 2**20)
    assert size.tokens <= 0 and abs(size.wait_s(0.0) - 0.0) < 1e-9  # the burst covered two
    size.charge(0.0, 2**20)
    assert abs(size.wait_s(0.0) - 2**20 / inbox.READ_BYTES) < 1e-6  # 4 s at 256 KB/s
    browser, now = inbox.Bucket(inbox.READ_BYTES, inbox.READ_BURST_BYTES), 0.0
    for _ in range(600):  # 4 reruns a second of 10 KB each, 150 s
        now += 0.25
        browser.refill(now)
        assert browser.tokens >= 0
        browser.charge(now, 10_000)
