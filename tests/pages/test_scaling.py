"""The model-size and scaling page: counts in the table are the catalog's, the KV cache and ALBERT
metrics follow their formulas, and the budget slider moves the compute-optimal allocation."""

import math

import numpy as np

from models.teaching import catalog, scaling
from tests.pages.apptest import array, markdown_text, open_app, table, titled


def page(**query):
    return open_app("scaling", **query)


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_catalog_table_is_computed():
    rows = table(page())
    for name, computed, diff in zip(rows["model"], rows["computed"], rows["difference"], strict=True):
        p = catalog.BY_NAME[name]
        assert int(computed.replace(",", "")) == catalog.total(p)
        assert diff == f"{catalog.relative_error(p):+.1%}"


def test_kv_cache_and_gqa_saving_for_llama():
    m = metrics(page(cat="Llama-3.1-8B", kv_ctx="8192"))
    assert m["Llama-3.1-8B: KV cache per token"] == "128 KiB"
    assert m["KV cache at 8,192 tokens"] == "1.00 GiB"
    assert m["K/V projection parameters saved"] == f"{32 * 2 * 4096 * 24 * 128:,}"
    m = metrics(page(cat="GPT-2 XL", kv_dtype="float32", kv_ctx="1"))
    assert m["GPT-2 XL: KV cache per token"] == f"{2 * 48 * 25 * 64 * 4 / 1024:,.0f} KiB"
    assert m["K/V projection parameters saved"] == "0"


def test_treemap_total_and_module_tree():
    at = page(cat="BERT-base")
    tm = titled(at, "Where the parameters of BERT-base are")["data"][0]
    values = dict(zip(tm["ids"], array(tm["values"]).tolist(), strict=True))
    assert values["root"] == catalog.total(catalog.BY_NAME["BERT-base"])
    at.toggle(key="sc_tree").set_value(True).run()
    assert "(0-11): 12 x Block(" in at.code[0].value


def test_albert_defaults_match_the_notes():
    m = metrics(page())
    assert m["V × H"] == "23,040,000"
    assert m["V × E + E × H"] == "3,938,304"
    m = metrics(page(albert_v="1000", albert_h="64", albert_e="4096"))
    assert int(m["V × E + E × H"].replace(",", "")) > int(m["V × H"].replace(",", ""))  # E above break-even


def test_budget_moves_the_optimum():
    small, large = page(budget="20"), page(budget="25")
    for at, c in ((small, 1e20), (large, 1e25)):
        rows = table(at, 1)
        n, d = scaling.chinchilla_optimal(c)
        assert rows["D / N"][0] == f"{d / n:.1f}"
        assert rows["D / N"][1] == "20.0"
        assert math.isclose(float(rows["C = 6ND"][0]), c, rel_tol=1e-2)
        assert float(rows["loss (nats per token)"][0]) <= float(rows["loss (nats per token)"][1])


def by_header(at, header: str) -> dict[str, list]:
    return next({str(c): list(tb.value[c]) for c in tb.value.columns} for tb in at.table if header in tb.value.columns)


def test_mixtral_total_and_active_are_counted_and_gpt4_is_a_rumour():
    at = page()
    rows = by_header(at, "active per token")
    i = rows["model"].index("Mixtral 8×7B")
    total, active = (int(rows[c][i].replace(",", "")) for c in ("total parameters", "active per token"))
    assert (total, active) == (catalog.total(catalog.MIXTRAL), catalog.active_total(catalog.MIXTRAL))
    assert round(total / 1e9, 1) == 46.7 and round(active / 1e9, 1) == 12.9
    assert rows["experts / top-k"][i] == "8 / 2" and rows["published (total / active)"][i] == "46.7B / 12.9B"
    j = rows["model"].index("Llama-3.1-8B")  # dense: every parameter is active
    assert rows["total parameters"][j] == rows["active per token"][j]
    assert "**46.7B** (46,702,792,704)" in markdown_text(at) and "**12.9B** (12,879,925,248)" in markdown_text(at)
    assert any("rumours" in i.value and "1.8T" in i.value for i in at.info)


def test_more_experts_grow_the_total_not_the_active_count():
    m8, m64 = metrics(page(moe_n="8", moe_k="2")), metrics(page(moe_n="64", moe_k="2"))
    assert m8["active per token"] == m64["active per token"] == "12.9B"
    assert m8["total parameters"] == "46.7B" and m64["total parameters"] != "46.7B"
    one = metrics(page(moe_n="1", moe_k="1"))  # one expert: the dense Mistral 7B block, all active
    assert one["total parameters"] == one["active per token"]
    clamped = page(moe_n="2", moe_k="8")
    assert any("top-8 needs at least 8 experts" in c.value for c in clamped.caption)
    fig = titled(page(), "block with n experts, top-2")
    total, active = (array(tr["y"]) for tr in fig["data"][:2])
    assert (total >= active).all() and total[-1] > 7 * total[3]  # 64 experts vs 8
    router = 32 * 4096  # d_model per expert and layer: all the active count grows by (top-2 from n = 2 on)
    assert (np.diff(active[1:]) == np.diff(array(fig["data"][0]["x"])[1:]) * router).all()
