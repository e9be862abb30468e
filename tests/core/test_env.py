import pytest
from django.core.exceptions import ImproperlyConfigured

from core.env import database_from_url, env_bool, env_choice, env_float, env_int


def test_env_bool_fails_loudly(monkeypatch):
    monkeypatch.setenv("SOME_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured):
        env_bool("SOME_FLAG")
    monkeypatch.setenv("SOME_FLAG", "yes")
    assert env_bool("SOME_FLAG") is True


def test_env_int_and_file_secrets(monkeypatch, tmp_path):
    monkeypatch.setenv("SOME_NUMBER", "12x")
    with pytest.raises(ImproperlyConfigured):
        env_int("SOME_NUMBER", 3)
    secret = tmp_path / "n"
    secret.write_text("42\n")
    monkeypatch.setenv("SOME_NUMBER_FILE", str(secret))
    assert env_int("SOME_NUMBER", 3) == 42


def test_env_choice_and_float_fail_loudly(monkeypatch):
    assert env_choice("LOG_STYLE", ("json", "text"), "text") == "text"
    monkeypatch.setenv("LOG_STYLE", "JSON")
    assert env_choice("LOG_STYLE", ("json", "text"), "text") == "json"
    monkeypatch.setenv("LOG_STYLE", "xml")
    with pytest.raises(ImproperlyConfigured):
        env_choice("LOG_STYLE", ("json", "text"), "text")
    monkeypatch.setenv("SOME_RATE", "0.25")
    assert env_float("SOME_RATE", 0.0) == 0.25
    monkeypatch.setenv("SOME_RATE", "a quarter")
    with pytest.raises(ImproperlyConfigured):
        env_float("SOME_RATE", 0.0)


def test_database_urls(tmp_path):
    pg = database_from_url("postgres://quo:pw@db.local:5433/quotient", base_dir=tmp_path)
    assert (pg["ENGINE"], pg["NAME"], pg["USER"], pg["PORT"]) == (
        "core.postgresql",
        "quotient",
        "quo",
        "5433",
    )
    lite = database_from_url("sqlite:///var/q.sqlite3", base_dir=tmp_path)
    assert lite["NAME"] == str(tmp_path / "var" / "q.sqlite3")
    with pytest.raises(ImproperlyConfigured):
        database_from_url("mysql://x/y", base_dir=tmp_path)


def _bare_env(**extra):
    import os

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE")
    }
    env.update(extra)
    return env


def _run(code: str, **extra):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env=_bare_env(**extra),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_serving_without_a_secret_key_is_refused_when_debug_is_off():
    done = _run("import quotient.wsgi")
    assert done.returncode != 0 and "SECRET_KEY (or SECRET_KEY_FILE) is required" in done.stderr
    assert _run("import quotient.wsgi", SECRET_KEY="s3cret").returncode == 0
    assert _run("import quotient.wsgi", DEBUG="1").returncode == 0


def test_offline_commands_run_without_a_secret_key():
    code = (
        "import sys; from django.core.management import execute_from_command_line as x; "
        "sys.argv=['manage.py','makemigrations','--check','--dry-run']; "
        "import os; os.environ['DJANGO_SETTINGS_MODULE']='quotient.settings.base'; x(sys.argv)"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert "No changes detected" in done.stdout
