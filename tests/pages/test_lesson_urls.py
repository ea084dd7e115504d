"""Any URL a student can paste opens every lesson page without a traceback: random values for
each page's own parameters either parse or fall back to their defaults with a notice."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.pages.apptest import open_app
from ui.pages import LESSONS
from ui.params import PARAMS

JUNK = st.one_of(
    st.text(max_size=12),
    st.integers(-(10**6), 10**6).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(["", "0", "1", "-1", "nan", "inf", "1e309", "0,1,2", "0,,x", "<script>", "[MASK]", "一二三"]),
)
NAMES = sorted(PARAMS)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    page=st.sampled_from([lesson.name for lesson in LESSONS]),
    query=st.dictionaries(st.sampled_from(NAMES), JUNK, max_size=4),
)
def test_random_parameters_never_raise(page, query):
    at = open_app(page, **query)  # open_app asserts that no exception was shown
    starts = [b for b in at.button if (b.key or "").startswith("start_")]  # the guided-lessons list
    assert at.get("plotly_chart") or starts or at.info or at.error or at.warning
