"""Strings of the tokenization lesson: BPE merges replayed, vocabulary size against length, tokens per
character and the ~¾ word per token rule of thumb."""

STRINGS: dict[str, dict[str, str]] = {
    "tokens.intro": {
        "en": "A model never sees letters: a **tokenizer** first cuts the text into **tokens**, pieces from a fixed "
        "**vocabulary**, and the model reads one vector per token. Everything below is computed on your prompt "
        "and on the app's own files, live.",
        "zh": "模型从不直接看到字母：**分词器**先把文本切成**词元**（token），即固定**词表**中的片段，模型再为每个词元读入一个向量。"
        "下面的一切都是在你的输入和本应用自带的文件上实时计算的。",
    },
    "tokens.error": {"en": "The tokenizer could not be read: {error}", "zh": "无法读取分词器：{error}"},
    # ------------------------------------------------------------ replay
    "tokens.replay_title": {"en": "BPE, merge by merge, on your prompt", "zh": "在你的输入上逐步重放 BPE 合并"},
    "tokens.replay_explain": {
        "en": "Byte-pair encoding (BPE; Sennrich et al. 2016) learns a ranked list of **merges** from a corpus: "
        "count every adjacent pair, merge the most frequent one into a new token, repeat. The shipped tokenizer "
        "is byte-level BPE as in GPT-2 (Radford et al. 2019): it starts from the 256 bytes, so any text has an "
        "encoding and nothing is unknown. It learnt {merges:,} merges on the toy corpus (vocabulary {vocab:,}). "
        "To encode, the text is split into pieces (words with their leading space, one piece per Chinese "
        "character, one per digit), written as bytes, and inside each piece the pair with the lowest rank is "
        "merged until none is left. Step 0 is your prompt as bytes; each step is the next merge in the list that "
        "fires on it.",
        "zh": "字节对编码（BPE；Sennrich 等 2016）从语料中学到一张按顺序排列的**合并规则**表：统计所有相邻的片段对，"
        "把出现最多的一对合并成新词元，重复进行。自带的分词器是 GPT-2 那样的字节级 BPE（Radford 等 2019）：从 256 个字节出发，"
        "所以任何文本都能编码，不会有未知词元。它在玩具语料上学到了 {merges:,} 条合并规则（词表大小 {vocab:,}）。"
        "编码时，文本先被切成小段（带前导空格的单词、每个汉字一段、每个数字一段），写成字节，再在每段内部反复合并排名最靠前的片段对，"
        "直到没有可合并的为止。第 0 步是你的输入的字节；之后每一步是合并表中下一条在它上面生效的规则。",
    },
    "tokens.step": {"en": "Merge step", "zh": "合并步数"},
    "tokens.step_zero": {
        "en": "Step 0 of {n}: the prompt as **{tokens:,} bytes** (a Chinese character is 3 bytes, shown as <e5> …).",
        "zh": "第 0 步（共 {n} 步）：输入写成 **{tokens:,} 个字节**（一个汉字占 3 个字节，显示为 <e5> …）。",
    },
    "tokens.step_caption": {
        "en": "Step {k} of {n}: merge number {rank} of the list, {left} + {right} → {merged}, applied "
        "**{count}×** here; the prompt is now **{tokens:,}** tokens.",
        "zh": "第 {k} 步（共 {n} 步）：合并表中的第 {rank} 条，{left} + {right} → {merged}，在这里生效 **{count}** 次；"
        "输入现在是 **{tokens:,}** 个词元。",
    },
    "tokens.same": {
        "en": "After the last step the sequence is **identical** to what the tokenizer's own encode() returns "
        "({tokens:,} tokens, {bytes:,} bytes: {ratio:.2f} bytes per token).",
        "zh": "最后一步之后的序列与分词器自身 encode() 的输出**完全相同**（{tokens:,} 个词元，{bytes:,} 个字节：每个词元 {ratio:.2f} 个字节）。",
    },
    "tokens.differs": {
        "en": "The replay differs from the tokenizer's encode(): please report this prompt.",
        "zh": "重放结果与分词器的 encode() 不一致：请报告这条输入。",
    },
    "tokens.no_merges": {
        "en": "No merge applies to this prompt: it stays {tokens:,} byte(s).",
        "zh": "没有合并规则适用于这条输入：它仍是 {tokens:,} 个字节。",
    },
    "tokens.shown_first": {
        "en": "The first {shown} of {n:,} tokens are shown.",
        "zh": "只显示 {n:,} 个词元中的前 {shown} 个。",
    },
    "tokens.cut": {
        "en": "The prompt has {n:,} characters; the replay reads the first {max:,}.",
        "zh": "输入有 {n:,} 个字符；重放只读取前 {max:,} 个。",
    },
    "tokens.length_title": {"en": "Length of your prompt as merges fire", "zh": "合并规则生效时输入的长度"},
    "tokens.x_step": {"en": "merge step", "zh": "合并步数"},
    "tokens.y_tokens": {"en": "tokens", "zh": "词元数"},
    "tokens.series_length": {"en": "tokens in the prompt", "zh": "输入中的词元数"},
    "tokens.all_steps": {"en": "Every merge that fired, in order", "zh": "所有生效的合并，按顺序"},
    "tokens.col_step": {"en": "step", "zh": "步"},
    "tokens.col_rank": {"en": "rank in the merge list", "zh": "合并表中的序号"},
    "tokens.col_pair": {"en": "pair", "zh": "片段对"},
    "tokens.col_merged": {"en": "new token", "zh": "新词元"},
    "tokens.col_count": {"en": "times here", "zh": "本处次数"},
    "tokens.col_after": {"en": "tokens after", "zh": "之后的词元数"},
    "tokens.chips": {"en": "Tokens at this step:", "zh": "这一步的词元："},
    # ------------------------------------------------------------ vocabulary size
    "tokens.vocab_title": {"en": "A bigger vocabulary, a shorter sequence", "zh": "词表越大，序列越短"},
    "tokens.vocab_explain": {
        "en": "The same recipe as the shipped tokenizer (byte-level BPE on the toy corpus, "
        "{corpus:,} texts), trained again at {k} vocabulary sizes, from the byte-level minimum "
        "({minimum} = 256 bytes + {specials} special tokens, no merges) upwards. Each size was trained once "
        "when this server first opened the page ({seconds:.1f} s in all). Lengths are measured on held-out "
        "sentences of the toy language that the corpus does not contain: {en:,} English sentences "
        "({words:,} words) and {zh:,} Chinese ones ({chars:,} characters).",
        "zh": "用与自带分词器相同的做法（在玩具语料的 {corpus:,} 条文本上训练字节级 BPE），按 {k} 种词表大小重新训练，"
        "从字节级的最小值（{minimum} = 256 个字节 + {specials} 个特殊词元，没有合并）往上。每种大小只在本服务器第一次打开本页时"
        "训练一次（共 {seconds:.1f} 秒）。长度在语料中没有出现过的玩具语言留出句子上测量：{en:,} 个英文句子（{words:,} 个单词）"
        "和 {zh:,} 个中文句子（{chars:,} 个字）。",
    },
    "tokens.vocab_chart": {
        "en": "Tokens per word (English) and per character (Chinese) against vocabulary size",
        "zh": "每个单词（英文）和每个字（中文）的词元数与词表大小",
    },
    "tokens.x_vocab": {"en": "vocabulary reached", "zh": "实际得到的词表大小"},
    "tokens.y_per": {"en": "tokens per word / per character", "zh": "每个单词 / 每个字的词元数"},
    "tokens.series_en": {"en": "English: tokens per word", "zh": "英文：每个单词的词元数"},
    "tokens.series_zh": {"en": "Chinese: tokens per character", "zh": "中文：每个字的词元数"},
    "tokens.shipped_line": {"en": "shipped ({n:,})", "zh": "自带（{n:,}）"},
    "tokens.col_requested": {"en": "vocabulary asked for", "zh": "要求的词表大小"},
    "tokens.col_reached": {"en": "vocabulary reached", "zh": "实际词表大小"},
    "tokens.col_merges": {"en": "merges", "zh": "合并规则数"},
    "tokens.col_en": {"en": "English tokens / word", "zh": "英文 词元/单词"},
    "tokens.col_zh": {"en": "Chinese tokens / character", "zh": "中文 词元/字"},
    "tokens.col_seconds": {"en": "training s", "zh": "训练秒数"},
    "tokens.stopped": {
        "en": "Asked for {requested:,}, BPE stopped at **{reached:,}**: by then every piece of the toy corpus is a "
        "single token, so no pair is left to merge. A real corpus (web text in many languages) keeps going "
        "to GPT-2's 50,257 or Llama 3's 128,256. From about {flat:,} on, every held-out word is a single token "
        "and a bigger vocabulary no longer shortens them: of the {total:.2f} tokens per word, one is the word "
        "itself, and the excess, **{excess:.2f}** per word, is ({dots:,} “ .” tokens + {breaks:,} line-break "
        "tokens) / {words:,} words: the full stops, and the line breaks that join the held-out sentences.",
        "zh": "要求 {requested:,}，BPE 在 **{reached:,}** 处停下：此时玩具语料中的每一段都已是单个词元，没有片段对可以再合并。"
        "真实语料（多种语言的网页文本）会一直合并到 GPT-2 的 50,257 或 Llama 3 的 128,256。从大约 {flat:,} 起，留出句子中的每个"
        "单词都已是单个词元，更大的词表不再让它们变短：每个单词平均 {total:.2f} 个词元，其中 1 个是单词本身，超出的部分为每单词 "
        "**{excess:.2f}** 个 =（{dots:,} 个“ .”词元 + {breaks:,} 个换行词元）/ {words:,} 个单词：即句号，以及连接各个留出句子的换行符。",
    },
    "tokens.computing": {
        "en": "Training BPE tokenizers at several vocabulary sizes (once per server)…",
        "zh": "正在按多种词表大小训练 BPE 分词器（每个服务器只训练一次）…",
    },
    # ------------------------------------------------------------ tokens per character
    "tokens.chars_title": {"en": "English vs Chinese: tokens per character", "zh": "英文与中文：每个字符的词元数"},
    "tokens.chars_explain": {
        "en": "Computed on the app's own lesson text: every string of this app in English ({en_chars:,} "
        "characters, {en_words:,} words) and the same strings in Chinese ({zh_chars:,} characters), Markdown "
        "marks removed, and on your prompt. A character is one Unicode code point, spaces included. An English "
        "word spans several characters, so English needs fewer tokens per character; a Chinese character is "
        "already a word or part of one, and a byte-level tokenizer that never merged it spends 3 tokens (its "
        "3 UTF-8 bytes) on it.",
        "zh": "在本应用自己的课程文本上计算：本应用全部英文字符串（{en_chars:,} 个字符，{en_words:,} 个单词）及其对应的中文字符串"
        "（{zh_chars:,} 个字符），去掉了 Markdown 标记；另外也在你的输入上计算。一个字符是一个 Unicode 码位，空格也算。"
        "一个英文单词包含好几个字符，所以英文每个字符的词元数较少；一个汉字本身就是一个词或词的一部分，"
        "字节级分词器若从未合并过它，就要为它花 3 个词元（它的 3 个 UTF-8 字节）。",
    },
    "tokens.col_tokenizer": {"en": "tokenizer", "zh": "分词器"},
    "tokens.col_vocab": {"en": "vocabulary", "zh": "词表大小"},
    "tokens.col_en_char": {"en": "English tokens / character", "zh": "英文 词元/字符"},
    "tokens.col_zh_char": {"en": "Chinese tokens / character", "zh": "中文 词元/字符"},
    "tokens.col_unk": {"en": "Chinese [UNK] share", "zh": "中文 [UNK] 占比"},
    "tokens.col_prompt": {"en": "your prompt: tokens / character", "zh": "你的输入：词元/字符"},
    "tokens.name.bpe": {"en": "shipped byte-level BPE", "zh": "自带的字节级 BPE"},
    "tokens.name.minilm": {"en": "MiniLM (BERT WordPiece)", "zh": "MiniLM（BERT WordPiece）"},
    "tokens.unk_note": {
        "en": "WordPiece (Wu et al. 2016; BERT, Devlin et al. 2019) has no byte fallback: a character missing from "
        "its vocabulary becomes [UNK], one token that has lost the character. Few tokens per character is then "
        "not a good sign.",
        "zh": "WordPiece（Wu 等 2016；BERT，Devlin 等 2019）没有字节回退：词表里没有的字会变成 [UNK]，一个已经丢掉了原字的词元。"
        "这时每个字符的词元数少并不是好事。",
    },
    "tokens.more_models": {
        "en": "Put published models in $ATTENTION_LAB_MODELS to add their tokenizers (only tokenizer.json is read).",
        "zh": "把公开模型放进 $ATTENTION_LAB_MODELS 即可加入它们的分词器（只读取 tokenizer.json）。",
    },
    # ------------------------------------------------------------ words per token
    "tokens.rule_title": {"en": "“A token is about ¾ of a word”, measured", "zh": "“一个词元约等于 ¾ 个单词”，实测"},
    "tokens.rule_explain": {
        "en": "OpenAI's help article *What are tokens and how to count them?* gives a rule of thumb for English "
        "text and OpenAI's tokenizers: 1 token ≈ 4 characters ≈ ¾ of a word (100 tokens ≈ 75 words). Below it "
        "is measured, not assumed: words per token on English text, where a **word** is a whitespace-separated "
        "piece containing at least one letter or digit (“.” alone is not a word) and characters include "
        "spaces. Two English texts: held-out sentences of the toy language the shipped tokenizer was trained "
        "on, and the app's own English lesson text, which it never saw.",
        "zh": "OpenAI 的帮助文章 *What are tokens and how to count them?* 给出一条针对英文文本和 OpenAI 分词器的经验法则："
        "1 个词元 ≈ 4 个字符 ≈ ¾ 个单词（100 个词元 ≈ 75 个单词）。下面是实测而不是假定：英文文本上每个词元的单词数，"
        "其中**单词**是以空白分隔、至少含一个字母或数字的片段（单独的“.”不算单词），字符数包括空格。两段英文文本："
        "自带分词器训练所用玩具语言的留出句子，以及它从未见过的本应用英文课程文本。",
    },
    "tokens.col_toy_wpt": {"en": "toy English: words / token", "zh": "玩具英文：单词/词元"},
    "tokens.col_app_wpt": {"en": "app's English: words / token", "zh": "应用英文：单词/词元"},
    "tokens.col_app_cpt": {"en": "app's English: characters / token", "zh": "应用英文：字符/词元"},
    "tokens.rule_chart": {
        "en": "Words per token (app's English) vs the ¾ rule",
        "zh": "每个词元的单词数（应用英文）与 ¾ 法则",
    },
    "tokens.y_wpt": {"en": "words per token", "zh": "每个词元的单词数"},
    "tokens.rule_line": {"en": "rule of thumb: 0.75", "zh": "经验法则：0.75"},
    "tokens.rule_result": {
        "en": "On the app's English text the shipped toy tokenizer gives **{bpe:.2f}** words per token: it was "
        "trained on the toy language and {common} common English words, so other words fall apart into "
        "shorter pieces.{others} The rule "
        "describes a tokenizer trained on a large English corpus, not every tokenizer.",
        "zh": "在应用的英文文本上，自带的玩具分词器每个词元只有 **{bpe:.2f}** 个单词：它只在玩具语言和 {common} 个常用英文单词上训练过，"
        "其他单词会被切成更短的片段。{others}这条法则描述的是在大规模英文语料上训练的分词器，并不适用于所有分词器。",
    },
    "tokens.rule_other": {"en": " {name}: **{value:.2f}**.", "zh": "{name}：**{value:.2f}**。"},
    "tokens.sources": {
        "en": "Sources: Sennrich, Haddow & Birch 2016, *Neural Machine Translation of Rare Words with Subword "
        "Units* (BPE); Radford et al. 2019, *Language Models are Unsupervised Multitask Learners* (byte-level "
        "BPE, GPT-2); Wu et al. 2016, *Google's Neural Machine Translation System* and Devlin et al. 2019, "
        "*BERT* (WordPiece); OpenAI Help Center, *What are tokens and how to count them?* (the ¾ rule).",
        "zh": "出处：Sennrich、Haddow 与 Birch 2016，*Neural Machine Translation of Rare Words with Subword Units*（BPE）；"
        "Radford 等 2019，*Language Models are Unsupervised Multitask Learners*（字节级 BPE，GPT-2）；Wu 等 2016，"
        "*Google's Neural Machine Translation System* 与 Devlin 等 2019，*BERT*（WordPiece）；OpenAI 帮助中心，"
        "*What are tokens and how to count them?*（¾ 法则）。",
    },
}
