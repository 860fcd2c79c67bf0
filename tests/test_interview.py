"""The reference interview: one short question, only when close places need telling apart."""

from dataclasses import replace
from types import SimpleNamespace

import pytest

import retrieval
from retrieval.answer import interview
from retrieval.question import followups
from retrieval.ranking.rank import Scored
from retrieval.results import Answer, Clarification, Option, Result
from tests.test_retrieval import embed_each_text_once, no_language_model, shelf  # noqa: F401
from tests.test_retrieval import koukai, sailing  # noqa: F401


def place(book_id, crumbs, score, pages=(10, 11), book="Octave", terms=("pause",)):
    return Result(book_id=book_id, book_title=book, breadcrumb=list(crumbs), heading_id=None,
                  page_start=pages[0], page_end=pages[1], printed_start=str(pages[0] - 5),
                  printed_end=str(pages[1] - 5), excerpt="", terms=list(terms), score=score)


def asked(results, *, language="en", named=None, scope=None, quoted=None, narrowed=False,
          kind="lookup", scored=(), terms=(), translated=(), text="How do I pause my program?"):
    answer = Answer(kind, text, results=tuple(results), language=language)
    reading = SimpleNamespace(named=named or {}, scope=scope, shelf=None)
    question = SimpleNamespace(quoted=quoted or {}, terms=terms, translated=translated)
    gathered = SimpleNamespace(asked=question, scored=list(scored))
    return interview.clarification(answer, reading, gathered, narrowed)


BREAKPOINTS = place(1, ["13 Debugging", "13.3 Breakpoints"], 0.30, (260, 262),
                    terms=("breakpoint", "pause"))
KEYBOARD = place(1, ["13 Debugging", "13.1 Entering Debug Mode"], 0.27, (258, 259),
                 terms=("keyboard", "pause"))
PAUSE = place(1, ["14 Input and Output", "14.1 Basic Input", "14.1.3 Pausing"], 0.26,
              (290, 290), terms=("pause",))


def test_close_places_apart_in_the_book_are_asked_about():
    clarify = asked([BREAKPOINTS, KEYBOARD, PAUSE, place(1, ["2 Getting Started"], 0.05)])
    assert clarify.question.startswith("A few places")
    assert [o.label for o in clarify.options] == [
        "13 Debugging › 13.3 Breakpoints, pp. 255–257",
        "13 Debugging › 13.1 Entering Debug Mode, pp. 253–254",
        "14.1 Basic Input › 14.1.3 Pausing, p. 285"]
    assert [o.why for o in clarify.options] == ["breakpoint", "keyboard", ""]


def test_a_place_well_ahead_is_answered_without_asking():
    assert asked([BREAKPOINTS, place(1, ["2 Getting Started"], 0.12)]) is None


def scored(key, score, words, multilingual, english=None):
    meaning = {"multilingual": multilingual, **({"english": english} if english is not None else {})}
    return Scored(1, key, score, words, meaning)


def test_signals_that_agree_on_the_first_place_need_no_question():
    # The words and the English encoder put Breakpoints first; only the multilingual does not.
    agreed = [scored(1, 0.30, 9.0, 0.50, 0.61), scored(2, 0.27, 4.0, 0.55, 0.52)]
    assert interview.agreeing(agreed) == 2
    assert asked([BREAKPOINTS, KEYBOARD], scored=agreed) is None


def test_signals_that_disagree_ask_about_the_close_places():
    split = [scored(1, 0.30, 9.0, 0.50, 0.51), scored(2, 0.27, 4.0, 0.55, 0.52)]
    assert interview.agreeing(split) == 1
    assert [o.place for o in asked([BREAKPOINTS, KEYBOARD], scored=split).options] == [
        BREAKPOINTS, KEYBOARD]


def test_words_no_section_holds_are_no_signal():
    # A Japanese question: two signals, of which the words found nothing.
    assert interview.agreeing([scored(1, 0.3, 0.0, 0.5), scored(2, 0.2, 0.0, 0.4)]) == 1
    assert interview.agreeing([]) == 0


