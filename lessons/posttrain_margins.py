"""The post-training page's first figure: the shipped decoder's margin log π(chosen) − log π(rejected) on every
held-out pair, measured at once (a fraction of a second, cached); after a run, the trained (SFT + DPO) margins
beside them."""

import streamlit as st

import viz
from models.training import posttrain as P
from ui import charts
from ui.i18n import t
from ui.posttrain_loaders import shipped_held


def _numbers(margins: list[float]) -> tuple[str, str]:
    return f"{sum(m > 0 for m in margins) / len(margins):.0%}", f"{sum(margins) / len(margins):+.2f}"


def margins_section(fig_scale: float, results: dict | None = None, where=None):
    """Draw the figure in a new slot (the shipped decoder alone) and return the slot; with a finished run's results
    and that slot, draw it again there with the trained margins beside the shipped ones."""
    slot = where if where is not None else st.empty()
    base = P.margins(shipped_held())
    names = [str(i + 1) for i in range(len(base))]
    title = t("posttrain_margins.title", n=len(base))
    common = dict(x_title=t("posttrain_margins.x"), y_title=t("posttrain_margins.y"), title=title, text_fmt=None,
                  scale=fig_scale)  # fmt: skip
    acc, mean = _numbers(base)
    with slot.container():  # a second call replaces what the first drew
        if results is None:
            charts.plot(st, viz.bars(base, names, **common), key="pt_margins")
            st.caption(t("posttrain_margins.before", acc=acc, mean=mean))
            return slot
        after = P.margins(results["held"]["dpo"])
        shown = (t("posttrain_margins.trained"), t("posttrain_margins.shipped"))
        spec = viz.bars(after, names, reference=base, names_shown=shown, **common)
        charts.plot(st, spec, key="pt_margins_trained")
        t_acc, t_mean = _numbers(after)
        st.caption(t("posttrain_margins.after", acc=t_acc, mean=t_mean, base_acc=acc, base_mean=mean))
    return slot
