"""Page numbers as people read them (pure functions)."""


def ranges(numbers) -> str:
    """Return numbers as sorted ranges: [3, 4, 5, 9, 11, 12] → "3–5, 9, 11–12"."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(first) if first == last else f"{first}–{last}" for first, last in runs)
