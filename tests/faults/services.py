"""Private PostgreSQL and Redis servers, and a gunicorn web instance, for fault tests.

Fault tests stop and restart services: they start their own on free ports in a
temporary directory, never touching the shared servers on 5432 and 6379.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise TimeoutError(f"{what} within {timeout} s")


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


class PrivateRedis:
    """A redis-server on its own port; its append-only file survives a restart."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(lambda: port_open(self.port), 10, "redis did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()  # SIGTERM: redis flushes its append-only file
            self.process.wait(timeout=10)
            self.process = None


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name) or name


class PrivatePostgres:
    """A PostgreSQL cluster of its own (initdb as the postgres user, trust auth), in a
    directory of its own that the postgres user can reach (pytest's is private)."""

    def __init__(self) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="quotient-pg-"))
        shutil.chown(self.directory, user="postgres", group="postgres")
        self.data = self.directory / "pgdata"
        self.port = free_port()

    def url(self, database: str = "quotient") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _as_postgres(self, *args: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
        )

    def init(self) -> None:
        self._as_postgres(_pg_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")
        self.start()
        subprocess.run(
            ["psql", self.url("postgres"), "-qc", "CREATE DATABASE quotient"],
            check=True,
            timeout=30,
        )

    def _ctl(self, action: str, *extra: str) -> None:
        self._as_postgres(
            _pg_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1",
            "-w",
            *extra,
            action,
        )

    def start(self) -> None:
        self._ctl("start", "-l", str(self.directory / "postgres.log"))

    def restart(self) -> None:
        self._ctl("restart", "-m", "fast")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._ctl("stop", "-m", "immediate")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def service_env(*, database_url: str, broker_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "quotient.settings.test",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "THROTTLE": "0",
        "AXES_ENABLED": "0",
    }


@contextmanager
def gunicorn(env: dict[str, str], log: Path) -> Iterator[str]:
    """A web instance with the deploy configuration; yields its base URL."""
    port = free_port()
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "quotient.wsgi", "-c", "deploy/gunicorn.conf.py"],
            cwd=ROOT,
            env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": "2"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until(lambda: port_open(port), 30, "gunicorn did not start")
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=30)


@contextmanager
def celery_worker(env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "quotient", "worker", "--pool=solo"]
            + ["--loglevel=INFO", "--without-gossip", "--without-mingle"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            yield process
        finally:
            process.terminate()
            process.wait(timeout=30)


def http(method: str, url: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """One request; the status and the decoded JSON body (None when not JSON)."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, _json(response.read())
    except urllib.error.HTTPError as error:
        return error.code, _json(error.read())
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        return 0, str(error)


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None
