"""What a call to the model raises, wherever the model runs (``llm.runtime``, ``llm.served``)."""


class LlmError(Exception):
    """A call to the model gave no usable answer."""


class LlmTimeout(LlmError):
    """A call ran past its time limit and was stopped."""
