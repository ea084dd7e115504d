"""Strings that several pages show and none owns: the probability axis, architecture names, parameter counts."""

STRINGS: dict[str, dict[str, str]] = {
    "common.prob": {"en": "probability", "zh": "概率"},
    "common.next_token": {"en": "next token", "zh": "下一个词元"},
    "common.arch.encoder": {"en": "Encoder-only", "zh": "仅编码器"},
    "common.arch.decoder": {"en": "Decoder-only", "zh": "仅解码器"},
    "common.arch.encoder-decoder": {"en": "Encoder-decoder", "zh": "编码器-解码器"},
    "common.params": {"en": "parameters", "zh": "参数量"},
}
