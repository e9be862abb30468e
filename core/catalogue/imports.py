"""The codes of a bulk import (``scoring.entry.files``, ``scoring.imports``): a file
refused whole, or one of its rows."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    "import-too-large": gettext_noop("the file is larger than {limit_mb} MB"),
    "import-empty": gettext_noop("the file holds no match"),
    "import-too-many-rows": gettext_noop("the file holds more than {most} matches: split it"),
    "import-too-many-lines": gettext_noop("the file has more than {most} lines: split it"),
    "import-cell-too-long": gettext_noop(
        "a cell of this row is longer than {most} characters: the row cannot be read"
    ),
    "import-missing-column": gettext_noop("the CSV has no column {column}"),
    "import-unknown-column": gettext_noop("{column} is not a column of the import"),
    "import-cell-unused": gettext_noop("column {column} is not part of a {game} summary"),
    "import-not-a-row": gettext_noop(
        'a row of a JSON file is a record, or {{"record", "played_on", "game_number"}}'
    ),
    "import-unknown-key": gettext_noop("unknown field {key} beside the record"),
    "import-deals": gettext_noop(
        "points, pips_left and blocked must give the same number of deals, separated by /"
    ),
    "import-groups": gettext_noop("{column} must give one group per player, separated by /"),
    "import-unsafe-text": gettext_noop(
        "{field} holds a NUL character or a lone surrogate, which cannot be stored"
    ),
}
