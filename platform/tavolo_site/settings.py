"""Django settings for the Tavolo site, read from the environment (12-factor).

Every integration is configured in one place below, from environment variables
read through the typed helpers of `tavolo_site.env` (each may also be given as
``NAME_FILE``, a file that holds the value: the way to pass secrets). With nothing set, the site
runs on one machine with no server besides itself: a SQLite file, a filesystem
message queue and replays on disk, all under ``TAVOLO_DATA_DIR``.
"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

import arena.viewing
from arena.logs import LOG_FORMATS, logging_config
from arena.ratings import DEFAULT_SYSTEM, SYSTEMS
from tavolo_site.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_networks,
    env_path,
    env_port,
    env_str,
)

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = env_path("TAVOLO_DATA_DIR", "./tavolo-data")

# --- Core -------------------------------------------------------------------------------------
DEBUG = env_bool("DEBUG")
TESTING = "pytest" in sys.modules
CHECKING_TYPES = "mypy" in sys.modules
"""mypy's Django plugin imports these settings to learn the models; it needs no secret key."""
SECRET_KEY = env_str(
    "SECRET_KEY", "insecure-development-key" if DEBUG or TESTING or CHECKING_TYPES else None
)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
if env_bool("TAVOLO_HTTPS"):
    # Behind a reverse proxy that ends TLS and sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True  # a request the proxy passed on as plain http is sent to https
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("TAVOLO_HSTS_SECONDS", 0, minimum=0)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_prometheus",
    "accounts",
    "ladders",
    "bots",
    "matches",
    "ranked",
    "qualification",
    "tournaments",
    "api",
    "web",
    "tavolo_site",  # its operator commands: manage.py tavolo_health
]

MIDDLEWARE = [
    "tavolo_site.request_id.RequestIdMiddleware",
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "tavolo_site.operations.OperationsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "tavolo_site.middleware.MultipartSizeLimitMiddleware",
    "tavolo_site.nul_bytes.NulByteRefusalMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A kept visitor page, answered before the session, CSRF, auth and messages (web.caching).
    "web.visitor_copies.VisitorCopyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "accounts.trust.DeviceCookieMiddleware",  # the cookie a log-in gave this device
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tavolo_site.throttling.AnonymousReadThrottleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "tavolo_site.urls"
WSGI_APPLICATION = "tavolo_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "/accounts/login/"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

# Content-Security-Policy: scripts, styles and images from the site itself only, so text a
# user wrote can never run as a script. Pages keep no inline script or style attribute.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Request bodies: a bot file is at most bots.checks.MAX_SOURCE_BYTES (256 KiB). A JSON body may
# be larger than its source text (escapes), so fields get 1 MiB; multipart bodies are capped by
# tavolo_site.middleware, and an uploaded file over 256 KiB is spooled to disk, never held in
# memory (a file over the bot limit is then refused by its size, unread).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

# --- Database: DATABASE_URL, else a SQLite file in the data dir ---------------------------------
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{DATA_DIR / 'tavolo.sqlite3'}"),
        conn_max_age=60,
        # A kept connection is tested before a request reuses it: one the server dropped or
        # terminated is replaced instead of failing that request.
        conn_health_checks=True,
    )
}
# django-prometheus's wrappers of the same engines count queries and errors for /metrics.
DATABASES["default"]["ENGINE"] = DATABASES["default"]["ENGINE"].replace(
    "django.db.backends.", "django_prometheus.db.backends.", 1
)
if DATABASES["default"]["ENGINE"].endswith(".sqlite3"):
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # The web server, the worker and the scheduler share one file: take the write lock at the
    # start of each transaction and wait for it, instead of failing on "database is locked".
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

# --- Redis: the message broker and the cache when REDIS_URL is set ------------------------------
REDIS_URL = env_str("REDIS_URL", "")
# With Redis, "default" falls back to each process's memory while Redis is down; "strict"
# (password guesses) fails instead, and such requests get a 503 (tavolo_site.cache).
if REDIS_URL:
    REDIS_TIMEOUTS = {"socket_connect_timeout": 1, "socket_timeout": 2}
    CACHES = {
        "default": {
            "BACKEND": "tavolo_site.cache.FallbackRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": REDIS_TIMEOUTS,
        },
        "strict": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": REDIS_TIMEOUTS,
        },
    }
