"""The trained / random-init weights switch in the sidebar, also named by the rank page."""

STRINGS: dict[str, dict[str, str]] = {
    "weights.label": {"en": "Weights", "zh": "权重"},
    "weights.trained": {"en": "trained", "zh": "已训练"},
    "weights.random": {"en": "random init", "zh": "随机初始化"},
    "weights.help": {
        "en": "Trained: the shipped model. Random init: the same architecture before any training — "
        "compare to see which patterns are learned.",
        "zh": "已训练：随附的模型。随机初始化：训练前的同一架构——对比一下，看看哪些模式是学出来的。",
    },
    "weights.error": {"en": "This model could not be loaded. {error}", "zh": "无法加载该模型。{error}"},
}
