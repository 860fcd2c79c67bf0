"""Which place each part of a question takes, when it asks for several things (pure).

"Where is try/catch defined, and where is it used?" is looked up part by part;
a card is shown once, but each part is given a place in the guide. The choice
that answers the parts best together wins: each place counts by its score
against its part's best, and a place two parts take counts SHARED for each. So
two parts asked apart get two places where a second one answers nearly as well
("The try Statement" and "Catching Errors", not the second twice), and share
one where nothing else answers ("\\input" and "\\include" in one section).
"""

from itertools import product

SHARED = 0.8
PART_CHOICES = 3
"""Each part takes one of its PART_CHOICES best places."""


def assigned(options: list[list[tuple[float, object]]]) -> list[int]:
    """Return which place each part takes: options holds, for each part, its places best first
    as (score, place)."""
    def worth(choice) -> float:
        taken = [options[n][i][1] for n, i in enumerate(choice)]
        return sum(options[n][i][0] / (options[n][0][0] or 1.0)
                   * (SHARED if taken.count(taken[n]) > 1 else 1.0)
                   for n, i in enumerate(choice))

    return list(max(product(*(range(len(places)) for places in options)), key=worth, default=()))
