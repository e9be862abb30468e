"""The gunicorn configuration's hooks (``deploy/gunicorn.conf.py``)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

CONF = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"


def test_a_worker_s_exit_imports_nothing_in_the_masters_signal_handler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``child_exit`` runs in the master's SIGCHLD handler: two workers ending at once
    re-enter it, and an import begun by the first fails half-done in the second. So
    the hook finds what it uses already imported: with every import of
    ``prometheus_client.multiprocess`` refused, it still marks the worker dead."""
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    config = runpy.run_path(str(CONF))
    live = tmp_path / "gauge_livesum_4242.db"
    live.write_bytes(b"")
    monkeypatch.setitem(sys.modules, "prometheus_client.multiprocess", None)  # type: ignore[arg-type]
    config["child_exit"](None, SimpleNamespace(pid=4242))
    assert not live.exists()  # the dead worker's live gauge is gone
