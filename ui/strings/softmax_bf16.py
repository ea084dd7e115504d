"""The Softmax page's bfloat16 section (issue 30, lessons/softmax_bf16.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "softmax_bf16.title": {"en": "bfloat16 in a real model's attention", "zh": "真实模型注意力中的 bfloat16"},
    "softmax_bf16.intro": {
        "en": "Many published models store their weights in **bfloat16** (Llama, Qwen, Gemma; GPT-2, BERT and MiniLM "
        "store float32, Pythia and phi-2 float16), Google Brain's 16-bit format (Kalamkar et al. "
        "2019, *A Study of BFLOAT16 for Deep Learning Training*). It keeps float32's 8-bit exponent, so it spans the "
        "same range (up to about 3.4·10³⁸), but has only 8 bits of significand (7 stored, 1 implicit): about 2–3 significant "
        "decimal digits, machine epsilon ε = 2⁻⁷ ≈ 0.0078 (float32: 2⁻²³ ≈ 1.2·10⁻⁷). This app runs only the big "
        "matmuls in bfloat16 (their inputs rounded to bfloat16, the products summed, and each result rounded to "
        "bfloat16 before it is widened back to float32) and keeps softmax, "
        "the attention weights and the norms' statistics in float32. Softmax exponentiates: a score of 16 held in "
        "bfloat16 is only known to ±0.0625 (its neighbours are 0.125 apart), so its weight eˢ could be off by up "
        "to 6%. A norm's mean of squares sums thousands of terms, and in bfloat16 a term below about 1/512 of the "
        "running sum can be rounded away. Below, the same checkpoint runs twice on your prompt, with float32 and "
        "with bfloat16 matmuls.",
        "zh": "许多已发布模型的权重以 **bfloat16** 存储（Llama、Qwen、Gemma；GPT-2、BERT 和 MiniLM 存为 float32，"
        "Pythia 和 phi-2 存为 float16），这是 Google Brain 提出的 16 位格式（Kalamkar 等，2019，"
        "*A Study of BFLOAT16 for Deep Learning Training*）。它保留 float32 的 8 位指数，因此数值范围相同（最大约 3.4·10³⁸），"
        "但尾数（有效位）只有 8 位（存储 7 位，隐含 1 位）：约 2–3 位十进制有效数字，机器精度 ε = 2⁻⁷ ≈ 0.0078"
        "（float32 为 2⁻²³ ≈ 1.2·10⁻⁷）。本应用只让大的矩阵乘法以 bfloat16 运行（输入舍入为 bfloat16，乘积累加后，"
        "结果先舍入为 bfloat16 再扩展回 float32），"
        "softmax、注意力权重与归一化的统计量都保持 float32。softmax 要取指数：以 bfloat16 存储的分数 16 只精确到 ±0.0625"
        "（相邻可表示数相差 0.125），它的权重 eˢ 可能偏差多达 6%。归一化的平方均值要累加成千上万项，在 bfloat16 中，"
        "小于当前累加和约 1/512 的项可能被整个舍掉。下面同一个检查点在你的提示词上运行两次：float32 矩阵乘法与 bfloat16 矩阵乘法。",
    },
    "softmax_bf16.minilm": {
        "en": "The toy models run only float32, so this section runs the shipped pretrained MiniLM-L6 on your prompt.",
        "zh": "玩具模型只以 float32 运行，因此本节在你的提示词上运行随附的预训练 MiniLM-L6。",
    },
    "softmax_bf16.second_copy": {
        "en": "Comparing keeps {name} in memory in both precisions ({size} parameters; the second copy takes about "
        "{mem} more). Each precision is loaded once on this server and shared by every session.",
        "zh": "对比需要在内存中同时保留 {name} 的两种精度（{size} 参数；第二份约多占 {mem}）。每种精度在本服务器上只加载一次，"
        "由所有会话共享。",
    },
    "softmax_bf16.run": {"en": "Load both precisions and compare", "zh": "加载两种精度并对比"},
    "softmax_bf16.compare": {"en": "Compare float32 and bfloat16", "zh": "对比 float32 与 bfloat16"},
    "softmax_bf16.loading": {
        "en": "Running {name} with float32 and with bfloat16 matmuls…",
        "zh": "正在以 float32 与 bfloat16 矩阵乘法分别运行 {name}……",
    },
    "softmax_bf16.cannot": {
        "en": "The comparison needs {name} in both precisions, which cannot be loaded here: {error}",
        "zh": "对比需要 {name} 的两种精度，但此处无法加载：{error}",
    },
    "softmax_bf16.fig_layers": {
        "en": "Attention weights, float32 vs bfloat16 matmuls, per layer",
        "zh": "各层注意力权重：float32 与 bfloat16 矩阵乘法之差",
    },
    "softmax_bf16.max": {"en": "max |Δ| (any head)", "zh": "最大 |Δ|（所有头）"},
    "softmax_bf16.mean": {"en": "mean |Δ|", "zh": "平均 |Δ|"},
    "softmax_bf16.eps": {"en": "bfloat16 ε = 2⁻⁷", "zh": "bfloat16 ε = 2⁻⁷"},
    "softmax_bf16.layer": {"en": "layer", "zh": "层"},
    "softmax_bf16.y": {"en": "|Δ attention weight|", "zh": "|Δ 注意力权重|"},
    "softmax_bf16.fig_head": {
        "en": "Layer {layer}, head {head} (largest |Δ|): bfloat16 − float32",
        "zh": "第 {layer} 层第 {head} 个头（|Δ| 最大）：bfloat16 − float32",
    },
    "softmax_bf16.delta": {"en": "Δ weight", "zh": "Δ 权重"},
    "softmax_bf16.numbers": {
        "en": "Measured now, on {n} tokens: the largest change of any attention weight is **{max}** (layer {layer}, "
        "head {head}), {ratio} × bfloat16's ε; the mean change over the cells a query may attend to is {mean}. "
        "The last layer's vectors move by {hidden} of their largest value.",
        "zh": "刚刚在 {n} 个词元上测得：所有注意力权重中最大的变化为 **{max}**（第 {layer} 层第 {head} 个头），"
        "是 bfloat16 的 ε 的 {ratio} 倍；查询可关注的位置上平均变化为 {mean}。最后一层的向量变化量为其最大值的 {hidden}。",
    },
    "softmax_bf16.agree": {
        "en": "Predicted tokens (the argmax at each position): {same} of {n} agree ({share}). After the whole "
        "prompt, float32 picks {a} and bfloat16 picks {b}.",
        "zh": "预测的词元（每个位置的 argmax）：{n} 个中有 {same} 个一致（{share}）。读完整个提示词后，float32 选 {a}，"
        "bfloat16 选 {b}。",
    },
    "softmax_bf16.no_head": {
        "en": "{name} has no prediction head, so there are no predicted tokens to compare: its last layer's vectors "
        "are its output.",
        "zh": "{name} 没有预测头，因此没有可对比的预测词元：最后一层的向量就是它的输出。",
    },
    "softmax_bf16.explain": {
        "en": "Where the differences come from: bfloat16 rounds every matmul's inputs (the hidden states, and the "
        "weights behind q, k and v where the checkpoint stores float32 or float16; each to within 2⁻⁸ of its value), "
        "the products are summed in float32 and the result is rounded to bfloat16 again, and every layer reads the "
        "previous layer's slightly changed output, so the differences can grow with depth. For a checkpoint stored in "
        "bfloat16 both runs use the same weights (the float32 run widens them exactly), so the whole gap comes from "
        "rounding the activations. "
        "A greedy token flips only where float32's two best logits are closer than these errors.",
        "zh": "差异从哪里来：bfloat16 会舍入每次矩阵乘法的输入（隐藏状态；检查点存为 float32 或 float16 时还有产生 q、k、v "
        "的权重；每个数的相对误差不超过 2⁻⁸），乘积累加后结果再舍入为 bfloat16；而每一层读取的是上一层略有变化的输出，"
        "所以差异可能随深度增长。对以 bfloat16 存储的检查点，两次运行用的是同一组权重（float32 运行只是把它们无损扩展），"
        "差异完全来自对激活值的舍入。只有当 float32 的前两名 logit "
        "比这些误差还接近时，贪心选出的词元才会改变。",
    },
}
