"""Models as services, against real servers on loopback: llama-cpp-python's own server with the
small test GGUF runs every use of the model (streaming, JSON, the verify agent, the query terms,
the interview's wording, the short answer) and the embeddings; the faults are real too: a
port nobody listens on, a server too slow for its time limit, one killed mid-answer, and a
small HTTP server on loopback that answers 503 or nonsense. No reranker installs here: the
rerank client meets the real server's refusal of /v1/rerank, and its reading of the two
answer forms is checked against that small HTTP server (docs/deployment.md says so).
"""

import json
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

import llm
from llm import service as services
from llm.runtime import _cache
from tests.model_server import Server, free_port, gguf

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

SCHEMA = {"type": "object", "properties": {"n": {"enum": [1, 2, 3]}}, "required": ["n"]}


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    return gguf(tmp_path_factory.mktemp("gguf"))


@pytest.fixture(scope="module")
def chat_server(model_file, tmp_path_factory):
    server = Server(model_file, tmp_path_factory.mktemp("chat") / "server.log")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def embed_server(model_file, tmp_path_factory):
    server = Server(model_file, tmp_path_factory.mktemp("embed") / "server.log", embedding=True)
    yield server
    server.stop()


@pytest.fixture
def private(model_file, tmp_path):
    """Return a function starting a server of the test's own, stopped when the test ends."""
    started = []

    def start(name, **options):
        started.append(Server(model_file, tmp_path / f"{name}.log", **options))
        return started[-1]

    yield start
    for server in started:
        server.stop()


@pytest.fixture(autouse=True)
def fresh_services(settings):
    """Each test's own clients and rests; quick rests, so a test sees the next try."""
    settings.LIBRARIAN_SERVED_RETRY_SECONDS = 0.2
    _cache.clear()
    services.forget()
    yield
    _cache.clear()
    services.forget()


@pytest.fixture
def served(settings, chat_server):
    """Point the language model at the chat server; return the loaded ServedModel."""
    settings.LIBRARIAN_LLM_URL = chat_server.url + "/v1"
    return llm.load()


def ask(model, question="How many sails does a sloop have? Answer in JSON.", **limits):
    return llm.ask(model, [{"role": "user", "content": question}], SCHEMA,
                   max_tokens=limits.get("max_tokens", 30), timeout=limits.get("timeout", 60))


# -- every use of the model through the server -------------------------------------------


def test_a_json_answer_comes_in_the_schema_and_is_checked_by_code(served, chat_server):
    before = chat_server.requests("/v1/chat/completions")
    reply = ask(served)
    assert llm.parse_json(reply.text)["n"] in (1, 2, 3)
    assert reply.prompt_tokens > 0 and 0 < reply.answer_tokens <= 30
    # llama-cpp-python's server refuses OpenAI's json_schema form: json_object is sent instead
    assert served.json_format == "json_object"
    assert chat_server.requests("/v1/chat/completions") == before + 2
    assert not llm.resting()  # a refused form is not the server's failure


def test_the_same_prompt_gives_the_same_answer_at_temperature_zero(served):
    assert ask(served).text == ask(served).text


def test_a_short_answer_streams_through_the_server(served, settings, boats):
    from retrieval.answer import synthesis
    from tests.test_chat import result

    settings.LIBRARIAN_ANSWER_MAX_TOKENS = 24
    pieces = list(synthesis.stream_synthesis("Where is the bowline explained?",
                                             [result(boats, 1), result(boats, 2)], model=served))
    assert len(pieces) > 1 and "".join(pieces).strip()  # piece by piece, as written


