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
    "model.local": {"en": "{name} · {size} · {family} {arch}", "zh": "{name} · {size} · {family} {arch}"},
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
    # issue 30: which precision a published model's matmuls run in (models/core/precision.py, ui/precision_ui.py)
    "model.precision.label": {"en": "Precision", "zh": "精度"},
    "model.precision.help": {
        "en": "auto runs a published model's matmuls in bfloat16 on a GPU and where the CPU has native bfloat16 "
        "(AMX or AVX512-BF16), and in float32 elsewhere; softmax, attention weights, norms' statistics and everything drawn "
        "stay float32. The toy models stay float32. This switch is for your session only; new sessions start on "
        "{default} (`{env}`). The Softmax page measures what bfloat16 changes.",
        "zh": "auto：在 GPU 上，以及在原生支持 bfloat16 的 CPU 上（AMX 或 AVX512-BF16），已发布模型的矩阵乘法以 bfloat16 "
        "运行，其余情况用 "
        "float32；softmax、注意力权重、归一化的统计量与所有绘制的数值始终为 float32。玩具模型始终为 float32。此开关只影响你的"
        "会话；新会话从 {default}（`{env}`）开始。Softmax 页面会测量 bfloat16 带来的差异。",
    },
    "model.precision.bfloat16": {
        "en": "Running: **bfloat16** matmuls ({why}). Softmax, attention weights, norms' statistics and everything "
        "drawn stay float32; the toy models always run float32.",
        "zh": "正在运行：**bfloat16** 矩阵乘法（{why}）。softmax、注意力权重、归一化的统计量与所有绘制的数值仍为 float32；"
        "玩具模型始终为 float32。",
    },
    "model.precision.float32": {
        "en": "Running: **float32** ({why}). Softmax, attention weights and everything drawn are float32 either way.",
        "zh": "正在运行：**float32**（{why}）。无论哪种精度，softmax、注意力权重与所有绘制的数值都是 float32。",
    },
    "model.precision.why.auto_native": {
        "en": "auto: this CPU has native bfloat16",
        "zh": "auto：此 CPU 原生支持 bfloat16",
    },
    "model.precision.why.auto_gpu": {"en": "auto: a GPU runs the model", "zh": "auto：模型在显卡（GPU）上运行"},
    "model.precision.why.auto_plain": {
        "en": "auto: this CPU lacks native bfloat16",
        "zh": "auto：此 CPU 不原生支持 bfloat16",
    },
    "model.precision.why.set": {"en": "this server's default, {env}", "zh": "本服务器的默认设置 {env}"},
    "model.precision.why.chosen": {"en": "chosen for this session", "zh": "为本会话选择"},
    "model.precision.why.random": {
        "en": "random-init weights are built in float32",
        "zh": "随机初始化的权重以 float32 构建",
    },
    # issue 30 §2: which device runs a published model (models/core/device.py, ui/device_ui.py)
    "model.device.gpu": {
        "en": "Device: **{dtype}** on the GPU ({name}).",
        "zh": "设备：**{dtype}**，在显卡（GPU，{name}）上运行。",
    },
    "model.device.cpu": {"en": "Device: **{dtype}** on the CPU.", "zh": "设备：**{dtype}**，在 CPU 上运行。"},
    "model.device.fallback": {
        "en": "`{env}=cuda`, but no CUDA GPU is visible to torch here: the CPU runs the models.",
        "zh": "已设置 `{env}=cuda`，但 torch 在这里看不到 CUDA 显卡（GPU）：模型改在 CPU 上运行。",
    },
    "model.device.bad": {
        "en": "`{env}` is set to {value!r}, which is not one of auto, cpu, cuda: published models cannot be loaded "
        "until it is fixed.",
        "zh": "`{env}` 被设为 {value!r}，它不是 auto、cpu、cuda 之一：修正之前无法加载已发布的模型。",
    },
}
