"""Ladders: the shipped set with house bots, rules-checked configuration, and standings."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.http import Http404

from bots.house import ladder_create, ladders_seed
from bots.models import Bot, BotVersion
from bots.selectors import ladder_standings
from ladders.models import Ladder
from ladders.selectors import ladder_get, ladder_list


def test_the_default_ladders_ship_with_two_house_bots_each(ladders: dict[str, Ladder]) -> None:
    shipped = {(slug, it.game, it.variant, it.seats) for slug, it in ladders.items()}
    assert shipped == {
        ("mia-classic-4", "mia", "classic", 4),
        ("mia-no-guarantee-4", "mia", "no-guarantee", 4),
        ("muggins-2", "muggins", "standard", 2),
        ("muggins-4", "muggins", "standard", 4),
    }
    for ladder in ladders.values():
        house = Bot.objects.filter(ladder=ladder, kind=Bot.Kind.HOUSE)
        assert {bot.name for bot in house} == {"builtin:random", "builtin:strong"}
        assert all(bot.current_version.status == BotVersion.Status.ACCEPTED for bot in house)
        assert {bot.owner.username for bot in house} == {"tavolo"}


def test_seeding_twice_adds_nothing(ladders: dict[str, Ladder]) -> None:
    counts = Ladder.objects.count(), Bot.objects.count(), BotVersion.objects.count()
    ladders_seed()
    assert (Ladder.objects.count(), Bot.objects.count(), BotVersion.objects.count()) == counts


def test_the_system_user_that_owns_house_bots_cannot_log_in(ladders: dict[str, Ladder]) -> None:
    owner = Bot.objects.filter(kind=Bot.Kind.HOUSE).first().owner
    assert not owner.is_active
    assert not owner.has_usable_password()


@pytest.mark.parametrize(
    ("game", "variant", "seats", "options"),
    [
        ("mia", "classic", 1, {}),
        ("mia", "bluffing", 4, {}),
        ("muggins", "standard", 5, {}),
        ("mia", "classic", 4, {"doubles_order": "sideways"}),
        ("chess", "", 2, {}),
    ],
)
def test_a_ladder_the_rules_do_not_allow_is_refused(
    db: None, game: str, variant: str, seats: int, options: dict
) -> None:
    with pytest.raises(ValidationError):
        ladder_create(
            slug="bad", name="Bad", game=game, variant=variant, seats=seats, options=options
        )
    assert not Ladder.objects.exists()
    assert not Bot.objects.exists()


def test_a_ladder_with_options_gets_its_house_bots(db: None) -> None:
    ladder = ladder_create(
        slug="mia-66",
        name="Mia, 66 high",
        game="mia",
        variant="classic",
        seats=3,
        options={"doubles_order": "66-high"},
    )
    assert ladder.make_game().rules["doubles_order"] == "66-high"
    assert ladder.bots.count() == 2


def test_the_ladder_list_hides_inactive_ladders_unless_asked(ladders: dict[str, Ladder]) -> None:
    Ladder.objects.filter(slug="muggins-4").update(active=False)
    assert "muggins-4" not in {ladder.slug for ladder in ladder_list()}
    assert "muggins-4" in {ladder.slug for ladder in ladder_list(active_only=False)}


def test_an_unknown_ladder_is_not_found(db: None) -> None:
    with pytest.raises(Http404):
        ladder_get(slug="nowhere")


def test_standings_rank_accepted_bots_by_rating_with_band_and_provisional_flag(
    alice: AbstractUser, mia_ladder: Ladder, accepted_bot: Callable
) -> None:
    accepted_bot(
        owner=alice, ladder=mia_ladder, name="veteran", rating=1700.0, games=120, deviation=21.0
    )
    accepted_bot(
        owner=alice, ladder=mia_ladder, name="rookie", rating=1800.0, games=3, deviation=150.0
    )
    Bot.objects.create(owner=alice, ladder=mia_ladder, name="unqualified", rating=2500.0)
    standings = ladder_standings(ladder=mia_ladder)
    assert [(line.rank, line.bot.name) for line in standings] == [
        (1, "rookie"),
        (2, "veteran"),
        (3, "builtin:random"),
        (4, "builtin:strong"),
    ]
    rookie, veteran = standings[0], standings[1]
    assert (rookie.owner, rookie.version, rookie.games) == ("alice", 1, 3)
    assert rookie.provisional and not veteran.provisional
    assert rookie.band == pytest.approx(300)
    assert veteran.band == pytest.approx(42)
    assert standings[2].house and not rookie.house
