"""The JSON Schema of what webhook endpoints are sent (``payloads.schema.json``): the
emitting apps build the data, this schema documents it (the OpenAPI's ``Webhook*``
components are made from it) and the tests hold every message to it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_PATH = Path(__file__).with_name("payloads.schema.json")


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded
