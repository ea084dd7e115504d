"""Strings of the attention-rank lesson."""

STRINGS: dict[str, dict[str, str]] = {
    "rank.intro": {
        "en": "A popular argument for decoder-only models: a **causal** attention matrix is lower-triangular, "
        "and its diagonal entries are softmax weights, which are always > 0. Its determinant is the product "
        "of the diagonal, so it is never 0: the matrix is **full rank**. A **bidirectional** matrix has no such "
        "guarantee, and is said to drift towards **low rank** (its rows become alike).",
        "zh": "支持仅解码器模型的一个流行论点：**因果**注意力矩阵是下三角矩阵，其对角元是 softmax 权重，永远 > 0。"
        "它的行列式等于对角元之积，所以不为 0：矩阵**满秩**。**双向**矩阵没有这种保证，据说会趋向**低秩**"
        "（各行变得相似）。",
    },
    "rank.watch": {
        "en": "Above, the same weights run under both masks on your prompt. Watch for two things: what precision "
        "does to the argument, and the difference between *exact*, *numerical* and *effective* rank.",
        "zh": "上面用同一组权重、分别在两种掩码下处理你的输入。请留意两点：数值精度对这个论证的影响，"
        "以及*精确秩*、*数值秩*与*有效秩*的区别。",
    },
    "rank.encdec_note": {
        "en": "For the encoder-decoder, this page uses its encoder's self-attention.",
        "zh": "对于编码器-解码器模型，本页使用其编码器的自注意力。",
    },
    "rank.prompt_title": {"en": "Your prompt: one head under both masks", "zh": "你的输入：同一个头在两种掩码下"},
    "rank.dtype": {"en": "Precision (softmax and SVD)", "zh": "精度（softmax 与 SVD）"},
    "rank.dtype_help": {
        "en": "The weights are recomputed from the model's scores in this precision. float32 cannot hold a "
        "weight below about 1e-45 (it becomes exactly 0); float64 goes down to about 1e-323.",
        "zh": "按此精度由模型的打分重新计算权重。float32 无法表示小于约 1e-45 的权重（会变成 0）；float64 可到约 1e-323。",
    },
    "rank.tol": {"en": "Tolerance τ for the numerical rank", "zh": "数值秩的容差 τ"},
    "rank.tol_help": {
        "en": "Singular values above τ count. auto = numpy.linalg.matrix_rank's default: σ_max · n · ε of the precision.",
        "zh": "大于 τ 的奇异值才计数。auto = numpy.linalg.matrix_rank 的默认值：σ_max · n · 该精度的 ε。",
    },
    "rank.tol.auto": {"en": "auto (numpy)", "zh": "自动（numpy）"},
    "rank.tol.1e-2": {"en": "1e-2", "zh": "1e-2"},
    "rank.tol.1e-4": {"en": "1e-4", "zh": "1e-4"},
    "rank.tol.1e-6": {"en": "1e-6", "zh": "1e-6"},
    "rank.tol.1e-8": {"en": "1e-8", "zh": "1e-8"},
    "rank.tol.1e-10": {"en": "1e-10", "zh": "1e-10"},
    "rank.tol.1e-12": {"en": "1e-12", "zh": "1e-12"},
    "rank.tol.1e-14": {"en": "1e-14", "zh": "1e-14"},
    "rank.sv_index": {"en": "index i (largest first)", "zh": "序号 i（从大到小）"},
    "rank.sv": {"en": "singular value σᵢ (log scale)", "zh": "奇异值 σᵢ（对数坐标）"},
    "rank.spectrum_title": {
        "en": "{mask} · layer {layer} head {head} · {dtype}",
        "zh": "{mask} · 第 {layer} 层 第 {head} 头 · {dtype}",
    },
    "rank.tol_line": {"en": "τ = {tol}", "zh": "τ = {tol}"},
    "rank.measure": {"en": "measure", "zh": "指标"},
    "rank.row.n": {"en": "size n (tokens)", "zh": "大小 n（词元数）"},
    "rank.row.numerical": {"en": "numerical rank {dtype}", "zh": "数值秩 {dtype}"},
    "rank.row.tol": {"en": "tolerance τ", "zh": "容差 τ"},
    "rank.row.effective": {"en": "effective rank (share of n)", "zh": "有效秩（占 n 的比例）"},
    "rank.row.condition": {"en": "condition number σ_max/σ_min", "zh": "条件数 σ_max/σ_min"},
    "rank.row.min_diag": {"en": "smallest diagonal weight {dtype}", "zh": "最小对角权重 {dtype}"},
    "rank.row.log10_diag": {
        "en": "log₁₀ of that weight (exact, from log-softmax)",
        "zh": "该权重的 log₁₀（由 log-softmax 精确计算）",
    },
    "rank.row.logdet": {"en": "ln |det A|", "zh": "ln |det A|"},
    "rank.row.det": {"en": "|det A|", "zh": "|det A|"},
    "rank.row.sv_min": {"en": "smallest singular value", "zh": "最小奇异值"},
    "rank.row.exact": {"en": "exact rank", "zh": "精确秩"},
    "rank.exact_full": {
        "en": "{n} (proven)",
        "zh": "{n}（已证明）",
    },
    "rank.exact_unknown": {
        "en": "not decidable in floating point",
        "zh": "浮点运算无法判定",
    },
    "rank.underflow": {
        "en": "The causal matrix has numerical rank below n in {dtype}: {k} of its {n} singular values fall under τ. "
        "It is **still full rank**. det A = Π aᵢᵢ; its smallest diagonal weight is about 1e{exp} (stored as {min} "
        "in {dtype}), which is > 0, and ln |det A| = {logdet} is finite. Two things make it *look* deficient:\n"
        "- A triangular matrix can have singular values far smaller than any of its diagonal entries: it can be "
        "badly conditioned (here σ_max/σ_min = {cond}).\n"
        "- Sharp logits can push weights below what {dtype} can store (or below the τ you chose).\n\n"
        "Numerical rank measures how close a matrix is to singular, not whether it is singular.",
        "zh": "因果矩阵在 {dtype} 下的数值秩小于 n：{n} 个奇异值中有 {k} 个低于 τ。但它**依然满秩**。det A = Π aᵢᵢ；"
        "最小的对角权重约为 1e{exp}（在 {dtype} 中存为 {min}），它 > 0，且 ln |det A| = {logdet} 是有限值。"
        "它*看起来*秩亏缺，有两个原因：\n"
        "- 三角矩阵的奇异值可以远小于它的任何一个对角元：它可能是病态的（这里 σ_max/σ_min = {cond}）。\n"
        "- 尖锐的打分会把权重推到 {dtype} 无法存储的范围以下（或低于你选的 τ）。\n\n"
        "数值秩衡量的是矩阵离奇异有多近，而不是它是否奇异。",
    },
    "rank.causal_full": {
        "en": "The causal matrix is numerically full rank in {dtype} ({n} of {n}), as the triangular argument predicts.",
        "zh": "因果矩阵在 {dtype} 下数值满秩（{n}/{n}），与三角矩阵论证的预测一致。",
    },
    "rank.compare": {
        "en": "Bidirectional: numerical rank {bn} of {n}, effective rank {be} (causal: {ce}). A matrix can be "
        "numerically full rank and still have a low *effective* rank: a few directions carry most of the mass.",
        "zh": "双向：数值秩 {bn}/{n}，有效秩 {be}（因果：{ce}）。一个矩阵可以数值满秩，却仍然有较低的*有效秩*："
        "少数几个方向承载了大部分能量。",
    },
    "rank.three_ranks_title": {"en": "Exact, numerical and effective rank", "zh": "精确秩、数值秩与有效秩"},
    "rank.three_ranks": {
        "en": "- **Exact rank** is a property of the real matrix. A lower-triangular matrix with a positive "
        "diagonal always has exact rank n. For a general matrix, floating point cannot decide it.\n"
        "- **Numerical rank** counts singular values above a tolerance τ. It depends on τ and on the precision: "
        "a weight of 1e-60 is 0 in float32. It can also fall below n with no weight anywhere near 0, because a "
        "triangular matrix's smallest singular value can be far below its smallest diagonal entry.\n"
        "- **Effective rank** (Roy & Vetterli, 2007) is exp of the entropy of the normalised singular values. It "
        "is a smooth count of how many directions matter: n for the identity, 1 for a matrix of identical rows.\n\n"
        "The low-rank claim concerns the last two. It comes from a popular argument for decoder-only LLMs "
        "(Su Jianlin, 2023). A related result: pure self-attention without residuals and MLPs loses rank "
        "doubly exponentially with depth (Dong, Cordonnier & Loukas, ICML 2021).",
        "zh": "- **精确秩**是真实矩阵的性质。对角元全为正的下三角矩阵，其精确秩必为 n。对于一般矩阵，浮点运算无法判定。\n"
        "- **数值秩**统计大于容差 τ 的奇异值个数。它取决于 τ 和精度：1e-60 的权重在 float32 中就是 0。"
        "即使没有任何权重接近 0，它也可能小于 n，因为三角矩阵的最小奇异值可以远小于其最小对角元。\n"
        "- **有效秩**（Roy & Vetterli, 2007）是归一化奇异值之熵的指数。它平滑地统计有多少方向起作用："
        "单位矩阵为 n，各行相同的矩阵为 1。\n\n"
        "低秩论断涉及的是后两者。它出自一个支持仅解码器大模型的流行论证（苏剑林，2023）。相关结果：没有残差和 MLP "
        "的纯自注意力，其秩随深度双指数下降（Dong, Cordonnier & Loukas, ICML 2021）。",
    },
    "rank.all_heads": {"en": "Every layer and head", "zh": "所有层和头"},
    "rank.all_heads_help": {
        "en": "Computes an SVD per head and mask (cached).",
        "zh": "对每个头和每种掩码计算一次 SVD（有缓存）。",
    },
    "rank.col.numerical": {"en": "{mask}: numerical rank", "zh": "{mask}：数值秩"},
    "rank.col.effective": {"en": "{mask}: effective rank", "zh": "{mask}：有效秩"},
    "rank.sweep_title": {"en": "A sweep: does it hold beyond one prompt?", "zh": "扫描实验：换成更多输入还成立吗？"},
    "rank.sweep_intro": {
        "en": "Inputs of growing length (8 to 256 tokens; up to the model's limit, and up to 128 for a model with more "
        "than 16 heads in all) run through the same model under "
        "both masks, trained and random-init. Each point is the rank divided by the length, averaged over "
        "every layer and head. The band spans the samples (min to max). The SVDs are in float64, with numpy's "
        "default tolerance.",
        "zh": "长度递增（8 到 256 个词元；以模型上限为止，总头数超过 16 的模型到 128 为止）的输入，分别在两种掩码下通过同一个模型（已训练与随机初始化）。"
        "每个点是秩除以长度，再对所有层和头取平均；色带覆盖各样本的最小值到最大值。SVD 使用 float64 和 numpy 的默认容差。",
    },
    "rank.sweep_in": {"en": "Inputs", "zh": "输入"},
    "rank.sweep_in_help": {
        "en": "random: tokens drawn uniformly from the vocabulary. text: held-out sentences of the training language.",
        "zh": "random：从词表中均匀抽取的词元。text：训练语言中未参与训练的句子。",
    },
    "rank.sweep_in.random": {"en": "random tokens", "zh": "随机词元"},
    "rank.sweep_in.text": {"en": "toy-language text", "zh": "玩具语言文本"},
    "rank.samples": {"en": "Samples per length", "zh": "每个长度的样本数"},
    "rank.sweep_running": {
        "en": "Measuring the ranks of the {weights} model at every length, {samples} inputs each ({k} of {n}; once, "
        "then cached)…",
        "zh": "正在测量{weights}模型在每个长度上的秩，每个长度 {samples} 个输入（第 {k}/{n} 项；仅首次，之后缓存）……",
    },
    "rank.sweep_series": {"en": "{mask}, {weights}", "zh": "{mask}，{weights}"},
    "rank.length": {"en": "sequence length n (log scale)", "zh": "序列长度 n（对数坐标）"},
    "rank.sweep_y.effective": {"en": "effective rank / n", "zh": "有效秩 / n"},
    "rank.sweep_y.numerical": {"en": "numerical rank / n", "zh": "数值秩 / n"},
    "rank.sweep_fig.effective": {"en": "Effective rank ÷ length", "zh": "有效秩 ÷ 长度"},
    "rank.sweep_fig.numerical": {"en": "Numerical rank ÷ length (float64)", "zh": "数值秩 ÷ 长度（float64）"},
    "rank.sweep_caption": {
        "en": "Solid: trained weights; dashed: random init. {samples} inputs per length, the same for every curve.",
        "zh": "实线：已训练权重；虚线：随机初始化。每个长度 {samples} 个输入，所有曲线使用相同的输入。",
    },
    "rank.verdict.low_effective": {
        "en": "**{weights}:** bidirectional matrices are numerically full rank (on average {bn} of n; causal {cn}), "
        "yet their effective rank is lower ({be} of n against {ce}). They are invertible, but a few directions "
        'dominate. "Low rank" here means low *effective* rank, not a rank deficit.',
        "zh": "**{weights}：** 双向矩阵数值满秩（平均为 n 的 {bn}；因果为 {cn}），但其有效秩更低（n 的 {be}，因果为 {ce}）。"
        "它们可逆，但少数方向占主导。这里的“低秩”指的是较低的*有效秩*，而不是秩亏缺。",
    },
    "rank.verdict.other": {
        "en": "**{weights}:** numerical rank, bidirectional {bn} of n against causal {cn}; effective rank {be} against "
        '{ce}. Here the data do not show the clean picture "bidirectional full rank but lower effective rank". '
        "Read the two figures rather than the slogan.",
        "zh": "**{weights}：** 数值秩，双向为 n 的 {bn}，因果为 {cn}；有效秩 {be} 对 {ce}。"
        "这里的数据并未呈现“双向满秩但有效秩更低”的清晰图景，请以两张图为准，而不是口号。",
    },
    "rank.pit_title": {"en": "The float32 pitfall, reproduced", "zh": "重现 float32 陷阱"},
    "rank.pit_intro": {
        "en": "No model here: scores = q·kᵀ/√d for random q, k of n tokens in d dimensions, entries drawn with "
        "standard deviation σ. Apply the causal or no mask, take the softmax, and ask `numpy.linalg.matrix_rank` "
        "(default tolerance). At n = 64, d = 8 the naive answer contradicts the theorem.",
        "zh": "这里不用模型：对 n 个词元、d 维的随机 q、k（各分量标准差为 σ），打分 = q·kᵀ/√d。分别加因果掩码或不加掩码，"
        "做 softmax，再用 `numpy.linalg.matrix_rank`（默认容差）求秩。在 n = 64、d = 8 时，这种朴素的答案与定理相矛盾。",
    },
    "rank.pit_sigma": {"en": "σ of q and k entries", "zh": "q、k 分量的标准差 σ"},
    "rank.pit_sigma_help": {
        "en": "Larger σ means larger scores and sharper softmax rows.",
        "zh": "σ 越大，打分越大，softmax 各行越尖锐。",
    },
    "rank.pit_row": {"en": "{mask}, {dtype}", "zh": "{mask}，{dtype}"},
    "rank.pit_paradox": {
        "en": "In float32 the causal matrix gets numerical rank **{c}**, *lower* than the bidirectional one's **{b}** "
        "(of {n}), although it is provably full rank: its smallest diagonal weight is about 1e{exp}, and the "
        "determinant Π aᵢᵢ is not 0. This is the result a naive demo prints. It shows ill-conditioning and limited "
        "precision, not a rank deficit. float64 only helps partly: look at the condition number. A triangular matrix "
        "with small diagonal entries can have singular values far below any of them, so even float64 may count "
        "fewer than n. What settles it is the finite ln |det A| = Σ ln aᵢᵢ.",
        "zh": "在 float32 中，因果矩阵的数值秩为 **{c}**，*低于*双向矩阵的 **{b}**（共 {n}），尽管它可以证明是满秩的："
        "最小对角权重约为 1e{exp}，行列式 Π aᵢᵢ 不为 0。朴素的演示就会打印出这种结果。它反映的是病态性与有限精度，"
        "而不是秩亏缺。float64 只能部分缓解：请看条件数。对角元很小的三角矩阵，其奇异值可以远小于任何一个对角元，"
        "因此即使 float64 也可能数出少于 n 个。真正起决定作用的是有限的 ln |det A| = Σ ln aᵢᵢ。",
    },
    "rank.pit_no_paradox": {
        "en": "Here the float32 numerical rank of the causal matrix ({c} of {n}) is not below the bidirectional "
        "one's ({b}). Raise σ or n to reach the regime where a naive check contradicts the theorem.",
        "zh": "此时因果矩阵的 float32 数值秩（{c}/{n}）并不低于双向矩阵（{b}）。调大 σ 或 n，即可进入朴素检查与定理相矛盾的区域。",
    },
    "rank.toy_title": {"en": "A toy you can edit", "zh": "可以动手修改的小例子"},
    "rank.toy_intro": {
        "en": "A few-token attention matrix built from logits you set. Pick a row and drag its logits. Make two "
        "rows equal under the bidirectional mask and the rank drops. Raise the sharpness under the causal mask "
        "and watch the diagonal weights underflow in float32 while the exact rank stays n.",
        "zh": "由你设定的打分构成的几词元注意力矩阵。选一行并拖动它的打分：在双向掩码下让两行相同，秩就会下降；"
        "在因果掩码下提高尖锐度，看对角权重在 float32 中下溢，而精确秩仍然是 n。",
    },
    "rank.toy_n": {"en": "Tokens", "zh": "词元数"},
    "rank.toy_mask": {"en": "Mask", "zh": "掩码"},
    "rank.toy_seed": {"en": "Random start (seed)", "zh": "随机起点（种子）"},
    "rank.toy_seed_help": {
        "en": "The logits start as random numbers from this seed; your edits are kept per seed and size.",
        "zh": "打分以此种子生成的随机数为起点；你的修改按种子和大小分别保存。",
    },
    "rank.toy_sharp": {"en": "Sharpness β (score = β · slider value)", "zh": "尖锐度 β（打分 = β · 滑块值）"},
    "rank.toy_sharp_help": {
        "en": "Multiplies every logit, like a larger q·k or a smaller softmax temperature.",
        "zh": "把所有打分乘以 β，相当于更大的 q·k 或更低的 softmax 温度。",
    },
    "rank.toy_row": {"en": "Row to edit", "zh": "要编辑的行"},
    "rank.toy_row_caption": {
        "en": "Logits of row {row} (query {row}). Masked entries are −∞ and cannot be set.",
        "zh": "第 {row} 行（查询 {row}）的打分。被屏蔽的位置为 −∞，不能设置。",
    },
    "rank.toy_logit": {"en": "s[{i},{j}]", "zh": "s[{i},{j}]"},
    "rank.toy_masked": {"en": "Masked: this query may not attend to this key.", "zh": "被屏蔽：该查询不能关注这个键。"},
    "rank.score": {"en": "score", "zh": "打分"},
    "rank.toy_scores": {"en": "Scores (β = {sharp})", "zh": "打分（β = {sharp}）"},
    "rank.toy_weights": {"en": "Weights = softmax of each row (float64)", "zh": "权重 = 每行的 softmax（float64）"},
    "rank.toy_explain.causal": {
        "en": "Causal: the matrix is lower-triangular, so det A = a₁₁·a₂₂·…·aₙₙ, and each aᵢᵢ > 0 as long as its "
        "score is finite. No logits you choose can make it singular in exact arithmetic. Floating point can make it "
        "*look* singular. Raise β and some diagonal weights become tiny: the matrix grows badly conditioned, its "
        "smallest singular value falls below the tolerance, and the numerical rank drops, in float64 as in float32. "
        "Meanwhile |det A| stays > 0. A weight below about 1e-45 is even stored as exactly 0 in float32.",
        "zh": "因果：矩阵是下三角的，det A = a₁₁·a₂₂·…·aₙₙ；只要打分有限，每个 aᵢᵢ 都 > 0。在精确运算中，"
        "无论怎样设置打分都不能使它奇异；但浮点运算可以让它*看起来*奇异。把 β 调大，一些对角权重会变得极小，"
        "矩阵变得病态，最小奇异值低于容差，数值秩随之下降，float64 和 float32 都是如此，而 |det A| 仍然 > 0。"
        "小于约 1e-45 的权重在 float32 中甚至会被存成 0。",
    },
    "rank.toy_explain.bidirectional": {
        "en": "Bidirectional: every row mixes every token, so nothing guarantees independence. Two equal rows of "
        "logits give two equal rows of weights, and det A = 0 exactly. Try copying one row's logits into another.",
        "zh": "双向：每一行都混合所有词元，没有任何东西保证各行线性无关。两行打分相同，则两行权重相同，det A 恰好为 0。"
        "试试把一行的打分复制到另一行。",
    },
}
