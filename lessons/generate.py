"""Decoder-only: generate one token at a time, with the distribution, the attention row and the KV cache."""

import streamlit as st

import viz
from models import analysis
from models.inspection.experiments import kv_dot_products, top_probs
from ui import charts, controls, score_scale, shell, state, toy_words
from ui.i18n import names, t, viz_labels
from ui.loaders import generation
from ui.params import DECODING, MAX_NEW

TOP = 10

settings = state.current()
model_name = shell.published_or(settings, "decoder", "decoder")  # a published decoder (GPT-2, Qwen, ...) if picked
model = shell.model_or_stop(settings, model_name, always="generate.always_decoder")
text = shell.prompt_or_stop(settings, model)
start = toy_words.generate_start(model_name, text)  # the app's default ends a sentence: continue its start
text = start or text
cfg = model.config

for name in ("decoding", "temp", "top_k", "top_p", "seed", "max_new"):
    state.ensure(name)
c1, c2, c3 = st.columns(3)
c1.segmented_control(
    t("generate.decoding"), DECODING, key="decoding", format_func=names("generate.decoding"), required=True
)
c2.number_input(t("generate.seed"), 0, 9999, key="seed", help=t("generate.seed_help"))
c3.slider(t("generate.max_new"), 1, MAX_NEW, key="max_new")
greedy = st.session_state["decoding"] == "greedy"
c1, c2, c3 = st.columns(3)
c1.slider(t("generate.temp"), 0.05, 3.0, step=0.05, key="temp", help=t("generate.temp_help"))
c2.slider(t("generate.top_k"), 0, 100, key="top_k", help=t("generate.top_k_help"), disabled=greedy)
c3.slider(t("generate.top_p"), 0.05, 1.0, step=0.05, key="top_p", help=t("generate.top_p_help"), disabled=greedy)
shell.track("decoding", "temp", "top_k", "top_p", "seed", "max_new")
s = st.session_state
steps = generation(
    settings.weights, text, greedy, s["temp"], s["top_k"], s["top_p"], s["seed"], s["max_new"], model_name
)
if not steps:
    st.info(t("generate.no_room", max_len=cfg.max_len))
    shell.stop()

n = controls.stepper("step", len(steps))
step = steps[n - 1]
prompt_len = len(steps[0].ids) - 1
context = model.tokenizer.token_strs(step.ids[:-1])  # what the new token's query attended over
generated = [st_.token for st_ in steps[:n]]
st.markdown(
    t("generate.so_far", n=n, total=len(steps))
    + " "
    + " ".join(shell.code_span(tok) for tok in context[:prompt_len])
    + " **→** "
    + " ".join(shell.code_span(tok) for tok in generated[:-1])
    + f" **{shell.code_span(generated[-1])}**"
)
if step.token_id in model.eos_ids:
    st.caption(t("generate.eos"))

# ---------------------------------------------------------------- the distribution
raw = analysis.softmax(step.logits)  # temperature 1, no top-k/top-p: the model's own distribution
order, names_, shown = top_probs(model, step.probs, TOP)  # the distribution the token was drawn from
chosen = [i for i, tok_id in enumerate(order) if tok_id == step.token_id]
c1, c2 = st.columns(2)
charts.plot(
    c1,
    viz.bars(
        shown,
        names_,
        x_title=t("common.next_token"),
        y_title=t("common.prob"),
        title=t("generate.probs_title", n=n, temp=f"{s['temp']:g}"),
        highlight=chosen or None,
        text_fmt=".2f",
        y_range=(0, 1.05),
        reference=raw[order],
        names_shown=(t("generate.used_greedy" if greedy else "generate.used"), t("generate.raw")),
        scale=settings.figure_scale,
    ),
    key="gen_probs",
)
entropy = float(analysis.row_entropy(step.probs))
c1.caption(
    t(
        "generate.probs_caption",
        token=step.token,
        p=f"{step.probs[step.token_id]:.3f}",
        h=f"{entropy:.2f}",
        mode=names("generate.decoding")(s["decoding"]),
        rank=int((step.probs > step.probs[step.token_id]).sum()) + 1,
    )
)
if start:
    c1.caption(t("generate.default_start", prompt=shell.code_span(start)))

# ---------------------------------------------------------------- the new token's attention row
with c2:
    layer, _ = controls.layer_head(cfg, with_head=False)
rows = step.attention["decoder.self"][layer]  # [H, context]
charts.plot(
    c2,
    viz.head_rows(
        rows,
        context,
        title=t("generate.row_title", layer=layer + 1),
        labels=viz_labels(),
        scale=settings.figure_scale,
    ),
    key="gen_row",
)
c2.caption(t("generate.row_caption", n=len(context)))
st.markdown(t("generate.intro"))  # under the figures it explains: on a 1366x768 projector the page opens on them

# ---------------------------------------------------------------- the KV cache
st.subheader(t("generate.kv_title"))
n_new = prompt_len if n == 1 else 1
charts.plot(
    st,
    viz.kv_cache(
        context,
        n_new,
        cfg.n_layers,
        title=t("generate.kv_fig", n=n),
        reused=t("generate.kv_reused"),
        new=t("generate.kv_new"),
        labels=viz_labels(),
        scale=settings.figure_scale,
    ),
    key="gen_kv",
)
st.caption(t("generate.kv_legend"))
with_cache, without = kv_dot_products(cfg.n_layers, cfg.n_heads, prompt_len, n)
st.markdown(
    t(
        "generate.kv_numbers" if n > 1 else "generate.kv_numbers_prefill",
        step_with=f"{with_cache[-1]:,}",
        step_without=f"{without[-1]:,}",
        total_with=f"{with_cache.sum():,}",
        total_without=f"{without.sum():,}",
        ratio=f"{without.sum() / with_cache.sum():.1f}",
        L=len(context),
        layers=cfg.n_layers,
        heads=cfg.n_heads,
        kv_heads=cfg.kv_heads,
        d=cfg.d_head,
        floats=f"{2 * cfg.n_layers * cfg.kv_heads * cfg.d_head * len(context):,}",
    )
)
st.markdown(t("generate.temperature_vs_scale", scale=score_scale.scale_text(cfg)))
