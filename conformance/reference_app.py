"""Reference FastAPI app: the spec's request schemas (sections 4.1-4.7 and 8) declared as a FastAPI service would.

Only validation matters here: every handler returns a placeholder. The conformance runner sends the same request to
this app and to the emulator and compares status, content-type and body bytes. Declaration choices are written down
in docs/proof.md ("Conformance").
"""

from datetime import datetime
from typing import Annotated, Literal

from fastapi import FastAPI, File, Form, Header, Query, UploadFile
from pydantic import BaseModel, ConfigDict, Field

MODEL_SLUG_PATTERN = r"^[a-zA-Z0-9][a-zA-Z0-9._-]*$"

Kind = Literal["image", "video", "music", "3d"]
Status = Literal["pending", "running", "completed", "failed"]
Role = Literal["first", "last"]


class EstimateBody(BaseModel):
    """Section 4.2: no other members allowed; optional members are `X | None = None`, in the spec's order."""

    model_config = ConfigDict(extra="forbid")

    model_slug: Annotated[str, Field(min_length=1, max_length=80, pattern=MODEL_SLUG_PATTERN)]
    prompt: Annotated[str, Field(max_length=50_000)]
    params: Annotated[dict[str, str], Field(max_length=40)] | None = None
    texts: Annotated[dict[str, str], Field(max_length=20)] | None = None
    refs: Annotated[list[str], Field(max_length=50)] | None = None
    ref_slots: Annotated[dict[str, list[str]], Field(max_length=20)] | None = None
    ref_roles: Annotated[dict[str, Role], Field(max_length=50)] | None = None


class GenerationBody(EstimateBody):
    """Section 4.3: the estimate members plus max_credits, which comes last."""

    max_credits: Annotated[int, Field(ge=1, le=1_000_000_000)]


app = FastAPI(title="media-generation reference (validation only)")


@app.get("/v1/media/models")
def list_models(kind: Annotated[Kind | None, Query()] = None):
    return {"models": []}


@app.post("/v1/media/estimate")
def estimate(body: EstimateBody):
    return {"credits": 0, "wallet_balance": 0}


@app.post("/v1/media/generations", status_code=202)
def submit(body: GenerationBody, idempotency_key: Annotated[str, Header(min_length=8, max_length=200)]):
    return {"generation_id": "placeholder"}


@app.get("/v1/media/generations")
def list_generations(
    kind: Annotated[Kind | None, Query()] = None,
    status: Annotated[Status | None, Query()] = None,
    model_slug: Annotated[str | None, Query(max_length=80)] = None,
    from_: Annotated[datetime | None, Query(alias="from")] = None,
    to: Annotated[datetime | None, Query()] = None,
    cursor: Annotated[str | None, Query(max_length=300)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 30,
):
    return {"generations": []}


@app.get("/v1/media/generations/{generation_id}")
def get_generation(generation_id: str):
    return {"generation": {"id": generation_id}}


@app.get("/v1/media/usage")
def usage():
    return {}


@app.post("/v1/media/uploads", status_code=201)
def upload(
    file: Annotated[UploadFile, File()],
    model_slug: Annotated[str, Form(max_length=80)],
    target_slot: Annotated[str | None, Form(max_length=80)] = None,
):
    return {"upload_id": "placeholder"}
