"""Guided entry: the organisers' forms and bulk files turned into GAMES.md records.

Nothing here touches the database or Django: the forms post plain fields, these
functions read them (``fields``), rebuild what was typed for the page (*state*,
strings as typed, so an error loses nothing) and build the match record the
service replays (``sheet`` for the divisor score sheet, ``summary`` for the summary
forms of every game, ``files`` for the rows of a bulk import).

Words used here:

* **place** — where a value sits on a form, the name of its field or of its block
  (``seat-2``, ``d0-r5``: deal 1, row 6), so that a problem or the engine's error is
  shown where it was typed.
* **problem** — why a typed value cannot become a record: a code (the forms
  translate it) with parameters, at a place.
"""
