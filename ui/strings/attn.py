"""Names of the attention kinds (encoder self, decoder self, cross): the shared picker and the lab."""

STRINGS: dict[str, dict[str, str]] = {
    "attn.encoder.self": {"en": "encoder self-attention", "zh": "编码器自注意力"},
    "attn.decoder.self": {"en": "decoder masked self-attention", "zh": "解码器掩码自注意力"},
    "attn.decoder.cross": {"en": "cross-attention (target × source)", "zh": "交叉注意力（目标 × 源）"},
}
