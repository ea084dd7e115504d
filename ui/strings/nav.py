"""Page titles: the sidebar navigation, the home page's links and the guided lessons' page lists."""

STRINGS: dict[str, dict[str, str]] = {
    "nav.home": {"en": "Home", "zh": "首页"},
    "nav.explorer": {"en": "Attention Explorer", "zh": "注意力浏览器"},
    "nav.masks": {"en": "Masks", "zh": "掩码"},
    "nav.rank": {"en": "Attention rank", "zh": "注意力矩阵的秩"},
    "nav.positional": {"en": "Positional encodings", "zh": "位置编码"},
    "nav.softmax": {"en": "Softmax and √d_k", "zh": "Softmax 与 √d_k"},
    "nav.generate": {"en": "Generate (decoder)", "zh": "生成（解码器）"},
    "nav.translate": {"en": "Translate (encoder-decoder)", "zh": "翻译（编码器-解码器）"},
    "nav.mlm": {"en": "Masked tokens (encoder)", "zh": "掩码预测（编码器）"},
    "nav.similarity": {"en": "Sentence similarity (MiniLM)", "zh": "句子相似度（MiniLM）"},
    "nav.lab": {"en": "Architecture lab", "zh": "架构实验室"},
    "nav.guides": {"en": "Guided lessons", "zh": "引导式课程"},
    "nav.heads": {"en": "What each head does", "zh": "每个注意力头在做什么"},
    "nav.scaling": {"en": "Model size & scaling laws", "zh": "模型规模与缩放定律"},
    "nav.lens": {"en": "Logit lens & knock-out", "zh": "Logit lens 与头消融"},
    "nav.block": {"en": "Norms & attention scores", "zh": "归一化与注意力打分"},
    "nav.tokens": {"en": "Tokenization", "zh": "分词"},
    "nav.posttrain": {"en": "Post-training: SFT and DPO", "zh": "后训练：SFT 与 DPO"},
    "nav.objectives": {"en": "Pretraining objectives", "zh": "预训练目标"},
}
