#!/usr/bin/env python3
"""Checks Chorus's A2A server with the official A2A Python SDK (a2a-sdk 1.x), an
independent client: it resolves the agent card, picks the JSON-RPC interface the card
names, and sends A2A 1.0 requests (the SDK's ClientFactory sets `A2A-Version: 1.0`).

Prints one line per check (`ok <name>: <what was seen>`, or `FAIL <name>: <why>`) and
exits 0 only when every check passed.

Usage: a2a_check.py --url http://127.0.0.1:8080
"""

import argparse
import asyncio
import sys
import traceback

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.helpers import get_artifact_text, get_message_text, new_text_message
from a2a.types import (
    CancelTaskRequest,
    GetTaskRequest,
    Role,
    SendMessageRequest,
    SubscribeToTaskRequest,
    TaskState,
)
from a2a.utils.errors import TaskNotCancelableError, TaskNotFoundError

TIMEOUT = httpx.Timeout(30.0)


class Check:
    """The checks run so far and whether each passed."""

    def __init__(self):
        self.failed = 0

    async def run(self, name, check):
        try:
            seen = await check()
            print(f"ok {name}: {seen}", flush=True)
        except Exception as e:  # noqa: BLE001 - report any failure and go on
            self.failed += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
            traceback.print_exc(file=sys.stderr)


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


def state(task):
    return TaskState.Name(task.status.state)


def report(task):
    """The text of the task's `report` artifact."""
    return get_artifact_text(task.artifacts[0]) if task.artifacts else ""


class Chorus:
    """Two SDK clients for one agent: a blocking (non-streaming) and a streaming one."""

    def __init__(self, card, http):
        self.card = card
        self.blocking = ClientFactory(ClientConfig(streaming=False, httpx_client=http)).create(card)
        self.streaming = ClientFactory(ClientConfig(streaming=True, httpx_client=http)).create(card)

    async def send(self, text, task_id=None, context_id=None):
        """A blocking SendMessage: the task once terminal or asking."""
        message = new_text_message(text, context_id=context_id, task_id=task_id, role=Role.ROLE_USER)
        responses = [r async for r in self.blocking.send_message(SendMessageRequest(message=message))]
        expect(len(responses) == 1 and responses[0].HasField("task"), f"one task, got {responses}")
        return responses[0].task

    async def stream(self, text, task_id=None, context_id=None):
        """A SendStreamingMessage: every StreamResponse, to the end of the stream."""
        message = new_text_message(text, context_id=context_id, task_id=task_id, role=Role.ROLE_USER)
        return [r async for r in self.streaming.send_message(SendMessageRequest(message=message))]


def kinds(events):
    """`task:STATE`, `status:STATE`, `artifact` for each stream response."""
    out = []
    for e in events:
        if e.HasField("task"):
            out.append(f"task:{state(e.task)}")
        elif e.HasField("status_update"):
            out.append(f"status:{TaskState.Name(e.status_update.status.state)}")
        elif e.HasField("artifact_update"):
            out.append("artifact")
        else:
            out.append("message")
    return out


