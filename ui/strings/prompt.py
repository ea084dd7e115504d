"""The shared prompt box and its notices."""

STRINGS: dict[str, dict[str, str]] = {
    "prompt.english_only": {
        "en": "MiniLM was pretrained on English. Its WordPiece vocabulary knows only some Chinese characters: each "
        "becomes its own token, and {unk} of these {n} tokens are [UNK] (unknown). Its attention on Chinese text "
        "shows little that it learned.",
        "zh": "MiniLM 是在英文上预训练的。它的 WordPiece 词表只认识一部分汉字：每个汉字单独成为一个词元，这 {n} 个词元中有 {unk} 个是 "
        "[UNK]（未知）。它对中文文本的注意力几乎体现不出它学到的东西。",
    },
    "prompt.label": {"en": "Prompt", "zh": "输入文本"},
    "prompt.on_enter": {
        "en": "This model takes more than a moment per forward pass on this machine: press Enter to run it.",
        "zh": "这个模型在本机上每次前向计算都要花一些时间：按回车键运行。",
    },
    "prompt.link_cut": {
        "en": "The link in the address bar keeps the first {n} characters of this prompt, so it still opens when "
        "shared or reloaded.",
        "zh": "地址栏中的链接只保留这段提示词的前 {n} 个字符，这样分享或刷新时仍能打开。",
    },
    "prompt.placeholder": {"en": "Type a sentence…", "zh": "输入一句话……"},
    "prompt.examples": {"en": "Examples", "zh": "示例"},
    "prompt.empty": {
        "en": "Type a prompt above (or pick an example) to see the model attend to it.",
        "zh": "请在上方输入文本（或选择一个示例），即可看到模型如何关注它。",
    },
    "prompt.truncated": {
        "en": "The prompt has {n} tokens; this model reads at most {max_len} (special tokens included), "
        "so only the beginning is shown.",
        "zh": "输入有 {n} 个词元；该模型最多读取 {max_len} 个（含特殊词元），因此只显示开头部分。",
    },
    "prompt.numbers_hint": {
        "en": "This model was trained to translate numbers (digits like 1234, or Chinese numerals like "
        "一千二百三十四) into English words; other text gives it nothing it has learned to translate.",
        "zh": "该模型被训练为把数字（如 1234，或一千二百三十四这样的中文数字）翻译成英文单词；其他文本它没有学过如何翻译。",
    },
}