else:
    # Without Redis, files in the data folder that every process of the site shares: one
    # budget of reads, sign-ups and password guesses for all of them (tavolo_site.file_cache).
    CACHES = {
        alias: {
            "BACKEND": "tavolo_site.file_cache.SharedFileCache",
            "LOCATION": str(DATA_DIR / "cache" / alias),
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
        for alias in ("default", "strict")
    }
# How long a public page (ladder, bot, match list, match) is served to visitors not signed in
# from one rendering of it; 0 renders every request (web.caching).
TAVOLO_PAGE_CACHE_SECONDS = env_int("TAVOLO_PAGE_CACHE_SECONDS", 10, minimum=0)
# How long a match is played before spectators can follow it (matches.live).
TAVOLO_LIVE_AFTER_MS = env_int("TAVOLO_LIVE_AFTER_MS", 300, minimum=0)

# --- Files: replays and bot logs on disk, or in an S3-compatible bucket -------------------------
STATIC_URL = "static/"
# The match viewer's ES modules live with the frames they draw (docs/viewer.md).
STATICFILES_DIRS = [Path(arena.viewing.__file__).parent / "static"]
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns about a missing folder
MEDIA_URL = "media/"
MEDIA_ROOT = DATA_DIR / "media"
TAVOLO_STORAGE = env_choice("TAVOLO_STORAGE", "local", ("local", "s3"))
if TAVOLO_STORAGE == "s3":
    # Without keys here, boto3 finds them itself (an instance role, ~/.aws); given here, as
    # AWS_ACCESS_KEY_ID or AWS_ACCESS_KEY_ID_FILE, they are the ones used.
    AWS_S3_ACCESS_KEY_ID = env_str("AWS_ACCESS_KEY_ID", "") or None
    AWS_S3_SECRET_ACCESS_KEY = env_str("AWS_SECRET_ACCESS_KEY", "") or None
    AWS_STORAGE_BUCKET_NAME = env_str("AWS_STORAGE_BUCKET_NAME")
    AWS_S3_ENDPOINT_URL = env_str("AWS_S3_ENDPOINT_URL", "") or None
    AWS_S3_REGION_NAME = env_str("AWS_S3_REGION_NAME", "") or None
    AWS_DEFAULT_ACL = None
    AWS_QUERYSTRING_AUTH = True
    try:
        import storages  # noqa: F401
    except ImportError:
        raise ImproperlyConfigured("TAVOLO_STORAGE=s3 needs the s3 extra: tavolo[s3]") from None
    DEFAULT_STORAGE = {"BACKEND": "storages.backends.s3.S3Storage"}
else:
    DEFAULT_STORAGE = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES = {
    "default": DEFAULT_STORAGE,
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Django REST framework (the views live in the api app) --------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    # JSON bodies are measured (size, nesting) before they are parsed (api.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "uploads": env_str("TAVOLO_UPLOAD_RATE", "30/hour"),
        "challenges": env_str("TAVOLO_CHALLENGE_RATE", "20/hour"),
        "logins": env_str("TAVOLO_LOGIN_RATE", "30/minute"),
        "signups": env_str("TAVOLO_SIGNUP_RATE", "10/hour"),
        "reads": env_str("TAVOLO_ANONYMOUS_READ_RATE", "300/minute"),
    },
    # Anonymous clients' reads, per address; pages count against the same budget
    # (tavolo_site.throttling). Views with throttles of their own list it too.
    "DEFAULT_THROTTLE_CLASSES": ["accounts.throttles.AnonymousReadThrottle"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tavolo API",
    "DESCRIPTION": "Bots, ladders, matches and challenges of a Tavolo server (docs/api.md).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",  # the UIs' files come with the site: no CDN
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {
        "deepLinking": True,
        "persistAuthorization": True,  # the token stays entered across reloads
        "validatorUrl": None,  # no badge from the public validator: nothing leaves the site
    },
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "BotKindEnum": "bots.models.Bot.Kind",
        "VersionStatusEnum": "bots.models.BotVersion.Status",
        "MatchKindEnum": "matches.models.Match.Kind",
        "MatchStatusEnum": "matches.models.Match.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
    },
}

# --- Celery: two queues; "matches" is consumed only by workers that have the jail ---------------
MATCH_TIME_LIMIT = env_int("TAVOLO_MATCH_TIME_LIMIT", 900, minimum=60)
"""Hard limit in seconds for one match task; the soft limit fails the match a little earlier."""

TAVOLO_LEASE_SECONDS = env_int("TAVOLO_LEASE_SECONDS", 20, minimum=2)
"""A running match whose worker has not renewed its lease for this long is queued again."""

