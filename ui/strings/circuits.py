"""Strings of the "Circuits between heads" page (composition scores, path patching, OV and QK circuits, a score split
into the parts of the stream that made it).

Chinese terms, as Chinese interpretability courses use them: 组合分数 (composition score), K 组合 / Q 组合 / V 组合,
路径修补 (path patching), OV 电路 / QK 电路, 复制分数 (copying score), 归纳头 (induction head), 前一个词元头
(previous-token head, as on the field guide's page), 残差流 (residual stream), 有效秩 (effective rank)."""

STRINGS: dict[str, dict[str, str]] = {
    "circuits.intro": {
        "en": "An induction head is **two** heads: a previous-token head writes “the token before me was X”, and the "
        "induction head's keys read it (**K-composition**; Elhage et al. 2021, Olsson et al. 2022). This page shows "
        "that wire.",
        "zh": "归纳头其实是**两个**头：前一个词元头写下“我前面的词元是 X”，归纳头的键读取它（**K 组合**；Elhage 等 2021，"
        "Olsson 等 2022）。本页展示这根“导线”。",
    },
    "circuits.decoder_only": {
        "en": "The views on this page follow a decoder's residual stream into its next-token logits. **{model}** is "
        "not a decoder (an encoder or encoder-decoder), so the page uses the toy decoder; pick a decoder in the "
        "sidebar (GPT-2, Llama, Qwen, …) to study it instead.",
        "zh": "本页的视图沿着解码器的残差流一直追到下一个词元的 logit。**{model}** 不是解码器（而是编码器或"
        "编码器-解码器），因此本页使用玩具解码器；在侧边栏选择一个解码器（GPT-2、Llama、Qwen 等）即可研究它。",
    },
    "circuits.computing": {"en": "Tracing the circuits of {name}…", "zh": "正在追踪 {name} 的电路……"},
    "circuits.prompts": {
        "en": "The prompts are the What a head causes page's (the same templates and boxes): the clean prompt is read "
        "by every view, the corrupted one and the two words by path patching.",
        "zh": "提示与“一个头造成了什么”页面相同（同样的模板和输入框）：每个视图都读取干净提示，路径修补还会用到损坏提示和两个词。",
    },
    "circuits.template": {"en": "Template", "zh": "模板"},
    "circuits.template.repeat": {"en": "Repeated span (induction)", "zh": "重复片段（归纳）"},
    "circuits.template.names_en": {"en": "Mary and John (IOI)", "zh": "Mary 和 John（IOI）"},
    "circuits.template.names_zh": {"en": "小明 and 小红", "zh": "小明和小红"},
    "circuits.clean": {"en": "Clean prompt", "zh": "干净提示"},
    "circuits.corrupted": {"en": "Corrupted prompt", "zh": "损坏提示"},
    "circuits.answer": {"en": "Answer", "zh": "答案"},
    "circuits.wrong": {"en": "Wrong word", "zh": "错误词"},
    "circuits.err.lengths": {
        "en": "The clean prompt has **{n_clean}** tokens and the corrupted one **{n_corrupted}**: path patching moves "
        "each position's write to the same position, so both need the same number of tokens.",
        "zh": "干净提示有 **{n_clean}** 个词元，损坏提示有 **{n_corrupted}** 个：路径修补把每个位置的写入搬到同一个位置，"
        "所以两者的词元数必须相同。",
    },
    "circuits.err.no_word": {
        "en": "Type an answer and a wrong word (one word each) for path patching.",
        "zh": "请为路径修补输入答案和错误词（各一个词）。",
    },
    "circuits.err.same_tokens": {
        "en": "The answer and the wrong word are the same tokens to this model: there is no difference to measure.",
        "zh": "对这个模型来说，答案和错误词是相同的词元：没有差别可以测量。",
    },
    "circuits.err.not_decoder": {"en": "This view needs a decoder.", "zh": "这个视图需要解码器。"},
    "circuits.err.empty": {"en": "Type a clean prompt to trace.", "zh": "请输入一个干净提示。"},
    "circuits.err.too_long": {
        "en": "This prompt has **{n}** tokens; the page traces prompts of at most {most} tokens.",
        "zh": "这个提示有 **{n}** 个词元；本页只追踪最多 {most} 个词元的提示。",
    },
    "circuits.err.model": {
        "en": "This view does not apply to this model: {detail}",
        "zh": "这个视图不适用于这个模型：{detail}",
    },
    "circuits.err.vocab": {
        "en": "This model's vocabulary has {n:,} tokens: scanning every pair of them on a page takes too long, so the "
        "token circuits are shown for vocabularies of at most {most:,} tokens (the toy decoder, GPT-2).",
        "zh": "这个模型的词表有 {n:,} 个词元：在页面上扫描所有词元对太慢，因此只对最多 {most:,} 个词元的词表"
        "（玩具解码器、GPT-2）显示词元电路。",
    },
    # 1. why does this head attend here?
    "circuits.why_title": {"en": "Why does this head attend here?", "zh": "这个头为什么看向这里？"},
    "circuits.layer": {"en": "Layer", "zh": "层"},
    "circuits.head": {"en": "Head", "zh": "头"},
    "circuits.query": {"en": "Query token", "zh": "查询词元"},
    "circuits.key": {"en": "Key token", "zh": "键词元"},
    "circuits.why_intro": {
        "en": "The residual stream at a position is a **sum**: the token's embedding, what each earlier head and MLP "
        "wrote, and constant biases. With every norm's scale frozen at this run's value, the head's score of the key "
        "for the query splits exactly into query part × key part: each cell above is one such product, and the "
        "cells **add up to the score** (circuit-tracer #53 asks exactly this: why heads attend).",
        "zh": "一个位置上的残差流是一个**和**：词元的嵌入、每个更早的头和 MLP 写入的内容，以及常数偏置。把每个归一化的"
        "缩放固定为这次运行中的值后，这个头对该查询给该键的分数可以精确地拆成“查询部分 × 键部分”：上面每个格子就是"
        "一个这样的乘积，所有格子**加起来正好等于分数**（circuit-tracer #53 问的正是这个：头为什么这样注意）。",
    },
    "circuits.parts_title": {
        "en": "L{layer}H{head}: score of “{k}” for “{query}”, by part",
        "zh": "L{layer}H{head}：查询“{query}”对键“{k}”的分数，按部分拆分",
    },
    "circuits.query_side": {"en": "Query's stream part", "zh": "查询的残差流部分"},
    "circuits.key_side": {"en": "Key's stream part", "zh": "键的残差流部分"},
    "circuits.contribution": {"en": "Part", "zh": "贡献"},
    "circuits.sum": {
        "en": "The {n} cells add up to **{total}**; the model's own score for this cell is **{model}**.",
        "zh": "这 {n} 个格子加起来是 **{total}**；模型自己对这个格子的分数是 **{model}**。",
    },
    "circuits.softcap": {
        "en": "This model soft-caps its scores (Gemma 2: cap · tanh(score / cap), cap {cap}): the parts are of the "
        "score **before** the cap, {total}; the softmax read {model}.",
        "zh": "这个模型对分数做软截断（Gemma 2：cap · tanh(分数 / cap)，cap = {cap}）：这些部分拆的是截断**之前**的"
        "分数 {total}；softmax 读到的是 {model}。",
    },
    "circuits.masked": {
        "en": "The causal mask hides this key from this query: the split is of q·k, which the softmax never reads.",
        "zh": "因果掩码对这个查询隐藏了这个键：这里拆的是 q·k，而 softmax 从不读取它。",
    },
    "circuits.largest": {
        "en": "The largest cells: {cells}. The query side is mostly **{q_main}**, the key side mostly **{k_main}**.",
        "zh": "最大的几个格子：{cells}。查询一侧主要来自 **{q_main}**，键一侧主要来自 **{k_main}**。",
    },
    "circuits.cell": {"en": "{q} × {k} ({v})", "zh": "{q} × {k}（{v}）"},
    "circuits.part.embedding": {"en": "embedding", "zh": "词元嵌入"},
    "circuits.part.positions": {"en": "positions", "zh": "位置嵌入"},
    "circuits.part.biases": {"en": "biases", "zh": "偏置"},
    "circuits.part.block": {"en": "block", "zh": "块"},
    "circuits.row_title": {
        "en": "L{layer}H{head}'s attention from “{query}”",
        "zh": "L{layer}H{head} 从“{query}”出发的注意力",
    },
    "circuits.position": {"en": "Key position", "zh": "键的位置"},
    "circuits.weight": {"en": "Attention weight", "zh": "注意力权重"},
    "circuits.row_caption": {
        "en": "The head's attention row at the query, the chosen key in red: the scores become these weights through "
        "the softmax.",
        "zh": "这个头在该查询处的注意力行，选中的键标为红色：分数经过 softmax 变成这些权重。",
    },
    # 2. composition
    "circuits.comp_title": {"en": "Composition scores", "zh": "组合分数"},
    "circuits.comp_intro": {
        "en": "How much of what an earlier head **writes** (its OV matrix) lands in what a later head **reads** "
        "with its queries (Q-composition), its keys (K-composition) or its values (V-composition), from the weights "
        "alone (Elhage et al. 2021; norms folded in, positions left out). Senders down, receivers across.",
        "zh": "一个较早的头**写入**的内容（它的 OV 矩阵）有多少落进了后面某个头用查询（Q 组合）、键（K 组合）或值"
        "（V 组合）**读取**的子空间，只由权重计算（Elhage 等 2021；归一化已并入权重，不含位置）。纵轴是发送者，横轴是接收者。",
    },
    "circuits.kind.K": {"en": "K-composition", "zh": "K 组合"},
    "circuits.kind.Q": {"en": "Q-composition", "zh": "Q 组合"},
    "circuits.kind.V": {"en": "V-composition", "zh": "V 组合"},
    "circuits.sender": {"en": "Sender (writes)", "zh": "发送者（写入）"},
    "circuits.receiver": {"en": "Receiver (reads)", "zh": "接收者（读取）"},
    "circuits.score": {"en": "Composition score", "zh": "组合分数"},
    "circuits.baseline": {"en": "random baseline", "zh": "随机基线"},
    "circuits.comp_caption": {
        "en": "For random matrices of these shapes the {kind} score is about **{baseline}**: a cell near it means the "
        "two heads' subspaces overlap no more than chance would make them; well above it (twice, say), a wire. The three tabs share one colour scale: compare a cell "
        "across them. Blank: the sender is not in an earlier layer.",
        "zh": "对同样形状的随机矩阵，{kind}分数约为 **{baseline}**：接近它的格子说明两个头的子空间重叠程度不超过偶然；"
        "明显高于它（比如两倍），才是一根“导线”。三个标签页共用一个颜色刻度：可以在它们之间比较同一个格子。空白：发送者不在更早的层。",
    },
    "circuits.comp_pair": {
        "en": "The field guide's best previous-token head **{sender}** into its best induction head **{receiver}**: "
        "K {k}, Q {q}, V {v} (random baseline {baseline}).",
        "zh": "图鉴中最强的前一个词元头 **{sender}** 到最强的归纳头 **{receiver}**：K {k}，Q {q}，V {v}"
        "（随机基线 {baseline}）。",
    },
    # 3. path patching
    "circuits.path_title": {"en": "Path patching", "zh": "路径修补"},
    "circuits.path_intro": {
        "en": "Run the corrupted prompt, and let **only the sender's** clean write reach **one** later head's q, k or "
        "v input; every other reader still sees the corrupted write (Wang et al. 2022). The map is the share of the "
        "answer that comes back, receiver by receiver.",
        "zh": "运行损坏提示，但**只让发送者**在干净运行中写入的内容到达后面**某一个**头的 q、k 或 v 输入；其他读者"
        "看到的仍是损坏运行的写入（Wang 等 2022）。图中是每个接收者恢复的答案比例。",
    },
    "circuits.path_sender": {"en": "Sender head", "zh": "发送头"},
    "circuits.path_input": {"en": "Receiver's input", "zh": "接收者的输入"},
    "circuits.path_option": {"en": "L{layer}H{head} ({role})", "zh": "L{layer}H{head}（{role}）"},
    "circuits.path_hint": {
        "en": "A previous-token head writes the **clue** (“the token before me was X”), not the answer. Here the "
        "corruption changes the copied word, so the clue is the same on both prompts and little comes back. Change "
        "the corrupted prompt so that the first **{clue}** becomes **{other}** (and keep the first **{answer}**): "
        "then the previous-token head whose write the induction head's keys read brings the answer back through k, "
        "and almost nothing through q or v.",
        "zh": "前一个词元头写入的是**线索**（“我前面的词元是 X”），而不是答案。这里的损坏改的是被复制的词，所以两个提示中"
        "的线索相同，几乎没有恢复。请修改损坏提示，把第一个 **{clue}** 换成 **{other}**（保留第一个 **{answer}**）："
        "这时，归纳头的键所读取的那个前一个词元头会通过 k 把答案带回来，而通过 q 或 v 几乎没有。",
    },
    "circuits.path_map": {
        "en": "Recovered share, from L{layer}H{head} into each head's {input}",
        "zh": "从 L{layer}H{head} 到每个头的 {input} 的恢复比例",
    },
    "circuits.recovered": {"en": "Recovered share", "zh": "恢复比例"},
    "circuits.patched": {"en": "Patched metric", "zh": "修补后的指标"},
    "circuits.path_note": {"en": "clean {clean} · corrupted {corrupted}", "zh": "干净 {clean} · 损坏 {corrupted}"},
    "circuits.path_caption": {
        "en": "Metric: logit({a}) − logit({w}) at the last position, {clean} clean and {corrupted} corrupted. Blank "
        "rows: layers at or before the sender's, which cannot read it.",
        "zh": "指标：最后一个位置上的 logit({a}) − logit({w})，干净为 {clean}，损坏为 {corrupted}。空白的行：发送者"
        "所在层及更早的层，它们读不到发送者的写入。",
    },
    "circuits.path_agree": {
        "en": "The two prompts do not disagree about {a} and {w} (clean {clean}, corrupted {corrupted}): nothing to "
        "recover. Change the corrupted prompt on **What a head causes** or pick another template.",
        "zh": "两个提示对 {a} 和 {w} 没有分歧（干净 {clean}，损坏 {corrupted}）：没有可恢复的东西。请在“**一个头造成了"
        "什么**”页面修改损坏提示，或换一个模板。",
    },
    "circuits.path_none": {
        "en": "This model has one layer: no later head to send to.",
        "zh": "这个模型只有一层：没有更晚的头可以接收。",
    },
    # 4. token circuits
    "circuits.tok_title": {
        "en": "L{layer}H{head}'s OV and QK circuits in tokens",
        "zh": "L{layer}H{head} 的 OV 电路与 QK 电路（以词元表示）",
    },
    "circuits.tok_intro": {
        "en": "The OV circuit W_E·OV·W_U says which output token a source token pushes up when the head attends to it; "
        "the QK circuit W_E·QK·W_Eᵀ says which key token a query token prefers, positions left out (computed in "
        "factored form, never the vocabulary × vocabulary matrix).",
        "zh": "OV 电路 W_E·OV·W_U 说明当头注意到某个源词元时会推高哪个输出词元；QK 电路 W_E·QK·W_Eᵀ 说明查询词元偏好"
        "哪个键词元，不含位置（以分解形式计算，从不构造“词表 × 词表”的矩阵）。",
    },
    "circuits.ov_table": {"en": "Top source → output pairs (OV)", "zh": "最大的源 → 输出词元对（OV）"},
    "circuits.qk_table": {"en": "Top query → key pairs (QK)", "zh": "最大的查询 → 键词元对（QK）"},
    "circuits.col.source": {"en": "source", "zh": "源词元"},
    "circuits.col.output": {"en": "output", "zh": "输出词元"},
    "circuits.col.query": {"en": "query", "zh": "查询"},
    "circuits.col.key": {"en": "key", "zh": "键"},
    "circuits.col.value": {"en": "value", "zh": "值"},
    "circuits.copying": {
        "en": "**Copying score** {score} (Σλ / Σ|λ| over the OV circuit's eigenvalues; Elhage et al. 2021): 1 means "
        "the head writes out the token it attends to (it **copies**), −1 that it pushes that token **down** "
        "(anti-copies), near 0 neither.",
        "zh": "**复制分数** {score}（OV 电路特征值的 Σλ / Σ|λ|；Elhage 等 2021）：1 表示这个头把它注意到的词元写出来"
        "（**复制**），−1 表示把那个词元**压低**（反复制），接近 0 则两者都不是。",
    },
    "circuits.sv_title": {"en": "Singular values of L{layer}H{head}'s OV", "zh": "L{layer}H{head} 的 OV 的奇异值"},
    "circuits.sv_x": {"en": "Index", "zh": "序号"},
    "circuits.sv_y": {"en": "Singular value", "zh": "奇异值"},
    "circuits.rank": {
        "en": "Effective rank **{rank}** of at most {most}: how many directions the head really writes.",
        "zh": "有效秩 **{rank}**（最多 {most}）：这个头实际写入了多少个方向。",
    },
    "circuits.rank_link": {"en": "Effective rank, on the Rank page", "zh": "有效秩：见“秩”页面"},
    # 5. knocking out an edge
    "circuits.ko_title": {"en": "Knock out one edge", "zh": "敲除一条注意力边"},
    "circuits.ko_intro": {
        "en": "Set the score of one (query, key) edge to −∞ before the softmax in the chosen layers and heads: the "
        "query's row renormalises over its other keys (Geva et al. 2023), and the rest of the run follows. How much "
        "does the answer depend on that one edge?",
        "zh": "在所选的层和头中，把一条（查询，键）边的分数在 softmax 之前设为 −∞：该查询的那一行在其余的键上重新归一化"
        "（Geva 等 2023），之后的计算照常进行。答案有多依赖这一条边？",
    },
    "circuits.ko_layers": {"en": "Layers", "zh": "层"},
    "circuits.ko_heads": {"en": "Heads", "zh": "头"},
    "circuits.ko_word": {"en": "Every copy of the key's token", "zh": "键词元的每一次出现"},
    "circuits.ko_word_help": {
        "en": "Knock out the edges from the query to every earlier position holding the same token (a whole word).",
        "zh": "敲除从该查询到所有持有相同词元的较早位置的边（整个词）。",
    },
    "circuits.ko_prob": {
        "en": "Probability of {a} at the last position: **{before}** → **{after}** ({change}).",
        "zh": "最后一个位置上 {a} 的概率：**{before}** → **{after}**（{change}）。",
    },
    "circuits.ko_metric": {
        "en": "Metric logit({a}) − logit({w}): **{before}** → **{after}** ({change}).",
        "zh": "指标 logit({a}) − logit({w})：**{before}** → **{after}**（{change}）。",
    },
    "circuits.ko_before": {"en": "L{layer}H{head}, unchanged", "zh": "L{layer}H{head}，原样"},
    "circuits.ko_after": {"en": "L{layer}H{head}, edge knocked out", "zh": "L{layer}H{head}，敲除之后"},
    "circuits.ko_caption": {
        "en": "Edges knocked out in each chosen head: {n}. The maps show the first chosen layer and head. Later "
        "layers' patterns change too, because the stream they read changed.",
        "zh": "每个所选的头中敲除了 {n} 条边；图中是所选的第一个层和头。之后各层的注意力模式也会变化，因为它们读取的残差流变了。",
    },
    "circuits.ko_none": {
        "en": "The causal mask already hides these edges: nothing to knock out.",
        "zh": "因果掩码已经隐藏了这些边：没有可以敲除的。",
    },
    "circuits.err.row": {
        "en": "This would knock out every key the query {query} can see: a softmax over no keys is undefined. Keep at "
        "least one of its keys (the first token, for the first query).",
        "zh": "这会敲除查询 {query} 能看到的所有键：在没有键的情况下 softmax 没有定义。请至少保留它的一个键"
        "（对第一个查询来说，就是第一个词元）。",
    },
    "circuits.sources_title": {"en": "Sources", "zh": "参考文献"},
    "circuits.sources": {
        "en": "- Elhage et al. 2021, “A Mathematical Framework for Transformer Circuits” (composition scores, OV and QK "
        "circuits, the copying score).\n- Olsson et al. 2022, “In-context Learning and Induction Heads”.\n"
        "- Wang et al. 2022, “Interpretability in the Wild” (path patching; arXiv:2211.00593).\n"
        "- Geva et al. 2023, “Dissecting Recall of Factual Associations” (knocking out attention edges).\n"
        "- circuit-tracer issue #53: attribution graphs leave “why attention heads attend” unexplained.",
        "zh": "- Elhage 等 2021，“A Mathematical Framework for Transformer Circuits”（组合分数、OV 与 QK 电路、复制分数）。\n"
        "- Olsson 等 2022，“In-context Learning and Induction Heads”。\n"
        "- Wang 等 2022，“Interpretability in the Wild”（路径修补；arXiv:2211.00593）。\n"
        "- Geva 等 2023，“Dissecting Recall of Factual Associations”（敲除注意力边）。\n"
        "- circuit-tracer issue #53：归因图没有解释“注意力头为什么这样注意”。",
    },
    "circuits.entry": {
        "en": "**Pattern patching of this edge** (L{layer}H{head}): its weight is {clean_w} on the clean prompt and "
        "{corr_w} on the corrupted one. Put only the clean weight into the corrupted run (the rest of the row rescaled "
        "to sum to 1): the metric goes from {corrupted} to {patched} (clean {clean}), a recovered share of "
        "**{recovered}**.",
        "zh": "**这条边的注意力模式修补**（L{layer}H{head}）：它在干净提示上的权重是 {clean_w}，在损坏提示上是 {corr_w}。"
        "只把干净的权重放进损坏运行（该行其余权重按比例缩放，使和为 1）：指标从 {corrupted} 变为 {patched}"
        "（干净为 {clean}），恢复比例 **{recovered}**。",
    },
    "circuits.entry_agree": {
        "en": "**Pattern patching of this edge** (L{layer}H{head}): the two prompts hardly disagree about the answer "
        "(metric {clean} clean, {corrupted} corrupted), so no share of it can be recovered.",
        "zh": "**这条边的注意力模式修补**（L{layer}H{head}）：两个提示对答案几乎没有分歧（干净 {clean}，损坏 "
        "{corrupted}），所以谈不上恢复比例。",
    },
}