def test_a_section_and_its_own_subsection_are_one_place():
    chapter = place(1, ["13 Debugging"], 0.3, (253, 270))
    assert asked([chapter, BREAKPOINTS]) is None


def test_places_in_two_books_name_their_books_in_japanese():
    other = place(2, ["第3章 デバッグ", "3.2 一時停止"], 0.29, (40, 41), book="Maxima 入門",
                  terms=("一時停止",))
    clarify = asked([BREAKPOINTS, other], language="ja")
    assert clarify.question == interview.QUESTION["ja"][2]
    assert clarify.options[1].label == "『Maxima 入門』第3章 デバッグ › 3.2 一時停止（35–36ページ）"


@pytest.mark.parametrize("why", [
    {"named": {1: 1.0}},  # "in the Octave manual"
    {"scope": object()},  # "in the chapter on debugging"
    {"quoted": {(1, 3): 0.9}},  # a sentence copied from a section
    {"narrowed": True},  # a follow-up that narrows
    {"kind": "range"},  # a whole chapter asked for
])
def test_a_question_that_names_its_place_is_never_asked_about(why):
    assert asked([BREAKPOINTS, KEYBOARD], **why) is None


OPTIONS = [{"book_id": 1, "heading_id": 10, "page_start": 260, "page_end": 262,
            "label": "13 Debugging › 13.3 Breakpoints, pp. 255–257", "book_title": "GNU Octave"},
           {"book_id": 2, "heading_id": 20, "page_start": 40, "page_end": 41,
            "label": "Maxima: Input › keyboard, p. 35", "book_title": "Maxima"}]
CONTEXT = {"question": "How do I pause?", "options": OPTIONS, "book_ids": None}


@pytest.mark.parametrize("reply,heading", [
    ("2", 20), ("the second one", 20), ("2番目", 20), ("二番目の方", 20), ("1", 10),
    ("the debugger one", 10), ("Octave の方", 10), ("the Maxima one", 20),
    ("13 Debugging › 13.3 Breakpoints, pp. 255–257", 10),
])
def test_a_reply_chooses_one_of_the_places_asked_about(reply, heading):
    chosen = followups.follow_up(reply, CONTEXT, {1: "GNU Octave", 2: "Maxima"})
    assert chosen.choice["heading_id"] == heading and chosen.question == "How do I pause?"


@pytest.mark.parametrize("reply", ["none of these", "Neither", "どれでもない"])
def test_none_of_these_widens_the_search(reply):
    wider = followups.follow_up(reply, CONTEXT, {1: "GNU Octave", 2: "Maxima"})
    assert wider.exclude_previous and wider.choice is None


def test_a_new_question_is_no_reply():
    again = followups.follow_up("How do I plot a histogram?", CONTEXT, {1: "A", 2: "B"})
    assert again.choice is None and again.question == "How do I plot a histogram?"


@pytest.mark.django_db
def test_choosing_an_option_answers_with_that_place(shelf):
    sailing = shelf[0]
    jib = retrieval.ask("What is a jib?", book_ids=[sailing.pk]).results[0]
    options = [{"book_id": sailing.pk, "heading_id": jib.heading_id, "page_start": jib.page_start,
                "page_end": jib.page_end, "label": "1 Sails › 1.2 Jib, p. 2",
                "book_title": sailing.title}]
    answer = retrieval.ask("1", context={"question": "Which sail?", "options": options})
    assert [r.breadcrumb[-1] for r in answer.results] == ["1.2 Jib"]
    assert answer.clarify is None and answer.guide


def test_the_answer_keeps_its_options_for_the_reply():
    clarify = Clarification("Which one?", (Option(BREAKPOINTS, "Breakpoints", "breakpoint"),
                                           Option(KEYBOARD, "Debug mode", "keyboard")))
    answer = Answer("lookup", "q", results=(BREAKPOINTS, KEYBOARD), clarify=clarify)
    assert [o["label"] for o in answer.context()["options"]] == ["Breakpoints", "Debug mode"]
    assert Answer("lookup", "q").context()["options"] == []


