"""Sums Check's per-program results from meson's JSON test logs into one line:
'N passed, N failed, N skipped'. A program without a Check summary (crash,
timeout) counts as one failure; a skipped program (exit 77) as one skip."""
import json
import re
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        failed += 1
        print(f"summarize: {path} missing", file=sys.stderr)
        continue
    for line in lines:
        t = json.loads(line)
        out = t.get("stdout", "") or ""
        m = re.search(r"Checks: (\d+), Failures: (\d+), Errors: (\d+)", out)
        if t["result"] == "SKIP":
            skipped += 1
        elif m:
            checks, fails, errors = map(int, m.groups())
            passed += checks - fails - errors
            failed += fails + errors
            if t["result"] != "OK" and fails + errors == 0:
                failed += 1
        elif t["result"] == "OK":
            passed += 1
        else:
            failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
