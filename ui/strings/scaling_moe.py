"""Strings of the Model size page's mixture-of-experts section (lessons/scaling_moe.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "scaling_moe.title": {
        "en": "Mixture of experts: total vs active parameters per token",
        "zh": "混合专家：总参数与每个词元的激活参数",
    },
    "scaling_moe.intro": {
        "en": "A mixture-of-experts (MoE) model replaces each block's feed-forward network by n experts and a router "
        "that sends each token to k of them (Switch Transformer: k = 1, Fedus et al. 2021; Mixtral: 8 experts, "
        "k = 2, Jiang et al. 2024). All n experts must be stored, but each token passes through only k: the "
        "**total** parameter count sets the memory, the **active** count (per token) sets the compute of a forward "
        "pass. Both are computed below from the published configuration with the same formula as every dense "
        "model on this page; the Architecture lab trains a small MoE and shows its router at work.",
        "zh": "混合专家（MoE）模型把每个块的前馈网络换成 n 个专家和一个路由器，路由器把每个词元送往其中 k 个"
        "（Switch Transformer：k = 1，Fedus 等 2021；Mixtral：8 个专家，k = 2，Jiang 等 2024）。"
        "n 个专家都要存储，但每个词元只经过 k 个：**总参数**决定显存，每个词元的**激活参数**决定一次前向计算的算力。"
        "下面两者都由公开配置、用与本页所有稠密模型相同的公式算出；架构实验室里可以训练一个小 MoE，看路由器如何工作。",
    },
    "scaling_moe.col.experts": {"en": "experts / top-k", "zh": "专家数 / top-k"},
    "scaling_moe.col.total": {"en": "total parameters", "zh": "总参数"},
    "scaling_moe.col.active": {"en": "active per token", "zh": "每个词元的激活参数"},
    "scaling_moe.col.share": {"en": "active share", "zh": "激活占比"},
    "scaling_moe.col.published": {"en": "published (total / active)", "zh": "公开数字（总 / 激活）"},
    "scaling_moe.breakdown": {
        "en": "**{model}, term by term** ({layers} layers, d_model {d}, {heads} query / {kv} KV heads, d_ff {d_ff}, "
        "{n} SwiGLU experts, top-{k}, vocabulary {vocab}, untied output layer): attention {attn} per layer; one "
        "expert 3 · d_model · d_ff = {expert}; the router d_model · n = {router} per layer; embeddings and output "
        "layer {emb}. Total = {layers} × (attention + {n} experts + router + norms) + embeddings + output = "
        "**{total}** ({total_exact}); active = the same with {k} experts = **{active}** ({active_exact}). Both "
        "match the 46.7B total and 12.9B active of Mistral AI's announcement (December 2023); the paper (Jiang et "
        "al. 2024) rounds them to 47B and 13B. The attention, embeddings and "
        "output layer are shared by every token, so “8×7B” is not 56B.",
        "zh": "**{model} 逐项计算**（{layers} 层，d_model {d}，{heads} 个查询头 / {kv} 个 KV 头，d_ff {d_ff}，"
        "{n} 个 SwiGLU 专家，top-{k}，词表 {vocab}，输出层不绑定）：每层注意力 {attn}；一个专家 3 · d_model · d_ff = "
        "{expert}；每层路由器 d_model · n = {router}；嵌入和输出层 {emb}。总参数 = {layers} × （注意力 + {n} 个专家 + "
        "路由器 + 归一化层）+ 嵌入 + 输出 = **{total}**（{total_exact}）；激活参数 = 同样算式只计 {k} 个专家 = "
        "**{active}**（{active_exact}）。两者都与 Mistral AI 发布公告（2023 年 12 月）中的总参数 46.7B、激活参数 12.9B 一致；"
        "论文（Jiang 等 2024）把它们取整为 47B 和 13B。"
        "注意力、嵌入和输出层由所有词元共享，所以“8×7B”并不是 56B。",
    },
    "scaling_moe.n": {"en": "Experts per layer (n)", "zh": "每层专家数（n）"},
    "scaling_moe.k": {"en": "Experts per token (top-k)", "zh": "每个词元的专家数（top-k）"},
    "scaling_moe.k_clamped": {
        "en": "top-{k} needs at least {k} experts: counted with top-{n}.",
        "zh": "top-{k} 至少需要 {k} 个专家：按 top-{n} 计算。",
    },
    "scaling_moe.fig": {
        "en": "{model}'s block with n experts, top-{k}: parameters",
        "zh": "{model} 的块配 n 个专家、top-{k}：参数量",
    },
    "scaling_moe.fig_caption": {
        "en": "Each added expert adds its 3 · d_model · d_ff parameters per layer to the total; the active count "
        "stays at {k} experts per token (plus the router, d_model per expert and layer). n = 1 is the dense model.",
        "zh": "每增加一个专家，总参数每层增加 3 · d_model · d_ff；激活参数仍是每个词元 {k} 个专家"
        "（再加上路由器，每层每个专家 d_model 个参数）。n = 1 就是稠密模型。",
    },
    "scaling_moe.gpt4": {
        "en": "GPT-4: the figures that circulate in notes (“8 × 220B”, “16 experts”, “1.8T parameters”) are "
        "rumours. OpenAI's technical report (2023, §2) publishes neither the architecture nor the size, so this "
        "page counts no GPT-4.",
        "zh": "GPT-4：笔记中流传的数字（“8 × 220B”、“16 个专家”、“1.8T 参数”）都是传闻。OpenAI 的技术报告"
        "（2023，§2）既没有公开架构也没有公开规模，所以本页不计算 GPT-4。",
    },
}
