"""Signals scoring sends for the apps above it (the one-way graph forbids it to call
them): ``match_changed`` once a match is recorded, corrected or withdrawn (inside the
write's transaction when there is one), with ``match``, ``action`` (a
``MatchEvent.Action``), ``at`` (the event's time) and, for a correction or a
withdrawal, ``reason``; a new match's (``match_record``, an import's rows) also
``seats``, its ``MatchSeat`` rows with their players. Receivers that act on the outcome should wait for the commit
(``on_commit``): ``scoring.webhooks`` does.

``match_correcting`` is sent inside a correction's transaction, the match row
locked and not yet changed, with ``match`` (as stored), ``players`` (the corrected
record's ``Player`` rows in seat order) and ``result`` (its replay): a receiver
refuses the correction by raising a ``CodedError`` (nothing is stored). Tournaments
answer it: a table's match keeps the table's players in seat order.

Scoring's own receiver bumps the ``matches`` generation of the pages' caches
(``core.generations``): the match lists, a player's page, "why my number changed".
"""

from django.dispatch import Signal, receiver

from core.generations import MATCHES, bump_on_commit

match_changed = Signal()
match_correcting = Signal()


@receiver(match_changed)
def _matches_changed(sender: object, **kwargs: object) -> None:
    bump_on_commit(MATCHES)
