"""Replaced-token detection on a sentence the student alters by hand (a published ELECTRA discriminator).

The student picks words of a sentence and a word to put in their place; the discriminator reads the result
and gives every token P(replaced) (LiveModel.replaced_prob). Which tokens really changed is read off the two
token lists with a diff, so a replacement equal to the original word counts as original, as in ELECTRA (§2).
"""

from __future__ import annotations

import difflib
import re

SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

# Chinese (and Japanese) text has no spaces: each ideograph, kana or full-width punctuation mark is a word to pick
CJK = "\u3001-\u303f\uff01-\uff60\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
UNIT = re.compile(rf"(\s*)([{CJK}]|[^\s{CJK}]+)")


def _units(text: str) -> list[tuple[str, bool]]:
    """(word, whether whitespace stood before it): whitespace-separated runs, each CJK character apart."""
    return [(m[2], bool(m[1])) for m in UNIT.finditer(text)]


def words(text: str) -> list[str]:
    """The sentence's words (what the student picks from): split on whitespace, and each CJK character apart."""
    return [w for w, _ in _units(text)]


def pill_labels(ws: list[str]) -> list[str]:
    """A label per word, unique: a repeated word gets its occurrence as a subscript (小₁ 明 小₂), so the student
    sees which one is picked (and the pills widget, which tells options apart by label, highlights that one)."""
    seen: dict[str, int] = {}
    out = []
    for w in ws:
        seen[w] = seen.get(w, 0) + 1
        out.append(w + str(seen[w]).translate(SUBSCRIPTS) if ws.count(w) > 1 else w)
    return out


def replace_words(text: str, picks: list[int], word: str, most: int | None = None) -> str:
    """text (its first `most` words) with the picked words (0-based, out-of-range ignored) replaced by word;
    unchanged if word is blank. Runs of whitespace become one space; words that touched (小猫) still touch."""
    word = " ".join(word.split())
    chosen = set(picks) if word else set()
    out = [(" " if space and i else "") + (word if i in chosen else w) for i, (w, space) in enumerate(_units(text))]
    return "".join(out[:most])


def replaced_flags(original: list[str], altered: list[str]) -> list[bool]:
    """For each token of altered: True where it is not matched to the same token of original (a longest-common-
    subsequence diff of the two token lists, specials included, which always match)."""
    flags = [True] * len(altered)
    for block in difflib.SequenceMatcher(a=original, b=altered, autojunk=False).get_matching_blocks():
        for j in range(block.b, block.b + block.size):
            flags[j] = False
    return flags
