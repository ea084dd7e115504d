"""The shell: home page, language, URL state (restore, bad parameters), weights, errors."""

import contextlib

import numpy as np

import models
from tests.pages.apptest import array, heatmaps, open_app
from ui import loaders
from ui.pages import LESSONS


def test_home_says_what_the_app_is_and_links_every_lesson():
    at = open_app()
    assert at.title[0].value == "Attention Lab"
    assert [lesson.name for lesson in LESSONS][:4] == ["guides", "explorer", "tokens", "masks"]
    links = [el.proto.page for el in at.main.get("page_link")]
    assert links == [lesson.name for lesson in LESSONS]  # the url paths of the lesson pages


def test_home_in_chinese():
    at = open_app(lang="zh")
    assert at.title[0].value == "注意力实验室"
    assert at.selectbox(key="model").label == "模型"


def test_a_shared_link_restores_the_view():
    at = open_app("explorer", model="encoder", prompt="the cat sleeps", view="lines", layer="2", present="1")
    assert at.text_input(key="prompt").value == "the cat sleeps"
    assert at.selectbox(key="model").value == "encoder"
    assert at.segmented_control(key="view").value == "lines"
    assert at.segmented_control(key="layer").value == 1
    assert at.toggle(key="present").value is True
    assert not at.warning


def test_nonsense_parameters_fall_back_with_one_notice():
    at = open_app("explorer", model="gpt9", layer="abc", view="3d", prompt="ok", foo="bar")
    assert at.selectbox(key="model").value == "decoder"
    assert at.segmented_control(key="view").value == "heatmap"
    assert heatmaps(at)  # the page still draws
    at.segmented_control(key="head").set_value(1).run()
    assert not at.exception


def test_a_layer_the_model_lacks_falls_back_to_the_first():
    at = open_app("explorer", layer="9")
    assert at.segmented_control(key="layer").value == 0
    assert not at.exception


def test_random_init_weights_attend_differently_from_trained():
    text = "the cats that the dog sees are happy ."
    trained = array(heatmaps(open_app("explorer", prompt=text))[0]["z"])
    random_ = array(heatmaps(open_app("explorer", prompt=text, weights="random"))[0]["z"])
    assert trained.shape == random_.shape and not np.allclose(trained, random_, atol=1e-3)


def test_missing_weights_name_the_rebuild_command(monkeypatch):
    def broken(name):
        raise models.WeightsError(f"The weight file {name}.pt is missing. Rebuild it with: python -m models.train")

    loaders.get_model.clear()
    monkeypatch.setattr(models, "load", broken)
    try:
        at = open_app("explorer")
        assert any("python -m models.train" in e.value.replace("\\", "") for e in at.error)  # shown Markdown-escaped
        assert not heatmaps(at)
    finally:
        monkeypatch.undo()
        loaders.get_model.clear()


def test_switching_pages_keeps_the_prompt():
    at = open_app("explorer")
    at.text_input(key="prompt").input("alice met bob").run()
    at.switch_page("lessons/masks.py").run()
    assert at.text_input(key="prompt").value == "alice met bob"


def test_every_way_a_run_ends_gives_its_script_slot_back():
    """app.py holds one of shell.RUN_SLOTS for each script run; a run that ends early (empty prompt:
    st.stop; a guided lesson's Next: st.switch_page; nonsense URL) must release it, or the server
    would stop serving after RUN_SLOTS such runs."""
    from ui import shell

    for _ in range(shell.RUN_SLOTS + 1):
        at = open_app("explorer")
        at.text_input(key="prompt").input("").run()  # st.stop() after a notice
        open_app("explorer", guide="01-three-architectures", gstep="2", layer="99", prompt="")
        open_app(None, guide="01-three-architectures", gstep="1")  # switches to the step's page
    assert shell.RUNS.running() == 0 and shell.RUNS.waiting() == 0
    assert shell.ARRIVALS.running() == 0 and shell.HEAVY.running() == 0


def test_with_status_shows_a_first_computation_and_nothing_once_cached(monkeypatch):
    """A slow first load (a model, a trained variant, a sweep) says what it is doing; a cached call is instant."""
    shown = []

    class Box:
        def status(self, label):
            shown.append(label)
            return contextlib.nullcontext()

        def empty(self):
            pass

    monkeypatch.setattr(loaders.st, "empty", Box)

    @loaders._remembered
    def power(x, p=2):
        return x**p

    assert loaders.with_status("first", power, 3) == 9 and shown == ["first"]
    assert loaders.with_status("again", power, 3, 2) == 9 and shown == ["first"]  # the same call, defaults bound
    assert loaders.with_status("other", power, 4) == 16 and shown == ["first", "other"]
