"""Replaced-token detection on a sentence the student alters by hand (a published ELECTRA discriminator).

The student picks words of a sentence and a word to put in their place; the discriminator reads the result
and gives every token P(replaced) (LiveModel.replaced_prob). Which tokens really changed is read off the two
token lists with a diff, so a replacement equal to the original word counts as original, as in ELECTRA (§2).
"""

from __future__ import annotations

import difflib


def words(text: str) -> list[str]:
    """The sentence's whitespace-separated words (what the student picks from)."""
    return text.split()


def replace_words(text: str, picks: list[int], word: str) -> str:
    """text with the picked words (0-based, out-of-range ignored) replaced by word; unchanged if word is blank."""
    ws = words(text)
    word = " ".join(word.split())
    if not word:
        return " ".join(ws)
    return " ".join(word if i in set(picks) else w for i, w in enumerate(ws))


def replaced_flags(original: list[str], altered: list[str]) -> list[bool]:
    """For each token of altered: True where it is not matched to the same token of original (a longest-common-
    subsequence diff of the two token lists, specials included, which always match)."""
    flags = [True] * len(altered)
    for block in difflib.SequenceMatcher(a=original, b=altered, autojunk=False).get_matching_blocks():
        for j in range(block.b, block.b + block.size):
            flags[j] = False
    return flags
