"""The lab's training recipe and "heads forming during training": a step slider replays a trained
variant's snapshots (models.training.snapshots) on the prompt, beside its induction / previous-token scores."""

import numpy as np
import streamlit as st

import viz
from lessons.lab_controls import use_preset
from models import variants
from models.training import snapshots
from ui import lab_wire, shell, state
from ui.i18n import names, t, viz_labels
from ui.loaders import lab_snapshot_run, lab_snapshots
from ui.params import LAB_FIELDS, LAB_PRESETS, SIDES

THRESHOLD = 0.5  # a head whose mean attention to the copied token's successor is at least this copies
PRESET = "induction"  # the lab preset measured to form an induction head (ui.params.LAB_PRESETS)
# The controls' labels of the fields a side can differ from the preset in (d_model and d_ff are their own names)
FIELD_WORDS = {"arch": "arch", "n_layers": "layers", "n_heads": "heads", "n_kv_heads": "kv", "norm_position":
               "norm_position", "norm": "norm", "activation": "activation", "positional": "positional",
               "attn_scale": "scale", "bias": "bias", "tie_embeddings": "tie", "seed": "seed"}  # fmt: skip


def recipe_control() -> str:
    """Default or induction-forming: one recipe for both sides, so their losses stay comparable."""
    state.ensure("lab_recipe")
    st.segmented_control(t("lab.recipe"), list(variants.RECIPES), format_func=names("lab.recipe"), key="lab_recipe",
                         required=True, help=t("lab.recipe_help"))  # fmt: skip
    shell.track("lab_recipe")
    return st.session_state["lab_recipe"]


def _snap_index(side: str, steps: list[int]) -> int:
    """The slider's step (the last one unless the URL or the student chose another), as an index."""
    key = f"{side}_snap"
    if st.session_state.get(key) not in steps:
        st.session_state[key] = steps[-1]
    st.select_slider(t("lab.snap_step"), steps, key=key, help=t("lab.snap_help"))
    shell.track(key)
    return steps.index(st.session_state[key])


def _scores_figure(scores: dict, step: int, head: tuple[int, int], formed: int | None, fig_scale: float):
    x = np.asarray(scores["step"], float) + 1  # a log axis has no 0: the step + 1
    li, hi = head
    series = [viz.Series(t(f"lab.series.{role}"), np.array(snapshots.best(scores[role])), color=viz.HEAD_COLORS[k])
              for k, role in enumerate(("induction", "previous_token")) if role in scores]  # fmt: skip
    if "induction" in scores:
        mine = np.array([s[li][hi] for s in scores["induction"]])
        # The selected head first, so the best-head line is drawn over it where they are the same head; not at
        # all when it is the best head at every snapshot (its dots would only hide under that line).
        if not np.array_equal(mine, series[0].y):
            name = t("lab.series.head", layer=li + 1, head=hi + 1)
            series.insert(0, viz.Series(name, mine, dash="dot", color=viz.HEAD_COLORS[2]))
    vlines = [(formed + 1, t("lab.formed_line"))] if formed is not None else []
    # The label left of its line (a label to the right widens the x axis, as Plotly fits it in), unless the
    # current step's line is just left of it: within the ~0.9 decade the label's text takes. The y axis goes
    # to 1.15 so the label, at the top, sits above every score (at most 1).
    side = "right" if formed is not None and (formed + 1) / 8 <= step + 1 < formed + 1 else "left"
    return viz.lines(x, series, x_title=t("lab.scores_x"), y_title=t("lab.score"), title=t("lab.scores_fig"),
                     log_x=True, vlines=vlines, current=step + 1, vline_labels=side, y_range=(0, 1.15), height=320,
                     scale=fig_scale)  # fmt: skip


def _explain(scores: dict, history: dict, recipe: dict) -> str:
    drop = snapshots.steepest_drop(history["step"], history["loss"], until=recipe.get("repeat_steps"))
    fall = t("lab.loss_falls", start=drop[0], end=drop[1]) if drop else ""
    if "induction" not in scores:
        return t("lab.forming_encoder", prev=f"{snapshots.best(scores['previous_token'])[-1]:.2f}")
    best = snapshots.best(scores["induction"])
    formed = snapshots.forming_step(scores["step"], scores["induction"], THRESHOLD)
    if formed is None:
        return t("lab.forming_none", best=f"{best[-1]:.2f}", threshold=THRESHOLD)
    last = np.array(scores["induction"][-1])
    li, hi = np.unravel_index(int(last.argmax()), last.shape)
    return t("lab.forming_at", step=formed, threshold=THRESHOLD, layer=li + 1, head=hi + 1,
             best=f"{best[-1]:.2f}", first=f"{best[0]:.2f}") + " " + fall  # fmt: skip


