from toc.furniture import furniture
from tests.toc.pages import line, page, vertical_page


def running(number, head, folio=True, lines=20, first=None):
    """Return a page with head (a string, or (text, x0) boxes on one baseline) at the top,
    set apart from the text, and its folio at the foot."""
    boxes = [(head, 72)] if isinstance(head, str) else head
    made = page(number, ([first] if first else []) + [f"Text of page {number}, line {i}."
                                                      for i in range(lines)],
                folio=number if folio else None)
    made["lines"] = [line(text, x0, 40) for text, x0 in boxes] + made["lines"]
    return made


def texts(pages, found):
    return {p["number"]: sorted(p["lines"][i]["text"] for row in found.get(p["number"], ())
                                for i in row) for p in pages}


def test_a_running_head_and_the_folio_are_furniture_and_the_text_is_not():
    pages = [running(n, "The Sailing Handbook") for n in range(1, 7)]
    found = texts(pages, furniture(pages))
    assert all(found[n] == sorted(["The Sailing Handbook", str(n)]) for n in range(1, 7))


def test_a_chapter_head_beside_the_changing_section_title_goes_with_it():
    sections = ["6.5 What does testing mean?", "6.7 Where are the archives?", "6.11 Incoming",
                "7.1 What is a package?", "7.3 Why are the names long?"]
    pages = [running(n, [("CHAPTER 6. THE ARCHIVES" if n < 4 else "CHAPTER 7. PACKAGES", 72),
                         (section, 380)], folio=False)
             for n, section in enumerate(sections, start=1)]
    found = furniture(pages)
    # Chapter 7's head stands on two pages only: not yet a running head.
    assert [found.get(n) for n in range(1, 6)] == [[(0, 1)], [(0, 1)], [(0, 1)], None, None]


def test_text_that_opens_several_pages_is_not_furniture():
    pages = [page(n, ["<environment contents>"] + [f"Text {chr(96 + n)}, line {i}." for i in range(20)])
             for n in range(1, 6)]
    for made in pages:  # the text starts in the top band, with no head above it
        for item in made["lines"]:
            item["box"][1] -= 55
            item["box"][3] -= 55
    assert furniture(pages) == {}


def test_a_heading_that_opens_a_page_is_not_furniture_however_often_it_looks_alike():
    pages = [running(n, "The Sailing Handbook", first=f"Chapter {n}") for n in range(1, 5)]
    found = texts(pages, furniture(pages))
    assert all(f"Chapter {n}" not in found[n] for n in range(1, 5))


def test_the_columns_of_a_vertical_page_are_never_furniture():
    pages = [vertical_page(n, [("はじめに", "1", 0), ("第一章", "3", 0), ("あとがき", "9", 0)])
             for n in range(1, 5)]
    found = furniture(pages)
    assert all(made["lines"][i].get("dir") != "v" for made in pages
               for row in found.get(made["number"], ()) for i in row)


def with_notes(number, notes, size=8.0, pitch=10.0, mark_gap=6.0):
    """Return a page of 30 rows of text set 10 points high, 14 apart, then notes at its
    foot: rows of the given height and pitch."""
    made = page(number, [f"Text of page {number}, line {i}, and what it says." for i in range(30)],
                folio=number)
    y = 90 + 30 * 14 + mark_gap
    for text in notes:
        made["lines"].append(line(text, 72, y, 500, height=size))
        y += pitch
    return made


def test_notes_at_the_page_s_foot_in_small_type_are_set_apart_from_the_text():
    """Eugenics p. 100: "…combined with" runs on to the next page, not into "* Address to a
    meeting of the Eugenics Education Society"."""
    notes = ["* Address to a meeting of the Eugenics Education Society", "at the Grafton "
             "Galleries, on October 14th, 1908.", "† Read before the Sociological Society."]
    pages = [with_notes(n, notes) for n in range(1, 5)]
    found = texts(pages, furniture(pages))
    assert all(set(notes) <= set(found[n]) for n in range(1, 5))
    assert not any(text.startswith("Text of page") for n in found for text in found[n])


def test_a_list_or_a_line_of_the_text_at_the_foot_is_no_note():
    bullets = ["• armel: little-endian ARM machines.", "• amd64: 64-bit PC machines."]
    starred = ["* This line is set as the text is, at its spacing.",
               "and goes on as the text does."]
    pages = [with_notes(1, bullets), with_notes(2, starred, size=10.0, pitch=14.0),
             with_notes(3, ["(2) It has considered plans to adulterate Vitamin D"], size=10.0)]
    found = texts(pages, furniture(pages))
    assert all(found[n] == [str(n)] for n in range(1, 4))  # the folios alone