def test_an_option_is_named_by_telling_words_each_once():
    variables = place(1, ["7 Variables", "7.1 Global Variables"], 0.3, (139, 140),
                      terms=("variables", "function", "variable", "Variables"))
    persistent = place(1, ["7 Variables", "7.2 Persistent Variables"], 0.29, (140, 142),
                       terms=("make", "variables", "inspect"))
    clarify = asked([variables, persistent])
    assert [o.why for o in clarify.options] == ["function", "inspect"]
    files = replace(persistent, terms=["package", "inspect", "PACKAGE", "Inspect"])
    assert [o.why for o in asked([variables, files]).options] == [
        "variables, function", "package, inspect"]


def test_a_translation_tells_a_place_apart_only_where_it_holds_none_of_the_readers_words():
    # 「アーキテクチャで動かない」: a Japanese place matching the translation "architecture"
    # is not told apart by an English word the reader never wrote; an English book's is.
    porting = place(2, ["5.10 移植作業", "5.10.4 移植可能なものではない場合"], 0.3, terms=(
        "アーキテクチャ", "動か"))
    data = place(2, ["6.8 一般的なシチュエーション", "6.8.5 アーキテクチャ非依存のデータ"], 0.29,
                 (90, 91), terms=("アーキテクチャ", "architecture"))
    faq = place(3, ["7 Basics", "7.5 Ports"], 0.28, (30, 31), book="FAQ",
                terms=("architectures", "ports"))
    clarify = asked([porting, data, faq], language="ja", terms=("アーキテクチャ", "動く"),
                    translated=("architecture", "port"), text="このアーキテクチャで動かないのはなぜ？")
    assert [o.why for o in clarify.options] == ["動く", "", "ports"]


def test_a_japanese_option_shows_the_readers_own_words():
    # Sudachi reads アップストリーム as アップ and ストリーム, and the place marks 変え of
    # 変えずに: the reader wrote アップストリーム, and reads 変える.
    text = "アップストリームのソースは変えずに新しいリビジョンを出すには？"
    revision = place(5, ["8 パッケージの更新", "8.1 Debian リビジョンの更新"], 0.3,
                     terms=("リビジョン", "新しい"))
    upstream = replace(place(5, ["8 パッケージの更新", "8.3 アップストリームソフトウェアの新版更新"],
                             0.29, (58, 59), terms=("アップ", "ストリーム", "変え")),
                       excerpt="アップストリームソフトウェアのソースを変えずに取り込む。")
    clarify = asked([revision, upstream], language="ja", text=text,
                    terms=("アップストリーム", "ソース", "変える", "新しい", "リビジョン"))
    assert [o.why for o in clarify.options] == ["リビジョン、新しい", "アップストリーム、変える"]


def test_an_english_word_in_parts_is_shown_as_the_reader_wrote_it():
    # The marks of a place are "tar" and "gz" where its text says .tar.gz.
    text = "I downloaded an Octave add-on as a .tar.gz file. How do I install it?"
    packages = place(1, ["37 Packages", "37.1 Installing and Removing Packages"], 0.3,
                     terms=("file", "tar", "gz", "installed"))
    help_ = place(1, ["Appendix D Known Causes of Trouble", "D.3 How To Get Help"], 0.29,
                  (1082, 1082), terms=("Octave", "installing"))
    clarify = asked([packages, help_], text=text, terms=("download", "octav", "tar.gz", "file"))
    assert [o.why for o in clarify.options] == ["file, tar.gz", "Octave"]


