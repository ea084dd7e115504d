"""Each page is drawn in one fragment under the sidebar (ui/body.py), tried on a real server through
Streamlit's websocket protocol (bench/st_client.py sends a widget's change as the browser does: a
rerun of the fragment the widget was drawn in). A change on the page reruns only the page: the sidebar's
elements are not sent again, the figure follows the prompt, and the URL keeps the sidebar's parameters.
A sidebar widget still reruns everything. The Explorer's downloads are made on click."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.st_client import Session
from tests import aio
from tests.servers import app_server

PROMPT = "alice knows the cats that the dog sees are happy ."


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    with app_server(tmp_path_factory.mktemp("page_fragment")) as (port, _):
        yield port


def heatmap_columns(s: Session) -> list[str]:
    return json.loads(s.charts["heatmap"])["data"][0]["x"]


def test_a_new_prompt_reruns_the_page_alone_and_the_url_keeps_the_sidebars_parameters(port):
    async def go():
        s = Session(port, "explorer", query="lang=zh&layer=2")
        _, errors = await s.open()
        assert not errors and {"lang", "model", "prompt", "layer"} <= set(s.drawn)  # the first run: everything
        prompt = s.widgets["prompt"][1].id
        assert s.homes[prompt] and not s.homes[s.widgets["lang"][1].id]  # the prompt is in a fragment
        _, errors = await s.rerun((WidgetState(id=prompt, string_value=PROMPT),))
        assert not errors
        # The Explorer's prompt box and what it changes rerun alone (lessons/explorer_view.py): its controls
        # above (layer, head, view) and the sidebar are not sent again, and the figure follows the prompt.
        assert "prompt" in s.drawn and not {"layer", "head", "view"} & set(s.drawn)
        assert not {"lang", "model", "weights", "present", "tables"} & set(s.drawn)  # the sidebar, not
        assert any(label.endswith("happy") for label in heatmap_columns(s))  # the figure follows the prompt
        query = urllib.parse.parse_qs(s.query)
        assert query["lang"] == ["zh"] and query["layer"] == ["2"] and query["prompt"] == [PROMPT]
        # A control reruns the page (the part with the prompt included): the figure shows the new head.
        head = WidgetState(id=s.widgets["head"][1].id)
        head.string_array_value.data.append("3")
        _, errors = await s.rerun((head,))
        assert not errors and {"prompt", "layer", "head"} <= set(s.drawn)
        assert json.loads(s.charts["heatmap"])["layout"]["title"]["text"].endswith("3")
        query = urllib.parse.parse_qs(s.query)
        assert query["head"] == ["3"] and query["layer"] == ["2"] and query["prompt"] == [PROMPT]
        return s


def test_a_prompt_on_another_page_reruns_the_whole_page_under_the_sidebar(port):
    async def go():
        s = Session(port, "masks", query="layer=2")
        _, errors = await s.open()
        _, errors = await s.rerun((WidgetState(id=s.widgets["prompt"][1].id, string_value=PROMPT),))
        assert not errors and {"prompt", "layer", "head", "prefix"} <= set(s.drawn)  # the page, drawn again
        assert not {"lang", "model"} & set(s.drawn)
        assert urllib.parse.parse_qs(s.query)["layer"] == ["2"]

    aio.run(go())

    aio.run(go())


def test_a_sidebar_widget_reruns_the_whole_app(port):
    async def go():
        s = Session(port, "explorer")
        _, errors = await s.open()
        assert not errors
        lang = s.widgets["lang"][1]
        _, errors = await s.rerun((WidgetState(id=lang.id, string_value="zh"),))
        assert not errors and {"lang", "model", "prompt"} <= set(s.drawn)
        assert any("注意力" in text for text in s.texts)  # the page again, now in Chinese

    aio.run(go())


def test_the_explorers_downloads_are_made_on_click_for_the_matrix_shown(port):
    async def go():
        s = Session(port, "explorer", query=f"prompt={urllib.parse.quote(PROMPT)}&layer=2&head=3")
        _, errors = await s.open()
        assert not errors and len(s.media) == 2 and not any(m.startswith("/") for m in s.media)  # no files yet
        urls = []
        for file_id in s.media:
            url, errors = await s.deferred_url(file_id)
            assert not errors and url.startswith("/media/")
            urls.append(url)
        code, body = await s.get(urls[0])
        payload = json.loads(body)
        assert code == 200 and payload["what"] == "decoder.self Layer 2, head 3"
        assert payload["key_tokens"] == [label.split(" ", 1)[1] for label in heatmap_columns(s)]
        code, body = await s.get(urls[1])
        assert code == 200 and body.decode().count("\n") >= len(payload["query_tokens"])  # a CSV row per query
        assert not (await s.download())  # as bench/proxy_load.py clicks one

    aio.run(go())


def test_controls_left_undrawn_by_an_empty_prompt_come_back_as_the_student_set_them(port):
    """An empty prompt stops the page before its controls (ui/shell.stop): Streamlit forgets an undrawn
    widget's value, and a control came back at its default and drawn with nothing selected. Now the
    student's head comes back, sent with its value. (The Explorer's controls are above its prompt box.)"""

    async def go():
        s = Session(port, "masks")
        _, errors = await s.open()
        prompt, head = s.widgets["prompt"][1].id, s.widgets["head"][1].id
        third = WidgetState(id=head)
        third.string_array_value.data.append("3")
        errors += (await s.rerun((third,)))[1]
        errors += (await s.rerun((WidgetState(id=prompt, string_value=""),)))[1]
        assert "head" not in s.drawn  # stopped before the controls
        errors += (await s.rerun((WidgetState(id=prompt, string_value=PROMPT),)))[1]
        assert not errors
        el = s.widgets["head"][1]
        assert el.set_value and list(el.raw_values) == ["3"]  # the browser is told which is selected
        assert "head=3" in s.query

    aio.run(go())


def test_an_empty_prompt_on_the_explorer_keeps_its_controls_and_the_url(port):
    async def go():
        s = Session(port, "explorer", query="view=grid&layer=2")
        _, errors = await s.open()
        prompt = s.widgets["prompt"][1].id
        errors += (await s.rerun((WidgetState(id=prompt, string_value=""),)))[1]
        assert "grid" not in s.charts or "view" not in s.drawn  # the part stopped; the controls stay as they are
        errors += (await s.rerun((WidgetState(id=prompt, string_value=PROMPT),)))[1]
        assert not errors and "grid" in s.charts
        query = urllib.parse.parse_qs(s.query)
        assert query["view"] == ["grid"] and query["layer"] == ["2"] and query["prompt"] == [PROMPT]

    aio.run(go())


def test_a_sections_own_slider_reruns_that_section_alone(port):
    """Issue 40: the Masks page's prefix slider redraws the prefix section (its two figures), not the page's
    twelve; the Softmax page's scale slider and live factor their own sections, and a new prompt there the live model's
    section with its box. The URL still follows."""

    async def go():
        s = Session(port, "masks", query=f"prompt={urllib.parse.quote(PROMPT)}&layer=2")
        _, errors = await s.open()
        assert not errors and {"m_prefix", "a_prefix", "m_causal", "d_causal"} <= set(s.charts)
        others = {k: v for k, v in s.charts.items() if not k.endswith("prefix")}
        prefix = WidgetState(id=s.widgets["prefix"][1].id)
        prefix.double_array_value.data.append(5)
        _, errors = await s.rerun((prefix,))
        assert not errors and s.drawn == ["prefix"]  # no other control, no other section
        allowed = json.loads(s.charts["m_prefix"])["data"]
        assert allowed and {k: v for k, v in s.charts.items() if not k.endswith("prefix")} == others
        query = urllib.parse.parse_qs(s.query)
        assert query["prefix"] == ["5"] and query["layer"] == ["2"] and query["prompt"] == [PROMPT]

        s = Session(port, "softmax")
        _, errors = await s.open()
        assert not errors
        live = {"sm_live_heatmap", "sm_entropy", "sm_entropy_curve", "sm_next"}
        # the live factor's part holds the prompt box (the sections above do not read the prompt): a new prompt reruns
        # that part alone, not the variance, one-row and cosine sections
        for key, own, outside in (
            ("sm_log2s", {"sm_row", "sm_curves"}, {"sigma", "dk", "prompt"}),
            ("live_c", live, {"sigma", "dk", "sm_log2s", "q_norm"}),
            ("prompt", live, {"sigma", "dk", "sm_log2s", "q_norm"}),
        ):
            before = dict(s.charts)
            _, errors = await s.rerun((s.move(key),))
            assert not errors and key in s.drawn and not outside & set(s.drawn), s.drawn
            changed = {k for k in s.charts if s.charts[k] != before.get(k)}
            assert changed and changed <= own | {"sm_entropy_curve", "sm_next"}, changed
            assert f"{key}=" in s.query

    aio.run(go())