def _offer(side: str, recipe: str) -> None:
    """A decoder off the preset (its configuration or its recipe) was not measured to form an induction head
    in the lab's budget: say what was measured, name what differs, and offer the preset in one click."""
    values = {name: st.session_state[f"{side}_{name}"] for name in LAB_FIELDS}
    differ = [name for name in LAB_FIELDS if values[name] != LAB_PRESETS[PRESET][name]]
    if recipe == "induction" and not differ:
        return
    if recipe == "induction":
        fields = t("lab.field_sep").join(t(f"lab.{FIELD_WORDS[n]}") if n in FIELD_WORDS else n for n in differ)
        st.warning(t("lab.forming_unlikely", fields=fields), icon=":material/warning:")
    else:
        st.caption(t("lab.forming_default"))
    st.button(t("lab.use_preset", preset=t(f"lab.preset.{PRESET}")), key=f"{side}_use_preset", on_click=use_preset,
              args=(side, PRESET), icon=":material/auto_awesome:")  # fmt: skip


def _wire(scores: dict, cfg_json: str, trained: str, side: str, step: int, formed: int | None, fig_scale: float):
    """The K-, Q- and V-composition between the variant's best previous-token and best induction heads, at every
    snapshot (ui/lab_wire.py): the wire appears when the head does."""
    pair = lab_wire.pair(scores)
    if pair is None:
        if "induction" in scores and "previous_token" in scores:
            (pl, ph), (il, ih) = (np.unravel_index(int(np.argmax(scores[r][-1])), np.shape(scores[r][-1]))
                                  for r in ("previous_token", "induction"))  # fmt: skip
            st.caption(t("lab_wire.none", pl=pl + 1, ph=ph + 1, il=il + 1, ih=ih + 1))
        return
    (pl, ph), (il, ih) = pair
    w = lab_wire.wire(cfg_json, trained, *pair)
    x = np.asarray(w["step"], float) + 1
    series = [viz.Series(t(f"lab_wire.{k.lower()}"), np.array(w[k]), color=viz.HEAD_COLORS[n])
              for n, k in enumerate(("K", "Q", "V"))]  # fmt: skip
    base = w["baseline"][0]
    vlines = [(formed + 1, t("lab.formed_line"))] if formed is not None else []
    fig = viz.lines(x, series, x_title=t("lab.scores_x"), y_title=t("lab_wire.score"), log_x=True, vlines=vlines,
                    hlines=[(base, t("lab_wire.baseline"))], current=step + 1, height=300, scale=fig_scale,
                    title=t("lab_wire.title", pl=pl + 1, ph=ph + 1, il=il + 1, ih=ih + 1))  # fmt: skip
    shell.plot(fig, f"{side}_snap_wire")
    st.caption(t("lab_wire.caption", baseline=f"{base:.3f}"))


def forming(configs, sides, cfg_jsons, text: str, layer: int, head: int, fig_scale: float, recipe: str) -> None:
    """Per trained side: the step slider, the selected head at that step, and the scores over training."""
    st.header(t("lab.forming_title"))
    st.markdown(t("lab.forming_intro"))
    cols = st.columns(2, gap="large")
    for side, col in zip(SIDES, cols, strict=True):
        cfg, (_, trained, history) = configs[side], sides[side]
        with col:
            st.subheader(t(f"lab.side.{side}"))
            kept = lab_snapshots(cfg_jsons[side], trained) if trained is not None else []
            scores = (history or {}).get("snapshots") or {}
            formed = snapshots.forming_step(scores["step"], scores["induction"], THRESHOLD) if (
                "induction" in scores) else None  # fmt: skip
            if cfg.arch == "decoder" and formed is None:
                _offer(side, recipe)
            if not kept or not scores:
                st.info(t("lab.forming_untrained" if trained is None else "lab.forming_old"))
                continue
            steps = [s for s, _ in kept]
            i = _snap_index(side, steps)
            li, hi = min(layer, cfg.n_layers - 1), min(head, cfg.n_heads - 1)
            tokens, att = lab_snapshot_run(cfg_jsons[side], trained, i, text)
            attn = names("attn")("decoder.self" if cfg.arch == "decoder" else "encoder.self")
            title = t("lab.snap_heat_title", attn=attn, layer=li + 1, head=hi + 1, step=steps[i])
            fig = viz.heatmap(att[li, hi], tokens, tokens, title=title, scale=fig_scale, labels=viz_labels())
            shell.plot(fig, f"{side}_snap_heat", att[li, hi], tokens, tokens)
            fig = _scores_figure(scores, steps[i], (li, hi), formed, fig_scale)
            shell.plot(fig, f"{side}_snap_scores")
            st.markdown(_explain(scores, history, variants.recipe_of(cfg, recipe)))
            if cfg.arch == "decoder":
                _wire(scores, cfg_jsons[side], trained, side, steps[i], formed, fig_scale)
    st.caption(t("lab.forming_source"))