TAVOLO_HEARTBEAT_SECONDS = env_int(
    "TAVOLO_HEARTBEAT_SECONDS", max(1, TAVOLO_LEASE_SECONDS // 4), minimum=1
)
"""How often the worker playing a match renews its lease."""
if TAVOLO_HEARTBEAT_SECONDS * 2 > TAVOLO_LEASE_SECONDS:
    raise ImproperlyConfigured(
        "TAVOLO_HEARTBEAT_SECONDS must be at most half of TAVOLO_LEASE_SECONDS, "
        "or a busy worker would lose the matches it is playing"
    )

TAVOLO_RECOVER_SECONDS = env_int("TAVOLO_RECOVER_SECONDS", 10, minimum=1)
"""How often beat looks for lapsed leases, lost messages and lost qualifications."""

TAVOLO_RESEND_SECONDS = env_int("TAVOLO_RESEND_SECONDS", 20, minimum=0)
"""A match queued this long whose message the broker no longer holds is sent again."""

TAVOLO_FINISH_RETRY_SECONDS = env_int("TAVOLO_FINISH_RETRY_SECONDS", 600, minimum=0)
"""How long a worker keeps trying to write a played match's result while the database is away."""

TAVOLO_REDIS_PREFIX = env_str("TAVOLO_REDIS_PREFIX", "")
"""Every Redis key of this site (queues and cache) starts with it: sites may share one Redis."""
if REDIS_URL:
    for cache in CACHES.values():
        cache["KEY_PREFIX"] = TAVOLO_REDIS_PREFIX

# Without Redis, a folder of messages that the web server, worker and scheduler share: kombu's
# filesystem transport with atomic writes and claims (tavolo_site.folder_broker).
CELERY_BROKER_URL = REDIS_URL or "tavolo-folder://localhost/"
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {
        # Redis hands a message not acknowledged in this time to another worker. A match's
        # lease brings a lost match back much sooner; this only bounds when a late duplicate
        # comes, which finds the match taken and does nothing.
        "visibility_timeout": env_int("TAVOLO_VISIBILITY_TIMEOUT", 3600, minimum=60),
        "global_keyprefix": TAVOLO_REDIS_PREFIX,
    }
    if REDIS_URL
    else {
        "data_folder_in": str(DATA_DIR / "queue"),
        "data_folder_out": str(DATA_DIR / "queue"),
        "control_folder": str(DATA_DIR / "queue-control"),
    }
)
if not REDIS_URL:
    for folder in ("queue", "queue-control"):
        (DATA_DIR / folder).mkdir(parents=True, exist_ok=True)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # the workers log through LOGGING, like the site
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {
    "matches.tasks.match_run": {"queue": "matches"},
    "matches.tasks.bot_version_qualify": {"queue": "matches"},
}
CELERY_DB_REUSE_MAX = 1000
"""A worker opens its database connection again after this many tasks; between them it
keeps it, checked before each task (tavolo_site.celery.connections_check)."""
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "ladders-schedule": {
        "task": "matches.tasks.ladders_schedule",
        "schedule": timedelta(seconds=env_int("TAVOLO_SCHEDULE_SECONDS", 10, minimum=1)),
    },
    "matches-recover": {
        "task": "matches.tasks.matches_recover",
        "schedule": timedelta(seconds=TAVOLO_RECOVER_SECONDS),
    },
    "bot-versions-recover": {
        "task": "matches.tasks.bot_versions_recover",
        "schedule": timedelta(seconds=TAVOLO_RECOVER_SECONDS),
    },
    "tournaments-tick": {
        "task": "tournaments.tasks.tournaments_tick",
        "schedule": timedelta(seconds=env_int("TAVOLO_TOURNAMENT_TICK_SECONDS", 15, minimum=1)),
    },
}
CELERY_TASK_DEFAULT_PRIORITY = 6
"""Redis takes lower numbers first (0 to 9): tournament matches are sent at
`TAVOLO_TOURNAMENT_PRIORITY`, so a worker picks them before ladder matches."""

# --- Tavolo ------------------------------------------------------------------------------------
TAVOLO_ALLOW_UNJAILED = env_bool("TAVOLO_ALLOW_UNJAILED")
"""Run uploaded bots without the jail. Only for development on a machine without bwrap."""

TAVOLO_TOURNAMENT_PRIORITY = 0
"""The Celery priority of tournament matches (see CELERY_TASK_DEFAULT_PRIORITY)."""

TAVOLO_TOURNAMENT_BATCH = env_int("TAVOLO_TOURNAMENT_BATCH", 64, minimum=1)
"""Tables of one tournament waiting for a worker at once; more are made as they finish."""

TAVOLO_RATING_SYSTEM = env_choice("TAVOLO_RATING_SYSTEM", DEFAULT_SYSTEM, tuple(SYSTEMS))
"""How ladders are rated: one of `arena.ratings.SYSTEMS` ("refit", "glicko", "elo")."""

TAVOLO_QUEUE_DEPTH = env_int("TAVOLO_QUEUE_DEPTH", 2, minimum=0)
"""Ranked matches kept queued per ladder: enough to keep workers busy, not a pile."""

