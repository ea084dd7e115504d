"""Strings of the home page: the introduction and one line per lesson."""

STRINGS: dict[str, dict[str, str]] = {
    "home.title": {"en": "Attention Lab", "zh": "注意力实验室"},
    "home.intro": {
        "en": "Attention Lab runs Transformers on its server and shows what happens inside them: type a prompt "
        "and see, layer by layer and head by head, where each token looks. Three small models — encoder-only, "
        "decoder-only and encoder-decoder — were trained by this project on a small bilingual toy language it "
        "generates, so the patterns you see were learned, not drawn. Beside them, MiniLM-L6 is a real "
        "pretrained English encoder (all-MiniLM-L6-v2), and published models can be added (below). Every number "
        "on screen is computed from the model as you type.",
        "zh": "注意力实验室在服务器上运行 Transformer，并展示其内部发生了什么：输入一段文本，逐层、逐头查看每个词元关注哪里。"
        "三个小模型——仅编码器、仅解码器、编码器-解码器——由本项目在其自行生成的小型双语玩具语言上训练，"
        "所以你看到的模式是学出来的，不是画出来的。旁边还有 MiniLM-L6：一个真实的预训练英文编码器（all-MiniLM-L6-v2）；"
        "也可以加入已发布的模型（见下文）。屏幕上的每个数字都在你输入时由模型实时计算。",
    },
    "home.real_models": {
        "en": "**Real models.** The sidebar's **{add}** downloads a published model by its Hugging Face name (for "
        "example Qwen/Qwen3-0.6B) into the Hugging Face cache, after checking its size; on the server, "
        "`python -m models.fetch org/name` does the same. Models already in the Hugging Face cache are listed in "
        "the sidebar's **{model}** picker beside the toy models. In a browser on another machine (a student's), "
        "the panel does not download: the teacher runs the command on the server instead.",
        "zh": "**真实模型。** 侧边栏的 **{add}** 按 Hugging Face 上的名称（例如 Qwen/Qwen3-0.6B）下载已发布的模型，"
        "先检查大小，再存入 Hugging Face 缓存；在服务器上运行 `python -m models.fetch org/name` 效果相同。"
        "Hugging Face 缓存中已有的模型会列在侧边栏的 **{model}** 选择框里，与玩具模型并列。在其他机器（例如学生的电脑）"
        "的浏览器里，这个面板不会下载：请教师在服务器上运行上面的命令。",
    },
    "home.explorer": {
        "en": "Attention heatmaps per layer and head, all heads at once, and BertViz-style lines.",
        "zh": "逐层、逐头的注意力热图，所有头的总览，以及 BertViz 风格的连线图。",
    },
    "home.masks": {
        "en": "Causal, bidirectional, prefix-LM and padding masks beside the attention they produce.",
        "zh": "因果、双向、前缀语言模型与填充掩码，及其产生的注意力。",
    },
    "home.models": {
        "en": "The toy models: `make weights` retrains the tokenizer and all of them (about 15 minutes on two CPU cores, as the README says).",
        "zh": "玩具模型：运行 `make weights` 可重新训练分词器和全部模型（两个 CPU 核心上约 15 分钟，与 README 一致）。",
    },
    "home.rank": {
        "en": "Is a causal attention matrix always full rank, and do bidirectional ones "
        "drift towards low rank? Exact, numerical and effective rank, measured live.",
        "zh": "因果注意力矩阵一定满秩吗？双向注意力矩阵会趋向低秩吗？现场计算精确秩、数值秩和有效秩。",
    },
    "home.positional": {
        "en": "Sinusoidal waves, the shift-as-rotation property, RoPE, learned tables, "
        "and what attention sees with no positions at all.",
        "zh": "正弦波、平移即旋转的性质、RoPE、可学习的位置表，以及完全没有位置信息时注意力看到的是什么。",
    },
    "home.softmax": {
        "en": "Why scores are divided by √d_k, what the scale does to one row and to a trained "
        "model, and why q·k is not a cosine similarity.",
        "zh": "为什么打分要除以 √d_k，缩放对一行权重和对已训练模型有什么影响，以及为什么 q·k 不是余弦相似度。",
    },
    "home.generate": {
        "en": "A decoder-only model continues your prompt one token at a time: the distribution "
        "it samples from, the new token's attention, and the KV cache growing.",
        "zh": "仅解码器模型逐个词元地续写你的输入：它采样所依据的分布、新词元的注意力，以及不断增长的 KV 缓存。",
    },
    "home.translate": {
        "en": "The encoder-decoder maps one sequence to another. Watch cross-attention fill in as it "
        "writes a number in English words, then type your own target and see where the model disagrees.",
        "zh": "编码器-解码器把一个序列映射成另一个序列。看它把数字写成英文单词时交叉注意力如何逐行填满，"
        "再输入你自己的目标，看看模型在哪里不同意。",
    },
    "home.mlm": {
        "en": "The encoder fills in a blank from both sides; BERT's 15% / 80-10-10 masking "
        "recipe run live; and the same blank through a decoder that sees only the left.",
        "zh": "编码器根据两侧上下文填空；现场运行 BERT 的 15% / 80-10-10 掩码方案；"
        "再用只能看到左侧的解码器做同一个填空。",
    },
    "home.similarity": {
        "en": "A real pretrained encoder (all-MiniLM-L6-v2) turns sentences into "
        "vectors: mean pooling against [CLS], as a cosine matrix.",
        "zh": "真实的预训练编码器（all-MiniLM-L6-v2）把句子变成向量：平均池化与 [CLS] 对比，以余弦矩阵呈现。",
    },
    "home.lab": {
        "en": "Build two Transformers side by side from every option (pre/post-norm, LayerNorm/RMSNorm, "
        "ReLU/GELU/SwiGLU, MHA/GQA/MQA, positional encoding, attention scale), compare their attention and "
        "parameters, train either one here in about half a minute, and read its module tree.",
        "zh": "用各种选项（前置归一化/后置归一化、LayerNorm/RMSNorm、ReLU/GELU/SwiGLU、MHA/GQA/MQA、位置编码、注意力缩放）"
        "并排搭建两个 Transformer，比较它们的注意力和参数，在这里用半分钟左右训练其中任意一个，并查看它的模块树。",
    },
    "home.guides": {
        "en": "Ready-made lessons for a class: each step opens a page in a preset state, with a paragraph to read. "
        "Most steps ask you to predict the result first, then say whether you were right and why; some set a "
        "goal that the page checks live while you work, with hints when you are stuck. A teacher can start a "
        "class that students join with a short code, and write new lessons as TOML files.",
        "zh": "为课堂准备好的课程：每一步都会打开一个预设好状态的页面，并附上一段讲解。大多数步骤先请你预测结果，"
        "再告诉你是否答对以及原因；有些步骤设定一个目标，页面在你操作时实时检查，卡住时可以查看提示。"
        "教师可以开启课堂，学生用简短的课堂码加入；也可以用 TOML 文件编写新的课程。",
    },
    "home.scaling": {
        "en": "BERT, GPT-1/2, Llama-3.1-8B and Qwen2.5-7B counted from their published hyper-parameters; what GQA "
        "saves in the KV cache; ALBERT's factorised embedding; Kaplan's and Chinchilla's scaling laws.",
        "zh": "由公开的超参数算出 BERT、GPT-1/2、Llama-3.1-8B 和 Qwen2.5-7B 的参数量；GQA 在 KV 缓存上省下多少；"
        "ALBERT 的分解式嵌入；Kaplan 与 Chinchilla 的缩放定律。",
    },
    "home.lens": {
        "en": "Read every layer of a decoder through its output head (the logit lens), and switch attention heads "
        "off to see the next-token distribution, the loss and the model's copying change.",
        "zh": "通过输出头读出解码器的每一层（logit lens），再关掉注意力头，看下一个词元的分布、损失和模型的复制能力如何变化。",
    },
    "home.circuits": {
        "en": "Why a head attends where it does: one score split into the parts of the stream that made it; "
        "composition scores between heads from the weights (the previous-token head feeding the induction head), "
        "path patching from one head into another's q, k or v, and a head's OV and QK circuits in tokens.",
        "zh": "一个头为什么看向那里：把一个分数拆成构成它的残差流各部分；由权重算出头与头之间的组合分数（前一个词元头喂给"
        "归纳头），从一个头到另一个头的 q、k 或 v 的路径修补，以及一个头以词元表示的 OV 电路与 QK 电路。",
    },
    "home.patch": {
        "en": "Activation patching on your own prompt: put one head's output from a clean run into a corrupted one "
        "and see how much of the answer returns; beside it each head's direct effect, the residual stream by "
        "position, the gradient estimate against the exact map, and eight prompt pairs with 95% intervals.",
        "zh": "在你自己的提示上做激活修补：把一个头在干净运行中的输出放进损坏运行，看答案恢复了多少；旁边是每个头的直接作用、"
        "按位置的残差流、梯度估计与精确结果的对比，以及八对提示的 95% 区间。",
    },
    "home.heads": {
        "en": "A field guide to heads: every head scored as previous-token, induction, duplicate-token, first-token "
        "or diffuse, with thresholds and sources; and one head's queries and keys as a map (AttentionViz).",
        "zh": "注意力头图鉴：给每个头按前一个词元、归纳、重复词元、首词元、弥散打分，附阈值与出处；"
        "再把一个头的查询和键画成分布图（AttentionViz）。",
    },
    "home.block": {
        "en": "One padded batch normalised by BatchNorm, LayerNorm and RMSNorm; pre- vs post-norm gradients at "
        "initialisation (why post-norm needs warm-up); additive vs scaled dot-product attention on the same q, k.",
        "zh": "同一个填充批次分别用 BatchNorm、LayerNorm、RMSNorm 归一化；pre-norm 与 post-norm 在初始化时的梯度"
        "（post-norm 为什么需要预热）；同一组 q、k 上的加性注意力与缩放点积注意力。",
    },
    "home.tokens": {
        "en": "Byte-pair encoding replayed merge by merge on your prompt; vocabulary size against sequence length; "
        "English vs Chinese tokens per character; the “¾ word per token” rule measured.",
        "zh": "在你的输入上逐条重放字节对编码（BPE）的合并；词表大小与序列长度；英文与中文每个字符的词元数；实测“一个词元约 ¾ 个单词”。",
    },
    "home.posttrain": {
        "en": "Fine-tune the toy decoder on a few demonstrations (SFT), then on comparisons (DPO, β = 0.1, a frozen "
        "SFT model as reference): log-probabilities of chosen vs rejected answers on held-out pairs, before and after; "
        "where RLHF's reward model and PPO sit.",
        "zh": "在少量示范上微调玩具解码器（监督微调 SFT），再在比较数据上训练（DPO，β = 0.1，以冻结的 SFT 模型为参考模型）："
        "留出数据上选中与拒绝答案的对数概率在训练前后的变化；以及 RLHF 的奖励模型和 PPO 处在哪一步。",
    },
    "home.objectives": {
        "en": "BERT's masked LM, RoBERTa's dynamic masking, ELECTRA's replaced-token detection (a small generator and "
        "discriminator, live), T5's span corruption, NSP vs SOP and the causal LM on your prompt: what each model "
        "sees and which tokens carry a loss.",
        "zh": "在你的输入上对比 BERT 的掩码语言模型、RoBERTa 的动态掩码、ELECTRA 的替换词元检测（小型生成器与判别器实时运行）、"
        "T5 的片段破坏、下一句预测与句子顺序预测以及因果语言模型：每种模型看到什么，哪些词元带有损失。",
    },
}
