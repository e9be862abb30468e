"""A month's list's part of its page written in Python: what ``ratings/_list.html``
wrote around its rows, byte for byte, without template nodes. The rows were already
written in Python (``ratings.templatetags.ranking_rows``); the template's frame around
them (its ``translate`` and ``blocktranslate`` tags, its conditions, its two
paginations) still cost about a millisecond of a cold list page, as much as its
hundred rows (``docs/performance.md``, "Issue 23, third stop").

The texts that depend on the language only are written once per process and
language (:func:`_texts`). Every value is escaped as ``{{ value }}`` escapes it; a
``translate`` tag's text is written unescaped (a literal's translation is safe), a
``blocktranslate`` escapes its values, not its text. The template stays as the
reference the tests compare with (``tests/ratings/test_list_page.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.paginator import Page
from django.core.signals import setting_changed
from django.http import HttpRequest
from django.utils.translation import get_language, gettext, ngettext

from ratings.models import RankingList
from ratings.templatetags.ranking_rows import list_pages, ranked_rows
from scoring.templatetags.results import shown_text


@dataclass(frozen=True, slots=True)
class _Texts:
    """The list's texts in one language."""

    heading: str  # the ranked players' heading
    ranked_table: str  # the ranked table's head, up to its rows
    no_match: str  # the ranked table's row when a filter matches nobody
    nobody: str  # the ranked table's row when nobody is ranked
    provisional: str  # the provisional players' heading, up to its paragraph
    provisional_table: str  # the provisional table's head, up to its rows


_TEXTS: dict[str | None, _Texts] = {}


def _texts() -> _Texts:
    """The list's texts in the active language (written once per process)."""
    language = get_language()
    texts = _TEXTS.get(language)
    if texts is None:
        texts = _TEXTS[language] = _write_texts()
    return texts


def _write_texts() -> _Texts:
    ranked = "".join(f"<th{cls}>{gettext(word)}</th>" for cls, word in _RANKED_HEADS)
    provisional = "".join(f"<th{cls}>{gettext(word)}</th>" for cls, word in _PROVISIONAL_HEADS)
    row = '\n    <tr><td colspan="7">{}</td></tr>\n  '
    return _Texts(
        heading=f'<h2 id="ranked">{gettext("Ranked players")}</h2>\n',
        ranked_table=(
            f'<div class="scroll">\n<table class="ranking">\n  <thead><tr>{ranked}</tr></thead>\n'
            "  <tbody>\n  "
        ),
        no_match=row.format(gettext("No ranked player matches the filter.")),
        nobody=row.format(gettext("Nobody has enough results to be ranked yet.")),
        provisional=f'\n\n<h2 id="provisional">{gettext("Provisional players")}</h2>\n<p>',
        provisional_table=(
            '\n<div class="scroll">\n<table class="ranking provisional">\n'
            f"  <thead><tr>{provisional}</tr></thead>\n  <tbody>\n  "
        ),
    )


_NUM = ' class="num"'
_RANKED_HEADS = [
    (_NUM, "Rank"),
    ("", "Player"),
    (_NUM, "Ranking number"),
    (_NUM, "Movement"),
    ("", "Club"),
    ("", "Country"),
    (_NUM, "Results"),
]
_PROVISIONAL_HEADS = [
    ("", "Player"),
    (_NUM, "Ranking number"),
    (_NUM, "Results"),
    ("", "Club"),
    ("", "Country"),
]
_TABLE_END = "\n  </tbody>\n</table>\n</div>\n"


def _forget(**kwargs: Any) -> None:
    """A setting changed (in tests): the texts are written again."""
    _TEXTS.clear()


setting_changed.connect(_forget, dispatch_uid="ratings-list-page-texts")


def _count(singular: str, plural: str, n: Any) -> str:
    """A ``{% blocktranslate count n=... %}``: the text unescaped, ``n`` escaped."""
    return ngettext(singular, plural, n) % {"n": shown_text(n)}


def list_body(
    request: HttpRequest,
    ranking: RankingList,
    head: str,
    page: Page,
    provisional_page: Page,
    provisional_rows: str,
    filtered: bool,
) -> str | None:
    """``ratings/_list.html`` of this context (``head`` and ``provisional_rows``
    written already, safe); None when the list's parameters have no number of results
    to count (the template's error, left to the template)."""
    parameters = ranking.parameters
    least = parameters.get("min_results") if isinstance(parameters, dict) else None
    if not isinstance(least, int | float | Decimal):
        return None
    texts = _texts()
    out = ["\n", head, "\n", texts.heading]
    if filtered:
        n = page.paginator.count
        words = (
            "%(n)s ranked player matches the filter.",
            "%(n)s ranked players match the filter.",
        )
        out.append(f"<p>{_count(*words, n)}</p>")
    out += ["\n", texts.ranked_table]
    rows = ranked_rows(page.object_list)
    out.append(rows if rows else texts.no_match if filtered else texts.nobody)
    out.append(_TABLE_END)
    context = {"request": request}
    out.append(list_pages(context, page, "page", "#ranked"))
    out.append(texts.provisional)
    out.append(
        _count(
            "Fewer than %(n)s result still counting: listed with their number, without a rank.",
            "Fewer than %(n)s results still counting: listed with their number, without a rank.",
            least,
        )
    )
    n = provisional_page.paginator.count
    if filtered:
        words = (
            "%(n)s provisional player matches the filter.",
            "%(n)s provisional players match the filter.",
        )
    else:
        words = ("%(n)s provisional player.", "%(n)s provisional players.")
    out += ["\n", _count(*words, n), "</p>\n"]
    if provisional_page.object_list:
        out += [texts.provisional_table, provisional_rows, _TABLE_END]
        out += [list_pages(context, provisional_page, "provisional_page", "#provisional"), "\n"]
    out.append("\n")
    return "".join(out)
