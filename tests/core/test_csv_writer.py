"""``core.csv_writer``: the one CSV writer of every export."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from core.csv_writer import csv_text, safe_cell


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+33 6 12", "'+33 6 12"),
        ("-A1", "'-A1"),
        ("@cmd", "'@cmd"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-1+2", "'-1+2"),
        ("Ana", "Ana"),
        ("", ""),
        (None, ""),
        # numbers stay numbers, negative ones too
        (-3, -3),
        (-1.5, -1.5),
        (Decimal("-2.25"), Decimal("-2.25")),
        ("-3", "-3"),
        ("-0.43", "-0.43"),
        ("-1e-05", "-1e-05"),
        (True, "True"),
    ],
)
def test_safe_cell(value, cell):
    assert safe_cell(value) == cell


def test_csv_text_round_trips_escaped_cells():
    text = csv_text([["name", "points"], ['=HYPERLINK("x")', -2], ["a,b", "1.5"]])
    assert list(csv.reader(io.StringIO(text))) == [
        ["name", "points"],
        ['\'=HYPERLINK("x")', "-2"],
        ["a,b", "1.5"],
    ]
