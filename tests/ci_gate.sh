#!/bin/sh
# The CI job files of docs/ci/ proved by the real tools (docs/ci.md):
#
# 1. The GitHub workflow (docs/ci/github-workflow.yml) is valid for
#    @action-validator/cli, which also rejects a broken copy of it; every run: step
#    of the workflow and the GitLab job's script run docs/ci/bootmark-ci.sh.
# 2. The GitLab job (docs/ci/gitlab-ci.yml, copied as .gitlab-ci.yml into a git
#    repository holding this tree) runs under gitlab-ci-local 4.60.0 (the last
#    version for Node 20; --shell-isolation --force-shell-executor, as no container
#    engine is here), twice, on a Debian kernel with the bisect suite, --icount 1
#    --disk-cache unsafe, --cpu max (tests/slowdown.sh: the slowdown as large as
#    there) and --repeat auto capped at 3 boots per kernel:
#    a. A/A: init_on_alloc=0 against itself: the job must pass (exit 0), and leave
#       the run, compare.txt/json, report.html, junit.xml (xmllint) and tap.txt
#       (prove) in its artifact folder;
#    b. the bisect test's slowdown: init_on_alloc=1 against job a's artifact folder
#       (--baseline-results, 3 boots of the candidate only): the job must fail with
#       the gate's 30, and name dd64r's real as the headline regression.
#    Virtual time keeps dd64r's CoV near 1% on a quiet host, but a loaded host can
#    still delay I/O in one boot (tests/compare_verdict.sh): when a verdict is not the
#    expected one and dd64r's CoV is above 5% on a side, both jobs run once more.
# The repository copy carries this tree's build/ (committed, mtimes kept) so that
# the job's make finds it up to date: building bootmark twice would add 4 minutes.
# The npm tools are installed once into <cache>/ci-tools.  No npm registry, node,
# rsync or QEMU: skip, saying which.
# Exit: 0 pass, 1 fail, 77 skip.
set -u
bin=${BM:-build/bootmark}
. "$(dirname "$0")/slowdown.sh"
kernel=${BM_CI_KERNEL:-deb:6.1.0-53-amd64}
py=${BM_PYTHON:-/usr/bin/python3}
root=$(pwd)
cache=${BOOTMARK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootmark}
tools=${BM_CI_TOOLS:-$cache/ci-tools}
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
skip() { echo "1..0 # SKIP $*"; exit 77; }

for t in node npm rsync git xmllint prove qemu-system-x86_64; do
	command -v $t >/dev/null || skip "no $t (sh host/install-deps.sh ci installs it)"
done
[ -x "$py" ] || skip "no $py"
out=$(mktemp -d)
t0=$(date +%s)

# the tools, once
glcl=$tools/node_modules/.bin/gitlab-ci-local
av=$tools/node_modules/.bin/action-validator
if [ ! -x "$glcl" ] || [ ! -x "$av" ]; then
	mkdir -p "$tools"
	echo "# installing gitlab-ci-local 4.60.0 and @action-validator/cli 0.6.0 into $tools"
	if ! npm install --prefix "$tools" --no-audit --no-fund --loglevel=error \
		gitlab-ci-local@4.60.0 @action-validator/cli@0.6.0 @action-validator/core@0.6.0 \
		>"$out/npm.log" 2>&1; then
		why=$(grep -m1 -iE 'ERR!.*(code|network|ENOTFOUND|ETIMEDOUT|EAI_AGAIN)' "$out/npm.log")
		rm -rf "$out"
		skip "npm cannot install the tools: ${why:-see npm's log} (no registry here?)"
	fi
fi
"$glcl" --version >/dev/null 2>&1 || skip "gitlab-ci-local does not start on $(node --version)"
$bin kernel fetch "$kernel" >"$out/fetch.log" 2>&1 || { cat "$out/fetch.log"; skip "cannot fetch $kernel"; }

