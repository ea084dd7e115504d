"""Every figure builder viz exports has at least one spec-parity case in tests/viz/test_specs*.py.

The builders skip Plotly's validation (viz/spec.py); the parity cases are what catches a misspelt
property. A new builder without a case would reach the browser unchecked, so this test fails until
one is added to a CASES dict.
"""

from __future__ import annotations

import importlib
import inspect
import pathlib
import sys
import typing

import viz
from viz.spec import Spec

HERE = pathlib.Path(__file__).parent


def builders() -> dict[str, typing.Callable]:
    """The public callables of viz that return a Spec, by name."""
    found = {}
    for name in viz.__all__:
        obj = getattr(viz, name)
        if inspect.isfunction(obj) and typing.get_type_hints(obj).get("return") is Spec:
            found[name] = obj
    return found


def parity_cases() -> dict[str, typing.Callable]:
    cases = {}
    for path in sorted(HERE.glob("test_specs*.py")):
        module = importlib.import_module(f"tests.viz.{path.stem}")
        cases.update({f"{path.stem}: {k}": v for k, v in getattr(module, "CASES", {}).items()})
    return cases


def test_the_finder_sees_the_builders():
    assert {"heatmap", "lines", "bars", "param_treemap", "scaling_contours", "head_rows", "kv_cache"} <= set(builders())


def test_every_exported_builder_has_a_parity_case():
    wanted = {f.__code__: name for name, f in builders().items()}
    called: set[str] = set()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in wanted:
            called.add(wanted[frame.f_code])

    for make in parity_cases().values():
        sys.setprofile(profile)
        try:
            make()
        finally:
            sys.setprofile(None)
    missing = sorted(set(wanted.values()) - called)
    assert not missing, f"no spec-parity case in tests/viz/test_specs*.py calls {missing}: add one to a CASES dict"


def test_only_ui_charts_hands_figures_to_streamlit():
    """A Spec passed straight to st.plotly_chart would be validated and rebuilt by Plotly (slow), or
    fail; ui.charts.plot wraps it once. So no page or ui module calls plotly_chart itself."""
    root = HERE.parent.parent
    calls = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("lessons", "ui")
        for path in sorted((root / folder).rglob("*.py"))
        if path.name != "charts.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ".plotly_chart(" in line
    ]
    assert not calls, f"draw with ui.charts.plot(where, fig) instead: {calls}"
