"""Strings of the sentence-similarity lesson (MiniLM) and the attention-sink panel."""

STRINGS: dict[str, dict[str, str]] = {
    "similarity.intro": {
        "en": "What encoders are for: an encoder reads the whole sentence at once, in both directions, so every "
        "token's last-layer vector already mixes in the others. Averaging them (*mean pooling*) gives one vector "
        "per sentence. all-MiniLM-L6-v2 (6 layers, 12 heads, d = 384) was fine-tuned with a contrastive objective "
        "on about a billion sentence pairs, so that mean-pooled vectors of sentences that mean the same are close. "
        "A decoder-only model sees only the left context at each position, which is why sentence embeddings usually "
        "come from encoders.",
        "zh": "编码器的用途：编码器一次性、双向地读完整句话，所以每个词元最后一层的向量都已经融合了其他词元的信息。"
        "把它们取平均（*平均池化*）就得到每句话的一个向量。all-MiniLM-L6-v2（6 层、12 个头、d = 384）用对比学习目标"
        "在约十亿个句子对上微调过，使意思相同的句子的平均池化向量彼此接近。仅解码器模型在每个位置只看到左侧上下文，"
        "这也是句向量通常来自编码器的原因。",
    },
    "similarity.sentences": {"en": "Sentences, one per line (2 to 6)", "zh": "句子，每行一句（2 到 6 句）"},
    "similarity.sentences_help": {
        "en": "English works best: the model was trained on English.",
        "zh": "英文效果最好：该模型是在英文上训练的。",
    },
    "similarity.always_minilm": {
        "en": "This page always uses MiniLM-L6, a pretrained sentence encoder: it was trained so that its mean-pooled "
        "vectors compare sentences, which a masked-LM or a decoder checkpoint was not.",
        "zh": "本页始终使用预训练的句子编码器 MiniLM-L6：它经过专门训练，其平均池化向量可以用来比较句子；"
        "掩码语言模型或解码器的检查点没有经过这种训练。",
    },
    "similarity.range": {"en": "{low} to {high}", "zh": "{low} 到 {high}"},
    "similarity.too_few": {"en": "Write at least two sentences, one per line.", "zh": "请至少写两句话，每行一句。"},
    "similarity.too_many": {
        "en": "{n} sentences: only the first {most} are compared.",
        "zh": "共 {n} 句：只比较前 {most} 句。",
    },
    "similarity.title.mean": {
        "en": "Mean pooling (what MiniLM was trained for)",
        "zh": "平均池化（MiniLM 的训练方式）",
    },
    "similarity.title.cls": {"en": "[CLS] vector only", "zh": "只用 [CLS] 向量"},
    "similarity.explain": {
        "en": "Each cell is the cosine of two sentence vectors (1 on the diagonal). With mean pooling, the "
        "off-diagonal cosines run from {mean}: paraphrases score high and unrelated sentences low. With the "
        "[CLS] vector alone, they run from {cls}: a narrower range separates less. BERT trained [CLS] for next-sentence prediction, and this "
        "model's sentence training pooled the mean, never [CLS]. So [CLS]"
        ' is not automatically "the sentence '
        'embedding": it depends on how the model was trained.',
        "zh": "每个格子是两个句向量的余弦（对角线为 1）。用平均池化时，非对角线上的余弦从 {mean}：复述句得分高，无关句得分低。"
        "只用 [CLS] 向量时，余弦从 {cls}：范围越窄，区分得越差。BERT 的 [CLS] 是为下一句预测训练的，而这个模型的句子训练用的是平均池化，从未用过 [CLS]。"
        "所以 [CLS] 并不天然就是“句向量”：这取决于模型是怎么训练的。",
    },
    "similarity.source": {
        "en": "Model: {source}. Weights read with safetensors, tokens with tokenizers; no transformers at run time.",
        "zh": "模型：{source}。权重用 safetensors 读取，分词用 tokenizers；运行时不依赖 transformers。",
    },
}
