"""Hard limits on the model's work for one book, and a circuit breaker."""

import time
from dataclasses import dataclass, field


@dataclass
class Budget:
    """Counts calls, tokens, time and consecutive failures against the limits.

    ``exhausted()`` returns why no further call may be made (for people), or
    "" while calls are still allowed. Once exhausted, it stays exhausted; ``limit``
    then names the limit reached (calls, tokens, seconds, failures) and
    ``limit_value`` its value, for a summary said in the reader's language.
    """

    max_calls: int
    max_tokens: int
    seconds: float
    max_failures: int
    clock: object = time.monotonic
    calls: int = 0
    tokens: int = 0
    failures: int = 0  # consecutive
    started: float = field(default=None)
    stopped: str = ""
    limit: str = ""

    def __post_init__(self):
        if self.started is None:
            self.started = self.clock()

    @classmethod
    def of(cls, config, clock=time.monotonic) -> "Budget":
        return cls(config.max_calls, config.max_tokens, config.book_seconds,
                   config.max_failures, clock)

    @property
    def elapsed(self) -> float:
        return self.clock() - self.started

    def remaining_seconds(self) -> float:
        return max(0.0, self.seconds - self.elapsed)

    def exhausted(self) -> str:
        if not self.stopped:
            if self.calls >= self.max_calls:
                self.limit = "calls"
                self.stopped = f"the limit of {self.max_calls} model calls per book was reached"
            elif self.tokens >= self.max_tokens:
                self.limit = "tokens"
                self.stopped = f"the limit of {self.max_tokens} tokens per book was reached"
            elif self.elapsed >= self.seconds:
                self.limit = "seconds"
                self.stopped = f"the limit of {self.seconds:.0f} s per book was reached"
            elif self.failures >= self.max_failures:
                self.limit = "failures"
                self.stopped = (f"{self.failures} calls in a row failed, so the model was "
                                "no longer asked")
        return self.stopped

    @property
    def limit_value(self) -> int:
        """Return the value of the limit reached (0 before one is)."""
        return {"calls": self.max_calls, "tokens": self.max_tokens,
                "seconds": round(self.seconds), "failures": self.failures}.get(self.limit, 0)

    def record(self, *, tokens: int, ok: bool) -> None:
        """Count one call: its tokens, and whether it gave a usable answer."""
        self.calls += 1
        self.tokens += tokens
        self.failures = 0 if ok else self.failures + 1
