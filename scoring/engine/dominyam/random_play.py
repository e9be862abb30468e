"""Random legal Dominyam games, for tests and benchmarks (deterministic per seed).

The layout is a random domino tiling of the 7 × 8 rectangle (the seed lays a spiral;
any exact tiling is a legal layout) with the 28 tiles dealt onto it at random. Each
player rolls five dice up to three times, eats a random legal meal when the dice
allow one and sometimes lets a meal pass. So that a multiplayer game ends, a player
who has missed a few turns in a row is granted dice matching some legal meal.
"""

from __future__ import annotations

import random
from typing import Any

from scoring.engine.dominyam.layout import (
    COLUMNS,
    ROWS,
    Cell,
    Meal,
    dice_counts,
    meals_on_table,
    pairs_on_table,
    read_layout,
    target_of,
)
from scoring.engine.dominyam.tiles import ALL, NAMES, PIPS, TILES, tile_index

FIRST_TURN = 14


def random_tiling(rng: random.Random) -> list[tuple[Cell, Cell]]:
    """A random tiling of the rectangle by 28 dominoes (backtracking, row by row)."""
    covered = [[False] * COLUMNS for _ in range(ROWS)]
    dominoes: list[tuple[Cell, Cell]] = []

    def fill(position: int) -> bool:
        while position < ROWS * COLUMNS and covered[position // COLUMNS][position % COLUMNS]:
            position += 1
        if position == ROWS * COLUMNS:
            return True
        r, c = divmod(position, COLUMNS)
        options = [(r, c + 1), (r + 1, c)]
        rng.shuffle(options)
        for rr, cc in options:
            if rr < ROWS and cc < COLUMNS and not covered[rr][cc]:
                covered[r][c] = covered[rr][cc] = True
                dominoes.append(((r, c), (rr, cc)))
                if fill(position + 1):
                    return True
                dominoes.pop()
                covered[r][c] = covered[rr][cc] = False
        return False

    fill(0)
    return dominoes


def random_layout(rng: random.Random) -> list[dict[str, Any]]:
    """A random legal ``layout`` (record form): every tile on two adjacent cells."""
    tiles = list(NAMES)
    rng.shuffle(tiles)
    layout = []
    for tile, (first, second) in zip(tiles, random_tiling(rng), strict=True):
        cells = [list(first), list(second)]
        rng.shuffle(cells)
        layout.append({"tile": tile, "cells": cells})
    return layout


def random_record(seed: int, players: int = 1, target_bonus: bool = False) -> dict[str, Any]:
    """A random legal, finished record of ``players`` (1–8) players."""
    rng = random.Random(seed)
    names = [f"p{i + 1}" for i in range(max(1, min(8, players)))]
    layout_record = random_layout(rng)
    layout = read_layout(layout_record)
    remaining, turn, misses = ALL, FIRST_TURN, 0
    pairs = pairs_on_table(layout, remaining)
    turns: list[dict[str, Any]] = []
    while pairs and turn >= 1:
        target = target_of(pairs, turn) or 0
        dice, meals = _roll(rng, pairs, target, lucky=misses >= 2)
        entry: dict[str, Any] = {"player": names[len(turns) % len(names)], "dice": dice}
        if meals and rng.random() < 0.93:
            meal = meals[0] if rng.random() < 0.4 else rng.choice(meals)
            entry["eat"] = list(meal.eat)
            entry["point_die"] = rng.choice(meal.point_dice)
            for name in meal.eat:
                remaining &= ~(1 << tile_index(name))
            pairs = pairs_on_table(layout, remaining)
            turn, misses = turn - 1, 0
        else:
            _no_meal(rng, entry)
            misses += 1
            turn -= 1 if len(names) == 1 else 0
        turns.append(entry)
    return {
        "game": "dominyam",
        "rules": {"target_bonus": target_bonus},
        "players": names,
        "layout": layout_record,
        "turns": turns,
    }


def _roll(
    rng: random.Random, pairs: list[tuple[int, int]], target: int, *, lucky: bool
) -> tuple[list[int], list[Meal]]:
    """Up to three rolls of five dice; a lucky roll matches a random reachable pair."""
    dice: list[int] = []
    meals: list[Meal] = []
    for _ in range(3):
        dice = [rng.randint(1, 6) for _ in range(5)]
        meals = meals_on_table(pairs, dice_counts(dice), target)
        if meals:
            return dice, meals
    if lucky:
        a, b = rng.choice([(a, b) for a, b in pairs if PIPS[a] + PIPS[b] >= target])
        dice = [n or rng.randint(1, 6) for n in TILES[a] + TILES[b]] + [rng.randint(1, 6)]
        rng.shuffle(dice)
        meals = meals_on_table(pairs, dice_counts(dice), target)
    return dice, meals


def _no_meal(rng: random.Random, entry: dict[str, Any]) -> None:
    """A turn without a meal, written in any of the accepted forms."""
    form = rng.randrange(3)
    if form == 0:
        entry["eat"] = None
    elif form == 1:
        entry["eat"] = None
        entry["point_die"] = rng.randint(1, 6)  # ignored without a meal