def test_every_use_of_the_model_goes_through_the_server(served, settings, chat_server, boats):
    from retrieval import pipeline
    from retrieval.answer import phrasing
    from retrieval.question import suggest

    settings.LIBRARIAN_QUERY_TERMS = "auto"  # a served model is fast: the terms come first
    settings.LIBRARIAN_CLARIFY_MODEL = "auto"
    settings.LIBRARIAN_ANSWER_MODEL = "auto"
    settings.LIBRARIAN_ANSWER_MAX_TOKENS = 24
    settings.LIBRARIAN_CLARIFY_SECONDS = settings.LIBRARIAN_QUERY_TERMS_SECONDS = 60
    assert suggest.when() == suggest.BEFORE and phrasing.enabled()
    before = chat_server.requests("/v1/chat/completions")
    terms = suggest.terms("How do I tie a bowline?")
    worded = phrasing.phrase("How do I tie a knot?", ("1 Knots › 1.1 Bowline",
                                                      "2 Sails › 2.1 Mainsail"), "en")
    parts = pipeline.llm_parts("Compare the bowline with the reef knot")
    answer, _, written = pipeline.answered("Where is the bowline explained?")
    assert isinstance(terms, list) and all(isinstance(term, str) for term in terms)
    assert worded is None or worded.endswith("?")  # code checks it (a base model rarely passes)
    assert all(part in "Compare the bowline with the reef knot" for part in parts)
    assert answer.results and not answer.unavailable
    assert chat_server.requests("/v1/chat/completions") >= before + 5  # the answer's own too


def test_the_verify_agent_asks_the_server_and_code_checks_its_answer(
        settings, chat_server, shelve, tmp_path, monkeypatch):
    from books.models import ReviewFlag
    from indexing.stages import contents
    from tests.pdfs import make_pdf
    from tests.test_verify_stage import PAGES, UP_TO_VERIFY, result
    from indexing.runner import run_pending

    settings.LIBRARIAN_LLM_URL = chat_server.url
    monkeypatch.setattr(contents.toc, "recover", lambda pages, outline=(): result(False))
    before = chat_server.requests("/v1/chat/completions")
    book = shelve(make_pdf(tmp_path / "sails.pdf", PAGES), process=False)
    run_pending("test-worker", stages=UP_TO_VERIFY, book_id=book.pk)
    run = book.stage_runs.get(stage="verify")
    assert run.status == "done" and run.summary.startswith("Asked about 2 of 2")
    assert chat_server.requests("/v1/chat/completions") > before
    for heading in book.headings.filter(number__in=["1.1", "1.2"]):
        if heading.status == "agent":  # only a line that exists on that page could place it
            assert heading.page in (2, 3, 4)
        else:
            assert ReviewFlag.objects.get(heading=heading).agent_reason


# -- the encoder and the reranker as services ------------------------------------------------


def test_the_embeddings_endpoint_encodes_questions_and_passages(settings, embed_server):
    from retrieval.index import embeddings

    settings.LIBRARIAN_EMBED_URL = embed_server.url
    encoder = embeddings.multilingual()
    assert encoder.name == f"served:{embed_server.url}" and encoder.served
    rows = encoder.encode(["The bowline makes a loop.", "もやい結び"])
    assert rows.shape == (2, 640) and np.allclose(np.linalg.norm(rows, axis=1), 1, atol=1e-5)
    again = encoder.encode(["The bowline makes a loop."], query=True)
    assert np.allclose(again[0], encoder.encode(["The bowline makes a loop."], query=True)[0])
    assert not np.allclose(rows[0], rows[1])
    assert embed_server.requests("/v1/embeddings") >= 1


def test_books_embedded_by_another_encoder_are_embedded_again_and_resume(
        settings, embed_server, boats, monkeypatch, private):
    from indexing import runner
    from retrieval.index import embeddings, files, writer
    from retrieval.question.analysed import Question

    assert writer.other_encoders() == []  # built by the CPU encoders
    settings.LIBRARIAN_EMBED_URL = embed_server.url
    settings.LIBRARIAN_ENGLISH_EMBEDDINGS = "none"
    assert writer.other_encoders() == [boats.pk]
    assert runner.requeue_outdated() == 1
    run = boats.stage_runs.get(stage="embed")
    assert run.status == "pending" and "encoder changed" in run.message
    # a private server, killed after the first batch: the build stops, what it made is kept
    first = private("first", embedding=True)
    settings.LIBRARIAN_EMBED_URL = first.url
    settings.LIBRARIAN_EMBED_NAME = "gemma"  # the same model, whatever the URL
    monkeypatch.setattr(writer, "CHECKPOINT_ROWS", 1)
    monkeypatch.setattr(writer, "EMBED_BATCH", 1)
    encoder, calls = embeddings.served_encoder(), []
    real = encoder.encode

    def killed_at_the_third_batch(texts, query=False):
        calls.append(len(texts))
        if len(calls) == 3:
            first.kill()
        return real(texts, query=query)

    monkeypatch.setattr(encoder, "encode", killed_at_the_third_batch)
    with pytest.raises(llm.Unavailable):
        writer.build(boats)
    kept = writer._checkpointed(files.book_dir(boats.pk), embeddings.multilingual())
    assert len(kept) == 2  # the two passages embedded before the server died
    again = private("again", embedding=True, port=first.port)
    time.sleep(0.3)  # past the rest the failure began
    built = writer.build(boats)
    assert built.made == built.passages - 2  # resumed: the two kept are not asked again
    assert again.requests("/v1/embeddings") == built.made + 1  # and the book's profile
    assert writer.other_encoders() == []
    vectors = Question.of("Where is the bowline?").vectors
    assert vectors[embeddings.MULTILINGUAL].shape == (640,)


