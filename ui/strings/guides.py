"""Strings of the guided lessons: the list page and the step bar shown above every page."""

STRINGS: dict[str, dict[str, str]] = {
    "guides.intro": {
        "en": "Start a lesson and use **Next** above the page to move through it. Every step is an ordinary page "
        "of the app in a preset state, so you can change anything and come back; the link in the address bar "
        "opens the same step for a student.",
        "zh": "开始一门课程后，用页面上方的**下一步**逐步推进。每一步都是本应用的一个普通页面，只是状态已经预设好，所以你可以随意改动再回来；"
        "地址栏里的链接会为学生打开同一步。",
    },
    "guides.problem": {
        "en": "A lesson file could not be read: {problem}",
        "zh": "有一个课程文件无法读取：{problem}",
    },
    "guides.none": {"en": "No lessons found.", "zh": "没有找到课程。"},
    "guides.steps": {"en": "{n} steps · {pages}", "zh": "{n} 步 · {pages}"},
    "guides.start": {"en": "Start", "zh": "开始"},
    "guides.write_title": {"en": "Write your own lesson", "zh": "编写你自己的课程"},
    "guides.write": {
        "en": "A lesson is a TOML file. Put it in the app's `guides/` folder, or in a folder named by the "
        "environment variable `{env}` (several folders are separated by `:` on Linux and macOS, `;` on "
        "Windows). `params` are the app's own URL parameters: open a page, set it up, and copy them from the "
        "address bar. Files are read again within a minute; a file with a mistake is listed above with its "
        "line, and the others still work. The format:",
        "zh": "一门课程就是一个 TOML 文件。把它放进应用的 `guides/` 文件夹，或放进环境变量 `{env}` 指定的文件夹"
        "（多个文件夹在 Linux 和 macOS 上用 `:` 分隔，在 Windows 上用 `;`）。`params` 就是应用自己的 URL 参数："
        "打开一个页面、设置好，再从地址栏复制即可。文件在一分钟内会被重新读取；有错误的文件会连同行号列在上方，其他文件照常可用。格式如下：",
    },
    "guides.where": {"en": "Guided lesson: {title} · step {k} of {n}", "zh": "引导式课程：{title} · 第 {k} / {n} 步"},
    "guides.paused": {
        "en": "Guided lesson: {title} · you left step {k} of {n}.",
        "zh": "引导式课程：{title} · 你已离开第 {k} / {n} 步。",
    },
    "guides.resume": {"en": "Back to the step", "zh": "回到这一步"},
    "guides.question": {"en": "**Think about it:** {question}", "zh": "**想一想：**{question}"},
    "guides.back": {"en": "Back", "zh": "上一步"},
    "guides.next": {"en": "Next step", "zh": "下一步"},
    "guides.end": {"en": "End the lesson", "zh": "结束课程"},
    "guides.unknown": {
        "en": "The guided lesson {guide} was not found; it may have been removed.",
        "zh": "没有找到引导式课程 {guide}，它可能已被删除。",
    },
}
