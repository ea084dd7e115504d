"""Strings that several pages show and none owns: the probability axis, architecture names, parameter counts, the
scale on q·k with its reason (ui/score_scale.py: the Explorer, Softmax and Generate pages)."""

STRINGS: dict[str, dict[str, str]] = {
    "common.prob": {"en": "probability", "zh": "概率"},
    "common.next_token": {"en": "next token", "zh": "下一个词元"},
    "common.arch.encoder": {"en": "Encoder-only", "zh": "仅编码器"},
    "common.arch.decoder": {"en": "Decoder-only", "zh": "仅解码器"},
    "common.arch.encoder-decoder": {"en": "Encoder-decoder", "zh": "编码器-解码器"},
    "common.params": {"en": "parameters", "zh": "参数量"},
    # the factor s on q·k and why it is that number (models/core/score_scale.py, issue 41)
    "common.scale": {"en": "scale s = {s} ({why})", "zh": "缩放因子 s = {s}（{why}）"},
    "common.scale.default": {"en": "1/√{d}", "zh": "1/√{d}"},
    "common.scale.t5": {
        "en": "T5: no scaling, its initialisation folds 1/√d_k into W_Q; a learned relative-position bias is added to "
        "q·k instead",
        "zh": "T5：不缩放，它的初始化已把 1/√d_k 并入 W_Q；q·k 上另加一个学到的相对位置偏置",
    },
    "common.scale.granite": {
        "en": "Granite's attention_multiplier from its config, in place of 1/√{d} = {sqrt}",
        "zh": "Granite 配置中的 attention_multiplier，取代 1/√{d} = {sqrt}",
    },
    "common.scale.gemma": {
        "en": "Gemma: query_pre_attn_scalar^−½ = 1/√{q}, not 1/√d_k",
        "zh": "Gemma：query_pre_attn_scalar^−½ = 1/√{q}，而不是 1/√d_k",
    },
    "common.scale.one": {"en": "no scaling", "zh": "不缩放"},
    "common.scale.inverse": {"en": "1/d_k = 1/{d}, as μP", "zh": "1/d_k = 1/{d}，即 μP 的做法"},
    "common.scale.config": {
        "en": "set in the model's config, in place of 1/√{d} = {sqrt}",
        "zh": "由模型配置设定，取代 1/√{d} = {sqrt}",
    },
}
