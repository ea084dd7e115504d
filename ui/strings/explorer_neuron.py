"""Strings of the Explorer's neuron view (lessons/explorer_neuron.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "explorer_neuron.toggle": {
        "en": "Why does this query attend there? (neuron view: q, k and q ⊙ k)",
        "zh": "这个查询为什么关注那里？（神经元视图：q、k 与 q ⊙ k）",
    },
    "explorer_neuron.toggle_help": {
        "en": "Like BertViz's neuron view: the query and key vectors of the selected head, multiplied "
        "dimension by dimension; their sum is the score before the scale and the mask.",
        "zh": "类似 BertViz 的神经元视图：所选头的查询向量与键向量逐维相乘；各维乘积之和就是缩放和掩码之前的分数。",
    },
    "explorer_neuron.query": {"en": "Query token", "zh": "查询词元"},
    "explorer_neuron.key": {"en": "Key token", "zh": "键词元"},
    "explorer_neuron.last": {"en": "the last token: {token}", "zh": "最后一个词元：{token}"},
    "explorer_neuron.top": {"en": "its highest-weight key: {token}", "zh": "它权重最高的键：{token}"},
    "explorer_neuron.q": {"en": "q (query)", "zh": "q（查询）"},
    "explorer_neuron.k": {"en": "k (key)", "zh": "k（键）"},
    "explorer_neuron.dimension": {"en": "dimension of the head", "zh": "头的维度"},
    "explorer_neuron.rotated": {"en": "after RoPE", "zh": "RoPE 旋转后"},
    "explorer_neuron.unrotated": {"en": "before RoPE", "zh": "RoPE 旋转前"},
    "explorer_neuron.title": {
        "en": "Σ q⊙k = {dot} × scale {scale} = score {score}",
        "zh": "Σ q⊙k = {dot} × 缩放 {scale} = 分数 {score}",
    },
    "explorer_neuron.explain": {
        "en": "Layer {layer}, head {head}: query {query_token} and key {key_token}. Each bar of q ⊙ k is one dimension's "
        "share of the dot product: red adds to the score, blue takes away. Their sum, {dot}, times the scale "
        "{scale} is the score {score}; after the softmax over the row this key gets the weight {weight}. "
        "The largest red bars are the dimensions that carry the match.",
        "zh": "第 {layer} 层，第 {head} 个头：查询 {query_token}，键 {key_token}。q ⊙ k 的每根柱子是一个维度对点积的贡献："
        "红色使分数变大，蓝色使分数变小。它们的和 {dot} 乘以缩放系数 {scale} 得到分数 {score}；"
        "对这一行做 softmax 之后，这个键得到的权重是 {weight}。最高的红色柱子就是承担这次匹配的维度。",
    },
    "explorer_neuron.rope": {
        "en": "This layer uses RoPE: q and k are rotated to their positions before they are compared (dimensions "
        "1–{dims} of {d}, two by two). Filled bars: after the rotation, what attention multiplies; grey "
        "outlines: before it. Before the rotation Σ q⊙k would be {before}: the difference is what the two "
        "positions ({offset} apart) change.",
        "zh": "这一层使用 RoPE：q 和 k 在比较之前先按各自的位置旋转（{d} 个维度中的第 1–{dims} 维，两两一组）。"
        "实心柱：旋转之后，即注意力真正相乘的向量；灰色空心柱：旋转之前。旋转之前 Σ q⊙k 为 {before}："
        "差别来自两个位置（相距 {offset}）。",
    },
    "explorer_neuron.order": {
        "en": "The dimension numbers are this app's order, not the checkpoint's. {model} stores each rotated pair as "
        "dimensions i and i + {half} of a head (rotate-half); when it was loaded, the rows of its q and k projections "
        "were permuted so that each pair sits side by side: the checkpoint's dimension i (counted from 0, i < {half}) "
        "is drawn at 2i and its dimension i + {half} at 2i + 1{rest}. q·k, and so every score, is unchanged.",
        "zh": "这里的维度编号是本应用的顺序，不是检查点里的顺序。{model} 把每个旋转对存为一个头的第 i 维和第 i + {half} 维"
        "（rotate-half）；加载时对其 q、k 投影的行做了置换，让每一对相邻：检查点的第 i 维（从 0 开始计数，i < {half}）"
        "画在 2i，第 i + {half} 维画在 2i + 1{rest}。q·k（从而每个分数）都不变。",
    },
    "explorer_neuron.order_rest": {
        "en": "; dimensions {dims} and above are not rotated and keep their place",
        "zh": "；第 {dims} 维及以后不旋转，位置不变",
    },
    "explorer_neuron.relative": {
        "en": "This model adds a learned relative-position bias (T5) to every score: the score in the model is "
        "this sum × scale plus the bias of the head and offset, so the two are not equal here.",
        "zh": "这个模型在每个分数上还要加一个学到的相对位置偏置（T5）：模型中的分数是这里的和 × 缩放再加上"
        "该头、该距离的偏置，因此这里两者并不相等。",
    },
    "explorer_neuron.softcap": {
        "en": "This model soft-caps its scores (Gemma 2: cap·tanh(score / cap)): the score in the model is this "
        "sum × scale bent through the cap, so the two are not equal here.",
        "zh": "这个模型会对分数做软上限（Gemma 2：cap·tanh(score / cap)）：模型中的分数是这里的和 × 缩放"
        "再经过软上限，因此这里两者并不相等。",
    },
    "explorer_neuron.gqa": {
        "en": "Grouped-query attention: this head shares its key vector with the other heads of its group.",
        "zh": "分组查询注意力（GQA）：这个头与同组的其他头共用键向量。",
    },
}
