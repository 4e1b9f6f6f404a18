#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Checks a document of `bootmark export --format kcidb` (tests/e2e.sh).

  kcidb_check.py DOC.json [RUN_DIR]

1. The KCIDB I/O schema of the version the document claims.  kcidb-io is not
   packaged by Debian, so what it requires is written down below, read from
   kernelci/kcidb-io, kcidb_io/schema/v05_00.py (schema v5.0; the patterns of
   origin and ids from v03_00.py, which v5.0 keeps): every object's required
   fields, every property it allows (additionalProperties is false on each
   object, so an unknown field is an error) with its JSON type, pattern, enum
   and maxLength.  v05_01.py .. v05_03.py only add properties (checkout
   origin_builds_finish_time/origin_tests_finish_time, test input_files,
   issue categories) and move the test path's pattern into $defs/path
   unchanged, so a v5.0 document that passes here is valid v5.3 input too.
   The check is done twice when python3-jsonschema is installed: by the code
   below, and by jsonschema's Draft 7 validator (the one kcidb-io itself uses,
   kcidb_io/schema/abstract.py) on a JSON Schema built from the same table;
   without it, by the code alone.  The table was compared, field by field,
   with the schema kcidb-io 5.3 exports for v5.0 (Version.json): the same
   objects, required fields, types, patterns, enums and maximum lengths, less
   issues and incidents.
2. What KCIDB's descriptions say beyond types: ids unique per object type,
   each id starting with its origin, every build's checkout and every test's
   build present, a number only
   with FAIL, ERROR, PASS or DONE.
3. With RUN_DIR: bootmark's mapping (docs/results.md, "KCIDB"): each metric
   of each R record in every results.json under RUN_DIR is exactly one test
   with path bootmark.<fs>.<workload>.<test>.<metric>, its value and unit;
   each boot has one test "bootmark" whose misc.status is its class.

