"""The address a request came from, trusting forwarded headers only from the site's proxies.

Anyone can send ``X-Forwarded-For``. The site believes it only when the
request reached it from a proxy listed in ``TAVOLO_TRUSTED_PROXIES``, and then
only as far as that proxy vouches: the header is read from the right, each
trusted proxy's entry is skipped, and the first address no trusted proxy
answers for is the client. An address the client wrote into the header itself
stands left of it and is never reached. Throttles, the metrics' networks and
the access log all ask `client_address`.
"""

from __future__ import annotations

from ipaddress import IPv4Network, IPv6Network, ip_address

from django.conf import settings
from django.http import HttpRequest


def _trusted(address: str, proxies: list[IPv4Network | IPv6Network]) -> bool:
    try:
        parsed = ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in proxies)


def client_address(request: HttpRequest) -> str:
    """The client's address: the peer's, or the one a trusted proxy forwarded for it."""
    remote: str = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TAVOLO_TRUSTED_PROXIES
    if not _trusted(remote, proxies):
        return remote
    forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, proxies):
            return hop
    return hops[0] if hops else remote
