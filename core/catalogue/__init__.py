"""The one catalogue of coded errors and warnings: every code any part of Quotient
refuses or warns with (the rules engines, the match service, the tournament flow, the
month close...), in English templates that the edge translates.

An engine reports a *code* with *parameters* (``RecordError``) and no words. This
package holds, for every code, the English **template** that the replay contract's
``message`` is made of; the edge (``core.errors``) translates the same templates
with gettext, so ``locale/*/LC_MESSAGES/django.po`` holds their translations. It
imports nothing of Django: the command line renders English without settings, and
``gettext_noop`` only marks the texts for ``makemessages``.

Words used here:

* **template** — ``str.format`` text whose fields are the error's parameters
  (literal braces doubled).
* **vocabulary** — short texts an error names by key in the parameter given by
  ``KEYED`` (``expected`` or ``reason``), such as ``non-empty-list-of-deals``; they are
  templates over the same parameters.
* **variant** — a template chosen by the value of one parameter (divisor's ``at``:
  end, half or side), so that a language can agree its words with it.
* **value marker** — ``<a-list>``...: how a parameter shows a value that is not text.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any

from core.catalogue import (
    accounts,
    beyond,
    disputes,
    entry,
    exchange,
    hooks,
    idempotency,
    imports,
    players,
    ranking,
    records,
    requests,
    service,
    tournaments,
)
from core.catalogue.marks import Translate, gettext_noop
from core.catalogue.vocabulary import (
    GAME_NAMES,
    KEYED,
    MOVE_PREFIX,
    VALUES,
    VARIANTS,
    VOCABULARY,
)

__all__ = [
    "GAME_NAMES",
    "KEYED",
    "MESSAGES",
    "MOVE_PREFIX",
    "VALUES",
    "VARIANTS",
    "VOCABULARY",
    "Translate",
    "game_name",
    "gettext_noop",
    "render",
    "template_fields",
    "with_message",
]

#: every code's English template: one catalogue, one module per part of the service
MESSAGES: dict[str, str] = {
    **records.MESSAGES,
    **service.MESSAGES,
    **tournaments.MESSAGES,
    **ranking.MESSAGES,
    **imports.MESSAGES,
    **entry.MESSAGES,
    **accounts.MESSAGES,
    **hooks.MESSAGES,
    **exchange.MESSAGES,
    **players.MESSAGES,
    **disputes.MESSAGES,
    **requests.MESSAGES,
    **beyond.MESSAGES,
    **idempotency.MESSAGES,
}


def _same(text: str) -> str:
    return text


def render(code: str, move: Any, params: Mapping[str, Any], translate: Translate = _same) -> str:
    """The message of an error, prefixed by its move number; ``translate`` maps each
    English template to the reader's language. Never raises: a missing parameter
    stays ``{name}``, an unknown code is shown as itself."""
    values = {name: _value(value, translate) for name, value in params.items()}
    keyed = KEYED.get(code)
    key = params.get(keyed) if keyed else None
    if keyed and isinstance(key, str) and key in VOCABULARY:
        values[keyed] = _fill(translate(VOCABULARY[key]), values)
    body = _fill(translate(_template(code, params)), values)
    if not isinstance(move, int) or isinstance(move, bool):
        return body
    return _fill(translate(MOVE_PREFIX), {"number": move + 1}) + body


def with_message(result: dict[str, Any], translate: Translate = _same) -> dict[str, Any]:
    """The replay object ``result`` with ``message`` in its error (the replay contract:
    English unless ``translate`` says otherwise)."""
    error = result.get("error")
    if not isinstance(error, Mapping) or "code" not in error:
        return result
    params = error.get("params") or {}
    message = render(error["code"], error.get("move"), params, translate)
    described = {"move": error.get("move"), "code": error["code"], "message": message}
    return {**result, "error": {**described, **error, "message": message}}


def game_name(key: str, default: str = "", translate: Translate = _same) -> str:
    """The name of the game ``key`` in the reader's language (``default`` if unknown)."""
    name = GAME_NAMES.get(key)
    return translate(name) if name is not None else default or key


def template_fields(code: str, params: Mapping[str, Any]) -> set[str]:
    """The parameters that the templates of an error name (its own and its vocabulary
    entry's); ``KeyError`` for a code or a vocabulary key not in the catalogue."""
    if code not in MESSAGES:
        raise KeyError(code)
    texts = [_template(code, params)]
    if code in KEYED and KEYED[code] in params:
        texts.append(VOCABULARY[params[KEYED[code]]])
    return {name for text in texts for _, name, _, _ in Formatter().parse(text) if name}


def _template(code: str, params: Mapping[str, Any]) -> str:
    variants = VARIANTS.get(code)
    if variants is not None:
        choice = params.get(variants[0])
        if isinstance(choice, str) and choice in variants[1]:
            return variants[1][choice]
    return MESSAGES.get(code, code)


def _value(value: Any, translate: Translate) -> Any:
    if isinstance(value, str) and value in VALUES:
        return translate(VALUES[value])
    return value


class _Fields(dict[str, Any]):
    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


def _fill(template: str, values: Mapping[str, Any]) -> str:
    try:
        return template.format_map(_Fields(values))
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        return template
