#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""make check-docs: the examples of README.md and docs/*.md, run (docs/doc-tests.md).

Every code block whose first line is a command is an example: its commands run
in document order (README.md first, then docs/ by name), each must exit 0 (or
the block's `exit N`), and the lines the block's marker names as key lines must
be in the output.  A block marked `skip` is counted as not runnable here, with
its reason.  Besides: the synopsis block of docs/cli.md must equal what each
command's --help prints, and every `bootmark CMD ... --opt` and `make TARGET`
in any code (blocks and spans) must name an option CMD has and a target the
Makefile has.

Environment: BM (default build/bootmark), O (default BM's folder),
BOOTMARK_CACHE (as for bootmark), DOCS_KEEP=1 keeps the scratch folder.
Usage: tests/docs_check.py [--list] [FILE...]
Exit: 0 every example that ran passed and every check held, 1 otherwise.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CMD_WORDS = {"bootmark", "bootmark-runner", "make", "git", "sh", "lavacli", "install",
             "lsblk", "cat", "tftp", "qemu-system-x86_64", "for", "mkdir", "cp", "printf",
             "echo", "grep", "test", "ls", "sed"}
ASSIGN = re.compile(r"^[A-Z_][A-Z0-9_]*=")
MARKER = re.compile(r"^<!--\s*doc-test:(.*?)-->\s*$")
SKIP_KINDS = {"hardware": "lab hardware", "long": "long (many boots, kernel builds, benchmarks)",
              "reference": "reference (a command bootmark runs itself)",
              "missing": "a package this host lacks"}
TIMEOUT = 900


def die(msg):
    print("docs-check: " + msg, file=sys.stderr)
    sys.exit(1)


# --- Markdown ----------------------------------------------------------------------------
class Block:
    def __init__(self, path, line, lines, markers):
        self.path, self.line, self.lines, self.markers = path, line, lines, markers
        self.directives = parse_markers(markers, "%s:%d" % (path, line))

    def where(self, n=0):
        return "%s:%d" % (self.path, self.line + n)


def parse_markers(markers, where):
    """`skip [PREFIX] KIND: WHY`, `sub "A" => "B"[: WHY]`, `exit N`, `keys N,M`,
    `output of "CMD"`, `synopsis [exact]`; separated by ';;'."""
    d = {"skip": [], "sub": [], "exit": 0, "keys": [], "output_of": None, "synopsis": None,
         "needs": []}
    for m in markers:
        for part in [p.strip() for p in m.split(";;") if p.strip()]:
            g = re.match(r'^skip(?:\s+"([^"]+)")?\s+(\w+):\s*(.+)$', part)
            if g:
                if g.group(2) not in SKIP_KINDS:
                    die("%s: unknown skip kind %r" % (where, g.group(2)))
                d["skip"].append((g.group(1), g.group(2), g.group(3).strip()))
                continue
            g = re.match(r'^sub\s+"([^"]*)"\s*=>\s*"([^"]*)"(?::\s*(.+))?$', part)
            if g:
                d["sub"].append((g.group(1), g.group(2)))
                continue
            g = re.match(r'^needs\s+"([^"]+)"$', part)
            if g:
                d["needs"].append(g.group(1))
                continue
            g = re.match(r"^exit\s+(\d+)$", part)
            if g:
                d["exit"] = int(g.group(1))
                continue
            g = re.match(r"^keys\s+([\d,\s]+)$", part)
            if g:
                d["keys"] = [int(x) for x in re.split(r"[,\s]+", g.group(1).strip())]
                continue
            g = re.match(r'^output of\s+"([^"]+)"$', part)
            if g:
                d["output_of"] = g.group(1)
                continue
            g = re.match(r"^synopsis(\s+exact)?$", part)
            if g:
                d["synopsis"] = "exact" if g.group(1) else "options"
                continue
            die("%s: cannot read marker directive %r (docs/doc-tests.md)" % (where, part))
    return d


def read_markdown(path):
    """Code blocks (fenced, or indented by 4 after a blank line) with the marker
    lines right before them, and the prose paragraphs (for code spans)."""
    text = open(path, encoding="utf-8").read().split("\n")
    blocks, paras, para, markers = [], [], [], []
    i, prev_blank = 0, True
    while i < len(text):
        line = text[i]
        if re.match(r"^\s*(```|~~~)", line):
            fence = line.strip()[:3]
            start, body = i + 1, []
            i += 1
            while i < len(text) and not text[i].strip().startswith(fence):
                body.append(text[i])
                i += 1
            blocks.append(Block(path, start + 1, body, markers))
            markers, prev_blank = [], False
            i += 1
            continue
        if prev_blank and line.startswith("    ") and line.strip():
            start, body = i, []
            while i < len(text) and (text[i].startswith("    ") or not text[i].strip()):
                body.append(text[i])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            ind = min(len(l) - len(l.lstrip()) for l in body if l.strip())
            blocks.append(Block(path, start + 1, [l[ind:] for l in body], markers))
            markers, prev_blank = [], True
            continue
        m = MARKER.match(line.strip())
        if m:
            markers.append(m.group(1).strip())
        elif line.strip():
            para.append(line)
            if markers and not MARKER.match(line.strip()):
                markers = []
        else:
            if para:
                paras.append((i - len(para) + 1, " ".join(para)))
            para = []
        prev_blank = not line.strip()
        i += 1
    if para:
        paras.append((len(text) - len(para) + 1, " ".join(para)))
    return blocks, paras


def first_word(line):
    words = line.split()
    while words and ASSIGN.match(words[0]):
        words = words[1:]
    if not words:
        return ""
    w = words[0]
    return w[len("build/"):] if w.startswith("build/") else w


def is_command(line):
    line = line[2:] if line.startswith("$ ") else line
    return first_word(line) in CMD_WORDS


def split_commands(block):
    """[(line offset, command text, [(offset, output line)])]: continuation lines
    (a trailing backslash, the body of for/while/if), comments dropped."""
    cmds, i, lines = [], 0, block.lines
    while i < len(lines):
        raw = lines[i]
        line = raw[2:] if raw.startswith("$ ") else raw
        if not line.strip() or line.strip().startswith("#"):
            i += 1
            continue
        if not is_command(line):
            if not cmds:
                return None
            cmds[-1][2].append((i, raw))
            i += 1
            continue
        start, text = i, [line]
        compound = first_word(line) in ("for", "while", "if")
        while i + 1 < len(lines) and (text[-1].rstrip().endswith("\\") or compound):
            i += 1
            text.append(lines[i])
            if compound and re.match(r"^\s*(done|fi)\b", lines[i]):
                compound = False
        cmds.append((start, "\n".join(text), []))
        i += 1
    return cmds


# --- what the build says: commands, their forms and options ---------------------------------
def run_out(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def help_forms(text):
    """The forms of a usage text: up to the first blank line, one per 'usage:' or
    'bootmark'/'git' at the start of a line, whitespace collapsed."""
    forms = []
    for line in text.split("\n"):
        if not line.strip():
            break
        s = line.strip()
        if line.startswith("usage: ") or (line.startswith("       ") and
                                          re.match(r"^(bootmark|git) ", s)):
            forms.append(s[len("usage: "):] if s.startswith("usage: ") else s)
        elif forms:
            forms[-1] += " " + s
    return [" ".join(f.split()) for f in forms]


class Cli:
    def __init__(self, bm):
        self.bm = bm
        rc, top = run_out([bm, "--help"])
        if rc:
            die("%s --help exits %d" % (bm, rc))
        self.forms = {"": help_forms(top)}
        self.screens = {"bootmark --help": top}
        self.commands = [l.split()[0] for l in top.split("\n")
                         if re.match(r"^  [a-z]", l)]
        self.options = {}
        for c in self.commands:
            rc, text = run_out([bm, c, "--help"])
            if rc:
                die("%s %s --help exits %d" % (bm, c, rc))
            self.forms[c] = help_forms(text)
            self.screens["bootmark %s --help" % c] = text
            opts = set(re.findall(r"^\s+--([a-z0-9-]+)\s", text, re.M))
            for f in self.forms[c]:
                opts |= set(re.findall(r"--([a-z0-9][a-z0-9-]*)", f))
            self.options[c] = opts | {"help"}
        runner = os.path.join(os.path.dirname(bm), "bootmark-runner")
        rc, text = run_out([runner, "--help"])
        self.runner_help = text if rc == 0 else ""
        self.screens["bootmark-runner --help"] = self.runner_help
        self.targets = make_targets()


def make_targets():
    names = set()
    for line in open(os.path.join(REPO, "Makefile"), encoding="utf-8"):
        m = re.match(r"^([^\s:=#][^:=#]*?)\s*:(?![=])", line)
        if m:
            for t in m.group(1).split():
                names.add(t.replace("$(O)/", "build/"))
    return names


HELP_COLS = 100

OUR_TARGET = re.compile(r"^(check|bench|fuzz$|run$|all$|deps$|clean$|build/)")


MENTION = re.compile(r"(?:^|(?<=[\s`(]))(?:build/)?(bootmark-runner|bootmark [a-z][a-z-]*|make)(?=\s|$)")


def check_options(cli, text, where, errors):
    """Every --opt after `bootmark CMD` (up to the next command named) is an
    option of CMD, every --opt after bootmark-runner one it lists; every target
    of `make` that is one of ours (check*, bench*, build/...) is in the Makefile."""
    n = 0
    text = text.split(" #")[0] if "\n" not in text else text
    found = list(MENTION.finditer(text))
    for i, m in enumerate(found):
        rest = text[m.end():found[i + 1].start() if i + 1 < len(found) else len(text)]
        rest = re.split(r"\s#", rest)[0]
        words = rest.split()
        what = m.group(1)
        if what == "make":
            for tok in words:
                if ASSIGN.match(tok) or tok.startswith("-") or not OUR_TARGET.match(tok):
                    continue
                n += 1
                if tok not in cli.targets:
                    errors.append("%s: the Makefile has no target %s" % (where, tok))
            continue
        for tok in words:
            if tok.lstrip("[(|") == "--":
                break  # what follows a bare -- is another command's (history bisect's)
            g = re.match(r"^[\[(|]*--([a-z0-9][a-z0-9-]*)", tok)
            if not g:
                continue
            n += 1
            name = g.group(1)
            if what == "bootmark-runner":
                if "--" + name not in cli.runner_help:
                    errors.append("%s: bootmark-runner has no option --%s" % (where, name))
                continue
            cmd = what.split()[1]
            if cmd not in cli.options:
                continue
            if cmd == "kernel":
                # each kernel command has options of its own: those of its form
                sub = words[0] if words and not words[0].startswith("-") else ""
                own = {o for f in cli.forms["kernel"] if f.split()[2:3] == [sub]
                       for o in re.findall(r"--([a-z0-9][a-z0-9-]*)", f)}
                if sub == "build":
                    own |= cli.options["kernel"]
                if name not in own | {"help"}:
                    errors.append("%s: bootmark kernel %s takes no --%s" % (where, sub, name))
            elif name not in cli.options[cmd]:
                errors.append("%s: bootmark %s has no option --%s" % (where, cmd, name))
    return n


def check_synopsis(cli, block, errors):
    """Every form of the block equals a form some --help prints; with `exact`,
    every command's forms are in the block."""
    forms, all_forms = [], {f: c for c, fs in cli.forms.items() for f in fs}
    for line in block.lines:
        if re.match(r"^(bootmark|git|build/bootmark)", line):
            forms.append(line.strip())
        elif forms and line.strip():
            forms[-1] += " " + line.strip()
    forms = [" ".join(f.split()) for f in forms]
    for f in forms:
        if block.directives["synopsis"] == "exact" and f not in all_forms:
            errors.append("%s: synopsis %r is not what --help prints" % (block.where(), f[:70]))
    if block.directives["synopsis"] == "exact":
        for f, c in all_forms.items():
            if f not in forms:
                errors.append("%s: the synopsis lacks bootmark %s's form: %s"
                              % (block.where(), c or "--help", f))
    return len(forms)


# --- running the examples ----------------------------------------------------------------
class Runner:
    def __init__(self, cli, scratch, out_dir):
        self.cli, self.d, self.o = cli, scratch, out_dir
        self.cache = os.environ.get("BOOTMARK_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "bootmark")
        self.env = dict(os.environ)
        self.env["PATH"] = out_dir + ":" + self.env.get("PATH", "/usr/bin:/bin")
        # the examples are not parts of this make check: their own make check-*
        # must not count in its summary
        for k in ("DOCS_KEEP", "CHECK_LOG"):
            self.env.pop(k, None)
        self.ran = self.passed = 0
        self.failed, self.skipped = [], []
        self.n = 0

    def execute(self, real, cwd):
        """Runs one example: its exit code (or "timeout") and output."""
        try:
            p = subprocess.run(["sh", "-c", real], cwd=cwd, env=self.env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=TIMEOUT, stdin=subprocess.DEVNULL)
            return p.returncode, p.stdout
        except subprocess.TimeoutExpired as e:
            return "timeout", (e.stdout or b"").decode(errors="replace") \
                if isinstance(e.stdout, bytes) else (e.stdout or "")

    def int3(self, cwd, t0, real):
        """A `bootmark run` whose boot since t0 died of an Oops: int3; its --out
        is cleared for the second run."""
        if not re.search(r"\bbootmark\b.*\brun\b", real):
            return False
        hit = False
        for root, _dirs, names in os.walk(self.d):
            if "console.log" in names:
                path = os.path.join(root, "console.log")
                try:
                    if os.path.getmtime(path) >= t0:
                        with open(path, errors="replace") as f:
                            hit = hit or "Oops: int3" in f.read()
                except OSError:
                    pass
        m = re.search(r"--out\s+(\S+)", real)
        if hit and m:
            out = os.path.realpath(os.path.join(cwd, m.group(1)))
            if out.startswith(os.path.realpath(self.d) + os.sep):
                shutil.rmtree(out, ignore_errors=True)
        return hit

    def place(self, text, block):
        """The placeholders (docs/doc-tests.md) filled in."""
        for a, b in block.directives["sub"]:
            text = text.replace(a, b)
        text = re.sub(r"(?<![\w.~/-])(/tmp|/var/tmp|/srv|/mnt)(?=/|\s|$|['\"])",
                      lambda m: self.d + m.group(1), text)
        text = re.sub(r"(?<![\w/])~/\.cache/bootmark|/root/\.cache/bootmark", self.cache, text)
        text = re.sub(r"(?<![\w/.-])build/", self.o + "/", text)
        text = re.sub(r"(?<![\w/.-])configs(?=/|\s|$)", REPO + "/configs", text)
        text = re.sub(r"(?<![\w-])URL(?![\w])", "http://files.example/bm/image", text)
        text = re.sub(r"^make\b", "make -C " + REPO, text, flags=re.M)
        if "<run id>" in text:
            text = text.replace("<run id>", self.current_run(text))
        return text

    def current_run(self, cmd):
        out = re.search(r"--out\s+(\S+)", cmd)
        mac = re.search(r"--mac\s+(\S+)", cmd)
        if not out or not mac:
            return "none"
        q = os.path.join(out.group(1), "bootmark", "queue-" + mac.group(1).replace(":", "-"))
        try:
            for line in open(q, encoding="utf-8"):
                if line.startswith("current "):
                    return line.split()[2]
        except OSError:
            pass
        return "none"

    def prepare(self, cmd):
        """Parents of the scratch paths exist; a --host folder and a path ending
        in / exist themselves (the doc's reader has them)."""
        for m in re.finditer(re.escape(self.d) + r"/[^\s'\"]*", cmd):
            p = m.group(0)
            os.makedirs(p if p.endswith("/") else os.path.dirname(p), exist_ok=True)
        for m in re.finditer(r"--host\s+(\S+)", cmd):
            os.makedirs(m.group(1), exist_ok=True)

    def skip_of(self, block, cmd):
        for need in block.directives["needs"]:
            if not os.path.exists(need):
                return "missing", "no %s (sh host/install-deps.sh names its package)" % need
        norm = re.sub(r"^build/", "", cmd.lstrip())
        for prefix, kind, why in block.directives["skip"]:
            if prefix is None or norm.startswith(prefix):
                return kind, why
        return None

    def run(self, block, off, cmd, outputs, cwd):
        self.n += 1
        where = block.where(off)
        short = " ".join(cmd.replace("\\\n", " ").split())
        skip = self.skip_of(block, cmd)
        if skip:
            self.skipped.append((where, short, skip))
            print("skip %d - %s %s: %s: %s" % (self.n, where, short[:60], skip[0], skip[1]))
            return
        if re.match(r"^\s*make\b[^\n]*\brun\b", cmd) and \
           os.path.realpath(self.o) != os.path.realpath(os.path.join(REPO, "build")):
            self.skipped.append((where, short, ("long", "host/make-run.sh runs build/, O= is "
                                                 "elsewhere")))
            print("skip %d - %s %s: O is not build/" % (self.n, where, short[:60]))
            return
        real = self.place(cmd, block)
        self.prepare(real)
        os.makedirs(cwd, exist_ok=True)
        log = os.path.join(self.d, "log", "%03d.log" % self.n)
        t0 = time.time()
        rc, out = self.execute(real, cwd)
        if rc != block.directives["exit"] and self.int3(cwd, t0, real):
            # under TCG a 6.12 kernel now and then takes an Oops: int3 while it
            # patches its own code, whatever the initrd (docs/cli.md, bench-boot):
            # that boot says nothing of the example, which is booted once more
            again = "# booted once more: a kernel's Oops: int3 under TCG (docs/cli.md)\n"
            rc, out = self.execute(real, cwd)
            out = again + out
            print(again.rstrip())
        secs = time.time() - t0
        with open(log, "w", encoding="utf-8") as f:
            f.write("$ %s\n%s" % (real, out))
        problems = []
        if rc != block.directives["exit"]:
            problems.append("exit %s, not %d" % (rc, block.directives["exit"]))
        keys = [l for o, l in outputs if o + 1 in block.directives["keys"]] \
            if not block.directives["output_of"] else \
            [block.lines[k - 1] for k in block.directives["keys"]]
        if outputs and not block.directives["keys"]:
            problems.append("the block shows output but its marker names no key lines")
        have = [" ".join(l.split()) for l in out.split("\n")]
        for k in keys:
            want = " ".join(self.place(k[2:] if k.startswith("$ ") else k, block).split())
            if not any(want in h for h in have):
                problems.append("no output line holds %r" % want)
        self.ran += 1
        if problems:
            self.failed.append((where, short, problems, log))
            print("not ok %d - %s %s (%.1f s): %s" % (self.n, where, short[:60], secs,
                                                      "; ".join(problems)))
            for line in out.rstrip().split("\n")[-15:]:
                print("#   " + line)
        else:
            self.passed += 1
            print("ok %d - %s %s (%.1f s)" % (self.n, where, short[:70], secs))


def main():
    args = sys.argv[1:]
    listing = "--list" in args
    files = [a for a in args if a != "--list"] or \
        [os.path.join(REPO, "README.md")] + sorted(glob.glob(os.path.join(REPO, "docs", "*.md")))
    bm = os.path.abspath(os.environ.get("BM") or os.path.join(REPO, "build", "bootmark"))
    out_dir = os.path.abspath(os.environ.get("O") or os.path.dirname(bm))
    if not os.access(bm, os.X_OK):
        print("# SKIP no %s (make first)" % bm)
        sys.exit(77)
    cli = Cli(bm)
    errors, spans, forms, other = [], 0, 0, 0
    scratch = "/nonexistent" if listing else \
        tempfile.mkdtemp(prefix="bootmark-docs.", dir=os.environ.get("TMPDIR", "/tmp"))
    if not listing:
        os.makedirs(os.path.join(scratch, "log"))
    # every help screen fits HELP_COLS columns (common/opts.h BM_HELP_COLS)
    for name, text in sorted(cli.screens.items()):
        wide = [l for l in text.split("\n") if len(l) > HELP_COLS]
        if wide:
            errors.append("%s: %d lines wider than %d columns, the first %d: %s"
                          % (name, len(wide), HELP_COLS, len(wide[0]), wide[0][:60]))
    runner = Runner(cli, scratch, out_dir)
    t0 = time.time()
    for path in files:
        rel = os.path.relpath(path, REPO)
        blocks, paras = read_markdown(path)
        cwd = os.path.join(scratch, "cwd", os.path.splitext(os.path.basename(path))[0])
        for line, text in paras:
            for m in re.finditer(r"`([^`]+)`", text):
                spans += check_options(cli, m.group(1), "%s:%d" % (rel, line), errors)
        for b in blocks:
            b.path = rel
            d = b.directives
            if d["synopsis"]:
                forms += check_synopsis(cli, b, errors)
                spans += check_options(cli, "\n".join(b.lines), b.where(), errors)
                continue
            if d["output_of"]:
                if listing:
                    print("%s: output of %s" % (b.where(), d["output_of"]))
                else:
                    runner.run(b, 0, d["output_of"], [], cwd)
                continue
            cmds = split_commands(b) if b.lines and is_command(
                next((l for l in b.lines if l.strip() and not l.strip().startswith("#")), "")) \
                else None
            if not cmds:
                other += 1
                if d["skip"] or d["sub"] or d["keys"]:
                    errors.append("%s: a marker on a block that holds no command" % b.where())
                continue
            for off, cmd, outputs in cmds:
                spans += check_options(cli, cmd.replace("\\\n", " "), b.where(off), errors)
                if listing:
                    print("%s: %s" % (b.where(off), " ".join(cmd.split())[:100]))
                else:
                    runner.run(b, off, cmd, outputs, cwd)
    secs = time.time() - t0
    for e in errors:
        print("not ok - " + e)
    kinds = {}
    for _, _, (kind, _) in runner.skipped:
        kinds[kind] = kinds.get(kind, 0) + 1
    why = ", ".join("%d %s" % (n, SKIP_KINDS[k]) for k, n in sorted(kinds.items()))
    print("docs: %d examples ran, %d passed, %d failed; %d marked not runnable here%s; "
          "%d synopsis forms and %d options and targets in code checked, %d other errors; "
          "%d blocks of output or formats; %.0f s"
          % (runner.ran, runner.passed, len(runner.failed), len(runner.skipped),
             " (" + why + ")" if why else "", forms, spans, len(errors), other, secs))
    print("# SUMMARY %d doc examples ran, %d passed, %d failed; %d marked not runnable here%s%s"
          % (runner.ran, runner.passed, len(runner.failed), len(runner.skipped),
             ": " + why if why else "",
             "; %d errors in synopses, options or targets" % len(errors) if errors else ""))
    ok = not runner.failed and not errors
    if listing:
        pass
    elif ok and not os.environ.get("DOCS_KEEP"):
        shutil.rmtree(scratch, ignore_errors=True)
    else:
        print("docs-check: the examples' folders and logs are in %s" % scratch)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
