"""The sidebar's own switches, the tables shown beside heatmaps, URL notices and the queue for a large model."""

STRINGS: dict[str, dict[str, str]] = {
    "shell.present.label": {"en": "Presentation mode", "zh": "演示模式"},
    "shell.present.help": {"en": "Larger text and figures for a projector.", "zh": "更大的文字和图，适合投影。"},
    "shell.tables.label": {"en": "Numbers as tables", "zh": "用表格显示数值"},
    "shell.tables.help": {
        "en": "Every attention heatmap also as a table of its exact weights, readable by a screen reader.",
        "zh": "每张注意力热力图同时以表格列出精确权重，屏幕阅读器可以朗读。",
    },
    "shell.tables.row": {"en": "query ↓ key →", "zh": "查询 ↓ 键 →"},
    "shell.tables.cut": {
        "en": "The table shows the first {n} rows and columns of {rows} × {cols}.",
        "zh": "表格只显示 {rows} × {cols} 中的前 {n} 行和前 {n} 列。",
    },
    "shell.url.ignored": {
        "en": "Some link parameters were not understood and were ignored (defaults used): {params}",
        "zh": "链接中的部分参数无法识别，已忽略（使用默认值）：{params}",
    },
    "shell.page_failed": {
        "en": "This page could not be drawn. Pick another page in the sidebar, or reload this one; the server's log has the details for whoever runs it.",
        "zh": "本页无法显示。请在侧边栏选择其他页面，或刷新本页；详细错误已记入服务器日志，供管理员查看。",
    },
    "shell.url.out_of_range": {
        "en": "{name} {value} does not exist in this model ({n} in all); showing the first.",
        "zh": "该模型没有第 {value} 个 {name}（共 {n} 个）；显示第一个。",
    },
    "shell.queue": {
        "en": "Queued for {model}: number {place}. This server runs a large model {slots} at a time; "
        "the figures appear when it is your turn.",
        "zh": "正在排队等待 {model}：第 {place} 位。服务器一次只运行 {slots} 个大模型请求，轮到你时图会出现。",
    },
}
