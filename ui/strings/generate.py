"""Strings of the generation lesson (decoder-only) and the step controls."""

STRINGS: dict[str, dict[str, str]] = {
    "generate.always_decoder": {
        "en": "This page always uses the decoder-only model: generating text is what it is for.",
        "zh": "本页始终使用仅解码器模型：生成文本正是它的用途。",
    },
    "generate.default_start": {
        "en": "The app's default prompt is a finished sentence, and after its “ .” this toy model always writes a "
        "space first (its training sentences were joined by one). So this page continues {prompt}: the default "
        "without its last words, whose next token has to agree with *cats*, not with *dog*. Type a prompt or pick an "
        "example to continue your own.",
        "zh": "应用的默认输入是一个完整的句子，在它的 “ .” 之后，这个玩具模型总是先写一个空格（它的训练句子之间用一个空格相连）。"
        "所以本页续写 {prompt}：即去掉最后几个词的默认输入，它的下一个词元要与 *cats* 而不是 *dog* 保持主谓一致。输入文本"
        "或选一个示例，即可续写你自己的输入。",
    },
    "generate.intro": {
        "en": "A decoder-only model (GPT, Llama) turns a prompt into a probability for every token of its "
        "vocabulary. One token is picked, appended, and the model runs again. Each block has **one** masked "
        "(causal) self-attention, not two: only encoder-decoder blocks add a second, cross-attention. Press "
        "*Next token* to watch the loop.",
        "zh": "仅解码器模型（GPT、Llama）把输入变成词表中每个词元的概率，选出一个词元接在后面，然后再次运行。每个模块只有**一个**"
        "带掩码（因果）的自注意力，而不是两个：只有编码器-解码器的模块才多一个交叉注意力。点击*下一个词元*观察这个循环。",
    },
    "generate.decoding": {"en": "Decoding", "zh": "解码方式"},
    "generate.decoding.greedy": {"en": "greedy (argmax)", "zh": "贪心"},
    "generate.decoding.sample": {"en": "sample", "zh": "采样"},
    "generate.seed": {"en": "Seed", "zh": "随机种子"},
    "generate.seed_help": {
        "en": "Sampling is random; the same seed gives the same continuation.",
        "zh": "采样是随机的；相同的种子给出相同的续写。",
    },
    "generate.max_new": {"en": "Tokens to generate", "zh": "生成的词元数"},
    "generate.temp": {"en": "Temperature T (output softmax)", "zh": "温度 T（输出 softmax）"},
    "generate.temp_help": {
        "en": "p ∝ exp(logit / T). T < 1 sharpens the distribution, T > 1 flattens it. Greedy decoding takes the "
        "top token whatever T is.",
        "zh": "p ∝ exp(logit / T)。T < 1 让分布更尖锐，T > 1 让它更平坦。贪心解码无论 T 为何值都取概率最高的词元。",
    },
    "generate.top_k": {"en": "top-k (0 = off)", "zh": "top-k（0 = 关闭）"},
    "generate.top_k_help": {
        "en": "Keep only the k most likely tokens, renormalised.",
        "zh": "只保留概率最高的 k 个词元，并重新归一化。",
    },
    "generate.top_p": {"en": "top-p (1 = off)", "zh": "top-p（1 = 关闭）"},
    "generate.top_p_help": {
        "en": "Nucleus sampling (Holtzman et al. 2020): keep the smallest set of tokens whose probabilities add up to p.",
        "zh": "核采样（Holtzman 等 2020）：保留累计概率达到 p 的最小词元集合。",
    },
    "generate.no_room": {
        "en": "The prompt already fills the model's {max_len} positions: there is no room to generate.",
        "zh": "输入已经占满模型的 {max_len} 个位置，没有空间再生成了。",
    },
    "generate.so_far": {"en": "Step {n} of {total}:", "zh": "第 {n} 步，共 {total} 步："},
    "generate.eos": {
        "en": "The model chose [EOS]: it ends the text here.",
        "zh": "模型选择了 [EOS]：文本到此结束。",
    },
    "generate.probs_title": {
        "en": "Step {n}: top 10 next tokens (T = {temp})",
        "zh": "第 {n} 步：概率最高的 10 个词元（T = {temp}）",
    },
    "generate.used": {"en": "drawn from (after T, top-k, top-p)", "zh": "实际采样分布（经 T、top-k、top-p）"},
    "generate.used_greedy": {"en": "after T (greedy takes the top one)", "zh": "经温度 T 调整（贪心取最高者）"},
    "generate.kv_legend": {
        "en": "Red: keys and values computed at this step. Light blue: reused from the cache.",
        "zh": "红色：本步计算的键和值。浅蓝色：从缓存中复用。",
    },
    "generate.kv_numbers_prefill": {
        "en": "Step 1 is the **prefill**: the whole prompt ({L} positions) runs at once and fills the cache, "
        "{step_with} q·k dot products with or without a cache ({layers} layers × {heads} heads × L(L+1)/2). "
        "From step 2 on, the cache pays: press *Next token*. The cache holds 2 × {layers} layers × {kv_heads} KV "
        "heads × {d} dims × {L} positions = {floats} numbers.",
        "zh": "第 1 步是**预填充**：整个输入（{L} 个位置）一次算完并填满缓存，无论有无缓存都是 {step_with} 次 q·k 点积"
        "（{layers} 层 × {heads} 个头 × L(L+1)/2）。从第 2 步起缓存开始发挥作用：点击*下一个词元*。"
        "缓存保存 2 × {layers} 层 × {kv_heads} 个 KV 头 × {d} 维 × {L} 个位置 = {floats} 个数。",
    },
    "generate.raw": {"en": "the model's own (T = 1)", "zh": "模型原始分布（T = 1）"},
    "generate.probs_caption": {
        "en": "Chosen ({mode}): {token}, probability {p}, rank {rank}. Entropy of the distribution: {h} nats. Red: the "
        "chosen token; outlines: the same tokens at T = 1.",
        "zh": "选中（{mode}）：{token}，概率 {p}，排名第 {rank}。分布的熵：{h} 奈特。红色：被选中的词元；空心框：同样词元在 T = 1 时的概率。",
    },
    "generate.head_n": {"en": "head {h}", "zh": "第 {h} 头"},
    "generate.row_title": {
        "en": "Layer {layer}: the new token's query over the context",
        "zh": "第 {layer} 层：新词元的查询对上下文的注意力",
    },
    "generate.row_caption": {
        "en": "One row per head: the attention of the last position (the query that produced this token) over all "
        "{n} positions so far. Causal: there is nothing to its right to see.",
        "zh": "每个头一行：最后一个位置（产生这个词元的查询）对目前全部 {n} 个位置的注意力。因果掩码：它右边没有东西可看。",
    },
    "generate.kv_title": {"en": "The KV cache", "zh": "KV 缓存"},
    "generate.kv_fig": {
        "en": "Keys and values in the cache at step {n}",
        "zh": "第 {n} 步时缓存中的键和值",
    },
    "generate.kv_reused": {"en": "reused from the cache", "zh": "从缓存中复用"},
    "generate.kv_new": {"en": "computed this step", "zh": "本步新计算"},
    "generate.kv_numbers": {
        "en": "The step reads {L} positions in {layers} layers × {heads} heads.\n"
        "- q·k dot products **this step**: {step_with} with the cache, {step_without} without it (recomputing "
        "every query).\n"
        "- **So far**: {total_with} against {total_without}, {ratio}× fewer.\n"
        "- The cache holds K and V for every position: 2 × {layers} layers × {kv_heads} KV heads × {d} dims × {L} "
        "positions = {floats} numbers.\n\n"
        "Step 1 computes the whole prompt at once (prefill). Every later step adds one red column. Causal attention "
        "makes this possible: a past position's keys and values never change when later tokens arrive. A "
        "bidirectional encoder would have to recompute everything.",
        "zh": "这一步在 {layers} 层 × {heads} 个头中读取 {L} 个位置。\n"
        "- **本步**的 q·k 点积：有缓存 {step_with} 次，无缓存（重算所有查询）{step_without} 次。\n"
        "- **累计**：{total_with} 对 {total_without}，只有后者的 1/{ratio}。\n"
        "- 缓存为每个位置保存 K 和 V：2 × {layers} 层 × {kv_heads} 个 KV 头 × {d} 维 × {L} 个位置 = {floats} 个数。\n\n"
        "第 1 步一次算完整个输入（预填充），之后每一步只新增一列红色。这得益于因果注意力：后来的词元到来时，"
        "过去位置的键和值永远不变。双向编码器则必须全部重算。",
    },
    "generate.temperature_vs_scale": {
        "en": '**Two different "temperatures".** The sampling temperature T divides the *output* logits before '
        "the vocabulary softmax. It changes which token is drawn, not what the model computed. The attention "
        "scale, here {scale}, multiplies q·k *inside* every attention head, and changing it changes "
        "every hidden state (see the Softmax and √d_k lesson).",
        "zh": "**两种不同的“温度”。** 采样温度 T 在词表 softmax 之前除以*输出* logits，它改变的是抽到哪个词元，而不是模型算出了什么。"
        "注意力缩放因子在每个注意力头*内部*乘在 q·k 上，这里是{scale}；改变它会改变每一个隐藏状态"
        "（见“Softmax 与 √d_k”一课）。",
    },
}
