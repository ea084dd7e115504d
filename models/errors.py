"""The one error a page shows as a notice instead of a traceback when model files are wrong."""


class WeightsError(RuntimeError):
    """A weight, config or tokenizer file is missing, corrupt or mismatched; the message names the file
    and says what to do (rebuild, download again, or pick a smaller model)."""
