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
    # What the shipped toy models know of words, beside the prompt box (ui/toy_words.py, issue 39)
    "prompt.knows": {"en": "What it knows", "zh": "它认识的词"},
    "prompt.knows_body": {
        "en": "**What this toy model knows.** It reads a byte-level BPE vocabulary of {vocab} tokens, learnt from "
        "its toy training sentences and from lists of common English words and Chinese characters: **{words} "
        "lower-case English words** ({toy} of them from its training sentences, such as *cats*, *happy*, *alice* "
        "or *thousand*, the others common words such as *because* or *street*) and **{chars} Chinese characters** "
        "(the commonest few hundred, and those of its training sentences), one token each, besides {bytes} single bytes "
        "and {specials} special tokens. An English word is one token with the space before it, so start a prompt "
        "with *the* or a name. Any other word is spelt in pieces, down to single letters (capitals too: `The` is "
        "`T` `h` `e`), and a character it lacks in its UTF-8 bytes (`桌` is 3 byte tokens).\n\n"
        "The models were trained on the toy sentences only (agreement, names, brackets, numbers; the decoder also "
        "on copying repeated spans): a real sentence such as “The animal didn't cross the street because it was "
        "too tired” is not what they learnt, even where every word is a token. The **{examples}** use what they know. For real sentences, pick **{minilm}** "
        "in the sidebar's **{model}** list, or download a published model with **{add}** there.",
        "zh": "**这个玩具模型认识什么。** 它读取一个有 {vocab} 个词元的字节级 BPE 词表，学自它的玩具训练句子以及常用英文单词和"
        "汉字的列表：**{words} 个小写英文单词**（其中 {toy} 个是训练句子里的词，如 *cats*、*happy*、*alice*、*thousand*；"
        "其余是 *because*、*street* 这样的常用词）和 **{chars} 个汉字**（最常用的几百个，以及训练句子里的字），各占一个"
        "词元；另有 {bytes} 个单字节和 {specials} 个特殊词元。英文单词连同它前面的空格才是一个词元，所以输入最好以 *the* "
        "或人名开头。别的单词会被拆成碎片，直到单个字母（大写字母也不认识：`The` 是 `T` `h` `e`）；它没有的汉字会被拆成 "
        "UTF-8 字节（`桌` 是 3 个字节词元）。\n\n"
        "这些模型只在玩具句子上训练过（主谓一致、人名、括号、数字；解码器还练过复制重复的片段）：像 “The animal didn't "
        "cross the street because it was too tired” 这样的真实句子，即使每个词都是一个词元，也不是它们学过的东西。**{examples}** 里用的都是它们"
        "认识的。要看真实句子，请在侧边栏的 **{model}** 列表中选 **{minilm}**，或在那里用 **{add}** 下载一个已发布的模型。",
    },
    "prompt.split": {
        "en": ":material/warning: {share}% of the tokens spelling this prompt's words are single letters or bytes "
        "({words}): words this toy model does not know, so its attention on them means little. Try the "
        "**{examples}**, or see **{knows}**.",
        "zh": ":material/warning: 这段输入中拼写单词的词元有 {share}% 是单个字母或字节（{words}）：这些是玩具模型不认识的词，"
        "它在这些词上的注意力说明不了什么。试试 **{examples}**，或看看 **{knows}**。",
    },
    # A run of byte tokens that spells one character, shown as one chip (the figures keep one row per token)
    "prompt.bytes_chip": {"en": "{char} ({n} bytes)", "zh": "{char}（{n} 个字节）"},
    "prompt.bytes_chip_tokens": {"en": "{char} ({n} bytes in {k} tokens)", "zh": "{char}（{n} 个字节，{k} 个词元）"},
}
