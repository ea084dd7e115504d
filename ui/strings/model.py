"""Names of the models: the sidebar's picker and the pages that name a model."""

STRINGS: dict[str, dict[str, str]] = {
    "model.label": {"en": "Model", "zh": "模型"},
    "model.encoder": {"en": "Encoder-only (BERT-style)", "zh": "仅编码器（BERT 式）"},
    "model.decoder": {"en": "Decoder-only (GPT-style)", "zh": "仅解码器（GPT 式）"},
    "model.encoder-decoder": {
        "en": "Encoder-decoder (original Transformer)",
        "zh": "编码器-解码器（原始 Transformer）",
    },
    "model.minilm": {"en": "MiniLM-L6 (pretrained, English)", "zh": "MiniLM-L6（预训练，英文）"},
    "model.missing": {
        "en": "{name} — not installed",
        "zh": "{name}——未安装",
    },
    "model.local": {"en": "{name} · {family} {arch} · {size}", "zh": "{name} · {family} {arch} · {size}"},
    "model.unusable": {"en": "{name} — cannot be used: {error}", "zh": "{name}——无法使用：{error}"},
    "model.too_large": {
        "en": "{name} · {size} · too large (limit {limit})",
        "zh": "{name} · {size} · 过大（上限 {limit}）",
    },
    "model.too_large_error": {
        "en": "{name} has {size} parameters: too large for this machine (the limit, `{env}`, is {limit}). "
        "Pick a smaller model, or raise the limit if the machine has the memory.",
        "zh": "{name} 有 {size} 个参数，对本机来说太大（上限 `{env}` 为 {limit}）。请选择更小的模型；如果内存足够，也可以调高上限。",
    },
    "model.kind.decoder": {"en": "decoder", "zh": "解码器"},
    "model.kind.encoder": {"en": "encoder", "zh": "编码器"},
    "model.kind.encoder-decoder": {"en": "encoder-decoder", "zh": "编码器-解码器"},
    "model.loading": {
        "en": "Loading {name} ({size} parameters, {weights}): reading the weights into memory…",
        "zh": "正在加载 {name}（{size} 参数，{weights}）：把权重读入内存……",
    },
    "model.loading_pretrained": {
        "en": "Loading {name} ({weights}): reading the pretrained weights into memory, a few seconds the first time…",
        "zh": "正在加载 {name}（{weights}）：把预训练权重读入内存，首次需要几秒钟……",
    },
    # issue 30: which precision a published model's matmuls run in (models/precision.py, ui/precision_ui.py)
    "model.precision.bfloat16": {
        "en": "Published models run their matmuls in **bfloat16** ({why}); softmax, attention weights, norms and "
        "everything drawn stay float32. Set `{env}=float32` to run float32.",
        "zh": "已发布模型的矩阵乘法以 **bfloat16** 运行（{why}）；softmax、注意力权重、归一化与所有绘制的数值仍为 "
        "float32。设置 `{env}=float32` 可改为 float32。",
    },
    "model.precision.float32": {
        "en": "Published models run in **float32** ({why}). Set `{env}=bfloat16` for faster bfloat16 matmuls.",
        "zh": "已发布模型以 **float32** 运行（{why}）。设置 `{env}=bfloat16` 可使用更快的 bfloat16 矩阵乘法。",
    },
    "model.precision.why.auto_native": {
        "en": "auto: this CPU has native bfloat16",
        "zh": "auto：此 CPU 原生支持 bfloat16",
    },
    "model.precision.why.auto_plain": {
        "en": "auto: this CPU lacks native bfloat16",
        "zh": "auto：此 CPU 不原生支持 bfloat16",
    },
    "model.precision.why.set": {"en": "set by {env}", "zh": "由 {env} 设定"},
}
