#!/bin/sh
# SPDX-License-Identifier: MIT
# The one script both CI jobs run (docs/ci/gitlab-ci.yml, docs/ci/github-workflow.yml;
# docs/ci.md): installs what bootmark needs on a Debian 12 container, builds bootmark,
# and runs "bootmark ci" with the settings below.  Its exit code is the job's:
# 0 pass, 30 a headline regression, 10..22 a boot that did not complete, 1 a kernel
# that does not build, 100 bad settings, 111 the machine failed (docs/exit-codes.md).
# "bootmark-ci.sh deps" only installs the packages (git among them), for a job that
# needs git before it checks out the kernel tree (GitHub's checkout in a container).
#
# Settings (environment; a CI variable each):
#   BOOTMARK_KERNEL            the candidate as a kernel spec ...
#   BOOTMARK_SRC               ... or a kernel tree to build (default: none)
#   BOOTMARK_BASELINE          the baseline as a kernel spec ...
#   BOOTMARK_BASELINE_REV      ... or a git revision of BOOTMARK_SRC ...
#   BOOTMARK_BASELINE_RESULTS  ... or the folder of an earlier job (its artifact)
#   BOOTMARK_SUITE (smoke), BOOTMARK_FS (ext4), BOOTMARK_FAIL_ON (regression)
#   BOOTMARK_OUT               the job's folder, uploaded as an artifact (bootmark-ci)
#   BOOTMARK_CACHE             kernels, builds, revisions: cached between jobs
#                              (.bootmark-cache)
#   BOOTMARK_ARGS              more options of bootmark ci, e.g. "--icount 1"
# The bootmark checkout is the folder two levels above this script.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${BOOTMARK_OUT:-bootmark-ci}
BOOTMARK_CACHE=${BOOTMARK_CACHE:-.bootmark-cache}
case $BOOTMARK_CACHE in /*) ;; *) BOOTMARK_CACHE=$(pwd)/$BOOTMARK_CACHE ;; esac
export BOOTMARK_CACHE

say() { echo "bootmark-ci: $*"; }

# A container job runs as root; elsewhere install-deps only says what is missing.
sh "$here/host/install-deps.sh"
[ "${1:-}" = deps ] && exit 0
make -C "$here" -j"$(nproc)"
mkdir -p "$BOOTMARK_CACHE"

if [ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	say "/dev/kvm is here: --accel auto probes it and falls back to TCG if it does not work"
else
	say "no usable /dev/kvm: TCG (slower; timings in virtual time need --icount)"
fi

set -- --out "$out" --suite "${BOOTMARK_SUITE:-smoke}" --fs "${BOOTMARK_FS:-ext4}" \
	--fail-on "${BOOTMARK_FAIL_ON:-regression}"
if [ -n "${BOOTMARK_KERNEL:-}" ]; then set -- "$@" --kernel "$BOOTMARK_KERNEL"; fi
if [ -n "${BOOTMARK_SRC:-}" ]; then set -- "$@" --src "$BOOTMARK_SRC"; fi
if [ -n "${BOOTMARK_BASELINE:-}" ]; then set -- "$@" --baseline "$BOOTMARK_BASELINE"; fi
if [ -n "${BOOTMARK_BASELINE_REV:-}" ]; then set -- "$@" --baseline-rev "$BOOTMARK_BASELINE_REV"; fi
if [ -n "${BOOTMARK_BASELINE_RESULTS:-}" ]; then
	set -- "$@" --baseline-results "$BOOTMARK_BASELINE_RESULTS"
fi
# shellcheck disable=SC2086 # BOOTMARK_ARGS is a list of options
set -- "$@" ${BOOTMARK_ARGS:-}

say "bootmark ci $*"
rc=0
"$here/build/bootmark" ci "$@" || rc=$?
say "exit $rc"
exit "$rc"
