"""Home: what the app is, how to add a real model, and a link to each lesson."""

import streamlit as st

from ui.i18n import t
from ui.pages import LESSONS

st.title(t("home.title"))
st.markdown(t("home.intro"))
st.markdown(t("home.real_models", add=t("fetch.open"), model=t("model.label")))
for page in LESSONS:
    st.page_link(page.path, label=t(f"nav.{page.name}"), icon=page.icon)
    st.caption(t(f"home.{page.name}"))
st.divider()
st.caption(t("home.models"))
