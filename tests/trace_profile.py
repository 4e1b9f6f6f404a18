#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""What a program did to its data files, from `strace -f -y` (issue 45).

  trace_profile.py profile TRACE --path REGEX
  trace_profile.py compare BOOTMARK ORIGINAL --path REGEX [--path-original REGEX]
                   [--declare NAME ...]

A trace's calls on the files whose path (strace -y prints it after each fd) matches
REGEX are grouped into sessions: from an open of such a file to the next.  A session
is its open flags (O_LARGEFILE and O_CLOEXEC left out: they change no I/O), its I/O
calls counted by name and requested size (a read that returns 0 is "read eof"), and
the sync calls made while it is the current one (fsync, fdatasync and syncfs of the
file, and sync(), which names no file).  A session with no I/O call (an open to look
at the file: its extents, its size) is no phase of the benchmark and is left out.

compare prints where the two profiles differ, session by session, and exits 1 when
they do; 0 when they agree once the declared differences are applied:
  sync=syncfs    the original's sync() is bootmark's syncfs() (the seed's `sync`,
                 limited to the test filesystem)
  eof-read       the original reads until a read returns 0; bootmark stops at the size
  lseek-cur      the original asks for its offset (lseek(fd, 0, SEEK_CUR))
  creat-notrunc  the original opens an existing file with O_CREAT when it keeps its data
