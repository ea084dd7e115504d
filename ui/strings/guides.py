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
    "guides.write_checked": {
        "en": "A step can also ask something that is checked or recorded: **predict** asks before the page's "
        "figure is shown (choices, or a number with a tolerance) and then shows the right answer and why "
        "(with `read = true` it asks about the figure, which stays visible); "
        "**goal** names a check that watches the app live until the student has brought it into a state; "
        "**hints** are shown one at a time; **free** asks for a short written answer, not graded. "
        "A text may use Markdown but no HTML and no `javascript:` links (write a token such as `<s>` in backticks):",
        "zh": "一步还可以提出会被检查或记录的问题：**predict**（预测）在页面的图出现之前提问（选择题，或带容差的数值题），"
        "回答后显示正确答案和原因（写 `read = true` 时，它针对图提问，图一直可见）；**goal**（目标）指定一个检查，实时观察应用，直到学生把它调到某种状态；"
        "**hints**（提示）逐条显示；**free**（自由回答）请学生写一句简短的回答，不评分。"
        "文本可以用 Markdown，但不能含 HTML 或 `javascript:` 链接（像 `<s>` 这样的词元请写在反引号里）：",
    },
    "guides.write_closing": {
        "en": "A lesson ends on a **closing** step: two to four points the class learnt, the next lesson (its file "
        "name) and one to three readings. Without a `page` it stays on the page of the step before:",
        "zh": "一门课程以**收尾**步骤结束：两到四条本课要点、下一课（它的文件名）以及一到三篇延伸阅读。"
        "不写 `page` 时，它停留在上一步的页面上：",
    },
    "guides.write_checks": {
        "en": "The checks a goal can name: `head_role` (`role` = previous_token, induction, duplicate_token, "
        "first_token or diffuse; `min`): the selected head's score on the Heads page; `prompt_changes_position` "
        "(`mask` = causal or bidirectional; `min_before`, `max_before`, `min_pos`): on the Masks page, how many "
        "positions before the changed word change their output; `rank_below_n` (`precision` = float32 or "
        "float64; `mask`; `min_tokens`): the selected head's numerical rank on the Rank page is below the number "
        "of tokens; `param_is` (`name`, `value`): a control has a value; `prompt_tokens` (`min`, `max`): the "
        "prompt's length in tokens.",
        "zh": "goal 可以使用的检查：`head_role`（`role` = previous_token、induction、duplicate_token、first_token "
        "或 diffuse；`min`）：所选注意力头在“注意力头”页面上的得分；`prompt_changes_position`（`mask` = causal 或 "
        "bidirectional；`min_before`、`max_before`、`min_pos`）：在“掩码”页面上，被改动的词之前有多少个位置的输出随之改变；"
        "`rank_below_n`（`precision` = float32 或 float64；`mask`；`min_tokens`）：所选头在“秩”页面上的数值秩低于词元数；"
        "`param_is`（`name`、`value`）：某个控件取某个值；`prompt_tokens`（`min`、`max`）：输入的词元数。",
    },
    "guides.role.previous_token": {"en": "previous token", "zh": "前一个词元"},
    "guides.role.induction": {"en": "induction", "zh": "归纳"},
    "guides.role.duplicate_token": {"en": "duplicate token", "zh": "重复词元"},
    "guides.role.first_token": {"en": "first token", "zh": "首词元"},
    "guides.role.diffuse": {"en": "diffuse", "zh": "弥散"},
    "guides.goal.head_role": {
        "en": "Layer {layer}, head {head}: its {role} score is {score}; the goal needs at least {min}.",
        "zh": "第 {layer} 层第 {head} 个头：它的{role}得分是 {score}；目标需要至少 {min}。",
    },
    "guides.goal.head_recovers": {
        "en": "Layer {layer}, head {head} recovers {share} of the answer; the goal needs at least {min}.",
        "zh": "第 {layer} 层第 {head} 个头恢复了答案的 {share}；目标需要至少 {min}。",
    },
    "guides.goal.patch_first": {
        "en": "Give the page two prompts that disagree about the answer first.",
        "zh": "请先给本页两个对答案有分歧的提示。",
    },
    "guides.goal.no_prompt": {"en": "Type a prompt first.", "zh": "请先输入一段文本。"},
    "guides.goal.change_none": {
        "en": "Type a different word for position {pos} at the bottom of the Masks page.",
        "zh": "请在“掩码”页面底部为位置 {pos} 输入一个不同的词。",
    },
    "guides.goal.change": {
        "en": "{mask} mask: you changed the token at position {pos}; {moved} of the {n} positions before it "
        "changed their output (the goal: {want}).",
        "zh": "{mask}：你改动了位置 {pos} 的词元；它之前的 {n} 个位置中有 {moved} 个的输出变了（目标：{want}）。",
    },
    "guides.goal.change_early": {
        "en": "You are changing the token at position {pos}. Pick position {min_pos} or later, so that there are "
        "enough positions before it to watch.",
        "zh": "你改动的是位置 {pos} 的词元。请选择位置 {min_pos} 或更靠后，这样它前面有足够多的位置可以观察。",
    },
    "guides.want.none": {"en": "none", "zh": "0 个"},
    "guides.want.at_least": {"en": "at least {lo}", "zh": "至少 {lo} 个"},
    "guides.want.exactly": {"en": "exactly {lo}", "zh": "恰好 {lo} 个"},
    "guides.want.between": {"en": "{lo} to {hi}", "zh": "{lo} 到 {hi} 个"},
    "guides.goal.rank": {
        "en": "Layer {layer}, head {head}, {mask} mask, in {dtype}: numerical rank {rank} for {n} tokens. The goal: "
        "a rank below {n}, in {precision}.",
        "zh": "第 {layer} 层第 {head} 个头，{mask}，{dtype}：{n} 个词元的数值秩为 {rank}。目标：在 {precision} 下秩低于 {n}。",
    },
    "guides.goal.rank_short": {"en": "The prompt needs at least {k} tokens.", "zh": "输入至少需要 {k} 个词元。"},
    "guides.goal.param": {"en": "{have} now; the goal is {want}.", "zh": "现在是 {have}；目标是 {want}。"},
    "guides.goal.tokens": {
        "en": "The prompt has {n} tokens; the goal is {want}.",
        "zh": "输入有 {n} 个词元；目标是{want}。",
    },
    "guides.goal.attention": {
        "en": "Layer {layer}, head {head}: {query} gives {weight} of its attention to {to}; the goal needs at "
        "least {min}.",
        "zh": "第 {layer} 层第 {head} 个头：{query} 把 {weight} 的注意力给了 {to}；目标需要至少 {min}。",
    },
    "guides.goal.no_token": {
        "en": "The prompt has no token “{token}” (a word the tokenizer cuts in pieces names none).",
        "zh": "输入中没有词元“{token}”（被分词器切成几段的词不算）。",
    },
    "guides.goal.lab_trained": {"en": "Side {side} is trained and shown.", "zh": "{side} 侧已训练并显示。"},
    "guides.goal.lab_random_shown": {
        "en": "Side {side} is trained, but the sidebar shows random weights: switch it to trained.",
        "zh": "{side} 侧已训练，但侧边栏显示的是随机权重：请切换到训练后的权重。",
    },
    "guides.goal.lab_training": {
        "en": "Side {side} is training ({percent} done).",
        "zh": "{side} 侧正在训练（已完成 {percent}）。",
    },
    "guides.goal.lab_untrained": {
        "en": "Side {side}, as it is set now, has no trained weights: press its Train button.",
        "zh": "{side} 侧按当前设置还没有训练好的权重：请点击它的“训练”按钮。",
    },
    "guides.goal.error": {
        "en": "This goal cannot be checked on the current model: {error}",
        "zh": "无法在当前模型上检查这个目标：{error}",
    },
    "guides.goal.task": {"en": "**Goal:** {task}", "zh": "**目标**：{task}"},
    "guides.goal.reached": {"en": "Reached: {detail}", "zh": "已达成：{detail}"},
    "guides.goal.not_yet": {"en": "Not yet: {detail}", "zh": "尚未达成：{detail}"},
    "guides.predict.title": {"en": "**Predict first:** {question}", "zh": "**先预测**：{question}"},
    "guides.read.title": {"en": "**Read the figure:** {question}", "zh": "**读图**：{question}"},
    "guides.closing.learnt": {"en": "**What you learnt**", "zh": "**本课要点**"},
    "guides.closing.next": {"en": "**Next lesson:** {title}", "zh": "**下一课**：{title}"},
    "guides.closing.start_next": {"en": "Start the next lesson", "zh": "开始下一课"},
    "guides.closing.last": {
        "en": "This is the last lesson of the series.",
        "zh": "这是本系列的最后一课。",
    },
    "guides.closing.all": {"en": "All lessons", "zh": "全部课程"},
    "guides.closing.readings": {"en": "**To read**", "zh": "**延伸阅读**"},
    "guides.predict.pick": {"en": "Your answer", "zh": "你的答案"},
    "guides.predict.number": {"en": "Your answer (a number)", "zh": "你的答案（一个数）"},
    "guides.predict.send": {"en": "Answer", "zh": "回答"},
    "guides.predict.change": {"en": "Change my answer", "zh": "修改答案"},
    "guides.predict.right": {"en": "Right: {answer}", "zh": "答对了：{answer}"},
    "guides.predict.wrong": {
        "en": "Not quite: you answered {given}; the answer is {answer}.",
        "zh": "不太对：你的答案是 {given}；正确答案是 {answer}。",
    },
    "guides.predict.within": {
        "en": "{answer} (± {tolerance} counts as right)",
        "zh": "{answer}（± {tolerance} 以内算对）",
    },
    "guides.predict.why": {"en": "**Why:** {why}", "zh": "**原因**：{why}"},
    "guides.predict.below": {
        "en": "The figure for this answer is further down the page: scroll to {where}.",
        "zh": "这个答案对应的图在页面下方：请滚动到{where}。",
    },
    "guides.predict.solo_teacher": {
        "en": "In a class the teacher reveals this answer after a vote; on your own it is shown right away.",
        "zh": "在课堂上，这个答案会在投票后由老师揭晓；自己学习时会立即显示。",
    },
    "guides.predict.waiting": {
        "en": "Your answer is in. The right answer and the figure appear when the teacher reveals them; "
        "until then you can still change your answer.",
        "zh": "你的答案已提交。老师公布后，正确答案和图才会出现；在此之前你仍然可以修改答案。",
    },
    "guides.predict.hidden": {
        "en": "Answer the question above to see the figure (in a class vote: once the teacher reveals the answer).",
        "zh": "先回答上面的问题，再看图（课堂投票时：老师公布答案后才显示）。",
    },
    "guides.predict.bad_number": {"en": "Type a number.", "zh": "请输入一个数。"},
    "guides.predict.missing": {"en": "Pick an answer first.", "zh": "请先选择一个答案。"},
    "guides.hint.more": {"en": "Show a hint ({k} of {n})", "zh": "显示提示（第 {k} / {n} 条）"},
    "guides.hint.text": {"en": "**Hint {k}:** {hint}", "zh": "**提示 {k}**：{hint}"},
    "guides.free.title": {"en": "**In your words:** {question}", "zh": "**用你自己的话说**：{question}"},
    "guides.free.box": {"en": "A sentence or two, in your own words", "zh": "用你自己的话写一两句"},
    "guides.free.send": {"en": "Send", "zh": "发送"},
    "guides.free.sent": {"en": "Sent: {text}", "zh": "已发送：{text}"},
    "guides.free.empty": {"en": "Write a few words first.", "zh": "请先写几个字。"},
    "guides.saved_failed": {
        "en": "Your answer could not be saved for the class; it is kept here. Try again in a moment.",
        "zh": "你的答案没能保存到课堂中，已暂存在本页。请稍后再试。",
    },
    "guides.where": {"en": "Guided lesson: {title} · step {k} of {n}", "zh": "引导式课程：{title} · 第 {k} / {n} 步"},
    "guides.paused": {
        "en": "Guided lesson: {title} · you left step {k} of {n}.",
        "zh": "引导式课程：{title} · 你已离开第 {k} / {n} 步。",
    },
    "guides.resume": {"en": "Back to the step", "zh": "回到这一步"},
    "guides.question": {"en": "**Think about it:** {question}", "zh": "**想一想**：{question}"},
    "guides.back": {"en": "Back", "zh": "上一步"},
    "guides.next": {"en": "Next step", "zh": "下一步"},
    "guides.end": {"en": "End the lesson", "zh": "结束课程"},
    "guides.unknown": {
        "en": "The guided lesson {guide} was not found; it may have been removed.",
        "zh": "没有找到引导式课程 {guide}，它可能已被删除。",
    },
}
