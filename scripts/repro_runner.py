#!/usr/bin/env python3
"""Runs tfuzz repro programs and compares what they print with the model.

Every Python repro program that tfuzz writes (tfuzz report --out, reports/examples)
carries three header lines: "tfuzz-profile: P", "tfuzz-case: {...}" and
"tfuzz-expect: {...}", the outcome tfuzz's model states for the case under P.
This script runs each program whose framework is importable here (and, for a
GPU profile, sees a GPU), reads the one line of case-format JSON it prints (a
process killed by a signal is the outcome {"crash": {"signal": ...}}), and
compares it with the expectation as case format v1 defines it: same form; same
error class; same crash signal; same dtype, shape and elements, floats bit for
bit except that any NaN matches any NaN, -0.0 does not match 0.0, "?" matches
anything, and attrs.tolerance_ulps allows that many units in the last place.

usage: repro_runner.py [--python PY] [--timeout S] [--json FILE] [DIR_OR_FILE...]
Exit 0 when every program that ran matched, 1 on any difference or failure.
"""

import argparse
import json
import math
import os
import signal
import struct
import subprocess
import sys

MARKS = ("tfuzz-profile: ", "tfuzz-case: ", "tfuzz-expect: ")
MODULES = {"pytorch": "torch", "numpy": "numpy", "jax": "jax"}
GPU_CHECK = {
    "pytorch": "import torch; assert torch.cuda.is_available()",
    "jax": "import os; os.environ['JAX_PLATFORMS'] = 'cuda'; import jax; assert jax.devices('gpu')",
}