def test_words_the_reader_wrote_together_are_shown_together_where_each_tells():
    # Sudachi reads 数式記号 as 数式 and 記号. Where the other place holds 記号 too, only
    # 数式 tells the first apart, and 数式 alone is shown.
    text = "数式記号の一覧はどこ？"
    symbols = place(4, ["第3章 数式の組版", "3.4 数式記号"], 0.3, terms=("数式", "記号"))
    listing = place(4, ["第2章 テキストの組版", "2.3 一覧"], 0.29, (30, 31), terms=("一覧",))
    clarify = asked([symbols, listing], language="ja", text=text, terms=("数式", "記号", "一覧"))
    assert [o.why for o in clarify.options] == ["数式記号", "一覧"]
    rights = place(5, ["4 debian/", "4.2 copyright"], 0.3, terms=("著作権", "著作", "ファイル"))
    clarify = asked([rights, listing], language="ja", text="著作権者はどのファイルに書く？",
                    terms=("著作権", "著作", "ファイル"))
    assert clarify.options[0].why == "著作権、ファイル"  # 著作 is a part of the word shown
    marks = replace(listing, terms=["記号", "一覧"])
    clarify = asked([symbols, marks], language="ja", text=text, terms=("数式", "記号", "一覧"))
    assert [o.why for o in clarify.options] == ["数式", "一覧"]


def test_once_asking_a_third_place_not_quite_as_close_is_offered_too():
    third = replace(PAUSE, score=0.06)  # over OFFERED, under CLOSE, of the first's 0.30
    clarify = asked([BREAKPOINTS, KEYBOARD, third])
    assert [o.place for o in clarify.options] == [BREAKPOINTS, KEYBOARD, third]
    assert asked([BREAKPOINTS, replace(KEYBOARD, score=0.12), third]) is None  # not close
    assert len(asked([BREAKPOINTS, KEYBOARD, replace(PAUSE, score=0.02)]).options) == 2


class WordingModel:
    """A local model that words the librarian's question as a test says (reply), or fails."""

    def __init__(self, reply="", fail=None):
        self.reply, self.fail, self.asked = reply, fail, []

    def count_tokens(self, messages):
        return sum(len(message["content"].split()) for message in messages)

    def create_chat_completion(self, messages, stream, **options):
        self.asked.append(messages)
        if self.fail:
            raise self.fail
        yield {"choices": [{"delta": {"content": self.reply}, "finish_reason": "stop"}]}


@pytest.fixture
def wording(settings, monkeypatch):
    """Switch the model's wording on, with the model a test sets (model.reply)."""
    import llm
    from retrieval.answer import phrasing

    settings.LIBRARIAN_LLM_MODEL, settings.LIBRARIAN_CLARIFY_MODEL = "embedded", "on"
    model = WordingModel()
    monkeypatch.setattr(llm, "load", lambda: model)
    phrasing._worded.cache_clear()
    yield model
    phrasing._worded.cache_clear()


def test_the_model_may_word_the_question_naming_what_tells_the_places_apart(wording):
    wording.reply = "Do you mean stopping at a breakpoint, or the keyboard pause in debug mode?"
    clarify = asked([BREAKPOINTS, KEYBOARD])
    assert clarify.question == wording.reply
    assert [o.place for o in clarify.options] == [BREAKPOINTS, KEYBOARD]  # chosen by code
    request = wording.asked[0][-1]["content"]
    assert "How do I pause my program?" in request
    assert "13 Debugging › 13.3 Breakpoints, pp. 255–257 — breakpoint" in request


@pytest.mark.parametrize("reply", [
    "Do you mean Breakpoints on page 312, or the keyboard pause?",  # a page it made up
    "Breakpoints or the keyboard pause.",  # not a question
    "Do you mean breakpoints?\nOr the keyboard pause?",  # more than one line
    "How can I make my program wait for a while?",  # the question again: no place named
    "Do you mean the breakpoints in the debugger?",  # one place named
    "ブレークポイントのことですか、それともキーボードのことですか？",  # not the reader's language
    "",
])
def test_a_wording_that_fails_a_check_gives_way_to_the_fixed_question(wording, reply):
    wording.reply = reply
    assert asked([BREAKPOINTS, KEYBOARD]).question == interview.QUESTION["en"][2]


def test_a_failing_model_or_one_switched_off_leaves_the_fixed_question(wording, settings):
    import llm

    wording.fail = llm.LlmError("out of memory")
    assert asked([BREAKPOINTS, KEYBOARD]).question == interview.QUESTION["en"][2]
    wording.fail, wording.reply = None, "Do you mean breakpoints, or the keyboard pause?"
    settings.LIBRARIAN_CLARIFY_MODEL = "off"
    calls = len(wording.asked)
    assert asked([BREAKPOINTS, KEYBOARD]).question == interview.QUESTION["en"][2]
    assert len(wording.asked) == calls  # never asked


