"""The placeholder entry point loads the three shipped models and lists them (until the app shell lands)."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).parents[2] / "app.py"


def test_app_lists_the_three_shipped_models_in_both_languages():
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    assert not at.exception
    df = at.dataframe[0].value
    assert list(df.iloc[:, 0]) == ["encoder", "decoder", "encoder-decoder"]
    assert at.title[0].value == "Attention Lab"
    at.sidebar.selectbox(key="lang").select("zh").run()
    assert not at.exception
    assert at.title[0].value == "注意力实验室"
    assert "模型" in at.dataframe[0].value.columns
