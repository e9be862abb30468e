"""The schedule of a list, walked as the fanned-out month close walks it."""

import json

import numpy as np

from ratings.engine.batch import combine_arrays, rate_chunk
from ratings.engine.ranking import compute_ranking, ranking_list
from ratings.engine.results import Result
from ratings.engine.schedule import Schedule
from tests.ratings.engine.test_ranking import PARAMS, REFERENCE, RESULTS, M, json_map


def through_json(array: np.ndarray) -> np.ndarray:
    return np.asarray(json.loads(json.dumps(array.tolist())), dtype=float)


def test_a_walk_through_json_one_batch_at_a_time_gives_the_same_bytes():
    """What the chord callbacks do: the rest of the schedule and the state go through
    JSON between batches, the chunks through JSON to the workers and back."""
    schedule = Schedule.build(RESULTS[::-1], M, PARAMS, chunk_size=37)
    mu, sigma = schedule.start()
    tasks_made = 0
    for batch in schedule.batches():
        rest = schedule.after(batch - 1).as_dict()
        schedule = Schedule.from_dict(json.loads(json.dumps(rest)))
        sigma, tasks = schedule.open(batch, through_json(mu), through_json(sigma))
        tasks_made += len(tasks)
        mu, sigma = combine_arrays(
            through_json(mu), through_json(sigma), json_map(rate_chunk, tasks)
        )
    assert ranking_list(schedule, mu, sigma).to_json() == REFERENCE.to_json()
    assert tasks_made == Schedule.build(RESULTS, M, PARAMS, chunk_size=37).chunk_count()


def test_a_walk_from_the_head_and_each_batchs_rows_gives_the_same_bytes():
    """What the fanned-out close does: the schedule kept once as its head and each
    batch's rows (JSON), each step taking up the batch it rates."""
    whole = Schedule.build(RESULTS[::-1], M, PARAMS, chunk_size=37)
    head = Schedule.from_head(json.loads(json.dumps(whole.head())))
    parts = {batch: json.loads(json.dumps(whole.rows(batch))) for batch in whole.batches()}
    assert sum(len(head.with_rows(part).sizes) for part in parts.values()) == len(whole.sizes)
    mu, sigma = head.start()
    tasks_made = 0
    for batch in head.batches():
        sigma, tasks = head.with_rows(parts[batch]).open(batch, mu, sigma)
        tasks_made += len(tasks)
        mu, sigma = combine_arrays(mu, sigma, json_map(rate_chunk, tasks))
    assert head.sizes.size == 0 and head.names == whole.names
    assert ranking_list(head, mu, sigma).to_json() == REFERENCE.to_json()
    assert tasks_made == whole.chunk_count()


def test_after_keeps_the_players_and_drops_the_rated_batches():
    schedule = Schedule.build(RESULTS, M, PARAMS)
    rest = schedule.after(M - 3)
    assert rest.names == schedule.names and rest.counts.tolist() == schedule.counts.tolist()
    assert set(rest.counted.tolist()) == {c for c in schedule.counted.tolist() if c > M - 3}
    assert rest.slots.size == rest.sizes.sum() and rest.ranks.size == rest.slots.size
    assert schedule.after(M).sizes.size == 0


def test_an_empty_window():
    schedule = Schedule.build([], M, PARAMS)
    assert schedule.chunk_count() == 0 and schedule.open(M, *schedule.start())[1] == []
    assert compute_ranking([], M).entries == ()


def test_a_trusted_result_is_the_checked_one():
    checked = Result("k", M, M + 1, ("a", "b", "c"), (0, 1, 1))
    trusted = Result.trusted("k", M, M + 1, ("a", "b", "c"), (0, 1, 1))
    assert trusted == checked and trusted.late and trusted.as_dict() == checked.as_dict()
