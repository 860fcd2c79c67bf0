"""A question in parts: the order its places are shown in, as cards and in the guide (pure)."""

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


def test_the_guide_leads_with_the_whole_question_s_place_where_it_is_no_part_s(monkeypatch):
    from retrieval.answer import present

    def card(where, part=None, book_id=7):
        return SimpleNamespace(where=where, part=part, book_id=book_id)

    remarks, block, sniplet = card("remarks"), card("block", "why stretched"), card("sniplet")
    parts = [block, card("sniplet", "how run short")]
    monkeypatch.setattr(present, "_part_places", lambda answer, chosen, shelf: parts)
    answer = SimpleNamespace(results=(remarks, block, sniplet), type="compare")
    assert [p.where for p in present.places(answer, [], None)] == ["remarks", "block", "sniplet"]
    # Where the first card is a part's place, the parts lead in their order.
    answer = SimpleNamespace(results=(block, remarks, sniplet), type="compare")
    assert [p.where for p in present.places(answer, [], None)][:2] == ["block", "sniplet"]
