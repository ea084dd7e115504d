"""What the Translate page's boxes start with: a published model's source is a sentence, and the target box holds
the model's own greedy output, kept readable.

A trained model's translation is short and whole. A random one (the tests' tiny T5) writes noise until the step
limit: byte-level pieces that are no whole character (decoded as U+FFFD "�") and 60+ tokens, which fill the box
with "�" and squeeze the teacher-forcing heatmaps. The box then gets the output's first PREFILL_TOKENS tokens with
the "�" left out, and a note says both, so nothing is hidden.
"""

from __future__ import annotations

REAL_SOURCE = "The house is wonderful."  # a published model's first source (T5 and opus-mt en-* read English)
REPLACEMENT = "\ufffd"
PREFILL_TOKENS = 24  # an unfinished output is cut here (a finished one is kept whole)
WIDE_ROWS = 32  # above this many target tokens the two teacher-forcing heatmaps stack, each the page's full width


def real_source(session, toy_default: str) -> None:
    """A published model's source box starts with an English sentence, not the toy's digits ("1234"): replaced
    once per session, only while it still holds the toy's default."""
    if session.get("source") == toy_default and not session.get("_real_source"):
        session["source"] = REAL_SOURCE
        session["_real_source"] = True


def prefill(model, steps, fallback: str = "") -> tuple[str, list[str]]:
    """(text for the target box, i18n keys of the notes that say how it differs from the raw greedy output).
    An output of byte pieces only leaves nothing to show: the box then starts with fallback (the source)."""
    ids = [s.token_id for s in steps if s.token_id not in model.eos_ids]
    finished = bool(steps) and steps[-1].token_id in model.eos_ids
    notes = []
    if not finished and len(ids) > PREFILL_TOKENS:
        ids, notes = ids[:PREFILL_TOKENS], ["translate.prefill_cut"]
    text = model.tokenizer.decode(ids)
    if REPLACEMENT in text:
        text = " ".join(text.replace(REPLACEMENT, " ").split())
        notes.append("translate.prefill_bytes" if text else "translate.prefill_empty")
        text = text or fallback
    return text, notes
