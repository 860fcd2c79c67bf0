"""Read LIBRARIAN_* settings from the environment, rejecting bad values loudly.

``librarian/settings.py`` reads each variable once, through the ``env_*``
helpers; the rest of the code asks for the value it read with ``setting(name)``,
so every setting is named in one of these calls (``tests/test_imports.py`` lists
the modules that still read ``settings.LIBRARIAN_*`` themselves). Every
variable is listed in docs/settings.md (``tests/test_settings_docs.py`` checks
both ways).
"""

import os
import re
import secrets
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

PREFIX = "LIBRARIAN_"
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def _raw(name: str) -> str | None:
    value = os.environ.get(PREFIX + name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def _bad(name: str, value: str, expected: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"{PREFIX}{name}={value!r} is not valid: expected {expected}.")


def setting(name: str):
    """Return the value of LIBRARIAN_<name> as librarian/settings.py read it (or a test set it).

    Read when called, never at import time.
    """
    return getattr(settings, PREFIX + name)


def env_secret(name: str) -> str:
    """Return the variable as given, spaces kept (a password), or "" when unset or blank.

    Read when called (a command that needs it), not kept in Django's settings.
    """
    return os.environ.get(PREFIX + name, "") if _raw(name) is not None else ""


def env_str(name: str, default: str = "") -> str:
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in TRUE_WORDS:
        return True
    if value.lower() in FALSE_WORDS:
        return False
    raise _bad(name, value, "one of " + ", ".join(sorted(TRUE_WORDS | FALSE_WORDS)))


def _number(name: str, default, parse, minimum, maximum, kind: str):
    value = _raw(name)
    if value is None:
        return default
    expected = f"{kind} from {minimum} to {maximum}"
    try:
        number = parse(value)
    except ValueError:
        raise _bad(name, value, expected) from None
    if not minimum <= number <= maximum:
        raise _bad(name, value, expected)
    return number


def env_int(name: str, default: int, *, minimum: int, maximum: int) -> int:
    return _number(name, default, int, minimum, maximum, "a whole number")


def env_float(name: str, default: float, *, minimum: float, maximum: float) -> float:
    return _number(name, default, float, minimum, maximum, "a number")


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = _raw(name)
    if value is None:
        return default
    if value not in choices:
        raise _bad(name, value, "one of " + ", ".join(choices))
    return value


def env_pattern(name: str, default: str, pattern: str, expected: str) -> str:
    """Return the setting if the whole of it matches pattern (say, a device like gpu:0)."""
    value = _raw(name)
    if value is None:
        return default
    if not re.fullmatch(pattern, value):
        raise _bad(name, value, expected)
    return value


def env_model(name: str, default: str, choices: tuple[str, ...]) -> str:
    """Return one of choices, or a "package.module:factory" path (checked for its shape only:
    importing it is the model loader's job)."""
    value = _raw(name)
    if value is None:
        return default
    module, colon, attribute = value.partition(":")
    factory = colon and all(part.isidentifier() for part in module.split(".")) and attribute.isidentifier()
    if value not in choices and not factory:
        raise _bad(name, value, "one of " + ", ".join(choices) + " or package.module:factory")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_path(name: str, default: Path) -> Path:
    value = _raw(name)
    return (Path(value).expanduser() if value else default).resolve()


def cpu_count() -> int:
    """Return the cores this process may run on (its affinity, not the machine's total)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_workers(cores: int | None = None) -> int:
    """Return how many books the embedded worker reads at once unless told: one a core, at
    least two (one book's page reading and database writes overlap another's embedding),
    at most four (threads of one process share its interpreter lock; more books at once
    are for ``runworker`` processes: docs/settings-workers.md)."""
    return min(max(2, cores or cpu_count()), 4)


def secret_key(data_dir: Path) -> str:
    """Return LIBRARIAN_SECRET_KEY, or a key generated once and kept in the data directory."""
    value = _raw("SECRET_KEY")
    if value is not None:
        if len(value) < 32:
            raise _bad("SECRET_KEY", "…", "at least 32 characters")
        return value
    path = data_dir / "secret_key"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process created it first
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_urlsafe(50))
    return path.read_text().strip()
