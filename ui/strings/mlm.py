"""Strings of the masked-token lesson (encoder-only)."""

STRINGS: dict[str, dict[str, str]] = {
    "mlm.no_head_detector": {
        "en": "This checkpoint is an ELECTRA discriminator: its head gives every token one number, the probability that "
        "it was replaced, and predicts no tokens, so it cannot fill in blanks. The Pretraining objectives page runs it; pick a "
        "BertForMaskedLM, RobertaForMaskedLM or ELECTRA generator checkpoint here.",
        "zh": "这个检查点是 ELECTRA 判别器：它的输出头只给每个词元一个数，即该词元被替换的概率，不预测任何词元，"
        "因此无法填空。“预训练目标”页会运行它；这里请选择 BertForMaskedLM、RobertaForMaskedLM 或 ELECTRA 生成器的检查点。",
    },
    "mlm.no_head": {
        "en": "This checkpoint has no masked-language-model head (a sentence encoder such as MiniLM ships without "
        "it), so it cannot fill in blanks. Pick a BertForMaskedLM or RobertaForMaskedLM checkpoint.",
        "zh": "这个检查点没有掩码语言模型（MLM）头（像 MiniLM 这样的句子编码器发布时不带它），因此无法填空。"
        "请选择 BertForMaskedLM 或 RobertaForMaskedLM 检查点。",
    },
    "mlm.versus_toy_only": {
        "en": "The encoder-versus-decoder comparison uses the toy models (they share one vocabulary); pick the toy "
        "encoder in the sidebar to see it.",
        "zh": "“编码器对比解码器”这一部分使用玩具模型（它们共用一个词表）；在侧边栏选择玩具编码器即可查看。",
    },
    "mlm.always_encoder": {
        "en": "This page always uses the encoder-only model: filling in masked tokens is what it was trained for.",
        "zh": "本页始终使用仅编码器模型：填补被掩盖的词元正是它的训练任务。",
    },
    "mlm.intro": {
        "en": "BERT (Devlin et al. 2019) is trained to predict hidden tokens from the tokens on **both** sides. "
        "Its attention has no causal mask, so every position sees the whole sentence. Pick tokens to hide, or "
        "type [MASK] in the prompt.",
        "zh": "BERT（Devlin 等 2019）的训练目标是根据**两侧**的词元预测被隐藏的词元。它的注意力没有因果掩码，每个位置都能看到整句话。"
        "选择要隐藏的词元，或在输入中直接写 [MASK]。",
    },
    "mlm.pick": {"en": "Mask these tokens", "zh": "掩盖这些词元"},
    "mlm.pick_help": {
        "en": "Each picked token is replaced by [MASK] before the encoder reads the sentence.",
        "zh": "被选中的词元在编码器读句子之前会被替换成 [MASK]。",
    },
    "mlm.no_mask": {
        "en": "Nothing is masked yet: pick a token above, or write [MASK] in the prompt (for example: the [MASK] "
        "that the dog sees are happy .).",
        "zh": "还没有任何掩码：在上面选择一个词元，或在输入中写 [MASK]（例如：the [MASK] that the dog sees are happy .）。",
    },
    "mlm.focus": {"en": "Masked position", "zh": "被掩盖的位置"},
    "mlm.top_title": {"en": "Encoder's top 10 for position {pos}", "zh": "编码器对位置 {pos} 的前 10 个预测"},
    "mlm.original": {
        "en": "The hidden token was {token} (red, if it is in the top 10): the encoder's guess number **{rank}**, "
        "p = {p}. A word it does not rank first is no error: the bars show what the context allows.",
        "zh": "被隐藏的词元是 {token}（若在前 10 名中则标为红色）：它在编码器的猜测中排第 **{rank}** 名，p = {p}。"
        "没有排在第一并不是错误：柱子显示的是上下文允许哪些词。",
    },
    "mlm.row_title": {
        "en": "Layer {layer}: attention of position {pos} ([MASK])",
        "zh": "第 {layer} 层：位置 {pos}（[MASK]）的注意力",
    },
    "mlm.sides": {
        "en": "Averaged over heads, the masked position puts {left} of its attention on words to its left, {right} "
        "on words to its right, {special} on [CLS] and [SEP], and {self} on itself. Special tokens often collect "
        "attention that a head does not need elsewhere (an attention sink), so the words' shares are the ones to compare.",
        "zh": "按头平均，被掩盖的位置把 {left} 的注意力放在左侧的词上，{right} 放在右侧的词上，{special} 放在 [CLS] 和 [SEP] 上，"
        "{self} 放在自己身上。特殊词元常常收集某个头在别处用不上的注意力（注意力汇聚点），所以要比较的是词所占的份额。",
    },
    "mlm.predicted": {"en": "predicted token", "zh": "预测的词元"},
    "mlm.recipe_empty": {
        "en": "This draw chose nothing: with {n} tokens, each chosen with probability 15%, that happens {p} of the "
        "time. Try another seed.",
        "zh": "这次抽取什么也没选中：{n} 个词元、每个以 15% 的概率被选中时，这种情况发生的概率是 {p}。换一个种子试试。",
    },
    "mlm.versus_title": {"en": "The same blank: decoder vs encoder", "zh": "同一个空：解码器与编码器"},
    "mlm.versus_intro": {
        "en": "Left: the decoder-only model reads only the tokens before the blank and predicts the next token. "
        "Right: the encoder reads the whole sentence.",
        "zh": "左：仅解码器模型只读空格之前的词元，预测下一个词元。右：编码器读整句话。",
    },
    "mlm.versus.decoder": {
        "en": "Decoder: left context only (position {pos})",
        "zh": "解码器：只有左侧上下文（位置 {pos}）",
    },
    "mlm.versus.encoder": {"en": "Encoder: both sides (position {pos})", "zh": "编码器：两侧上下文（位置 {pos}）"},
    "mlm.versus_explain": {
        "en": 'Try "the [MASK] that the dog sees are happy ." then change "are" to "is". The encoder\'s nouns '
        "switch between plural and singular, because the verb on the right decides. The decoder's guess cannot "
        "change: it never sees the verb.",
        "zh": "试试 “the [MASK] that the dog sees are happy .”，再把 “are” 改成 “is”：编码器预测的名词会在复数和单数之间切换，"
        "因为右边的动词起决定作用；解码器的猜测不会变，因为它根本看不到那个动词。",
    },
    "mlm.recipe_title": {"en": "BERT's masking recipe, live", "zh": "BERT 的掩码方案（现场运行）"},
    "mlm.recipe_intro": {
        "en": "For training, BERT chooses 15% of the tokens to predict (Devlin et al. 2019, §3.1). Of the chosen "
        "tokens, 80% become [MASK], 10% become a random token, and 10% stay unchanged. So the model cannot learn "
        "that only [MASK] needs predicting, and it sees real tokens at the masked positions too. Here is one draw "
        "on your prompt (special tokens are never chosen).",
        "zh": "训练时，BERT 选出 15% 的词元作为预测目标（Devlin 等 2019，§3.1）。被选中的词元中 80% 替换为 [MASK]，10% 替换为随机词元，"
        "10% 保持不变。这样模型就学不到“只有 [MASK] 需要预测”，被掩盖的位置也能见到真实词元。下面是对你的输入抽取一次的结果"
        "（特殊词元永远不会被选中）。",
    },
    "mlm.recipe_seed": {"en": "Draw (seed)", "zh": "抽取（种子）"},
    "mlm.recipe_seed_help": {"en": "Another seed, another draw.", "zh": "换一个种子，就换一次抽取。"},
    "mlm.recipe_nothing": {
        "en": "This prompt has no ordinary tokens for the recipe to choose.",
        "zh": "这个输入中没有可供选择的普通词元。",
    },
    "mlm.recipe_before": {"en": "The prompt, coloured by what the recipe chose", "zh": "输入，按掩码方案的选择着色"},
    "mlm.recipe_after": {"en": "What the encoder reads in training", "zh": "训练时编码器读到的内容"},
    "mlm.outcome.mask": {"en": "→ [MASK] (red)", "zh": "→ [MASK]（红）"},
    "mlm.outcome.random": {"en": "→ random token (orange)", "zh": "→ 随机词元（橙）"},
    "mlm.outcome.keep": {"en": "unchanged (green)", "zh": "保持不变（绿）"},
    "mlm.recipe_draw": {
        "en": "This draw chose {k} of {n} tokens: {mask} → [MASK], {random} → random, {keep} unchanged. Colours: {legend}.",
        "zh": "这次抽取从 {n} 个词元中选中 {k} 个：{mask} 个 → [MASK]，{random} 个 → 随机词元，{keep} 个保持不变。颜色：{legend}。",
    },
    "mlm.draws": {"en": "draws of the recipe on this prompt (log scale)", "zh": "在该输入上重复抽取的次数（对数坐标）"},
    "mlm.share": {"en": "share", "zh": "比例"},
    "mlm.chosen_share": {"en": "chosen / all tokens (→ 15%)", "zh": "被选中 / 全部词元（→ 15%）"},
    "mlm.converge_title": {
        "en": "{n} draws: the shares converge to 15% and 80/10/10",
        "zh": "{n} 次抽取：比例收敛到 15% 和 80/10/10",
    },
    "mlm.recipe_final": {
        "en": "After {n} draws: {chosen} of the tokens were chosen. Of those, {mask} became [MASK], {random} a random "
        "token, and {keep} stayed unchanged.",
        "zh": "{n} 次抽取后：{chosen} 的词元被选中；其中 {mask} 变成 [MASK]，{random} 变成随机词元，{keep} 保持不变。",
    },
    "mlm.recipe_rule": {"en": "How tokens are chosen", "zh": "如何选择词元"},
    "mlm.rule.bernoulli": {"en": "p = 15% each (this app)", "zh": "各 15% 概率（本应用）"},
    "mlm.rule.exact": {"en": "round(15%·n) (BERT)", "zh": "round(15%·n)（BERT）"},
    "mlm.recipe_rule_help": {
        "en": "This app's training chooses each ordinary token independently with probability 0.15, so the number "
        "chosen varies from draw to draw. BERT's released data script (create_pretraining_data.py) chooses exactly "
        "max(1, round(0.15 · n)) tokens of a sequence of n tokens ([CLS] and [SEP] counted in n, never chosen), and at "
        "most max_predictions_per_seq (its defaults: 20 for sequences of max_seq_length = 128; not applied here).",
        "zh": "本应用训练时，每个普通词元都以 0.15 的概率独立地被选中，因此每次选中的个数不同。BERT 发布的数据脚本"
        "（create_pretraining_data.py）则从 n 个词元的序列中恰好选出 max(1, round(0.15 · n)) 个"
        "（[CLS] 和 [SEP] 计入 n，但永远不会被选中），且最多 max_predictions_per_seq 个"
        "（脚本默认：max_seq_length = 128 的序列最多 20 个；这里不加这一上限）。",
    },
    "mlm.rule_compare": {
        "en": "**Two ways to choose 15%.** On this prompt of {n} tokens ({m} of them ordinary), **BERT's code** "
        "(create_pretraining_data.py) chooses exactly max(1, round(0.15 × {n})) = **{k}** every time. **This "
        "app's training** chooses each of the {m} with probability 0.15: {mean} on average, and none at all "
        "{p0} of the time. Both then apply 80/10/10 to the chosen tokens.",
        "zh": "**两种选出 15% 的方式。** 这个输入有 {n} 个词元（其中 {m} 个是普通词元），**BERT 的代码**"
        "（create_pretraining_data.py）每次都恰好选出 max(1, round(0.15 × {n})) = **{k}** 个。**本应用的训练**"
        "让这 {m} 个词元各以 0.15 的概率被选中：平均 {mean} 个，且有 {p0} 的概率一个也不选。"
        "两者随后都对选中的词元按 80/10/10 处理。",
    },
    "mlm.chosen_share_exact": {"en": "chosen / ordinary tokens (= {k}/{m})", "zh": "被选中 / 普通词元（= {k}/{m}）"},
    "mlm.converge_title_exact": {
        "en": "{n} draws, BERT's exact count: → 80/10/10",
        "zh": "固定个数抽取 {n} 次：→ 80/10/10",
    },
}
