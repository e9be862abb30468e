"""Signals scoring sends for the apps above it (the one-way graph forbids it to call
them): ``match_changed`` after a match is recorded, corrected or withdrawn, sent inside
the write's transaction with ``match`` and ``action`` (a ``MatchEvent.Action``).
Receivers that act on the outcome should wait for the commit (``on_commit``)."""

from django.dispatch import Signal

match_changed = Signal()
