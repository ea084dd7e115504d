"""Strings of the softmax and √d_k lesson."""

STRINGS: dict[str, dict[str, str]] = {
    "softmax.intro": {
        "en": "Scaled dot-product attention computes softmax(q·k / √d_k). The division is not cosmetic. It keeps "
        "the scores at unit scale whatever the head size, so the softmax is neither an argmax nor a flat average, "
        "and gradients can flow.",
        "zh": "缩放点积注意力计算 softmax(q·k / √d_k)。这个除法并非可有可无：无论头的维度多大，它都让打分保持单位量级，"
        "使 softmax 既不变成 argmax，也不变成平均，梯度才能流动。",
    },
    "softmax.var_title": {"en": "Why divide by √d_k: the variance argument", "zh": "为什么除以 √d_k：方差论证"},
    "softmax.var_sampling": {
        "en": "Below, 20,000 random pairs (q, k) of 1024 dimensions are drawn once: their first d_k entries give q·k "
        "for each d_k, and σ multiplies every q·k by σ².",
        "zh": "下面一次性抽取 20,000 对 1024 维的随机 (q, k)：取前 d_k 个分量即得到各个 d_k 下的 q·k，"
        "σ 则把每个 q·k 乘以 σ²。",
    },
    "softmax.var_source": {
        "en": "Vaswani et al. 2017, §3.2.1 and footnote 4. The entries are independent with mean 0, so the variances of "
        "the d_k products add up.",
        "zh": "Vaswani 等 2017，§3.2.1 及脚注 4。各分量独立且均值为 0，所以 d_k 个乘积的方差相加。",
    },
    "softmax.sigma_help": {"en": "Standard deviation of every entry of q and k.", "zh": "q 与 k 每个分量的标准差。"},
    "softmax.raw": {"en": "q·k (Var {var})", "zh": "q·k（方差 {var}）"},
    "softmax.scaled": {"en": "q·k/√d_k (Var {var})", "zh": "q·k/√d_k（方差 {var}）"},
    "softmax.density": {"en": "density", "zh": "概率密度"},
    "softmax.hist_title": {
        "en": "{n} samples, d_k = {d_k}, σ = {sigma}",
        "zh": "{n} 个样本，d_k = {d_k}，σ = {sigma}",
    },
    "softmax.empirical": {"en": "empirical Var(q·k)", "zh": "实测 Var(q·k)"},
    "softmax.theory": {"en": "theory d_k·σ⁴", "zh": "理论值 d_k·σ⁴"},
    "softmax.empirical_scaled": {"en": "empirical Var(q·k/√d_k)", "zh": "实测 Var(q·k/√d_k)"},
    "softmax.var_axis": {"en": "variance", "zh": "方差"},
    "softmax.curve_title": {
        "en": "Variance against d_k ({n} samples per point)",
        "zh": "方差随 d_k 的变化（每点 {n} 个样本）",
    },
    "softmax.var_numbers": {
        "en": "At d_k = {d_k}, σ = {sigma}:\n"
        "- Var(q·k) measures **{raw}** against d_k·σ⁴ = **{theory}** (off by {err}).\n"
        "- The standard deviation is {sd}, so unscaled scores of that size would push the softmax into saturation.\n"
        "- Divided by √d_k, the variance is **{scaled}** ≈ σ⁴ = {s4}, whatever d_k is.",
        "zh": "在 d_k = {d_k}、σ = {sigma} 时：\n"
        "- Var(q·k) 实测 **{raw}**，理论值 d_k·σ⁴ = **{theory}**（相差 {err}）。\n"
        "- 标准差为 {sd}，这么大的未缩放打分会把 softmax 推向饱和。\n"
        "- 除以 √d_k 后方差为 **{scaled}** ≈ σ⁴ = {s4}，与 d_k 无关。",
    },
    "softmax.row_title": {"en": "One row of scores under a scale", "zh": "一行打分在不同缩放下"},
    "softmax.row_intro": {
        "en": "One query against {n} keys, all drawn as above (d_k = {d_k}, σ = {sigma}). The slider sets the factor s "
        "in softmax(s · q·k). s = 1 is no scaling; s = 1/√d_k is the paper's choice. A larger s works like a lower "
        "softmax temperature (T = 1/s).",
        "zh": "一个查询对 {n} 个键，均按上面的方式抽取（d_k = {d_k}，σ = {sigma}）。滑块设定 softmax(s · q·k) 中的因子 s："
        "s = 1 即不缩放，s = 1/√d_k 是论文的选择。s 越大，相当于 softmax 温度越低（T = 1/s）。",
    },
    "softmax.scale_slider": {"en": "log₂ s (the scale on q·k)", "zh": "log₂ s（q·k 上的缩放因子）"},
    "softmax.scale_help": {
        "en": "It starts at log₂(1/√d_k). 0 means no scaling (s = 1).",
        "zh": "初始值为 log₂(1/√d_k)；0 表示不缩放（s = 1）。",
    },
    "softmax.mark.unscaled": {"en": "unscaled", "zh": "不缩放"},
    "softmax.keys": {"en": "key", "zh": "键"},
    "softmax.row_fig": {"en": "softmax(s · q·k) at s = {s}", "zh": "s = {s} 时的 softmax(s · q·k)"},
    "softmax.entropy": {"en": "entropy (nats)", "zh": "熵（奈特）"},
    "softmax.max_weight": {"en": "max weight", "zh": "最大权重"},
    "softmax.jacobian": {"en": "‖Jacobian‖₂", "zh": "‖雅可比矩阵‖₂"},
    "softmax.scale_axis": {"en": "scale s (log)", "zh": "缩放因子 s（对数坐标）"},
    "softmax.curves_title": {"en": "The same row across scales", "zh": "同一行在不同缩放下"},
    "softmax.row_numbers": {
        "en": "At s = {s}:\n"
        "- entropy **{h}** nats (uniform would be {hmax})\n"
        "- max weight **{pmax}**\n"
        "- Jacobian norm **{jac}** (0 for a one-hot row; never above 1/2; a uniform row over these keys gives {uniform})",
        "zh": "在 s = {s} 时：\n"
        "- 熵 **{h}** 奈特（均匀分布为 {hmax}）\n"
        "- 最大权重 **{pmax}**\n"
        "- 雅可比范数 **{jac}**（独热行为 0；永远不超过 1/2；这些键上的均匀行为 {uniform}）",
    },
    "softmax.row_explain": {
        "en": "- **Unscaled** (s = 1): at large d_k the scores spread over tens of units, so one key takes almost "
        "all the weight (argmax-like). The Jacobian of the softmax goes to 0 as the row becomes one-hot, and almost no gradient reaches q "
        "and k: learning stalls.\n"
        "- **s = 1/√d_k** keeps the scores near unit variance: the row is selective but still trainable.\n"
        "- **Too small** (e.g. 1/(2√d_k)) flattens the row towards a plain average, so the head cannot "
        "single out a key.",
        "zh": "- **不缩放**（s = 1）：d_k 较大时打分分布在几十个单位的范围内，一个键几乎拿走全部权重（近似 argmax）。"
        "当这一行趋于独热（one-hot）分布时，softmax 的雅可比矩阵趋于 0，几乎没有梯度传到 q 和 k：学习停滞。\n"
        "- **s = 1/√d_k** 让打分保持在单位方差附近：这一行有选择性，同时仍可训练。\n"
        "- **太小**（如 1/(2√d_k)）会把这一行压平成普通平均，这个头就无法突出某个键。",
    },
    "softmax.live_title": {"en": "The trained model under another scale", "zh": "换一个缩放因子的已训练模型"},
    "softmax.live_intro": {
        "en": "The selected model was trained with {scale}. Here the same weights run with that scale multiplied by "
        "a factor, at inference only. Nothing is retrained.",
        "zh": "所选模型训练时使用{scale}。这里用同一组权重运行，只在推理时把这个缩放因子乘以一个系数，没有重新训练。",
    },
    "softmax.live_factor": {"en": "factor on the trained scale", "zh": "对训练缩放因子的倍数"},
    "softmax.live_help": {
        "en": "×1 is the model as trained. ×8 sharpens every head; ×0.125 flattens it.",
        "zh": "×1 即训练时的模型；×8 让每个头更尖锐，×0.125 让它更平。",
    },
    "softmax.live_heatmap": {"en": "Layer {layer} head {head} at ×{c}", "zh": "第 {layer} 层 第 {head} 头，×{c}"},
    "softmax.entropy_fig": {
        "en": "Mean entropy of each head's rows (nats)",
        "zh": "每个头各行的平均熵（奈特）",
    },
    "softmax.mean_entropy": {"en": "mean entropy over all heads", "zh": "所有头的平均熵"},
    "softmax.entropy_curve": {
        "en": "Mean attention entropy against the factor",
        "zh": "平均注意力熵随倍数的变化",
    },
    "softmax.trained_scale": {"en": "as trained", "zh": "训练时"},
    "softmax.next_token": {"en": "next token", "zh": "下一个词元"},
    "softmax.next_title": {
        "en": "Top 10 next tokens at ×{c} (log scale)",
        "zh": "×{c} 时概率最高的 10 个下一个词元（对数坐标）",
    },
    "softmax.next_caption": {
        "en": "The decoder's prediction after the last token of your prompt, with the attention scale changed. The "
        "sampling temperature of the output softmax is a different knob; it is left at 1.",
        "zh": "改变注意力缩放因子后，解码器对输入最后一个词元之后的预测。输出 softmax 的采样温度是另一个旋钮，这里保持为 1。",
    },
    "softmax.next_decoder_only": {
        "en": "Next-token predictions appear with the decoder-only model.",
        "zh": "选择仅解码器模型时会显示下一个词元的预测。",
    },
    "softmax.cos_title": {"en": "q·k is not cosine similarity", "zh": "q·k 不是余弦相似度"},
    "softmax.cos_intro": {
        "en": 'Many notes call the attention score a "cosine similarity". It is not: attention uses the raw dot '
        "product, which also grows with the lengths of q and k. A key can win by being long, not only by pointing "
        "the same way.",
        "zh": "很多笔记把注意力打分称为“余弦相似度”。这不对：注意力用的是原始点积，它还会随 q 和 k 的长度增大。"
        "一个键可以靠“长”胜出，而不只是靠方向一致。",
    },
    "softmax.angle": {"en": "angle θ (degrees)", "zh": "夹角 θ（度）"},
    "softmax.plane_title": {"en": "q and k in a plane", "zh": "平面中的 q 与 k"},
    "softmax.cos_numbers": {
        "en": "- q·k = **{dot}**\n- cos θ = **{cos}**\n- ‖q‖ = {qn}, ‖k‖ = {kn}\n\n"
        "Double ‖k‖ and q·k doubles; cos θ does not move.",
        "zh": "- q·k = **{dot}**\n- cos θ = **{cos}**\n- ‖q‖ = {qn}，‖k‖ = {kn}\n\n把 ‖k‖ 加倍，q·k 也加倍，cos θ 不变。",
    },
    "softmax.col.key": {"en": "key", "zh": "键"},
    "softmax.col.weight": {"en": "softmax(q·k/√{d})", "zh": "softmax(q·k/√{d})"},
    "softmax.cos_table": {
        "en": "One query (‖q‖ = {qn}, d = {d}) and five keys at chosen angles and lengths. The key closest in "
        "direction is k{best_cos}, but attention gives the most weight to k{best_dot}, which is longer. Some "
        "models do normalise q and k (QK-norm, cosine attention in Swin v2), but the standard Transformer does not.",
        "zh": "一个查询（‖q‖ = {qn}，d = {d}）和五个按指定角度与长度构造的键。方向最接近的是 k{best_cos}，"
        "但注意力把最大权重给了更长的 k{best_dot}。有些模型确实会对 q、k 做归一化（QK-norm，Swin v2 的余弦注意力），"
        "但标准 Transformer 不会。",
    },
    # ------------------------------------------------------------ soft-capping (lessons/softmax_softcap.py)
    "softmax.softcap_title": {"en": "Soft-capping", "zh": "软上限（soft-capping）"},
    "softmax.softcap_explain": {
        "en": "{model} does not hand q·k·scale to the softmax as it is: every score s first becomes cap·tanh(s/cap) "
        "with cap = **{cap}**. Small scores pass almost unchanged (tanh(x) ≈ x near 0); large ones bend towards "
        "±{cap} and can never pass it. That does not stop one key from taking nearly a row's whole weight: two capped "
        "scores can still differ by almost {span}, so their weights by a factor of almost e^{span}. The cap bounds the logits to keep "
        "training stable (Gemma 2 report, §2). The cap comes before the mask, and the trace's scores are the capped "
        "ones.",
        "zh": "{model} 不会把 q·k·scale 原样交给 softmax：每个分数 s 先变成 cap·tanh(s/cap)，cap = **{cap}**。"
        "小分数几乎不变（x 接近 0 时 tanh(x) ≈ x）；大分数被弯向 ±{cap}，永远超不过它，"
        "但这并不能阻止某个键几乎独占一行的全部权重：两个加了上限的分数仍可相差将近 {span}，它们的权重之比可达将近 e^{span}。"
        "软上限的作用是限制 logit 的大小，让训练保持稳定（Gemma 2 技术报告，§2）。软上限在掩码之前施加，"
        "轨迹里保存的是加了上限之后的分数。",
    },
    "softmax.softcap_x": {"en": "score before the cap, s", "zh": "加上限前的分数 s"},
    "softmax.softcap_y": {"en": "score after the cap", "zh": "加上限后的分数"},
    "softmax.softcap_fig": {
        "en": "cap·tanh(s/cap) with cap = {cap}; points: layer {layer}, head {head}",
        "zh": "cap·tanh(s/cap)，cap = {cap}；点：第 {layer} 层第 {head} 个注意力头",
    },
    "softmax.softcap_curve": {"en": "cap·tanh(s/cap)", "zh": "cap·tanh(s/cap)"},
    "softmax.softcap_line": {"en": "no cap: s", "zh": "不加上限：s"},
    "softmax.softcap_points": {
        "en": "layer {layer}, head {head}: your prompt",
        "zh": "第 {layer} 层第 {head} 头：你的输入",
    },
    "softmax.softcap_numbers": {
        "en": "Layer {layer}, head {head} (the layer and head picked above), on your prompt: {n} scores that the mask "
        "lets through. Before the cap they run from {lo} to {hi}; after it from {alo} to {ahi}, inside ±{cap}. "
        "{squeezed} of them moved by more than 10%.",
        "zh": "第 {layer} 层第 {head} 个注意力头（即上面选中的层和头），在你的输入上：掩码放行的分数共 {n} 个。"
        "加上限前它们从 {lo} 到 {hi}；加上限后从 {alo} 到 {ahi}，都在 ±{cap} 之内。其中 {squeezed} 个变化超过 10%。",
    },
    "softmax.softcap_source": {
        "en": "Gemma Team 2024, “Gemma 2: Improving Open Language Models at a Practical Size”: attention logits capped "
        "at 50.0 and the final logits at 30.0 (attn_logit_softcapping and final_logit_softcapping in config.json).",
        "zh": "Gemma Team 2024，《Gemma 2: Improving Open Language Models at a Practical Size》：注意力 logit 的上限为 "
        "50.0，最终输出 logit 的上限为 30.0（即 config.json 中的 attn_logit_softcapping 与 final_logit_softcapping）。",
    },
}
