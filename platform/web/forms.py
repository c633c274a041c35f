"""The site's forms: they check shape only; the services check the rules.

An uploaded file goes to the same `bots.services.bot_version_upload` as the API,
so the form and the API accept and refuse exactly the same files.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import MinValueValidator
from django.db import connection
from django.db.models import QuerySet

from bots.checks import MAX_SOURCE_SIZE, ONE_FILE_ONLY
from bots.models import Bot
from ladders.models import Ladder
from matches.models import Match
from matches.selectors import BOT_RESULTS
from tournaments.models import Tournament


class SignupForm(UserCreationForm):
    """A user name and a password typed twice; the account is made by `user_create`."""


class UploadForm(forms.Form):
    file = forms.FileField(
        allow_empty_file=True,
        help_text=f"One Python file under {MAX_SOURCE_SIZE} that defines act.",
    )

    ERROR_FIELDS = {
        "bad_name": "name",
        "name_taken": "name",
        "unknown_ladder": "ladder",
        "ladder_inactive": "ladder",
    }
    """The field each upload refusal is shown beside; anything else is about the file."""

    def clean_file(self) -> UploadedFile:
        """Refuse several files sent as ``file`` (only the last would be kept)."""
        if len(self.files.getlist("file")) > 1:
            raise ValidationError(ONE_FILE_ONLY, code="several_files")
        file: UploadedFile = self.cleaned_data["file"]
        return file

    def add_service_error(self, error: ValidationError) -> None:
        """Show a refusal of the upload service beside the field it is about."""
        if hasattr(error, "error_dict"):
            self.add_error(None, error)
            return
        for item in error.error_list:
            field = self.ERROR_FIELDS.get(item.code or "", "file")
            self.add_error(field if field in self.fields else None, item)


class BotCreateForm(UploadForm):
    name = forms.CharField(max_length=40, help_text="2 to 40 letters, digits, '-' or '_'.")
    ladder = forms.ModelChoiceField(queryset=Ladder.objects.none(), to_field_name="slug")

    field_order = ["name", "ladder", "file"]

    def __init__(self, *args: Any, ladders: QuerySet[Ladder], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["ladder"]).queryset = ladders


class BotsField(forms.ModelMultipleChoiceField):
    """Bots by id; an id no database column can hold is an unknown choice, not a crash.

    SQLite cannot even compare such an id (an OverflowError in the query).
    """

    def clean(self, value: object) -> QuerySet[Bot]:
        lowest, highest = connection.ops.integer_field_range("BigAutoField")
        for key in value if isinstance(value, (list, tuple)) else ():
            try:
                number = int(str(key))
            except ValueError:
                continue  # the field itself refuses what is not a number
            if not lowest <= number <= highest:
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": key},
                )
        return super().clean(value)

    def label_from_instance(self, obj: Bot) -> str:
        return f"{obj.name} ({obj.owner.username}, {obj.rating:.0f})"


class ChallengeForm(forms.Form):
    opponents = BotsField(queryset=Bot.objects.none(), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, candidates: QuerySet[Bot], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(BotsField, self.fields["opponents"]).queryset = candidates


class MatchFilterForm(forms.Form):
    """The match list's filters, read from the query string; every one optional."""

    ladder = forms.ModelChoiceField(
        queryset=Ladder.objects.all(), to_field_name="slug", required=False, empty_label="any"
    )
    bot = forms.ModelChoiceField(
        queryset=Bot.objects.all(), required=False, widget=forms.NumberInput, label="Bot id"
    )
    kind = forms.ChoiceField(choices=[("", "any"), *Match.Kind.choices], required=False)
    status = forms.ChoiceField(choices=[("", "any"), *Match.Status.choices], required=False)
    result = forms.ChoiceField(
        choices=[("", "any"), *((result, result) for result in BOT_RESULTS)],
        required=False,
        help_text="The bot's own result.",
    )
    page = forms.IntegerField(
        min_value=1, max_value=10_000, required=False, widget=forms.HiddenInput
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("result") and not cleaned.get("bot"):
            self.add_error("result", "choose a bot to filter by its result")
        return cleaned


class TournamentForm(forms.ModelForm):
    """A new tournament, for staff; `Tournament.clean` refuses a format that could not run.

    Times are UTC. Whether enough bots entered is known only at the entry
    deadline, when a field the format cannot seat cancels the tournament.
    """

    LOCAL_TIME = "%Y-%m-%dT%H:%M"

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "ladder",
            "format",
            "rounds",
            "repeat",
            "best_of",
            "elimination",
            "groups",
            "points",
            "entries_open_at",
            "entries_close_at",
            "starts_at",
            "open_to_all",
        ]
        labels = {
            "entries_open_at": "Entries open (UTC)",
            "entries_close_at": "Entries close (UTC)",
            "starts_at": "Starts (UTC)",
        }
        help_texts = {
            "slug": "Its address: /tournaments/<slug>/ (letters, digits, - and _).",
            "points": "Points per place, first to last, e.g. [3, 1, 0]; empty: K-1 down to 0.",
            "open_to_all": "Otherwise by invitation only (invite users in the admin).",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ladder = cast(forms.ModelChoiceField, self.fields["ladder"])
        ladder.queryset = Ladder.objects.filter(active=True).order_by("name")
        for name in ("entries_open_at", "entries_close_at", "starts_at"):
            field = cast(forms.DateTimeField, self.fields[name])
            field.widget = forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format=self.LOCAL_TIME
            )
            field.input_formats = [self.LOCAL_TIME, "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"]
        for name in ("rounds", "repeat", "best_of", "groups"):
            self.fields[name].validators.append(MinValueValidator(1))
            self.fields[name].widget.attrs["min"] = 1
