"""Run lanes in the app: a published model's runs wait in their own lane (ui/slots.HEAVY), saying their
place, and toy-model pages never wait behind them."""

from __future__ import annotations

import threading

import pytest

from tests.models.hf.tiny import build
from ui import lanes, shell, slots

from .apptest import heatmaps, open_app


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    build("qwen2", root / "tiny-qwen2")
    return root


@pytest.fixture
def busy_lane(models_dir, monkeypatch):
    """The heavy lane with its one slot taken by another student's run until `done` is set."""
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    lane, started, done = lanes.Lane(1), threading.Event(), threading.Event()
    monkeypatch.setattr(slots, "HEAVY", lane)

    def other_run():
        with lane.hold(since=0):
            started.set()
            done.wait(30)

    th = threading.Thread(target=other_run, daemon=True)
    th.start()
    started.wait(5)
    yield done
    done.set()
    th.join(5)


def test_toy_pages_do_not_wait_for_the_heavy_lane(busy_lane):
    at = open_app("explorer")  # the heavy lane stays taken throughout: this would time out if it waited
    assert heatmaps(at) and not busy_lane.is_set()


def test_a_published_model_waits_its_turn_and_says_its_place(busy_lane, monkeypatch):
    places = []

    def notice(where, place):
        places.append(place)
        threading.Timer(0.3, busy_lane.set).start()  # the other run ends a little later
        real_notice(where, place)

    real_notice = slots.queue_notice
    monkeypatch.setattr(slots, "queue_notice", notice)
    at = open_app("explorer", model="tiny-qwen2")
    assert places == [1]
    assert heatmaps(at) and not any("Queued" in el.value for el in at.info)  # drawn; the notice cleared
    assert slots.HEAVY.running() == 0 and slots.HEAVY.waiting() == 0


def test_the_queue_notice_speaks_the_links_language(busy_lane, monkeypatch):
    """The URL is restored before the lane is chosen: a Chinese link's first run queues in Chinese."""
    shown = []

    def notice(where, place):
        shown.append(shell.t("shell.queue", place=place, model="m", slots=1))
        busy_lane.set()

    monkeypatch.setattr(slots, "queue_notice", notice)
    open_app("explorer", model="tiny-qwen2", lang="zh")
    assert len(shown) == 1 and "排队" in shown[0] and "第 1 位" in shown[0]
