"""Strings of the norms and attention-scores lesson (lessons/block*.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "block.intro": {
        "en": "Two choices inside every Transformer block, computed live: **how a vector is normalised** (and "
        "where the norm sits), and **how a query scores a key**.",
        "zh": "每个 Transformer 模块内部的两个选择，均为实时计算：**向量如何归一化**（以及归一化层放在哪里），"
        "以及**查询如何给键打分**。",
    },
    # ------------------------------------------------------------ norms on a batch
    "block.norms_title": {
        "en": "BatchNorm, LayerNorm, RMSNorm on one padded batch",
        "zh": "同一个填充批次上的 BatchNorm、LayerNorm、RMSNorm",
    },
    "block.norms_explain": {
        "en": "Your prompt goes into a batch with {n} other sentences of other lengths, each padded with `[PAD]` "
        "to the longest. The vectors are the toy decoder's first-layer input: the token embedding × √d_model "
        "and nothing else, d_model = {d}. The shipped decoder uses RoPE, which adds no position to the input: "
        "it rotates the queries and keys inside each attention layer. Then three norms, each with gain 1 and "
        "bias 0:\n"
        "- **BatchNorm** (Ioffe & Szegedy 2015; `nn.BatchNorm1d` in training mode): for each of the {d} "
        "features, the mean and variance over **every sentence and every position of the batch, `[PAD]` "
        "included**.\n"
        "- **LayerNorm** (Ba et al. 2016; `nn.LayerNorm`): for each token, the mean and variance over its own "
        "**{d} features (d_model)**. Not “along the sequence”, as some notes say: no other token enters.\n"
        "- **RMSNorm** (Zhang & Sennrich 2019; Llama): each token divided by the root mean square of its "
        "features, **without subtracting the mean**.",
        "zh": "你的输入与另外 {n} 个长度不同的句子组成一个批次，每句都用 `[PAD]` 填充到最长句的长度。"
        "向量是玩具解码器第一层的输入：仅为词嵌入 × √d_model，d_model = {d}。自带的解码器使用 RoPE，它不在输入上加任何位置信息，"
        "而是在每个注意力层内部旋转查询和键。然后用三种归一化，"
        "增益均为 1、偏置均为 0：\n"
        "- **BatchNorm**（Ioffe & Szegedy 2015；训练模式下的 `nn.BatchNorm1d`）：对 {d} 个特征中的每一个，"
        "在**整个批次的所有句子、所有位置上**（包括 `[PAD]`）求均值和方差。\n"
        "- **LayerNorm**（Ba 等 2016；`nn.LayerNorm`）：对每个词元，在它自己的 **{d} 个特征（d_model）上**"
        "求均值和方差。并不是某些讲义所说的“沿序列方向”：不涉及任何其他词元。\n"
        "- **RMSNorm**（Zhang & Sennrich 2019；Llama）：每个词元除以其特征的均方根，**不减去均值**。",
    },
    "block.col.sentence": {"en": "sentence", "zh": "句子"},
    "block.col.batch": {"en": "batch", "zh": "批次"},
    "block.col.tokens": {"en": "tokens", "zh": "词元数"},
    "block.col.pad": {"en": "[PAD] added", "zh": "补的 [PAD]"},
    "block.your_prompt": {"en": "(your prompt)", "zh": "（你的输入）"},
    "block.batches": {
        "en": "Batch A is padded to {na} positions ({pa} of them `[PAD]`); batch B, the prompt with other "
        "sentences, to {nb} ({pb} `[PAD]`); batch A with {extra} more `[PAD]` columns is {pp} padding.",
        "zh": "批次 A 填充到 {na} 个位置（其中 {pa} 是 `[PAD]`）；批次 B（你的输入配上其他句子）填充到 {nb} 个位置"
        "（{pb} 是 `[PAD]`）；批次 A 再加 {extra} 列 `[PAD]` 后，填充占 {pp}。",
    },
    "block.x_position": {"en": "position in your prompt", "zh": "在你的输入中的位置"},
    "block.input": {"en": "input", "zh": "输入"},
    "block.kind.batchnorm": {"en": "BatchNorm", "zh": "BatchNorm"},
    "block.kind.layernorm": {"en": "LayerNorm", "zh": "LayerNorm"},
    "block.kind.rmsnorm": {"en": "RMSNorm", "zh": "RMSNorm"},
    "block.mean_title": {"en": "Mean of each token's {d} features", "zh": "每个词元 {d} 个特征的均值"},
    "block.std_title": {"en": "Standard deviation of each token's {d} features", "zh": "每个词元 {d} 个特征的标准差"},
    "block.y_mean": {"en": "mean over d_model", "zh": "d_model 上的均值"},
    "block.y_std": {"en": "std over d_model", "zh": "d_model 上的标准差"},
    "block.stats_caption": {
        "en": "Your prompt's tokens in batch A. LayerNorm puts every token at mean 0 and standard deviation 1 "
        "(up to ε = 1e-5). RMSNorm puts every root mean square at 1 but leaves the mean: here up to {rms_mean} "
        "(the input's largest is {in_mean}); its standard deviation is then slightly below 1. BatchNorm "
        "centres each feature over the batch, not each token: no token's own mean or spread is fixed.",
        "zh": "批次 A 中你的输入的各个词元。LayerNorm 让每个词元的均值为 0、标准差为 1（相差 ε = 1e-5 以内）。"
        "RMSNorm 让每个词元的均方根为 1，但保留均值：这里最大到 {rms_mean}（输入的最大均值为 {in_mean}）；"
        "因此它的标准差略小于 1。BatchNorm 是对批次中的每个特征中心化，而不是对每个词元：任何词元自己的均值和离散程度"
        "都没有被固定。",
    },
    "block.change_title": {
        "en": "Your prompt's normalised vectors when the batch changes",
        "zh": "批次改变时，你的输入归一化后的向量",
    },
    "block.y_change": {"en": "‖y_A − y_changed‖ / ‖y_A‖", "zh": "‖y_A − y_改变后‖ / ‖y_A‖"},
    "block.series_others": {"en": "{kind}: other sentences (batch B)", "zh": "{kind}：换成其他句子（批次 B）"},
    "block.series_padding": {"en": "{kind}: +{extra} [PAD] columns", "zh": "{kind}：多 {extra} 列 [PAD]"},
    "block.series_both": {"en": "{kind}: either change", "zh": "{kind}：任一改变"},
    "block.change_readout": {
        "en": "Same prompt, same tokens, same input vectors. Changing only the **other sentences** moves "
        "BatchNorm's output for your tokens by up to **{bn_o}** of its length, adding only **padding** by up to "
        "**{bn_p}**. LayerNorm's and RMSNorm's outputs do not move at all: the largest change is **{ln}** and "
        "**{rms}**, bit for bit. This is why Transformers, whose batches hold sentences of different lengths, "
        "use LayerNorm or RMSNorm: a token's vector must not depend on its neighbours in the batch or on how "
        "much padding the batch needed (and at inference the batch is different again).",
        "zh": "同一个输入、同样的词元、同样的输入向量。只换**其他句子**，BatchNorm 对你的词元的输出最多变化其长度的 "
        "**{bn_o}**；只加**填充**，最多变化 **{bn_p}**。LayerNorm 和 RMSNorm 的输出完全不变：最大变化分别为 **{ln}** 和 "
        "**{rms}**，逐位相同。这就是为什么 Transformer（批次里句子长短不一）使用 LayerNorm 或 RMSNorm："
        "一个词元的向量不能取决于同批次的其他句子，也不能取决于批次需要多少填充（推理时批次又会不同）。",
    },
    # ------------------------------------------------------------ pre-norm vs post-norm
    "block.depth_title": {
        "en": "Pre-norm or post-norm: gradients at initialisation",
        "zh": "Pre-norm 还是 Post-norm：初始化时的梯度",
    },
    "block.depth_explain": {
        "en": "**Post-norm** (Vaswani et al. 2017, BERT) normalises after the residual sum: x ← Norm(x + f(x)). "
        "**Pre-norm** (GPT-2, Llama) normalises the sublayer's input and leaves the residual path alone: "
        "x ← x + f(Norm(x)). The experiment: two decoders of **{L} layers** (d_model = {d}, {h} heads, ReLU "
        "FFN of {ff}), identical except for where the norm sits, Xavier-initialised as Xiong et al. 2020 assume "
        "in their analysis (Vaswani et al. 2017 do not state their initialisation); one batch of {b} × {t} "
        "seeded random tokens, the next-token loss, one backward pass, "
        "and the norm of the gradient of each layer's FFN output matrix W2. Mean of seeds {seeds}; the band is "
        "their minimum and maximum.",
        "zh": "**Post-norm**（Vaswani 等 2017，BERT）在残差相加之后归一化：x ← Norm(x + f(x))。"
        "**Pre-norm**（GPT-2、Llama）对子层的输入归一化，残差通路保持不变：x ← x + f(Norm(x))。实验：两个 "
        "**{L} 层**的解码器（d_model = {d}，{h} 个头，ReLU 前馈网络宽 {ff}），只有归一化层的位置不同，"
        "用 Xavier 初始化（这是 Xiong 等 2020 在分析中所作的假设；Vaswani 等 2017 没有说明他们的初始化方式）；一个由 {b} × {t} 个固定种子随机词元组成的批次，下一个词元的损失，"
        "一次反向传播，然后计算每层前馈网络输出矩阵 W2 的梯度范数。取种子 {seeds} 的平均；阴影带为它们的最小值到最大值。",
    },
    "block.computing": {
        "en": "Computing the gradients of pre- and post-norm stacks at initialisation (once per server)…",
        "zh": "正在计算 pre-norm 与 post-norm 堆叠在初始化时的梯度（每个服务器只算一次）……",
    },
    "block.pre": {"en": "pre-norm", "zh": "pre-norm"},
    "block.post": {"en": "post-norm", "zh": "post-norm"},
    "block.x_layer": {"en": "layer (1 = next to the input)", "zh": "层（1 = 紧挨输入）"},
    "block.y_grad": {"en": "‖∂loss/∂W2‖", "zh": "‖∂loss/∂W2‖"},
    "block.grad_title": {
        "en": "Gradient norm of each layer's W2 at initialisation",
        "zh": "初始化时各层 W2 的梯度范数",
    },
    "block.ratio_title": {
        "en": "Post-norm's gradient over pre-norm's, per layer",
        "zh": "各层 post-norm 梯度与 pre-norm 梯度之比",
    },
    "block.y_ratio": {"en": "post / pre", "zh": "post / pre"},
    "block.sqrt_l": {"en": "√L = {v}", "zh": "√L = {v}"},
    "block.sweep_title": {"en": "Last layer: post / pre against depth", "zh": "最后一层：post / pre 随深度变化"},
    "block.x_depth": {"en": "layers L", "zh": "层数 L"},
    "block.measured": {"en": "measured", "zh": "实测"},
    "block.depth_readout": {
        "en": "From the first layer to the last, pre-norm's gradient falls to **{pre}** of its value while "
        "post-norm's stays at **{post}**: the last layer of the post-norm stack gets **{last}×** the gradient of "
        "the pre-norm one (√{L} = {sqrt}), the first only {first}×. Only that last-layer ratio is Xiong et al. "
        "2020's theorem (*On Layer Normalization in the Transformer Architecture*, Theorem 1): at initialisation "
        "the gradient of the last layer is O(d·√(ln d)) with post-norm and O(d·√(ln d / L)) with pre-norm, a "
        "ratio of √L. The profile across layers is this toy's own: here pre-norm's gradient falls with depth "
        "and post-norm's stays flat, while the paper's measurement (its Figure 3) shows post-norm's gradient "
        "growing toward the output and pre-norm's staying flat. Both agree at the last layer, where post-norm's "
        "is about √L times pre-norm's. In the toy's pre-norm stack the residual stream grows with depth, so each "
        "later block's contribution, and its gradient, shrinks by about 1/√L; post-norm renormalises the sum "
        "after every block, so nothing shrinks.",
        "zh": "从第一层到最后一层，pre-norm 的梯度降到原来的 **{pre}**，而 post-norm 的保持在 **{post}**："
        "post-norm 堆叠的最后一层得到的梯度是 pre-norm 的 **{last} 倍**（√{L} = {sqrt}），第一层只有 {first} 倍。"
        "只有最后一层的这个比值是 Xiong 等 2020（*On Layer Normalization in the Transformer Architecture*，定理 1）的结论："
        "初始化时最后一层的梯度在 post-norm 中是 O(d·√(ln d))，在 pre-norm 中是 O(d·√(ln d / L))，两者之比为 √L。"
        "各层之间的变化形状是这个玩具实验自己的：这里 pre-norm 的梯度随深度下降，post-norm 的保持平坦；而论文的测量（图 3）"
        "显示 post-norm 的梯度越靠近输出越大，pre-norm 的保持平坦。两者在最后一层一致：post-norm 在那里的梯度约为 pre-norm 的 √L 倍。"
        "在玩具的 pre-norm 堆叠中，残差流随深度增大，每个较深模块的贡献及其梯度约缩小为原来的 1/√L；"
        "post-norm 在每个模块后都对和重新归一化，因此没有缩小。",
    },
    "block.warmup": {
        "en": "**Why post-norm needs warm-up.** With the learning rate that suits the rest of the network, the "
        "large gradients near the output make the first updates of a post-norm Transformer too big, and "
        "training can diverge; Vaswani et al. (§5.3) and BERT therefore raise the learning rate linearly over "
        "the first thousands of steps (4,000 in the original Transformer). Xiong et al. show that pre-norm "
        "Transformers, whose gradients are smaller and better behaved, train without the warm-up stage. "
        "The toy models here use a GPT-2-style initialisation instead (outputs scaled by 1/√(2L)), which keeps "
        "every block near the identity at the start: another way to tame depth.",
        "zh": "**为什么 post-norm 需要预热（warm-up）。** 用适合网络其余部分的学习率，输出附近的大梯度会让 post-norm "
        "Transformer 的最初几次更新过大，训练可能发散；因此 Vaswani 等（§5.3）和 BERT 在最初数千步内线性提高学习率"
        "（原始 Transformer 为 4,000 步）。Xiong 等表明，梯度更小、更平稳的 pre-norm Transformer 可以去掉预热阶段。"
        "本应用的玩具模型改用 GPT-2 式初始化（输出乘以 1/√(2L)），让每个模块在开始时接近恒等映射：这是驯服深度的另一种办法。",
    },
    # ------------------------------------------------------------ additive vs dot product
    "block.scores_title": {"en": "Additive or dot-product attention", "zh": "加性注意力还是点积注意力"},
    "block.scores_explain": {
        "en": "The same queries q and keys k, those of the head picked below computed from your prompt "
        "({model}, d_k = {dk}), scored two ways:\n"
        "- **scaled dot product** (Vaswani et al. 2017): e_ij = q_i·k_j / √d_k, **no parameters**;\n"
        "- **additive** (Bahdanau et al. 2015): e_ij = vᵀ tanh(W_q q_i + W_k k_j), with W_q, W_k ∈ "
        "R^(d_a×d_k) and v ∈ R^(d_a), here d_a = {da}: **{params} parameters**. They are random (seed {seed}), "
        "not trained, so the additive pattern shows the computation, not what a model learned.",
        "zh": "同一组查询 q 和键 k（下面选中的头在你的输入上算出的，{model}，d_k = {dk}），用两种方式打分：\n"
        "- **缩放点积**（Vaswani 等 2017）：e_ij = q_i·k_j / √d_k，**没有参数**；\n"
        "- **加性**（Bahdanau 等 2015）：e_ij = vᵀ tanh(W_q q_i + W_k k_j)，其中 W_q, W_k ∈ R^(d_a×d_k)，"
        "v ∈ R^(d_a)，这里 d_a = {da}：**{params} 个参数**。它们是随机的（种子 {seed}），没有训练，"
        "所以加性模式展示的是计算方式，而不是模型学到的东西。",
    },
    "block.dot_title": {"en": "Scaled dot product (the model's own)", "zh": "缩放点积（模型自己的）"},
    "block.add_title": {"en": "Additive, random W_q, W_k, v", "zh": "加性，随机 W_q、W_k、v"},
    "block.same_as_model": {
        "en": "The dot-product pattern is the model's own attention for this head: largest difference {diff}.",
        "zh": "点积模式就是模型这个头自己的注意力：最大差异 {diff}。",
    },
    "block.col.what": {"en": "quantity", "zh": "量"},
    "block.col.dot": {"en": "dot product", "zh": "点积"},
    "block.col.additive": {"en": "additive", "zh": "加性"},
    "block.row.params": {"en": "parameters of the score", "zh": "打分函数的参数"},
    "block.row.per_pair": {"en": "FLOPs per pair", "zh": "每对的 FLOPs"},
    "block.row.per_token": {"en": "FLOPs per token, once", "zh": "每个词元一次的 FLOPs"},
    "block.row.total": {"en": "FLOPs for T = {t} (whole matrix)", "zh": "T = {t} 时的 FLOPs（整个矩阵）"},
    "block.row.per_score": {"en": "FLOPs per score at T = {t}", "zh": "T = {t} 时每个分数的 FLOPs"},
    "block.row.memory": {"en": "largest intermediate (numbers)", "zh": "最大的中间结果（数的个数）"},
    "block.flops_caption": {
        "en": "Counted from the shapes, a multiply-add = 2 FLOPs, tanh = 1: the dot product needs d_k "
        "multiply-adds per pair; the additive score projects each query and key once (2·d_a·d_k each) and then "
        "needs, per pair, d_a adds, d_a tanh and a d_a-long dot with v. The 1/√d_k multiply and the softmax, "
        "the same for both, are not counted.",
        "zh": "按形状计数，一次乘加 = 2 FLOPs，tanh = 1：点积每对需要 d_k 次乘加；加性打分先把每个查询和键各投影一次"
        "（各 2·d_a·d_k），然后每对需要 d_a 次加法、d_a 次 tanh 和一次与 v 的长为 d_a 的点积。1/√d_k 的乘法和 softmax "
        "对两者相同，不计入。",
    },
    "block.time_title": {
        "en": "Measured wall time of the score matrix (torch, float32, this server)",
        "zh": "打分矩阵的实测耗时（torch，float32，本服务器）",
    },
    "block.x_t": {"en": "tokens T", "zh": "词元数 T"},
    "block.y_ms": {"en": "milliseconds (best of 5)", "zh": "毫秒（5 次中最快）"},
    "block.time_readout": {
        "en": "At T = {t}: dot product {dot} ms, additive {add} ms ({x}× slower), measured when this server "
        "first drew the page.",
        "zh": "T = {t} 时：点积 {dot} 毫秒，加性 {add} 毫秒（慢 {x} 倍），在本服务器首次绘制本页时测得。",
    },
    "block.vaswani": {
        "en": "Vaswani et al. 2017, §3.2.1: the two are similar in theoretical complexity, but dot-product "
        "attention “is much faster and more space-efficient in practice, since it can be implemented using "
        "highly optimized matrix multiplication code”; the additive score needs the [T, T, d_a] tensor before "
        "its tanh. And “while for small values of d_k the two mechanisms perform similarly, additive attention "
        "outperforms dot product attention without scaling for larger values of d_k”: the dot products grow "
        "with d_k and push the softmax into regions of tiny gradients, hence the factor 1/√d_k (see the "
        "Softmax and √d_k page).",
        "zh": "Vaswani 等 2017，§3.2.1：两者的理论复杂度相近，但点积注意力“在实践中快得多，也更节省空间，因为它可以用"
        "高度优化的矩阵乘法代码实现”；加性打分在 tanh 之前需要 [T, T, d_a] 的张量。并且“d_k 较小时两种机制表现相近，"
        "而 d_k 较大时，加性注意力优于不缩放的点积注意力”：点积随 d_k 增大，把 softmax 推进梯度极小的区域，"
        "因此要乘以 1/√d_k（见“Softmax 与 √d_k”页）。",
    },
}
