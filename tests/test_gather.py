"""Gathering a question in parts: the order its places are shown in (pure, the ranking faked)."""

from types import SimpleNamespace

from retrieval.ranking import gather
from retrieval.ranking.found import Found


def reading(parts, strong=(), each=False):
    plan = SimpleNamespace(parts=list(parts), each=each, scene="")
    return SimpleNamespace(plan=plan, strong=list(strong), about_something=lambda text: True,
                           question=lambda text=None: text or "whole")


def test_the_place_for_the_whole_question_comes_before_each_part_s(monkeypatch):
    # "Why are some pages stretched, and how do I let pages run short?": one place answers
    # both, and it is the one the whole question ranks first, not the first part's.
    ranked = {"whole": [1, 2], "why stretched": [3, 1], "how run short": [1, 4]}

    def fake(reading, question, limit, exclude, out, book_ids=None, part=None):
        return [Found(7, key, 1.0 / (rank + 1), part) for rank, key in enumerate(ranked[question])]

    monkeypatch.setattr(gather, "_ranked", fake)
    found = gather.several(reading(["why stretched", "how run short"]), 10, ()).batches[0]
    assert [f.key for f in found] == [1, 3, 2, 4]
