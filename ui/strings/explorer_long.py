"""Strings of the Explorer's long-prompt drawing: the matrix as an image, its zoom, and the windows of the views
that cannot draw a long prompt whole (lessons/explorer_long.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "explorer_long.caption": {
        "en": "{n_q} × {n_k} weights are too many to draw one by one, so the matrix is a picture{pooled}. Drag a box "
        "on it, or use the two sliders, to zoom: the region below is redrawn from the exact weights, with its "
        "tokens and a value on hover.",
        "zh": "{n_q} × {n_k} 个权重太多，无法逐个绘制，因此整个矩阵画成一张图片{pooled}。在图上拖出一个框，或使用下面的两个"
        "滑块来放大：下方的区域按精确的权重重新绘制，带有词元标签，鼠标悬停可看到数值。",
    },
    "explorer_long.pooled": {
        "en": " (each pixel is the largest weight of a {f} × {f} block)",
        "zh": "（每个像素是一个 {f} × {f} 区块中最大的权重）",
    },
    "explorer_long.auto": {
        "en": "Auto-scale on a long prompt: the colours stop at {top}, above {share} of the weights, so the many small "
        "weights show; the few larger ones are all the darkest blue.",
        "zh": "长输入的自动缩放：颜色上限为 {top}，高于 {share} 的权重，这样大量的小权重也能看清；少数更大的权重都显示为最深的蓝色。",
    },
    "explorer_long.hint": {"en": "drag a box to zoom", "zh": "拖出一个框来放大"},
    "explorer_long.computing": {
        "en": "Computing the layers of this long prompt: {k} of {n} done. The layer shown is drawn as soon as it is "
        "reached; the views that need every layer, the attention sinks and the downloads follow when all are done.",
        "zh": "正在逐层计算这段长输入：已完成 {k} / {n} 层。前向传播一到达所显示的层就会画出它；需要所有层的视图、"
        "注意力汇聚和下载在所有层算完后出现。",
    },
    "explorer_long.layer_wait": {
        "en": "Layer {layer} is drawn when the forward pass reaches it.",
        "zh": "前向传播到达第 {layer} 层时就会画出该层。",
    },
    "explorer_long.view_wait": {
        "en": "This view needs every layer: it is drawn when the forward pass is done.",
        "zh": "此视图需要所有层：前向传播完成后才会画出。",
    },
    "explorer_long.sinks_layer": {
        "en": "On a long prompt the attention sinks are looked for in the layer shown only.",
        "zh": "对于长输入，只在所显示的这一层中寻找注意力汇聚。",
    },
    "explorer_long.zoom_q": {"en": "Zoom: query positions", "zh": "放大：查询位置"},
    "explorer_long.zoom_k": {"en": "Zoom: key positions", "zh": "放大：键位置"},
    "explorer_long.zoom_help": {
        "en": "At most {n} positions a side are redrawn; a longer range shows its first {n}.",
        "zh": "每边最多重新绘制 {n} 个位置；范围更长时只显示前 {n} 个。",
    },
    "explorer_long.zoom_title": {
        "en": "{title}: queries {q0}–{q1}, keys {k0}–{k1}",
        "zh": "{title}：查询 {q0}–{q1}，键 {k0}–{k1}",
    },
    "explorer_long.zoom_cut": {
        "en": "The chosen range is longer than {n} positions: the first {n} of it are shown.",
        "zh": "所选范围超过 {n} 个位置：只显示其中前 {n} 个。",
    },
    "explorer_long.window.grid": {
        "en": "The all-heads grid cannot draw {n} tokens for {heads} heads (the browser would freeze): it shows a "
        "window of {width} tokens of the prompt. Move the window with the slider, or pick “one head” to see the "
        "whole prompt.",
        "zh": "所有头的网格无法为 {heads} 个头绘制 {n} 个词元（浏览器会卡住）：这里只显示输入中 {width} 个词元的窗口。"
        "用滑块移动窗口，或选择“单个头”查看整段输入。",
    },
    "explorer_long.window.lines": {
        "en": "The head view cannot draw lines between {n} tokens (the browser would freeze): it shows a window of "
        "{width} tokens of the prompt. Move the window with the slider, or pick “one head” to see the whole prompt.",
        "zh": "头视图无法在 {n} 个词元之间画连线（浏览器会卡住）：这里只显示输入中 {width} 个词元的窗口。用滑块移动窗口，"
        "或选择“单个头”查看整段输入。",
    },
    "explorer_long.window_start": {"en": "Window: first token", "zh": "窗口：第一个词元"},
    "explorer_long.window_range": {
        "en": "Tokens {first}–{last} of {n}. A row leaves out the keys before the window, so it can sum to less "
        "than 1.",
        "zh": "第 {first}–{last} 个词元（共 {n} 个）。每一行不含窗口之前的键，因此一行之和可能小于 1。",
    },
}
