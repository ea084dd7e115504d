"""Strings of the pretraining-objectives page (lessons/objectives.py and its sections)."""

STRINGS: dict[str, dict[str, str]] = {
    "objectives.always_toy": {
        "en": "This page cuts the prompt with the toy models' tokenizer and runs the shipped small ELECTRA pair, "
        "whatever model the sidebar shows (only a published ELECTRA discriminator replaces the pair).",
        "zh": "无论侧边栏选了哪个模型，本页都用玩具模型的分词器切分输入，并运行随应用提供的小型 ELECTRA 生成器与判别器"
        "（只有选中已发布的 ELECTRA 判别器时，才由它代替这一对模型）。",
    },
    "objectives.intro": {
        "en": "Six ways to turn raw text into a training signal, on **your prompt**. For each: what the model sees, "
        "and which tokens carry a loss, the tokens it learns from. The seed decides every random choice; the "
        "same seed gives the same draws (it is in the URL).",
        "zh": "把原始文本变成训练信号的六种方式，都作用在**你的输入**上。每一种都展示：模型看到什么，以及哪些词元带有损失，"
        "也就是模型从哪些词元中学习。随机种子决定所有随机选择；同一个种子给出同样的结果（它写在网址里）。",
    },
    "objectives.seed": {"en": "Seed", "zh": "随机种子"},
    "objectives.seed_help": {
        "en": "Which tokens are masked, which spans are dropped, what the generator samples. Change it to draw again.",
        "zh": "决定哪些词元被掩码、哪些片段被去掉、生成器采样出什么。换一个种子就重新抽一次。",
    },
    "objectives.no_tokens": {
        "en": "The prompt has no tokens besides the special ones. Type a sentence.",
        "zh": "输入中除了特殊词元没有别的词元。请输入一个句子。",
    },
    # ------------------------------------------------------------ BERT
    "objectives.mlm_title": {"en": "BERT: masked language model", "zh": "BERT：掩码语言模型"},
    "objectives.mlm_explain": {
        "en": "BERT's paper (Devlin et al. 2019, §3.1) masks 15% of the WordPiece tokens. The exact rule is in "
        "BERT's data script, `create_pretraining_data.py`: max(1, round(0.15 × the sequence's length)) tokens, "
        "where the length counts [CLS] and [SEP] but they are never picked, and at most max_predictions_per_seq "
        "(its defaults: 20 for its sequences of max_seq_length = 128; this page applies no cap): here **{k} of the "
        "{n} text tokens ({share})**, [CLS] and [SEP] not among the {n}. Of the picked tokens, 80% become [MASK], 10% a random "
        "token and 10% stay. Colours: {legend}. Only the picked tokens carry a loss; the other 85% are context.",
        "zh": "BERT 的论文（Devlin 等 2019，§3.1）遮盖 15% 的 WordPiece 词元。确切的规则在 BERT 的数据脚本 "
        "`create_pretraining_data.py` 里：选出 max(1, round(0.15 × 序列长度)) 个词元，序列长度计入 [CLS] 和 [SEP]，"
        "但它们从不被选，且最多 max_predictions_per_seq 个（脚本默认：max_seq_length = 128 的序列最多 20 个；"
        "本页不加这一上限）：这里是 **{n} 个文本词元中的 {k} 个（{share}）**，这 {n} 个不含 [CLS] 和 [SEP]。"
        "被选中的词元中 80% 换成 [MASK]，10% 换成随机词元，10% 保持不变。颜色：{legend}。"
        "只有被选中的词元带有损失；其余 85% 只是上下文。",
    },
    "objectives.mlm_link": {
        "en": "Masked tokens page: predictions, 80/10/10",
        "zh": "掩码预测页面：预测与 80/10/10 规则",
    },
    # ------------------------------------------------------------ RoBERTa
    "objectives.dynamic_title": {"en": "RoBERTa: dynamic masking", "zh": "RoBERTa：动态掩码"},
    "objectives.dynamic_explain": {
        "en": "BERT masked its data once, before training. RoBERTa (Liu et al. 2019, §4.1) draws a **new mask every "
        "time a sequence is fed** to the model, so over many epochs it learns from more positions. Under "
        "**Dynamic**: the same prompt in epochs 1 to 4 (BERT's recipe, drawn again each epoch from the seed).",
        "zh": "BERT 在训练前只给数据做一次掩码。RoBERTa（Liu 等 2019，§4.1）**每次把一个序列送进模型时都重新抽一个掩码**，"
        "因此在多个轮次（epoch）里它能从更多位置学习。**动态掩码**一栏：同一个输入在第 1 到第 4 轮的掩码（BERT 的规则，每轮由种子重新抽取）。",
    },
    "objectives.dynamic_head": {"en": "Dynamic (RoBERTa)", "zh": "动态掩码（RoBERTa）"},
    "objectives.static_head": {"en": "Static, 10 copies (the baseline)", "zh": "静态掩码，10 份副本（对照组）"},
    "objectives.dynamic_epoch": {"en": "epoch {e}: a fresh mask", "zh": "第 {e} 轮：新抽的掩码"},
    "objectives.static_epoch": {"en": "epoch {e}: copy {copy} of 10", "zh": "第 {e} 轮：10 份副本中的第 {copy} 份"},
    "objectives.coverage": {
        "en": "Over RoBERTa's {epochs} epochs: **{masks} different masks**; positions with a loss at least once: "
        "**{c} of {n}**.",
        "zh": "在 RoBERTa 的 {epochs} 个轮次中：**{masks} 种不同的掩码**；至少有一次带有损失的位置：**{n} 个中的 {c} 个**。",
    },
    "objectives.static_note": {
        "en": "The “10 copies” that some notes describe as RoBERTa's method is its **static baseline**: the data "
        "duplicated 10 times, each copy masked once, so over 40 epochs each mask is seen 4 times (epoch 11 repeats "
        "epoch 1). RoBERTa's Table 1 compares this baseline with dynamic masking and finds dynamic masking "
        "comparable or slightly better; RoBERTa uses dynamic masking.",
        "zh": "有些讲义把“复制 10 份”说成 RoBERTa 的方法，其实那是它的**静态掩码对照组**：数据复制 10 份，每份掩码一次，"
        "于是 40 个轮次里每种掩码出现 4 次（第 11 轮重复第 1 轮）。RoBERTa 的表 1 把这个对照组和动态掩码比较，"
        "动态掩码效果相当或略好；RoBERTa 采用的是动态掩码。",
    },
    # ------------------------------------------------------------ ELECTRA
    "objectives.electra_title": {"en": "ELECTRA: replaced-token detection", "zh": "ELECTRA：替换词元检测"},
    "objectives.electra_explain": {
        "en": "ELECTRA (Clark et al. 2020) trains two networks. A small **generator**, a masked language model, "
        "fills the masked positions with tokens it samples; the **discriminator** reads the result and says, for "
        "**every** token, whether it is original or replaced. The loss is L_gen + λ·L_disc with λ = {lam}. The "
        "generator is trained by **maximum likelihood**, like BERT, **not adversarially** as in a GAN, whatever some "
        "notes imply: no gradient flows from the discriminator into the generator, and the paper (§3.2) reports that "
        "adversarial training worked worse.",
        "zh": "ELECTRA（Clark 等 2020）训练两个网络。一个小的**生成器**（即掩码语言模型）用它采样的词元填入被掩码的位置；"
        "**判别器**读入结果，对**每一个**词元判断它是原词还是被替换的。损失为 L_gen + λ·L_disc，λ = {lam}。"
        "生成器用**最大似然**训练（和 BERT 一样），**而不是**像 GAN 那样**对抗训练**，尽管有些讲义暗示如此："
        "判别器的梯度不会传回生成器，论文（§3.2）也报告对抗训练效果更差。",
    },
    "objectives.electra_toy": {
        "en": "Below: a generator (1 layer, width 32) and a discriminator (2 layers, width 64) trained here on the toy "
        "corpus, run live on your prompt.",
        "zh": "下面是在玩具语料上训练好的生成器（1 层，宽 32）和判别器（2 层，宽 64），在你的输入上实时运行。",
    },
    "objectives.detector_intro": {
        "en": "The sidebar shows a published ELECTRA discriminator, {name}: this section runs it instead of the shipped "
        "pair. Its checkpoint has no generator, so **you** are the generator: pick words of your prompt and type the "
        "word that replaces them.",
        "zh": "侧边栏选中的是一个已发布的 ELECTRA 判别器 {name}：本节改为运行它，而不是随应用提供的那一对模型。"
        "它的检查点不带生成器，所以由**你**来充当生成器：在你的输入中选出要替换的词，再输入替换它们的词。",
    },
    "objectives.detector_pick": {"en": "Words to replace", "zh": "要替换的词"},
    "objectives.detector_with": {"en": "Replace them with", "zh": "替换为"},
    "objectives.detector_reads": {
        "en": "The discriminator reads: {text}",
        "zh": "判别器读到的句子：{text}",
    },
    "objectives.detector_bars_title": {
        "en": "The discriminator's P(replaced) per token; red: you replaced it",
        "zh": "判别器给每个词元的 P（被替换）；红色：你替换过的词元",
    },
    "objectives.detector_readout": {
        "en": "Each bar is the discriminator's probability that this token is **not** the original one: the sigmoid of "
        "the one logit its head gives every token (Clark et al. 2020, §2). It never sees your original sentence. "
        "At threshold 0.5 it flags {flagged} tokens and labels **{right} of {n}** correctly ({r} really replaced); "
        "answering “all original” would get {baseline}.",
        "zh": "每根柱子是判别器认为该词元**不是**原词的概率：它的输出头给每个词元一个 logit，再取 sigmoid"
        "（Clark 等 2020，§2）。它从未见过你的原句。以 0.5 为阈值，它标出了 {flagged} 个词元，"
        "在 **{n} 个**词元中判对 **{right} 个**（其中 {r} 个确实被替换）；全部回答“原词”能判对 {baseline} 个。",
    },
    "objectives.detector_caption": {
        "en": "A replacement equal to the original word counts as original, as in the paper. Specials ([CLS], [SEP]) "
        "are never replaced. A tiny random checkpoint gives probabilities that mean nothing; "
        "google/electra-small-discriminator (Add a model…) is the published one.",
        "zh": "替换成与原词相同的词仍算作原词（与论文一致）。特殊词元（[CLS]、[SEP]）从不被替换。"
        "随机初始化的小模型给出的概率没有意义；google/electra-small-discriminator（侧边栏“添加模型……”）才是真正发布的判别器。",
    },
    "objectives.electra_missing": {
        "en": "The ELECTRA weights cannot be used: {error}",
        "zh": "无法使用 ELECTRA 的权重：{error}",
    },
    "objectives.electra_masked": {
        "en": "First, the positions the seed masks (red)",
        "zh": "第一步：种子选中要掩码的位置（红色）",
    },
    "objectives.electra_corrupted": {
        "en": "Then what the discriminator reads: the generator's samples (orange = really replaced)",
        "zh": "第二步：判别器读到的内容：生成器的采样结果（橙色 = 确实被替换）",
    },
    "objectives.electra_counts": {
        "en": "{m} positions masked; the generator's samples: {gen}. **{r} replaced**, {same} sampled the original "
        "token back, which counts as **original** (as in the paper, §2). The generator's loss covers the {m} masked "
        "tokens; the discriminator's covers **all {n} tokens (100%)**.",
        "zh": "掩码了 {m} 个位置；生成器的采样：{gen}。**{r} 个被替换**，{same} 个恰好采样回原词，按论文（§2）的做法算作**原词**。"
        "生成器的损失只覆盖这 {m} 个被掩码的词元；判别器的损失覆盖**全部 {n} 个词元（100%）**。",
    },
    "objectives.electra_x": {"en": "token the discriminator reads", "zh": "判别器读到的词元"},
    "objectives.electra_y": {"en": "P(replaced)", "zh": "P（被替换）"},
    "objectives.electra_bars_title": {
        "en": "The discriminator's P(replaced); red: it was",
        "zh": "判别器的 P（被替换）；红色：确实被替换",
    },
    "objectives.electra_readout": {
        "en": "On this prompt the discriminator (threshold 0.5) labels **{right} of {n}** text tokens correctly; "
        "answering “all original” would get {baseline}. On held-out corrupted text ({tokens} tokens, sentences it "
        "never saw), it reached AUC **{auc}** and accuracy **{acc}** against **{acc0}** for “all original”, finding "
        "{recall} of the replaced tokens, after {steps} training steps.",
        "zh": "在这个输入上，判别器（阈值 0.5）正确标注了 **{n} 个**文本词元中的 **{right} 个**；全部回答“原词”能得 {baseline} 个。"
        "在留出的破坏文本上（{tokens} 个词元，都是它没见过的句子），它的 AUC 为 **{auc}**，准确率 **{acc}**，"
        "而“全部是原词”的准确率是 **{acc0}**；它找出了 {recall} 的被替换词元。训练步数：{steps}。",
    },
    "objectives.electra_caption": {
        "en": "Trained with `python -m models.electra` (about 0.6 MB in models/weights/electra.pt). A replacement that "
        "fits its context (a name for a name) is the hard case for the discriminator, and a generator that is too "
        "strong makes the task too hard: the paper's generator is 1/4 to 1/2 the discriminator's size for that reason (§3.2).",
        "zh": "用 `python -m models.electra` 训练（models/weights/electra.pt，约 0.6 MB）。符合上下文的替换"
        "（名字换成名字）是判别器最难识别的情况；生成器太强会让任务过难：论文因此让生成器只有判别器的 1/4 到 1/2 大小（§3.2）。",
    },
    # ------------------------------------------------------------ T5
    "objectives.t5_title": {"en": "T5: span corruption", "zh": "T5：片段破坏"},
    "objectives.t5_explain": {
        "en": "T5 (Raffel et al. 2020, §3.3) drops 15% of the tokens in **spans** of mean length 3 and replaces each "
        "span by one **sentinel** (`<X>`, `<Y>`, … in the paper's Figure 2; T5's vocabulary calls them "
        "`<extra_id_0>`, …). The target is each sentinel followed by the tokens it hid, and a final sentinel. Spans "
        "are drawn as T5's `random_spans_noise_mask` does: round(0.15 · n) noise tokens in round(noise / 3) spans, "
        "their lengths a random partition.",
        "zh": "T5（Raffel 等 2020，§3.3）以平均长度为 3 的**片段**去掉 15% 的词元，每个片段换成一个**哨兵词元**"
        "（论文图 2 中的 `<X>`、`<Y>`……；T5 的词表里叫 `<extra_id_0>`……）。目标序列是每个哨兵后面跟着它遮住的词元，"
        "最后再加一个哨兵。片段按 T5 的 `random_spans_noise_mask` 抽取：round(0.15 · n) 个噪声词元，分成 round(噪声数 / 3) 个片段，"
        "长度是一次随机划分。",
    },
    "objectives.t5_input": {"en": "Input to the encoder (sentinels red)", "zh": "编码器的输入（哨兵为红色）"},
    "objectives.t5_target": {
        "en": "Target of the decoder (green: tokens with a loss)",
        "zh": "解码器的目标（绿色：带损失的词元）",
    },
    "objectives.t5_counts": {
        "en": "**{k} of {n} tokens dropped ({share})**; spans: {spans}, of lengths {lengths} (mean {mean}). The input "
        "shrinks to {inp} tokens and the target has {out}: the decoder predicts only the dropped tokens and their "
        "sentinels, a short target. That is not why T5 chose it: spans of mean length 3 did “slightly (but "
        "significantly)” better than corrupting i.i.d. tokens on most tasks, and the shorter targets were an "
        "added benefit, faster training (§3.3.4, §3.7).",
        "zh": "**{n} 个词元中去掉了 {k} 个（{share}）**，分成 {spans} 个片段，长度为 {lengths}（平均 {mean}）。输入缩短为 {inp} 个词元，"
        "目标有 {out} 个：解码器只预测被去掉的词元和它们的哨兵，目标很短。但这并不是 T5 选择它的原因：平均长度为 3 的片段"
        "在大多数任务上比逐个独立地（i.i.d.）破坏词元“略好（但显著）”，更短的目标只是额外的好处，让训练更快（§3.3.4、§3.7）。",
    },
    # ------------------------------------------------------------ NSP vs SOP
    "objectives.pairs_title": {
        "en": "BERT's next-sentence prediction vs ALBERT's sentence-order prediction",
        "zh": "BERT 的下一句预测与 ALBERT 的句子顺序预测",
    },
    "objectives.pairs_explain": {
        "en": "Both read two segments A and B and predict one label for the pair. **Next-sentence prediction** "
        "(NSP, BERT): half the time B follows A, half the time B is a random segment **from another document**. "
        "**Sentence-order prediction** (SOP, ALBERT, Lan et al. 2020, §3.1): B always follows A, and the negative is "
        "**the same two segments swapped**.",
        "zh": "两者都读入两段文本 A 和 B，为这一对预测一个标签。**下一句预测**（NSP，BERT）：一半时候 B 紧跟在 A 后面，"
        "另一半时候 B 是**来自另一篇文档**的随机片段。**句子顺序预测**（SOP，ALBERT，Lan 等 2020，§3.1）："
        "B 总是紧跟 A，负例是**同样两段交换顺序**。",
    },
    "objectives.pairs_from.sentences": {
        "en": "A and B: the first two sentences of your prompt; the other document: a sentence of the toy corpus.",
        "zh": "A 和 B：你输入的前两句；另一篇文档：玩具语料中的一句。",
    },
    "objectives.pairs_from.halves": {
        "en": "Your prompt has one sentence, so A and B are its two halves (BERT's segments are spans of text, not "
        "always sentences); the other document: a sentence of the toy corpus.",
        "zh": "你的输入只有一句，所以 A 和 B 是它的前后两半（BERT 的片段是连续文本，不一定是完整句子）；另一篇文档：玩具语料中的一句。",
    },
    "objectives.pairs_from.corpus": {
        "en": "Your prompt is too short to split, so A and B are two sentences of the toy corpus.",
        "zh": "你的输入太短，无法切分，所以 A 和 B 取自玩具语料中的两句。",
    },
    "objectives.nsp": {"en": "NSP (BERT)", "zh": "下一句预测（BERT）"},
    "objectives.sop": {"en": "SOP (ALBERT)", "zh": "句子顺序预测（ALBERT）"},
    "objectives.is_next": {"en": "IsNext (positive)", "zh": "IsNext（正例）"},
    "objectives.not_next": {"en": "NotNext (negative: another document)", "zh": "NotNext（负例：另一篇文档）"},
    "objectives.in_order": {"en": "in order (positive)", "zh": "顺序正确（正例）"},
    "objectives.swapped": {"en": "swapped (negative)", "zh": "顺序颠倒（负例）"},
    "objectives.col_task": {"en": "task", "zh": "任务"},
    "objectives.col_a": {"en": "segment A", "zh": "片段 A"},
    "objectives.col_b": {"en": "segment B", "zh": "片段 B"},
    "objectives.col_label": {"en": "label", "zh": "标签"},
    "objectives.pairs_why": {
        "en": "Why ALBERT changed it: an NSP negative usually changes the **topic**, so the model can answer from "
        "topic alone, which the MLM loss already teaches; NSP barely learns **coherence** (RoBERTa, §4.2, found "
        "that dropping NSP did not hurt). An SOP negative has the same topic on both sides, so only the order of "
        "the ideas gives it away. ALBERT reports that SOP solves NSP reasonably well, while NSP does not solve SOP.",
        "zh": "ALBERT 为什么要改：NSP 的负例通常换了**主题**，模型只凭主题就能答对，而主题信息掩码语言模型已经学到了；"
        "NSP 几乎学不到**连贯性**（RoBERTa §4.2 发现去掉 NSP 并没有变差）。SOP 的负例两边主题相同，只有观点的先后顺序能露馅。"
        "ALBERT 报告：用 SOP 训练的模型能较好地完成 NSP，反过来用 NSP 训练的模型却做不了 SOP。",
    },
    # ------------------------------------------------------------ causal LM
    "objectives.causal_title": {"en": "GPT: causal language model", "zh": "GPT：因果语言模型"},
    "objectives.causal_explain": {
        "en": "A decoder (GPT, Radford et al. 2018) reads [BOS] and your {n} tokens; **every position predicts the "
        "next token**, behind a causal mask. {n} of the {positions} input positions have a target (green); the last "
        "has none, as nothing follows it. All {n} text tokens are predicted: **100%**.",
        "zh": "解码器（GPT，Radford 等 2018）读入 [BOS] 和你的 {n} 个词元；在因果掩码下，**每个位置都预测下一个词元**。"
        "{positions} 个输入位置中有 {n} 个有目标（绿色）；最后一个没有，因为它后面没有词元。全部 {n} 个文本词元都被预测：**100%**。",
    },
    # ------------------------------------------------------------ summary
    "objectives.summary_title": {"en": "Side by side", "zh": "并排比较"},
    "objectives.sum_objective": {"en": "objective", "zh": "目标"},
    "objectives.sum_input": {"en": "what the model sees", "zh": "模型看到什么"},
    "objectives.sum_where": {"en": "positions with a loss", "zh": "带损失的位置"},
    "objectives.sum_here": {"en": "tokens with a loss, this prompt", "zh": "带损失的词元（本输入）"},
    "objectives.sum_mean": {"en": "mean over seeds", "zh": "多个种子的平均"},
    "objectives.sum_source": {"en": "source", "zh": "出处"},
    "objectives.obj.mlm": {"en": "masked LM (BERT)", "zh": "掩码语言模型（BERT）"},
    "objectives.obj.mlm_app": {
        "en": "masked LM, this app's training (p = 0.15 each)",
        "zh": "掩码语言模型，本应用的训练（每个词元 p = 0.15）",
    },
    "objectives.input.mlm_app": {"en": "as BERT, a random count", "zh": "同 BERT，数量随机"},
    "objectives.where.mlm_app": {"en": "the picked tokens", "zh": "被选中的词元"},
    "objectives.obj.dynamic": {"en": "dynamic masking (RoBERTa)", "zh": "动态掩码（RoBERTa）"},
    "objectives.obj.electra_disc": {"en": "replaced-token detection: discriminator", "zh": "替换词元检测：判别器"},
    "objectives.obj.electra_gen": {"en": "replaced-token detection: generator", "zh": "替换词元检测：生成器"},
    "objectives.obj.t5": {"en": "span corruption (T5)", "zh": "片段破坏（T5）"},
    "objectives.obj.nsp_sop": {"en": "NSP (BERT) / SOP (ALBERT)", "zh": "下一句预测（BERT）/ 句子顺序预测（ALBERT）"},
    "objectives.obj.causal": {"en": "causal LM (GPT)", "zh": "因果语言模型（GPT）"},
    "objectives.input.mlm": {"en": "[MASK], random or kept tokens at 15%", "zh": "15% 位置为 [MASK]、随机词或原词"},
    "objectives.input.dynamic": {"en": "as BERT, a new mask every epoch", "zh": "同 BERT，每轮换新掩码"},
    "objectives.input.electra_disc": {"en": "generator's samples at 15%", "zh": "15% 位置为生成器的采样"},
    "objectives.input.electra_gen": {"en": "[MASK] at 15%", "zh": "15% 位置为 [MASK]"},
    "objectives.input.t5": {"en": "spans → sentinels", "zh": "片段换成哨兵词元"},
    "objectives.input.nsp_sop": {"en": "[CLS] A [SEP] B [SEP]", "zh": "[CLS] A [SEP] B [SEP]"},
    "objectives.input.causal": {"en": "the text, causal mask", "zh": "原文，因果掩码"},
    "objectives.where.mlm": {"en": "the picked tokens", "zh": "被选中的词元"},
    "objectives.where.dynamic": {"en": "the picked tokens", "zh": "被选中的词元"},
    "objectives.where.electra_disc": {"en": "every token", "zh": "每个词元"},
    "objectives.where.electra_gen": {"en": "the masked tokens", "zh": "被掩码的词元"},
    "objectives.where.t5": {"en": "the dropped tokens (+ sentinels)", "zh": "被去掉的词元（及哨兵）"},
    "objectives.where.nsp_sop": {"en": "one label per pair ([CLS])", "zh": "每对一个标签（[CLS]）"},
    "objectives.where.causal": {"en": "every position but the last", "zh": "除最后一个外的每个位置"},
    "objectives.summary_caption": {
        "en": "Shares are of the prompt's text tokens ([CLS], [SEP], [BOS] not counted), for the seed above and "
        "averaged over seeds 0–{seeds_last}. NSP/SOP adds one label per pair beside BERT's or ALBERT's MLM loss, so "
        "it has no token with a loss of its own. The counts of BERT, ELECTRA and T5 depend only on "
        "the length (about 15% of it), the seed moves where they fall; this app's own MLM training picks each token "
        "with probability 0.15, so its count varies with the seed and only its mean is 15%.",
        "zh": "比例按输入的文本词元计算（不含 [CLS]、[SEP]、[BOS]），分别是上面的种子和种子 0–{seeds_last} 的平均。"
        "NSP/SOP 在 BERT 或 ALBERT 的掩码语言模型损失之外为每对加一个标签，自身没有带损失的词元。"
        "BERT、ELECTRA 和 T5 的数量只取决于长度（约为长度的 15%），种子改变的是它们落在哪里；本应用自己的掩码语言模型训练以 0.15 的概率"
        "选择每个词元，所以数量随种子变化，只有平均值是 15%。",
    },
}
