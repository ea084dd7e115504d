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
    # shows the shared prompt box; "page": the page draws it itself, in a part that reruns alone (body.page_part)
    prompt: bool | str = True
    section: str = ""  # the sidebar group (SECTIONS); "" = listed above the groups


# The sidebar lists the lessons in these groups, each a collapsible block (ui/nav.py): with 19 lessons a flat
# list pushed the model picker below the fold of a 1366x768 laptop. The current page's group is open.
SECTIONS = ["attention", "architectures", "inside", "training"]


LESSONS = [
    Lesson("guides", "lessons/guides.py", ":material/school:", prompt=False),
    Lesson("explorer", "lessons/explorer.py", ":material/grid_on:", prompt="page", section="attention"),
    Lesson("tokens", "lessons/tokens.py", ":material/segment:", section="attention"),
    Lesson("masks", "lessons/masks.py", ":material/filter_alt:", section="attention"),
    Lesson("rank", "lessons/rank.py", ":material/stacked_line_chart:", section="attention"),
    Lesson("positional", "lessons/positional.py", ":material/waves:", section="attention"),
    Lesson("softmax", "lessons/softmax.py", ":material/thermostat:", prompt="page", section="attention"),
    Lesson("block", "lessons/block.py", ":material/tune:", section="attention"),
    Lesson("generate", "lessons/generate.py", ":material/edit_note:", section="architectures"),
    Lesson("translate", "lessons/translate.py", ":material/translate:", prompt=False, section="architectures"),
    Lesson("mlm", "lessons/mlm.py", ":material/question_mark:", section="architectures"),
    Lesson("objectives", "lessons/objectives.py", ":material/fitness_center:", section="architectures"),
    Lesson("similarity", "lessons/similarity.py", ":material/join_inner:", prompt=False, section="architectures"),
    Lesson("heads", "lessons/heads.py", ":material/diversity_3:", section="inside"),
    Lesson("lens", "lessons/lens.py", ":material/layers:", section="inside"),
    Lesson("patch", "lessons/patch.py", ":material/healing:", prompt=False, section="inside"),
    Lesson("circuits", "lessons/circuits.py", ":material/cable:", prompt=False, section="inside"),
    Lesson("lab", "lessons/lab.py", ":material/science:", section="training"),
    Lesson("posttrain", "lessons/posttrain.py", ":material/thumbs_up_down:", prompt=False, section="training"),
    Lesson("scaling", "lessons/scaling.py", ":material/stacked_bar_chart:", prompt=False, section="training"),
]
