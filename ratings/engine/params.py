"""Parameters of the monthly world ranking (FLADUB).

Everything that changes a published number lives in :class:`Params` (stored with each
list through :meth:`Params.as_dict`) or in :data:`ENGINE_VERSION`.

Domain words:

* *window*: the number of monthly batches a list is computed from (12).
* *age* of a result in list ``M``: ``M - played`` in months (its play month, even when
  it arrived late). Its *weight* is 1 for ages ``0..plateau``, then falls linearly to
  0 at age ``window``; a result of age ``window`` or more has no effect at all.
* *tau*: the once-a-month widening of every player's sigma (see ``docs/ranking.md``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

ENGINE_VERSION = "fladub-1 (openskill 6.2.0 maths, vectorised)"
MODELS = ("PlackettLuce", "BradleyTerryFull")


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Params:
    """Ranking parameters; defaults are openskill's where openskill has one.

    ``tau`` (25/300 = sigma0/100, openskill's default) is applied once per month, not
    once per match: an idle year only grows sigma^2 by 12 tau^2 (about 0.08), a gentle
    drift that keeps numbers moving down for inactive players while aging does the
    real forgetting.
    """

    model: str = "PlackettLuce"
    mu0: float = 25.0
    sigma0: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    kappa: float = 0.0001
    tau: float = 25.0 / 300.0
    window: int = 12
    plateau: int = 2
    min_results: int = 5

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {MODELS}, not {self.model!r}")
        for name in ("mu0", "sigma0", "beta", "kappa", "tau"):
            if not _number(getattr(self, name)):
                raise ValueError(f"{name} must be a number")
        if not (self.sigma0 > 0 and self.beta > 0 and self.kappa > 0 and self.tau >= 0):
            raise ValueError("sigma0, beta and kappa must be > 0 and tau >= 0")
        for name in ("window", "plateau", "min_results"):
            if not _count(getattr(self, name)):
                raise ValueError(f"{name} must be an int")
        if not 0 <= self.plateau < self.window or self.min_results < 0:
            raise ValueError("need 0 <= plateau < window and min_results >= 0")

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form, with the engine version, for storage beside a list."""
        return {**dataclasses.asdict(self), "engine_version": ENGINE_VERSION}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Params:
        """Inverse of :meth:`as_dict` (the engine version is ignored)."""
        fields = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in fields})


def weight(age: int, params: Params) -> float:
    """Weight of a result of ``age`` months: 1 up to the plateau, linear to 0 at window."""
    if age < 0 or age >= params.window:
        return 0.0
    if age <= params.plateau:
        return 1.0
    return (params.window - age) / (params.window - params.plateau)
