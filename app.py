"""Attention Lab entry point. Placeholder until the app shell lands: the shipped models in a table."""

import streamlit as st

import models
from models.analysis import parameter_counts
from ui.i18n import LANGUAGES, t

st.set_page_config(page_title="Attention Lab", layout="wide")


@st.cache_resource
def load_model(name: str) -> models.LiveModel:
    return models.load(name)


lang = st.sidebar.selectbox("Language / 语言", list(LANGUAGES), format_func=LANGUAGES.get, key="lang")
st.title(t("app.title", lang))
st.write(t("app.intro", lang))
st.subheader(t("models.header", lang))
rows, metrics = [], {}
for name in models.SHIPPED:
    try:
        m = load_model(name)
    except models.WeightsError as e:
        st.error(t("weights.error", lang, error=str(e)))
        continue
    c = m.config
    rows.append(
        {
            t("col.model", lang): name,
            t("col.norm_position", lang): c.norm_position,
            t("col.layers", lang): c.n_layers,
            t("col.d_model", lang): c.d_model,
            t("col.heads", lang): c.n_heads,
            t("col.norm", lang): c.norm,
            t("col.ffn", lang): c.activation,
            t("col.pe", lang): c.positional,
            t("col.params", lang): f"{sum(parameter_counts(c).values()):,}",
        }
    )
    metrics[name] = m.meta.get("metrics", {})
st.dataframe(rows, hide_index=True)
st.subheader(t("col.metrics", lang))
for name, values in metrics.items():
    st.text(f"{name}: " + ", ".join(f"{k} = {v:.3g}" for k, v in values.items()))
