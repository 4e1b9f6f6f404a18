#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""What a workload did to its files, test by test, against its original (issue 45).

  trace_phases.py profile TRACE --path REGEX [--mark REGEX=NAME ... [--end REGEX]]
  trace_phases.py compare BOOTMARK ORIGINAL --path REGEX (--mark REGEX=NAME ... | --whole NAME)
                  [--end REGEX] [--pass REGEX] [--declare NAME ...] [--vary PHASE:KEY:PCT ...]

Both traces come from `strace -f -y -s 64`.  A trace is cut into phases, one a test:
  bootmark   by the runner's records on its standard output: `P phase=run ... test=T`
             starts T, from the runner's look at /proc/stat before run() to the
             one after it; what the runner does around it (`P phase=prepare`, caches,
             syncs, host mode's removal of the test's directory) belongs to no phase;
  original   by what it prints (a write to a file that is not a data file): the first --mark whose
             REGEX matches a write starts NAME, --end (matched first, at the start of
             the write) ends the phase; the calls after an end and before the next
             mark (the original opens its file before it prints the test's name)
             belong to the next phase.
A phase is the count of the calls on the files whose path matches --path (paths
resolved: strace -y names the fds, relative names are taken against the working
directory): opens by flags, reads and writes by requested size (a read returning 0
is "read eof"), lseek by offset and whence, the fsync family and sync(), stat,
unlink, mkdir, rmdir, getdents64 by buffer size, close.  compare prints, phase by
phase, the keys whose counts differ and exits 1 when any does.

Declared differences (from the workload's description, `bootmark-runner --traced`):
  readdir-buffer  the C libraries read directories with other buffers (musl 2 KiB,
                  glibc 32 KiB; glibc's opendir also adds O_NONBLOCK and fstat()s the
                  directory): whether a test reads a directory is compared, and its
                  opendir()s, not its getdents64 calls
  dirfd           bootmark names a test's files relative to an open directory
                  (openat, unlinkat, mkdirat) where the original chdir()s into it:
                  directory opens and closes and chdir are not compared
  batch-refill    bootmark refills the slots one reap freed with one io_submit (the
                  seed's "16 iocbs at a time"); fio submits a refill as each slot
                  frees: the largest submission is compared, not the number of
                  io_submit and io_getevents calls
  setup-stat      the original stat()s its file while it sets the job up (fio's
                  parent, before the job's process starts); bootmark's prepare()
                  wrote the file and knows its size: the original's stats are not
                  compared
  sync=syncfs     the original's sync() is bootmark's syncfs()
--vary PHASE:KEY:PCT accepts the count of KEY in PHASE (a prefix: "write" sums every
write size) within PCT percent of the original's: for the parts the original draws
at random or runs for a time.  Exit: 0 the same, 1 they differ, 2 bad input.
"""
import os
import re
import sys
from collections import Counter

from trace_profile import CALL, FD_PATH, QUIET_FLAGS, args_of, lines_of

IO = {"read", "write", "pread64", "pwrite64", "readv", "writev", "lseek", "ftruncate",
      "fallocate", "fsync", "fdatasync", "syncfs", "close", "fstat", "fstatfs", "getdents64",
      "fcntl", "flock", "fgetxattr", "fsetxattr"}
PATHCALLS = {"unlink": 0, "rmdir": 0, "mkdir": 0, "stat": 0, "lstat": 0, "chdir": 0,
             "creat": 0, "open": 0, "rename": 0, "access": 0, "statfs": 0, "utime": 0,
             "utimes": 0, "utimensat": 1,
             "unlinkat": 1, "mkdirat": 1, "newfstatat": 1, "statx": 1, "openat": 1,
             "renameat": 1, "renameat2": 1, "faccessat": 1}
DECLARED = {"readdir-buffer", "dirfd", "batch-refill", "setup-stat", "sync=syncfs"}
BM_START = re.compile(r'@@B1 \S+ \d+ P phase=run .*\btest=(\S+)')
BM_SKIP = re.compile(r'@@B1 \S+ \d+ P phase=prepare\b')
BM_END = re.compile(r'@@B1 \S+ \d+ [RE] ')
IOCB = re.compile(r'aio_lio_opcode=IOCB_CMD_(\w+), aio_fildes=\d+<([^>]*)>.*?'
                  r'aio_nbytes=(\d+), aio_offset=(\d+)')
ESC = re.compile(r'\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)')
UNESC = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "f": "\f", "\\": "\\", '"': '"'}


def unquote(text):
    """The bytes of a string strace printed ("...", C escapes, maybe cut with ...)."""
    text = text.strip()
    if text.endswith("..."):
        text = text[:-3]
    text = text[1:-1] if text.startswith('"') and text.endswith('"') else text

    def one(m):
        e = m.group(1)
        if e[0] == "x":
            return chr(int(e[1:], 16))
        if e[0] in "01234567":
            return chr(int(e, 8))
        return UNESC.get(e, e)
    return ESC.sub(one, text)


class Cutter:
    """Which phase a call belongs to, from the tool's messages."""

    def __init__(self, marks, end):
        self.marks, self.end = marks, end
        # the original's calls before its first message belong to its first test
        self.name, self.pending, self.held = None, marks is not None, []

    def message(self, text):
        if self.marks is None:  # bootmark's records
            if BM_SKIP.search(text) or BM_END.search(text):
                self.name = None
            m = BM_START.search(text)
            if m:
                self.name, self.looks = m.group(1), 0
            return
        if self.end is not None and self.end.match(text):
            self.name, self.pending = None, True
        for regex, name in self.marks:
            if regex.search(text):
                self.name, self.pending = name, False
                break

    def opened(self, path):
        """The runner reads /proc/stat just before a test's run() and just after it
        (measure.c, sysstat_begin/end): what it does outside (host mode removes the
        test's directory) is no part of the test."""
        if self.marks is None and self.name is not None and path == "/proc/stat":
            self.looks += 1
            if self.looks == 2:
                self.name = None

    def phase(self):
        """NAME, "" for the calls before the next mark (held until it comes), None
        for none; --whole NAME: the original's whole trace is one test."""
        if self.name is not None:
            return self.name
        return "" if self.pending else None


def resolve(base, path):
    return os.path.normpath(path if path.startswith("/") else os.path.join(base or "/", path))


def call_key(name, args, ret):
    """The key a call on a data file counts under: the operation, whichever form
    names the file (unlinkat is unlink, or rmdir with AT_REMOVEDIR; mkdirat is mkdir;
    stat, lstat, newfstatat and statx are stat)."""
    if name == "lseek":
        off = args[1] if args[2] != "SEEK_SET" or args[1] == "0" else ">0"
        return "lseek %s %s" % (off, args[2])  # a seek test's offsets are drawn
    if name in ("read", "pread64") and ret == "0":
        return "%s eof" % name
    if name in ("read", "write", "pread64", "pwrite64", "getdents64"):
        return "%s %s" % (name, args[2])
    if name in ("newfstatat", "statx") and "AT_EMPTY_PATH" in args[-1]:
        return "fstat"
    if name in ("open", "openat"):
        flags = args[2 if name == "openat" else 1].split("|")
        return "open " + "|".join(sorted(f for f in flags if f not in QUIET_FLAGS))
    if name == "creat":
        return "open O_CREAT|O_TRUNC|O_WRONLY"
    if name == "unlinkat":
        name = "rmdir" if "AT_REMOVEDIR" in args[2] else "unlink"
    if name == "fcntl":
        return "fcntl " + args[1]  # dbench's byte-range locks: F_SETLKW
    name = {"mkdirat": "mkdir", "lstat": "stat", "newfstatat": "stat", "statx": "stat",
            "utime": "utimes", "utimensat": "utimes"}.get(name, name)
    if ret.startswith("-") and name not in ("unlink", "rmdir"):
        return "%s failed" % name  # an unlink is the same call whether a file was there
    return name


class Files:
    """Which open file each fd is, across fork (a copied table) and threads (one
    table): a close counts when it is the file's last, as one program's close
    is, however many processes held it."""

    def __init__(self):
        self.table, self.refs, self.dirs, self.next = {}, {}, set(), 0

    def of(self, pid):
        return self.table.setdefault(pid, {})

    def cloned(self, pid, child, shared):
        if shared:
            self.table[child] = self.of(pid)
            return
        self.table[child] = dict(self.of(pid))
        for f in self.table[child].values():
            self.refs[f] += 1

    def opened(self, pid, fd, directory):
        self.next += 1
        self.of(pid)[fd] = self.next
        self.refs[self.next] = 1
        if directory:
            self.dirs.add(self.next)

    def is_dir(self, pid, fd):
        return self.of(pid).get(fd) in self.dirs

    def closed(self, pid, fd):
        """"close", "close dir" when it was the last holder, None when not."""
        f = self.of(pid).pop(fd, None)
        if f is None:
            return "close"
        self.refs[f] -= 1
        if self.refs[f]:
            return None
        return "close dir" if f in self.dirs else "close"


def target_of(name, args, g, cwd):
    """The path a call works on ("" for sync(), which names none), None for a call
    that is none of ours.  g: its first argument as fd<path>."""
    if name in PATHCALLS and len(args) > PATHCALLS[name]:
        i = PATHCALLS[name]
        base = cwd
        if i == 1:
            d = FD_PATH.match(args[0])
            base = d.group(2) if d else base
        if name in ("newfstatat", "statx") and unquote(args[i]) == "":
            return g.group(2) if g else None
        return resolve(base, unquote(args[i]))
    if name in IO and g and g.group(1) != "AT_FDCWD":
        return g.group(2)
    return "" if name == "sync" else None


def phases(path, want, cutter, passre=None):
    """{phase: Counter of keys}, the phases in the order they began."""
    out, order, cwd, files, offsets = {}, [], {}, Files(), {}

    def record(pid, key, target):
        ph = cutter.phase()
        if ph is None:
            return
        call = (pid, key, bool(passre and target and passre.search(target)))
        if ph == "":
            cutter.held.append(call)
            return
        if ph not in out:
            out[ph] = Passes()
            order.append(ph)
        for c in cutter.held + [call]:
            out[ph].add(*c)
        cutter.held = []

    for line in lines_of(path):
        m = CALL.match(line)
        if not m:
            continue
        pid, name, args, ret = m.group(1), m.group(2), args_of(m.group(3)), m.group(4)
        if name in ("fork", "vfork", "clone", "clone3") and ret.isdigit():
            files.cloned(pid, ret, "CLONE_FILES" in m.group(3))
            cwd.setdefault(ret, cwd.get(pid))
            continue
        g = FD_PATH.match(args[0]) if args else None
        if g and g.group(1) == "AT_FDCWD":
            cwd[pid] = g.group(2)
        if name == "write" and g and not want.search(g.group(2)) and len(args) > 1:
            cutter.message(unquote(args[1]))  # what it prints: the records, the progress
            continue
        if name == "chdir" and ret == "0":
            cwd[pid] = resolve(cwd.get(pid), unquote(args[0]))
        if name == "io_submit":
            iocbs = IOCB.findall(m.group(3))
            if not iocbs or not want.search(iocbs[0][1]):
                continue
            keys = ["io_submit %d iocbs" % len(iocbs)]
            keys += ["aio %s %s" % (op, n) for op, _, n, _ in iocbs]
            offsets.setdefault(cutter.phase(), []).extend(int(o) for *_, o in iocbs)
            for key in keys:
                record(pid, key, None)
            continue
        if name in ("io_getevents", "io_pgetevents"):
            record(pid, name, None)  # no fd: the phase's; how many it reaps is timing
            continue
        if name in ("open", "openat"):
            cutter.opened(unquote(args[1 if name == "openat" else 0]))
        if name == "fcntl" and not args[1].startswith(("F_SETLK", "F_GETLK", "F_OFD")):
            continue  # musl's open() sets FD_CLOEXEC once more: no I/O
        target = target_of(name, args, g, cwd.get(pid))
        if target is None or (target and not want.search(target)):
            continue
        key = call_key(name, args, ret)
        if name in ("open", "openat", "creat") and not ret.startswith("-"):
            files.opened(pid, ret, "O_DIRECTORY" in key)
        elif name == "close":
            key = files.closed(pid, g.group(1))
            if key is None:
                continue
        elif key == "fstat" and g and files.is_dir(pid, g.group(1)):
            key = "fstat dir"  # glibc's opendir() looks at what it opened
        record(pid, key, target)
    if cutter.held:  # after the last end, and no mark followed
        out["(after the last test)"] = Passes()
        for c in cutter.held:
            out["(after the last test)"].add(*c)
        order.append("(after the last test)")
    for ph, offs in offsets.items():  # which blocks, each how often, and in what order
        if ph in out:
            for o in offs:
                out[ph].all["aio at %d" % o] += 1
            out[ph].all["aio offsets " + ("ascending" if offs == sorted(offs) else
                                          "in another order")] = 1
    flat, forder = {}, []
    for ph in order:
        for name, c in out[ph].reduce(ph, passre is not None):
            flat[name] = c
            forder.append(name)
    return flat, forder


class Passes:
    """A phase's calls; with --pass, pass by pass of each task (a dbench client
    replaying its loadfile until the time is up): a task's calls up to and including
    its call on a --pass path are one pass, and what follows its last is cut short by
    the clock, so not compared."""

    def __init__(self):
        self.all, self.cur, self.done = Counter(), {}, {}

    def add(self, pid, key, end):
        self.all[key] += 1
        self.cur.setdefault(pid, Counter())[key] += 1
        if end:
            self.done.setdefault(pid, []).append(self.cur.pop(pid))

    def reduce(self, ph, by_pass):
        """[(name, Counter)]: the phase, or its first passes, the mean of the later
        ones (one pass of one task), and the calls of tasks that made no pass."""
        if not by_pass:
            return [(ph, self.all)]
        first, later, n, other = Counter(), Counter(), 0, Counter()
        for passes in self.done.values():
            first.update(passes[0])
            for p in passes[1:]:
                later.update(p)
                n += 1
        for pid, c in self.cur.items():
            if pid not in self.done:
                other.update(c)
        mean = Counter({k: round(v / n, 2) for k, v in later.items()}) if n else Counter()
        return [(ph + " first passes", first), (ph + " a later pass", mean),
                (ph + " outside the passes", other)]


def normalize(c, declared, original):
    c = Counter(c)
    if "readdir-buffer" in declared:
        reads = sum(v for k, v in c.items() if k.startswith("getdents64"))
        for k in [k for k in c if k.startswith("getdents64") or k == "fstat dir"]:
            del c[k]
        if reads:
            c["getdents64 (a directory read)"] = 1
        for k in [k for k in c if k.startswith("open O_DIRECTORY|O_NONBLOCK")]:
            c[k.replace("|O_NONBLOCK", "")] += c.pop(k)
    if "dirfd" in declared:
        for k in [k for k in c if k.startswith("open O_DIRECTORY") or k in
                  ("close dir", "chdir")]:
            del c[k]
    if "batch-refill" in declared:
        first = max((int(k.split()[1]) for k in c if k.startswith("io_submit ")), default=0)
        for k in [k for k in c if k.startswith("io_submit ") or k.startswith("io_getevents")]:
            del c[k]
        if first:
            c["io_submit of %d iocbs, the largest" % first] = 1
    if "setup-stat" in declared and original:
        c.pop("stat", None)
    if "sync=syncfs" in declared and original and c.get("sync"):
        c["syncfs"] += c.pop("sync")
    return c


def differences(phase, x, y, vary):
    """The keys whose counts differ; a --vary prefix compares the sum of its keys."""
    diff, covered = [], set()
    for ph, prefix, pct in vary:
        if ph != phase:
            continue
        keys = [k for k in set(x) | set(y) if k.startswith(prefix) and k not in covered]
        covered.update(keys)
        a, b = sum(x[k] for k in keys), sum(y[k] for k in keys)
        if abs(a - b) > pct / 100.0 * max(b, 1):
            diff.append(("%s* (within %g%%)" % (prefix, pct), a, b))
    diff += [(k, x[k], y[k]) for k in sorted(set(x) | set(y))
             if k not in covered and x[k] != y[k]]
    return diff


def compare(a, b, declared, vary):
    (pa, oa), (pb, ob) = a, b
    bad = 0
    if oa != ob:
        print("phases: bootmark %s\n        original %s" % (" ".join(oa), " ".join(ob)))
        bad += 1
    for ph in ob + [p for p in oa if p not in ob]:
        x = normalize(pa.get(ph, Counter()), declared, False)
        y = normalize(pb.get(ph, Counter()), declared, True)
        diff = differences(ph, x, y, vary)
        if not diff:
            print("%s: the same: %g calls, %s" % (ph, sum(y.values()), summary(y)))
            continue
        bad += 1
        print("%s differs:" % ph)
        for k, u, v in diff[:12]:
            print("  %-40s bootmark %g, original %g" % (k, u, v))
        if len(diff) > 12:
            print("  ... and %d more keys" % (len(diff) - 12))
    return bad


def summary(c):
    top = sorted(c.items(), key=lambda kv: -kv[1])[:6]
    return ", ".join("%s x%g" % kv for kv in top) + (", ..." if len(c) > 6 else "")


def main(argv):
    if len(argv) < 3 or argv[1] not in ("profile", "compare"):
        sys.stderr.write(__doc__)
        return 2
    pos, marks, end, declared, vary, want, passre = [], [], None, set(), [], None, None
    whole = None
    i = 2
    try:
        while i < len(argv):
            a = argv[i]
            v = argv[i + 1] if i + 1 < len(argv) else None
            if a in ("--path", "--mark", "--end", "--declare", "--vary", "--pass", "--whole") \
                    and v is None:
                raise ValueError("%s needs a value" % a)
            if a == "--path":
                want = re.compile(v)
            elif a == "--mark":
                regex, _, name = v.rpartition("=")
                marks.append((re.compile(regex), name))
            elif a == "--end":
                end = re.compile(v)
            elif a == "--pass":
                passre = re.compile(v)
            elif a == "--whole":
                whole = v
            elif a == "--declare":
                if v not in DECLARED:
                    raise ValueError("unknown difference '%s'" % v)
                declared.add(v)
            elif a == "--vary":
                ph, key, pct = v.rsplit(":", 2)
                vary.append((ph, key, float(pct)))
            else:
                pos.append(a)
                i += 1
                continue
            i += 2
    except (ValueError, re.error) as e:
        sys.stderr.write("trace_phases: %s\n" % e)
        return 2
    if want is None or len(pos) != (1 if argv[1] == "profile" else 2):
        sys.stderr.write(__doc__)
        return 2
    try:
        if argv[1] == "profile":
            p, order = phases(pos[0], want, Cutter(marks or None, end), passre)
            for ph in order:
                print("%s: %g calls: %s" % (ph, sum(p[ph].values()),
                                            ", ".join("%s x%g" % kv for kv in sorted(p[ph].items()))))
            return 0
        a = phases(pos[0], want, Cutter(None, None), passre)
        cut = Cutter(marks, end)
        if whole:
            cut.name = whole
        b = phases(pos[1], want, cut, passre)
    except OSError as e:
        sys.stderr.write("trace_phases: cannot read %s: %s\n" % (e.filename, e.strerror))
        return 2
    if not a[1] or not b[1]:
        print("no phase with calls on the data files in %s" % (pos[0] if not a[1] else pos[1]))
        return 1
    return 1 if compare(a, b, declared, vary) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