# 1 -------------------------------------------------------------------------
wf=docs/ci/github-workflow.yml
"$av" "$wf" >"$out/av.log" 2>&1
check "action-validator accepts $wf" "[ $? -eq 0 ]"
sed 's/^    runs-on: ubuntu-latest$/    runs-on: ubuntu-latest\n    frobnicate: 3/' "$wf" >"$out/broken.yml"
"$av" "$out/broken.yml" >"$out/av-broken.log" 2>&1
check "...and rejects a copy with a key jobs do not have" \
	"[ $? -ne 0 ] && grep -q frobnicate $out/av-broken.log"
same=$("$py" - "$wf" docs/ci/gitlab-ci.yml <<'EOF'
import sys, yaml
wf, gl = (yaml.safe_load(open(f)) for f in sys.argv[1:3])
runs = [s["run"] for j in wf["jobs"].values() for s in j["steps"] if "run" in s]
script = gl["bootmark"]["script"]
ok = runs and all("docs/ci/bootmark-ci.sh" in r for r in runs) and \
    all("docs/ci/bootmark-ci.sh" in s for s in script)
print("ok" if ok else "runs=%r script=%r" % (runs, script))
EOF
)
check "every run: step and the GitLab script run docs/ci/bootmark-ci.sh ($same)" "[ '$same' = ok ]"

# 2 -------------------------------------------------------------------------
proj=$out/project
mkdir -p "$proj"
git ls-files -co --exclude-standard -z | (cd "$root" && xargs -0 cp -p --parents -t "$proj")
rsync -a --exclude asan --exclude clang --exclude fuzz --exclude distro --exclude check.log \
	build/ "$proj/build/"
cp docs/ci/gitlab-ci.yml "$proj/.gitlab-ci.yml"
: >"$proj/.gitignore"   # build/ goes in: gitlab-ci-local copies what git tracks
(
	cd "$proj" && git init -q && git add -A &&
		git -c user.email=ci@bootmark.invalid -c user.name=bootmark commit -qm tree
) || { notok "a git repository of the tree"; exit 1; }

