"""Scoring's pages: the match list and page, the organisers' guided entry forms (score
sheet, summaries), uploads and bulk imports, "my submissions", and what they show
(``display``, ``boards``). Thin views over ``scoring.services`` and ``scoring.selectors``;
the forms' fields are read by the pure ``scoring.entry``."""
