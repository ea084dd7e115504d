"""Names of a model's parameter groups (parameter_counts() components) for the treemaps and bars."""

STRINGS: dict[str, dict[str, str]] = {
    "part.embeddings": {"en": "embeddings", "zh": "嵌入"},
    "part.attention": {"en": "attention", "zh": "注意力"},
    "part.attention.q": {"en": "W_q", "zh": "W_q"},
    "part.attention.k": {"en": "W_k", "zh": "W_k"},
    "part.attention.v": {"en": "W_v", "zh": "W_v"},
    "part.attention.o": {"en": "W_o", "zh": "W_o"},
    "part.ffn": {"en": "feed-forward", "zh": "前馈网络"},
    "part.norms": {"en": "norms", "zh": "归一化层"},
    "part.head": {"en": "output head", "zh": "输出头"},
    "part.pooler": {"en": "pooler", "zh": "池化层"},
    "part.root": {"en": "all parameters", "zh": "全部参数"},
}
