"""Strings of a class: starting one and joining it (the Guided lessons page), the class line in the step bar,
and the teacher's view."""

STRINGS: dict[str, dict[str, str]] = {
    # the Guided lessons page
    "classroom.title": {"en": "Teach a class", "zh": "课堂教学"},
    "classroom.intro": {
        "en": "Start a class for a lesson: students join with a short code and a display name (no accounts), "
        "answer on their own screens, and you see the class's answers live.",
        "zh": "为一门课程开启课堂：学生用简短的课堂码和显示名加入（无需账号），在自己的屏幕上作答，你可以实时看到全班的作答情况。",
    },
    "classroom.start": {"en": "Start a class", "zh": "开启课堂"},
    "classroom.join_title": {"en": "Join a class", "zh": "加入课堂"},
    "classroom.code": {"en": "Class code", "zh": "课堂码"},
    "classroom.code_help": {
        "en": "The eight letters and digits your teacher shows, e.g. ABCD-EFGH.",
        "zh": "老师展示的八位字母和数字，例如 ABCD-EFGH。",
    },
    "classroom.name": {"en": "Your display name", "zh": "你的显示名"},
    "classroom.name_help": {
        "en": "Shown to your teacher only. Use the same name to come back to your answers after a refresh.",
        "zh": "只有老师能看到。刷新页面后用同一个名字重新加入，就能找回你的作答。",
    },
    "classroom.go": {"en": "Join", "zh": "加入"},
    "classroom.refused.unknown": {
        "en": "No open class has this code. Check it with your teacher.",
        "zh": "没有使用这个课堂码的进行中课堂，请与老师核对。",
    },
    "classroom.refused.closed": {
        "en": "This class has been closed by its teacher.",
        "zh": "这个课堂已被老师关闭。",
    },
    "classroom.refused.rate_limited": {
        "en": "Too many wrong codes were tried from here. Wait a minute and try again.",
        "zh": "从这里尝试的错误课堂码太多了，请稍等一分钟再试。",
    },
    "classroom.refused.name": {
        "en": "Please type a display name (1 to 40 characters).",
        "zh": "请输入显示名（1 到 40 个字符）。",
    },
    "classroom.joined": {"en": "You are in class {code} as {name}.", "zh": "你已以 {name} 的身份加入课堂 {code}。"},
    "classroom.to_lesson": {"en": "Go to the class's step", "zh": "前往课堂当前步骤"},
    "classroom.leave": {"en": "Leave the class", "zh": "离开课堂"},
    "classroom.down": {
        "en": "The class features are unavailable right now (the database does not answer). The lessons still "
        "work; your answers are kept in this browser tab only.",
        "zh": "课堂功能暂时不可用（数据库没有响应）。课程仍可正常使用；你的作答只保存在当前浏览器标签页中。",
    },
    "classroom.bad_link": {
        "en": "This teacher link is not valid: the class was closed or has expired.",
        "zh": "这个教师链接无效：课堂已关闭或已过期。",
    },
    # the step bar
    "classroom.line_student": {"en": "Class {code} · {name}", "zh": "课堂 {code} · {name}"},
    "classroom.line_teacher": {
        "en": "You teach class {code} · {answered} of {students} answered this step",
        "zh": "你正在教课堂 {code} · 本步 {students} 人中已有 {answered} 人作答",
    },
    "classroom.teacher_on": {"en": "The teacher is on step {k} — go there", "zh": "老师在第 {k} 步 —— 前往"},
    "classroom.bring_here": {"en": "Bring everyone to this step", "zh": "让全班来到这一步"},
    "classroom.open_view": {"en": "Class view", "zh": "课堂视图"},
    # the teacher's view
    "classroom.lessons": {"en": "All lessons (start another class)", "zh": "全部课程（开启另一个课堂）"},
    "classroom.walk": {"en": "Walk through the lesson", "zh": "进入课程"},
    "classroom.view_title": {"en": "Your class: {title}", "zh": "你的课堂：{title}"},
    "classroom.code_big": {"en": "Join code", "zh": "课堂码"},
    "classroom.student_link": {
        "en": "Student link (opens the join form with the code):",
        "zh": "学生链接（打开已填好课堂码的加入表单）：",
    },
    "classroom.teacher_link": {
        "en": "Your teacher link, shown only now: keep it private (anyone with it sees the class). Open it on "
        "another device or after a restart to come back to this view.",
        "zh": "你的教师链接只显示这一次：请妥善保管（拿到它的人都能看到全班）。在另一台设备上或重启后打开它即可回到本视图。",
    },
    "classroom.saved_link": {"en": "I have saved it", "zh": "我已保存"},
    "classroom.retention": {
        "en": "Names and answers are deleted on {date} ({days} days after the start), or when you close the class.",
        "zh": "姓名和作答将于 {date} 删除（开课后 {days} 天），或在你关闭课堂时删除。",
    },
    "classroom.projector": {"en": "Projector view (counts only, no names)", "zh": "投影视图（只显示人数，不显示姓名）"},
    "classroom.students": {"en": "Students", "zh": "学生"},
    "classroom.n_students": {"en": "{n} students joined", "zh": "已加入 {n} 名学生"},
    "classroom.step": {"en": "Step {k}: {title}", "zh": "第 {k} 步：{title}"},
    "classroom.here": {"en": "the class is here", "zh": "全班在此"},
    "classroom.answered": {"en": "Answered", "zh": "已作答"},
    "classroom.correct": {"en": "Correct", "zh": "正确率"},
    "classroom.hints": {"en": "Hints", "zh": "提示次数"},
    "classroom.goals": {"en": "Goal reached", "zh": "达成目标"},
    "classroom.wrong": {"en": "Most common wrong answers", "zh": "最常见的错误答案"},
    "classroom.wrong_row": {"en": "{answer} — {n}", "zh": "{answer} —— {n} 人"},
    "classroom.free": {"en": "Free answers", "zh": "自由作答"},
    "classroom.col_n": {"en": "How many", "zh": "人数"},
    "classroom.overview": {"en": "All steps", "zh": "各步概览"},
    "classroom.stuck": {"en": "Stuck (no answer for {min} minutes)", "zh": "卡住了（{min} 分钟没有作答）"},
    "classroom.none_stuck": {"en": "Nobody is stuck.", "zh": "没有人卡住。"},
    "classroom.col_name": {"en": "Name", "zh": "姓名"},
    "classroom.col_step": {"en": "Step", "zh": "步骤"},
    "classroom.pick_step": {"en": "The answers to step", "zh": "查看这一步的作答"},
    "classroom.col_last": {"en": "Last answer", "zh": "最近作答"},
    "classroom.col_stuck": {"en": "Stuck", "zh": "卡住"},
    "classroom.col_answer": {"en": "Answer", "zh": "回答"},
    "classroom.reveal": {"en": "Reveal the answer", "zh": "公布答案"},
    "classroom.revealed": {"en": "Answer revealed", "zh": "答案已公布"},
    "classroom.csv": {"en": "Download all answers (CSV)", "zh": "下载全部作答（CSV）"},
    "classroom.close": {"en": "Close the class", "zh": "关闭课堂"},
    "classroom.close_confirm": {
        "en": "Closing deletes every name and answer of this class now; students can no longer join. Close it?",
        "zh": "关闭课堂会立即删除本课堂的所有姓名和作答，学生也无法再加入。确定关闭吗？",
    },
    "classroom.close_yes": {"en": "Yes, close and delete", "zh": "确定关闭并删除"},
    "classroom.close_no": {"en": "Cancel", "zh": "取消"},
    "classroom.closed": {
        "en": "The class is closed; its names and answers are deleted.",
        "zh": "课堂已关闭，姓名和作答已删除。",
    },
    "classroom.no_predict": {"en": "no question to answer", "zh": "没有需要作答的问题"},
}
