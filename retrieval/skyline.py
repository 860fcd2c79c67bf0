"""Skyline selection of candidates over several scores (pure functions).

A candidate is kept when no other candidate is at least as good on every
score and better on one: it is the best of its kind, whichever score a
question rewards. A top-k of a weighted sum would drop a section that is
first by the term graph but middling by text; the skyline keeps it.
"""


def dominates(a, b) -> bool:
    """Return True if score tuple a is at least b everywhere and above it somewhere."""
    return all(x >= y for x, y in zip(a, b)) and any(x > y for x, y in zip(a, b))


def skyline(points: dict) -> list:
    """Return the keys of points (key → score tuple) that no other point dominates."""
    ordered = sorted(points.items(), key=lambda item: item[1], reverse=True)
    front = []
    for key, scores in ordered:
        if not any(dominates(points[other], scores) for other in front):
            front.append(key)
    return front


def candidates(points: dict, minimum: int) -> list:
    """Return the skyline of points, topped up to minimum with the best of each score in turn."""
    chosen = skyline(points)
    if len(chosen) >= minimum:
        return chosen
    dimensions = len(next(iter(points.values()))) if points else 0
    rankings = [
        sorted(points, key=lambda key, d=d: points[key][d], reverse=True) for d in range(dimensions)
    ]
    taken = set(chosen)
    depth = 0
    while len(chosen) < min(minimum, len(points)):
        for ranking in rankings:
            if depth < len(ranking) and ranking[depth] not in taken and len(chosen) < minimum:
                chosen.append(ranking[depth])
                taken.add(ranking[depth])
        depth += 1
    return chosen
