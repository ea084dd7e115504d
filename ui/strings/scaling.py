"""Strings of the model-size and scaling-laws page."""

STRINGS: dict[str, dict[str, str]] = {
    "scaling.intro": {
        "en": "Every count on this page is computed from a model's published hyper-parameters with the same formula "
        "the app's own Transformer is tested against (`models.analysis.parameter_counts`); nothing is typed in "
        "except the hyper-parameters, the published totals they are compared with, and the papers' constants.",
        "zh": "本页的每个参数量都由模型公开的超参数算出，所用公式与检验本应用自带 Transformer 的公式相同"
        "（`models.analysis.parameter_counts`）；除了超参数、用来对照的公开总数和论文中的常数，没有任何数字是手工填入的。",
    },
    "scaling.catalog_title": {"en": "Published models, counted", "zh": "逐个计算公开模型的参数量"},
    "scaling.col.model": {"en": "model", "zh": "模型"},
    "scaling.col.arch": {"en": "architecture", "zh": "架构"},
    "scaling.col.layers": {"en": "layers", "zh": "层数"},
    "scaling.col.heads": {"en": "heads (query / KV)", "zh": "头数（查询 / KV）"},
    "scaling.col.vocab": {"en": "vocabulary", "zh": "词表"},
    "scaling.col.computed": {"en": "computed", "zh": "计算值"},
    "scaling.col.published": {"en": "published", "zh": "公开值"},
    "scaling.col.diff": {"en": "difference", "zh": "差异"},
    "scaling.col.source": {"en": "published in", "zh": "出处"},
    "scaling.col.rule": {"en": "allocation", "zh": "分配方式"},
    "scaling.catalog_explain": {
        "en": "BERT's count includes its pooler (a d×d layer on [CLS]) and not its pre-training heads, as in the "
        "released `BertModel`. Llama and Qwen do not tie the output layer to the embeddings, so their vocabulary "
        "is paid for twice. Qwen2.5 has biases on q, k and v only.",
        "zh": "BERT 的参数量包含其池化层（作用在 [CLS] 上的 d×d 层），不含预训练用的输出头，与发布的 `BertModel` 一致。"
        "Llama 和 Qwen 的输出层不与嵌入共享权重，所以词表的参数要付出两次。Qwen2.5 只在 q、k、v 上有偏置。",
    },
    "scaling.gpt2_note": {
        "en": "The GPT-2 paper's Table 2 lists the smaller sizes below the released checkpoints: this configuration "
        "counts {computed}, the table says {published}. The formula gives {small} for GPT-2 small, the exact size of "
        "the released checkpoint; the table's figures are known to be too low for the smaller sizes.",
        "zh": "GPT-2 论文的表 2 给出的较小规模的参数量低于发布的检查点：此配置算得 {computed}，表中写的是 {published}。"
        "公式算出 GPT-2 small 为 {small}，正好是发布的检查点的大小；表中较小规模的数字已知偏低。",
    },
    "scaling.pick": {"en": "Look inside", "zh": "查看内部"},
    "scaling.treemap_fig": {"en": "Where the parameters of {model} are", "zh": "{model} 的参数都在哪里"},
    "scaling.block": {
        "en": "**One block of {model}:** attention {attn} parameters, feed-forward {ffn} ({ffn_mats} matrices), "
        "× {layers} layers. **Embeddings:** {emb} ({emb_share} of the model).",
        "zh": "**{model} 的一个模块：** 注意力 {attn} 个参数，前馈网络 {ffn} 个（{ffn_mats} 个矩阵），× {layers} 层。"
        "**嵌入：** {emb}（占模型的 {emb_share}）。",
    },
    "scaling.tree_help": {
        "en": "Built on PyTorch's meta device: shapes and names only, no memory used, so an 8B model prints instantly.",
        "zh": "在 PyTorch 的 meta 设备上构建：只有形状和名称，不占内存，所以 8B 模型也能立即打印出来。",
    },
    "scaling.kv_encoder": {
        "en": "{model} is an encoder: it reads its whole input at once and does not generate token by token, so it "
        "keeps no KV cache. The numbers below are what a decoder of the same shape would store.",
        "zh": "{model} 是编码器：它一次读入全部输入，不会逐个生成词元，因此没有 KV 缓存。下面的数字是同样形状的解码器会存储的量。",
    },
    "scaling.tree_toggle": {
        "en": "Show the module tree",
        "zh": "显示模块树",
    },
    "scaling.kv_title": {"en": "Grouped-query attention and the KV cache", "zh": "分组查询注意力与 KV 缓存"},
    "scaling.kv_intro": {
        "en": "While generating, a decoder keeps every past token's keys and values (the KV cache) so they are not "
        "recomputed. The cache grows by 2 (K and V) × layers × KV heads × d_head values per token. GQA (Ainslie et "
        "al. 2023) lets groups of query heads share one K/V head: fewer K/V projection parameters and a cache "
        "smaller by n_heads / n_kv_heads.",
        "zh": "生成时，解码器保存之前每个词元的键和值（KV 缓存），以免重复计算。每多一个词元，缓存增加 "
        "2（K 和 V）× 层数 × KV 头数 × d_head 个数值。GQA（Ainslie 等 2023）让每组查询头共享一个 K/V 头："
        "K/V 投影参数更少，缓存缩小 n_heads / n_kv_heads 倍。",
    },
    "scaling.kv_ctx": {"en": "Context length (tokens)", "zh": "上下文长度（词元数）"},
    "scaling.kv_dtype": {"en": "Cache precision", "zh": "缓存精度"},
    "scaling.kv_per_token": {"en": "{model}: KV cache per token", "zh": "{model}：每个词元的 KV 缓存"},
    "scaling.kv_formula": {
        "en": "2 × {layers} layers × {kv} KV heads × {d_head} dims × {bytes} bytes = {total} bytes",
        "zh": "2 × {layers} 层 × {kv} 个 KV 头 × {d_head} 维 × {bytes} 字节 = {total} 字节",
    },
    "scaling.kv_context": {"en": "KV cache at {ctx} tokens", "zh": "{ctx} 个词元时的 KV 缓存"},
    "scaling.kv_vs_mha": {"en": "{mha} GiB with MHA", "zh": "MHA 下为 {mha} GiB"},
    "scaling.kv_saved": {"en": "K/V projection parameters saved", "zh": "节省的 K/V 投影参数"},
    "scaling.kv_saved_help": {
        "en": "2 (W_k and W_v) × layers × d_model × ({heads} − {kv}) × d_head, plus their biases if the model has "
        "them: the K/V heads MHA would have and GQA does not.",
        "zh": "2（W_k 和 W_v）× 层数 × d_model × ({heads} − {kv}) × d_head，若模型有偏置再加上这些偏置：即 MHA 会有而 GQA 没有的那些 K/V 头。",
    },
    "scaling.kv_mha_note": {
        "en": "{model} uses MHA (one K/V head per query head): nothing is saved.",
        "zh": "{model} 使用 MHA（每个查询头各有一个 K/V 头）：没有节省。",
    },
    "scaling.kv_actual": {"en": "as published", "zh": "公开配置"},
    "scaling.kv_if_mha": {"en": "with MHA", "zh": "改用 MHA"},
    "scaling.kv_axis": {"en": "KiB per token ({dtype})", "zh": "每个词元的 KiB（{dtype}）"},
    "scaling.kv_fig": {"en": "KV cache per token, decoder models", "zh": "每个词元的 KV 缓存（解码器模型）"},
    "scaling.albert_title": {"en": "ALBERT's factorised embedding", "zh": "ALBERT 的分解式嵌入"},
    "scaling.albert_intro": {
        "en": "BERT's embedding is a V × H matrix. ALBERT (Lan et al. 2020, §3.1) embeds tokens in a small E and "
        "projects up to H: V × E + E × H parameters. It saves when E is well below H; the example in the notes is "
        "V = 30 000, H = 768, E = 128.",
        "zh": "BERT 的嵌入是一个 V × H 矩阵。ALBERT（Lan 等 2020，§3.1）先把词元嵌入到较小的 E 维，再投影到 H："
        "共 V × E + E × H 个参数。E 远小于 H 时能节省参数；笔记中的例子是 V = 30 000、H = 768、E = 128。",
    },
    "scaling.albert_v": {"en": "Vocabulary V", "zh": "词表大小 V"},
    "scaling.albert_h": {"en": "Hidden size H", "zh": "隐藏层大小 H"},
    "scaling.albert_e": {"en": "Embedding size E", "zh": "嵌入大小 E"},
    "scaling.albert_full_help": {"en": "{v} × {h}", "zh": "{v} × {h}"},
    "scaling.albert_even": {"en": "break-even E", "zh": "持平点 E"},
    "scaling.albert_even_help": {
        "en": "V·E + E·H = V·H at E = V·H / (V + H): above it, factorising costs parameters.",
        "zh": "E = V·H / (V + H) 时 V·E + E·H = V·H：E 超过它，分解反而会增加参数。",
    },
    "scaling.albert_fig": {
        "en": "Embedding parameters against E (solid line: E = {e})",
        "zh": "嵌入参数量随 E 的变化（实线：E = {e}）",
    },
    "scaling.kaplan_title": {
        "en": "Kaplan et al. 2020: loss against size and data",
        "zh": "Kaplan 等 2020：损失随模型规模与数据量的变化",
    },
    "scaling.kaplan_intro": {
        "en": "Kaplan et al. fit power laws to the test loss (nats per token, on their WebText2 data) of models "
        "trained with enough data (L(N)) or a large model stopped early (L(D)). N counts **non-embedding** "
        "parameters. Both are power laws, straight lines when both axes are logarithmic; here the loss axis is "
        "linear, so its values can be read off.",
        "zh": "Kaplan 等对测试损失（在他们的 WebText2 数据上，单位为奈特/词元）拟合了幂律：一种针对用足够多数据训练的模型"
        "（L(N)），另一种针对提前停止训练的大模型（L(D)）。N 只统计**非嵌入**参数。两者都是幂律，在两条坐标轴都取对数时是直线；"
        "这里损失轴是线性的，便于直接读数。",
    },
    "scaling.kaplan_constants": {
        "en": "Constants (Kaplan et al. 2020, eqs. 1.1, 1.2, 1.5): N_c = {nc}, α_N = {an}, D_c = {dc} tokens, "
        "α_D = {ad}. Some notes print D_c in L(N): the constant there is **N_c**, a number of parameters, not of "
        "tokens.",
        "zh": "常数（Kaplan 等 2020，式 1.1、1.2、1.5）：N_c = {nc}，α_N = {an}，D_c = {dc} 个词元，α_D = {ad}。"
        "有些笔记在 L(N) 里写的是 D_c：那里的常数是 **N_c**，是参数个数，而不是词元个数。",
    },
    "scaling.loss": {"en": "loss (nats per token)", "zh": "损失（奈特/词元）"},
    "scaling.kaplan_n_fig": {"en": "L(N)", "zh": "L(N)"},
    "scaling.kaplan_d_fig": {"en": "L(D)", "zh": "L(D)"},
    "scaling.chin_title": {
        "en": "Chinchilla (Hoffmann et al. 2022): how to split a compute budget",
        "zh": "Chinchilla（Hoffmann 等 2022）：如何分配计算预算",
    },
    "scaling.chin_intro": {
        "en": "Chinchilla's parametric fit (their Approach 3) adds an irreducible loss E, the entropy of text, to a "
        "term for a finite model and one for finite data. Training costs about 6 FLOPs per parameter per token "
        "(2 forward, 4 backward), so a budget C fixes the product N·D.",
        "zh": "Chinchilla 的参数化拟合（论文中的方法 3）在有限模型项和有限数据项之外，再加上一个不可约损失 E，即文本的熵。"
        "训练时每个参数每个词元约需 6 次浮点运算（FLOPs；前向 2 次，反向 4 次），所以预算 C 确定了乘积 N·D。",
    },
    "scaling.chin_constants": {
        "en": "Published constants (Hoffmann et al. 2022, eq. 10): E = {e}, A = {a}, B = {b}, α = {alpha}, β = {beta}.",
        "zh": "公开的常数（Hoffmann 等 2022，式 10）：E = {e}，A = {a}，B = {b}，α = {alpha}，β = {beta}。",
    },
    "scaling.budget": {"en": "Compute budget C (FLOPs)", "zh": "计算预算 C（FLOPs）"},
    "scaling.budget_help": {
        "en": "The default, 6 × 70B × 1.4T = {c} FLOPs, is Chinchilla's own budget.",
        "zh": "默认值 6 × 70B × 1.4T = {c} FLOPs，正是 Chinchilla 自己的计算预算。",
    },
    "scaling.n_axis": {"en": "parameters N", "zh": "参数量 N"},
    "scaling.d_axis": {"en": "training tokens D", "zh": "训练词元数 D"},
    "scaling.frontier": {"en": "compute-optimal (exact minimum of L)", "zh": "计算最优（L 的精确最小值）"},
    "scaling.contours_caption": {
        "en": "Contours: equal predicted loss. Dashed: equal compute C = 6ND. The compute-optimal line is where "
        "each dashed line touches the lowest contour. Points: published (N, D) of known models.",
        "zh": "等高线：预测损失相等。虚线：计算量 C = 6ND 相等。计算最优线由每条虚线与它所能触及的最低等高线的切点连成。"
        "点：已知模型公开的 (N, D)。",
    },
    "scaling.rule.exact": {"en": "exact minimum of the fitted L(N, D)", "zh": "拟合的 L(N, D) 的精确最小值"},
    "scaling.rule.twenty": {"en": "20 tokens per parameter", "zh": "每个参数 20 个词元"},
    "scaling.chin_explain": {
        "en": "Minimising the published formula exactly gives about **{ratio} tokens per parameter** at this budget, "
        "not 20. The well-known 20:1 (Chinchilla: 70B parameters on 1.4T tokens) comes from the paper's other two "
        "approaches; Besiroglu et al. (2024) showed that the published Approach 3 estimates are inconsistent with "
        "them. The loss is flat near the optimum: the 20:1 split costs only {gap} nats here.",
        "zh": "对公开的公式精确求最小值，在这个预算下得到约**每个参数 {ratio} 个词元**，而不是 20。"
        "广为人知的 20:1（Chinchilla：70B 参数、1.4T 词元）来自论文的另外两种方法；Besiroglu 等（2024）指出，"
        "公开的方法 3 估计值与它们不一致。损失在最优点附近很平坦：这里按 20:1 分配只多出 {gap} 奈特。",
    },
    "scaling.known_caption": {
        "en": "Published parameters and training tokens of each model; C and the loss are computed with the "
        "formulas above. The losses are the Chinchilla fit's prediction for its own data, not measured losses of "
        "these models (they were trained on other data).",
        "zh": "各模型公开的参数量和训练词元数；C 和损失用上面的公式算出。这些损失是 Chinchilla 拟合对其自身数据的预测，"
        "而不是这些模型实测的损失（它们是在其他数据上训练的）。",
    },
}
