"""Drives the Chief's web view (/ui) in a real headless Chromium with the official
Playwright package, against a running Chorus (tests/e2e/tests/web_ui.rs starts it).

Prints one line per check, `ok NAME: detail`, and exits non-zero on the first failure.
Every wait is a DOM state with a bounded timeout; nothing sleeps.

Usage: ui_check.py --base-url URL --chromium PATH [--token T] [--screenshot FILE]
"""

import argparse
import re
import sys

from playwright.sync_api import expect, sync_playwright

QUERY = "compute (2+4)*3 and tell me the weekday of 2026-12-25"
QUESTION = "divide 10 by"
WAIT_MS = 15_000
# A 401 is how the page learns that the Chief asks for a token; Chromium logs each one.
UNAUTHORIZED = re.compile(r"Failed to load resource: the server responded with a status of 401")


def ok(name, detail=""):
    print(f"ok {name}: {detail}", flush=True)


def check(args):
    expect.set_options(timeout=WAIT_MS)
    errors = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=args.chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.on(
            "console",
            lambda m: errors.append(f"console {m.type}: {m.text}")
            if m.type == "error" and not (args.token and UNAUTHORIZED.search(m.text))
            else None,
        )
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))

        page.goto(f"{args.base_url}/ui")
        if args.token:
            expect(page.locator("#token-dialog")).to_be_visible()
            page.fill("#token-input", "not-the-token")
            page.click("#token-save")
            expect(page.locator("#token-error")).to_be_visible()
            page.fill("#token-input", args.token)
            page.click("#token-save")
            expect(page.locator("#token-dialog")).to_be_hidden()
            ok("token", "asked for, a wrong one refused, the right one kept")
        expect(page.locator("#feed")).to_have_attribute("data-state", "live")
        ok("feed", "live")

        for pool in ("math", "date"):
            expect(page.locator(f'#agents tr[data-pool="{pool}"]').first).to_be_visible()
        expect(page.locator('#agents tr[data-role="planner"]')).to_have_count(1)
        ok("agents", page.locator("#agents tbody tr").count())

        if args.token:
            # The page works with the token: one request through to its report.
            page.fill("#ask-query", "2+4")
            page.click("#ask-send")
            expect(page.locator("#task")).to_have_attribute("data-state", "completed")
            expect(page.locator("#report")).to_contain_text("6")
            ok("request", "2+4 answered with the token")
            finish(page, errors, browser)
            return

        expect(page.locator("#dead tbody tr").first).to_contain_text("task_available")
        ok("dead_letters", page.locator("#dead tbody tr").first.inner_text().replace("\t", " "))

        page.fill("#ask-query", QUERY)
        page.click("#ask-send")
        task = page.locator("#task")
        expect(task).to_have_attribute("data-state", "completed")
        nodes = page.locator("#graph g.node")
        expect(nodes).to_have_count(4)  # three steps and the report
        expect(page.locator('#graph g.node:not([data-state="done"])')).to_have_count(0)
        report = page.locator("#report")
        expect(report).to_contain_text("18")
        expect(report).to_contain_text("Friday")
        ok("graph", f"{nodes.count()} nodes done; report: {report.inner_text().strip()!r}")

        task_id = page.locator("#task-id").inner_text()
        for topic in ("task_available", "plan_ready", "math_task", "math_result",
                      "date_task", "date_result", "final_report"):
            expect(page.locator(f'#hops tr[data-topic="{topic}"]').first).to_be_visible()
        row = page.locator(f'#tasks tr[data-task="{task_id}"]')
        expect(row).to_have_attribute("data-state", "done")
        expect(row).to_contain_text(re.compile(r"\d+(\.\d+)? (ms|s)"))
        ok("hops", f"{page.locator('#hops tbody tr').count()} messages; list: {row.inner_text()!r}")

        page.fill("#ask-query", QUESTION)
        page.click("#ask-send")
        expect(page.locator("#answer")).to_be_visible()
        expect(task).to_have_attribute("data-state", "input_required")
        question = page.locator("#answer-question").inner_text()
        page.fill("#answer-text", "4")
        page.click("#answer-send")
        expect(task).to_have_attribute("data-state", "completed")
        expect(page.locator("#answer")).to_be_hidden()
        expect(report).to_contain_text("2.5")
        ok("question", f"{question!r} answered with 4: {report.inner_text().strip()!r}")

        # Back to the first task (read again from GET /tasks/{id}/hops) for the picture.
        page.locator(f'#tasks tr[data-task="{task_id}"]').click()
        expect(page.locator("#task-id")).to_have_text(task_id)
        expect(page.locator('#graph g.node[data-state="done"]')).to_have_count(4)
        expect(report).to_contain_text("Friday")
        if args.screenshot:
            page.screenshot(path=args.screenshot, full_page=True)
            ok("screenshot", args.screenshot)
        finish(page, errors, browser)


def finish(page, errors, browser):
    browser.close()
    if errors:
        raise AssertionError("the page logged errors:\n" + "\n".join(errors))
    ok("console", "no console errors, no page errors")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--token")
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    try:
        check(args)
    except Exception as e:  # noqa: BLE001 - the test prints what failed
        print(f"FAILED: {type(e).__name__}: {e}", flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
