"""The whole public flow through a client openapi-python-client generated from docs/openapi.json, then fault answers.

Models, estimate, upload, submit and replay, poll, download, usage; then a 500, a 429 and a status-only 402 injected
through the control plane (the same generated client), each of which the client must parse into the fault's
envelope, not raise. Every answer is read through the generated models: nothing is parsed by hand.
"""

from io import BytesIO
from urllib.parse import parse_qs, urlparse

from flow_common import API_KEY, BASE_URL, MODEL_SLUG, PROMPT, check, finish, png
from media_gen_client import AuthenticatedClient
from media_gen_client.api.account import get_usage
from media_gen_client.api.control import add_fault, complete_generation
from media_gen_client.api.files import get_output_file
from media_gen_client.api.generations import estimate, get_generation, submit_generation
from media_gen_client.api.models import list_models
from media_gen_client.api.uploads import upload
from media_gen_client.models import (
    Acceptance,
    Estimate,
    EstimateRequest,
    FaultEnvelope,
    FaultRule,
    FaultRuleActionType0,
    FaultRuleMatch,
    GenerationEnvelope,
    GenerationRequest,
    InjectedFault,
    ModelList,
    Upload,
    UploadForm,
    Usage,
    ValidationError,
    ValidationItem,
)
from media_gen_client.types import File, Unset


def expect(value, kind, what: str):
    check(isinstance(value, kind), f"{what}: expected {kind.__name__}, got {type(value).__name__}: {value!r}")
    return value


def run() -> dict:
    # raise_on_unexpected_status: an answer at a status the document does not list is an error of the document.
    client = AuthenticatedClient(base_url=BASE_URL, token=API_KEY, raise_on_unexpected_status=True)

    models = expect(list_models.sync(client=client), ModelList, "models")
    check(any(m.slug == MODEL_SLUG for m in models.models), f"{MODEL_SLUG} in the catalogue")

    price = expect(
        estimate.sync(client=client, body=EstimateRequest(model_slug=MODEL_SLUG, prompt=PROMPT)), Estimate, "estimate"
    )
    image = File(payload=BytesIO(png()), file_name="start.png", mime_type="image/png")
    registered = expect(
        upload.sync(client=client, body=UploadForm(file=image, model_slug=MODEL_SLUG)), Upload, "upload"
    )

    body = GenerationRequest(model_slug=MODEL_SLUG, prompt=PROMPT, refs=[registered.id], max_credits=price.credits_)
    first = expect(
        submit_generation.sync(client=client, body=body, idempotency_key="python-generated-flow-1"),
        Acceptance,
        "submit",
    )
    replay = expect(
        submit_generation.sync(client=client, body=body, idempotency_key="python-generated-flow-1"),
        Acceptance,
        "replay",
    )
    check(replay.replayed and replay.generation.id == first.generation.id, "the replay returns the same generation")
    generation_id = first.generation.id

    def poll():
        return expect(get_generation.sync(generation_id, client=client), GenerationEnvelope, "poll").generation

    statuses = [str(poll().status)]
    completed = complete_generation.sync_detailed(generation_id, client=client)
    check(completed.status_code == 200, f"complete through the control plane: {completed.status_code}")
    done = poll()
    statuses.append(str(done.status))
    check(statuses == ["pending", "completed"], f"statuses {statuses}")

    signed = urlparse(done.outputs[0].url)
    _, _, file_generation, name = signed.path.split("/")
    query = parse_qs(signed.query)
    download = get_output_file.sync_detailed(
        file_generation, name, client=client, expires=query["expires"][0], signature=query["signature"][0]
    )
    file = expect(download.parsed, File, "download")
    size = len(file.payload.read())
    check(download.status_code == 200 and size > 1000, f"download: {download.status_code}, {size} bytes")
    check(download.headers["content-type"] == "video/mp4", f"download type {download.headers['content-type']}")

    usage = expect(get_usage.sync(client=client), Usage, "usage")
    check(done.net_credits == price.credits_, f"charged {done.net_credits}, estimated {price.credits_}")

    # The 422 body the spec describes: `input` and `ctx` optional (7.3), as a real service may send it.
    item = ValidationItem.from_dict({"type": "missing", "loc": ["body", "prompt"], "msg": "Field required"})
    refused = submit_generation.sync_detailed(
        client=client,
        body=GenerationRequest(model_slug=MODEL_SLUG, prompt=PROMPT, max_credits=0),
        idempotency_key="python-generated-422",
    )
    detail = expect(refused.parsed, ValidationError, "a 422").detail
    check(refused.status_code == 422 and detail[0].loc == ["body", "max_credits"], f"422: {detail}")

    faults = []
    for status in (500, 429, 402):
        rule = FaultRule(
            match=FaultRuleMatch(method="POST", route="/v1/media/generations"),
            times=1,
            action=FaultRuleActionType0(type_="status", status=status),
        )
        expect(add_fault.sync(client=client, body=rule), FaultEnvelope, f"fault rule {status}")
        answer = submit_generation.sync_detailed(
            client=client, body=body, idempotency_key=f"python-generated-fault-{status}"
        )
        fault = expect(answer.parsed, InjectedFault, f"the injected {status}")
        check(answer.status_code == status and "x-emulator-fault" in answer.headers, f"{status}: {answer.status_code}")
        faults.append({"status": status, "code": fault.error.code})
    check(
        [f["code"] for f in faults] == ["internal_error", "rate_limited", "bad_request"],
        f"fault codes {faults}",
    )

    return {
        "models": len(models.models),
        "estimate": price.credits_,
        "upload": registered.id,
        "generation": generation_id,
        "statuses": statuses,
        "download_bytes": size,
        "balance": usage.wallet_balance,
        "validation_item_without_input": isinstance(item.input_, Unset),
        "faults": faults,
    }


if __name__ == "__main__":
    finish("openapi-python-client", run)