def test_the_rerank_client_meets_a_server_without_reranking(settings, chat_server, boats):
    from retrieval.question.reading import visible_books
    from retrieval.ranking import rerank
    from retrieval.question.analysed import Question
    from retrieval.ranking.rank import pool
    from retrieval.ranking.shelf import Shelf

    shelf = Shelf(visible_books(None, None))
    question = Question.of("Where is the bowline?")
    scored = pool(question, shelf)
    settings.LIBRARIAN_RERANK_URL = chat_server.url + "/v1/rerank"  # 404 from this server
    assert rerank.reranked(question.text, shelf, scored) == scored
    assert not llm.resting()  # a refused request is a setting to fix, not an outage


# -- faults: what the reader sees ----------------------------------------------------------------


def test_a_server_that_is_down_leaves_the_answer_to_code_and_says_so_once(
        settings, bob, bob_client, boats):
    from tests.test_chat import ask_json, read_stream, stream_url

    settings.LIBRARIAN_LLM_URL = f"http://127.0.0.1:{free_port()}/v1"  # nobody listens
    settings.LIBRARIAN_ANSWER_MODEL = settings.LIBRARIAN_QUERY_TERMS = "on"
    started = time.monotonic()
    data = ask_json(bob_client, "Where is the bowline explained?")
    _, events = read_stream(bob, stream_url(data))
    assert time.monotonic() - started < 30
    names = [name for name, _ in events]
    assert "card" in names and names[-1] == "done" and "writing" not in names
    html = events[names.index("answer")][1]["html"]
    assert html.count("The model server is not answering") == 1
    assert llm.resting(since=started) == ["model"]
    data = ask_json(bob_client, "もやい結びはどこ？")  # a Japanese question: a Japanese note
    _, events = read_stream(bob, stream_url(data))
    assert "モデルサーバーが応答していない" in dict(events)["answer"]["html"]


def test_a_slow_server_is_given_up_on_and_rested_without_hanging(chat_server):
    chat_server.process.send_signal(signal.SIGSTOP)  # it takes connections, never answers
    try:
        model = llm.load(llm.LlmConfig(url=chat_server.url, idle_seconds=0.5, retry_seconds=60))
        started = time.monotonic()
        with pytest.raises(llm.Unavailable, match="no answer in time"):
            ask(model)
        with pytest.raises(llm.Unavailable, match="not asked for 6. s more"):
            ask(model)  # at once, without the network
        assert time.monotonic() - started < 5
    finally:
        chat_server.process.send_signal(signal.SIGCONT)


def test_after_its_rest_a_server_is_asked_again(canned):
    canned.answer = (503, {}, b"overloaded")
    model = llm.load(llm.LlmConfig(url=f"http://127.0.0.1:{canned.server_port}", name="m",
                                   retry_seconds=0.2))
    with pytest.raises(llm.Unavailable):
        ask(model)
    canned.answer = (200, {"content-type": "text/event-stream"},
                     b'data: {"choices": [{"delta": {"content": "{\\"n\\": 3}"}, '
                     b'"finish_reason": "stop"}]}\n\ndata: [DONE]\n\n')
    with pytest.raises(llm.Unavailable, match="not asked"):
        ask(model)
    time.sleep(0.25)
    assert llm.parse_json(ask(model).text) == {"n": 3} and not llm.resting()


