"""Scoring's REST API: matches (``matches``, their serializers in ``serializers``) and
bulk imports (``imports``)."""
