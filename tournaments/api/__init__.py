"""Tournaments' REST API: the tournaments themselves (``tournaments``: registrations,
rounds, results, standings) and the match API as seen from above scoring
(``matches``: a match with its tournament round)."""
