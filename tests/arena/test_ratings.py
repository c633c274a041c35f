"""The rating systems' maths: known values and invariants, through the shared protocol."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from arena.ratings import (
    INITIAL_RATING,
    SYSTEMS,
    Past,
    Rating,
    RatingSystem,
    Record,
    expected_score,
    rating_system,
)
from arena.ratings.elo import FallingKElo, k_factor
from arena.ratings.glicko import EloScaleGlicko, damper
from arena.ratings.refit import RefitGlicko, folded_evidence

GLICKO = EloScaleGlicko()
REFIT = RefitGlicko()
ELO = FallingKElo()
systems = pytest.mark.parametrize("system", SYSTEMS.values(), ids=list(SYSTEMS))

ratings_st = st.builds(
    Rating,
    value=st.floats(0, 3000),
    deviation=st.floats(10, 420),
    games=st.integers(0, 10_000),
)


@st.composite
def matches(draw: st.DrawFn) -> tuple[list[Rating], list[int]]:
    """A table of 2 to 10 versions with places (ties allowed)."""
    count = draw(st.integers(min_value=2, max_value=10))
    ratings = draw(st.lists(ratings_st, min_size=count, max_size=count))
    places = draw(st.lists(st.integers(1, count), min_size=count, max_size=count))
    return ratings, places


def test_a_system_is_chosen_by_name_and_an_unknown_name_is_refused() -> None:
    assert rating_system().name == "refit"
    assert rating_system("glicko").name == "glicko"
    assert rating_system("elo").name == "elo"
    with pytest.raises(ValueError, match="glicko"):
        rating_system("chess")


def test_expected_score_against_a_bot_400_points_stronger_is_one_eleventh() -> None:
    assert expected_score(1500, 1900) == pytest.approx(1 / 11)


@systems
def test_a_match_needs_two_bots_and_one_place_each(system: RatingSystem) -> None:
    with pytest.raises(ValueError, match="at least two"):
        system.rate([system.initial()], [1])
    with pytest.raises(ValueError, match="one entry per bot"):
        system.rate([system.initial()] * 2, [1])


@systems
@given(table=matches())
def test_the_points_against_each_opponent_add_up_to_the_change(
    system: RatingSystem, table: tuple[list[Rating], list[int]]
) -> None:
    ratings, places = table
    for i, (before, seat) in enumerate(zip(ratings, system.rate(ratings, places), strict=True)):
        assert seat.versus[i] == 0
        points = math.fsum([*seat.versus, seat.earlier])
        assert points == pytest.approx(seat.after.value - before.value, abs=1e-6)
        assert seat.after.games == before.games + 1


@systems
@given(table=matches(), data=st.data())
def test_the_changes_do_not_depend_on_the_seating_order(
    system: RatingSystem, table: tuple[list[Rating], list[int]], data: st.DataObject
) -> None:
    ratings, places = table
    order = data.draw(st.permutations(range(len(ratings))))
    changes = system.rate(ratings, places)
    shuffled = system.rate([ratings[i] for i in order], [places[i] for i in order])
    for seat, i in zip(shuffled, order, strict=True):
        assert seat.after.value == pytest.approx(changes[i].after.value)
        assert seat.after.deviation == pytest.approx(changes[i].after.deviation)


@systems
@given(table=matches())
def test_placing_first_alone_never_loses_rating(
    system: RatingSystem, table: tuple[list[Rating], list[int]]
) -> None:
    ratings, places = table
    places = [2 + place for place in places]
    places[0] = 1
    assert system.rate(ratings, places)[0].after.value >= ratings[0].value


@systems
def test_a_tie_moves_the_lower_rated_bot_up(system: RatingSystem) -> None:
    lower, higher = system.rate([Rating(1400.0, 60.0, 50), Rating(1600.0, 60.0, 50)], [1, 1])
    assert lower.after.value > 1400.0
    assert higher.after.value < 1600.0


@systems
def test_a_new_bot_starts_at_1500_and_is_provisional(system: RatingSystem) -> None:
    assert system.initial().value == INITIAL_RATING
    assert system.is_provisional(system.initial())


# The Bayesian update on the Elo scale.


def test_a_new_bot_has_a_band_of_840_points() -> None:
    assert GLICKO.band(GLICKO.initial()) == 840


def test_a_new_bot_beating_an_equal_new_bot_matches_glickos_worked_numbers() -> None:
    # Glicko with q = ln 10 / 400, d = 420 on both sides: g = 0.6001, E = 1/2.
    winner, loser = GLICKO.rate([GLICKO.initial(), GLICKO.initial()], [1, 2])
    q = math.log(10) / 400
    g = 1 / math.sqrt(1 + 3 * q**2 * 420**2 / math.pi**2)
    variance = 1 / (1 / (420**2 + GLICKO.drift**2) + q**2 * g**2 / 4)
    assert winner.after.value == pytest.approx(1500 + variance * q * g / 2)
    assert loser.after.value == pytest.approx(1500 - variance * q * g / 2)
    assert winner.after.deviation == pytest.approx(math.sqrt(variance))
    assert 190 < winner.after.value - 1500 < 210


@given(table=matches())
def test_every_match_shrinks_a_doubt_larger_than_the_drift(
    table: tuple[list[Rating], list[int]],
) -> None:
    ratings, places = table
    for before, seat in zip(ratings, GLICKO.rate(ratings, places), strict=True):
        assert seat.after.deviation < math.hypot(before.deviation, GLICKO.drift)


def test_a_doubtful_rating_moves_further_than_a_settled_one() -> None:
    opponent = Rating(1500.0, 50.0, 100)
    new = GLICKO.rate([Rating(1500.0, 300.0, 0), opponent], [1, 2])[0].after.value
    settled = GLICKO.rate([Rating(1500.0, 40.0, 200), opponent], [1, 2])[0].after.value
    assert new - 1500 > 5 * (settled - 1500) > 0


def test_a_pair_at_a_bigger_table_counts_for_less_than_a_duel() -> None:
    assert GLICKO.pair_weight(2) == 1
    assert GLICKO.pair_weight(4) == pytest.approx(1 / 3**GLICKO.table_exponent)


def test_a_new_version_keeps_its_bots_value_and_widens_its_doubt() -> None:
    start = GLICKO.successor(Rating(1720.0, 40.0, 300))
    assert start.value == 1720.0
    assert start.deviation == pytest.approx(math.hypot(40.0, GLICKO.new_version_spread))
    assert start.games == 0
    assert GLICKO.successor(Rating(1720.0, 400.0, 3)).deviation == GLICKO.initial_deviation


def test_provisional_while_the_deviation_is_above_its_threshold() -> None:
    assert GLICKO.is_provisional(Rating(1500.0, GLICKO.provisional_deviation + 1, 40))
    assert not GLICKO.is_provisional(Rating(1500.0, GLICKO.provisional_deviation, 3))


# The re-fit of each version to all its results.

records_st = st.lists(
    st.builds(
        lambda opponent, games, share: Record(opponent, games, games * share),
        ratings_st,
        st.integers(1, 50),
        st.floats(0, 1),
    ),
    max_size=8,
)
starts_st = st.builds(Rating, value=st.floats(1000, 2000), deviation=st.floats(50, 420))


@given(start=starts_st, seats=st.sampled_from([2, 4]))
def test_a_refit_with_no_results_is_the_prior(start: Rating, seats: int) -> None:
    fitted = REFIT.refit(Past(start), seats)
    assert fitted.value == pytest.approx(start.value)
    assert fitted.deviation == pytest.approx(start.deviation)


@given(start=starts_st, records=records_st, table=matches())
@example(  # far from its mode, where plain Newton jumps to and fro
    start=Rating(1715.08, 401.06),
    records=[Record(Rating(148.21, 136.58), 22, 0.89)],
    table=(
        [Rating(411.89, 140.18, 5), Rating(2891.43, 319.29, 5), Rating(1331.75, 177.5, 5)],
        [2, 3, 1],
    ),
)
def test_results_summed_per_opponent_refit_as_the_single_games_do(
    start: Rating, records: list[Record], table: tuple[list[Rating], list[int]]
) -> None:
    ratings, places = table
    single = tuple(
        Record(record.opponent, 1.0, record.points / record.games)
        for record in records
        for _ in range(int(record.games))
    )
    summed = REFIT.rate(ratings, places, [Past(start, tuple(records))] * len(ratings))
    one_by_one = REFIT.rate(ratings, places, [Past(start, single)] * len(ratings))
    for a, b in zip(summed, one_by_one, strict=True):
        assert a.after.value == pytest.approx(b.after.value, abs=1e-6)
        assert a.after.deviation == pytest.approx(b.after.deviation, abs=1e-6)
        assert a.earlier == pytest.approx(b.earlier, abs=1e-6)


@given(start=starts_st, records=records_st, table=matches())
def test_a_win_against_an_opponent_earns_points_against_it(
    start: Rating, records: list[Record], table: tuple[list[Rating], list[int]]
) -> None:
    ratings, places = table
    places = [2 + place for place in places]
    places[0] = 1
    past = Past(start, tuple(records))
    ratings[0] = REFIT.refit(past, len(ratings))
    winner = REFIT.rate(ratings, places, [past] * len(ratings))[0]
    assert all(points > 0 for points in winner.versus[1:])
    assert winner.earlier == pytest.approx(0.0, abs=1e-6)
    assert winner.after.value > ratings[0].value


@given(
    start=starts_st,
    distance=st.floats(0, 600),
    deviation=st.floats(10, 420),
    games=st.integers(1, 100),
    share=st.floats(0, 1),
)
def test_mirrored_results_against_mirrored_opponents_keep_the_start(
    start: Rating, distance: float, deviation: float, games: int, share: float
) -> None:
    above = Record(Rating(start.value + distance, deviation), games, games * share)
    below = Record(Rating(start.value - distance, deviation), games, games * (1 - share))
    assert REFIT.refit(Past(start, (above, below)), 2).value == pytest.approx(start.value)


def test_a_first_match_reads_no_earlier_results() -> None:
    winner, loser = REFIT.rate([REFIT.initial()] * 2, [1, 2], [Past(REFIT.initial())] * 2)
    assert winner.earlier == pytest.approx(0.0, abs=1e-9)
    assert winner.after.value - 1500 == pytest.approx(1500 - loser.after.value)
    assert 190 < winner.versus[1] < 210
    assert winner.after.deviation < REFIT.initial_deviation


def test_earlier_results_are_read_against_the_opponents_current_ratings() -> None:
    # Two wins against a bot since found out to be strong count for more than they did.
    start = REFIT.initial()
    rating = REFIT.refit(Past(start, (Record(Rating(1500.0, 50.0), 2, 2),)), 2)
    found_strong = Past(start, (Record(Rating(1800.0, 50.0), 2, 2),))
    seat = REFIT.rate([rating, Rating(1500.0, 50.0)], [1, 1], [found_strong, Past(start)])[0]
    assert seat.earlier > 50
    assert seat.after.value == pytest.approx(rating.value + seat.earlier + seat.versus[1])


def test_a_refit_counts_a_four_seat_pair_as_less_of_a_game_than_glicko() -> None:
    assert REFIT.pair_weight(4) == pytest.approx(1 / 3**0.3)
    assert REFIT.pair_weight(4) > GLICKO.pair_weight(4)


# Elo with a falling K, the first system.


def test_k_starts_high_and_falls_to_its_floor() -> None:
    assert k_factor(0) == 720
    assert k_factor(9) == 72
    assert k_factor(89) == 8
    assert k_factor(5000) == 8


def test_a_four_bot_elo_match_compares_every_pair() -> None:
    seats = ELO.rate([Rating(1500.0, 0.0, 89)] * 4, [1, 2, 3, 4])
    changes = [seat.after.value - 1500.0 for seat in seats]
    # K = 8 over 3 pairings: the winner scores 3 where 1.5 was expected.
    assert changes == pytest.approx([4.0, 4 / 3, -4 / 3, -4.0])


def test_the_elo_band_shrinks_with_games_down_to_its_floor() -> None:
    assert ELO.band(Rating(games=0)) == pytest.approx(408)
    assert ELO.band(Rating(games=3)) == pytest.approx(204)
    assert ELO.band(Rating(games=100_000)) == pytest.approx(42)
    assert ELO.is_provisional(Rating(games=19))
    assert not ELO.is_provisional(Rating(games=20))


@systems
def test_a_version_in_several_seats_learns_nothing_from_its_pairs_with_itself(
    system: RatingSystem,
) -> None:
    ratings = [Rating(1500.0, 200.0, 5), Rating(1600.0, 100.0, 40), Rating(1600.0, 100.0, 40)]
    seats = system.rate(ratings, [3, 1, 2], versions=["mine", "house", "house"])
    for seat in seats[1:]:
        assert seat.versus[1:] == (0.0, 0.0)
        assert sum(seat.versus) + seat.earlier == pytest.approx(seat.after.value - 1600.0)
    assert all(seat.versus[0] > 0 for seat in seats[1:])


def test_a_refit_rates_a_version_in_several_seats_once_on_all_their_pairs() -> None:
    ratings = [Rating(1500.0, 200.0, 5), Rating(1600.0, 100.0, 40), Rating(1600.0, 100.0, 40)]
    house, again = REFIT.rate(ratings, [3, 1, 2], versions=["mine", "house", "house"])[1:]
    assert house == again
    past = Past(ratings[1], (Record(ratings[0], 2, 2.0),))
    assert house.after.value == pytest.approx(REFIT.refit(past, 3).value)


def test_seats_must_name_two_versions_at_least() -> None:
    with pytest.raises(ValueError, match="two versions"):
        REFIT.rate([Rating(), Rating()], [1, 2], versions=["house", "house"])


@systems
@pytest.mark.parametrize(
    "bad",
    [
        Rating(math.nan, 100.0, 3),
        Rating(1500.0, math.nan, 3),
        Rating(math.inf, 100.0, 3),
        Rating(1500.0, -1.0, 3),
        Rating(1500.0, 100.0, -1),
    ],
)
def test_a_rating_that_is_not_a_finite_number_is_refused_not_spread(
    system: RatingSystem, bad: Rating
) -> None:
    with pytest.raises(ValueError, match="rating"):
        system.rate([bad, Rating(1500.0, 100.0, 3)], [1, 2])


@systems
@pytest.mark.parametrize("places", [[0, 1], [1.5, 1], [True, 2]])
def test_a_place_must_be_a_whole_number_from_one(system: RatingSystem, places: list) -> None:
    with pytest.raises(ValueError, match="place"):
        system.rate([Rating(), Rating()], places)


@pytest.mark.parametrize(
    "record",
    [
        Record(Rating(1500.0, 100.0, 3), 2, 3.0),
        Record(Rating(1500.0, 100.0, 3), 2, -0.5),
        Record(Rating(1500.0, 100.0, 3), -1, 0.0),
        Record(Rating(1500.0, 100.0, 3), 2, math.nan),
        Record(Rating(math.nan, 100.0, 3), 2, 1.0),
    ],
)
def test_a_record_that_cannot_be_is_refused(record: Record) -> None:
    past = Past(Rating(1500.0, 300.0, 0), (record,))
    with pytest.raises(ValueError, match="record"):
        REFIT.rate([Rating(1500.0, 300.0, 0), Rating()], [1, 2], [past, Past(Rating())])
    with pytest.raises(ValueError, match="record"):
        REFIT.refit(past, 2)


def test_records_against_thousands_of_opponents_fold_into_a_bounded_number_of_terms() -> None:
    rng = random.Random(7)
    records = [
        Record(
            Rating(rng.uniform(700.0, 2300.0), rng.uniform(30.0, 420.0), 9), 6, rng.uniform(0, 6)
        )
        for _ in range(5000)
    ]
    terms = folded_evidence(records, 0.7, REFIT.rating_bin, REFIT.damper_bin)
    assert len(terms) <= (1600 / REFIT.rating_bin + 1) * (0.5 / REFIT.damper_bin + 2)
    assert len(terms) < 2500
    assert math.fsum(term.games for term in terms) == pytest.approx(0.7 * 6 * 5000)
    assert math.fsum(term.damper * term.points for term in terms) == pytest.approx(
        0.7 * math.fsum(damper(record.opponent.deviation) * record.points for record in records)
    )
    assert all(0 <= term.points <= term.games for term in terms)


@given(
    st.lists(
        st.tuples(st.floats(800, 2200), st.floats(30, 420), st.integers(0, 50), st.floats(0, 1)),
        min_size=1,
        max_size=60,
    ),
    st.floats(800, 2200),
)
def test_folding_records_moves_a_refit_by_far_less_than_a_point(
    rows: list[tuple[float, float, int, float]], start: float
) -> None:
    records = tuple(
        Record(Rating(value, deviation, 5), games, share * games)
        for value, deviation, games, share in rows
    )
    past = Past(Rating(start, 350.0, 0), records)
    every = RefitGlicko(rating_bin=0.0)
    assert REFIT.refit(past, 4).value == pytest.approx(every.refit(past, 4).value, abs=0.05)
    assert REFIT.refit(past, 4).deviation == pytest.approx(every.refit(past, 4).deviation, abs=0.05)
