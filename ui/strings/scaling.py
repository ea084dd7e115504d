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
        "K/V 投影参数更少，缓存减为原来的 n_kv_heads / n_heads。",
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
    # the timeline section (lessons/scaling_timeline.py)
    "scaling.tl.title": {"en": "A timeline of models, GPT-1 to Qwen2.5", "zh": "模型时间线：从 GPT-1 到 Qwen2.5"},
    "scaling.tl.intro": {
        "en": "Each row is one model as its paper or model card publishes it. The parameter count is computed "
        "from the published architecture with the same formula as above; vocabulary, context, norm, feed-forward, "
        "positions and attention are read from that architecture; only the date, the training tokens and the "
        "published size are typed in, each with its source. *Not published* means the source does not say: "
        "a rumour is not a number.",
        "zh": "每一行是一个模型，按其论文或模型卡公开的内容列出。参数量用与上文相同的公式由公开的架构算出；"
        "词表、上下文、归一化、前馈网络、位置编码和注意力都直接读自该架构；只有日期、训练词元数和公开的规模是手工填入的，"
        "并各自注明出处。*未公开*表示出处没有给出：传闻不是数据。",
    },
    "scaling.tl.unpublished": {"en": "not published", "zh": "未公开"},
    "scaling.tl.col.date": {"en": "date", "zh": "日期"},
    "scaling.tl.col.params": {"en": "parameters: computed (published)", "zh": "参数量：计算值（公开值）"},
    "scaling.tl.col.tokens": {"en": "training tokens", "zh": "训练词元数"},
    "scaling.tl.col.ratio": {"en": "tokens / parameter", "zh": "词元数 / 参数"},
    "scaling.tl.col.context": {"en": "context", "zh": "上下文"},
    "scaling.tl.col.vocab": {"en": "vocabulary", "zh": "词表"},
    "scaling.tl.col.norm": {"en": "norm", "zh": "归一化"},
    "scaling.tl.col.ffn": {"en": "feed-forward", "zh": "前馈网络"},
    "scaling.tl.col.pos": {"en": "positions", "zh": "位置编码"},
    "scaling.tl.col.attn": {"en": "attention", "zh": "注意力"},
    "scaling.tl.col.source": {"en": "source", "zh": "出处"},
    "scaling.tl.pre": {"en": "pre-{norm}", "zh": "前置 {norm}"},
    "scaling.tl.post": {"en": "post-{norm}", "zh": "后置 {norm}"},
    "scaling.tl.pos.learned": {"en": "learned", "zh": "可学习"},
    "scaling.tl.pos.rope": {"en": "RoPE", "zh": "RoPE"},
    "scaling.tl.pos.sinusoidal": {"en": "sinusoidal", "zh": "正弦"},
    "scaling.tl.pos.none": {"en": "none", "zh": "无"},
    "scaling.tl.fine_tuned": {"en": "{tokens} (of {base}) + fine-tuning", "zh": "{tokens}（{base} 的）+ 微调"},
    "scaling.tl.caption": {
        "en": "Vocabulary: rows of the embedding matrix (Qwen2.5 pads its tokenizer's vocabulary to 152,064 rows). "
        "Tokens / parameter: published training tokens divided by the computed parameters.",
        "zh": "词表：嵌入矩阵的行数（Qwen2.5 把分词器的词表填充到 152,064 行）。词元数 / 参数：公开的训练词元数除以计算出的参数量。",
    },
    "scaling.tl.notes": {"en": "Notes on single rows", "zh": "个别行的说明"},
    "scaling.tl.note.gpt1": {
        "en": "GPT-1: trained for 100 epochs on minibatches of 64 sequences of 512 tokens from BooksCorpus "
        "(about 7,000 books); the paper gives no total token count. GPT-1 itself runs in this app: add "
        "`openai-community/openai-gpt` with the sidebar's “Add a model…” (or run "
        "`python -m models.fetch openai-community/openai-gpt`) and pick it in the model list.",
        "zh": "GPT-1：在 BooksCorpus（约 7,000 本书）上以每批 64 个、每个 512 词元的序列训练了 100 个 epoch；论文没有给出总词元数。"
        "GPT-1 本身可以在本应用中运行：用侧边栏的“添加模型……”添加 `openai-community/openai-gpt`"
        "（或运行 `python -m models.fetch openai-community/openai-gpt`），再在模型列表中选中它。",
    },
    "scaling.tl.note.gpt2": {
        "en": "GPT-2: WebText, 8 million documents, 40 GB of text; the paper gives no token count.",
        "zh": "GPT-2：WebText，800 万篇文档，40 GB 文本；论文没有给出词元数。",
    },
    "scaling.tl.note.gpt3_xl": {
        "en": "GPT-3 1.3B: Table 2.1 prints 24 heads of 128 dimensions, which do not multiply to d_model = 2048; "
        "counted here with 16 heads of 128 (the count does not depend on how d_model is split into heads).",
        "zh": "GPT-3 1.3B：表 2.1 写的是 24 个 128 维的头，乘起来不等于 d_model = 2048；这里按 16 个 128 维的头计算"
        "（参数量与 d_model 如何划分成头无关）。",
    },
    "scaling.tl.note.gpt3_13b": {
        "en": "GPT-3 13B: Table 2.1 prints d_model = 5140, which is not 40 heads × 128 = 5120; counted with 5120.",
        "zh": "GPT-3 13B：表 2.1 写的是 d_model = 5140，不等于 40 个头 × 128 = 5120；这里按 5120 计算。",
    },
    "scaling.tl.note.instructgpt": {
        "en": "InstructGPT: GPT-3 fine-tuned in three steps: supervised fine-tuning on about 13k prompts with "
        "demonstrations, a reward model on about 33k prompts with ranked answers, and PPO on about 31k prompts "
        "(Ouyang et al. 2022, §3.2, Table 6). Counted in prompts, not tokens; the pre-training is GPT-3's 300B "
        "tokens. The paper does not say which GPT-3 its 6B model starts from: this table counts it with GPT-3 "
        "6.7B's shape, an assumption of this page.",
        "zh": "InstructGPT：在 GPT-3 基础上分三步微调：用约 13k 个带示范回答的提示做监督微调（SFT），"
        "用约 33k 个带排序回答的提示训练奖励模型，再用约 31k 个提示做 PPO（Ouyang 等 2022，§3.2，表 6）。"
        "这些按提示计数，而不是词元；预训练就是 GPT-3 的 300B 词元。论文没有说明其 6B 模型基于哪个 GPT-3："
        "本表按 GPT-3 6.7B 的结构计算，这是本页的假设。",
    },
    "scaling.tl.note.llama33": {
        "en": "LLaMA-33B: the paper's tables name it 33B (32.5B parameters); Meta's download called the same "
        "model 30B, which is why it is often called LLaMA-30B.",
        "zh": "LLaMA-33B：论文的表格称其为 33B（32.5B 个参数）；Meta 发布的下载文件把同一个模型叫作 30B，所以它常被称为 LLaMA-30B。",
    },
    "scaling.tl.note.llama31": {
        "en": "Llama 3.1: the model card gives about 15T training tokens; Dubey et al. 2024 (§3) give 15.6T for the "
        "405B model. Context grows from 8,192 to 131,072 tokens in a final long-context stage.",
        "zh": "Llama 3.1：模型卡给出的训练词元数约为 15T；Dubey 等 2024（§3）给出 405B 模型为 15.6T。"
        "上下文在最后的长上下文训练阶段从 8,192 扩展到 131,072 个词元。",
    },
    "scaling.tl.note.qwen": {
        "en": "Qwen2.5-7B: 18T pre-training tokens (Qwen2.5 technical report, §3.1). The model card gives "
        "131,072 tokens of context, beyond 32,768 with YaRN.",
        "zh": "Qwen2.5-7B：预训练 18T 个词元（Qwen2.5 技术报告，§3.1）。模型卡给出的上下文为 131,072 个词元，"
        "超过 32,768 的部分依靠 YaRN。",
    },
    "scaling.tl.note.gpt4": {
        "en": "GPT-4: the technical report (§2) publishes no architecture, size, training compute or data. The "
        "parameter counts and mixture-of-experts figures that circulate are rumours, not published data.",
        "zh": "GPT-4：技术报告（§2）没有公开架构、规模、训练算力或数据。流传的参数量和混合专家（MoE）数字都是传闻，不是公开数据。",
    },
    "scaling.tl.ratio_fig": {
        "en": "Training tokens per parameter, against Chinchilla's 20",
        "zh": "每个参数的训练词元数，与 Chinchilla 的 20 对比",
    },
    "scaling.tl.ratio_axis": {"en": "tokens per parameter", "zh": "每个参数的词元数"},
    "scaling.tl.ratio_model": {"en": "published", "zh": "公开值"},
    "scaling.tl.ratio_twenty": {"en": "20 (Chinchilla)", "zh": "20（Chinchilla）"},
    "scaling.tl.fixes_title": {"en": "What some notes get wrong", "zh": "一些笔记中的错误"},
    "scaling.tl.fixes": {
        "en": "- **LLaMA-1 sizes are {sizes}**, not 7/13/30/65B: the paper's tables name the third model LLaMA-33B "
        "({p33} parameters counted); only Meta's download called it 30B.\n"
        "- **LLaMA-1 used MHA** ({kv1}). GQA came with Llama 2's 34B and 70B models ({kv2}) and is used by every "
        "Llama 3 model.\n"
        "- **Llama 3's vocabulary grew ×{ratio}**: {v1} tokens (LLaMA-1 and Llama 2) → {v3}.\n"
        "- **Training tokens**: Llama 2 used {t2} and Llama 3 {t3} tokens (LLaMA-1: 1.0T and 1.4T).\n"
        "- **Chinchilla's fits span {lo} to {hi} parameters** ({dlo} to {dhi} tokens). Larger models are "
        "extrapolations: GPT-3 175B is {beyond}× the largest fitted size.\n"
        "- **LLaMA-1 trained past compute-optimal on purpose**: LLaMA-7B saw {r7} tokens per parameter, not 20. "
        "For the same compute, the 20:1 rule would pick {n20} parameters on {d20} tokens. Touvron et al. (2023a, "
        "§1) chose a smaller model trained longer because the inference budget, not the training budget, "
        "decides what a model costs once it is served.",
        "zh": "- **LLaMA-1 的规模是 {sizes}**，而不是 7/13/30/65B：论文的表格把第三个模型称为 LLaMA-33B"
        "（计算得 {p33} 个参数）；只有 Meta 的下载文件把它叫作 30B。\n"
        "- **LLaMA-1 使用 MHA**（{kv1}）。GQA 是随 Llama 2 的 34B 和 70B 模型（{kv2}）才引入的，Llama 3 的所有模型都使用它。\n"
        "- **Llama 3 的词表扩大到原来的 {ratio} 倍**：{v1} 个词元（LLaMA-1 和 Llama 2）→ {v3}。\n"
        "- **训练词元数**：Llama 2 用了 {t2}，Llama 3 用了 {t3} 个词元（LLaMA-1：1.0T 和 1.4T）。\n"
        "- **Chinchilla 的拟合覆盖 {lo} 到 {hi} 个参数**（{dlo} 到 {dhi} 个词元）。更大的模型属于外推："
        "GPT-3 175B 是拟合中最大规模的 {beyond} 倍。\n"
        "- **LLaMA-1 是有意超过计算最优点训练的**：LLaMA-7B 每个参数见过 {r7} 个词元，而不是 20。"
        "同样的算力按 20:1 的规则会选择 {n20} 个参数、{d20} 个词元。Touvron 等（2023a，§1）选择更小、训练更久的模型，"
        "因为模型部署之后决定其成本的是推理预算，而不是训练预算。",
    },
    "scaling.tl.kv": {"en": "{heads} query heads, {kv} K/V heads", "zh": "{heads} 个查询头，{kv} 个 K/V 头"},
    "scaling.tl.exp_title": {
        "en": "Compute-optimal exponents: where a bigger budget goes",
        "zh": "计算最优指数：更大的预算花在哪里",
    },
    "scaling.tl.exp_intro": {
        "en": "Both papers fit how the compute-optimal model size and data grow with the budget: N_opt ∝ C^a and "
        "D_opt ∝ C^b, with a + b = 1 because C ≈ 6·N·D (6 FLOPs per parameter per token; a multiply-add counts as 2 "
        "FLOPs). Kaplan et al. (2020) put most of a larger budget into parameters; Chinchilla (Hoffmann et al. "
        "2022) splits it about evenly. The exponents are the papers' (Hoffmann et al. 2022, Table 2); the growth "
        "factors are computed.",
        "zh": "两篇论文都拟合了计算最优的模型规模和数据量如何随预算增长：N_opt ∝ C^a，D_opt ∝ C^b，且 a + b = 1，"
        "因为 C ≈ 6·N·D（每个参数每个词元 6 次浮点运算；一次乘加算 2 次浮点运算）。Kaplan 等（2020）把增加的预算大多投入参数；"
        "Chinchilla（Hoffmann 等 2022）则大致平分。指数取自论文（Hoffmann 等 2022，表 2）；增长倍数为计算所得。",
    },
    "scaling.tl.factor": {"en": "Budget grows by", "zh": "预算增长倍数"},
    "scaling.tl.col.law": {"en": "fit", "zh": "拟合"},
    "scaling.tl.col.params_x": {"en": "parameters ×", "zh": "参数 ×"},
    "scaling.tl.col.tokens_x": {"en": "tokens ×", "zh": "词元 ×"},
    "scaling.tl.col.ratio_x": {"en": "tokens / parameter ×", "zh": "词元数 / 参数 ×"},
    "scaling.tl.law.kaplan": {"en": "Kaplan et al. 2020 (eq. 1.7)", "zh": "Kaplan 等 2020（式 1.7）"},
    "scaling.tl.law.chinchilla1": {
        "en": "Chinchilla, Approach 1 (fixed model sizes)",
        "zh": "Chinchilla，方法 1（固定模型规模）",
    },
    "scaling.tl.law.chinchilla2": {
        "en": "Chinchilla, Approach 2 (IsoFLOP profiles)",
        "zh": "Chinchilla，方法 2（等算力曲线）",
    },
    "scaling.tl.law.chinchilla3": {
        "en": "Chinchilla, Approach 3 (parametric fit)",
        "zh": "Chinchilla，方法 3（参数化拟合）",
    },
    "scaling.tl.exp_explain": {
        "en": "With {factor}× the compute, Kaplan's fit makes the model {kn}× larger and feeds it only {kd}× the "
        "tokens; Chinchilla's Approach 3 makes it {cn}× larger on {cd}× the tokens. GPT-3 175B was trained on "
        "300B tokens ({g3} per parameter); Chinchilla's answer was a 70B model on 1.4T. From the "
        "rounded α = {alpha}, β = {beta} printed with eq. 10, a = β/(α+β) = {a3} and b = {b3}; Table 2 prints "
        "0.46 / 0.54. Where the difference comes from is not known: the table's own interval for a does not "
        "contain 0.46. The 0.5 / 0.5 of Approaches 1 and 2 is where the 20 tokens per "
        "parameter rule comes from: it keeps D/N constant as the budget grows.",
        "zh": "算力变为 {factor} 倍时，按 Kaplan 的拟合，模型变大 {kn} 倍，而词元只增加 {kd} 倍；按 Chinchilla 的方法 3，"
        "模型变大 {cn} 倍，词元增加 {cd} 倍。GPT-3 175B 只训练了 300B 个词元（每个参数 {g3} 个）；"
        "Chinchilla 的答案则是 70B 模型配 1.4T 个词元。由式 10 给出的取整后的 α = {alpha}、β = {beta} 可得 "
        "a = β/(α+β) = {a3}，b = {b3}；表 2 印的是 0.46 / 0.54。差异从何而来尚不清楚：表中给 a 的区间本身并不包含 0.46。"
        "方法 1 和 2 的 0.5 / 0.5 正是"
        "“每个参数 20 个词元”这一经验法则的来源：预算增长时 D/N 保持不变。",
    },
}
