"""Strings of the explorer's view of a model with Gated DeltaNet linear-attention layers (Qwen3.5)."""

STRINGS: dict[str, dict[str, str]] = {
    "explorer_linear.kind.softmax": {"en": "softmax", "zh": "softmax"},
    "explorer_linear.kind.linear": {"en": "linear", "zh": "线性"},
    "explorer_linear.kinds": {
        "en": "This model mixes two kinds of layer. Layer by layer: {kinds}.",
        "zh": "该模型混合了两种层。逐层：{kinds}。",
    },
    "explorer_linear.softmax_title": {
        "en": "Layer {layer} (softmax attention), head {head}",
        "zh": "第 {layer} 层（softmax 注意力），头 {head}",
    },
    "explorer_linear.linear_title": {
        "en": "Layer {layer} (Gated DeltaNet), value head {head}: implied attention",
        "zh": "第 {layer} 层（Gated DeltaNet），值头 {head}：隐含注意力",
    },
    "explorer_linear.softmax_caption": {
        "en": "A softmax layer: each row is a probability distribution over the keys (0 to 1, rows sum to 1).",
        "zh": "softmax 层：每一行都是对键的概率分布（0 到 1，每行之和为 1）。",
    },
    "explorer_linear.linear_caption": {
        "en": "A Gated DeltaNet layer (Yang, Kautz & Hatamizadeh 2024) keeps a state instead of attending, but its "
        "output is still a mix of the value vectors, O = Ã·V, with Ã = (QKᵀ ⊙ Γ ⊙ M)(I + tril(diag(β)(KKᵀ ⊙ Γ), "
        "−1))⁻¹ diag(β), DeltaNet's chunked (UT) form (Yang et al. 2024, “Parallelizing Linear Transformers with the "
        "Delta Rule over Sequence Length”): the decay Γ fades old tokens, and the delta rule lets a later token "
        "overwrite what an earlier one wrote. V, Q and K are taken after the layer's causal convolution of width "
        "{kernel} (and its SiLU), so column j stands for a mix of tokens j−{back} … j, not token j alone; O is taken "
        "before the gated norm and the output projection. Its rows can be negative and need not sum to 1, so the "
        "colour scale diverges: blue below 0, red above, white at 0.",
        "zh": "Gated DeltaNet 层（Yang、Kautz 与 Hatamizadeh 2024）不做注意力，而是维护一个状态，但其输出仍是值向量的混合 "
        "O = Ã·V，其中 Ã = (QKᵀ ⊙ Γ ⊙ M)(I + tril(diag(β)(KKᵀ ⊙ Γ), −1))⁻¹ diag(β)，即 DeltaNet 的分块（UT）形式"
        "（Yang 等 2024，“Parallelizing Linear Transformers with the Delta Rule over Sequence Length”）：衰减 Γ "
        "让旧词元逐渐淡出，delta 规则让后来的词元覆盖先前写入的内容。V、Q、K 取自该层宽度为 {kernel} 的因果卷积"
        "（及其 SiLU）之后，所以第 j 列代表词元 j−{back} … j 的混合，而不只是词元 j；O 取自门控归一化和输出投影之前。"
        "它的行可以为负，且不必和为 1，因此使用发散色阶：低于 0 为蓝，高于 0 为红，0 为白。",
    },
    "explorer_linear.skipped": {
        "en": "The all-heads grid, the lines view, attention rollout, value-weighted norms and the sections "
        "below them assume every layer is a softmax over keys, so they are not drawn for this model.",
        "zh": "所有头网格、连线视图、注意力展开、按值加权的范数以及其下的各部分都假设每一层都是对键的 softmax，"
        "因此不为该模型绘制。",
    },
    "explorer_linear.compare_title": {
        "en": "One softmax head beside one linear-attention head",
        "zh": "一个 softmax 头与一个线性注意力头并排",
    },
    "explorer_linear.compare_text": {
        "en": "Both read the same prompt. The softmax head (left) spends a budget of 1 per row on the keys "
        "it matches. The linear-attention head (right) has no budget: its weights shrink with distance "
        "(the decay), and a cell can be negative: either q·k itself is negative there (on random q and k, most "
        "negative cells are of this kind) or a later, similar key partly erased that value.",
        "zh": "二者读取相同的输入。softmax 头（左）在每一行把总量为 1 的权重分给它匹配的键。线性注意力头（右）"
        "没有这个总量：权重随距离衰减，格子也可以为负：要么那里的 q·k 本身为负（在随机的 q、k 上，大多数负值格子属于这种），"
        "要么那个值被后来相似的键部分擦除。",
    },
}
