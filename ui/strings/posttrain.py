"""Strings of the post-training lesson (SFT and DPO on the toy decoder)."""

STRINGS: dict[str, dict[str, str]] = {
    "posttrain.intro": {
        "en": "After pretraining, chat models are **post-trained**: first supervised fine-tuning (**SFT**) on "
        "demonstrations, then learning from comparisons between two answers (**RLHF** or **DPO**). Here both run on "
        "the toy decoder, in a few seconds, and every number below is measured on **held-out** prompts that no step "
        "trained on.",
        "zh": "预训练之后，对话模型还要经过**后训练**：先在示范答案上做监督微调（**SFT**），再从两个回答之间的比较中学习"
        "（基于人类反馈的强化学习 **RLHF**，或直接偏好优化 **DPO**）。这里两步都在玩具解码器上运行，只需几秒钟；下面的每个数字"
        "都是在任何一步都没有训练过的**留出**提示上测得的。",
    },
    "posttrain.honest": {
        "en": "What the toy learns is a pattern in a tiny made-up language, not to follow instructions: after a story "
        "such as `alice gave bob a book .` and `Q: who gave the book ? A:` (or `who got`), the answer is one of the "
        "story's two names. The shipped decoder never saw the `Q: … A:` format, so it cannot answer before SFT.",
        "zh": "玩具模型学到的是一种极小的人造语言里的规律，而不是听从指令：在 `alice gave bob a book .` 这样的小故事和 "
        "`Q: who gave the book ? A:`（或 `who got`）之后，答案是故事里两个名字之一。随附的解码器从未见过 `Q: … A:` "
        "这种格式，所以监督微调之前它答不出来。",
    },
    "posttrain.data_title": {"en": "The data", "zh": "数据"},
    "posttrain.data_explain": {
        "en": "{n_sft} demonstrations for SFT (prompt → correct answer), {n_dpo} comparisons for DPO (prompt, "
        "**chosen** = the correct name, **rejected** = the story's other name) and {n_held} held-out comparisons. "
        "The three sets share no story (giver, receiver, thing). Demonstrations are the scarce kind, as in "
        "InstructGPT (about 13k SFT prompts beside 33k comparison prompts).",
        "zh": "{n_sft} 条示范用于监督微调（提示 → 正确答案），{n_dpo} 条比较用于 DPO（提示、**选中**＝正确的名字、"
        "**拒绝**＝故事里的另一个名字），另有 {n_held} 条留出比较。三组数据没有共同的故事（给予者、接受者、物品）。"
        "与 InstructGPT 一样，示范是较稀缺的一类（约 1.3 万条 SFT 提示，对比约 3.3 万条比较提示）。",
    },
    "posttrain.col_set": {"en": "set", "zh": "数据集"},
    "posttrain.col_prompt": {"en": "prompt", "zh": "提示"},
    "posttrain.col_chosen": {"en": "chosen", "zh": "选中"},
    "posttrain.col_rejected": {"en": "rejected", "zh": "拒绝"},
    "posttrain.set_sft": {"en": "SFT demonstration", "zh": "SFT 示范"},
    "posttrain.set_dpo": {"en": "DPO comparison", "zh": "DPO 比较"},
    "posttrain.set_held": {"en": "held-out", "zh": "留出"},
    "posttrain.train_title": {"en": "Post-train the toy decoder", "zh": "对玩具解码器做后训练"},
    "posttrain.train_explain": {
        "en": "SFT: {sft_steps} steps from the shipped decoder's weights, loss on the answer tokens only (the "
        "prompt carries no loss). DPO: {dpo_steps} steps from the SFT model, with a frozen copy of it as the "
        "**reference model**, β = {beta}. Deterministic from the seed ({seed}); it runs in a separate process at low "
        "priority and is kept in the cache, so it trains once per machine.",
        "zh": "监督微调：从随附解码器的权重出发训练 {sft_steps} 步，只在答案词元上计算损失（提示不计损失）。DPO：从 SFT "
        "模型出发训练 {dpo_steps} 步，以它的一个冻结副本作为**参考模型**，β = {beta}。结果由随机种子（{seed}）决定；"
        "训练在一个低优先级的独立进程中运行并保存在缓存里，所以每台机器只训练一次。",
    },
    "posttrain.train": {"en": "Run SFT, then DPO", "zh": "运行监督微调，然后 DPO"},
    "posttrain.progress": {
        "en": "{stage}: step {step} of {steps}, loss {loss}, {seconds} s",
        "zh": "{stage}：第 {step}/{steps} 步，损失 {loss}，{seconds} 秒",
    },
    "posttrain.stop": {"en": "Stop", "zh": "停止"},
    "posttrain.failed": {"en": "Training failed: {error}", "zh": "训练失败：{error}"},
    "posttrain.cancelled": {"en": "Training was stopped.", "zh": "训练已停止。"},
    "posttrain.not_writable": {
        "en": "The cache folder cannot be written ({error}), so the result could not be kept. Set "
        "`ATTENTION_LAB_CACHE` to a writable folder and restart the app.",
        "zh": "缓存文件夹无法写入（{error}），训练结果无法保存。请把 `ATTENTION_LAB_CACHE` 设为可写的文件夹，然后重启应用。",
    },
    "posttrain.untrained": {
        "en": "Not trained on this machine yet: press the button (about 30 s). The numbers, charts and answers "
        "appear when it finishes.",
        "zh": "本机尚未训练：请按上面的按钮（约 30 秒）。训练完成后会显示数字、图表和回答。",
    },
    "posttrain.corrupt": {
        "en": "The saved result could not be read and was deleted ({error}); train again.",
        "zh": "保存的结果无法读取，已删除（{error}）；请重新训练。",
    },
    "posttrain.stage_base": {"en": "base", "zh": "基础模型"},
    "posttrain.stage_sft": {"en": "SFT", "zh": "SFT 后"},
    "posttrain.stage_dpo": {"en": "SFT + DPO", "zh": "DPO 后"},
    "posttrain.results_title": {"en": "Chosen vs rejected, on held-out pairs", "zh": "选中与拒绝：留出数据上的结果"},
    "posttrain.results_explain": {
        "en": "log π(y|x) is the log-probability of an answer (its tokens and the final [EOS]) given the prompt, "
        "summed over the answer's tokens. The **margin** is log π(chosen) − log π(rejected), the **preference "
        "accuracy** the share of the {n} held-out pairs with log π(chosen) > log π(rejected) (50% = no preference).",
        "zh": "log π(y|x) 是给定提示时一个答案（它的词元和结尾的 [EOS]）的对数概率，对答案的各个词元求和。**差距**是 "
        "log π(选中) − log π(拒绝)，**偏好准确率**是 {n} 条留出比较中 log π(选中) > log π(拒绝) 的比例（50% 表示没有偏好）。",
    },
    "posttrain.col_stage": {"en": "model", "zh": "模型"},
    "posttrain.col_mean_chosen": {"en": "mean log π(chosen)", "zh": "平均 log π(选中)"},
    "posttrain.col_mean_rejected": {"en": "mean log π(rejected)", "zh": "平均 log π(拒绝)"},
    "posttrain.col_margin": {"en": "mean margin", "zh": "平均差距"},
    "posttrain.col_accuracy": {"en": "preference accuracy", "zh": "偏好准确率"},
    "posttrain.col_reward_chosen": {"en": "implicit reward, chosen", "zh": "隐式奖励（选中）"},
    "posttrain.col_reward_rejected": {"en": "implicit reward, rejected", "zh": "隐式奖励（拒绝）"},
    "posttrain.col_reward_margin": {"en": "difference", "zh": "差值"},
    "posttrain.chart_title": {
        "en": "Mean log π over {n} held-out pairs",
        "zh": "{n} 条留出比较上的平均 log π",
    },
    "posttrain.chart_y": {"en": "mean log π(answer | prompt), nats", "zh": "平均 log π(答案 | 提示)，单位奈特"},
    "posttrain.reading": {
        "en": "Measured here: SFT raised the correct answer's log-probability from {base_w} to {sft_w} and the "
        "preference accuracy from {base_acc} to {sft_acc}; DPO then moved the margin from {sft_m} to {dpo_m} and "
        "the accuracy to {dpo_acc}. DPO optimises the **gap**, not the chosen answer itself: log π(chosen) went "
        "from {sft_w} to {dpo_w} while log π(rejected) went from {sft_l} to {dpo_l}.",
        "zh": "本次测得：监督微调把正确答案的对数概率从 {base_w} 提高到 {sft_w}，偏好准确率从 {base_acc} 提高到 {sft_acc}；"
        "随后 DPO 把差距从 {sft_m} 变为 {dpo_m}，准确率变为 {dpo_acc}。DPO 优化的是**差距**，而不是选中答案本身："
        "log π(选中) 从 {sft_w} 变为 {dpo_w}，而 log π(拒绝) 从 {sft_l} 变为 {dpo_l}。",
    },
    "posttrain.reward_explain": {
        "en": "Below, the **implicit reward** of an answer is β·log(π(y|x)/π_ref(y|x)) with the SFT model as π_ref (so it "
        "is 0 for the SFT model itself): DPO's loss is −log σ(reward(chosen) − reward(rejected)), a logistic "
        "classifier on the same comparisons a reward model would be trained on (Rafailov et al. 2023, "
        "*Direct Preference Optimization: Your Language Model is Secretly a Reward Model*). Also measured on the "
        "DPO training pairs: accuracy {train_acc}, held-out {held_acc}.",
        "zh": "下表中，一个答案的**隐式奖励**是 β·log(π(y|x)/π_ref(y|x))，其中 π_ref 是 SFT 模型（所以 SFT 模型自身的隐式奖励为 0）："
        "DPO 的损失是 −log σ(奖励(选中) − 奖励(拒绝))，也就是在奖励模型本会用到的同一批比较数据上训练的一个逻辑回归分类器"
        "（Rafailov 等，2023，*Direct Preference Optimization: Your Language Model is Secretly a Reward Model*）。"
        "在 DPO 训练数据上测得的准确率为 {train_acc}，留出数据上为 {held_acc}。",
    },
    "posttrain.loss_title": {"en": "Training loss", "zh": "训练损失"},
    "posttrain.loss_x": {"en": "step", "zh": "步数"},
    "posttrain.loss_y": {"en": "loss", "zh": "损失"},
    "posttrain.loss_sft": {"en": "SFT (answer tokens)", "zh": "监督微调（答案词元）"},
    "posttrain.loss_dpo": {"en": "DPO", "zh": "DPO"},
    "posttrain.log2": {"en": "log 2 (DPO at step 1)", "zh": "log 2（DPO 第 1 步）"},
    "posttrain.gen_title": {"en": "Greedy answers to held-out prompts", "zh": "对留出提示的贪心回答"},
    "posttrain.gen_explain": {
        "en": "Each model continues the prompt with its most likely token, up to 4 tokens or [EOS]. Note what DPO "
        "does not fix: it only learned to prefer the right name over the story's other name, so a third name that "
        "no comparison rejected can still come out.",
        "zh": "每个模型用概率最高的词元续写提示，最多 4 个词元或到 [EOS] 为止。注意 DPO 没能修正的地方：它只学会了在"
        "正确名字和故事里另一个名字之间选前者，所以任何比较都没拒绝过的第三个名字仍可能出现。",
    },
    "posttrain.col_correct": {"en": "correct", "zh": "正确答案"},
    "posttrain.own_title": {"en": "Ask your own question", "zh": "自己提一个问题"},
    "posttrain.own_label": {
        "en": "A story and a question, in the training format",
        "zh": "一个故事和一个问题（训练数据的格式）",
    },
    "posttrain.own_empty": {"en": "Type a story and a question above.", "zh": "请在上面输入一个故事和一个问题。"},
    "posttrain.col_answer": {"en": "greedy answer", "zh": "贪心回答"},
    "posttrain.rlhf_title": {"en": "Where RLHF's reward model and PPO sit", "zh": "RLHF 的奖励模型和 PPO 在哪里"},
    "posttrain.rlhf_body": {
        "en": "InstructGPT (Ouyang et al. 2022) post-trains in three steps:\n\n"
        "1. **SFT**: fine-tune the pretrained model on demonstrations written by people (as above).\n"
        "2. **Reward model**: train a model to score an answer, on comparisons (people rank answers to the same "
        "prompt; the loss is −log σ(r(chosen) − r(rejected))).\n"
        "3. **PPO-ptx**: reinforcement learning (PPO) that maximises the reward model's score, with a per-token KL "
        "penalty that keeps the policy close to the SFT model **and** pretraining gradients mixed in (weighted by "
        "γ). The released InstructGPT models are these PPO-ptx models (Ouyang et al. 2022, §3.5).\n\n"
        "**DPO** replaces steps 2 and 3 with one classification-style loss on the same comparisons: the "
        "policy's own β·log(π/π_ref) plays the reward model's part and the frozen SFT model is the KL anchor, so "
        "there is no separate reward model, no sampling and no RL loop. This page runs steps 1 and DPO; it "
        "trains no reward model and runs no PPO. The comparisons here are generated by a rule, not by people, "
        "and the toy learns one pattern of one made-up language: it is not a chat model.",
        "zh": "InstructGPT（Ouyang 等，2022）的后训练分三步：\n\n"
        "1. **监督微调（SFT）**：在人工撰写的示范答案上微调预训练模型（如上）。\n"
        "2. **奖励模型**：在比较数据上训练一个给答案打分的模型（标注者对同一提示的多个回答排序；损失为 "
        "−log σ(r(选中) − r(拒绝))）。\n"
        "3. **PPO-ptx**：用强化学习（PPO）最大化奖励模型的分数，对每个词元加一个到 SFT 模型的 KL 惩罚，让策略不远离 SFT 模型，"
        "**同时**混入预训练梯度（权重为 γ）。发布的 InstructGPT 模型就是这种 PPO-ptx 模型（Ouyang 等 2022，§3.5）。\n\n"
        "**直接偏好优化**（DPO）用一个分类式的损失、在同一批比较数据上替代了第 2、3 步：策略自身的 β·log(π/π_ref) "
        "充当奖励模型，冻结的 SFT 模型（参考模型）充当 KL 的锚点，因此不需要单独的奖励模型、不需要采样，也没有强化学习循环。"
        "本页运行第 1 步和 DPO；它不训练奖励模型，也不运行 PPO。这里的比较数据由规则生成而非人工标注，玩具模型学到的只是"
        "一种人造语言里的一个规律：它不是对话模型。",
    },
}
