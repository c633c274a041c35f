"""deploy/ holds what an operator runs: every file it names exists, every variable it sets is
a setting the code reads, and the proxy in front is the one the site trusts.

There is no container runtime here, so the images and the compose file are checked as files.
"""

from __future__ import annotations

import json
import re
from ipaddress import ip_address
from pathlib import Path

import pytest
import yaml
from django.core.management import get_commands

from tavolo_site.env import env_networks

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = ROOT / "deploy"
COMPOSE = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
TAVOLO_IMAGES = {"tavolo-web", "tavolo-worker"}
TOOL_VARIABLES = re.compile(r"^(PYTHON\w*|UV_\w+|PATH|POSTGRES_\w+)$")
"""Variables read by Python, uv or the PostgreSQL image, not by Tavolo."""
READ_ELSEWHERE = {"DJANGO_SETTINGS_MODULE", "PROMETHEUS_MULTIPROC_DIR"}
"""Read by Django and by prometheus-client themselves."""


def variables_the_code_reads() -> set[str]:
    """Every NAME read through tavolo_site.env's helpers, os.environ, or named as a variable."""
    patterns = [
        re.compile(r'env_[a-z]+\(\s*"([A-Z][A-Z0-9_]+)"'),
        re.compile(r'environ(?:\.get\(|\[)\s*"([A-Z][A-Z0-9_]+)"'),
        re.compile(r'_VARIABLE = "([A-Z][A-Z0-9_]+)"'),
    ]
    names = set(READ_ELSEWHERE)
    for folder in ("platform", "sandbox", "arena"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            for pattern in patterns:
                names.update(pattern.findall(text))
    return names


def setting_name(variable: str) -> str:
    return variable.removesuffix("_FILE")


def tavolo_services() -> dict[str, dict]:
    return {
        name: service
        for name, service in COMPOSE["services"].items()
        if service.get("image") in TAVOLO_IMAGES
    }


def deploy_variables() -> dict[str, set[str]]:
    """Each deploy file's variables, by file."""
    found: dict[str, set[str]] = {}
    example = (DEPLOY / "tavolo.env.example").read_text()
    found["tavolo.env.example"] = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", example, re.M))
    for unit in (DEPLOY / "systemd").glob("*.service"):
        found[unit.name] = set(
            re.findall(r"^Environment=([A-Z][A-Z0-9_]+)=", unit.read_text(), re.M)
        )
    for name, service in tavolo_services().items():
        found[f"compose {name}"] = set(service.get("environment", {}))
    for dockerfile in (DEPLOY / "docker").glob("*.Dockerfile"):
        text = dockerfile.read_text()
        env_block = re.findall(r"^ENV (.*?)(?<!\\)$", text, re.M | re.S)
        names = set(re.findall(r"([A-Z][A-Z0-9_]+)=", " ".join(env_block)))
        found[dockerfile.name] = {name for name in names if not TOOL_VARIABLES.match(name)}
    return found


def test_every_variable_in_deploy_files_is_read_by_the_code() -> None:
    known = variables_the_code_reads()
    unknown = {
        f"{where}: {variable}"
        for where, variables in deploy_variables().items()
        for variable in variables
        if setting_name(variable) not in known
    }
    assert not unknown, sorted(unknown)


def test_the_environment_example_and_the_docs_name_every_setting() -> None:
    example = deploy_variables()["tavolo.env.example"]
    settings_file = (ROOT / "platform" / "tavolo_site" / "settings.py").read_text()
    settings = set(re.findall(r'env_[a-z]+\(\s*"([A-Z][A-Z0-9_]+)"', settings_file))
    missing = settings - {setting_name(name) for name in example} - {"DEBUG"}
    assert not missing, sorted(missing)
    docs = (ROOT / "docs" / "deploy.md").read_text()
    table = docs[docs.index("## Every setting") :]
    assert not {name for name in settings if f"`{name}`" not in table}


def test_the_compose_file_builds_and_mounts_files_that_exist() -> None:
    for name, service in COMPOSE["services"].items():
        build = service.get("build")
        if build:
            context = (DEPLOY / build["context"]).resolve()
            assert (context / build["dockerfile"]).is_file(), name
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                assert (DEPLOY / source).is_file(), f"{name}: {source}"
            else:
                assert source in COMPOSE["volumes"], f"{name}: {source} is not a named volume"
        for option in service.get("security_opt", []):
            kind, _, value = option.partition("=")
            if kind == "seccomp":
                profile = json.loads((DEPLOY / value).read_text())
                assert {"unshare", "clone", "mount", "pivot_root"}.isdisjoint(
                    profile["syscalls"][0]["names"]
                ), "bubblewrap's system calls are allowed"
            if kind == "apparmor":
                apparmor = (DEPLOY / "docker" / "tavolo-worker.apparmor").read_text()
                assert f"profile {value} " in apparmor
    for image in TAVOLO_IMAGES:
        assert any(s.get("build") for s in COMPOSE["services"].values() if s["image"] == image)


def test_volumes_keep_the_database_and_the_replays() -> None:
    services = COMPOSE["services"]
    assert "database:/var/lib/postgresql/data" in services["postgres"]["volumes"]
    for name in ("web", "worker"):
        assert "replays:/var/lib/tavolo/media" in services[name]["volumes"]
    assert "container_name" not in services["worker"], "docker compose --scale worker=N"


def test_manage_py_commands_named_in_deploy_files_and_docs_exist() -> None:
    texts = [
        (DEPLOY / "compose.yaml").read_text(),
        (DEPLOY / "README.md").read_text(),
        (ROOT / "docs" / "deploy.md").read_text(),
    ]
    named = {name for text in texts for name in re.findall(r"manage\.py ([a-z_]+)", text)}
    docs = (ROOT / "docs" / "deploy.md").read_text()
    table = docs[docs.index("## Operator commands") : docs.index("## When a service is down")]
    named |= set(re.findall(r"^\| `([a-z_]+)", table, re.M))
    assert {"migrate", "tavolo_health", "match_requeue", "files_orphaned"} <= named
    assert named <= set(get_commands()), sorted(named - set(get_commands()))


@pytest.mark.parametrize("conf", ["nginx/tavolo.conf", "docker/nginx.conf"])
def test_nginx_sets_the_forwarded_address_instead_of_passing_the_clients(conf: str) -> None:
    text = (DEPLOY / conf).read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in text
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in text


def test_the_site_in_compose_trusts_exactly_its_nginx(monkeypatch: pytest.MonkeyPatch) -> None:
    services = COMPOSE["services"]
    nginx_address = ip_address(services["nginx"]["networks"]["tavolo"]["ipv4_address"])
    for name, service in tavolo_services().items():
        monkeypatch.setenv(
            "TAVOLO_TRUSTED_PROXIES", service["environment"]["TAVOLO_TRUSTED_PROXIES"]
        )
        trusted = env_networks("TAVOLO_TRUSTED_PROXIES")
        assert any(nginx_address in network for network in trusted), name
        assert all(network.num_addresses == 1 for network in trusted), "nginx alone"
