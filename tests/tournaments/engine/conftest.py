import pytest

# helpers.py holds the independent oracles; let pytest explain their failures in full
pytest.register_assert_rewrite("tests.tournaments.engine.helpers")
