"""Fuzz every page and form of the URLconf with hypothesis, as each persona.

The routes come from the resolver and the field names from the templates'
``name="…"`` attributes, so a page or a form added later is fuzzed without
being listed here. Path ids are real ones or any number (huge included);
fields get hostile text and numbers (tests.fuzz.strategies). No answer may
be a server error, and no request may raise. The JSON API has its own fuzz
test (test_api); the Django admin is Django's own and is left out.
"""

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import get_resolver
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.fuzz.conftest import PERSONAS, record
from tests.fuzz.strategies import integers, number_text, text, travels_in_a_url
from tests.test_security import PARAMETER, walk

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {"anonymous": 10, "reader": 45, "librarian": 45}  # per route
SETTINGS = settings(derandomize=True, database=None, deadline=None,
                    phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
SKIPPED = ("api:", "admin:")
FIELD = re.compile(r"""<(?:input|select|textarea|button)\b[^>]*\bname=["']([\w-]+)["']""")
SLUG = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=12)


def form_fields() -> list[str]:
    """Return every field name a template's form sends, and the pager's."""
    names = {"p"}
    for path in (ROOT / "templates").rglob("*.html"):
        names.update(FIELD.findall(path.read_text()))
    return sorted(names - {"csrfmiddlewaretoken"})


ROUTES = sorted({(route, name) for route, name in walk(get_resolver().url_patterns)
                 if not name.startswith(SKIPPED)})
FIELDS = form_fields()


def owner_of(route: str, parameter: str) -> str:
    """Return which object a path parameter names, from where it stands in the route."""
    if parameter == "heading" or route.startswith("review"):
        return "heading"
    if route.startswith("chat/answers"):
        return "answer"
    if route.startswith("chat/"):
        return "conversation"
    return "book"


def path_value(route: str, match, shelf: dict, persona: str):
    """Return a strategy for one path parameter of route: a real id or any that resolves."""
    converter, name = match.group(1), match.group(2) or match.group(3)
    if match.group(3):  # a regex group: (?P<pk>[0-9]+), (?P<action>place|edit|absent|reject)
        pattern = re.search(r"\(\?P<\w+>([^)]*)\)", match.group(0))[1]
        if "|" in pattern:
            return st.sampled_from(pattern.split("|"))
    if converter == "slug":
        return st.one_of(st.sampled_from(["ocr", "thumb", "contents", "index", "large"]), SLUG)
    user = {"librarian": "alice"}.get(persona, "bob")
    real = {"book": shelf["book"], "heading": shelf["heading"],
            "answer": shelf["answers"][user], "conversation": shelf["conversations"][user]}
    known = 1 if name == "number" else real[owner_of(route, name)]
    return st.one_of(st.just(known), integers.map(abs))


def url_strategy(route: str, shelf: dict, persona: str):
    parts = PARAMETER.split(route)  # text, converter, name, regex name, text, …
    matches = list(PARAMETER.finditer(route))
    pieces = [st.just(parts[0])]
    for index, match in enumerate(matches):
        pieces += [path_value(route, match, shelf, persona).map(str), st.just(parts[4 * index + 4])]
    return st.tuples(*pieces).map(lambda bits: "/" + "".join(bits).replace("^", "").replace("$", ""))


value = st.one_of(number_text, text, st.lists(number_text, max_size=3)).map(
    lambda v: [travels_in_a_url(x) for x in v] if isinstance(v, list) else travels_in_a_url(v))
# Each known field is there or not, with a hostile value; one unknown field may come along.
fields = st.tuples(
    st.fixed_dictionaries({}, optional={name: value for name in FIELDS}),
    st.dictionaries(st.text(max_size=10).map(travels_in_a_url), value, max_size=1),
).map(lambda both: {**both[1], **both[0]})


def client_for(persona: str, users: dict) -> Client:
    client = Client()
    if persona in users:
        client.force_login(users[persona])
    return client


def fuzz_route(client, route: str, name: str, persona: str, shelf: dict) -> None:
    methods = ["get"] if name == "logout" else ["get", "post"]  # logging out ends the persona

    @settings(SETTINGS, max_examples=EXAMPLES[persona])
    @given(url=url_strategy(route, shelf, persona), method=st.sampled_from(methods),
           data=fields, htmx=st.booleans())
    def run(url, method, data, htmx):
        headers = {"HX-Request": "true"} if htmx else {}
        response = getattr(client, method)(url, data, headers=headers)
        if response.streaming:
            b"".join(response.streaming_content)
        record(persona, "page and form", response.status_code)
        assert response.status_code < 500, (method, url, data)

    run()


@pytest.mark.parametrize("persona", PERSONAS)
def test_no_page_or_form_answers_500(persona, shelf, alice, bob):
    client = client_for(persona, {"librarian": alice, "reader": bob})
    failures = []
    for route, name in ROUTES:
        try:
            fuzz_route(client, route, name, persona, shelf)
        except Exception as error:  # every failing route is reported, not the first
            failures.append(f"{persona} {name} {route}: {type(error).__name__}: {error}"[:3000])
    assert not failures, "\n\n".join(failures)


def test_every_route_and_field_is_fuzzed():
    names = {name for _, name in ROUTES}
    assert {"shelf", "register", "chat-ask", "clip", "review-decide", "search", "login"} <= names
    assert {"q", "question", "conversation", "book", "start", "end", "page", "level",
            "title"} <= set(FIELDS)
