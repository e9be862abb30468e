"""Players and clubs are shown on most pages (names, clubs, countries): saving or
deleting one bumps the ``players`` generation of the pages' caches
(``core.generations``)."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from core.generations import PLAYERS, bump_on_commit
from federation.models import Club, Player


@receiver(post_save, sender=Player)
@receiver(post_delete, sender=Player)
@receiver(post_save, sender=Club)
@receiver(post_delete, sender=Club)
def _player_changed(sender: object, **kwargs: object) -> None:
    bump_on_commit(PLAYERS)