TAVOLO_MATCHES_PER_MINUTE = env_int("TAVOLO_MATCHES_PER_MINUTE", 120, minimum=0)
"""Ranked matches scheduled per minute over all ladders (each ladder has its own rate too)."""

TAVOLO_LOST_AFTER_SECONDS = env_int("TAVOLO_LOST_AFTER_SECONDS", MATCH_TIME_LIMIT + 120, minimum=1)
"""A match queued this long without being picked up is sent again, whatever the broker says."""

TAVOLO_LOG_LIMIT_BYTES = env_int("TAVOLO_LOG_LIMIT_BYTES", 64 * 1024, minimum=0)
"""A bot's log (its stderr) is cut to this size before it is stored."""

TAVOLO_CHALLENGES_PER_HOUR = env_int("TAVOLO_CHALLENGES_PER_HOUR", 10, minimum=0)

TAVOLO_RETIRE_AFTER_CRASHES = env_int("TAVOLO_RETIRE_AFTER_CRASHES", 5, minimum=0)
"""A bot whose current version crashed in this many ranked matches in a row is retired
from its ladder, with the reason for its owner; 0: never."""

# --- Clients: addresses, password guesses (accounts.addresses, accounts.logins) ----------------
TAVOLO_TRUSTED_PROXIES = env_networks("TAVOLO_TRUSTED_PROXIES")
"""Proxies whose X-Forwarded-For is believed (networks or addresses); unset: none, the peer's
address is the client's. Behind nginx on the same host: 127.0.0.1."""

TAVOLO_LOGIN_FAILURES_PER_ACCOUNT = env_int("TAVOLO_LOGIN_FAILURES_PER_ACCOUNT", 10, minimum=1)
"""Wrong passwords for one account from clients it does not trust (or from one device or
address it trusts) before those take no more attempts at it..."""

TAVOLO_LOGIN_FAILURES_PER_ADDRESS = env_int("TAVOLO_LOGIN_FAILURES_PER_ADDRESS", 50, minimum=1)
"""Wrong passwords from one address, at any accounts, before it makes no more attempts at
accounts that do not trust it..."""

TAVOLO_LOGIN_LOCK_SECONDS = env_int("TAVOLO_LOGIN_LOCK_SECONDS", 900, minimum=1)
"""...until the end of this window (counted in fixed windows of this length)."""

TAVOLO_LOGIN_TRUST_DAYS = env_int("TAVOLO_LOGIN_TRUST_DAYS", 90, minimum=1)
"""How long a device or address that logged in to an account stays trusted by it
(accounts.trust): its wrong passwords are counted apart from everyone else's."""

# --- Operations: health, metrics and logs (docs/deploy.md) -------------------------------------
# /healthz and /readyz are open to all. /metrics is off unless a bearer token or client networks
# are set; behind a reverse proxy on the same host every client looks local, so use the token.
TAVOLO_METRICS_TOKEN = env_str("TAVOLO_METRICS_TOKEN", "")
TAVOLO_METRICS_NETWORKS = env_networks("TAVOLO_METRICS_NETWORKS")
TAVOLO_WORKER_METRICS_PORT = env_port("TAVOLO_WORKER_METRICS_PORT")
"""A worker serves its metrics over HTTP on this port (0: any free one, logged); unset: off."""
TAVOLO_WORKER_METRICS_ADDRESS = env_str("TAVOLO_WORKER_METRICS_ADDRESS", "127.0.0.1")

# One configuration for the web server, the workers and the command line (arena.logs): text
# lines, or JSON lines with TAVOLO_LOG_FORMAT=json; a match's lines carry its match_id and a
# request's its request_id. Celery applies it too instead of its own (tavolo_site.celery).
LOGGING = logging_config(
    level=env_str("LOG_LEVEL", "INFO"),
    log_format=env_choice("TAVOLO_LOG_FORMAT", "text", LOG_FORMATS),
)
LOGGING["filters"]["request_id"] = {"()": "tavolo_site.request_id.RequestIdFilter"}
LOGGING["handlers"]["console"]["filters"].append("request_id")
# The sandbox's jail events are counted for /metrics at any level (matches.metrics).
LOGGING["handlers"]["jail_events"] = {"class": "matches.metrics.JailEventCounter"}
LOGGING["loggers"] = {"sandbox": {"level": "DEBUG", "handlers": ["jail_events"]}}

TAVOLO_QUALIFICATION_MATCHES = env_int("TAVOLO_QUALIFICATION_MATCHES", 2, minimum=1)
"""Matches a new version plays against the house bots before it may enter the ladder."""

TAVOLO_QUALIFICATION_MAX_INFRACTIONS = env_int("TAVOLO_QUALIFICATION_MAX_INFRACTIONS", 2, minimum=0)
"""Infractions (late, malformed or illegal replies) allowed over all qualification matches."""
