#!/usr/bin/env python3
"""Independent check of the Chorus MCP servers with the official Python MCP SDK.

Lists tools and calls sum(2, 4) -> "6", divide(1, 0) -> isError, and a date tool,
over stdio (spawning the binaries) and over Streamable HTTP (starting them on a
free port). Exits non-zero on any mismatch.

Usage: mcp_client_check.py --math PATH/chorus-mcp-math --date PATH/chorus-mcp-date
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import asynccontextmanager

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

try:  # mcp >= 1.x new name, older name as fallback
    from mcp.client.streamable_http import streamable_http_client
except ImportError:  # pragma: no cover
    from mcp.client.streamable_http import streamablehttp_client as streamable_http_client

FAILURES: list[str] = []


def check(condition: bool, label: str, detail: object = "") -> None:
    status = "ok  " if condition else "FAIL"
    print(f"  [{status}] {label}" + ("" if condition else f": {detail}"))
    if not condition:
        FAILURES.append(label)


def field(obj: object, snake: str, camel: str, default=None):
    """Reads a result field under its v2 (snake_case) or v1 (camelCase) name."""
    if hasattr(obj, snake):
        return getattr(obj, snake)
    return getattr(obj, camel, default)


def text_of(result) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


MATH_TOOLS = {"sum", "subtract", "multiply", "divide", "power", "sqrt", "modulo", "abs", "round", "percent", "min", "max", "root"}
DATE_TOOLS = {
    "today",
    "now",
    "add_duration",
    "subtract_duration",
    "difference",
    "weekday",
    "days_until",
    "next_date",
    "find_weekday",
    "end_of_month",
    "age",
    "day_of_year",
    "iso_week",
    "time_in",
    "convert_time",
    "time_difference",
}


async def check_math(session: ClientSession, transport: str) -> None:
    await session.initialize()
    tools = await session.list_tools()
    names = {tool.name for tool in tools.tools}
    check(names == MATH_TOOLS, f"math/{transport}: lists every tool", sorted(names))
    schema = next((field(t, "input_schema", "inputSchema") for t in tools.tools if t.name == "sum"), None)
    check(isinstance(schema, dict) and schema.get("required") == ["a", "b"], f"math/{transport}: sum schema", schema)

    result = await session.call_tool("sum", {"a": 2, "b": 4})
    check(not field(result, "is_error", "isError"), f"math/{transport}: sum(2,4) succeeds", text_of(result))
    check(text_of(result) == "6", f"math/{transport}: sum(2,4) text is 6", text_of(result))
    structured = field(result, "structured_content", "structuredContent")
    check(structured == {"result": "6"}, f"math/{transport}: sum(2,4) structured", structured)

    result = await session.call_tool("divide", {"a": 1, "b": 0})
    check(field(result, "is_error", "isError") is True, f"math/{transport}: divide(1,0) isError", result)
    check("division by zero" in text_of(result), f"math/{transport}: divide(1,0) says why", text_of(result))

    result = await session.call_tool("root", {"x": 343, "n": 3})
    check(text_of(result) == "7", f"math/{transport}: root(343, 3) text is 7", text_of(result))

    result = await session.call_tool("sum", {"a": "x"})
    check(field(result, "is_error", "isError") is True, f"math/{transport}: bad arguments are a tool error", result)


async def check_date(session: ClientSession, transport: str) -> None:
    await session.initialize()
    tools = await session.list_tools()
    names = {tool.name for tool in tools.tools}
    check(names == DATE_TOOLS, f"date/{transport}: lists every tool", sorted(names))
    result = await session.call_tool("weekday", {"date": "2026-12-25"})
    structured = field(result, "structured_content", "structuredContent")
    check(structured == {"result": "Friday", "date": "2026-12-25"}, f"date/{transport}: weekday", structured)
    result = await session.call_tool(
        "days_until", {"date": "2026-12-25", "now": "2026-11-22T09:30:00+07:00", "timezone": "Asia/Ho_Chi_Minh"}
    )
    structured = field(result, "structured_content", "structuredContent")
    check(structured and structured.get("result") == 33, f"date/{transport}: days_until", structured)
    result = await session.call_tool("weekday", {"date": "2026-02-30"})
    check(field(result, "is_error", "isError") is True, f"date/{transport}: 2026-02-30 isError", result)
    check("not a valid date" in text_of(result), f"date/{transport}: invalid date says why", text_of(result))


async def over_stdio(binary: str, checker) -> None:
    params = StdioServerParameters(command=binary, args=["--transport", "stdio"])
    async with stdio_client(params) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await checker(session, "stdio")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@asynccontextmanager
async def http_server(binary: str):
    port = free_port()
    process = subprocess.Popen(
        [binary, "--transport", "http", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as response:
                    health = json.loads(response.read())
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"{binary} did not start on port {port}")
                await asyncio.sleep(0.05)
        check(health.get("status") == "ok", f"{binary.rsplit('/', 1)[-1]}: /healthz", health)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


async def over_http(binary: str, checker) -> None:
    async with http_server(binary) as url:
        async with streamable_http_client(url) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await checker(session, "http")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--math", required=True, help="path to chorus-mcp-math")
    parser.add_argument("--date", required=True, help="path to chorus-mcp-date")
    args = parser.parse_args()
    for name, run in [
        ("math over stdio", over_stdio(args.math, check_math)),
        ("math over Streamable HTTP", over_http(args.math, check_math)),
        ("date over stdio", over_stdio(args.date, check_date)),
        ("date over Streamable HTTP", over_http(args.date, check_date)),
    ]:
        print(name)
        try:
            await asyncio.wait_for(run, timeout=60)
        except Exception as error:  # noqa: BLE001 - report and keep checking the rest
            check(False, f"{name} ran", repr(error))
    print(f"{len(FAILURES)} failure(s)" if FAILURES else "all checks passed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
