"""The scaling page's timeline: the table is the catalog's, by date, with 'not published' where the source
is silent; the bars are the catalog's tokens per parameter; the corrections and the budget readout are computed."""

import viz
from models.teaching import catalog, scaling
from tests.pages.apptest import array, markdown_text, open_app, titled


def page(**query):
    return open_app("scaling", **query)


def by_header(at, header: str) -> dict[str, list]:
    for tb in at.table:
        df = tb.value
        if header in df.columns:
            return {str(c): list(df[c]) for c in df.columns}
    raise AssertionError(f"no table with a column {header!r}")


def test_timeline_table_is_the_catalog_by_date():
    at = page()
    rows = by_header(at, "date")
    releases = catalog.timeline()
    assert rows["model"] == [r.title for r in releases]
    assert rows["date"] == sorted(rows["date"])
    columns = ("parameters: computed (published)", "training tokens", "context", "attention")
    for r, params, tokens, context, attn in zip(releases, *(rows[c] for c in columns), strict=True):
        if r.model is None:  # GPT-4: nothing typed in
            assert params == tokens == context == attn == "not published"
            continue
        assert params == f"{viz.short_count(catalog.total(r.model))} ({viz.short_count(int(r.model.published))})"
        assert context == f"{r.config.max_len:,}" and attn == catalog.attention_kind(r.config)
        assert (tokens == "not published") == (r.tokens is None)
    llama = dict(zip(rows["model"], rows["attention"], strict=True))
    assert llama["LLaMA-65B"] == "MHA" and llama["Llama-2-70B"] == "GQA" and llama["Llama-2-7B"] == "MHA"


def test_tokens_per_parameter_bars():
    fig = titled(page(), "Training tokens per parameter")
    values = array(fig["data"][0]["y"])
    counted = [r for r in catalog.timeline() if catalog.tokens_per_parameter(r) is not None and not r.based_on]
    assert values.tolist() == [catalog.tokens_per_parameter(r) for r in counted]
    assert set(array(fig["data"][1]["y"]).tolist()) == {20.0}


def test_corrections_are_computed():
    text = markdown_text(page())
    assert "LLaMA-1 sizes are 7/13/33/65B" in text
    assert "×4.01**: 32,000 tokens" in text and "128,256" in text
    assert "Llama 2 used 2T and Llama 3 15T tokens" in text
    assert "70M to 16B parameters" in text
    assert f"LLaMA-7B saw {1e12 / 6_738_415_616:.0f} tokens per parameter" in text


def test_budget_readout_follows_the_factor():
    for factor in (10, 1000):
        rows = by_header(page(tl_factor=str(factor)), "parameters ×")
        for (a, b), n, d in zip(scaling.EXPONENTS.values(), rows["parameters ×"], rows["tokens ×"], strict=True):
            assert (n, d) == (f"{factor**a:.3g}", f"{factor**b:.3g}")
        assert rows["fit"][0].startswith("Kaplan") and rows["a"][-1] == "0.46"
    text = markdown_text(page(tl_factor="10"))
    assert "Kaplan's fit makes the model 5.37× larger" in text and "2.88× larger on 3.47× the tokens" in text


def test_chinese():
    at = page(lang="zh")
    assert "模型时间线" in markdown_text(at) or any("模型时间线" in h.value for h in at.header)
    assert by_header(at, "日期")["注意力"][-1] == "GQA"


def test_the_gpt1_note_says_it_runs_here():
    """GPT-1's note names the Hub id the loader reads (models.published.families has its model_type) and both ways to
    add it."""
    from models.published import families

    assert "openai-gpt" in families.FAMILIES  # openai-community/openai-gpt's config.json model_type
    for lang, add in (("en", "“Add a model…”"), ("zh", "“添加模型……”")):
        text = markdown_text(page(lang=lang))
        assert "`openai-community/openai-gpt`" in text and add in text
        assert "`python -m models.fetch openai-community/openai-gpt`" in text