def header(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                if out:
                    break
                continue
            text = line.lstrip("# ").rstrip("\n")
            for m in MARKS:
                if text.startswith(m):
                    out[m] = text[len(m):]
    return out


def programs(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, _, files in sorted(os.walk(p)):
            for name in sorted(files):
                if name.endswith(".py") and name.startswith("repro_"):
                    yield os.path.join(root, name)


# --- comparing outcomes as case format v1 does -----------------------------

FLOATS = {"f16": ("e", "h", 16), "f32": ("f", "i", 32), "f64": ("d", "q", 64)}


def parse_float(s):
    s = str(s)
    low = s.lower()
    if low in ("nan", "+nan", "-nan"):
        return math.nan
    if low in ("inf", "+inf", "infinity"):
        return math.inf
    if low in ("-inf", "-infinity"):
        return -math.inf
    if "0x" in low:
        return float.fromhex(s)
    return float(s)


def ordered_bits(x, dtype):
    """The float's bits as an integer that orders like the values (for ulps)."""
    if dtype == "bf16":
        b = struct.unpack("<I", struct.pack("<f", x))[0] >> 16
        bits, width = b, 16
    else:
        f, i, width = FLOATS[dtype]
        bits = struct.unpack("<" + i.upper(), struct.pack("<" + f, x))[0]
    sign = 1 << (width - 1)
    return -(bits & ~sign) if bits & sign else bits


def float_same(w, g, dtype, tol):
    w, g = parse_float(w), parse_float(g)
    if math.isnan(w) or math.isnan(g):
        return math.isnan(w) and math.isnan(g)
    if w == g and math.copysign(1, w) == math.copysign(1, g):
        return True
    if tol > 0 and not (w == 0 and g == 0):
        return abs(ordered_bits(w, dtype) - ordered_bits(g, dtype)) <= tol
    return False


def compare(want, got, tol=0):
    """Returns "" when the outcomes match, else what differs."""
    for k in ("warnings", "rules"):
        want.pop(k, None), got.pop(k, None)
    wf, gf = [k for k in want][0], [k for k in got][0]
    if wf != gf:
        return "want %s, got %s" % (wf, gf)
    if wf == "error":
        return "" if want[wf]["class"] == got[gf]["class"] else "want error class %s, got %s" % (
            want[wf]["class"], got[gf]["class"])
    if wf == "crash":
        return "" if want[wf]["signal"] == got[gf]["signal"] else "want signal %s, got %s" % (
            want[wf]["signal"], got[gf]["signal"])
    if wf != "value":
        return ""
    w, g = want["value"], got["value"]
    if w["dtype"] != g["dtype"]:
        return "want dtype %s, got %s" % (w["dtype"], g["dtype"])
    if list(w["shape"]) != list(g["shape"]):
        return "want shape %s, got %s" % (w["shape"], g["shape"])
    d = w["dtype"]
    for i, (x, y) in enumerate(zip(w["data"], g["data"])):
        if x == "?" or y == "?":
            continue
        if d in ("c64", "c128"):
            part = "f32" if d == "c64" else "f64"
            same = float_same(x[0], y[0], part, tol) and float_same(x[1], y[1], part, tol)
        elif d in FLOATS or d == "bf16":
            same = float_same(x, y, d, tol)
        else:
            same = x == y
        if not same:
            return "element %d: want %s, got %s" % (i, x, y)
    if len(w["data"]) != len(g["data"]):
        return "want %d elements, got %d" % (len(w["data"]), len(g["data"]))
    return ""


# --- running ----------------------------------------------------------------

def available(py, framework, gpu, cache):
    key = (framework, gpu)
    if key not in cache:
        module = MODULES.get(framework)
        if module is None:
            cache[key] = "no Python framework %r" % framework
        else:
            code = GPU_CHECK[framework] if gpu else "import " + module
            r = subprocess.run([py, "-c", code], capture_output=True, text=True)
            cache[key] = "" if r.returncode == 0 else "%s%s not available here" % (module, " with a GPU" if gpu else "")
    return cache[key]


def run(py, path, timeout):
    try:
        r = subprocess.run([py, os.path.basename(path)], cwd=os.path.dirname(path) or ".",
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %ss" % timeout
    if r.returncode < 0:
        return {"crash": {"signal": signal.Signals(-r.returncode).name}}, ""
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    if r.returncode != 0 or len(lines) != 1:
        return None, "exit %d, stdout %r, stderr %s" % (r.returncode, r.stdout[-500:], r.stderr[-1500:])
    try:
        return json.loads(lines[0]), ""
    except ValueError as e:
        return None, "not an outcome: %r (%s)" % (lines[0], e)


def self_test():
    """Checks compare() against the case format's rules."""
    v = lambda d, data, shape=None: {"value": {"dtype": d, "shape": shape if shape is not None else [len(data)], "data": data}}
    same = [
        (v("f32", ["nan"]), v("f32", ["nan"]), 0),
        (v("f32", ["1.5"]), v("f32", ["0x1.8p+0"]), 0),
        (v("i8", ["?"]), v("i8", [5]), 0),
        (v("f32", ["1.0"]), v("f32", ["1.0000001192092896"]), 1),
        (v("c64", [["1.0", "-0.0"]]), v("c64", [["1.0", "-0.0"]]), 0),
        ({"error": {"class": "ZeroDivision", "message": "a"}}, {"error": {"class": "ZeroDivision", "message": "b"}}, 0),
        ({"unsupported": {"message": "a"}}, {"unsupported": {"message": "b"}}, 0),
    ]
    differ = [
        (v("f32", ["0.0"]), v("f32", ["-0.0"]), 0),
        (v("f32", ["1.0"]), v("f32", ["1.0000001192092896"]), 0),
        (v("i8", [1]), v("i16", [1]), 0),
        (v("i8", [1]), v("i8", [1], [1, 1]), 0),
        (v("bf16", ["1.0"]), v("bf16", ["1.0078125"]), 0),
        ({"crash": {"signal": "SIGFPE"}}, {"crash": {"signal": "SIGSEGV"}}, 0),
        ({"error": {"class": "ZeroDivision", "message": ""}}, {"panic": {"message": ""}}, 0),
    ]
    bad = [(w, g) for w, g, t in same if compare(w, g, t)] + [(w, g) for w, g, t in differ if not compare(w, g, t)]
    for w, g in bad:
        print("self-test: wrong verdict for", json.dumps(w), json.dumps(g))
    print("self-test:", "ok" if not bad else "FAILED")
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--json", help="write the results to this file")
    ap.add_argument("paths", nargs="*", default=["reports/examples"])
    args = ap.parse_args()
    cache, results = {}, []
    counts = {}
    for path in programs(args.paths):
        h = header(path)
        if len(h) < 3:
            continue
        profile = h["tfuzz-profile: "]
        framework = profile.split("/")[0]
        gpu = "/cuda" in profile or "/gpu" in profile
        expect = json.loads(h["tfuzz-expect: "])
        case = json.loads(h["tfuzz-case: "])
        tol = case.get("attrs", {}).get("tolerance_ulps", 0)
        why = available(args.python, framework, gpu, cache)
        if why:
            status, detail, got = "SKIP", why, None
        else:
            got, err = run(args.python, path, args.timeout)
            if got is None:
                status, detail = "FAIL", err
            else:
                diff = compare(json.loads(json.dumps(expect)), json.loads(json.dumps(got)), tol)
                status, detail = ("MATCH", "") if not diff else ("DIFFER", diff)
        c = counts.setdefault(profile, {})
        c[status] = c.get(status, 0) + 1
        results.append({"path": path, "profile": profile, "status": status, "detail": detail,
                        "expect": expect, "got": got})
        line = "%-6s %-14s %s" % (status, profile, path)
        if status == "DIFFER":
            line += "\n       %s\n       model: %s\n       ran:   %s" % (detail, json.dumps(expect), json.dumps(got))
        elif status in ("FAIL", "SKIP") and detail:
            line += "  (%s)" % detail.strip().splitlines()[-1] if status == "SKIP" else "\n       " + detail
        print(line, flush=True)
    print("\n%-16s %6s %6s %6s %6s" % ("profile", "match", "differ", "fail", "skip"))
    for p in sorted(counts):
        c = counts[p]
        print("%-16s %6d %6d %6d %6d" % (p, c.get("MATCH", 0), c.get("DIFFER", 0), c.get("FAIL", 0), c.get("SKIP", 0)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    bad = sum(1 for r in results if r["status"] in ("DIFFER", "FAIL"))
    ran = sum(1 for r in results if r["status"] in ("MATCH", "DIFFER", "FAIL"))
    print("\n%d programs ran, %d matched the model, %d did not" % (ran, ran - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
