"""What each head does: a field guide to every head's role (previous token, induction, duplicate token, first
token, diffuse), measured live on seeded random tokens, and one head's query/key map (AttentionViz)."""

import streamlit as st

import viz
from lessons import heads_revisions
from models.inspection.heads import ROLE_THRESHOLDS, ROLES, label_heads, probe_size
from models.inspection.probes import HELD_OUT_SEED
from ui import charts, controls, shell, state
from ui.head_loaders import head_roles, qk_points
from ui.i18n import md, names, t, viz_labels
from ui.loaders import with_status
from ui.params import QK_COLORS

settings = state.current()
model = shell.model_or_stop(settings)
controls.softmax_layers_or_stop(model.config)  # Qwen3.5: its head scores need softmax layers
text = shell.prompt_or_stop(settings, model)
labels = viz_labels()
scale = settings.figure_scale
role_names = {r: t(f"heads.role.{r}") for r in ROLES}
none = t("heads.none")

st.markdown(t("heads.intro"))
scores = with_status(t("heads.computing", name=md(settings.model)), head_roles, settings.model, settings.weights)
roles = label_heads(scores)

# ---------------------------------------------------------------- the field guide
st.subheader(t("heads.guide_title"))
layer, head = controls.layer_head(model.config)
grid = viz.role_grid(
    roles, scores, role_names, none_name=none, title=t("heads.grid_title"), selected=(layer, head), scale=scale,
    labels=labels,
)  # fmt: skip
charts.plot(st, grid, key="roles")
n, span = probe_size(model)
before, after = model.template
special = " … ".join(" ".join(model.tokenizer.token_strs(ids)) for ids in (before, after) if ids)
st.caption(
    t(
        "heads.grid_caption",
        n=n,
        span=span,
        template=shell.code_span(special) if special else t("heads.no_specials"),
        seed=HELD_OUT_SEED,
        which=t(f"heads.key.{model.config.arch}"),
    )
)
mine = ", ".join(f"{role_names[r]} {scores[r][layer, head]:.2f}" for r in ROLES)
st.markdown(t("heads.this_head", scores=mine))

scores_tab, thresholds_tab, roles_tab = st.tabs(
    [t("heads.table_title"), t("heads.thresholds_title"), t("heads.roles_title")]
)  # text and one table only: cheap to build even when not shown
table = viz.role_table(
    roles, scores, role_names, none_name=none, head_word=t("heads.col.head"), role_word=t("heads.col.role")
)
scores_tab.dataframe(table, hide_index=True, height=min(36 * (len(table[t("heads.col.head")]) + 1), 400))

thresholds_tab.markdown(
    "\n".join(
        "- " + t("heads.threshold_line", role=role_names[r], value=f"{ROLE_THRESHOLDS[r]:.2f}",
                 reason=t(f"heads.reason.{r}"))
        for r in ROLES
    )
)  # fmt: skip
roles_tab.markdown(t("heads.roles_explain"))

# ---------------------------------------------------------------- the query/key map of the selected head
st.subheader(t("heads.qk_title"))
state.ensure("qk_color")
st.segmented_control(t("heads.qk_color"), QK_COLORS, format_func=names("heads.qk_color"), key="qk_color", required=True)
shell.track("qk_color")
points = qk_points(settings.model, settings.weights, text, layer, head)
role = role_names.get(roles[layer, head], none) if roles[layer, head] else none
fig = viz.qk_scatter(
    points.xy,
    points.is_key,
    points.position,
    points.sequence,
    points.tokens,
    color_by=st.session_state["qk_color"],
    explained=points.explained,
    prompt_name=t("heads.prompt"),
    extra_name=t("heads.random"),
    title=t("heads.qk_plot_title", layer=layer + 1, head=head + 1, role=role),
    scale=scale,
    labels=labels,
)
charts.plot(st, fig, key="qk")
st.caption(
    t(
        "heads.qk_caption",
        n=int(points.sequence.max()),
        c=f"{points.c:.2f}",
        share=f"{sum(points.explained):.0%}",
    )
)
st.markdown(t("heads.qk_look"))

# ---------------------------------------------------------------- heads forming during training (real checkpoints)
heads_revisions.section(scale)