async def main(url):
    check = Check()
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        card = await A2ACardResolver(http, url).get_agent_card()
        chorus = Chorus(card, http)

        async def the_card():
            skills = sorted(s.id for s in card.skills)
            expect({"math", "date"} <= set(skills), f"skills {skills}")
            expect(card.capabilities.streaming, "streaming capability")
            iface = card.supported_interfaces[0]
            expect(iface.protocol_binding == "JSONRPC" and iface.protocol_version == "1.0", str(iface))
            expect(iface.url == url.rstrip("/") + "/a2a", iface.url)
            examples = [e for s in card.skills for e in s.examples]
            expect("tính 2+4 = ??" in examples, f"examples {examples}")
            return f"{card.name} {card.version}, skills {', '.join(skills)}, JSONRPC {iface.protocol_version} at {iface.url}"

        async def send_blocking():
            task = await chorus.send("tính 2+4")
            expect(state(task) == "TASK_STATE_COMPLETED", state(task))
            expect("6" in report(task), report(task))
            return f"tính 2+4 -> {state(task)}, {report(task).strip()!r}"

        async def stream_multi_step():
            events = await chorus.stream("compute (2+4)*3 and tell me the weekday of 2026-12-25")
            seen = kinds(events)
            expect(seen[0] == "task:TASK_STATE_SUBMITTED", seen)
            expect(seen[-1] == "status:TASK_STATE_COMPLETED", seen)
            expect("status:TASK_STATE_WORKING" in seen, seen)
            expect(seen.index("status:TASK_STATE_WORKING") < seen.index("artifact") < len(seen) - 1, seen)
            text = get_artifact_text(events[seen.index("artifact")].artifact_update.artifact)
            expect("18" in text and "Friday" in text, text)
            ids = {e.status_update.task_id for e in events if e.HasField("status_update")}
            expect(ids == {events[0].task.id}, f"task ids {ids}")
            return " ".join(seen)

        async def input_required():
            task = await chorus.send("divide 10 by")
            expect(state(task) == "TASK_STATE_INPUT_REQUIRED", state(task))
            question = get_message_text(task.status.message)
            expect("which number" in question, question)
            answered = await chorus.send("2", task_id=task.id, context_id=task.context_id)
            expect(answered.id == task.id, f"{answered.id} != {task.id}")
            expect(state(answered) == "TASK_STATE_COMPLETED", state(answered))
            expect("5" in report(answered), report(answered))
            return f"{question!r} answered '2' -> {state(answered)}, {report(answered).strip()!r}"

        async def follow_up():
            first = await chorus.send("2+4")
            second = await chorus.send("now multiply that by 3", context_id=first.context_id)
            expect(second.context_id == first.context_id, "same contextId")
            expect(state(second) == "TASK_STATE_COMPLETED", state(second))
            expect("18" in report(second), report(second))
            return f"contextId {first.context_id}: 2+4 then 'now multiply that by 3' -> {report(second).strip()!r}"

        async def get_task():
            task = await chorus.send("what weekday is 2026-12-25")
            got = await chorus.blocking.get_task(GetTaskRequest(id=task.id, history_length=1))
            expect(got.id == task.id and state(got) == "TASK_STATE_COMPLETED", state(got))
            expect(len(got.history) == 1, f"history {len(got.history)}")
            expect("Friday" in report(got), report(got))
            return f"{got.id} {state(got)}, {report(got).strip()!r}, history {len(got.history)}"

        async def subscribe():
            task = await chorus.send("divide 10 by")
            expect(state(task) == "TASK_STATE_INPUT_REQUIRED", state(task))
            stream = chorus.streaming.subscribe(SubscribeToTaskRequest(id=task.id))
            first = await anext(stream)
            expect(state(first.task) == "TASK_STATE_INPUT_REQUIRED", kinds([first]))
            await chorus.send("4", task_id=task.id, context_id=task.context_id)
            rest = [e async for e in stream]
            seen = kinds([first] + rest)
            expect(seen[-1] == "status:TASK_STATE_COMPLETED", seen)
            return " ".join(seen)

        async def cancel_waiting():
            task = await chorus.send("divide 10 by")
            expect(state(task) == "TASK_STATE_INPUT_REQUIRED", state(task))
            canceled = await chorus.blocking.cancel_task(CancelTaskRequest(id=task.id))
            expect(state(canceled) == "TASK_STATE_CANCELED", state(canceled))
            got = await chorus.blocking.get_task(GetTaskRequest(id=task.id))
            expect(state(got) == "TASK_STATE_CANCELED", state(got))
            return f"{task.id} {state(task)} -> {state(canceled)}"

        async def cancel_finished():
            task = await chorus.send("2+4")
            try:
                await chorus.blocking.cancel_task(CancelTaskRequest(id=task.id))
            except TaskNotCancelableError as e:
                return f"{state(task)} task -> TaskNotCancelableError ({e.message})"
            raise AssertionError("a finished task was canceled")

        async def unknown_task():
            try:
                await chorus.blocking.get_task(GetTaskRequest(id="no-such-task"))
            except TaskNotFoundError as e:
                return f"TaskNotFoundError ({e.message})"
            raise AssertionError("an unknown task was found")

        for name, c in [
            ("card", the_card),
            ("send", send_blocking),
            ("stream", stream_multi_step),
            ("input-required", input_required),
            ("follow-up", follow_up),
            ("get-task", get_task),
            ("subscribe", subscribe),
            ("cancel-waiting", cancel_waiting),
            ("cancel-finished", cancel_finished),
            ("unknown-task", unknown_task),
        ]:
            await check.run(name, c)
    print(f"{10 - check.failed} passed, {check.failed} failed", flush=True)
    return 1 if check.failed else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the Chief's HTTP API, e.g. http://127.0.0.1:8080")
    sys.exit(asyncio.run(main(parser.parse_args().url)))
