import pytest
from django.core.exceptions import ImproperlyConfigured

from quotient.env import database_from_url, env_bool, env_int


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


def test_database_urls(tmp_path):
    pg = database_from_url("postgres://quo:pw@db.local:5433/quotient", base_dir=tmp_path)
    assert (pg["ENGINE"], pg["NAME"], pg["USER"], pg["PORT"]) == (
        "django.db.backends.postgresql", "quotient", "quo", "5433",
    )
    lite = database_from_url("sqlite:///var/q.sqlite3", base_dir=tmp_path)
    assert lite["NAME"] == str(tmp_path / "var" / "q.sqlite3")
    with pytest.raises(ImproperlyConfigured):
        database_from_url("mysql://x/y", base_dir=tmp_path)
