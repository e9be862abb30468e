import pytest

# helpers.py holds shared assertions; let pytest explain their failures in full
pytest.register_assert_rewrite("tests.scoring.engine.helpers")
