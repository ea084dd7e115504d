"""Names of the models: the sidebar's picker and the pages that name a model."""

STRINGS: dict[str, dict[str, str]] = {
    "model.label": {"en": "Model", "zh": "模型"},
    "model.encoder": {"en": "Encoder-only (BERT-style)", "zh": "仅编码器（BERT 式）"},
    "model.decoder": {"en": "Decoder-only (GPT-style)", "zh": "仅解码器（GPT 式）"},
    "model.encoder-decoder": {
        "en": "Encoder-decoder (original Transformer)",
        "zh": "编码器-解码器（原始 Transformer）",
    },
    "model.minilm": {"en": "MiniLM-L6 (pretrained, English)", "zh": "MiniLM-L6（预训练，英文）"},
    "model.missing": {
        "en": "{name} — not installed",
        "zh": "{name}——未安装",
    },
}