def test_a_server_killed_mid_answer_ends_the_answer_and_says_why(settings, private, boats):
    from retrieval.answer import synthesis
    from tests.test_chat import result

    server = private("chat")
    settings.LIBRARIAN_LLM_URL = server.url
    settings.LIBRARIAN_ANSWER_MAX_TOKENS = 200
    pieces = []
    for piece in synthesis.stream_synthesis("Where is the bowline explained?",
                                            [result(boats, 1)], model=llm.load(),
                                            status=(status := {})):
        pieces.append(piece)
        if len(pieces) == 2:
            server.kill()
    assert len(pieces) >= 2 and status["reason"] == "unavailable"
    written = synthesis.written("Where is the bowline explained?", [result(boats, 1)])
    assert written.unavailable and not written.text and written.note == ""


class Canned(BaseHTTPRequestHandler):
    """Answers every POST with the status, headers and body its server was given."""

    def do_POST(self):
        status, headers, body = self.server.answer
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.do_POST()

    def log_message(self, *args):
        pass


@pytest.fixture
def canned():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Canned)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_an_overloaded_server_is_rested_as_long_as_it_asks(canned):
    canned.answer = (503, {"retry-after": "7"}, b"busy")
    model = llm.load(llm.LlmConfig(url=f"http://127.0.0.1:{canned.server_port}", name="m",
                                   retry_seconds=1))
    with pytest.raises(llm.Unavailable) as failed:
        ask(model)
    assert failed.value.retry_in == 7 and 6 < model.service.resting() <= 7


@pytest.mark.parametrize("body", [b"<html>Bad gateway</html>",
                                  b'data: {"object": "nonsense"}\n\n',
                                  b'data: {"choices": [{"delta": {"content": "{"}}]}\n\n'])
def test_a_server_answering_nonsense_is_a_failure(canned, body):
    canned.answer = (200, {"content-type": "text/event-stream"}, body)
    model = llm.load(llm.LlmConfig(url=f"http://127.0.0.1:{canned.server_port}", name="m"))
    with pytest.raises(llm.Unavailable):
        ask(model)
    assert llm.resting() == ["model"]


def test_embeddings_and_rerank_answers_are_checked(canned, settings):
    from llm.encoders import ServedEncoder, ServedReranker
    from llm.service import Endpoint

    url = f"http://127.0.0.1:{canned.server_port}"
    canned.answer = (200, {}, json.dumps({"data": [{"index": 0, "embedding": [1.0, 0.0]}]})
                     .encode())
    with pytest.raises(llm.Unavailable, match="1 vectors"):
        ServedEncoder(Endpoint(url, "e")).encode(["one", "two"])
    reranker = ServedReranker(Endpoint(url + "/rerank", "r"))
    for answer in ([{"index": 1, "score": 0.9}, {"index": 0, "score": 0.1}],  # TEI
                   {"results": [{"index": 0, "relevance_score": 0.1},  # llama.cpp, vLLM
                                {"index": 1, "relevance_score": 0.9}]}):
        canned.answer = (200, {}, json.dumps(answer).encode())
        assert reranker.scores("q", ["a", "b"]) == [0.1, 0.9]
    canned.answer = (200, {}, json.dumps([{"index": 5, "score": 1}]).encode())
    with pytest.raises(llm.Unavailable, match="not one score per text"):
        reranker.scores("q", ["a", "b"])


def test_the_verify_stage_waits_for_a_resting_server_and_says_so(settings):
    from indexing.contract import wait_for_model

    now, notes = [100.0], []

    def progress(done, total, checkpoint=False, note=None):
        if note is not None:
            notes.append(note)

    error = llm.Unavailable("the model server failed: /chat/completions answered 503", 30)
    assert not wait_for_model(error, progress, 1, 4, until=120.0, clock=lambda: now[0],
                              sleep=lambda s: None)
    assert notes == []  # past the stage's time: it goes on without the model
    assert wait_for_model(error, progress, 1, 4, until=200.0, clock=lambda: now[0],
                          sleep=lambda s: now.__setitem__(0, now[0] + s))
    assert notes[0][0][0]["code"] == "run.waiting_model"
    assert notes[0][0][0]["error"].startswith("the model server failed")
    assert notes[-1] == [] and now[0] == 130.0
