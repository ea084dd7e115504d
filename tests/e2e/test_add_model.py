"""“Add a model…” in a real Chromium: a tiny Qwen3 downloaded by its Hub id from a local server that answers the
Hub's endpoints (tests/hub_server.py, through the real huggingface_hub in the app's child process), the progress
bar, then the Explorer drawing it; Cancel ends a slow download and nothing half-downloaded is listed. English and
Chinese. Through the real HAProxy as `make replicas` runs it, a student's browser gets no download at all. With
SHOTS=1 in the environment, screenshots go to /tmp/shots-e2e/ (never committed).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
import torch
from playwright.sync_api import Page, expect

from tests.hub_server import HubServer
from tests.models.hf.tiny import build
from ui.fetch_panel import DOWNLOADS_ENV

from .conftest import new_page, serve
from .test_real_models import FIRST_DRAW_MS, TICKS, no_traceback, picker_options, shot

TEXT = {
    "en": {"open": "Add a model…", "repo": "Hub id (org/name)", "check": "Check size", "cancel": "Cancel download",
           "fits": "Fits", "family": "Qwen3 decoder"},
    "zh": {"open": "添加模型……", "repo": "模型名称（组织/名称）", "check": "检查大小", "cancel": "取消下载",
           "fits": "可以放下", "family": "Qwen3 解码器"},
}  # fmt: skip
DOWNLOAD = re.compile(r"^(Download|下载) ?[(（]")
SIZES = {"laptop": (1366, 768), "desktop": (1920, 1080), "phone": (390, 844)}


@pytest.fixture(scope="module")
def hub_app(chromium_path: str, tmp_path_factory: pytest.TempPathFactory):
    src = tmp_path_factory.mktemp("repos")
    build("qwen3", src / "qwen3")
    big = src / "big"  # 24 MB, served at 1 MB/s: slow enough to cancel
    big.mkdir()
    from safetensors.torch import load_file, save_file

    tensors = load_file(src / "qwen3" / "model.safetensors")
    save_file({**tensors, "extra.padding": torch.zeros(6_000_000)}, big / "model.safetensors", {"format": "pt"})
    for f in ("config.json", "tokenizer.json"):
        (big / f).write_bytes((src / "qwen3" / f).read_bytes())
    home = tmp_path_factory.mktemp("hf")
    with HubServer() as hub:
        hub.add("Qwen/tiny-qwen3", src / "qwen3")
        hub.add("Qwen/tiny-qwen3-zh", src / "qwen3")  # the Chinese run downloads its own copy
        hub.add("Qwen/slow-qwen3", big)
        tmp = tmp_path_factory.mktemp("tmp")  # the server's temporary folder: each download's status file is there
        env = {"HF_ENDPOINT": hub.url, "HF_HOME": str(home), "TMPDIR": str(tmp)}
        with serve(tmp_path_factory.mktemp("streamlit"), env) as base:
            yield base, hub, home / "hub", tmp


def open_panel(page: Page, base: str, lang: str, repo: str) -> None:
    page.goto(f"{base}/explorer?lang={lang}")
    side = page.get_by_test_id("stSidebar")
    side.get_by_text(TEXT[lang]["open"]).click()
    box = side.get_by_label(TEXT[lang]["repo"])
    box.fill(repo)
    box.press("Enter")
    side.get_by_role("button", name=TEXT[lang]["check"]).click()
    expect(side.get_by_text(TEXT[lang]["fits"], exact=False)).to_be_visible(timeout=60_000)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_add_a_model_by_name_shows_progress_then_the_explorer_draws_it(browser, hub_app, lang: str) -> None:
    base, hub, _, tmp = hub_app
    hub.bytes_per_second = 150_000  # ~5 s for the tiny model: the bar is seen moving
    with new_page(browser, base, *SIZES["laptop"]) as page:
        repo = {"en": "Qwen/tiny-qwen3", "zh": "Qwen/tiny-qwen3-zh"}[lang]
        open_panel(page, base, lang, repo)
        side = page.get_by_test_id("stSidebar")
        expect(side.get_by_text(TEXT[lang]["family"], exact=False)).to_be_visible()
        shot(page, f"add-model-checked-{lang}")
        side.get_by_role("button", name=DOWNLOAD).click()
        bar = side.get_by_test_id("stProgress")
        expect(bar).to_be_visible(timeout=20_000)
        speed = side.get_by_text({"en": "/s", "zh": "/秒"}[lang], exact=False).first
        expect(speed).to_be_visible(timeout=30_000)  # the download process imports torch first: slow under load
        shot(page, f"add-model-progress-{lang}")
        expect(bar).to_have_count(0, timeout=60_000)  # done: the bar goes, the model is selected and drawn
        link = re.escape(repo).replace("/", "(%2F|/)")
        # the link names it: written when the run that selects and first draws the new model ends
        expect(page).to_have_url(re.compile(rf"model={link}(&|$)"), timeout=FIRST_DRAW_MS)
        picker = side.get_by_role("combobox", name={"en": "Model", "zh": "模型"}[lang])
        label = re.compile(rf"^{re.escape(repo)} · \d+K · {TEXT[lang]['family']}$")  # listed with family and size
        expect(picker).to_have_value(label, timeout=FIRST_DRAW_MS)
        page.wait_for_selector(TICKS, timeout=FIRST_DRAW_MS)
        # Qwen's tokenizer adds no [BOS] (the toy decoder's heatmap starts with one): the new model drew it
        expect(page.locator(TICKS).filter(has_text="[BOS]")).to_have_count(0, timeout=FIRST_DRAW_MS)
        no_traceback(page)
        assert not list(tmp.glob("attention-lab-fetch-*"))  # the status file's folder went with the finished job
        shot(page, f"add-model-drawn-{lang}")
    hub.bytes_per_second = None


def test_cancel_ends_a_slow_download_and_lists_nothing_half_done(browser, hub_app) -> None:
    base, hub, cache, tmp = hub_app
    hub.bytes_per_second = 1_000_000
    with new_page(browser, base) as page:
        open_panel(page, base, "en", "Qwen/slow-qwen3")
        side = page.get_by_test_id("stSidebar")
        side.get_by_role("button", name=DOWNLOAD).click()
        bar = side.get_by_test_id("stProgress")
        expect(bar).to_be_visible(timeout=20_000)
        page.wait_for_timeout(1500)
        side.get_by_role("button", name=TEXT["en"]["cancel"]).click()
        expect(bar).to_have_count(0, timeout=20_000)
        page.wait_for_timeout(2500)  # a child still running would go on writing
        blobs = list((cache / "models--Qwen--slow-qwen3" / "blobs").glob("*"))
        sizes = [p.stat().st_size for p in blobs]
        page.wait_for_timeout(1500)
        assert [p.stat().st_size for p in blobs if p.exists()] == sizes  # nothing grows: the child is gone
        assert not any(p.name == "config.json" for p in cache.glob("models--Qwen--slow-qwen3/snapshots/*/*"))
        options = picker_options(page, "en")
        assert not any(o.startswith("Qwen/slow-qwen3") for o in options), options
        assert not list(tmp.glob("attention-lab-fetch-*"))  # nor is the cancelled job's status folder left behind
        no_traceback(page)
    hub.bytes_per_second = None


@pytest.fixture(scope="module")
def proxied(chromium_path: str, tmp_path_factory: pytest.TempPathFactory):
    """One replica behind the real HAProxy, as `make replicas` starts them (deploy/replicas.py)."""
    if not (shutil.which("haproxy") or Path("/usr/sbin/haproxy").exists()):
        pytest.skip("haproxy is not installed: `make browser` installs Debian's")
    from deploy.replicas import Replicas

    tmp = tmp_path_factory.mktemp("replicas")
    env = {k: v for k, v in os.environ.items() if k != DOWNLOADS_ENV}  # the default: decided per browser
    env.update(ATTENTION_LAB_DB=f"sqlite:///{tmp / 'classes.sqlite3'}", HOME=str(tmp))
    with Replicas(1, log_dir=tmp / "logs", env=env) as r:
        yield r


def test_downloads_are_off_through_haproxy_and_on_at_the_replica_itself(browser, proxied) -> None:
    """Through the proxy (its X-Forwarded-For, the replica on loopback) the panel says downloads are off and
    offers no Hub box; the same replica opened on its own port (the teacher at the server) offers it."""
    direct = f"http://127.0.0.1:{proxied.servers['r1']}"
    for base, off in ((proxied.url, True), (direct, False)):
        with new_page(browser, base) as page:
            page.goto(f"{base}/explorer")
            side = page.get_by_test_id("stSidebar")
            side.get_by_text(TEXT["en"]["open"]).click()
            sentence = side.get_by_text("Downloads from the page are off here", exact=False)
            box, check = side.get_by_label(TEXT["en"]["repo"]), side.get_by_role("button", name=TEXT["en"]["check"])
            expect(sentence if off else box).to_be_visible(timeout=30_000)
            for gone in (box, check, side.get_by_role("button", name=DOWNLOAD)) if off else (sentence,):
                expect(gone).to_have_count(0)
            if not off:
                expect(check).to_be_visible()
            no_traceback(page)
