#!/usr/bin/env python3
"""Checks Chorus's OpenAI-compatible endpoint with the official `openai` Python SDK, an
independent client: the model list, a completion, a streamed completion that ends
properly, a follow-up conversation, a branch diverging from the same beginning, a
question answered by the next user message, and errors in OpenAI's shape.

Usage: openai_check.py --base-url http://127.0.0.1:8080/v1

Prints one line per check (`ok <name>: <detail>` or `FAIL <name>: <why>`) and exits 1
when any check failed.
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable

import openai
from openai import OpenAI

MODEL = "chorus"


class CheckFailed(Exception):
    """A check's expectation did not hold."""


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def user(text: str) -> dict:
    return {"role": "user", "content": text}


def assistant(text: str) -> dict:
    return {"role": "assistant", "content": text}


def complete(client: OpenAI, messages: list[dict]) -> str:
    """The text of a non-streaming completion, checked for OpenAI's shape."""
    completion = client.chat.completions.create(model=MODEL, messages=messages, temperature=0)
    expect(completion.object == "chat.completion", f"object {completion.object!r}")
    expect(completion.id.startswith("chatcmpl-"), f"id {completion.id!r}")
    expect(completion.model == MODEL, f"model {completion.model!r}")
    choice = completion.choices[0]
    expect(choice.finish_reason == "stop", f"finish_reason {choice.finish_reason!r}")
    expect(choice.message.role == "assistant", f"role {choice.message.role!r}")
    expect(completion.usage is not None and completion.usage.total_tokens > 0, f"usage {completion.usage}")
    return choice.message.content or ""


def check_models(client: OpenAI) -> str:
    ids = [m.id for m in client.models.list()]
    expect(ids == [MODEL], f"models {ids}")
    model = client.models.retrieve(MODEL)
    expect(model.owned_by == MODEL, f"owned_by {model.owned_by!r}")
    return f"models {ids}"


def check_completion(client: OpenAI) -> str:
    text = complete(client, [{"role": "system", "content": "Answer briefly."}, user("tính 2+4")])
    expect("6" in text, f"no 6 in {text!r}")
    parts = [{"type": "text", "text": "tính 2+4"}]
    text_parts = complete(client, [{"role": "user", "content": parts}])
    expect("6" in text_parts, f"content parts: no 6 in {text_parts!r}")
    return repr(text)


def check_stream(client: OpenAI) -> str:
    query = "compute (2+4)*3 and tell me the weekday of 2026-12-25"
    stream = client.chat.completions.create(
        model=MODEL,
        messages=[user(query)],
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    expect(len(chunks) >= 4, f"only {len(chunks)} chunks")
    expect(chunks[0].choices[0].delta.role == "assistant", f"first chunk {chunks[0]}")
    expect(len({c.id for c in chunks}) == 1, "one id for every chunk")
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    expect("18" in text and "Friday" in text, f"streamed {text!r}")
    stops = [i for i, c in enumerate(chunks) if c.choices and c.choices[0].finish_reason == "stop"]
    expect(stops == [len(chunks) - 2], f"finish_reason stop at {stops} of {len(chunks)}")
    usage = chunks[-1].usage
    expect(not chunks[-1].choices and usage is not None, f"last chunk {chunks[-1]}")
    expect(usage.completion_tokens == len(text.split()), f"usage {usage} for {text!r}")
    # On the wire, the stream's last event is `data: [DONE]`.
    with client.chat.completions.with_streaming_response.create(
        model=MODEL, messages=[user("2+4")], stream=True
    ) as response:
        lines = [line for line in response.iter_lines() if line.strip()]
    expect(lines[-1] == "data: [DONE]", f"last line {lines[-1]!r}")
    return f"{len(chunks)} chunks, {text!r}"


def check_follow_up(client: OpenAI) -> str:
    first = complete(client, [user("2+4")])
    expect("6" in first, f"first {first!r}")
    then = complete(client, [user("2+4"), assistant(first), user("now multiply that by 3")])
    expect("18" in then, f"follow-up {then!r}")
    return repr(then)


def check_branch(client: OpenAI) -> str:
    first = complete(client, [user("2+4")])
    times = complete(client, [user("2+4"), assistant(first), user("now multiply that by 3")])
    expect("18" in times, f"the other branch {times!r}")
    plus = complete(client, [user("2+4"), assistant(first), user("now add 1 to that")])
    expect("= 7" in plus and "19" not in plus, f"branch {plus!r}")
    return repr(plus)


def check_question(client: OpenAI) -> str:
    asked = complete(client, [user("divide 10 by")])
    expect("?" in asked, f"no question in {asked!r}")
    answered = complete(client, [user("divide 10 by"), assistant(asked), user("2")])
    expect("= 5" in answered, f"answered {answered!r}")
    return f"{asked!r} -> {answered!r}"


def check_errors(client: OpenAI) -> str:
    try:
        client.chat.completions.create(model=MODEL, messages=[{"role": "system", "content": "hi"}])
        raise CheckFailed("no user message was accepted")
    except openai.BadRequestError as e:
        expect(e.status_code == 400, f"status {e.status_code}")
        expect(e.code == "no_user_message", f"code {e.code!r}")
        expect(e.type == "invalid_request_error", f"type {e.type!r}")
        expect(isinstance(e.body, dict) and "message" in e.body, f"body {e.body!r}")
    try:
        client.chat.completions.create(model="gpt-4o", messages=[user("2+4")])
        raise CheckFailed("an unknown model was accepted")
    except openai.NotFoundError as e:
        expect(e.code == "model_not_found", f"code {e.code!r}")
    return "400 no_user_message, 404 model_not_found"


CHECKS: list[tuple[str, Callable[[OpenAI], str]]] = [
    ("models", check_models),
    ("completion", check_completion),
    ("stream", check_stream),
    ("follow_up", check_follow_up),
    ("branch", check_branch),
    ("question", check_question),
    ("errors", check_errors),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True, help="e.g. http://127.0.0.1:8080/v1")
    args = parser.parse_args()
    client = OpenAI(base_url=args.base_url, api_key="any-key", max_retries=0, timeout=60)
    failed = 0
    for name, check in CHECKS:
        try:
            print(f"ok {name}: {check(client)}", flush=True)
        except Exception as e:  # noqa: BLE001 - every failure is reported, then the next check runs
            failed += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
    print(f"{len(CHECKS) - failed}/{len(CHECKS)} checks passed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