def test_a_wording_is_in_the_readers_language_though_it_names_the_books_headings():
    from retrieval.answer import phrasing

    labels = ("8 パッケージの更新 › 8.1 Debian リビジョンの更新（51–52ページ）",
              "6.8.8 .orig.tar.{gz,bz2,xz} › 6.8.8.2 upstream のソースをパッケージしなおす（92–93ページ）")
    ja = "Debian リビジョンの更新のことですか、それとも upstream のソースをパッケージしなおすことですか？"
    assert phrasing.acceptable(ja, "新しいリビジョンを出すには？", labels, "ja")
    assert not phrasing.acceptable("Do you mean the revision update?", "質問", labels, "ja")
    en = "Do you mean 8.1 Debian リビジョンの更新, or packaging the upstream source again?"
    assert phrasing.acceptable(en, "How do I make a new revision?", labels, "en")
    assert not phrasing.acceptable("Do you mean 改訂, or repacking?", "How?", labels, "en")
    # The question again: its words are in the headings, but they name no place apart.
    porting = ("5.10 移植作業 › 5.10.4 あなたのパッケージが移植可能なものではない場合（56ページ）",
               "6.8 一般的なシチュエーション › 6.8.5 アーキテクチャ非依存のデータ（91ページ）")
    again = "パッケージが一部のアーキテクチャでは動かない場合、どう対処すればいいですか？"
    assert not phrasing.acceptable(
        again, "自分のパッケージが一部のアーキテクチャで動かない場合、どう扱えばいい？", porting, "ja")


def test_asked_one_word_the_librarian_offers_the_chapter_it_names_not_its_sections():
    # 「インストールについて」: beamer's chapter "2 Installation" before its "2.4 Updating …"
    updating = place(2, ["I Getting Started", "2 Installation", "2.4 Updating the Installation"],
                     0.30, (14, 14), book="beamer")
    testing = place(2, ["I Getting Started", "2 Installation", "2.5 Testing the Installation"],
                    0.28, (14, 14), book="beamer")
    chapter = place(2, ["I Getting Started", "2 Installation"], 0.2, (13, 18), book="beamer")
    other = place(3, ["5 debian", "5.11 install"], 0.29, (42, 42), book="maint-ja")
    results = [updating, other, testing, chapter]
    labels = [o.label for o in asked(results, terms=["instal"]).options]
    assert labels == ["beamer: I Getting Started › 2 Installation, pp. 8–13",
                      "maint-ja: 5 debian › 5.11 install, p. 37"]
    # asked in more words, the places themselves are offered
    labels = [o.label for o in asked(results, terms=["instal", "updat"]).options]
    assert labels[0].startswith("beamer: 2 Installation › 2.4 Updating")


def test_a_window_of_pages_no_heading_covers_is_told_by_its_printed_pages_alone():
    # Front matter whose preface heading OCR lost: the window's PDF pages 60-61 are
    # printed lx-lxi. Its label once read "pp. 60–61, pp. lx–lxi".
    from retrieval.answer import guide
    from retrieval.answer.present import _breadcrumb
    from retrieval.index.chunks import page_windows

    window = page_windows({60: ["Of the Jesuits."], 61: ["Their doctrine."]}, [60, 61])[0]
    assert _breadcrumb(window) == []
    front = replace(place(1, _breadcrumb(window), 0.3, (60, 61), book="Provincial Letters"),
                    printed_start="lx", printed_end="lxi")
    assert interview.label(front, False, False) == "pp. lx–lxi"
    assert interview.label(front, True, True) == "『Provincial Letters』lx–lxiページ"
    assert guide._short(front, False, {}) == "Provincial Letters, pp. lx–lxi"
    assert guide._place(front, False, {}, False)[0] == "Provincial Letters, pp. lx–lxi"
    assert interview.label(BREAKPOINTS, False, False) == (
        "13 Debugging › 13.3 Breakpoints, pp. 255–257")
