"""Tests that share one emulator and run in parallel (pytest -n 2): each has its own sandbox, and sees only its own."""

from __future__ import annotations

from datetime import datetime

import httpx
import pytest
from conftest import Sandbox

STILL = {"model_slug": "still-sketch-v1", "max_credits": 10}


def submit(sandbox: Sandbox, prompt: str, key: str):
    return sandbox.api.post("/generations", json={**STILL, "prompt": prompt}, headers={"Idempotency-Key": key})


def clock(sandbox: Sandbox) -> str:
    return sandbox.control.get("/clock").json()["now"]


def balance(sandbox: Sandbox) -> int:
    [account] = sandbox.control.get("/accounts").json()["accounts"]
    return account["balance"]


def wait_completed(sandbox: Sandbox, generation_id: str) -> dict:
    done = sandbox.control.post(f"/generations/{generation_id}/wait", json={"target": "completed"})
    assert done.status_code == 200, done.text
    return done.json()["generation"]


# Four tests doing the same things at the same time on two workers, each with its own prompt, hours and key.
@pytest.mark.parametrize("hours", [1, 2, 3, 4])
def test_fault_rules_clock_journal_and_reset_are_the_tests_own(sandbox: Sandbox, hours: int):
    prompt = f"a lighthouse, test {hours}"
    rule = sandbox.control.post(
        "/faults",
        json={
            "match": {"method": "POST", "route": "/v1/media/generations"},
            "times": 1,
            "action": {"type": "status", "status": 503, "retry_after": "1s"},
        },
    )
    assert rule.status_code == 201, rule.text
    assert [f["id"] for f in sandbox.control.get("/faults").json()["faults"]] == [rule.json()["fault"]["id"]]

    # The rule fires once, on this sandbox's request only; the retry with the same key is accepted.
    assert submit(sandbox, prompt, f"order-{hours:04d}").status_code == 503
    accepted = submit(sandbox, prompt, f"order-{hours:04d}")
    assert accepted.status_code == 202, accepted.text
    generation_id = accepted.json()["generation"]["id"]

    # The clock moves by exactly what this test asked: nobody else moves it.
    before = clock(sandbox)
    sandbox.control.post("/clock/advance", json={"by": f"{hours}h"}).raise_for_status()
    after = clock(sandbox)
    moved = datetime.fromisoformat(after) - datetime.fromisoformat(before)
    assert moved.total_seconds() == hours * 3600

    charged = wait_completed(sandbox, generation_id)["charged_credits"]
    assert charged > 0
    assert balance(sandbox) == 10_000 - charged

    # The journal holds this test's requests and no one else's.
    posts = sandbox.control.get("/journal", params={"path": "/v1/media/generations", "method": "POST"})
    assert [entry["status"] for entry in posts.json()["entries"]] == [503, 202]
    assert [g["id"] for g in sandbox.api.get("/generations").json()["generations"]] == [generation_id]

    # Reset: back to the sandbox's creation state; its key still works.
    sandbox.control.post("/reset").raise_for_status()
    assert sandbox.control.get("/faults").json()["faults"] == []
    assert sandbox.control.get("/journal").json()["entries"] == []
    assert balance(sandbox) == 10_000
    assert sandbox.api.get(f"/generations/{generation_id}").status_code == 404


def test_one_sandbox_sees_nothing_of_another(emulator, new_sandbox):
    first, second = new_sandbox(balance=100), new_sandbox(balance=200)
    accepted = submit(first, "a red fox", "fox-0001")
    assert accepted.status_code == 202, accepted.text
    generation_id = accepted.json()["generation"]["id"]

    # Each sandbox counts its own ids from its seed, so the second has no generation of that id (yet).
    assert second.api.get(f"/generations/{generation_id}").status_code == 404
    assert second.api.get("/generations").json()["generations"] == []
    # The same Idempotency-Key with another body: a 409 in the first sandbox, a new request in the second.
    assert submit(first, "a blue fox", "fox-0001").status_code == 409
    other = submit(second, "a blue fox", "fox-0001")
    assert other.status_code == 202, other.text
    assert other.json()["replayed"] is False
    first_charge = wait_completed(first, generation_id)["charged_credits"]
    second_charge = wait_completed(second, other.json()["generation"]["id"])["charged_credits"]
    assert (balance(first), balance(second)) == (100 - first_charge, 200 - second_charge)
    # A sandbox's token reaches its own sandbox only.
    trespass = httpx.get(
        f"{emulator.url}/_emulator/sandboxes/{second.id}/faults", headers={"Authorization": f"Bearer {first.token}"}
    )
    assert trespass.status_code == 403, trespass.text
    assert trespass.json()["error"]["code"] == "sandbox_token_forbidden"


def test_a_deleted_sandbox_key_answers_401(emulator, new_sandbox):
    gone = new_sandbox()
    assert gone.api.get("/models").status_code == 200
    with emulator.admin() as admin:
        assert admin.delete(f"/sandboxes/{gone.id}").status_code == 204
        assert admin.get(f"/sandboxes/{gone.id}").json()["error"]["code"] == "sandbox_not_found"
    assert gone.api.get("/models").status_code == 401