Exit: 0 the same, 1 they differ, 2 bad input.
"""
import re
import sys
from collections import Counter

CALL = re.compile(r'^(?:\[pid\s+)?(\d+)\]?\s+(\w+)\((.*)\)\s+=\s+(-?\d+|\?)')
FD_PATH = re.compile(r'^(-?\d+|AT_FDCWD)<([^>]*)>')
IO = {"read", "write", "pread64", "pwrite64", "readv", "writev", "lseek", "ftruncate",
      "fallocate"}
SYNC = {"fsync", "fdatasync", "syncfs", "sync"}
QUIET_FLAGS = {"O_LARGEFILE", "O_CLOEXEC"}
DECLARED = {"sync=syncfs", "eof-read", "lseek-cur", "creat-notrunc"}


def args_of(text):
    """The top-level arguments of a call, strings kept whole."""
    out, depth, cur, quote, esc = [], 0, "", False, False
    for ch in text:
        if quote:
            cur += ch
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                quote = False
            continue
        if ch == '"':
            quote = True
        elif ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


UNFINISHED = re.compile(r'^(?:\[pid\s+)?(\d+)\]?\s+(.*) <unfinished \.\.\.>$')
RESUMED = re.compile(r'^(?:\[pid\s+)?(\d+)\]?\s+<\.\.\. \w+ resumed>(.*)$')


def lines_of(path):
    """The trace's lines with the calls strace -f split (another task ran in between:
    "<unfinished ...>", then "<... read resumed>") put back together."""
    pending = {}
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = UNFINISHED.match(line)
            if m:
                if m.group(2).startswith("close("):
                    # a close frees its fd as it begins: another task's open may
                    # return that number before strace prints the close's end
                    yield "%s  %s) = 0" % (m.group(1), m.group(2))
                    continue
                pending[m.group(1)] = m.group(2)
                continue
            m = RESUMED.match(line)
            if m:
                head = pending.pop(m.group(1), None)
                if head is None:
                    continue
                line = "%s  %s%s" % (m.group(1), head, m.group(2))
            yield line


def new_session(flags):
    return {"flags": sorted(f for f in flags if f not in QUIET_FLAGS), "io": Counter(),
            "sync": Counter()}


def profile(path, want):
    """The sessions of the files matching want in the trace at path."""
    sessions, cur = [], None
    for line in lines_of(path):
        m = CALL.match(line)
        if not m:
            continue
        name, args, ret = m.group(2), args_of(m.group(3)), m.group(4)
        if name in ("open", "openat", "creat"):
            tail = line.rsplit("=", 1)[1].strip()
            g = FD_PATH.match(tail)
            if g and want.search(g.group(2)):
                flags = args[2 if name == "openat" else 1].split("|") if name != "creat" \
                    else ["O_CREAT", "O_WRONLY", "O_TRUNC"]
                cur = new_session(flags)
                sessions.append(cur)
            continue
        if cur is None:
            continue
        if name == "sync":
            cur["sync"]["sync"] += 1
            continue
        g = FD_PATH.match(args[0]) if args else None
        if not g or not want.search(g.group(2)):
            continue
        if name in SYNC:
            cur["sync"][name] += 1
        elif name in IO:
            if name == "lseek":
                key = "lseek %s %s" % (args[1], args[2])
            elif name in ("read", "pread64") and ret == "0":
                key = "%s eof" % name
            elif name in ("read", "write", "pread64", "pwrite64"):
                key = "%s %s" % (name, args[2])
            else:
                key = name
            cur["io"][key] += 1
    return [s for s in sessions if s["io"]]


def normalize(s, declared, original):
    s = {"flags": list(s["flags"]), "io": Counter(s["io"]), "sync": Counter(s["sync"])}
    if "sync=syncfs" in declared and original and s["sync"].get("sync"):
        s["sync"]["syncfs"] += s["sync"].pop("sync")
    if "eof-read" in declared and original:
        for k in [k for k in s["io"] if k.endswith(" eof")]:
            del s["io"][k]
    if "lseek-cur" in declared and original:
        s["io"].pop("lseek 0 SEEK_CUR", None)
    if "creat-notrunc" in declared and original and "O_TRUNC" not in s["flags"]:
        s["flags"] = [f for f in s["flags"] if f != "O_CREAT"]
    return s


def show(s):
    io = ", ".join("%s x%d" % (k, v) for k, v in sorted(s["io"].items()))
    sync = ", ".join("%s x%d" % (k, v) for k, v in sorted(s["sync"].items())) or "none"
    return "open %s; %s; sync: %s" % ("|".join(s["flags"]), io, sync)


def compare(a, b, declared):
    bad = 0
    if len(a) != len(b):
        print("sessions: bootmark %d, original %d" % (len(a), len(b)))
        bad += 1
    for i in range(max(len(a), len(b))):
        x = normalize(a[i], declared, False) if i < len(a) else None
        y = normalize(b[i], declared, True) if i < len(b) else None
        if x == y:
            print("session %d: the same: %s" % (i + 1, show(x)))
            continue
        bad += 1
        print("session %d differs:" % (i + 1))
        print("  bootmark: %s" % (show(x) if x else "-"))
        print("  original: %s" % (show(y) if y else "-"))
    return bad


def main(argv):
    if len(argv) < 3 or argv[1] not in ("profile", "compare"):
        sys.stderr.write(__doc__)
        return 2
    opts, pos, i = {"--path": None, "--path-original": None}, [], 2
    declared = set()
    while i < len(argv):
        if argv[i] in opts and i + 1 < len(argv):
            opts[argv[i]] = argv[i + 1]
            i += 2
        elif argv[i] == "--declare" and i + 1 < len(argv):
            if argv[i + 1] not in DECLARED:
                sys.stderr.write("trace_profile: unknown difference '%s'\n" % argv[i + 1])
                return 2
            declared.add(argv[i + 1])
            i += 2
        else:
            pos.append(argv[i])
            i += 1
    if not opts["--path"] or len(pos) != (1 if argv[1] == "profile" else 2):
        sys.stderr.write(__doc__)
        return 2
    want = re.compile(opts["--path"])
    try:
        a = profile(pos[0], want)
        if argv[1] == "profile":
            for n, s in enumerate(a):
                print("session %d: %s" % (n + 1, show(s)))
            return 0
        b = profile(pos[1], re.compile(opts["--path-original"] or opts["--path"]))
    except OSError as e:
        sys.stderr.write("trace_profile: cannot read %s: %s\n" % (e.filename, e.strerror))
        return 2
    if not a or not b:
        print("no I/O on the data files in %s" % (pos[0] if not a else pos[1]))
        return 1
    return 1 if compare(a, b, declared) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
