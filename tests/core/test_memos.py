"""``core.memos``: a process's memos of stored data, dropped at once."""

from core.memos import clear_memos, memo


def test_clearing_the_memos_empties_every_registered_one_and_no_other():
    kept, other = memo({"list": 1}), {"list": 2}
    also = memo({("slice", 0): [3]})
    assert kept == {"list": 1} and also == {("slice", 0): [3]}
    clear_memos()
    assert kept == {} and also == {}
    assert other == {"list": 2}  # not registered: left as it was
    kept["list"] = 4  # still the same dict, still registered
    clear_memos()
    assert kept == {}


def test_the_ranking_memos_are_registered():
    from ratings import selectors
    from ratings.api import views

    for kept in (selectors._KEPT, selectors._WRITTEN, views._LISTS):
        kept["probe"] = object()
    clear_memos()
    assert selectors._KEPT == selectors._WRITTEN == views._LISTS == {}
