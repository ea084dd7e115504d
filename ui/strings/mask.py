"""Names of the attention masks and what each does: the masks page and every page that names a mask."""

STRINGS: dict[str, dict[str, str]] = {
    "mask.causal": {"en": "Causal", "zh": "因果掩码"},
    "mask.bidirectional": {"en": "Bidirectional", "zh": "双向（无掩码）"},
    "mask.prefix": {"en": "Prefix-LM", "zh": "前缀语言模型"},
    "mask.padding": {"en": "Padding", "zh": "填充掩码"},
    "mask.causal.explain": {
        "en": "Query i sees keys 0…i only. GPT-style decoders are trained to predict token i+1 from "
        "tokens up to i, so they must not see the answer; this also lets them cache past keys and values "
        "when generating.",
        "zh": "查询 i 只能看到键 0…i。GPT 式解码器被训练为根据前 i 个词元预测第 i+1 个，因此不能看到答案；"
        "这也使它们在生成时可以缓存过去的键和值。",
    },
    "mask.bidirectional.explain": {
        "en": "Every query sees every key. BERT-style encoders build a representation of the whole input, "
        "so a word can use context on both sides (the masked-word task keeps this from being cheating).",
        "zh": "每个查询都能看到所有键。BERT 式编码器为整个输入构建表示，因此一个词可以利用两侧的上下文"
        "（掩码词预测任务使这不算作弊）。",
    },
    "mask.sliding": {"en": "Sliding window", "zh": "滑动窗口掩码"},
    "mask.sliding.explain": {
        "en": "Causal, and only the last few positions (Mistral, Jiang et al. 2023): each layer looks back one "
        "window, so information from further back still arrives through the layers below. The attention on "
        "the right is this model under that mask; a model trained with full causal attention was not trained for it.",
        "zh": "因果掩码，并且只看最近的若干个位置（Mistral，Jiang 等 2023）：每一层只回看一个窗口，更早的信息仍可经由下面各层逐层传递过来。"
        "右图是本模型在该掩码下的注意力；用完整因果注意力训练的模型并没有为它训练过。",
    },
    "mask.prefix.explain": {
        "en": "Bidirectional inside the prefix, causal after it (UniLM, T5's prefix-LM): the prompt is read "
        "as a whole, the continuation is generated left to right.",
        "zh": "前缀内部双向可见，前缀之后为因果（UniLM、T5 的前缀语言模型）：提示整体读取，续写从左到右生成。",
    },
    "mask.padding.explain": {
        "en": "Inputs of different lengths are padded to one length in a batch; [PAD] keys are masked so no "
        "real token attends to them. The padded rows still compute something, but their outputs are ignored.",
        "zh": "批次中不同长度的输入被填充到同一长度；[PAD] 键被屏蔽，真实词元不会关注它们。填充位置的行仍会计算，但输出被忽略。",
    },
}
