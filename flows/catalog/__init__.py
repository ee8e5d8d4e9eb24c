"""The catalog: settings and records as the user wrote them, validated before anything
is fetched, every mistake one line naming the file, the line and the fix."""

from evidence_base.errors import did_you_mean
from evidence_base.meta import DEFAULT_USER_AGENT, __version__
from flows.catalog.loading import (
    CheckedCatalog,
    catalog_with,
    check_catalog,
    config_dir_from,
    load_catalog,
    load_settings,
    resolve_db,
)
from flows.catalog.models import (
    SLUG,
    AlertSettings,
    ArchiveSettings,
    Catalog,
    ClaimConfig,
    FetchSettings,
    Record,
    RecordConfig,
    Settings,
    SourceConfig,
    check_url,
    license_url,
    parse_duration,
    slugify,
    source_slug,
    url_problem,
)
from flows.catalog.operator import Ignored, is_loopback
from flows.catalog.schema import json_schema
from flows.catalog.served import check_held, check_served
from flows.catalog.writer import (
    Edit,
    RecordFile,
    dead_source_step,
    diff_text,
    edited,
    file_digest,
    write_atomically,
    written_together,
    yaml_quoted,
)
from flows.catalog.yaml_lines import load_yaml

__all__ = [
    "DEFAULT_USER_AGENT",
    "SLUG",
    "AlertSettings",
    "ArchiveSettings",
    "Catalog",
    "CheckedCatalog",
    "ClaimConfig",
    "Edit",
    "FetchSettings",
    "Ignored",
    "Record",
    "RecordConfig",
    "RecordFile",
    "Settings",
    "SourceConfig",
    "__version__",
    "catalog_with",
    "check_catalog",
    "check_held",
    "check_served",
    "check_url",
    "config_dir_from",
    "dead_source_step",
    "did_you_mean",
    "diff_text",
    "edited",
    "file_digest",
    "is_loopback",
    "json_schema",
    "license_url",
    "load_catalog",
    "load_settings",
    "load_yaml",
    "parse_duration",
    "resolve_db",
    "slugify",
    "source_slug",
    "url_problem",
    "write_atomically",
    "written_together",
    "yaml_quoted",
]
