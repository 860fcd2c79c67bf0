"""Fuzz every operation of the OpenAPI schema with schemathesis, as each persona.

The operations come from the schema django-ninja serves, so an endpoint added
later is fuzzed without being listed here. Each operation gets data that fits
its schema (with the ids of real books and headings, and with any ids) and
data that does not, and half of its values are swapped for hostile ones
(tests.fuzz.strategies: NUL, surrogates, odd digits, huge integers, wrong
shapes, very long strings); every answer must be below 500 and, where the schema
describes it, match it. Seeded (derandomized) and bounded: the same cases run
every time, in about a minute.
"""

from contextlib import contextmanager

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from librarian.api import api
from tests.fuzz.conftest import COUNTS, PERSONAS, basic_auth, record
from tests.fuzz.strategies import make_nastier

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

# Examples per operation; an anonymous request is refused before its input is read.
EXAMPLES = {"anonymous": {"real ids": 10, "any ids": 10, "invalid": 10},
            "reader": {"real ids": 40, "any ids": 20, "invalid": 30},
            "librarian": {"real ids": 40, "any ids": 20, "invalid": 30}}
CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance,
          content_type_conformance]
SETTINGS = settings(max_examples=1, derandomize=True, database=None, deadline=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=list(HealthCheck))


def load_schema():
    schema = schemathesis.openapi.from_dict(api.get_openapi_schema(path_prefix="/api/"))
    schema.app = get_wsgi_application()
    return schema


SCHEMA = load_schema()
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]


@contextmanager
def one_connection():
    """Keep Django from closing the test's connection between requests (as its test client does)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def real_ids(operation, shelf) -> dict:
    known = {"book_id": shelf["book"], "heading_id": shelf["heading"], "stage": "ocr",
             "number": 1}
    return {p.name: known[p.name] for p in operation.path_parameters if p.name in known}


def strategies(operation, shelf):
    yield "real ids", operation.as_strategy(path_parameters=real_ids(operation, shelf))
    yield "any ids", operation.as_strategy()
    yield "invalid", operation.as_strategy(generation_mode=GenerationMode.NEGATIVE)


def fuzz(operation, strategy, examples: int, persona: str) -> None:
    headers = basic_auth(persona)

    @settings(SETTINGS, max_examples=examples)
    @given(case=strategy, data=st.data())
    def run(case, data):
        make_nastier(case, data)
        response = case.call(headers=headers)
        record(persona, "api", response.status_code)
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except BaseException:
            COUNTS[persona]["failed checks (5xx or off the schema)"] += 1
            raise

    run()


@pytest.mark.parametrize("persona", PERSONAS)
def test_no_operation_answers_500_or_off_its_schema(persona, shelf):
    failures = []
    with one_connection():
        for operation in OPERATIONS:
            for kind, strategy in strategies(operation, shelf):
                try:
                    fuzz(operation, strategy, EXAMPLES[persona][kind], persona)
                except (Exception, BaseExceptionGroup) as error:  # report all, not the first
                    failures.append(f"{persona} {operation.label} ({kind}): {error}"[:3000])
    assert not failures, "\n\n".join(failures)
