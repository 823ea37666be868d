"""Scrapes Chorus's /metrics endpoints and parses each body with the OFFICIAL Python
Prometheus client's OpenMetrics parser (prometheus_client.openmetrics.parser), an
independent reader of the format: a body it cannot parse fails the script.

Usage: metrics_check.py URL [URL ...]
Prints one JSON object: per URL its content type, its families (name -> type) and
its samples as [name, labels, value].
"""

import json
import sys
import urllib.request

from prometheus_client.openmetrics.parser import text_string_to_metric_families


def scrape(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        content_type = response.headers.get("Content-Type", "")
        body = response.read().decode("utf-8")
    families = list(text_string_to_metric_families(body))
    return {
        "content_type": content_type,
        "families": {f.name: f.type for f in families},
        "samples": [[s.name, s.labels, s.value] for f in families for s in f.samples],
    }


def main(urls):
    if not urls:
        print(__doc__, file=sys.stderr)
        return 2
    out = {}
    for url in urls:
        try:
            out[url] = scrape(url)
        except Exception as e:  # the test prints what failed, for which endpoint
            print(f"{url}: {type(e).__name__}: {e}", file=sys.stderr)
            return 1
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
