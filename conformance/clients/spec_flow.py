"""The flow a developer writes from the spec alone (spec_client.py), run against the emulator, then injected faults.

Estimate, upload, submit and replay, poll, download, usage, a 422 for an unknown option value; then a 500 and a 429
injected once each (the client retries with the same Idempotency-Key: one generation, one charge) and a status-only
402 (refused, nothing charged). The emulator's control plane completes the generation and installs the faults.
"""

import httpx
from flow_common import API_KEY, BASE_URL, MODEL_SLUG, PROMPT, check, finish, png
from spec_client import MediaClient, ServiceError, SpecViolation


def control(method: str, path: str, body: dict | None = None) -> dict:
    """The emulator's lever, not part of the client: completes generations and installs fault rules."""
    response = httpx.request(method, f"{BASE_URL}/_emulator{path}", json=body, timeout=30)
    check(response.status_code < 300, f"control {method} {path}: {response.status_code} {response.text[:200]}")
    return response.json()


def fault_once(status: int, **action: object) -> None:
    rule = {"match": {"method": "POST", "route": "/v1/media/generations"}, "times": 1}
    control("POST", "/faults", {**rule, "action": {"type": "status", "status": status, **action}})


def run() -> dict:
    client = MediaClient(BASE_URL, API_KEY)
    try:
        return flow(client)
    except SpecViolation as violation:
        check(False, str(violation))
        raise
    finally:
        client.close()


def flow(client: MediaClient) -> dict:
    client.models(kind="video")
    price = client.estimate(MODEL_SLUG, PROMPT)
    balance = price["wallet_balance"]
    upload_id = client.upload(png(), "start.png", "image/png", MODEL_SLUG)

    body = {"model_slug": MODEL_SLUG, "prompt": PROMPT, "max_credits": price["credits"], "refs": [upload_id]}
    first = client.submit("spec-client-flow-1", **body)
    replay = client.submit("spec-client-flow-1", **body)
    check(not first.replayed and replay.replayed, "replayed is false, then true (2.3)")
    check(replay.generation["id"] == first.generation["id"], "the replay names the same generation (4.3)")
    generation_id = first.generation["id"]
    check(client.generation(generation_id)["status"] in ("pending", "running"), "not final before it completes")

    control("POST", f"/generations/{generation_id}/complete")
    done = client.generation(generation_id)
    check(done["status"] == "completed" and done["outputs"], f"completed with outputs: {done['status']}")
    download = client.download(done["outputs"][0]["url"])
    check(download.headers["content-type"] == "video/mp4", "the two video models output MP4 (2.5)")
    check(len(download.content) > 1000, f"the file has bytes: {len(download.content)}")
    usage = client.usage()
    check(client.estimate(MODEL_SLUG, PROMPT)["wallet_balance"] == balance - price["credits"], "charged once")
    balance -= price["credits"]

    try:
        client.submit("spec-client-422", **{**body, "params": {"quality": "9000p"}})
        check(False, "an unknown option value is refused (2.5)")
    except ServiceError as refused:
        check(refused.status == 422 and refused.problems, f"422 with detail items (7.3): {refused}")
        problem = refused.problems[0]
    check(client.estimate(MODEL_SLUG, PROMPT)["wallet_balance"] == balance, "a 422 charges nothing (2.5)")

    retried = []
    for status, action in ((500, {}), (429, {"retry_after": 0})):
        fault_once(status, **action)
        accepted = client.submit(f"spec-client-retry-{status}", **body)
        balance -= price["credits"]
        check(client.estimate(MODEL_SLUG, PROMPT)["wallet_balance"] == balance, f"a retried {status} charges once")
        retried.append({"status": status, "generation": accepted.generation["id"], "replayed": accepted.replayed})

    fault_once(402)
    try:
        client.submit("spec-client-402", **body)
        check(False, "a 402 is refused")
    except ServiceError as refused:
        check(refused.status == 402 and refused.code == "bad_request", f"a status-only 402: {refused}")
    check(client.estimate(MODEL_SLUG, PROMPT)["wallet_balance"] == balance, "a refused 402 charges nothing")

    return {
        "estimate": price["credits"],
        "upload": upload_id,
        "generation": generation_id,
        "download_bytes": len(download.content),
        "usage_members": sorted(usage),
        "validation": {"type": problem.type, "loc": problem.loc},
        "retried": retried,
    }


if __name__ == "__main__":
    finish("hand-written httpx client", run)
