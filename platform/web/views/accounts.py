"""Sign-up, the account page with the API token, and creating a bot."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts.logins import login_refusal
from accounts.requests import SignedInHttpRequest
from accounts.services import user_api_token_get, user_api_token_rotate, user_create
from accounts.throttles import SignupThrottle, UploadThrottle, throttle_refusal
from accounts.usernames import username_normalize
from bots import services as bot_services
from bots.checks import bot_file_read
from bots.selectors import bot_list
from ladders.selectors import ladder_list
from matches.challenges import challenges_left
from web.caching import visitor_cached
from web.forms import BotCreateForm, SignupForm


class ThrottledLoginView(LoginView):
    """Django's log-in page, under the same brakes on password attempts as the API's token
    endpoint (`accounts.logins`): a refused attempt never reaches the password check."""

    template_name = "web/login.html"
    redirect_authenticated_user = True
    next_page = "web:account"

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        refusal = login_refusal(request, username_normalize(request.POST.get("username", "")))
        if refusal is None:
            return super().post(request, *args, **kwargs)
        context = self.get_context_data(form=AuthenticationForm(request), refusal=refusal)
        return self.render_to_response(context, status=429)


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:account")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and (refusal := throttle_refusal(SignupThrottle, request)):
        form.add_error(None, refusal)
        return render(request, "web/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        user = user_create(
            username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}: your account is ready.")
        return redirect("web:account")
    return render(request, "web/signup.html", {"form": form})


@visitor_cached
def user_page(request: HttpRequest, username: str) -> HttpResponse:
    """A user's public page: their bots on every ladder."""
    person = get_object_or_404(get_user_model(), username=username, is_active=True)
    context = {"person": person, "bots": bot_list(owner=person).order_by("ladder__slug", "name")}
    return render(request, "web/user.html", context)


@login_required
def account(request: SignedInHttpRequest) -> HttpResponse:
    form = BotCreateForm(ladders=ladder_list())
    return _account_page(request, form)


def _account_page(
    request: SignedInHttpRequest, form: BotCreateForm, status: int = 200
) -> HttpResponse:
    context = {
        "token": user_api_token_get(user=request.user),
        "bots": bot_list(owner=request.user),
        "challenges_left": challenges_left(user=request.user),
        "form": form,
    }
    return render(request, "web/account.html", context, status=status)


@login_required
@require_POST
def token_regenerate(request: SignedInHttpRequest) -> HttpResponse:
    user_api_token_rotate(user=request.user)
    messages.success(request, "A new API token was made; the old one no longer works.")
    return redirect("web:account")


@login_required
@require_POST
def bot_create(request: SignedInHttpRequest) -> HttpResponse:
    form = BotCreateForm(request.POST, request.FILES, ladders=ladder_list())
    refusal = throttle_refusal(UploadThrottle, request)
    if refusal is not None:
        form.add_error(None, refusal)
        return _account_page(request, form, status=429)
    if form.is_valid():
        try:
            version = bot_services.bot_create(
                user=request.user,
                ladder=form.cleaned_data["ladder"],
                name=form.cleaned_data["name"],
                source_bytes=bot_file_read(form.cleaned_data["file"]),
                filename=form.cleaned_data["file"].name,
            )
        except ValidationError as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"{version.bot.name} was created; version 1 is qualifying.")
            return redirect("web:bot", version.bot_id)
    return _account_page(request, form, status=400)
