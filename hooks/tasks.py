"""Celery tasks of webhooks: thin shells over ``hooks.delivery``.

``deliver`` makes one attempt and queues what comes next (the same delivery after its
retry delay, the endpoint's next one); ``sweep`` (beat, every minute) queues again the
deliveries whose task was lost. Both are safe to run twice: an attempt claims its
delivery in the database first.
"""

from __future__ import annotations

from celery import shared_task

from hooks.delivery import deliveries_due, delivery_attempt


@shared_task(ignore_result=True)
def deliver(delivery_id: int) -> None:
    outcome = delivery_attempt(delivery_id=delivery_id)
    if outcome.retry_in is not None:
        deliver.apply_async((delivery_id,), countdown=outcome.retry_in)
    if outcome.then is not None:
        deliver.delay(outcome.then)


@shared_task(ignore_result=True)
def sweep() -> int:
    due = deliveries_due()
    for pk in due:
        deliver.delay(pk)
    return len(due)
