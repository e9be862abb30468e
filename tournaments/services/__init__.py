"""Writes of the tournament flow: create, register, check in, pair, swap, publish,
withdraw, late entry, and each table's result recorded as an ordinary match.

Every write locks the tournament's row first (``SELECT ... FOR UPDATE``), so two
clicks on "pair next round" run one after the other: the second finds the round
already paired and is refused. The unique (tournament, number) constraint of
``Round`` stays the last line of defence. ``by`` is the user acting: a club's
organiser or a federation admin (``PermissionDenied`` otherwise); ``None`` is the
system itself (commands, tests).
"""

from tournaments.services._common import MAX_ROUNDS, RESERVED_SLUGS
from tournaments.services.apart import parse_apart, tournament_apart_set
from tournaments.services.events import table_sizes_check, tournament_create
from tournaments.services.registrations import (
    parse_handles,
    registration_add_late,
    registration_check_in,
    registration_withdraw,
    registrations_add,
    round_bye_grant,
)
from tournaments.services.results import (
    players_at,
    record_players_check,
    round_match_record,
    table_result_record,
)
from tournaments.services.rounds import round_pair, round_publish, round_repair, round_swap
from tournaments.services.schedule import round_schedule, tournament_schedule

__all__ = [
    "MAX_ROUNDS",
    "RESERVED_SLUGS",
    "table_sizes_check",
    "tournament_create",
    "parse_apart",
    "tournament_apart_set",
    "parse_handles",
    "registrations_add",
    "registration_check_in",
    "registration_withdraw",
    "registration_add_late",
    "round_bye_grant",
    "round_pair",
    "round_repair",
    "round_swap",
    "round_publish",
    "record_players_check",
    "table_result_record",
    "round_match_record",
    "players_at",
    "round_schedule",
    "tournament_schedule",
]
