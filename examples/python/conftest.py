"""pytest fixtures for the media-generation emulator: one emulator for the whole run, a sandbox for each test.

One emulator serves every test, in every pytest-xdist worker. Each xdist worker runs its own session, so the process
that runs pytest (xdist's controller, or pytest itself without -n) starts it in pytest_configure and hands its URL to
the workers through the environment, which they inherit. The session fixture `emulator` gives that URL to the tests.
Each test then gets its own sandbox (`sandbox`): its own wallet, keys, generations, fault rules, journal and clock, so
tests running at the same time never see each other's, and the sandbox is deleted when the test ends.

The emulator is, in this order:
- the one already running at EMULATOR_URL (with EMULATOR_ADMIN_TOKEN when it needs one);
- the Docker image named by EMULATOR_IMAGE (e.g. `media-gen-emulator`, from `docker build -t media-gen-emulator .`);
- the CLI: EMULATOR_CLI, else this checkout's dist/cli/main.js (in your project,
  node_modules/media-gen-emulator/dist/cli/main.js, what `npx media-gen-emulator` runs), with node.

Only the standard library and httpx.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

CLI = Path(os.environ.get("EMULATOR_CLI", Path(__file__).resolve().parents[2] / "dist" / "cli" / "main.js"))
START_TIMEOUT_S = 60
LISTENING = re.compile(r"listening on (http://\S+)")


def _wait_for_listening(stream, what: str) -> str:
    """Reads `stream` until the CLI's "listening on" line and answers its URL, then keeps draining the stream so the
    emulator never blocks on a full pipe. Fails after START_TIMEOUT_S with what the emulator printed."""
    seen: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for line in stream:
            if not ready.is_set():
                seen.append(line)
                if LISTENING.search(line):
                    ready.set()
        ready.set()  # the stream closed: the process ended

    threading.Thread(target=read, daemon=True).start()
    ready.wait(START_TIMEOUT_S)
    found = [match for match in map(LISTENING.search, seen) if match]
    if not found:
        raise RuntimeError(f"{what} exited or was silent for {START_TIMEOUT_S} s before listening:\n{''.join(seen)}")
    return found[0].group(1)


def _start_cli() -> tuple[str, Callable[[], None]]:
    if not CLI.exists():
        raise RuntimeError(f"No emulator CLI at {CLI}: run `npm run build` first, or set EMULATOR_CLI.")
    # Port 0: a free port, which the CLI prints. Loopback only, so the control plane needs no admin token.
    child = subprocess.Popen(
        ["node", str(CLI), "--port", "0", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        url = _wait_for_listening(child.stdout, f"node {CLI}")
    except BaseException:
        child.kill()
        raise

    def stop() -> None:
        child.terminate()  # SIGTERM: the CLI closes its server and exits in well under a second
        child.wait(timeout=30)

    return url, stop


def _start_docker(image: str) -> tuple[str, Callable[[], None]]:
    # Bound beyond loopback inside the container, the control plane needs an admin token: choose it, and pass it on.
    os.environ.setdefault("EMULATOR_ADMIN_TOKEN", secrets.token_urlsafe(24))
    run = ["docker", "run", "-d", "--rm", "-p", "127.0.0.1::8787", "-e", "EMULATOR_ADMIN_TOKEN", image, "--seed", "1"]
    container = subprocess.run(run, check=True, capture_output=True, text=True).stdout.strip()

    def stop() -> None:
        subprocess.run(["docker", "stop", "-t", "10", container], check=True, capture_output=True)

    try:
        logs = subprocess.Popen(
            ["docker", "logs", "-f", container], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        _wait_for_listening(logs.stdout, f"docker run {image}")
        port = subprocess.run(["docker", "port", container, "8787/tcp"], check=True, capture_output=True, text=True)
    except BaseException:
        stop()
        raise
    # "127.0.0.1:49153", on a line of its own (one per address the port is published on).
    return f"http://127.0.0.1:{port.stdout.splitlines()[0].rsplit(':', 1)[1]}", stop


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("EMULATOR_URL"):
        return  # one already running, or an xdist worker whose controller started it
    image = os.environ.get("EMULATOR_IMAGE")
    try:
        url, stop = _start_docker(image) if image else _start_cli()
    except (RuntimeError, OSError, subprocess.CalledProcessError) as error:
        raise pytest.UsageError(f"the emulator did not start: {error}") from error  # one line, no traceback
    os.environ["EMULATOR_URL"] = url
    config.add_cleanup(stop)


@dataclass(frozen=True)
class Emulator:
    url: str
    admin_token: str | None

    def admin(self) -> httpx.Client:
        """The instance-wide control plane (creating and listing sandboxes)."""
        headers = {"Authorization": f"Bearer {self.admin_token}"} if self.admin_token else {}
        return httpx.Client(base_url=f"{self.url}/_emulator", headers=headers, timeout=30)


@dataclass(frozen=True)
class Sandbox:
    id: str
    api_key: str
    token: str
    api: httpx.Client
    """The public API as your code calls it: {url}/v1/media with the sandbox's API key."""
    control: httpx.Client
    """This sandbox's control plane: {url}/_emulator/sandboxes/{id} with its own token (it reaches no other sandbox)."""


@pytest.fixture(scope="session")
def emulator() -> Emulator:
    return Emulator(url=os.environ["EMULATOR_URL"], admin_token=os.environ.get("EMULATOR_ADMIN_TOKEN"))


@pytest.fixture
def new_sandbox(emulator: Emulator, request: pytest.FixtureRequest) -> Iterator[Callable[..., Sandbox]]:
    """Creates sandboxes (body: seed, timing, balance, label, ttlSeconds) and deletes them when the test ends."""
    made: list[Sandbox] = []
    with emulator.admin() as admin:

        def create(**options) -> Sandbox:
            # Manual timing: generations move only when the test moves the sandbox's clock (no sleeps).
            body = {"label": request.node.nodeid[-100:], "timing": {"profile": "manual"}, **options}
            answer = admin.post("/sandboxes", json=body)
            assert answer.status_code == 201, answer.text
            sandbox = answer.json()
            made.append(
                Sandbox(
                    id=sandbox["id"],
                    api_key=sandbox["apiKey"],
                    token=sandbox["token"],
                    api=httpx.Client(
                        base_url=f"{emulator.url}/v1/media",
                        headers={"Authorization": f"Bearer {sandbox['apiKey']}"},
                        timeout=30,
                    ),
                    control=httpx.Client(
                        base_url=f"{emulator.url}/_emulator/sandboxes/{sandbox['id']}",
                        headers={"Authorization": f"Bearer {sandbox['token']}"},
                        timeout=30,
                    ),
                )
            )
            made[-1].control.post("/clock/freeze").raise_for_status()
            return made[-1]

        yield create
        for sandbox in made:
            deleted = admin.delete(f"/sandboxes/{sandbox.id}")
            assert deleted.status_code in (204, 404), deleted.text  # 404: the test deleted it itself
            sandbox.api.close()
            sandbox.control.close()


@pytest.fixture
def sandbox(new_sandbox: Callable[..., Sandbox]) -> Sandbox:
    """A sandbox of its own for each test: 10,000 credits, manual timing, a frozen clock."""
    return new_sandbox(balance=10_000)
