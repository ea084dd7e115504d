"""Strings of the positional-encoding lesson."""

STRINGS: dict[str, dict[str, str]] = {
    "positional.pe.sinusoidal": {"en": "sinusoidal", "zh": "正弦"},
    "positional.pe.learned": {"en": "learned", "zh": "可学习"},
    "positional.pe.rope": {"en": "RoPE", "zh": "RoPE"},
    "positional.pe.none": {"en": "none", "zh": "无"},
    "positional.pe.relative": {"en": "relative position bias", "zh": "相对位置偏置"},
    # T5's relative position bias (lessons/positional_sections.relative_bias)
    "positional.t5_title": {"en": "T5's relative position bias ({model})", "zh": "T5 的相对位置偏置（{model}）"},
    "positional.t5_intro": {
        "en": "T5 adds no position vector to the tokens. Each stack instead learns one small table, a number per "
        "**bucket** of the offset (key position − query position) and per head, and every layer adds it to q·k "
        "before the softmax (Raffel et al. 2020, §2.1). Of the {buckets} buckets, an offset whose absolute value is "
        "less than a quarter of them (the encoder, which splits them between both directions: below {enc_exact}) or "
        "half of them (the decoder, which looks only back: below {dec_exact}) gets a bucket of its own; farther ones "
        "share log-spaced buckets up to {distance}, and from {distance} on they all share the last one. "
        "Cross-attention has no bias.",
        "zh": "T5 不给词元加位置向量。每个栈各学一张小表：按偏移（键位置 − 查询位置）所在的**桶**和头，各一个数，"
        "每一层在 softmax 之前把它加到 q·k 上（Raffel 等 2020，§2.1）。共 {buckets} 个桶：偏移绝对值小于桶数四分之一"
        "（编码器，它把桶分给两个方向：小于 {enc_exact}）或一半（解码器，只看过去：小于 {dec_exact}）时，每个偏移独占一个桶；"
        "更远的偏移按对数间隔共用桶，直到 {distance}，从 {distance} 起都共用最后一个桶。交叉注意力没有偏置。",
    },
    "positional.t5_encoder": {"en": "encoder", "zh": "编码器"},
    "positional.t5_decoder": {"en": "decoder", "zh": "解码器"},
    "positional.t5_table_fig": {
        "en": "Learned bias of the {stack} per bucket and head",
        "zh": "{stack}按桶和头学到的偏置",
    },
    "positional.t5_offset_fig": {
        "en": "Bias the {stack} adds at each offset",
        "zh": "{stack}在每个偏移处加上的偏置",
    },
    "positional.t5_bucket": {"en": "bucket", "zh": "桶"},
    "positional.t5_head": {"en": "head", "zh": "头"},
    "positional.t5_bias": {"en": "bias", "zh": "偏置"},
    "positional.t5_offset": {"en": "key position − query position", "zh": "键位置 − 查询位置"},
    "positional.t5_head_series": {"en": "head {h}", "zh": "头 {h}"},
    "positional.intro": {
        "en": "Attention compares every query with every key, whatever their order. Without extra information, "
        '"dog bites man" and "man bites dog" give the same set of outputs. Positional encodings add the order: '
        "either a vector added to each token embedding (sinusoidal, learned), or a rotation of q and k inside "
        "attention (RoPE).",
        "zh": "注意力把每个查询与每个键逐一比较，而不管它们的顺序。没有额外信息时，“狗咬人”和“人咬狗”得到的是同一组输出。"
        "位置编码补上顺序：要么把一个向量加到每个词元的嵌入上（正弦、可学习），要么在注意力内部旋转 q 和 k（RoPE）。",
    },
    "positional.sin_title": {"en": "Sinusoidal encoding", "zh": "正弦位置编码"},
    "positional.sin_source": {
        "en": "Vaswani et al. 2017, §3.5, with base = 10000. Each pair of dimensions (2i, 2i+1) is a sine and a "
        "cosine of the same frequency ωᵢ. The frequencies fall geometrically from 1 to 1/base, so the wavelengths "
        "run from 2π to 2π·base.",
        "zh": "Vaswani 等 2017，§3.5，base = 10000。每对维度 (2i, 2i+1) 是同一频率 ωᵢ 的正弦和余弦；"
        "频率从 1 按几何级数降到 1/base，因此波长从 2π 到 2π·base。",
    },
    "positional.base": {"en": "base", "zh": "基数（base）"},
    "positional.base_help": {
        "en": "The paper uses 10000. A smaller base makes every wave faster.",
        "zh": "论文使用 10000。基数越小，每条波越快。",
    },
    "positional.positions": {"en": "Positions shown", "zh": "显示的位置数"},
    "positional.dims": {"en": "Dimensions to draw", "zh": "要画的维度"},
    "positional.dims_help": {
        "en": "Even dimensions are sines, odd ones cosines; dimension 2i and 2i+1 share a frequency.",
        "zh": "偶数维是正弦，奇数维是余弦；第 2i 与 2i+1 维频率相同。",
    },
    "positional.dim_series": {"en": "dim {i} ({fn}, period {period})", "zh": "第 {i} 维（{fn}，周期 {period}）"},
    "positional.pos": {"en": "position", "zh": "位置"},
    "positional.dim": {"en": "dimension", "zh": "维度"},
    "positional.waves_title": {"en": "PE(pos, i) along the positions", "zh": "PE(pos, i) 随位置的变化"},
    "positional.waves_explain": {
        "en": "Low dimensions oscillate fast (period {fast} positions for dimension 0); the last pair barely moves "
        "(period {slow}). Together they work like the hands of a clock: every position gets a different combination.",
        "zh": "低维振荡很快（第 0 维周期为 {fast} 个位置）；最后一对几乎不动（周期 {slow}）。合在一起就像钟表的指针："
        "每个位置得到不同的组合。",
    },
    "positional.table_title": {
        "en": "The whole table: {n} positions × {d} dimensions",
        "zh": "完整的表：{n} 个位置 × {d} 维",
    },
    "positional.sim_title": {
        "en": "PE(pos)·PE(pos′) for every pair of positions",
        "zh": "任意两个位置的 PE(pos)·PE(pos′)",
    },
    "positional.sim_explain": {
        "en": "PE(pos)·PE(pos′) = Σᵢ cos((pos − pos′)·ωᵢ): it depends only on the offset pos − pos′. Every "
        "diagonal of the similarity figure is constant (largest spread along any diagonal here: {spread}). The "
        "diagonal itself is d/2 = {d}/2, and similarity falls off as positions move apart.",
        "zh": "PE(pos)·PE(pos′) = Σᵢ cos((pos − pos′)·ωᵢ)：它只取决于偏移 pos − pos′。相似度图的每条对角线都是常数"
        "（此处任一对角线上的最大差异：{spread}）。主对角线等于 d/2 = {d}/2，位置相隔越远，相似度越低。",
    },
    "positional.cell_title": {"en": "One cell, computed from the formula", "zh": "用公式计算单个格子"},
    "positional.shift_title": {"en": "A shift by k is a rotation", "zh": "平移 k 就是旋转"},
    "positional.shift_intro": {
        "en": 'The paper chose sinusoids because "for any fixed offset k, PE(pos+k) can be represented as a linear '
        'function of PE(pos)". The function is a rotation of each (sin, cos) pair by the angle k·ωᵢ. It is the same '
        'matrix Mₖ at every position, so a layer can learn "look k tokens back" once, for all positions.',
        "zh": "论文选择正弦函数，是因为“对任意固定偏移 k，PE(pos+k) 都可以表示为 PE(pos) 的线性函数”。"
        "这个函数就是把每对 (sin, cos) 旋转角度 k·ωᵢ；在每个位置上都是同一个矩阵 Mₖ，因此一层网络只需学一次"
        "“往回看 k 个词元”，就对所有位置都成立。",
    },
    "positional.offset": {"en": "offset k", "zh": "偏移 k"},
    "positional.pair": {"en": "frequency pair i", "zh": "频率对 i"},
    "positional.pair_help": {"en": "Dimensions 2i (sin) and 2i+1 (cos).", "zh": "第 2i 维（sin）和第 2i+1 维（cos）。"},
    "positional.shift_fig": {"en": "Pair {pair}: dimensions {d0} and {d1}", "zh": "第 {pair} 对：第 {d0} 与 {d1} 维"},
    "positional.shift_numbers": {
        "en": "- Pair {pair} turns by ω = {omega} rad per position, so a shift by k = {k} turns it by **{angle}°**.\n"
        "- The red arrow is PE(pos+k) from the formula, and it is also Mₖ·PE(pos) computed with the matrix: the "
        "same vector.\n"
        "- Checked over all {n} positions and all {d} dimensions: max |Mₖ·PE(pos) − PE(pos+k)| = **{err}** "
        "(float64 rounding).\n"
        "- Every pair keeps length 1, so |PE(pos)| = √(d/2) at every position.",
        "zh": "- 第 {pair} 对每个位置旋转 ω = {omega} 弧度，所以平移 k = {k} 使它旋转 **{angle}°**。\n"
        "- 红色箭头既是按公式算出的 PE(pos+k)，也是用矩阵算出的 Mₖ·PE(pos)：同一个向量。\n"
        "- 对全部 {n} 个位置和 {d} 个维度检验：max |Mₖ·PE(pos) − PE(pos+k)| = **{err}**（float64 舍入误差）。\n"
        "- 每一对的长度都是 1，所以在每个位置 |PE(pos)| = √(d/2)。",
    },
    "positional.rope_title": {
        "en": "RoPE: rotate q and k instead of adding a vector",
        "zh": "RoPE：旋转 q 和 k，而不是加一个向量",
    },
    "positional.rope_intro": {
        "en": "Rotary position embedding (Su et al., RoFormer, 2021) rotates each pair of q's and k's dimensions by "
        "an angle proportional to the token's position. Rotations compose, so the score of a query at m and a key at "
        "n depends only on n − m: relative position, without any learned table. Llama, Qwen and the shipped decoder "
        "here use it. It is applied to q and k in every layer, not added to the embeddings.",
        "zh": "旋转位置编码（Su 等，RoFormer，2021）把 q 和 k 的每对维度旋转一个与词元位置成正比的角度。"
        "旋转可以复合，因此位置 m 的查询与位置 n 的键之间的打分只取决于 n − m，即相对位置，不需要任何学习得到的表。"
        "Llama、Qwen 以及本应用随附的解码器都使用它。它在每一层作用于 q 和 k，而不是加到嵌入上。",
    },
    "positional.rope_m": {"en": "query position m", "zh": "查询位置 m"},
    "positional.rope_n": {"en": "key position n", "zh": "键位置 n"},
    "positional.rope_fig": {
        "en": "First pair of q and k (θ₀ = {theta} rad/position)",
        "zh": "q 与 k 的第一对维度（θ₀ = 每个位置 {theta} 弧度）",
    },
    "positional.pair_x": {"en": "dimension 0", "zh": "第 0 维"},
    "positional.pair_y": {"en": "dimension 1", "zh": "第 1 维"},
    "positional.rope_grid": {"en": "R(m)q · R(n)k for every m and n", "zh": "所有 m、n 的 R(m)q · R(n)k"},
    "positional.query_pos": {"en": "query position m", "zh": "查询位置 m"},
    "positional.key_pos": {"en": "key position n", "zh": "键位置 n"},
    "positional.rope_numbers": {
        "en": "- Same q and k (d = {d}), rotated: at m = {m}, n = {n} the score is **{dot}**.\n"
        "- Moved together to m = {m2}, n = {n2}, it is **{dot2}**: the same, because only n − m matters.\n"
        "- Unrotated, q·k = {plain}.\n"
        "- A rotation keeps the length: |q| = {norm_q}, |R(m)q| = {norm_rq}.\n"
        "- In the grid, every diagonal (fixed n − m) is constant: the largest spread along one is {spread}.",
        "zh": "- 同一对 q 和 k（d = {d}），旋转后：在 m = {m}、n = {n} 时打分为 **{dot}**。\n"
        "- 一起移到 m = {m2}、n = {n2} 时为 **{dot2}**：相同，因为只有 n − m 起作用。\n"
        "- 不旋转时 q·k = {plain}。\n"
        "- 旋转保持长度：|q| = {norm_q}，|R(m)q| = {norm_rq}。\n"
        "- 网格中每条对角线（n − m 固定）都是常数：沿一条对角线的最大差异为 {spread}。",
    },
    "positional.learned_title": {
        "en": "Learned position embeddings: {model}",  # {model} may hold brackets: "Decoder-only (GPT-style)"
        "zh": "可学习的位置嵌入：{model}",
    },
    "positional.learned_fig": {
        "en": "cos(Pᵢ, Pⱼ) of the learned table ({n} × {d})",
        "zh": "可学习位置表（{n} × {d}）的 cos(Pᵢ, Pⱼ)",
    },
    "positional.learned_series": {"en": "learned (trained)", "zh": "可学习（已训练）"},
    "positional.sin_series": {"en": "sinusoidal (same size)", "zh": "正弦（同样大小）"},
    "positional.mean_cos": {"en": "mean cosine", "zh": "平均余弦"},
    "positional.by_offset": {"en": "Mean cosine of positions k apart", "zh": "相隔 k 个位置的平均余弦"},
    "positional.learned_explain": {
        "en": "BERT and GPT-2 learn one vector per position: a table of max_len × d_model parameters, and no position "
        "beyond max_len. Nothing forces a structure on it; training found one here. Neighbouring positions have mean "
        "cosine {near}, positions 32 apart {far}. The sinusoidal table has its structure by construction.",
        "zh": "BERT 和 GPT-2 为每个位置学习一个向量：一张 max_len × d_model 的参数表，超出 max_len 的位置不存在。"
        "没有任何东西强制它具有结构，这里的结构是训练得到的：相邻位置的平均余弦为 {near}，相隔 32 个位置为 {far}。"
        "正弦表的结构则来自构造本身。",
    },
    "positional.none_title": {"en": "No positional encoding: shuffle the prompt", "zh": "没有位置编码：打乱输入"},
    "positional.none_intro": {
        "en": "A model with **no** positional encoding (random init, same size as the selected model) reads your prompt, "
        "then the same tokens shuffled (special tokens stay in place). For each position of the shuffled input, "
        "the bars show how far its output is from the original output of the same token.",
        "zh": "一个**没有**位置编码的模型（随机初始化，大小与所选模型相同）先读你的输入，再读打乱后的同一组词元"
        "（特殊词元位置不变）。对打乱后输入的每个位置，柱高表示其输出与同一词元原来的输出相差多少。",
    },
    "positional.shuffle_seed": {"en": "Shuffle (seed)", "zh": "打乱方式（种子）"},
    "positional.shuffle_seed_help": {"en": "Another seed, another order.", "zh": "换一个种子，就换一种顺序。"},
    "positional.none_too_short": {
        "en": "This prompt has fewer than two different tokens to shuffle; type a longer one.",
        "zh": "这个输入中可打乱的不同词元少于两个，请输入更长的文本。",
    },
    "positional.original": {"en": "Original order", "zh": "原始顺序"},
    "positional.shuffled": {"en": "Shuffled", "zh": "打乱后"},
    "positional.shuffled_pos": {"en": "shuffled input", "zh": "打乱后的输入"},
    "positional.delta": {"en": "max |Δ output|", "zh": "最大 |Δ 输出|"},
    "positional.case.none_bi": {"en": "No PE, bidirectional", "zh": "无位置编码，双向"},
    "positional.case.none_causal": {"en": "No PE, causal", "zh": "无位置编码，因果"},
    "positional.case.trained": {"en": "The selected model ({pe}, {mask})", "zh": "所选模型（{pe}，{mask}）"},
    "positional.max_delta": {
        "en": "largest change: {value}. The axis starts at 1e-6; smaller differences are float32 rounding.",
        "zh": "最大变化：{value}。纵轴从 1e-6 开始；更小的差异只是 float32 舍入误差。",
    },
    "positional.none_explain": {
        "en": "- **No PE, bidirectional** (largest change {bi}): only float rounding. The outputs are exactly the "
        "original outputs, permuted. Self-attention without positions is *permutation-equivariant*: it sees a bag "
        "of tokens.\n"
        "- **No PE, causal** (largest change {causal}): outputs really change, because each position sees a "
        'different prefix. The causal mask itself carries position information (Haviv et al. 2022, "Transformer '
        'language models without positional encodings still learn positional information").\n'
        "- **The selected model**: with its positional encoding, order matters everywhere.",
        "zh": "- **无位置编码，双向**（最大变化 {bi}）：只是浮点舍入。输出恰好是原输出的重新排列。"
        "没有位置信息的自注意力是*置换等变*的：它看到的是一袋词元。\n"
        "- **无位置编码，因果**（最大变化 {causal}）：输出真的变了，因为每个位置看到的是不同的前缀。"
        "因果掩码本身就携带位置信息（Haviv 等 2022，“Transformer language models without positional encodings "
        "still learn positional information”）。\n"
        "- **所选模型**：有了位置编码，顺序处处都起作用。",
    },
    # ------------------------------------------------------------ position layer by layer (lessons/positional_layers.py)
    "positional.layers_title": {"en": "Position layer by layer ({model})", "zh": "逐层的位置编码（{model}）"},
    "positional.nope_explain": {
        "en": "RoPE (θ = {theta}) rotates q and k in {rope} of this model's {total} layers. {which} "
        "**no position at all** (NoPE): there q·k depends only on the tokens' "
        "content, and order reaches them only through the causal mask and what earlier layers wrote into the "
        "residual stream. Kazemnejad et al. (2023) showed that a causal decoder with no positional encoding still "
        "learns positions and generalises to longer inputs better than with RoPE, for decoders of about 100M "
        "parameters trained on synthetic tasks. SmolLM3 (Hugging Face 2025, its blog) "
        "removes RoPE from every 4th layer, following Yang et al. (2025, “Rope to Nope and Back Again”), which "
        "helped its long-context results without hurting short ones.",
        "zh": "这个模型的 {total} 层中有 {rope} 层用 RoPE（θ = {theta}）旋转 q 和 k。{which}"
        "**完全不用位置信息**（NoPE）：这些层里 q·k 只取决于词元的内容，"
        "顺序只能通过因果掩码以及前面各层写入残差流的信息传进来。Kazemnejad 等（2023）表明，没有位置编码的因果解码器"
        "仍能学到位置，而且比用 RoPE 更能推广到更长的输入；他们的结果来自约 1 亿参数的解码器，在合成任务上训练。"
        "SmolLM3（Hugging Face 2025，官方博客）依照 Yang 等（2025，“Rope to Nope and Back Again”）在每 4 层中去掉一层的 RoPE，"
        "提升了长上下文表现，而短上下文不受影响。",
    },
    "positional.nope_which": {
        "en": "Layers **{layers}** ({n} in all{every}, counted from 1) use",
        "zh": "第 **{layers}** 层（共 {n} 层{every}，从 1 开始计数）",
    },
    "positional.nope_which_one": {  # one NoPE layer: no "Layers 4 (1 in all…) use"
        "en": "Layer **{layers}** (counted from 1{every}) uses",
        "zh": "第 **{layers}** 层（从 1 开始计数{every}）",
    },
    "positional.nope_every": {"en": ", one in every {k}", "zh": "，即每 {k} 层中一层"},
    "positional.two_bases_explain": {
        "en": "This model uses **two RoPE bases**. Its sliding-window layers (**{local_layers}**, each query sees its "
        "last {window} positions) turn at θ = **{local}**; its full-attention layers (**{full_layers}**) at "
        "θ = **{glob}**. A small base turns fast: fine distinctions inside the short window. A large base turns "
        "slowly, so tokens far apart in a long context still get distinct angles (Gemma 3 report, Gemma Team 2025: "
        "the global layers' base raised from 10,000 to 1,000,000, the local layers' kept at 10,000).",
        "zh": "这个模型用了**两个 RoPE 基数**。滑动窗口层（第 **{local_layers}** 层，每个查询只看最近的 {window} 个位置）"
        "用 θ = **{local}**；全注意力层（第 **{full_layers}** 层）用 θ = **{glob}**。基数小，旋转得快，"
        "适合在短窗口内细分位置；基数大，旋转得慢，长上下文中相距很远的词元仍有不同的角度"
        "（Gemma 3 技术报告，Gemma Team 2025：全局层的基数从 10,000 提高到 1,000,000，局部层保持 10,000）。",
    },
    "positional.layers_col_layer": {"en": "layer", "zh": "层"},
    "positional.layers_col_attention": {"en": "attention", "zh": "注意力"},
    "positional.layers_col_pos": {"en": "position", "zh": "位置编码"},
    "positional.layers_full": {"en": "full (causal)", "zh": "全注意力（因果）"},
    "positional.layers_sliding": {"en": "sliding window of {w}", "zh": "滑动窗口 {w}"},
    "positional.layers_nope": {"en": "none (NoPE)", "zh": "无（NoPE）"},
}
