"""Every user-visible string, in English and 简体中文. Pages call t(key, **fields)."""

from __future__ import annotations

LANGUAGES = {"en": "English", "zh": "简体中文"}

STRINGS: dict[str, dict[str, str]] = {
    "app.title": {"en": "Attention Lab", "zh": "注意力实验室"},
    "app.intro": {
        "en": "Small live Transformers, trained by this project on its own generated data. "
        "The lesson pages come next; here are the shipped models.",
        "zh": "本项目用自己生成的数据训练的小型 Transformer，实时运行。课程页面即将上线；下面是随附的模型。",
    },
    "lang.label": {"en": "Language", "zh": "语言"},
    "models.header": {"en": "Shipped models", "zh": "随附的模型"},
    "col.model": {"en": "model", "zh": "模型"},
    "col.norm_position": {"en": "norm position", "zh": "归一化位置"},
    "col.layers": {"en": "layers", "zh": "层数"},
    "col.d_model": {"en": "d_model", "zh": "d_model"},
    "col.heads": {"en": "heads", "zh": "头数"},
    "col.norm": {"en": "norm", "zh": "归一化"},
    "col.ffn": {"en": "FFN", "zh": "前馈网络"},
    "col.pe": {"en": "positions", "zh": "位置编码"},
    "col.params": {"en": "parameters", "zh": "参数量"},
    "col.metrics": {"en": "Held-out metrics (measured after training)", "zh": "留出集指标（训练后测得）"},
    "weights.error": {"en": "This model could not be loaded: {error}", "zh": "无法加载该模型：{error}"},
}


def t(key: str, lang: str = "en", **fields: object) -> str:
    """The string for key in lang (English when a translation is missing), with {fields} filled."""
    entry = STRINGS[key]
    return entry.get(lang, entry["en"]).format(**fields)