# job NAME VAR=VALUE...: the GitLab job once; its log, artifact folder and rc
job() {
	name=$1
	shift
	set -- --variable BOOTMARK_DIR=. --variable BOOTMARK_SRC= --variable BOOTMARK_BASELINE_REV= \
		--variable BOOTMARK_SUITE=bisect --variable BOOTMARK_FS=ext4 \
		--variable "BOOTMARK_CACHE=$cache" \
		--variable "BOOTMARK_ARGS=$slowdown_qopts --repeat-max 3" "$@"
	j0=$(date +%s)
	(cd "$proj" && rm -rf .gitlab-ci-local/builds/bootmark/bootmark-ci &&
		"$glcl" --shell-isolation --force-shell-executor --no-color "$@" bootmark) \
		>"$out/$name.log" 2>&1
	echo $? >"$out/$name.rc"
	rm -rf "$out/$name"
	cp -a "$proj/.gitlab-ci-local/builds/bootmark/bootmark-ci" "$out/$name" 2>/dev/null
	echo "# job $name: $(($(date +%s) - j0)) s, gitlab-ci-local exit $(cat "$out/$name.rc");" \
		"$(grep -c '^bootmark > *[a-z]*	' "$out/$name.log") files compiled by its make," \
		"$(grep -c 'apt-get download\|fetching' "$out/$name.log") kernel download(s)"
	grep -E 'bootmark-ci: exit|gate \(|PASS|FAIL' "$out/$name.log" | head -n 6 | sed 's/^/#   /'
}
jexit() { "$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["exit"])' "$1/ci.json" 2>/dev/null; }
dd64r_cov() {
	"$py" -c 'import json, sys
c = [r["cov_pct"] for r in json.load(open(sys.argv[1]))["rows"] if r["variant"] == "dd64r" and r["metric"] == "real"]
print(int(max(c)) if c and None not in c else 999)' "$1/compare.json" 2>/dev/null || echo 999
}

pair() {
	job aa --variable "BOOTMARK_KERNEL=$kernel init_on_alloc=0" \
		--variable "BOOTMARK_BASELINE=$kernel init_on_alloc=0"
	job slow --variable "BOOTMARK_KERNEL=$kernel init_on_alloc=1" \
		--variable "BOOTMARK_BASELINE_RESULTS=$out/aa"
}
pair
# job b's baseline is job a's candidate: a disturbed sample on either side is a
# disturbed comparison, so both jobs run again
if { [ "$(jexit "$out/aa")" != 0 ] || [ "$(jexit "$out/slow")" != 30 ]; } &&
	{ [ "$(dd64r_cov "$out/aa")" -gt 5 ] || [ "$(dd64r_cov "$out/slow")" -gt 5 ]; }; then
	echo "# dd64r real CoV $(dd64r_cov "$out/aa")% (A/A), $(dd64r_cov "$out/slow")% (slowdown):" \
		"the host moved the virtual clock; both jobs once more"
	pair
fi
check "A/A: the GitLab job passes (gitlab-ci-local exit $(cat "$out/aa.rc"))" \
	"[ $(cat "$out/aa.rc") -eq 0 ] && grep -q 'bootmark-ci: exit 0' $out/aa.log"
check "A/A: ci.json says exit 0, the gate passed" "[ '$(jexit "$out/aa")' = 0 ]"
for f in run compare.txt compare.json report.html junit.xml tap.txt kcidb.json ci.json; do
	[ -e "$out/aa/$f" ] || missing="${missing:-} $f"
done
check "A/A: the artifact folder holds run/, compare.txt/json, report.html, JUnit, TAP, KCIDB, ci.json${missing:+ (missing:$missing)}" \
	"[ -z '${missing:-}' ]"
check "A/A: kcidb.json is a KCIDB v5 document of run/'s boots (tests/kcidb_check.py)" \
	"$py tests/kcidb_check.py $out/aa/kcidb.json $out/aa/run >$out/aa.kcidb 2>&1"
check "A/A: 3 boots of each kernel (--repeat auto, at most 3)" \
	"[ \$(ls -d $out/aa/run/*.b* | wc -l) -eq 6 ]"
check "A/A: junit.xml is well-formed XML with the gate as a test case" \
	"xmllint --noout $out/aa/junit.xml && grep -q '<testsuite name=\"gate\"' $out/aa/junit.xml"
check "A/A: tap.txt passes prove" "prove -e cat $out/aa/tap.txt >$out/aa.prove 2>&1"

check "slowdown: the GitLab job fails (gitlab-ci-local exit $(cat "$out/slow.rc"))" \
	"[ $(cat "$out/slow.rc") -ne 0 ]"
check "slowdown: with the gate's code 30 (job log and ci.json: $(jexit "$out/slow"))" \
	"grep -q 'bootmark-ci: exit 30' $out/slow.log && [ '$(jexit "$out/slow")' = 30 ]"
check "slowdown: the gate names dd64r's headline real as the regression" \
	"grep -q '^  dd64r real EXT4 .* regression\$' $out/slow/compare.txt"
check "slowdown: the baseline is the earlier job's 3 candidate boots, copied" \
	"[ \$(ls -d $out/slow/baseline/baseline.b* | wc -l) -eq 3 ] && [ \$(ls -d $out/slow/run/*.b* | wc -l) -eq 3 ]"
check "slowdown: JUnit's gate case fails, TAP's last test is not ok" \
	"grep -q '<failure type=\"gate\"' $out/slow/junit.xml && grep -E '^(not )?ok ' $out/slow/tap.txt | tail -n 1 | grep -q '^not ok .* - gate: '"

echo "# ci_gate: $(($(date +%s) - t0)) s"
echo "1..$((pass + fail))"
if [ "$fail" -eq 0 ]; then rm -rf "$out"; else echo "# kept $out"; fi
echo "ci_gate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
