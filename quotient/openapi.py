"""The schema's components that no serializer describes: the tournament archive
(``TournamentArchive*``, from ``tournaments/exchange/archive.schema.json``) and the
webhook messages (``Webhook*``, from ``hooks/payloads.schema.json``).

Both files are JSON Schema 2020-12, the one source of each format (the import
validates archives with it, the tests hold webhook messages to it); this
postprocessing hook writes them the way OpenAPI 3.0 reads schemas: ``$defs`` become
components, ``"type": [t, "null"]`` becomes ``nullable``, a choice with ``null``
becomes a nullable ``allOf``.
"""

from __future__ import annotations

from typing import Any

from hooks.payloads import schema as payloads_schema
from tournaments.exchange.archive import schema as archive_schema

DROPPED = {"$schema", "$id", "$defs"}


def _ref(target: str, prefix: str) -> str:
    return "#/components/schemas/" + prefix + target.removeprefix("#/$defs/")


def _without_null(node: dict[str, Any], key: str) -> dict[str, Any]:
    choices = [c for c in node[key] if c != {"type": "null"}]
    if len(choices) == len(node[key]):
        return node
    rest = {k: v for k, v in node.items() if k != key}
    if len(choices) == 1:
        return {**rest, "allOf": choices, "nullable": True}
    return {**rest, key: choices, "nullable": True}


def openapi_schema(node: Any, prefix: str) -> Any:
    """``node`` (JSON Schema 2020-12) as an OpenAPI 3.0 schema object."""
    if isinstance(node, list):
        return [openapi_schema(item, prefix) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: openapi_schema(v, prefix) for k, v in node.items() if k not in DROPPED}
    if isinstance(out.get("$ref"), str):
        out["$ref"] = _ref(out["$ref"], prefix)
    kinds = out.get("type")
    if isinstance(kinds, list):
        named = [kind for kind in kinds if kind != "null"]
        out["type"] = named[0]
        if len(named) != len(kinds):
            out["nullable"] = True
    for key in ("anyOf", "oneOf"):
        if key in out:
            out = _without_null(out, key)
    return out


def components(source: dict[str, Any], name: str, prefix: str) -> dict[str, Any]:
    """The components of one JSON Schema file: its root as ``name``, each of its
    ``$defs`` as ``prefix`` + its name."""
    found = {name: openapi_schema(source, prefix)}
    for key, definition in source.get("$defs", {}).items():
        found[prefix + key] = openapi_schema(definition, prefix)
    return found


def add_components(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(components(archive_schema(), "TournamentArchive", "TournamentArchive"))
    schemas.update(components(payloads_schema(), "WebhookMessage", ""))
    return result
