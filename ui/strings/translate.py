"""Strings of the translation lesson (encoder-decoder)."""

STRINGS: dict[str, dict[str, str]] = {
    "translate.intro_real": {
        "en": "A published encoder-decoder model (Marian as in opus-mt, or T5) runs here through the same Transformer as the "
        "toy: type a sentence in its source language and watch each new target token's cross-attention look back "
        "at the source, then check a translation of your own by teacher forcing.",
        "zh": "这里运行的是一个已发布的编码器-解码器模型（如 opus-mt 的 Marian，或 T5），经过与玩具模型相同的 Transformer：输入源语言的一句话，"
        "观察每个新生成的目标词元如何通过交叉注意力回看源句；再用教师强制检验你自己写的译文。",
    },
    "translate.t5_task": {"en": "T5's task prefix", "zh": "T5 的任务前缀"},
    "translate.t5_none": {"en": "none: as typed", "zh": "不加：按输入原样"},
    "translate.t5_reads": {
        "en": "T5 was trained on many tasks at once and reads which one to do from a prefix of its input (Raffel et al. "
        "2020): without “translate English to German: ” it does not know it should translate. The model reads: {text}",
        "zh": "T5 同时在许多任务上训练，从输入开头的前缀读出要做哪个任务（Raffel 等 2020）：没有 "
        "“translate English to German: ” 这样的前缀，它不知道该翻译。模型读到的是：{text}",
    },
    "translate.t5_random": {
        "en": "Only a trained checkpoint (t5-small, flan-t5-small) translates; a tiny random T5, like the test models, "
        "does not: its output tokens are noise, though every step below is still its real attention.",
        "zh": "只有训练过的检查点（t5-small、flan-t5-small）才会翻译；随机初始化的小 T5（比如测试用的模型）不会："
        "它输出的词元是噪声，不过下面每一步仍是它真实的注意力。",
    },
    "translate.always_encdec": {
        "en": "This page always uses the encoder-decoder model: mapping one sequence to another is what it is for.",
        "zh": "本页始终使用编码器-解码器模型：把一个序列映射成另一个序列正是它的用途。",
    },
    "translate.intro": {
        "en": "The original Transformer (Vaswani et al. 2017). The **encoder** reads the whole source once, "
        "bidirectionally. The **decoder** writes the target one token at a time. Each decoder block has masked "
        "self-attention over the target written so far, then **cross-attention**: its queries come from the "
        "target, its keys and values from the encoder's output. Here the task is a number (digits or Chinese "
        "numerals) to English words.",
        "zh": "原始的 Transformer（Vaswani 等 2017）。**编码器**一次性、双向地读完整个源序列；**解码器**一次写一个目标词元。"
        "每个解码器模块先对已写出的目标做带掩码的自注意力，再做**交叉注意力**：查询来自目标，键和值来自编码器的输出。"
        "这里的任务是把数字（阿拉伯数字或中文数字）写成英文单词。",
    },
    "translate.source_real": {"en": "Source sentence", "zh": "源语言句子"},
    "translate.source": {"en": "Source (a number up to 9999)", "zh": "源序列（不超过 9999 的数字）"},
    "translate.source_help": {
        "en": "Digits like 1234, or Chinese numerals like 一千二百三十四.",
        "zh": "例如 1234 这样的阿拉伯数字，或一千二百三十四这样的中文数字。",
    },
    "translate.step_title": {"en": "Step by step", "zh": "逐步生成"},
    "translate.so_far": {"en": "Step {n} of {total}:", "zh": "第 {n} 步，共 {total} 步："},
    "translate.source_tokens": {"en": "source token", "zh": "源词元"},
    "translate.row_title": {
        "en": "Cross-attention of “{token}” over the source (layer {layer})",
        "zh": "“{token}”对源序列的交叉注意力（第 {layer} 层）",
    },
    "translate.matrix_title": {
        "en": "Cross-attention so far, layer {layer} head {head}",
        "zh": "目前为止的交叉注意力，第 {layer} 层第 {head} 头",
    },
    "translate.step_caption": {
        "en": "First figure: each head's cross-attention row for the token just written. Second: the same head's "
        'rows for every token written so far, one more per step; row "a → b" is the decoder reading a and '
        "writing b. Every row sums to 1 over the source tokens. Not every head aligns words with digits. Measured "
        "on 80 held-out numbers, layer {layer} head {head} does it best: for {share} of the words, its strongest "
        "attention falls on a source character the word translates (chance: {chance}; the head shown: {this}).",
        "zh": "第一张图：刚写出的词元在每个头上的交叉注意力行。第二张：同一个头对目前已写出的每个词元的注意力行，每步多一行；"
        "“a → b”这一行表示解码器读入 a、写出 b。每一行在源词元上的和为 1。并非每个头都会把单词和数字对齐："
        "在 80 个未参与训练的数字上测得，第 {layer} 层第 {head} 头对齐得最好：{share} 的单词，其最强的注意力落在它所翻译的源字符上"
        "（随机水平：{chance}；当前显示的头：{this}）。",
    },
    "translate.probs_title": {
        "en": "Step {n}: top 10 next tokens (log scale)",
        "zh": "第 {n} 步：概率最高的 10 个词元（对数坐标）",
    },
    "translate.forced_title": {"en": "Teacher forcing: you write the target", "zh": "教师强制：由你来写目标"},
    "translate.forced_intro": {
        "en": "In training, the decoder never reads its own guesses. It reads the correct target, shifted right "
        "(*teacher forcing*), and all positions are computed in one pass. Type a target below, right or wrong. "
        "For every token the bar shows the probability the model gives it after the tokens you typed before it.",
        "zh": "训练时，解码器读的从来不是自己的猜测，而是右移一位的正确目标（*教师强制*），所有位置一次算完。"
        "在下面输入一个目标（对错都行）：每个词元的柱高是模型在读完你之前输入的词元后，给这个词元的概率。",
    },
    "translate.typed": {"en": "Target (English words)", "zh": "目标（英文单词）"},
    "translate.typed_real": {"en": "Target (in the target language)", "zh": "目标（目标语言）"},
    "translate.typed_help": {
        "en": "It starts as the model's own translation. Change a word and see the probability drop.",
        "zh": "初始内容是模型自己的翻译。改一个词，看看概率如何下降。",
    },
    "translate.prefill_cut": {
        "en": "The model did not finish its translation (no end token within {steps} steps, as a random model "
        "never does): the box starts with its first {n} tokens.",
        "zh": "模型没有写完译文（{steps} 步内没有生成结束符，随机初始化的模型从来不会）：输入框里是它的前 {n} 个词元。",
    },
    "translate.prefill_bytes": {
        "en": "Some of its output tokens are byte pieces that form no whole character (shown as � on the steps "
        "above, the noise of an untrained model): they are left out of the box.",
        "zh": "它输出的部分词元是凑不成完整字符的字节片段（上面各步显示为 �，未训练模型的噪声）：输入框里略去了它们。",
    },
    "translate.prefill_empty": {
        "en": "Its output is byte pieces only, none a whole character (shown as � on the steps above, the noise of "
        "an untrained model): the box starts with your source sentence instead. Type the translation you expect.",
        "zh": "它的输出全是字节片段，没有一个完整字符（上面各步显示为 �，未训练模型的噪声）：输入框里先放了你的源句子。"
        "请输入你期望的译文。",
    },
    "translate.typed_long": {
        "en": "The target is longer than the decoder's {max_len} positions; only the beginning is read.",
        "zh": "目标超过了解码器的 {max_len} 个位置，只读取开头部分。",
    },
    "translate.typed_tokens": {"en": "your target, token by token", "zh": "你的目标（逐词元）"},
    "translate.forced_probs_title": {
        "en": "P(your token | source, your tokens before it)",
        "zh": "P(你的词元 | 源序列，你在它之前的词元)",
    },
    "translate.disagree": {
        "en": "The model disagrees at {k} token(s). At token {pos} you wrote {typed} (probability {p}); the "
        "model expected {best} ({q}). Red bars (log scale) mark where its first choice differs from yours.",
        "zh": "模型在 {k} 个词元处不同意。在第 {pos} 个词元你写了 {typed}（概率 {p}），模型预期的是 {best}（{q}）。"
        "红色柱（对数坐标）表示模型的首选与你不同的位置。",
    },
    "translate.agree": {
        "en": "The model's first choice matches every token you typed, [EOS] included. log P(target | source) = {logp}.",
        "zh": "你输入的每个词元（包括 [EOS]）都与模型的首选一致。log P(目标 | 源) = {logp}。",
    },
    "translate.self_title": {
        "en": "Decoder self-attention (masked), layer {layer} head {head}",
        "zh": "解码器自注意力（带掩码），第 {layer} 层第 {head} 头",
    },
    "translate.cross_title": {
        "en": "Cross-attention, layer {layer} head {head}",
        "zh": "交叉注意力，第 {layer} 层第 {head} 头",
    },
    "translate.forced_explain": {
        "en": "Decoder self-attention (first figure): lower-triangular, because a token may not look at the ones "
        "after it. That mask is what makes one-pass teacher-forced training equal to step-by-step generation. "
        "Cross-attention (second figure): every target row over every source token. It needs no mask: the whole "
        'source is known. Row "a → b" reads your token a and is scored on your next token b.',
        "zh": "解码器自注意力（第一张图）：呈下三角，因为一个词元不能看它后面的词元；正是这个掩码让一次完成的教师强制训练等价于逐步生成。"
        "交叉注意力（第二张图）：每一行目标对所有源词元，这里不需要掩码，因为整个源序列都是已知的。"
        "“a → b”这一行读入你的词元 a，并以你的下一个词元 b 来评分。",
    },
}
