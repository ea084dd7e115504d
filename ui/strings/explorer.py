"""Strings of the attention explorer."""

STRINGS: dict[str, dict[str, str]] = {
    "explorer.view.heatmap": {"en": "one head", "zh": "单个头"},
    "explorer.view.grid": {"en": "all heads", "zh": "所有头"},
    "explorer.view.lines": {"en": "lines (head view)", "zh": "连线（头视图）"},
    "explorer.agg.head": {"en": "this head", "zh": "此头"},
    "explorer.agg.mean": {"en": "mean over heads", "zh": "各头平均"},
    "explorer.agg.rollout": {"en": "attention rollout", "zh": "注意力展开（rollout）"},
    "explorer.target": {"en": "Target (decoder input)", "zh": "目标（解码器输入）"},
    "explorer.target_help": {
        "en": "Pre-filled with the model's own greedy translation; edit it to see how the decoder attends "
        "to a target you choose (teacher forcing).",
        "zh": "预先填入模型自己的贪心翻译；可修改，以查看解码器如何关注你给定的目标（教师强制）。",
    },
    "explorer.tokens": {
        "en": "How the model reads the prompt: {n} tokens (byte-level BPE; ␣ marks a space).",
        "zh": "模型读取输入的方式：共 {n} 个词元（字节级 BPE；␣ 表示空格）。",
    },
    "explorer.sinks_more": {"en": " (and {n} more: see the tables below)", "zh": "（另有 {n} 个：见下方的表）"},
    "explorer.tokens_sentencepiece": {
        "en": "How the model reads the prompt: {n} tokens (SentencePiece; ␣ marks a piece that starts a word).",
        "zh": "模型读取输入的方式：共 {n} 个词元（SentencePiece；␣ 表示一个词开头的片段）。",
    },
    "explorer.tokens_wordpiece": {
        "en": "How the model reads the prompt: {n} tokens (WordPiece, lower-cased; ## marks a piece that continues a word).",
        "zh": "模型读取输入的方式：共 {n} 个词元（WordPiece，转为小写；## 表示接在前一片段后的词内片段）。",
    },
    "explorer.grid_caption": {
        "en": "Every layer (rows) and head (columns) at once, like BertViz's model view; the outlined "
        "cell is the selected layer and head.",
        "zh": "一次展示所有层（行）和头（列），类似 BertViz 的模型视图；带框的格子是当前选中的层和头。",
    },
    "explorer.lines_caption": {
        "en": "Each line joins a query token (left) to a key token (right); its opacity is the attention "
        "weight, its colour the head. Click a head in the legend to hide it.",
        "zh": "每条线连接左侧的查询词元与右侧的键词元；透明度表示注意力权重，颜色表示头。点击图例中的头可隐藏它。",
    },
    "explorer.head_title": {"en": "Layer {layer}, head {head}", "zh": "第 {layer} 层，第 {head} 个头"},
    "explorer.mean_title": {"en": "Layer {layer}, mean over heads", "zh": "第 {layer} 层，各头平均"},
    "explorer.rollout_title": {"en": "Attention rollout over all layers", "zh": "所有层的注意力展开"},
    "explorer.rollout_caption": {
        "en": "Rollout (Abnar & Zuidema 2020) multiplies the head-averaged attention of each layer, with "
        "the residual connection counted as ½·I + ½·A. It estimates how much each input token flows into "
        "each position; it is an approximation, not something the model computes.",
        "zh": "注意力展开（Abnar 与 Zuidema，2020）把每层各头平均后的注意力相乘，并把残差连接记为 ½·I + ½·A。"
        "它估计每个输入词元流向每个位置的多少；这是一种近似，并非模型实际计算的量。",
    },
    "explorer.sinks": {
        "en": "Attention sinks: {heads}. These heads put most of their weight on one first, special or "
        "punctuation token. Softmax must give every row a total of 1, so a head that finds nothing "
        "useful parks its weight on a token that is always there (Xiao et al. 2023).",
        "zh": "注意力汇聚（attention sink）：{heads}。这些头把大部分权重放在第一个、特殊或标点词元上。"
        "softmax 要求每行之和为 1，所以找不到有用信息的头会把权重“停放”在总是存在的词元上（Xiao 等，2023）。",
    },
    "explorer.explain": {
        "en": "Each row is one **query** token; it shows how that token's attention is spread over the "
        "**key** tokens it may see. The weights are softmax(q·k / √d_k) in the standard form (this model's own "
        "formula is below), so every row sums to 1; a masked "
        "key gets exactly 0. Note that q·k is a *dot product*, not a cosine similarity: it grows with the "
        "lengths of q and k. The √d_k does not undo that: it compensates for the growth with d_k, the number of "
        "terms in the sum (with unit-variance entries, q·k has variance d_k; Vaswani et al. 2017, §3.2.1).",
        "zh": "每一行是一个**查询**词元，显示它的注意力如何分布在它能看到的**键**词元上。标准形式下权重为 softmax(q·k / √d_k)（本模型自己的公式见下方），"
        "因此每行之和为 1；被掩码的键权重恰好为 0。注意 q·k 是*点积*，不是余弦相似度：它随 q 和 k 的长度增长。"
        "除以 √d_k 并不抵消这一点：它补偿的是随 d_k（求和的项数）的增长（若各分量方差为 1，q·k 的方差为 d_k；"
        "Vaswani 等 2017，§3.2.1）。",
    },
    "explorer.source": {
        "en": "Scaled dot-product attention (Vaswani et al. 2017, eq. 1); M is the mask (0 or −∞). This "
        "model: d_k = {d_k}, {scale}.",
        "zh": "缩放点积注意力（Vaswani 等，2017，式 1）；M 为掩码（0 或 −∞）。本模型：d_k = {d_k}，{scale}。",
    },
    "explorer.source_relative": {
        "en": "T5's attention (Raffel et al. 2020, §2.1): q·k is not scaled, and B adds a learned number per head h "
        "and bucket of the offset j − i (key position − query position) in every self-attention layer; "
        "cross-attention has none. M is the mask (0 or −∞). This model: d_k = {d_k}, {scale}.",
        "zh": "T5 的注意力（Raffel 等 2020，§2.1）：q·k 不缩放；每个自注意力层由 B 加上一个学到的数，按头 h 和偏移 j − i"
        "（键位置 − 查询位置）所在的桶取值；交叉注意力没有这一项。M 为掩码（0 或 −∞）。本模型：d_k = {d_k}，{scale}。",
    },
    "explorer.source_softcap": {
        "en": "Gemma 2's attention (Gemma Team 2024): the scaled scores are soft-capped to ±c, c·tanh(s·q·k / c), "
        "before the mask M (0 or −∞). This model: d_k = {d_k}, {scale}, c = {cap}.",
        "zh": "Gemma 2 的注意力（Gemma Team 2024）：缩放后的分数先经软上限压到 ±c 以内，即 c·tanh(s·q·k / c)，"
        "再加掩码 M（0 或 −∞）。本模型：d_k = {d_k}，{scale}，c = {cap}。",
    },
    "explorer.download.json": {"en": "Download shown attention (JSON)", "zh": "下载所示注意力（JSON）"},
    "explorer.download.csv": {"en": "Download shown attention (CSV)", "zh": "下载所示注意力（CSV）"},
    "explorer.weighting": {"en": "Colour shows", "zh": "颜色表示"},
    "explorer.weighting.raw": {"en": "weights", "zh": "注意力权重"},
    "explorer.weighting.norm": {"en": "value-weighted", "zh": "值加权"},
    "explorer.weighting_help": {
        "en": "Weights: α_ij, what softmax gives. Value-weighted: α_ij·‖f(x_j)‖, how much each key actually adds "
        "to the output (Kobayashi et al. 2020), as a share of its row.",
        "zh": "注意力权重：softmax 给出的 α_ij。值加权：α_ij·‖f(x_j)‖，即每个键实际给输出贡献多少"
        "（Kobayashi 等，2020），按所在行的份额显示。",
    },
    "explorer.norm_label": {"en": "share of α‖f(x)‖", "zh": "α‖f(x)‖ 份额"},
    "explorer.norm_suffix": {"en": "{title} · value-weighted", "zh": "{title} · 值加权"},
    "explorer.norm_caption": {
        "en": 'Value-weighted attention (Kobayashi et al. 2020, "Attention is not only a weight"). Head h adds '
        "Σ_j α_ij f(x_j) to query i, with f(x) = (x W_V + b_V) W_O^h (W_O^h: the head's slice of the output "
        "projection; x_j: the attention's input, after the norm in pre-norm models; under GQA the W_V of the "
        "head's key/value group). Since ‖α_ij f(x_j)‖ = α_ij‖f(x_j)‖, each cell is α_ij‖f(x_j)‖ divided by its "
        "row's sum Σ_j α_ij‖f(x_j)‖: the share of that sum coming from key j. Rows sum to 1, as the weights "
        "do, so both views use one colour scale; a key with a large weight but a short f(x_j), often [CLS], "
        "[SEP], BOS or a full stop, fades. The mean over heads, the rollout and the lines use these rows in "
        "place of the weights. (The sum of the lengths is not the length of the sum: vectors pointing different "
        "ways partly cancel.)",
        "zh": "值加权注意力（Kobayashi 等，2020，“Attention is not only a weight”）。第 h 个头给查询 i 加上 "
        "Σ_j α_ij f(x_j)，其中 f(x) = (x W_V + b_V) W_O^h（W_O^h：输出投影中属于该头的部分；x_j：注意力层的输入，"
        "前置归一化模型中是归一化之后的；GQA 下用该头所在键/值组的 W_V）。由于 ‖α_ij f(x_j)‖ = α_ij‖f(x_j)‖，"
        "每个格子是 α_ij‖f(x_j)‖ 除以该行之和 Σ_j α_ij‖f(x_j)‖：这个和中来自键 j 的份额。每行之和为 1，"
        "与注意力权重相同，所以两种视图共用一个色阶；权重大但 f(x_j) 很短的键（常见的有 [CLS]、[SEP]、BOS "
        "或句号）会变淡。各头平均、注意力展开和连线图也改用这些行代替权重。（长度之和不等于和的长度："
        "方向不同的向量会部分抵消。）",
    },
    "explorer.sink_item": {
        "en": "L{layer}H{head}→{token} ({weight} of its weight, {norm} of its output norm)",
        "zh": "L{layer}H{head}→{token}（权重的 {weight}，输出范数的 {norm}）",
    },
    "explorer.sinks_norm": {
        "en": " The second number is the share of α_ij‖f(x_j)‖ (value-weighted, Kobayashi et al. 2020), averaged "
        "over the same queries: a sink whose value vectors are short adds almost nothing to the output.",
        "zh": "第二个数是 α_ij‖f(x_j)‖（值加权，Kobayashi 等，2020）中的份额，对相同的查询取平均："
        "值向量很短的汇聚点几乎不给输出增加任何东西。",
    },
    "explorer.sinks_title": {"en": "Where each head parks its attention", "zh": "每个头把注意力“停放”在哪里"},
    "explorer.sinks.start": {"en": "On [CLS] / [BOS]", "zh": "在 [CLS] / [BOS] 上"},
    "explorer.sinks.end": {"en": "On [SEP] / [EOS]", "zh": "在 [SEP] / [EOS] 上"},
    "explorer.sinks.punctuation": {"en": "On punctuation", "zh": "在标点上"},
    "explorer.sinks_explain": {
        "en": "Mean share of each head's attention (query rows from position 1 on, as in the notice above) on the opening special token ([CLS] or "
        "[BOS]), the closing one ([SEP] or [EOS]) and on punctuation, per layer (rows) and head (columns). A head with nothing useful to do often parks its weight on such tokens: "
        'softmax must put its weight somewhere (Clark et al. 2019, "What does BERT look at?"; Xiao et al. 2023 '
        "call such tokens attention sinks). In each tab the first table is the share of the weight, the second the share of α_ij‖f(x_j)‖ ÷ Σ_j α_ij‖f(x_j)‖, what the head adds to its output (Kobayashi et al. 2020).",
        "zh": "每个头的注意力（对从位置 1 起的查询行取平均，与上面的提示相同）落在开头的特殊词元（[CLS] 或 [BOS]）、结尾的特殊词元（[SEP] 或 [EOS]）和标点上的份额，按层（行）和头（列）排列。"
        "无事可做的头常把权重停放在这些词元上：softmax 总得把权重放在某处（Clark 等 2019，“What does BERT look at?”；"
        "Xiao 等 2023 称之为注意力汇聚点）。每个标签页中第一张表是权重份额，第二张是 α_ij‖f(x_j)‖ ÷ Σ_j α_ij‖f(x_j)‖ 的份额，"
        "即该头给输出增加的部分（Kobayashi 等，2020）。",
    },
    "explorer.router_title": {"en": "Mixture of experts: the router", "zh": "混合专家：路由器"},
    "explorer.router_intro": {
        "en": "Every block's feed-forward network is {n} experts and a router: each token goes to the {k} experts "
        "the router scores highest, and their outputs are summed with the gate weights. So {total} parameters are "
        "stored, but about {active} ({share}) run for each token.",
        "zh": "每个块的前馈网络由 {n} 个专家和一个路由器组成：每个词元被送到路由器打分最高的 {k} 个专家，"
        "它们的输出按门控权重相加。因此模型存有 {total} 个参数，但每个词元只用到约 {active} 个（{share}）。",
    },
    "explorer.router_choice_fig": {
        "en": "The experts each token goes to, in every layer (colour: the first choice)",
        "zh": "每一层中每个词元被送往的专家（颜色：首选专家）",
    },
    "explorer.router_probs_fig": {"en": "Layer {layer}: router probabilities", "zh": "第 {layer} 层：路由概率"},
    "explorer.router_load_fig": {"en": "Layer {layer}: load per expert", "zh": "第 {layer} 层：各专家的负载"},
    "explorer.router_caption": {
        "en": "Router probabilities are the softmax of the router's logits over all experts; the gates renormalise "
        "the top {k} to sum to 1, as Mixtral's code does (Jiang et al. 2024, §2.1). Load-balancing loss on this "
        "prompt in layer {layer}: {aux} (1 is a perfectly even load; Fedus et al. 2021, eq. 4). Shown is "
        "n · Σᵢ fᵢ · Pᵢ with fᵢ the share of the token-to-expert assignments (the fᵢ sum to 1); transformers' "
        "load_balancing_loss_func counts each token's k choices against the tokens (its fᵢ sum to k), so it "
        "reports k × this, {hf} here (k at an even load), and it pools all layers' tokens before multiplying.",
        "zh": "路由概率是路由器 logits 在全部专家上的 softmax；门控权重把前 {k} 个概率重新归一化为和为 1，"
        "与 Mixtral 的代码一致（Jiang 等 2024，§2.1）。本输入在第 {layer} 层的负载均衡损失：{aux}"
        "（1 表示完全均衡；Fedus 等 2021，式 4）。这里显示的是 n · Σᵢ fᵢ · Pᵢ，fᵢ 为（词元, 专家）分配中给专家 i "
        "的占比（各 fᵢ 之和为 1）；transformers 的 load_balancing_loss_func 把每个词元的 k 个选择都按词元数计比例"
        "（其 fᵢ 之和为 k），所以它报告的是这个值的 k 倍，这里为 {hf}（负载均衡时为 k），并且它先把所有层的词元合在一起再相乘。",
    },
}
