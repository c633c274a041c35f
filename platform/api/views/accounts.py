"""The current user and the personal API token."""

from __future__ import annotations

from collections.abc import Mapping

from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts.logins import login_refusal
from accounts.requests import SignedInRequest
from accounts.services import user_api_token_get
from accounts.trust import login_trust_grant
from accounts.usernames import username_normalize
from api.exceptions import WrongCredentials
from api.schema import errors
from api.serializers import TokenSerializer, UserSerializer
from bots.selectors import bot_list
from matches.challenges import challenges_left
from qualification.selectors import bots_with_versions


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: UserSerializer, **errors(401)})
    def get(self, request: SignedInRequest) -> Response:
        """The logged-in user, their bots and the challenges they may still start this hour."""
        user = request.user
        data = {
            "id": user.pk,
            "username": user.username,
            "is_staff": user.is_staff,
            "challenges_left": challenges_left(user=user),
            "bots": bots_with_versions(bot_list(owner=user)),
        }
        return Response(UserSerializer(data, context={"request": request}).data)


class TokenView(APIView):
    """Trade a user name and password for the personal API token.

    Attempts are counted per address and per account by `accounts.logins`.
    """

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes: list = []

    @extend_schema(
        request=AuthTokenSerializer, responses={200: TokenSerializer, **errors(400, 429)}, auth=[]
    )
    def post(self, request: Request) -> Response:
        """The user's personal token (the same one until it is regenerated on the site)."""
        fields = dict(request.data.items()) if isinstance(request.data, Mapping) else {}
        if "username" in fields:
            # The name as the site's log-in forms read it, checked and counted as it is tried.
            fields["username"] = username_normalize(fields["username"])
        refusal = login_refusal(request, fields.get("username", ""))
        if refusal is not None:
            raise Throttled(wait=refusal.wait, detail=f"{refusal.reason}.")
        credentials = AuthTokenSerializer(data=fields, context={"request": request})
        if not credentials.is_valid():
            if set(credentials.errors) == {api_settings.NON_FIELD_ERRORS_KEY}:
                raise WrongCredentials()
            raise ValidationError(credentials.errors)
        user = credentials.validated_data["user"]
        login_trust_grant(request, user.get_username())
        return Response({"token": user_api_token_get(user=user)})
