"""Strings of the architecture lab."""

STRINGS: dict[str, dict[str, str]] = {
    "lab.intro": {
        "en": "Each side is one configuration of the app's single Transformer implementation, set under **Configure A "
        "and B** below. A change builds a new model at once, **randomly initialised** from its seed: what you see is "
        "what the architecture does before learning anything.",
        "zh": "每一侧都是本应用唯一那套 Transformer 实现的一种配置，在下方的**配置 A 和 B**中设置。任何改动都会立即构建一个新模型，"
        "并按其种子**随机初始化**：你看到的是该架构在学到任何东西之前的行为。",
    },
    "lab.train_intro": {
        "en": "**Train this variant** trains it on the app's generated data (the same recipe and the same batches for A "
        "and B), and the trained weights are kept on disk for next time.",
        "zh": "**训练这个变体**会在本应用生成的数据上训练它（A 和 B 使用相同的方案和相同的批次），训练好的权重保存在磁盘上，"
        "下次直接可用。",
    },
    "lab.sidebar_note": {
        "en": "This page builds its own models: the sidebar's model picker does not apply here. Its weights switch "
        "does: “random” shows the random initialisation even of a variant trained here.",
        "zh": "本页自行构建模型：侧边栏的模型选择在这里不起作用。侧边栏的权重开关则有效：选“随机初始化”时，"
        "即使是在这里训练过的变体，也显示其随机初始化。",
    },
    "lab.configure_title": {"en": "Configure A and B", "zh": "配置 A 和 B"},
    "lab.side.a": {"en": "A", "zh": "A"},
    "lab.side.b": {"en": "B", "zh": "B"},
    "lab.preset": {"en": "Start from", "zh": "起始配置"},
    "lab.preset.llama": {"en": "Llama 3-style (GQA; LLaMA-1 used MHA)", "zh": "Llama 3 式（GQA；LLaMA-1 用 MHA）"},
    "lab.preset.gpt2": {"en": "GPT-2-style", "zh": "GPT-2 式"},
    "lab.preset.bert": {"en": "BERT-style", "zh": "BERT 式"},
    "lab.preset.vaswani": {"en": "Vaswani 2017", "zh": "Vaswani 2017"},
    "lab.preset.induction": {"en": "Induction head forms", "zh": "归纳头形成"},
    "lab.preset.mixtral": {"en": "Mixtral-style (8 experts, top-2)", "zh": "Mixtral 式（8 个专家，top-2）"},
    "lab.arch": {"en": "Architecture", "zh": "架构"},
    "lab.layers": {"en": "Layers", "zh": "层数"},
    "lab.layers_help": {
        "en": "Blocks per stack (an encoder-decoder has this many in the encoder and in the decoder).",
        "zh": "每个堆栈的块数（编码器-解码器的编码器和解码器中各有这么多块）。",
    },
    "lab.d_help": {
        "en": "Width of the residual stream; each head gets d_model / heads dimensions (d_head).",
        "zh": "残差流的宽度；每个头分得 d_model / heads 维（d_head）。",
    },
    "lab.heads": {"en": "Query heads", "zh": "查询头数"},
    "lab.heads_help": {
        "en": "Heads of every attention layer. d_head = d_model / heads.",
        "zh": "每个注意力层的头数。d_head = d_model / heads。",
    },
    "lab.kv": {"en": "Key/value heads", "zh": "键/值头数"},
    "lab.kv.mha": {"en": "{k} (MHA)", "zh": "{k}（MHA）"},
    "lab.kv.gqa": {"en": "{k} (GQA, groups of {group})", "zh": "{k}（GQA，每组 {group} 个头）"},
    "lab.kv.mqa": {"en": "1 (MQA, one for all)", "zh": "1（MQA，所有头共享）"},
    "lab.kv_help": {
        "en": "Grouped-query attention (Ainslie et al. 2023): groups of query heads share one key and one value "
        "projection. Fewer K/V heads mean fewer parameters and a smaller KV cache.",
        "zh": "分组查询注意力（GQA，Ainslie 等 2023）：每组查询头共享一个键投影和一个值投影。K/V 头越少，参数越少，"
        "KV 缓存也越小。",
    },
    "lab.ff_help": {
        "en": "Hidden width of the feed-forward network (for SwiGLU: of each of its two input branches).",
        "zh": "前馈网络的隐藏层宽度（对 SwiGLU 而言，是其两条输入分支各自的宽度）。",
    },
    "lab.norm_position": {"en": "Norm position", "zh": "归一化位置"},
    "lab.norm_position.pre": {"en": "Pre-norm: x + f(norm(x))", "zh": "前置归一化：x + f(norm(x))"},
    "lab.norm_position.post": {"en": "Post-norm: norm(x + f(x))", "zh": "后置归一化：norm(x + f(x))"},
    "lab.norm_position.sandwich": {
        "en": "Sandwich (Gemma): x + norm(f(norm(x)))",
        "zh": "三明治（Gemma）：x + norm(f(norm(x)))",
    },
    "lab.norm_position_help": {
        "en": "Post-norm is the original Transformer's and BERT's; pre-norm (GPT-2, Llama) keeps a clean residual "
        "path and trains more stably without a long warm-up (Xiong et al. 2020).",
        "zh": "后置归一化是原始 Transformer 和 BERT 的做法；前置归一化（GPT-2、Llama）保留一条干净的残差路径，"
        "不需要长时间预热也能训练得更稳定（Xiong 等 2020）。",
    },
    "lab.norm": {"en": "Norm", "zh": "归一化"},
    "lab.norm.layernorm": {"en": "LayerNorm", "zh": "LayerNorm"},
    "lab.norm.rmsnorm": {"en": "RMSNorm", "zh": "RMSNorm"},
    "lab.norm_help": {
        "en": "LayerNorm subtracts the mean and divides by the standard deviation, then applies a gain and a bias. "
        "RMSNorm (Zhang & Sennrich 2019) only divides by the root mean square and applies a gain: no centring, "
        "no bias.",
        "zh": "LayerNorm 减去均值、除以标准差，再乘以增益并加上偏置。RMSNorm（Zhang & Sennrich 2019）只除以均方根并乘以增益："
        "不做中心化，也没有偏置。",
    },
    "lab.activation": {"en": "Feed-forward", "zh": "前馈网络"},
    "lab.activation.relu": {"en": "ReLU", "zh": "ReLU"},
    "lab.activation.gelu": {"en": "GELU", "zh": "GELU"},
    "lab.activation.swiglu": {"en": "SwiGLU", "zh": "SwiGLU"},
    "lab.activation_help": {
        "en": "SwiGLU (Shazeer 2020) = W₂·(SiLU(W₁x) ⊙ W₃x), where SiLU(z) = z·σ(z). The gate is SiLU (Swish), "
        "not a bare sigmoid: a sigmoid gate is GLU, a different variant. It has a third matrix W₃.",
        "zh": "SwiGLU（Shazeer 2020）= W₂·(SiLU(W₁x) ⊙ W₃x)，其中 SiLU(z) = z·σ(z)。门控是 SiLU（Swish），"
        "而不是单纯的 sigmoid：用 sigmoid 做门控的是 GLU，另一种变体。它多了第三个矩阵 W₃。",
    },
    "lab.positional": {"en": "Positional encoding", "zh": "位置编码"},
    "lab.positional.sinusoidal": {"en": "Sinusoidal (added)", "zh": "正弦（相加）"},
    "lab.positional.learned": {"en": "Learned (added)", "zh": "可学习（相加）"},
    "lab.positional.rope": {"en": "RoPE (rotates q and k)", "zh": "RoPE（旋转 q 和 k）"},
    "lab.positional.none": {"en": "None", "zh": "无"},
    "lab.positional_help": {
        "en": "Sinusoidal and learned tables are added to the token embeddings; RoPE rotates queries and keys "
        "inside every self-attention (Su et al. 2021); none gives attention no position at all.",
        "zh": "正弦表和可学习表加到词元嵌入上；RoPE 在每个自注意力内部旋转查询和键（Su 等 2021）；"
        "选“无”则注意力完全得不到位置信息。",
    },
    "lab.scale": {"en": "Attention scale", "zh": "注意力缩放"},
    "lab.scale.sqrt": {"en": "1/√d_head (Vaswani et al.)", "zh": "1/√d_head（Vaswani 等）"},
    "lab.scale.one": {"en": "1 (no scaling)", "zh": "1（不缩放）"},
    "lab.scale.inv": {"en": "1/d_head (μP)", "zh": "1/d_head（μP）"},
    "lab.scale_help": {
        "en": "The factor on q·k before the softmax. 1/√d_head makes the scores' variance 1 only when the entries of "
        "q and k have variance 1 (Vaswani et al. 2017, footnote 4). At this lab's initialisation they are far "
        "smaller: the scaled scores' variance measures about 0.0006 for the default A and B, and 0.001 to 0.003 for "
        "the shipped models' configurations (20 to 340 once trained; tests/models/test_init_scores.py), so every "
        "scale starts with nearly uniform attention. 1/d_head is the μP choice (Yang et al. 2021).",
        "zh": "softmax 之前乘在 q·k 上的因子。只有当 q 和 k 的各分量方差为 1 时，1/√d_head 才能让打分的方差等于 1"
        "（Vaswani 等 2017，脚注 4）。本实验室初始化时它们要小得多：实测缩放后打分的方差，默认的 A 和 B 约为 0.0006，"
        "自带模型的配置为 0.001 到 0.003（训练后为 20 到 340；见 tests/models/test_init_scores.py），"
        "所以无论用哪种缩放，一开始的注意力都接近均匀。1/d_head 是 μP 的选择（Yang 等 2021）。",
    },
    "lab.seed": {"en": "Seed", "zh": "种子"},
    "lab.seed_help": {
        "en": "Sets the random initialisation and, when training, the order of the batches.",
        "zh": "决定随机初始化，以及训练时批次的顺序。",
    },
    "lab.bias": {"en": "Biases", "zh": "偏置"},
    "lab.bias_help": {
        "en": "Biases in the attention and feed-forward projections (BERT, GPT-2 have them; Llama does not).",
        "zh": "注意力和前馈网络投影中的偏置（BERT、GPT-2 有；Llama 没有）。",
    },
    "lab.tie": {"en": "Tie embeddings", "zh": "绑定嵌入"},
    "lab.tie_help": {
        "en": "The output layer reuses the token-embedding matrix (Press & Wolf 2017).",
        "zh": "输出层复用词元嵌入矩阵（Press & Wolf 2017）。",
    },
    "lab.invalid": {"en": "This configuration is not valid: {error}", "zh": "此配置无效：{error}"},
    "lab.copy_ab": {"en": "Copy A to B", "zh": "把 A 复制到 B"},
    "lab.copy_ba": {"en": "Copy B to A", "zh": "把 B 复制到 A"},
    "lab.compare": {"en": "The same prompt through A and B", "zh": "同一输入分别通过 A 和 B"},
    "lab.random_badge": {
        "en": "Random initialisation (untrained), seed {seed}",
        "zh": "随机初始化（未训练），种子 {seed}",
    },
    "lab.trained_badge": {
        "en": "Trained here: {steps} steps, held-out loss {val}",
        "zh": "已在此训练：{steps} 步，留出集损失 {val}",
    },
    "lab.random_by_sidebar": {
        "en": "This variant has trained weights; the sidebar's weights switch is set to random.",
        "zh": "这个变体已有训练好的权重；但侧边栏的权重开关设为了随机初始化。",
    },
    "lab.summary": {
        "en": "**{total}** parameters ({short}) · d_head = {d_head} · scale on q·k = {scale}",
        "zh": "**{total}** 个参数（{short}）· d_head = {d_head} · q·k 上的缩放 = {scale}",
    },
    "lab.train": {"en": "Train this variant ({steps} steps)", "zh": "训练这个变体（{steps} 步）"},
    "lab.train_help": {
        "en": "Trains in a separate low-priority process on the app's generated data (tens of seconds for a small "
        "variant); other pages stay responsive. The result is kept in your cache directory.",
        "zh": "在一个单独的低优先级进程中用本应用生成的数据训练（小变体需几十秒）；其他页面仍能正常响应。"
        "结果保存在你的缓存目录中。",
    },
    "lab.busy": {
        "en": "Another variant is training; one trains at a time.",
        "zh": "另一个变体正在训练；一次只能训练一个。",
    },
    "lab.progress": {
        "en": "Step {step} of {steps} · training loss {loss} · held-out loss {val} · {seconds} s, about {eta} s to go",
        "zh": "第 {step} / {steps} 步 · 训练损失 {loss} · 留出集损失 {val} · 已用 {seconds} 秒，约剩 {eta} 秒",
    },
    "lab.stop": {"en": "Stop training", "zh": "停止训练"},
    "lab.cancelled": {"en": "Training was stopped; nothing was saved.", "zh": "训练已停止；没有保存任何内容。"},
    "lab.failed": {"en": "Training failed: {error}", "zh": "训练失败：{error}"},
    "lab.loading_trained": {
        "en": "Loading the weights trained for side {side} from disk…",
        "zh": "正在从磁盘加载为 {side} 侧训练的权重……",
    },
    "lab.corrupt": {
        "en": "The saved weights of this variant, {file}, were damaged (the file is cut short or is not a checkpoint) "
        "and have been removed: train it again to rebuild them.",
        "zh": "这个变体保存的权重文件 {file} 已损坏（文件不完整，或不是检查点文件），已将其删除：重新训练即可重建。",
    },
    "lab.cache_unwritable": {
        "en": "Trained variants cannot be saved in the cache folder {folder} ({reason}). Training still works: the "
        "trained model is kept in this server's memory until it restarts. To keep trained variants, start the app "
        "with `{env}` set to a folder it can write.",
        "zh": "训练好的变体无法保存到缓存文件夹 {folder}（{reason}）。训练仍然可以进行：训练好的模型会保存在本服务器的内存中，直到服务器重启。"
        "若要保留训练好的变体，请在启动应用时把 `{env}` 设为一个可写的文件夹。",
    },
    "lab.kept_in_memory": {
        "en": "These trained weights could not be saved in {folder} ({reason}); they are used from this server's "
        "memory and are lost when it restarts. Set `{env}` to a writable folder to keep them.",
        "zh": "这些训练好的权重无法保存到 {folder}（{reason}）；它们从本服务器的内存中使用，服务器重启后即丢失。把 `{env}` 设为可写的文件夹即可保留。",
    },
    "lab.unfinished": {
        "en": "A training run of this variant began but did not finish (it was stopped, or the server restarted "
        "during it). Train it again to start over.",
        "zh": "这个变体的一次训练已开始但没有完成（被停止，或训练期间服务器重启了）。重新训练即可从头开始。",
    },
    "lab.elsewhere": {
        "en": "Another server sharing this cache folder is training this variant right now: it is trained once, "
        "and appears here as soon as it is saved.",
        "zh": "共享此缓存文件夹的另一台服务器正在训练这个变体：它只会被训练一次，保存后会立即出现在这里。",
    },
    "lab.mismatch": {
        "en": "The saved weights of this variant, {file}, belong to another configuration or another version of the "
        "app and have been removed: train it again to rebuild them.",
        "zh": "这个变体保存的权重文件 {file} 属于另一种配置或另一个版本的应用，已将其删除：重新训练即可重建。",
    },
    "lab.random_explain": {
        "en": "Untrained weights start small (standard deviation {std}, as in GPT-2), so q·k is close to 0 and every "
        "head spreads its weight almost evenly over the keys it may see: compare each entropy with the uniform "
        "value under it, and switch on auto-scaled colours to see the small differences. Patterns such as "
        "attending to the previous token only appear with training.",
        "zh": "未训练的权重初始值很小（标准差 {std}，与 GPT-2 相同），因此 q·k 接近 0，每个头几乎把权重平均分给它能看到的所有键："
        "把每个熵值与其下方的均匀分布值比较，并打开自动色阶以看清细小差异。像关注前一个词元这样的模式只有经过训练才会出现。",
    },
    "lab.uniform_rows": {
        "en": "Rows spread evenly over every key they may see would give {uniform}.",
        "zh": "如果每一行把权重平均分给它能看到的所有键，结果是 {uniform}。",
    },
    "lab.tied_note": {
        "en": "{sides}: the output head is tied to the token embedding, so it adds 0 parameters and has no bar.",
        "zh": "{sides}：输出层与词元嵌入绑定，不增加参数，因此没有柱子。",
    },
    "lab.query_head": {"en": "query head", "zh": "查询头"},
    "lab.clamped": {
        "en": "This side has fewer layers or heads: showing layer {layer}, head {head}.",
        "zh": "这一侧的层数或头数较少：显示第 {layer} 层第 {head} 头。",
    },
    "lab.heatmap_title": {"en": "{attn}, layer {layer}, head {head}", "zh": "{attn}，第 {layer} 层第 {head} 头"},
    "lab.entropy": {"en": "mean entropy (nats)", "zh": "平均熵（奈特）"},
    "lab.entropy_fig": {
        "en": "Mean attention entropy per head (nats)",
        "zh": "每个头的平均注意力熵（奈特）",
    },
    "lab.entropy_caption": {
        "en": "Entropy of each query's attention row, averaged over the rows: 0 means every query attends to one key. "
        "The value under each table is the same average for rows that spread evenly over every key the mask lets "
        "them see (the mean of ln(number of visible keys)); under a causal mask early rows see few keys, so it is "
        "below ln(number of tokens).",
        "zh": "每个查询的注意力行的熵，对所有行取平均：0 表示每个查询只关注一个键。每个表下方的数值，是每一行把权重平均分给掩码允许它看到的"
        "所有键时的同一平均值（ln(可见键的数量) 的平均）；在因果掩码下，靠前的行能看到的键很少，所以它低于 ln(词元数)。",
    },
    "lab.params_title": {"en": "Parameters", "zh": "参数"},
    "lab.params_fig": {"en": "Parameters by component (log scale)", "zh": "各组件的参数量（对数坐标）"},
    "lab.params_explain": {
        "en": "Computed from the configuration alone (`models.analysis.parameter_counts`) and checked in the tests "
        "against the modules PyTorch builds. With a 2 048-token vocabulary and a small d_model, the embedding "
        "table is a large share of a toy model: in Llama-3.1-8B it is {share}, the rest is mostly attention and FFN "
        "(see the Model size page).",
        "zh": "仅由配置计算得出（`models.analysis.parameter_counts`），并在测试中与 PyTorch 实际构建的模块核对。"
        "词表为 2 048 个词元、d_model 又较小时，嵌入表在玩具模型中占很大比例；在 Llama-3.1-8B 中它占 {share}，"
        "其余大部分是注意力和前馈网络（FFN）（见“模型规模”页面）。",
    },
    "lab.loss_title": {"en": "Held-out loss while training", "zh": "训练过程中的留出集损失"},
    "lab.step": {"en": "training step", "zh": "训练步数"},
    "lab.loss": {"en": "cross-entropy (nats per token)", "zh": "交叉熵（奈特/词元）"},
    "lab.train_loss": {"en": "training loss (smoothed)", "zh": "训练损失（平滑）"},
    "lab.held_loss": {"en": "held-out loss", "zh": "留出集损失"},
    "lab.uniform": {"en": "uniform guess, ln V", "zh": "均匀猜测，ln V"},
    "lab.loss_explain": {
        "en": "Cross-entropy on held-out batches (the same ones at every point), measured every 50 steps. Both "
        "sides use one recipe: {steps} steps of AdamW, batch {batch}, sequences of {seq_len} tokens, peak learning "
        "rate {lr} after {warmup} warm-up steps, cosine decay. The task follows the architecture: next token "
        "(decoder), masked tokens (encoder), number translation (encoder-decoder), so only curves of the same "
        "architecture compare.",
        "zh": "留出批次上的交叉熵（每个点用的都是同一批），每 50 步测一次。两侧使用同一套方案：AdamW 训练 {steps} 步，"
        "批大小 {batch}，序列长 {seq_len} 个词元，经过 {warmup} 步预热后达到峰值学习率 {lr}，再按余弦衰减。任务取决于架构："
        "预测下一个词元（解码器）、预测被掩盖的词元（编码器）、数字翻译（编码器-解码器），因此只有同一架构的曲线才能相互比较。",
    },
    "lab.no_losses": {
        "en": "Train A or B to see their learning curves here.",
        "zh": "训练 A 或 B，就能在这里看到它们的学习曲线。",
    },
    "lab.checks_title": {
        "en": "What the options change, checked on the prompt",
        "zh": "各选项改变了什么：在输入上检验",
    },
    "lab.gqa_explain": {
        "en": "**Shared keys (GQA / MQA).** Each cell is the largest difference between the keys two query heads "
        "compare against, recomputed from the model on this prompt. 0 means the two heads read the *same* key "
        "vectors: one K/V projection serves them both. With MHA only the diagonal is 0; with GQA the zeros form "
        "blocks, one per group; with MQA every cell is 0.",
        "zh": "**共享的键（GQA / MQA）。** 每个格子是两个查询头所比对的键之间的最大差值，由模型在这个输入上重新计算。"
        "0 表示两个头读取的是*同一组*键向量：一个 K/V 投影同时服务于它们。MHA 只有对角线为 0；GQA 的零构成若干块，每组一块；"
        "MQA 的每个格子都是 0。",
    },
    "lab.gaps_fig": {
        "en": "{side}, layer {layer}: max |kᵢ − kⱼ| ({kv} K/V heads for {heads} query heads)",
        "zh": "{side}，第 {layer} 层：max |kᵢ − kⱼ|（{heads} 个查询头对应 {kv} 个 K/V 头）",
    },
    "lab.shuffle_explain": {
        "en": "**Position.** The prompt's words are shuffled (special tokens stay put) and the last layer's outputs "
        "compared with the original ones, permuted the same way. Without a positional encoding and under a "
        "bidirectional mask, attention cannot tell the orders apart: the outputs are only permuted (differences "
        "at float32 rounding, below 1e-4). A causal mask, or any positional encoding, breaks this.",
        "zh": "**位置。** 打乱输入中的词（特殊词元保持不动），把最后一层的输出与按同样方式重排后的原始输出比较。"
        "没有位置编码且使用双向掩码时，注意力无法区分这些顺序：输出只是被重新排列（差异只在 float32 舍入级别，低于 1e-4）。"
        "因果掩码或任何位置编码都会打破这一点。",
    },
    "lab.col.side": {"en": "side", "zh": "侧"},
    "lab.col.pe": {"en": "positional encoding", "zh": "位置编码"},
    "lab.col.mask": {"en": "mask", "zh": "掩码"},
    "lab.col.delta": {"en": "largest change", "zh": "最大变化"},
    "lab.col.verdict": {"en": "verdict", "zh": "结论"},
    "lab.shuffle.equivariant": {"en": "only permuted: order is invisible", "zh": "只是重新排列：看不到顺序"},
    "lab.shuffle.changes": {"en": "outputs change: the model sees order", "zh": "输出改变：模型能看到顺序"},
    "lab.shuffle.none": {
        "en": "nothing to shuffle (fewer than two distinct words)",
        "zh": "无可打乱（不同的词少于两个）",
    },
    "lab.anatomy_title": {"en": "Anatomy", "zh": "结构剖析"},
    "lab.anatomy_side": {"en": "Show the anatomy of", "zh": "显示结构剖析"},
    "lab.treemap_fig": {"en": "Where the parameters of {side} are", "zh": "{side} 的参数分布在哪里"},
    "lab.tree_explain": {
        "en": "The module tree is the model printed the way PyTorch prints any `nn.Module`, the same printout the "
        "notes show for Llama and Qwen. A decoder-only block holds **one** self-attention (masked) and a "
        "feed-forward network; only the encoder-decoder's decoder blocks add a second attention, and that one is "
        "cross-attention over the encoder's output. Notes that give a GPT block two self-attention layers are "
        "wrong.",
        "zh": "模块树就是按 PyTorch 打印任何 `nn.Module` 的方式打印出的模型，与笔记中给出的 Llama 和 Qwen 的打印结果一样。"
        "仅解码器的块只包含**一个**（带掩码的）自注意力和一个前馈网络；只有编码器-解码器中的解码器块才多一个注意力，"
        "而那是对编码器输出的交叉注意力。说 GPT 块有两个自注意力层的笔记是错的。",
    },
    "lab.tree_toggle": {"en": "Show the module tree", "zh": "显示模块树"},
    "lab.recipe": {"en": "Training recipe", "zh": "训练方案"},
    "lab.recipe.default": {"en": "default", "zh": "默认"},
    "lab.recipe.induction": {"en": "induction-forming", "zh": "形成归纳头"},
    "lab.recipe_help": {
        "en": "Both sides train by the same recipe. “induction-forming” starts with steps on repeated random spans "
        "only ([BOS] R R R …), as the shipped decoder did, so copying is the only way to lower the loss; it changes "
        "decoders only.",
        "zh": "两侧使用同一套训练方案。“形成归纳头”开始时只用重复的随机片段（[BOS] R R R …）训练，和随附的解码器一样，"
        "这样只有复制才能降低损失；它只对解码器起作用。",
    },
    "lab.recipe_explain": {
        "en": "The induction-forming recipe: the first {repeat_steps} steps see only repeated random spans, and the "
        "peak learning rate is {lr}.",
        "zh": "“形成归纳头”方案：前 {repeat_steps} 步只看重复的随机片段，峰值学习率为 {lr}。",
    },
    "lab.forming_title": {"en": "Heads forming during training", "zh": "训练中注意力头的形成"},
    "lab.forming_intro": {
        "en": "Training kept snapshots of the weights: at step 0, 1, 3, 10, 30, then every tenth of the run. The slider "
        "replays the chosen head of one snapshot on your prompt. The chart shows, at every snapshot, the best head's "
        "**induction score** (mean attention from a token in the second copy of [BOS] R R to the token that followed "
        "it in the first copy, on random spans the model never saw) and **previous-token score** (mean attention "
        "from each position to the one before it, on held-out sentences).",
        "zh": "训练过程中保存了权重快照：第 0、1、3、10、30 步，之后每隔十分之一的训练保存一次。滑块在你的提示词上回放某个快照中"
        "所选的注意力头。图中给出每个快照里最好的那个头的**归纳分数**（在 [BOS] R R 中，第二份副本里的词元对第一份副本里"
        "紧随其后的词元的平均注意力，R 是模型没见过的随机片段）和**前一词元分数**（在留出句子上，每个位置对前一个位置的平均注意力）。",
    },
    "lab.forming_untrained": {
        "en": "Train this side to replay how its heads form.",
        "zh": "训练这一侧，即可回放它的注意力头如何形成。",
    },
    "lab.forming_old": {
        "en": "These weights were saved without snapshots: train the variant again to replay its training.",
        "zh": "这些权重保存时没有快照：重新训练这个变体即可回放它的训练过程。",
    },
    "lab.snap_step": {"en": "Snapshot at training step", "zh": "快照所在的训练步"},
    "lab.snap_help": {
        "en": "The weights after this many optimiser steps; the last one is the trained model above.",
        "zh": "经过这么多步优化后的权重；最后一个就是上面训练好的模型。",
    },
    "lab.snap_heat_title": {
        "en": "{attn}, layer {layer}, head {head} at step {step}",
        "zh": "{attn}，第 {layer} 层第 {head} 个头，第 {step} 步",
    },
    "lab.scores_fig": {"en": "Head scores over training", "zh": "训练过程中的头分数"},
    "lab.scores_x": {"en": "training step + 1 (log scale)", "zh": "训练步数 + 1（对数刻度）"},
    "lab.score": {"en": "score (mean attention)", "zh": "分数（平均注意力）"},
    "lab.series.induction": {"en": "induction (best head)", "zh": "归纳（最佳头）"},
    "lab.series.previous_token": {"en": "previous token (best head)", "zh": "前一词元（最佳头）"},
    "lab.series.head": {"en": "induction of L{layer}H{head}", "zh": "L{layer}H{head} 的归纳分数"},
    "lab.formed_line": {"en": "induction head", "zh": "归纳头出现"},
    "lab.forming_at": {
        "en": "**What to watch for:** the induction head appears at about **step {step}** (the first snapshot where a "
        "head's induction score reaches {threshold}; the best head went from {first} to {best}, now L{layer}H{head}). "
        "Slide from before to after that step: the head's pattern turns from the diagonal band of “the token before” "
        "into an off-diagonal stripe on repeated text (“what came after this token last time”).",
        "zh": "**要注意看**：归纳头大约在**第 {step} 步**出现（第一个有头的归纳分数达到 {threshold} 的快照；最佳头的分数从 {first} "
        "升到 {best}，现在是 L{layer}H{head}）。把滑块从这一步之前拖到之后：在重复的文本上，这个头的模式从“前一个词元”的对角带"
        "变成偏离对角线的一条斜纹（“上次这个词元后面是什么”）。",
    },
    "lab.loss_falls": {
        "en": "It is when the loss drops: the smoothed training loss fell fastest between steps {start} and {end}.",
        "zh": "这正是损失骤降的时候：平滑后的训练损失在第 {start} 到 {end} 步之间下降最快。",
    },
    "lab.forming_none": {
        "en": "**No induction head formed in this run:** no head's induction score reached {threshold} (best at the "
        "end: {best}).",
        "zh": "**这次训练没有形成归纳头**：没有任何头的归纳分数达到 {threshold}（最后最佳为 {best}）。",
    },
    "lab.forming_unlikely": {
        "en": "**This configuration was not measured to form an induction head.** Measured here, the "
        "induction-forming recipe grows one within its 1000 steps in a RoPE decoder with tied embeddings (the "
        "“Induction head forms” preset: best induction score 0.83 at the end), but not in the same decoder with "
        "untied embeddings (the default A: 0.04) or with learned positions (0.05), nor in B (0.07). This side "
        "differs from the preset in: {fields}.",
        "zh": "**这个配置没有实测能形成归纳头**。在这里实测：“形成归纳头”方案在 1000 步内能让使用 RoPE、绑定嵌入的解码器"
        "长出归纳头（“归纳头形成”配置：最后最佳归纳分数 0.83）；同一个解码器换成不绑定嵌入（默认的 A：0.04）或可学习位置编码"
        "（0.05），以及 B（0.07），都不行。这一侧与该配置不同的是：{fields}。",
    },
    "lab.forming_default": {
        "en": "The default recipe forms no induction head in 1000 steps (the default A, measured here: best induction "
        "score 0.06). The button below sets a configuration and the recipe that do.",
        "zh": "默认方案在 1000 步内形成不了归纳头（默认的 A，在这里实测：最佳归纳分数 0.06）。下面的按钮会设好能形成归纳头的"
        "配置和训练方案。",
    },
    "lab.field_sep": {"en": ", ", "zh": "、"},
    "lab.use_preset": {"en": "Use the “{preset}” preset", "zh": "改用“{preset}”配置"},
    "lab.forming_encoder": {
        "en": "An encoder cannot copy what follows (it sees both sides), so only the previous-token score is shown; "
        "its best head ends at {prev}.",
        "zh": "编码器能看到两侧，谈不上“复制后面的词元”，所以只显示前一词元分数；最佳头最后为 {prev}。",
    },
    "lab.forming_source": {
        "en": "Induction heads and their sudden appearance during training: Olsson et al. 2022, “In-context Learning "
        "and Induction Heads” (Anthropic).",
        "zh": "归纳头及其在训练中的突然出现：Olsson 等，2022，《In-context Learning and Induction Heads》（Anthropic）。",
    },
}
