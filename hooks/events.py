"""The events a webhook endpoint may subscribe to, and what sends each.

* ``match.recorded``, ``match.corrected``, ``match.withdrawn`` — scoring, when a match
  is stored, replaced by a corrected version, or withdrawn;
* ``round.published``, ``tournament.finished`` — tournaments, when a round's tables
  become final and when the last round is complete (or the engine ends the event);
* ``ranking.published`` — ratings, when a month's list (or a revision) is published.

Each is delivered as a Standard Webhooks message: ``{"type", "timestamp", "data"}``,
``timestamp`` being the time of the event (receivers order by it); the data of each
type is described in ``hooks/payloads.schema.json`` (and the OpenAPI components).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

MATCH_RECORDED = "match.recorded"
MATCH_CORRECTED = "match.corrected"
MATCH_WITHDRAWN = "match.withdrawn"
ROUND_PUBLISHED = "round.published"
TOURNAMENT_FINISHED = "tournament.finished"
RANKING_PUBLISHED = "ranking.published"

#: every event type with the words the pages show for it
EVENT_TYPES = [
    (MATCH_RECORDED, _("a match is recorded")),
    (MATCH_CORRECTED, _("a match is corrected")),
    (MATCH_WITHDRAWN, _("a match is withdrawn")),
    (ROUND_PUBLISHED, _("a tournament round is published")),
    (TOURNAMENT_FINISHED, _("a tournament is finished")),
    (RANKING_PUBLISHED, _("a ranking list is published")),
]
NAMES = [name for name, _label in EVENT_TYPES]
