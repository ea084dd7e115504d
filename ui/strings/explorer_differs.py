"""Strings of the Explorer's second model (issue 44): what differs between the two models, measured (lessons/explorer_differs.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "explorer_differs.spans_cut": {
        "en": "This prompt has {total} shared spans: parts 3 and 4 compare its last {n} (a head's pattern over S spans "
        "is S² numbers per head; the end of the prompt is where each token has read the most).",
        "zh": "这个提示词共有 {total} 个共同片段：第 3、4 部分只比较最后 {n} 个（一个头在 S 个片段上的模式有 S² 个数；"
        "提示词的末尾是每个词元读过内容最多的地方）。",
    },
    "explorer_differs.title": {"en": "What differs, measured", "zh": "差异在哪里：逐项测量"},
    "explorer_differs.intro": {
        "en": "Both models read the same prompt. Below, each difference is measured on it live: where the two "
        "tokenizers cut, what each predicts next, how alike their layers are, which heads attend alike, which roles "
        "their heads play, and what each layer would predict. **A** is the first column's model, **B** the second's.",
        "zh": "两个模型读取同一个输入。下面逐项在这个输入上实时测量它们的差异：两个分词器在哪里切分、各自预测的下一个词元、"
        "各层有多相似、哪些注意力头的注意力模式相近、各个头扮演什么角色，以及每一层会预测什么。**A** 是第一列的模型，"
        "**B** 是第二列的模型。",
    },
    "explorer_differs.running": {"en": "Running {name} on the prompt …", "zh": "正在用 {name} 处理输入……"},
    "explorer_differs.computing": {"en": "Comparing the two models …", "zh": "正在比较两个模型……"},
    "explorer_differs.failed": {
        "en": "These two models cannot be compared on this prompt: {error}",
        "zh": "无法在这个输入上比较这两个模型：{error}",
    },
    "explorer_differs.too_few_spans": {
        "en": "The two tokenizers cut this prompt alike at only {n} span(s): comparing layers and heads needs at "
        "least 2 pieces of text both cut the same way. Type a longer prompt (a few words).",
        "zh": "两个分词器在这个输入上只有 {n} 个切分相同的片段；比较层和注意力头至少需要 2 个两边切分相同的文本片段。"
        "请输入更长的内容（几个词）。",
    },
    # ---------------------------------------------------------------- tokens
    "explorer_differs.tokens_title": {"en": "1. Tokens lined up", "zh": "1. 词元对齐"},
    "explorer_differs.tokens_reads.many": {
        "en": "**{who}** reads **{n_all}** tokens: **{n}** from the prompt's text and the special tokens {specials}.",
        "zh": "**{who}** 读入 **{n_all}** 个词元：**{n}** 个来自输入文本，另有特殊词元 {specials}。",
    },
    "explorer_differs.tokens_reads.one": {
        "en": "**{who}** reads **{n_all}** tokens: **{n}** from the prompt's text and the special token {specials}.",
        "zh": "**{who}** 读入 **{n_all}** 个词元：**{n}** 个来自输入文本，另有特殊词元 {specials}。",
    },
    "explorer_differs.tokens_reads.none": {
        "en": "**{who}** reads **{n_all}** tokens, all **{n}** from the prompt's text (it adds no special token).",
        "zh": "**{who}** 读入 **{n_all}** 个词元，全部 **{n}** 个来自输入文本（不添加特殊词元）。",
    },
    "explorer_differs.tokens_shared": {
        "en": "Where both cut at the same place, the prompt falls into **{shared}** shared spans.",
        "zh": "按两者相同的切分位置，输入分成 **{shared}** 个共同片段。",
    },
    "explorer_differs.tokens_fig": {
        "en": "Each model's tokens over the prompt's characters",
        "zh": "每个模型的词元在输入字符上的位置",
    },
    "explorer_differs.characters": {"en": "character of the prompt", "zh": "输入中的字符"},
    "explorer_differs.tokens_caption": {
        "en": "Each box is one token, from the first character it covers to its last (x axis: the prompt's "
        "characters, ␣ a space); the two rows are the two models' tokenizations. Special tokens the model adds "
        "([BOS], [CLS], [SEP], EOS) cover no character and are not drawn. Dotted lines: where both tokenizers cut, "
        "the edges of the shared spans; parts 3 and 4 compare the models only over these spans, each read at its "
        "last token inside each span. A byte-level token that covers part of a character (GPT-2 cuts a Chinese "
        "character into 2–3 bytes) is drawn over the whole character, so two boxes can overlap there. Character "
        "offsets: the tokenizer library's own (Hugging Face tokenizers, sentencepiece), checked against the ids the "
        "model runs.",
        "zh": "每个方框是一个词元，从它覆盖的第一个字符画到最后一个字符（横轴：输入的字符，␣ 表示空格）；两行分别是两个模型的"
        "分词结果。模型添加的特殊词元（[BOS]、[CLS]、[SEP]、EOS）不覆盖任何字符，不画出。虚线：两个分词器都切分的位置，"
        "即共同片段的边界；第 3、4 部分只在这些片段上比较两个模型，每个片段读取其中最后一个词元。字节级词元只覆盖一个字符的"
        "一部分时（GPT-2 把一个汉字切成 2–3 个字节）画成覆盖整个字符，因此两个方框可能在那里重叠。字符偏移来自分词库本身"
        "（Hugging Face tokenizers、sentencepiece），并与模型实际运行的 id 核对过。",
    },
    "explorer_differs.spans_table": {
        "en": "The {n} shared spans and each model's tokens in them",
        "zh": "{n} 个共同片段及各模型在其中的词元",
    },
    "explorer_differs.col.span": {"en": "span", "zh": "片段"},
    "explorer_differs.col.text": {"en": "text", "zh": "文本"},
    # ---------------------------------------------------------------- next token
    "explorer_differs.next_title": {"en": "2. Next-token prediction", "zh": "2. 下一个词元预测"},
    "explorer_differs.next_line": {
        "en": "Most likely next token: {token} with probability **{p}**.",
        "zh": "最可能的下一个词元：{token}，概率 **{p}**。",
    },
    "explorer_differs.col.token": {"en": "next token", "zh": "下一个词元"},
    "explorer_differs.col.prob": {"en": "probability", "zh": "概率"},
    "explorer_differs.no_next.encoder": {
        "en": "An encoder predicts no next token: it is trained to fill in masked tokens ([MASK]) from both sides "
        "(masked language modelling, Devlin et al. 2019). Type [MASK] into the prompt and see the masked-LM page.",
        "zh": "编码器不预测下一个词元：它被训练为根据两侧上下文填回被遮蔽的词元（[MASK]，掩码语言模型，Devlin 等 2019）。"
        "在输入中写入 [MASK]，并查看掩码语言模型页面。",
    },
    "explorer_differs.no_next.detector": {
        "en": "ELECTRA's discriminator predicts no next token: for every token of the prompt it says whether the token "
        "was replaced (replaced-token detection, Clark et al. 2020).",
        "zh": "ELECTRA 的判别器不预测下一个词元：它对输入中的每个词元判断该词元是否被替换过（替换词元检测，Clark 等 2020）。",
    },
    "explorer_differs.no_next.encoder-decoder": {
        "en": "An encoder-decoder predicts the next token of its output (the translation) from the whole source, not "
        "the next token of the prompt; this section compares its encoder side.",
        "zh": "编码器-解码器根据整个源句预测的是输出（译文）的下一个词元，而不是输入的下一个词元；本节比较的是它的编码器一侧。",
    },
    "explorer_differs.next_caption": {
        "en": "The {k} most likely next tokens after the prompt's last position: softmax of the model's output logits "
        "there (its last layer's residual stream through the final norm and the output head, as its forward pass "
        "does), computed live. Two tokenizers have different vocabularies, so the lists are compared as text.",
        "zh": "输入最后一个位置之后最可能的 {k} 个下一个词元：该位置输出 logits 的 softmax（最后一层的残差流经过最终归一化层"
        "和输出头，与前向计算相同），实时计算。两个分词器的词表不同，因此两份列表按文本比较。",
    },
    # ---------------------------------------------------------------- CKA
    "explorer_differs.cka_title": {
        "en": "3. How alike are their layers? Linear CKA",
        "zh": "3. 各层有多相似？线性 CKA",
    },
    "explorer_differs.cka_fig": {
        "en": "Linear CKA, every layer of A against every layer of B",
        "zh": "线性 CKA：A 的每一层对 B 的每一层",
    },
    "explorer_differs.baseline": {"en": "shuffled baseline", "zh": "打乱基线"},
    "explorer_differs.baseline_note": {"en": "shuffled baseline: {base}", "zh": "打乱基线：{base}"},
    "explorer_differs.cka_read": {
        "en": "Only **{n}** spans: at this n, CKA of two unrelated streams is not 0 but about **{base}** (the "
        "baseline). Read the map against it: **{above}** of {total} cells lie above it; the highest, **{best}**, "
        "pairs A's {la} with B's {lb}.",
        "zh": "只有 **{n}** 个片段：在这个 n 下，两个毫不相关的表示的 CKA 不是 0，而约为 **{base}**（基线）。请对照基线读图："
        "{total} 个格子中有 **{above}** 个高于基线；最高的 **{best}** 对应 A 的{la}与 B 的{lb}。",
    },
    "explorer_differs.cka_caption": {
        "en": "Each cell: linear CKA (centred kernel alignment, Kornblith et al. 2019) between A's residual stream "
        "after one layer (rows; embedding = layer 0) and B's (columns), over the {n} shared spans, each model read "
        "at its last token inside each span: CKA(X, Y) = ‖YᵀX‖²_F / (‖XᵀX‖_F ‖YᵀY‖_F) on column-centred X [spans × "
        "A's width] and Y [spans × B's width]. 1: the same up to a rotation and a scale; it works across widths. "
        "Shuffled baseline: the mean CKA of A's last layer against B's last layer with B's spans put in random "
        "order ({shuffles} shuffles): what CKA gives with no correspondence at this n.",
        "zh": "每个格子：A 在某层之后的残差流（行；嵌入 = 第 0 层）与 B 的残差流（列）之间的线性 CKA（中心核对齐，"
        "Kornblith 等 2019），在 {n} 个共同片段上计算，每个模型读取每个片段中的最后一个词元：对列中心化的 X［片段 × A 的宽度］"
        "和 Y［片段 × B 的宽度］，CKA(X, Y) = ‖YᵀX‖²_F / (‖XᵀX‖_F ‖YᵀY‖_F)。1 表示仅差一个旋转和缩放；宽度不同也可比较。"
        "打乱基线：把 B 的片段顺序随机打乱（{shuffles} 次）后，A 最后一层与 B 最后一层 CKA 的平均值，即在这个 n 下两者毫无对应时 CKA "
        "的取值。",
    },
    "explorer_differs.encoder_side": {
        "en": "An encoder-decoder is compared on its encoder side: its encoder's residual stream and self-attention "
        "over the prompt (no translation is generated for this section).",
        "zh": "编码器-解码器在其编码器一侧比较：编码器对输入的残差流和自注意力（本节不生成译文）。",
    },
    # ---------------------------------------------------------------- heads
    "explorer_differs.heads_title": {
        "en": "4. Heads matched across the two models",
        "zh": "4. 两个模型之间的注意力头配对",
    },
    "explorer_differs.partners_fig": {
        "en": "{a}'s heads, coloured by their partner in {b}",
        "zh": "{a} 的注意力头，按其在 {b} 中的配对头着色",
    },
    "explorer_differs.similarity": {"en": "pattern correlation", "zh": "模式相关系数"},
    "explorer_differs.no_partner": {"en": "no partner", "zh": "无配对"},
    "explorer_differs.best_pairs": {
        "en": "{matched} pairs ({n_a} heads in A, {n_b} in B). Best matched: {pairs}.",
        "zh": "共 {matched} 对（A 有 {n_a} 个头，B 有 {n_b} 个）。配对最好的：{pairs}。",
    },
    "explorer_differs.unequal": {
        "en": "A has {n_a} heads and B {n_b}: {left} of {side}'s heads are left without a partner.",
        "zh": "A 有 {n_a} 个头，B 有 {n_b} 个：{side} 有 {left} 个头没有配对。",
    },
    "explorer_differs.sim_fig": {
        "en": "Pattern correlation of every head of A with every head of B",
        "zh": "A 的每个头与 B 的每个头的模式相关系数",
    },
    "explorer_differs.sim_layers_fig": {
        "en": "Best pair of heads for each pair of layers",
        "zh": "每对层之间最相近的一对头",
    },
    "explorer_differs.sim_aggregated": {
        "en": "A has {n_a} heads and B {n_b}: the {n_a} × {n_b} head × head map is shown per pair of layers "
        "({la} × {lb} cells; a head × head map is drawn up to {most} heads a model), each cell the best pair's "
        "correlation: the highest of any head of that layer of A with any head of that layer of B.",
        "zh": "A 有 {n_a} 个头，B 有 {n_b} 个：{n_a} × {n_b} 的头 × 头相关图按层对显示（{la} × {lb} 个格子；每个模型不超过 "
        "{most} 个头时才画头 × 头的图），每个格子是最佳一对头的相关系数：A 该层任一头与 B 该层任一头之间的最高值。",
    },
    "explorer_differs.heads_caption": {
        "en": "Each head's pattern over the {n} shared spans: row s is the attention of the last token of span s, "
        "summed over the tokens of each span and renormalised over the shared spans (what falls on special tokens "
        "differs between tokenizers). Similarity: the Pearson correlation of two heads' flattened patterns (1: the "
        "same pattern). Pairs: the one-to-one assignment of A's heads to B's with the largest total similarity "
        "(the Hungarian algorithm, Kuhn 1955). The assignment maximises the total over all pairs, so a head's partner "
        "need not be its single best match. Colours: −1 (blue) to 1 (red), white at 0, in both figures. Grid: A's "
        "heads (layers down), each cell naming its partner in B and their correlation.",
        "zh": "每个头在 {n} 个共同片段上的模式：第 s 行是片段 s 的最后一个词元的注意力，按片段把其中各词元的权重相加，并在共同片段"
        "上重新归一化（落在特殊词元上的权重因分词器而异）。相似度：两个头展平后的模式之间的皮尔逊相关系数（1：模式相同）。"
        "配对：把 A 的头一一分配给 B 的头，使总相似度最大（匈牙利算法，Kuhn 1955）。"
        "分配最大化的是所有配对的总和，因此一个头的配对头不一定是与它单独最相近的那个头。颜色：−1（蓝）到 1（红），0 为白色，"
        "两幅图相同。网格：A 的头（纵向为层），每格写出它在 B 中的配对头及相关系数。",
    },
    "explorer_differs.heads_linear": {
        "en": "Qwen3.5's Gated DeltaNet layers have no softmax attention pattern: only its softmax-attention layers "
        "are matched (their layer numbers are kept).",
        "zh": "Qwen3.5 的 Gated DeltaNet 层没有 softmax 注意力模式：只对它的 softmax 注意力层配对（保留原层号）。",
    },
    # ---------------------------------------------------------------- roles
    "explorer_differs.roles_title": {"en": "5. The field guide's roles in both", "zh": "5. 两个模型的图鉴角色"},
    "explorer_differs.induction": {"en": "**{n}** induction heads.", "zh": "**{n}** 个归纳头。"},
    "explorer_differs.no_roles": {"en": "no head passes a role's threshold", "zh": "没有头超过任何角色的阈值"},
    "explorer_differs.roles_linear": {
        "en": "This model mixes softmax attention with Gated DeltaNet linear-attention layers; the field guide scores "
        "softmax attention only, so its roles are not drawn.",
        "zh": "这个模型混合了 softmax 注意力和 Gated DeltaNet 线性注意力层；图鉴只为 softmax 注意力打分，因此不画出它的角色。",
    },
    "explorer_differs.roles_caption": {
        "en": "Each model's heads labelled as on the page “What each head does”: scored on seeded random token "
        "sequences repeated once (not on this prompt), each head named by the role whose threshold it passes by "
        "the most (thresholds listed on that page). An induction head (score above {threshold}) attends to the "
        "token after the earlier copy of the current one (Olsson et al. 2022).",
        "zh": "每个模型的头按“每个头做什么”页面的方法标注：在带种子的、重复一次的随机词元序列上打分（不是在这个输入上），"
        "每个头取超过阈值最多的角色（阈值列在该页面）。归纳头（得分高于 {threshold}）关注当前词元上一次出现之后的那个词元"
        "（Olsson 等 2022）。",
    },
    # ---------------------------------------------------------------- logit lens
    "explorer_differs.lens_title": {"en": "6. The logit lens of both", "zh": "6. 两个模型的 logit lens"},
    "explorer_differs.lens_no.encoder": {
        "en": "No logit lens: it reads each layer through a decoder's next-token head, and an encoder has none (its "
        "head fills in [MASK]).",
        "zh": "没有 logit lens：它通过解码器预测下一个词元的输出头读出每一层，而编码器没有这样的输出头（它的输出头填回 [MASK]）。",
    },
    "explorer_differs.lens_no.detector": {
        "en": "No logit lens: it reads each layer through a decoder's next-token head, and ELECTRA's discriminator has "
        "none (its head says which tokens were replaced).",
        "zh": "没有 logit lens：它通过解码器预测下一个词元的输出头读出每一层，而 ELECTRA 的判别器没有这样的输出头（它的输出头"
        "判断哪些词元被替换过）。",
    },
    "explorer_differs.lens_no.encoder-decoder": {
        "en": "No logit lens here: it reads a decoder-only model's next-token head; an encoder-decoder's prompt goes "
        "through its encoder, which has no output head.",
        "zh": "这里没有 logit lens：它读取仅解码器模型预测下一个词元的输出头；编码器-解码器的输入进入编码器，而编码器没有输出头。",
    },
    "explorer_differs.lens_caption": {
        "en": "The logit lens (nostalgebraist 2020) of each decoder over the prompt's last {n} positions.",
        "zh": "每个解码器在输入最后 {n} 个位置上的 logit lens（nostalgebraist 2020）。",
    },
}
