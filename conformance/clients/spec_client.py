"""A client of the media-generation service written from its specification's text alone, with httpx.

Nothing here comes from the emulator's OpenAPI document or its docs: each rule cites the section of
/work/shared/spec/media-generation-service.md it follows, and where the spec says "not shown", the client assumes
nothing beyond it (and says so). It also checks what the spec does state about each answer, so a flow run against an
emulator tells whether the emulator answers what a spec-following client expects.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

# 2.1: `status` values; 3: which of them are final.
STATUSES = ("pending", "running", "completed", "failed")
FINAL = ("completed", "failed")
# 2.1: the kinds of the catalogue filter.
KINDS = ("image", "video", "music", "3d")
# 6: the documented poll interval when `poll_after_seconds` is absent (2.3).
DEFAULT_POLL_SECONDS = 5


class SpecViolation(Exception):
    """An answer that breaks what the specification states."""


def need(condition: bool, section: str, what: str) -> None:
    if not condition:
        raise SpecViolation(f"spec {section}: {what}")


@dataclass
class ValidationProblem:
    """One item of a 422 `detail` (7.3): `loc`, `msg`, `type`; `input` and `ctx` optional."""

    loc: list[str | int]
    msg: str
    type: str
    input: Any = None
    ctx: dict[str, Any] | None = None


class ServiceError(Exception):
    """A status of 400 or above (7.2): the `{error: {code, message}}` body, or a 422's `detail` items (7.3)."""

    def __init__(self, status: int, code: str | None, message: str, problems: list[ValidationProblem] | None = None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.problems = problems or []
        self.retry_after: float | None = None


def _problems(body: Any) -> list[ValidationProblem]:
    detail = body.get("detail") if isinstance(body, dict) else None
    need(isinstance(detail, list) and len(detail) > 0, "7.3", f"a 422 body has a `detail` array: {body!r}")
    problems = []
    for item in detail:
        need(isinstance(item, dict), "7.3", f"a detail item is an object: {item!r}")
        loc, msg, kind = item.get("loc"), item.get("msg"), item.get("type")
        need(
            isinstance(loc, list) and all(isinstance(part, (str, int)) for part in loc),
            "7.3",
            f"`loc` is an array of strings or integers: {item!r}",
        )
        need(isinstance(msg, str) and isinstance(kind, str), "7.3", f"`msg` and `type` are strings: {item!r}")
        ctx = item.get("ctx")
        need(ctx is None or isinstance(ctx, dict), "7.3", f"`ctx`, when present, is an object: {item!r}")
        problems.append(ValidationProblem(loc=loc, msg=msg, type=kind, input=item.get("input"), ctx=ctx))
    return problems


def _error(response: httpx.Response) -> ServiceError:
    """7.2 and 7.3. A body that is not JSON (a proxy's page, a bare 500) is kept as text: the status still says it."""
    try:
        body = response.json()
    except ValueError:
        return ServiceError(response.status_code, None, response.text[:200])
    if response.status_code == 422:
        return ServiceError(422, "validation_error", "the request is not valid", _problems(body))
    error = body.get("error") if isinstance(body, dict) else None
    need(isinstance(error, dict), "7.2", f"a {response.status_code} body is {{error: {{code, message}}}}: {body!r}")
    code, message = error.get("code"), error.get("message")
    need(isinstance(code, str) and isinstance(message, str), "7.2", f"`code` and `message` are strings: {error!r}")
    failure = ServiceError(response.status_code, code, message)
    # Not in the spec (8: rate limits not shown); the standard header, read if sent.
    if response.headers.get("retry-after", "").isdigit():
        failure.retry_after = float(response.headers["retry-after"])
    return failure


def check_generation(record: Any) -> dict[str, Any]:
    """2.1: the generation record's members and types, and the invariants the spec states."""
    need(isinstance(record, dict), "2.1", f"a generation record is an object: {record!r}")
    types = {
        "id": str,
        "request_id": str,
        "api_key_id": int,
        "kind": str,
        "model_slug": str,
        "prompt": str,
        "params": dict,
        "texts": dict,
        "status": str,
        "created_at": str,
        "charged_credits": int,
        "refunded_credits": int,
        "net_credits": int,
        "billing_status": str,
        "outputs": list,
    }
    for name, kind in types.items():
        need(isinstance(record.get(name), kind), "2.1", f"`{name}` is a {kind.__name__}: {record.get(name)!r}")
    need(record["kind"] in KINDS, "2.1", f"`kind` is one of {KINDS}: {record['kind']!r}")
    need(record["status"] in STATUSES, "2.1", f"`status` is one of {STATUSES}: {record['status']!r}")
    for name in ("params", "texts"):
        need(all(isinstance(v, str) for v in record[name].values()), "2.1", f"`{name}` has string values")
    need("completed_at" in record and "error" in record, "2.1", "`completed_at` and `error` are present (or null)")
    need(record["completed_at"] is None or isinstance(record["completed_at"], str), "2.1", "`completed_at`")
    need(
        record["net_credits"] == record["charged_credits"] - record["refunded_credits"],
        "2.1",
        "`net_credits` is charged minus refunded",
    )
    if record["status"] in ("pending", "running"):
        need(record["outputs"] == [], "2.1", "`outputs` is empty while not finished")
        need(record["completed_at"] is None, "2.1", "`completed_at` is null until finished")
    if record["status"] == "failed":
        need(isinstance(record["error"], dict) and isinstance(record["error"].get("code"), str), "2.1", "`error.code`")
    else:
        need(record["error"] is None, "2.1", "`error` is null unless failed")
    for output in record["outputs"]:
        need(
            isinstance(output, dict) and isinstance(output.get("url"), str), "2.2", f"an output has a `url`: {output!r}"
        )
    return record


@dataclass
class Acceptance:
    """2.3: the answer of a submission."""

    request_id: str
    generation: dict[str, Any]
    replayed: bool
    poll_after_seconds: int = DEFAULT_POLL_SECONDS


@dataclass
class MediaClient:
    """Section 5: every call carries `Authorization: Bearer <key>`; bodies are JSON unless stated (4.7)."""

    base_url: str
    api_key: str
    http: httpx.Client = field(init=False)
    # Retries of a submission on 429 and 5xx with the same Idempotency-Key (4.3); the count is the client's choice.
    max_attempts: int = 3

    def __post_init__(self) -> None:
        self.http = httpx.Client(
            base_url=self.base_url, headers={"Authorization": f"Bearer {self.api_key}"}, timeout=30
        )

    def close(self) -> None:
        self.http.close()

    def _json(self, response: httpx.Response, expected: int) -> Any:
        if response.status_code >= 400:
            raise _error(response)
        need(response.status_code == expected, "7.1", f"success is {expected}, got {response.status_code}")
        body = response.json()
        need(isinstance(body, dict), "1", f"a JSON object: {body!r}")
        return body

    def models(self, kind: str | None = None) -> dict[str, Any]:
        """4.1: the catalogue; its shape is not shown, so it is handed over as it came."""
        return self._json(self.http.get("/v1/media/models", params={"kind": kind} if kind else None), 200)

    def estimate(self, model_slug: str, prompt: str, **optional: Any) -> dict[str, Any]:
        """4.2 and 2.4: `credits` and `wallet_balance`; nothing is charged."""
        body = self._json(
            self.http.post("/v1/media/estimate", json={"model_slug": model_slug, "prompt": prompt, **optional}), 200
        )
        need(isinstance(body.get("credits"), int) and isinstance(body.get("wallet_balance"), int), "2.4", f"{body!r}")
        return body

    def submit(
        self, idempotency_key: str, model_slug: str, prompt: str, max_credits: int, **optional: Any
    ) -> Acceptance:
        """4.3: one logical submission; a 429 or 5xx is retried with the same key, so it is charged at most once."""
        need(8 <= len(idempotency_key) <= 200, "4.3", "the Idempotency-Key is 8 to 200 characters")
        body = {"model_slug": model_slug, "prompt": prompt, "max_credits": max_credits, **optional}
        for attempt in range(1, self.max_attempts + 1):
            response = self.http.post("/v1/media/generations", json=body, headers={"Idempotency-Key": idempotency_key})
            if response.status_code == 202:
                return self._acceptance(self._json(response, 202))
            failure = _error(response)
            if attempt == self.max_attempts or not (failure.status == 429 or failure.status >= 500):
                raise failure
            time.sleep(min(failure.retry_after if failure.retry_after is not None else 1.0, 5.0))
        raise AssertionError("unreachable")

    @staticmethod
    def _acceptance(body: dict[str, Any]) -> Acceptance:
        need(isinstance(body.get("request_id"), str), "2.3", "`request_id` is a string")
        need(isinstance(body.get("replayed"), bool), "2.3", "`replayed` is a boolean")
        generation = check_generation(body.get("generation"))
        need(generation["request_id"] == body["request_id"], "2.1", "the record's `request_id` is the envelope's")
        poll = body.get("poll_after_seconds", DEFAULT_POLL_SECONDS)
        need(isinstance(poll, int), "2.3", "`poll_after_seconds` is an integer")
        if not body["replayed"]:
            need(generation["status"] == "pending", "2.3", "a new submission is `pending`")
            need(generation["billing_status"] == "charged", "3", "a new submission is `charged`")
            need(generation["refunded_credits"] == 0, "2.1", "`refunded_credits` is 0 at submission")
        return Acceptance(body["request_id"], generation, body["replayed"], poll)

    def generation(self, generation_id: str) -> dict[str, Any]:
        """4.5: `{generation: record}`."""
        path = f"/v1/media/generations/{quote(generation_id, safe='')}"
        return check_generation(self._json(self.http.get(path), 200).get("generation"))

    def generations(self, **query: Any) -> dict[str, Any]:
        """4.4: a page; its shape and the next-cursor's name are not shown, so it is handed over as it came."""
        return self._json(self.http.get("/v1/media/generations", params=query), 200)

    def usage(self) -> dict[str, Any]:
        """4.6: JSON; its shape is not shown."""
        return self._json(self.http.get("/v1/media/usage"), 200)

    def upload(self, content: bytes, filename: str, media_type: str, model_slug: str) -> str:
        """4.7: multipart; answers the identifier for `refs`. Its member's name is not shown: `id`, else `upload_id`."""
        files = {"file": (filename, content, media_type)}
        body = self._json(self.http.post("/v1/media/uploads", files=files, data={"model_slug": model_slug}), 201)
        identifier = body.get("id", body.get("upload_id"))
        need(isinstance(identifier, str), "4.7", f"the answer holds an identifier: {body!r}")
        return identifier

    def download(self, url: str) -> httpx.Response:
        """2.2: a signed, time-limited link, fetched as it is. The signature is its credential: the key is not sent."""
        response = httpx.get(url, timeout=30)
        if response.status_code >= 400:
            raise _error(response)
        return response