Prints "ok - " / "not ok - " lines; exit 0 when all pass, 1 otherwise.
"""
import glob
import json
import math
import os
import re
import sys

failed = 0


def check(cond, what):
    global failed
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failed += 1
    return cond


# --- the schema's facts (kcidb_io/schema/v05_00.py, v5.0) -------------------
ORIGIN = r"^[a-z0-9_]+$"              # v03_00.py origin_pattern
OBJECT_ID = r"^[a-z0-9_]+:[^\0]*$"    # v05_00.py origin_id_pattern
TEXT = r"^[^\0]*$"                    # strings that may not hold NUL
STATUS = ["FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP"]  # $defs/status, by priority
PATH = r"^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$"           # test_path_re
RESOURCE_LIST = {"type": "array", "items": {
    "type": "object", "required": ["name", "url"],
    "props": {"name": {"type": "string", "pattern": r"^[^/\0]+$"},
              "url": {"type": "string", "format": "uri"}}}}


def s(pattern=None, fmt=None, max_len=None, enum=None):
    out = {"type": "string"}
    if pattern:
        out["pattern"] = pattern
    if fmt:
        out["format"] = fmt
    if max_len:
        out["maxLength"] = max_len
    if enum:
        out["enum"] = enum
    return out


DATE = s(fmt="date-time")
URI = s(fmt="uri")
EXCERPT = s(TEXT, max_len=16384)
MISC = {"type": "object"}

CHECKOUT = {"type": "object", "required": ["id", "origin"], "props": {
    "_timestamp": DATE, "id": s(OBJECT_ID), "origin": s(ORIGIN), "tree_name": s(TEXT),
    "git_repository_url": s(r"^https://[^\0]*$", fmt="uri"),
    "git_commit_hash": s(r"^[0-9a-f]{40}$"), "git_commit_name": s(TEXT),
    "git_commit_tags": {"type": "array", "items": s(TEXT)},
    "git_commit_message": s(TEXT), "git_repository_branch": s(TEXT),
    "git_repository_branch_tip": {"type": "boolean"}, "patchset_files": RESOURCE_LIST,
    "patchset_hash": s(r"^$|^[0-9a-f]{64}$"), "message_id": s(fmt="email"),
    "comment": s(TEXT), "start_time": DATE, "log_url": URI, "log_excerpt": EXCERPT,
    "valid": {"type": "boolean"}, "misc": MISC}}
BUILD = {"type": "object", "required": ["checkout_id", "id", "origin"], "props": {
    "_timestamp": DATE, "checkout_id": s(OBJECT_ID), "id": s(OBJECT_ID), "origin": s(ORIGIN),
    "comment": s(TEXT), "start_time": DATE, "duration": {"type": "number"},
    "architecture": s(r"^[a-z0-9_]*$"), "command": s(TEXT), "compiler": s(TEXT),
    "input_files": RESOURCE_LIST, "output_files": RESOURCE_LIST, "config_name": s(TEXT),
    "config_url": URI, "log_url": URI, "log_excerpt": EXCERPT, "status": s(enum=STATUS),
    "misc": MISC}}
TEST = {"type": "object", "required": ["build_id", "id", "origin"], "props": {
    "_timestamp": DATE, "build_id": s(OBJECT_ID), "id": s(OBJECT_ID), "origin": s(ORIGIN),
    "environment": {"type": "object", "props": {
        "compatible": {"type": "array", "items": s(r"^[^ \0]+(,[^ \0]+)*$")},
        "comment": s(TEXT), "misc": MISC}},
    "path": s(PATH), "comment": s(TEXT), "log_url": URI, "log_excerpt": EXCERPT,
    "status": s(enum=STATUS),
    "number": {"type": "object", "required": ["value"], "props": {
        "value": {"type": "number"}, "unit": s(TEXT),
        "prefix": s(enum=["metric", "binary"])}},
    "start_time": DATE, "duration": {"type": "number"}, "output_files": RESOURCE_LIST,
    "misc": MISC}}
# issues and incidents: bootmark writes none; a document with them fails (3.)
TOP = {"type": "object", "required": ["version"], "props": {
    "version": {"type": "object", "required": ["major"], "props": {
        "major": {"type": "integer", "const": 5},
        "minor": {"type": "integer", "minimum": 0, "maximum": 0}}},
    "checkouts": {"type": "array", "items": CHECKOUT},
    "builds": {"type": "array", "items": BUILD},
    "tests": {"type": "array", "items": TEST}}}

# RFC 3339 date-time, what "format": "date-time" means
DATE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def type_ok(v, t):
    if t == "string":
        return isinstance(v, str)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "array":
        return isinstance(v, list)
    if t == "object":
        return isinstance(v, dict)
    return False


def validate(v, sch, where, errs):
    """Appends "where: problem" for every way v breaks sch (the table above)."""
    if not type_ok(v, sch["type"]):
        errs.append("%s: %r is not of type %s" % (where, v, sch["type"]))
        return
    if "const" in sch and v != sch["const"]:
        errs.append("%s: %r is not %r" % (where, v, sch["const"]))
    if "minimum" in sch and v < sch["minimum"]:
        errs.append("%s: %r < %r" % (where, v, sch["minimum"]))
    if "maximum" in sch and v > sch["maximum"]:
        errs.append("%s: %r > %r (the minor version the schema has)" % (where, v, sch["maximum"]))
    if "pattern" in sch and not re.search(sch["pattern"], v):
        errs.append("%s: %r does not match %s" % (where, v, sch["pattern"]))
    if "enum" in sch and v not in sch["enum"]:
        errs.append("%s: %r is not one of %s" % (where, v, sch["enum"]))
    if "maxLength" in sch and len(v) > sch["maxLength"]:
        errs.append("%s: longer than %d" % (where, sch["maxLength"]))
    if sch.get("format") == "date-time" and not DATE_TIME.match(v):
        errs.append("%s: %r is not an RFC 3339 date-time" % (where, v))
    if sch.get("format") == "uri" and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", v):
        errs.append("%s: %r is not a URI" % (where, v))
    if sch["type"] == "array" and "items" in sch:
        for i, item in enumerate(v):
            validate(item, sch["items"], "%s[%d]" % (where, i), errs)
    if sch["type"] == "object" and "props" in sch:
        for k in sch.get("required", []):
            if k not in v:
                errs.append("%s: required field %s missing" % (where, k))
        for k, item in v.items():
            if k not in sch["props"]:
                errs.append("%s: field %s is not in the schema" % (where, k))
            else:
                validate(item, sch["props"][k], "%s.%s" % (where, k), errs)


def json_schema(sch):
    """The table as a JSON Schema (for python3-jsonschema)."""
    out = {k: v for k, v in sch.items() if k not in ("props", "items")}
    if "items" in sch:
        out["items"] = json_schema(sch["items"])
    if "props" in sch:
        out["properties"] = {k: json_schema(v) for k, v in sch["props"].items()}
        out["additionalProperties"] = False
    return out


def schema_checks(doc):
    errs = []
    validate(doc, TOP, "document", errs)
    for e in errs[:20]:
        print("# " + e)
    check(not errs, "the document is KCIDB v5.0 (kcidb_io/schema/v05_00.py): every "
          "required field, type and pattern (%d problems)" % len(errs))
    try:
        import jsonschema
    except ImportError:
        print("# python3-jsonschema not installed: the schema checked by this script alone")
        return
    from importlib.metadata import version
    v = jsonschema.Draft7Validator(json_schema(TOP),
                                   format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    jerrs = list(v.iter_errors(doc))
    for e in jerrs[:10]:
        print("# jsonschema: %s at %s" % (e.message, "/".join(str(p) for p in e.path)))
    check(not jerrs, "jsonschema %s (Draft 7) accepts it against the same table"
          % version("jsonschema"))


def link_checks(doc):
    for kind in ("checkouts", "builds", "tests"):
        ids = [o.get("id") for o in doc.get(kind, [])]
        check(len(ids) == len(set(ids)), "%s: %d ids, all different" % (kind, len(ids)))
    checkouts = {c.get("id") for c in doc.get("checkouts", [])}
    builds = {b.get("id") for b in doc.get("builds", [])}
    check(all(b.get("checkout_id") in checkouts for b in doc.get("builds", [])),
          "every build's checkout_id is a checkout of the document")
    check(all(t.get("build_id") in builds for t in doc.get("tests", [])),
          "every test's build_id is a build of the document")
    unowned = [o.get("id") for kind in ("checkouts", "builds", "tests")
               for o in doc.get(kind, []) for k in ("id", "checkout_id", "build_id")
               if k in o and not str(o[k]).startswith(str(o.get("origin")) + ":")]
    check(not unowned, "every id starts with its object's origin and a colon (%s)" % unowned[:3])
    bad = [t["id"] for t in doc.get("tests", [])
           if "number" in t and t.get("status") not in ("FAIL", "ERROR", "PASS", "DONE")]
    check(not bad, "a number only with FAIL, ERROR, PASS or DONE (%s)" % bad[:3])


def part(x):
    return re.sub(r"[^a-zA-Z0-9_-]", "_", x) or "_"


def mapping_checks(doc, run_dir):
    tests = doc.get("tests", [])
    by_run = {}
    for t in tests:
        by_run.setdefault((t.get("misc") or {}).get("run"), []).append(t)
    files = sorted(glob.glob(os.path.join(run_dir, "*", "results.json")) +
                   glob.glob(os.path.join(run_dir, "results.json")))
    check(files, "%s holds results.json files (%d)" % (run_dir, len(files)))
    for path in files:
        with open(path) as f:
            res = json.load(f)
        mine = by_run.get(res["run"], [])
        label = os.path.basename(os.path.dirname(path))
        boot = [t for t in mine if t.get("path") == "bootmark"]
        check(len(boot) == 1 and boot[0]["misc"]["status"] == res["status"],
              "%s: one test 'bootmark' with the boot's class %s" % (label, res["status"]))
        want, lost = 0, []
        for r in res["records"]:
            for m in r["metrics"]:
                if m["value"] is None:
                    continue
                want += 1
                p = "bootmark.%s.%s.%s.%s" % (part(r["fs"]), part(r["wl"]), part(r["test"]),
                                              part(m["name"]))
                hit = [t for t in mine if t.get("path") == p and
                       t.get("misc", {}).get("rep") == r["rep"]]
                if len(hit) != 1 or hit[0].get("number", {}).get("value") != m["value"] or \
                        hit[0]["number"].get("unit", "") != m["unit"]:
                    lost.append(p)
        check(want and not lost, "%s: each of the %d measured values is one test with its "
              "path, value and unit%s" % (label, want, " (missing or wrong: %s)" % lost[:3]
                                         if lost else ""))
    runs = {json.load(open(p))["run"] for p in files}
    check(set(by_run) <= runs, "every test belongs to a boot of %s" % run_dir)


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: kcidb_check.py DOC.json [RUN_DIR]", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            doc = json.load(f)
    except ValueError as exc:
        check(False, "the document is JSON: %s" % exc)
        return 1
    schema_checks(doc)
    link_checks(doc)
    if len(sys.argv) == 3:
        mapping_checks(doc, sys.argv[2])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
