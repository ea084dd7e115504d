"""The sidebar's precision switch and its line saying which precision this session's published model runs in
(issue 30, models/core/precision.py).

Per session: the choice travels in the weights key every loader takes (ui/precision_keys.py), so each precision of
a model is loaded once and shared by the sessions that pick it. $ATTENTION_LAB_PRECISION (default auto) is where a
new session starts.
"""

from __future__ import annotations

import streamlit as st

from models.core import precision

from . import device_ui, precision_keys
from .i18n import t
from .precision_keys import KEY


def running() -> tuple[str, str]:
    """(the dtype's name, the why-key) of this session's published model: its toggle resolved on this machine;
    random-init weights are built float32."""
    if precision_keys.base(st.session_state.get("weights", "trained")) != "trained":
        return "float32", "random"
    value = precision_keys.session_choice()
    name = precision_keys.dtype_name(value)
    if value == "auto":
        if name == "bfloat16" and device_ui.on_gpu():
            return name, "auto_gpu"
        return name, "auto_native" if name == "bfloat16" else "auto_plain"
    return name, "set" if value == precision_keys.default_choice() else "chosen"


def line() -> str:
    """One line for the sidebar, under the switch, in this run's language: what runs in this session, and why."""
    name, why = running()
    reason = t(f"model.precision.why.{why}", env=f"{precision.ENV}={precision_keys.default_choice()}")
    return t(f"model.precision.{name}", why=reason)


def toggle() -> None:
    """auto | float32 | bfloat16 under the model picker, drawn only for a published model (the toy models always run
    float32). Hidden, the session's choice is kept: Streamlit forgets the value of a widget it does not draw."""
    ss = st.session_state
    if ss.get(KEY) not in precision.CHOICES:
        ss[KEY] = precision_keys.default_choice()
    if not precision_keys.published(str(ss.get("model", ""))):
        ss[KEY] = ss[KEY]  # kept for the next published model
        return
    st.segmented_control(
        t("model.precision.label"),
        list(precision.CHOICES),
        key=KEY,
        required=True,
        help=t("model.precision.help", env=precision.ENV, default=precision_keys.default_choice()),
    )
    st.caption(line())
    st.caption(device_ui.line(running()[0]))  # which device runs it: the GPU (bfloat16) or the CPU


def loading_suffix(weights: str) -> str:
    """ " · bfloat16" for the loading status of a published model's trained weights ("" for random init)."""
    base, dtype = precision_keys.split(weights)
    return "" if base != "trained" else f" · {dtype or precision_keys.process_dtype() or 'float32'}"
