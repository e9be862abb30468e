"""Quotient: results, scoring and ranking of a domino federation and its clubs."""

from quotient.celery import app as celery_app

__all__ = ["celery_app"]
