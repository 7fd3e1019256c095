"""``aaaf serve`` against a hostile network (docs/security.md "Connections", "Headers",
"Behind a TLS proxy"): a request dribbled in a byte at a time is cut off, every answer
carries the security headers, and forwarded headers count only from the proxy named."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.conftest import LiveServer, Server, start_server
from tests.conftest import copy_sqlite_template

READ_TIMEOUT_S = 2.0
AUTH_FAILURES = 5


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory, _sqlite_template: Path) -> Iterator[Server]:
    """A server behind a "proxy" on 127.0.0.1, with a short read deadline."""
    log_dir: Path = tmp_path_factory.mktemp("serve-proxied")
    server = start_server(
        f"sqlite:///{copy_sqlite_template(_sqlite_template, log_dir / 'aaaf.db')}",
        log_dir,
        extra_env={
            "AAAF_HTTP_READ_TIMEOUT_SECONDS": str(READ_TIMEOUT_S),
            "AAAF_AUTH_FAILURES_PER_MINUTE": str(AUTH_FAILURES),
        },
        extra_args=("--forwarded-allow-ips", "127.0.0.1"),
    )
    try:
        yield server
    finally:
        server.stop()


def test_a_request_dribbled_in_is_cut_off(proxied: Server) -> None:
    host, port = proxied.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=1.0) as connection:
        started = time.monotonic()
        closed = False
        for byte in b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200:
            try:
                connection.sendall(bytes([byte]))
                if connection.recv(1, socket.MSG_DONTWAIT) == b"":
                    closed = True
                    break
            except BlockingIOError:
                pass
            except OSError:
                closed = True
                break
            if time.monotonic() - started > 6 * READ_TIMEOUT_S:
                break
            time.sleep(0.2)
        assert closed, "the server kept a connection whose headers never ended"
        assert time.monotonic() - started < 3 * READ_TIMEOUT_S
    assert httpx.get(f"{proxied.base_url}/health").status_code == 200


def test_secure_cookies_and_hsts_only_behind_the_proxy_named(proxied: Server, live: LiveServer) -> None:
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    behind = httpx.get(f"{proxied.base_url}/sign-in", headers=forwarded)
    assert behind.status_code == 200
    assert "secure" in behind.headers["set-cookie"].lower()
    assert behind.headers["strict-transport-security"].startswith("max-age=")
    # a server told of no proxy ignores the same headers: no Secure cookie over plain http, no HSTS
    direct = live.anonymous.get("/sign-in", headers=forwarded)
    assert "secure" not in direct.headers["set-cookie"].lower()
    assert "strict-transport-security" not in direct.headers


def test_every_answer_carries_the_security_headers(live: LiveServer) -> None:
    org = live.organization()
    answers = {
        "sign-in page": live.anonymous.get("/sign-in"),
        "health": live.anonymous.get("/health"),
        "unknown route": live.anonymous.get("/api/v1/nothing-here"),
        "refused key": live.client("ak_wrong").get("/api/v1/agents"),
        "signed-in JSON": org.client.get("/api/v1/agents"),
    }
    for what, answer in answers.items():
        headers = answer.headers
        assert headers["x-content-type-options"] == "nosniff", what
        assert headers["x-frame-options"] == "DENY", what
        assert "frame-ancestors 'none'" in headers["content-security-policy"], what
        assert headers["referrer-policy"] == "same-origin", what
    page_policy = answers["sign-in page"].headers["content-security-policy"]
    assert "script-src 'self';" in page_policy and "unsafe-inline' ;" not in page_policy
    assert "'unsafe-inline'" not in page_policy.split("script-src", 1)[1].split(";", 1)[0]
    assert answers["signed-in JSON"].headers["cache-control"] == "no-store"
    assert answers["sign-in page"].headers["cache-control"] == "no-store"


def test_the_sign_in_page_shows_only_its_own_messages(live: LiveServer) -> None:
    planted = live.anonymous.get("/sign-in", params={"error": "Your key expired: call +1 555 0100 now"})
    assert planted.status_code == 200
    assert "555 0100" not in planted.text
    ended = live.anonymous.get("/sign-in", params={"error": "session-ended"})
    assert "Your session has ended; sign in again." in ended.text


def test_failed_authentication_is_limited_per_address_and_key_prefix(proxied: Server) -> None:
    def attempt(address: str, key: str) -> int:
        headers = {"Authorization": f"Bearer {key}", "X-Forwarded-For": address}
        return httpx.get(f"{proxied.base_url}/api/v1/agents", headers=headers).status_code

    # one address guessing many keys
    guesses = [
        attempt("198.51.100.7", f"ak_guess{index:04d}-xxxxxxxxxxxx") for index in range(AUTH_FAILURES + 2)
    ]
    assert guesses[:AUTH_FAILURES] == [401] * AUTH_FAILURES
    assert guesses[AUTH_FAILURES:] == [429, 429]
    assert attempt("198.51.100.8", "ak_other000-xxxxxxxxxxxx") == 401  # another address is not held back
    # many addresses guessing the rest of one key
    spread = [
        attempt(f"198.51.100.{20 + index}", f"ak_samepref-{index:012d}") for index in range(AUTH_FAILURES + 1)
    ]
    assert spread[:AUTH_FAILURES] == [401] * AUTH_FAILURES and spread[-1] == 429


def test_failed_sign_ins_are_limited_like_failed_api_keys(proxied: Server) -> None:
    """The dashboard's sign-in form is another way to guess keys: it counts the same way."""
    browser = httpx.Client(
        base_url=proxied.base_url, timeout=30.0, headers={"X-Forwarded-For": "203.0.113.9"}
    )
    form = browser.get("/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert token, form.text[:300]

    def attempt(index: int) -> int:
        data = {"csrf_token": token.group(1), "api_key": f"ak_form{index:04d}-xxxxxxxxxxxx", "next": "/"}
        return browser.post("/sign-in", data=data, follow_redirects=False).status_code

    answers = [attempt(index) for index in range(AUTH_FAILURES + 2)]
    assert answers[:AUTH_FAILURES] == [401] * AUTH_FAILURES and answers[AUTH_FAILURES:] == [429, 429]
    assert (
        "Too many failed authentications"
        in browser.post(
            "/sign-in",
            data={"csrf_token": token.group(1), "api_key": "ak_formlast-xxxxxxxxxxxx", "next": "/"},
        ).text
    )


def test_wrong_oauth_client_secrets_are_limited_like_wrong_keys(proxied: Server) -> None:
    """A client id and secret are a credential too: wrong secrets count against the address
    and the client id, on the dashboard's sign-in form and on ``POST /oauth/token``."""
    browser = httpx.Client(
        base_url=proxied.base_url, timeout=30.0, headers={"X-Forwarded-For": "203.0.113.41"}
    )
    token = re.search(r'name="csrf_token" value="([^"]+)"', browser.get("/sign-in").text)
    assert token

    def sign_in(secret: str) -> int:
        data = {"csrf_token": token.group(1), "client_id": "oc_guessed", "client_secret": secret, "next": "/"}
        return browser.post("/sign-in", data=data, follow_redirects=False).status_code

    answers = [sign_in(f"wrong-{index}") for index in range(AUTH_FAILURES + 2)]
    assert answers[:AUTH_FAILURES] == [401] * AUTH_FAILURES and answers[AUTH_FAILURES:] == [429, 429]

    def token_request(address: str, client_id: str) -> int:
        form = {"grant_type": "client_credentials", "client_id": client_id, "client_secret": "wrong"}
        return httpx.post(
            f"{proxied.base_url}/oauth/token", data=form, headers={"X-Forwarded-For": address}
        ).status_code

    # many addresses guessing one client's secret
    spread = [token_request(f"203.0.113.{50 + index}", "oc_target") for index in range(AUTH_FAILURES + 1)]
    assert spread[:AUTH_FAILURES] == [401] * AUTH_FAILURES and spread[-1] == 429
    assert token_request("203.0.113.90", "oc_another") == 401  # another client, another address


def test_a_short_admin_key_stops_the_server_naming_the_setting(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="AAAF_ADMIN_KEY is 5 characters long; it must be at least 32"):
        start_server(f"sqlite:///{tmp_path / 'aaaf.db'}", tmp_path, admin_key="short")


def _signed_in_browser(live: LiveServer, key: str) -> httpx.Client:
    browser = httpx.Client(base_url=live.base_url, timeout=30.0)
    form = browser.get("/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert token, form.text[:300]
    signed = browser.post(
        "/sign-in", data={"csrf_token": token.group(1), "api_key": key, "next": "/"}, follow_redirects=False
    )
    assert signed.status_code == 303, signed.text
    return browser


def test_signing_out_ends_the_session_at_once(live: LiveServer) -> None:
    org = live.organization()
    browser = _signed_in_browser(live, org.key)
    copied = browser.cookies["aaaf_session"]
    page = browser.get("/")
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-store"
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert token, page.text[:300]
    out = browser.post("/sign-out", data={"csrf_token": token.group(1)}, follow_redirects=False)
    assert out.status_code == 303
    with httpx.Client(base_url=live.base_url, cookies={"aaaf_session": copied}) as thief:
        again = thief.get("/", follow_redirects=False)
    assert again.status_code == 303
    assert again.headers["location"].startswith("/sign-in?next=")
    browser.close()


def test_a_request_with_two_framings_is_refused(live: LiveServer) -> None:
    host, port = live.base_url.removeprefix("http://").split(":")
    request = (
        b"POST /api/v1/agents HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
    )
    with socket.create_connection((host, int(port)), timeout=10.0) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):  # the server closes the connection after answering
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"both Content-Length and Transfer-Encoding" in answer
