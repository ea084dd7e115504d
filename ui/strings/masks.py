"""Strings of the masks page."""

STRINGS: dict[str, dict[str, str]] = {
    "masks.intro": {
        "en": "A mask decides which keys each query may attend to: blocked scores are set to −∞ before the "
        "softmax, so they get weight exactly 0. Below, the **same weights** run under each mask; the "
        "difference you see is the mask alone.",
        "zh": "掩码决定每个查询可以关注哪些键：被屏蔽的分数在 softmax 前被设为 −∞，因此权重恰好为 0。"
        "下面用**同一组权重**分别在各种掩码下运行；你看到的差别只来自掩码。",
    },
    "masks.encdec_note": {
        "en": "For the encoder-decoder, the masks are applied to its encoder self-attention.",
        "zh": "对于编码器-解码器，掩码作用于其编码器自注意力。",
    },
    "masks.prefix_len": {"en": "Prefix length", "zh": "前缀长度"},
    "masks.prefix_help": {
        "en": "Tokens 0…n−1 see each other both ways; later tokens see only what comes before.",
        "zh": "第 0…n−1 个词元彼此双向可见；之后的词元只能看到前面的内容。",
    },
    "masks.pad": {"en": "Padding tokens appended", "zh": "追加的填充词元数"},
    "masks.pad_help": {
        "en": "As when this prompt shares a batch with a longer one.",
        "zh": "相当于该输入与更长的输入放在同一批次中。",
    },
    "masks.window": {"en": "Window: keys each query sees", "zh": "窗口：每个查询可见的键数"},
    "masks.window_help": {
        "en": "How many positions a query sees under the sliding-window mask, its own included (Mistral: 4096).",
        "zh": "在滑动窗口掩码下，每个查询能看到的位置数（包括它自己；Mistral 为 4096）。",
    },
    "masks.attention_title": {
        "en": "Attention it produces (layer {layer}, head {head})",
        "zh": "由此产生的注意力（第 {layer} 层，第 {head} 个头）",
    },
    "masks.perturb_title": {"en": "Change one token", "zh": "改变一个词元"},
    "masks.perturb_intro": {
        "en": "Pick a position and a replacement word. The bars show how much each position's final hidden "
        "state changes. Under the causal mask nothing before the changed position can change; under the "
        "bidirectional mask every position can.",
        "zh": "选择一个位置和替换词。柱形显示每个位置最终隐藏状态的变化量。在因果掩码下，被改位置之前的任何位置都不会变化；"
        "在双向掩码下，所有位置都可能变化。",
    },
    "masks.position": {"en": "Position to change", "zh": "要改变的位置"},
    "masks.word": {"en": "Replacement word", "zh": "替换词"},
    "masks.word_empty": {"en": "Type a replacement word.", "zh": "请输入替换词。"},
    "masks.replaced": {
        "en": "Position {pos}: {old} → {new} (its first token).",
        "zh": "位置 {pos}：{old} → {new}（取其第一个词元）。",
    },
    "masks.changed_count": {
        "en": "Positions before the change whose output moved: {before} of {n}.",
        "zh": "被改位置之前、输出发生变化的位置：{before} / {n}。",
    },
}
