"""The wheel's package list names every package of the checkout.

tests/test_install.py finds a missing package too, but only after building and
installing the wheel (minutes, marked ``install``); this finds it at once.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def wheel_packages() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"])


def checkout_packages() -> set[str]:
    top = {"arena", "sandbox"}
    apps = {
        f"platform/{folder.name}"
        for folder in (ROOT / "platform").iterdir()
        if (folder / "__init__.py").is_file()
    }
    return top | apps


def test_the_wheel_ships_every_package_of_the_checkout() -> None:
    missing = checkout_packages() - wheel_packages()
    assert not missing, f"pyproject.toml's wheel packages leave out {sorted(missing)}"


def test_the_wheel_names_no_package_the_checkout_lacks() -> None:
    extra = {name for name in wheel_packages() if not (ROOT / name / "__init__.py").is_file()}
    assert not extra, f"pyproject.toml's wheel packages name {sorted(extra)}, which do not exist"


def test_every_app_of_the_site_is_shipped_and_sorted_as_first_party() -> None:
    from django.conf import settings

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    first_party = set(config["tool"]["ruff"]["lint"]["isort"]["known-first-party"])
    ours = {
        app.split(".")[0]
        for app in settings.INSTALLED_APPS
        if (ROOT / "platform" / app.split(".")[0] / "__init__.py").is_file()
    }
    assert ours, "INSTALLED_APPS names none of the platform's apps"
    assert not {f"platform/{app}" for app in ours} - wheel_packages()
    assert not ours - first_party, "known-first-party leaves out some of INSTALLED_APPS"
