"""The lesson pages, in menu order. Adding a lesson is one line here (plus its strings:
ui/strings/<name>.py, and its title and one-line summary in ui/strings/nav.py and home.py).

They live in lessons/, not pages/: Streamlit still auto-discovers a pages/ folder next to the
entry point, and on a fresh server a URL like /masks then ran the page alone, without app.py's
sidebar and prompt (st.navigation's own advice is to rename the folder).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Lesson:
    name: str  # also the URL path and the i18n key suffix (nav.<name>, home.<name>)
    path: str
    icon: str
    prompt: bool = True  # shows the shared prompt box


LESSONS = [
    Lesson("guides", "lessons/guides.py", ":material/school:", prompt=False),
    Lesson("explorer", "lessons/explorer.py", ":material/grid_on:"),
    Lesson("tokens", "lessons/tokens.py", ":material/segment:"),
    Lesson("masks", "lessons/masks.py", ":material/filter_alt:"),
    Lesson("rank", "lessons/rank.py", ":material/stacked_line_chart:"),
    Lesson("positional", "lessons/positional.py", ":material/waves:"),
    Lesson("softmax", "lessons/softmax.py", ":material/thermostat:"),
    Lesson("block", "lessons/block.py", ":material/tune:"),
    Lesson("generate", "lessons/generate.py", ":material/edit_note:"),
    Lesson("translate", "lessons/translate.py", ":material/translate:", prompt=False),
    Lesson("mlm", "lessons/mlm.py", ":material/question_mark:"),
    Lesson("objectives", "lessons/objectives.py", ":material/fitness_center:"),
    Lesson("similarity", "lessons/similarity.py", ":material/join_inner:", prompt=False),
    Lesson("lab", "lessons/lab.py", ":material/science:"),
    Lesson("scaling", "lessons/scaling.py", ":material/stacked_bar_chart:", prompt=False),
    Lesson("heads", "lessons/heads.py", ":material/diversity_3:"),
    Lesson("lens", "lessons/lens.py", ":material/layers:"),
    Lesson("posttrain", "lessons/posttrain.py", ":material/thumbs_up_down:", prompt=False),
]
