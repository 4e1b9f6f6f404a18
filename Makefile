# bootmark: one non-recursive Makefile.
#
#   make            build/bootmark-runner (static musl), build/bootmark (host CLI),
#                   build/bm-mkinitramfs, the base image build/base.cpio.{xz,zst}, the
#                   tool archives build/tools/*.cpio.{xz,zst} and build/base.manifest
#   make arm64      the same for arm64 under build/arm64/ (cross-built runner, image from
#                   Debian 12's arm64 packages; docs/arm64.md): not part of make
#   make run        install what is missing, fetch the default kernel, boot it in
#                   QEMU, run the smoke suite on ext4 and xfs, print the table
#   make check      unit tests (gcc, clang, ASan+UBSan), the HTML report in Chromium and the QEMU end-to-end test
#   make check-distro DIST=trixie   install, build and boot in a minbase chroot of another release
#   make history-accuracy   the change-point search's precision and recall (docs/history.md)
#   make bench      every performance figure in one table (docs/performance.md; its
#                   arm64 rows need make arm64 first)
#   make fuzz       libFuzzer on the parsers, FUZZ_SECONDS (60) each (docs/fuzzing.md)
#
# V=1 shows the commands.  CC and CLANG may be overridden.

CC       ?= gcc
CLANG    ?= clang
MUSL_CC  ?= musl-gcc
O        ?= build

KERNEL   ?= deb:6.1.0-53-amd64
SUITE    ?= smoke
FS       ?= ext4,xfs
OUT      ?=

# The layers (docs/architecture.md): each folder's sources see only the headers of the
# folders below it, so an upward include is a compile error, not a review comment.
# The runner is grouped by concern (runner/init, modules, disk, engine, hostmode) and
# one folder per workload (runner/workloads/<name>/).  A workload's descriptions
# (desc_*.c: options, tests, metrics; report_*.c: its table) and the descriptor
# registry (runner/workloads/desc_registry.c) see only their own folder and common/:
# they are linked into the host too, which never sees a runner header.
RUNNER_DIRS   := runner/init runner/modules runner/disk runner/engine runner/hostmode
WL_DIRS       := $(patsubst %/,%,$(sort $(dir $(wildcard runner/workloads/*/*.c))))
INC_common    := common
INC_runner    := $(RUNNER_DIRS) runner/workloads common
INC_initramfs := initramfs common
INC_kernels   := kernels common
INC_qemu      := qemu kernels common
INC_host      := host qemu kernels initramfs common
INC_tests     := tests host qemu kernels initramfs $(RUNNER_DIRS) runner/workloads $(WL_DIRS) common
# A description file: its own folder and common/.  A workload's engine file: its own
# folder, then the runner's.  Anything else: its top folder's list above.
is_desc   = $(and $(filter runner/workloads/%,$(1)),$(filter desc_%.c report_%.c,$(notdir $(1))))
layer_dirs = $(if $(call is_desc,$(1)),$(patsubst %/,%,$(dir $(1))) common,\
	$(if $(filter runner/workloads/%/,$(dir $(1))),$(patsubst %/,%,$(dir $(1))) $(INC_runner),\
	$(INC_$(firstword $(subst /, ,$(1))))))
# host/ is grouped by concern, one folder each (docs/architecture.md): its
# sources and the tests see every host folder
HOST_DIRS     := $(patsubst %/,%,$(sort $(dir $(wildcard host/*/*.[ch] host/*/*/*.[ch]))))
INC_host      += $(HOST_DIRS)
INC_tests     += $(HOST_DIRS)
layer_inc = $(addprefix -I,$(call layer_dirs,$(1)))

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-unused-parameter
# Build paths are mapped out of debug info and __FILE__ so that the same sources give
# the same bytes wherever they are built (the image must be reproducible).
REPRO    := -ffile-prefix-map=$(CURDIR)/= -ffile-prefix-map=$(O)/=build/
BASE_CFLAGS = -std=gnu11 -O2 -g $(REPRO) $(WARN) -D_GNU_SOURCE $(call layer_inc,$<)
CFLAGS   ?=
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The library is instrumented for coverage only (fuzzer-no-link); the fuzz targets
# link libFuzzer's main with -fsanitize=fuzzer.
FUZZ_SAN := -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
            -fno-omit-frame-pointer
FUZZ_SECONDS ?= 60

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Sources: a file holding main() is named main.c; everything else is library code.
COMMON_SRC    := $(sort $(wildcard common/*.c))
# the descriptions: linked into both binaries (host and runner), no I/O in them
DESC_SRC      := $(sort $(wildcard runner/workloads/desc_*.c runner/workloads/*/desc_*.c \
			runner/workloads/*/report_*.c))
RUNNER_SRC    := $(filter-out runner/init/main.c $(DESC_SRC),\
			$(sort $(wildcard runner/*/*.c runner/workloads/*/*.c)))
INITRAMFS_SRC := $(filter-out initramfs/main.c,$(sort $(wildcard initramfs/*.c)))
HOST_SRC      := $(filter-out host/cli/main.c,$(sort $(wildcard $(addsuffix /*.c,$(HOST_DIRS)) qemu/*.c kernels/*.c)))
TEST_SRC      := $(sort $(wildcard tests/*_test.c))
# tests/e2e_check.c is a checker program run by tests/e2e.sh, not a unit test
# libhost.a: what build/bootmark and bm-mkinitramfs link, no workload engine in it;
# libbm.a adds the runner's code for the unit tests.
HOSTLIB_SRC   := $(COMMON_SRC) $(DESC_SRC) $(INITRAMFS_SRC) $(HOST_SRC)
LIB_SRC       := $(HOSTLIB_SRC) $(RUNNER_SRC)

# --- static musl runner ---------------------------------------------------------------
# libaio is copied into a folder of its own: pointing musl-gcc at the system library
# folder would pull in glibc's libc.a.  A grouped target (&:): one cp makes both
# files; with a plain two-target rule make -j2 ran two cp at once and one failed.
# The kernel UAPI headers libaio.h includes (Debian 13's includes <linux/types.h>;
# musl-gcc searches only musl's headers) are copied into a private include folder
# beside it, never glibc's /usr/include on musl's path (host/uapi-headers.sh).
AIO_DIR := $(O)/libaio
AIO_INC := $(AIO_DIR)/include
$(AIO_DIR)/libaio.a $(AIO_DIR)/libaio.h &:
	$(Q)rm -rf $(AIO_INC) && mkdir -p $(AIO_INC)
	$(Q)cp /usr/lib/x86_64-linux-gnu/libaio.a /usr/include/libaio.h $(AIO_DIR)/
	$(Q)sh host/uapi-headers.sh $(CC) $(AIO_DIR)/libaio.h $(AIO_INC)

# common/ comes as an archive: the runner links only what it uses of it (the
# host-side helpers there, output folders and processes, stay out of the image).
MUSL_OBJ := $(patsubst %.c,$(O)/musl/%.o,$(RUNNER_SRC) runner/init/main.c)
MUSL_LIB := $(O)/musl/libcommon.a
$(MUSL_LIB): $(patsubst %.c,$(O)/musl/%.o,$(COMMON_SRC) $(DESC_SRC))
	$(Q)rm -f $@ && ar rcs $@ $^
$(O)/musl/%.o: %.c $(AIO_DIR)/libaio.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  MUSLCC  $<")
	$(Q)$(MUSL_CC) $(BASE_CFLAGS) -I$(AIO_DIR) -isystem $(AIO_INC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(O)/bootmark-runner: $(MUSL_OBJ) $(MUSL_LIB) $(AIO_DIR)/libaio.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(MUSL_CC) -static -o $@ $(MUSL_OBJ) $(MUSL_LIB) -L$(AIO_DIR) -laio

# --- host objects: one tree per flavour (gcc, clang, asan) ----------------------------
# Debian's libsqlite3 (bootmark history, host/history/history_db.c) is linked into the host
# tool and the host tests only: the runner is static musl and knows nothing of it.
SQLITE_LIBS := -lsqlite3
define flavour
$(O)/$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  $(1)	$$<")
	$$(Q)$(2) $$(BASE_CFLAGS) $(3) $$(CFLAGS) -MMD -MP -c -o $$@ $$<
$(O)/$(1)/libbm.a: $$(patsubst %.c,$(O)/$(1)/%.o,$$(LIB_SRC))
	$$(Q)rm -f $$@ && ar rcs $$@ $$^
$(O)/$(1)/libhost.a: $$(patsubst %.c,$(O)/$(1)/%.o,$$(HOSTLIB_SRC))
	$$(Q)rm -f $$@ && ar rcs $$@ $$^
$(O)/$(1)/tests/%: $(O)/$(1)/tests/%.o $(O)/$(1)/libbm.a
	$$(Q)$(2) $(3) -o $$@ $$^ -laio -lm $(SQLITE_LIBS)
endef
$(eval $(call flavour,gcc,$(CC),))
$(eval $(call flavour,clang,$(CLANG),))
$(eval $(call flavour,asan,$(CC),$(SAN)))
$(eval $(call flavour,fuzz,$(CLANG),$(FUZZ_SAN)))

$(O)/bootmark: $(O)/gcc/host/cli/main.o $(O)/gcc/libhost.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $^ -laio -lm $(SQLITE_LIBS)

$(O)/bm-mkinitramfs: $(O)/gcc/initramfs/main.o $(O)/gcc/libhost.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $^ -laio -lm

# --- the base image ---------------------------------------------------------------------
# initramfs/base.list is the readable list; initramfs/mklist.sh adds the shared-library
# closure of the mkfs tools to it.  Same inputs, same bytes.
# The image carries a stripped copy of the runner: smaller, and free of debug paths.
$(O)/init.stripped: $(O)/bootmark-runner
	$(Q)strip -o $@ $<

# dbench's loadfile: the Debian dbench package's client.txt (26 MB, 677 KB as xz), packed
# as /etc/bootmark/data/client.txt.xz.  It is required: without it the image would have
# no dbench workload worth the name (loadfile=generated is bootmark's own mix, only when
# asked for; docs/workloads.md).  DBENCH_CLIENT=path takes another copy of the same file.
# xz -T1: same input, same bytes.
DBENCH_CLIENT ?= /usr/share/dbench/client.txt
DBENCH_XZ     := $(O)/client.txt.xz
$(O)/client.txt.xz: $(wildcard $(DBENCH_CLIENT))
	@if [ ! -r "$(DBENCH_CLIENT)" ]; then \
		echo "bootmark: cannot read $(DBENCH_CLIENT), dbench's loadfile: install the Debian" \
			"package dbench (apt-get install dbench, or make deps), or set DBENCH_CLIENT=" >&2; \
		exit 1; \
	fi
	@mkdir -p $(dir $@)
	$(Q)xz -T1 -9 --check=crc32 -c $(DBENCH_CLIENT) > $@.tmp && mv $@.tmp $@

$(O)/base.list: initramfs/base.list initramfs/mklist.sh $(O)/init.stripped $(wildcard configs/*/* configs/*.conf) $(DBENCH_XZ)
	$(Q)sh initramfs/mklist.sh initramfs/base.list $(O)/init.stripped $(DBENCH_XZ) > $@.tmp && mv $@.tmp $@

$(O)/base.cpio: $(O)/base.list $(O)/bm-mkinitramfs
	$(Q)$(O)/bm-mkinitramfs -o $@ $(O)/base.list

# The compressors of the base and the tool archives (xz -T1: same input, same bytes).
XZ   := xz -T1 -9 --check=crc32
ZSTD := zstd -q -19
$(O)/base.cpio.xz: $(O)/base.cpio
	$(Q)$(XZ) -c $< > $@.tmp && mv $@.tmp $@

# What kernels with CONFIG_RD_ZSTD boot (host/backend/initrd.c): it unpacks much faster.
$(O)/base.cpio.zst: $(O)/base.cpio
	$(Q)$(ZSTD) -c $< > $@.tmp && mv $@.tmp $@

# --- tool archives: the mkfs programs the base does not carry ---------------------------
# One per readable list initramfs/tools/NAME.list (its Debian package named in it):
# $(O)/tools/NAME.cpio{,.xz,.zst}, holding what the base lacks, appended by the host to
# the initrd of a run whose profiles need it.  $(O)/base.manifest says what the base and
# each archive carry (initramfs/mktool.sh, docs/filesystems.md).  A list whose package is
# not installed builds no archive (make says so; a run that needs it is refused).
# tools/host.state changes when a listed host file appears, goes or changes, so that
# make after "make deps" builds the archive; it is rewritten only when it changes.
# TOOL_LIST_DIR: another folder of lists (tests/image.sh: one whose package is missing).
TOOL_LIST_DIR ?= initramfs/tools
TOOL_LISTS := $(sort $(wildcard $(TOOL_LIST_DIR)/*.list))
TOOL_PARTS := $(patsubst $(TOOL_LIST_DIR)/%.list,$(O)/tools/%.part,$(TOOL_LISTS))
$(O)/tools/host.state: FORCE
	@mkdir -p $(dir $@)
	$(Q)sh initramfs/mktool.sh --state $(TOOL_LISTS) > $@.tmp && \
		{ if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi; }

$(O)/tools/%.part: $(TOOL_LIST_DIR)/%.list initramfs/mktool.sh initramfs/mklist.sh $(O)/base.list \
		$(O)/bm-mkinitramfs $(O)/tools/host.state
	$(Q)BM_MKINITRAMFS=$(O)/bm-mkinitramfs XZ="$(XZ)" ZSTD="$(ZSTD)" \
		sh initramfs/mktool.sh $< $(O)/base.list $(O)/tools

$(O)/base.manifest: $(O)/base.list initramfs/mktool.sh $(TOOL_PARTS) $(O)/tools/host.state
	$(Q)sh initramfs/mktool.sh --manifest $(O)/base.list $(TOOL_PARTS) > $@.tmp && mv $@.tmp $@

# --- arm64 (issue 47): make arm64 -------------------------------------------------------
# The same runner, base image, tool archives and manifest for arm64, under $(O)/arm64/
# (docs/arm64.md); the default goal needs none of it.  initramfs/sysroot.sh downloads
# the Debian 12 packages initramfs/arm64.packages names with a private apt state
# (dpkg's architectures stay as they are) into $(O)/arm64/sysroot and says which
# versions in $(O)/arm64/sysroot.versions.  The runner: aarch64-linux-gnu-gcc driven by
# musl-dev:arm64's own musl-gcc.specs, its /usr paths rewritten to the sysroot, with
# the amd64 runner's flags and layers; libaio.a and libaio.h from libaio-dev:arm64 in a
# folder of their own (the sysroot's gnu folder holds glibc), the UAPI headers libaio.h
# includes from linux-libc-dev:arm64.  The image's lists are read under the sysroot
# (mklist.sh's sysroot mode: the closure from readelf, ldd cannot read arm64 ELF);
# bm-mkinitramfs, xz and zstd are the host's, as for amd64: same inputs, same bytes.
# ARM64_APT: another apt folder, whose debs/ are taken instead of downloaded again.
A64          := $(O)/arm64
A64_SYSROOT  := $(A64)/sysroot
ARM64_APT    ?= $(A64)/apt
ARM64_CROSS  ?= aarch64-linux-gnu-
A64_SPECS    := $(A64)/musl-gcc.specs
A64_MUSL_CC   = $(ARM64_CROSS)gcc -specs=$(abspath $(A64_SPECS))
A64_AIO      := $(A64)/libaio
A64_AIO_INC  := $(A64_AIO)/include
A64_LIST_ENV := BM_SYSROOT=$(A64_SYSROOT) BM_MULTIARCH=aarch64-linux-gnu BM_ELF_MACHINE=AArch64 \
		BM_READELF=readelf

$(A64)/sysroot.versions: initramfs/arm64.packages initramfs/sysroot.sh
	$(Q)BM_SYSROOT_APT=$(ARM64_APT) sh initramfs/sysroot.sh arm64 $(A64)

$(A64_SPECS): $(A64)/sysroot.versions
	@command -v $(ARM64_CROSS)gcc >/dev/null || { echo "bootmark: no $(ARM64_CROSS)gcc here:" \
		"install gcc-aarch64-linux-gnu (sh host/install-deps.sh check, or make deps)" >&2; exit 111; }
	$(Q)sed -e 's|/usr/include/aarch64-linux-musl|$(abspath $(A64_SYSROOT))/usr/include/aarch64-linux-musl|g' \
		-e 's|/usr/lib/aarch64-linux-musl|$(abspath $(A64_SYSROOT))/usr/lib/aarch64-linux-musl|g' \
		$(A64_SYSROOT)/usr/lib/aarch64-linux-musl/musl-gcc.specs > $@.tmp && mv $@.tmp $@

$(A64_AIO)/libaio.a $(A64_AIO)/libaio.h &: $(A64)/sysroot.versions $(A64_SPECS)
	$(Q)rm -rf $(A64_AIO_INC) && mkdir -p $(A64_AIO_INC)
	$(Q)cp $(A64_SYSROOT)/usr/lib/aarch64-linux-gnu/libaio.a $(A64_SYSROOT)/usr/include/libaio.h $(A64_AIO)/
	$(Q)sh host/uapi-headers.sh "$(A64_MUSL_CC) -isystem $(A64_SYSROOT)/usr/include/aarch64-linux-gnu \
		-isystem $(A64_SYSROOT)/usr/include" $(A64_AIO)/libaio.h $(A64_AIO_INC)

A64_OBJ := $(patsubst %.c,$(A64)/musl/%.o,$(RUNNER_SRC) runner/init/main.c)
A64_LIB := $(A64)/musl/libcommon.a
$(A64_LIB): $(patsubst %.c,$(A64)/musl/%.o,$(COMMON_SRC) $(DESC_SRC))
	$(Q)rm -f $@ && $(ARM64_CROSS)ar rcs $@ $^
$(A64)/musl/%.o: %.c $(A64_AIO)/libaio.h $(A64_SPECS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  A64CC   $<")
	$(Q)$(A64_MUSL_CC) $(BASE_CFLAGS) -I$(A64_AIO) -isystem $(A64_AIO_INC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(A64)/bootmark-runner: $(A64_OBJ) $(A64_LIB) $(A64_AIO)/libaio.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(A64_MUSL_CC) -static -o $@ $(A64_OBJ) $(A64_LIB) -L$(A64_AIO) -laio

$(A64)/init.stripped: $(A64)/bootmark-runner
	$(Q)$(ARM64_CROSS)strip -o $@ $<

$(A64)/base.list: initramfs/base.list initramfs/mklist.sh $(A64)/init.stripped $(A64)/sysroot.versions \
		$(wildcard configs/*/* configs/*.conf) $(DBENCH_XZ)
	$(Q)$(A64_LIST_ENV) sh initramfs/mklist.sh initramfs/base.list $(A64)/init.stripped $(DBENCH_XZ) \
		> $@.tmp && mv $@.tmp $@

$(A64)/base.cpio: $(A64)/base.list $(O)/bm-mkinitramfs
	$(Q)$(O)/bm-mkinitramfs -o $@ $(A64)/base.list
$(A64)/base.cpio.xz: $(A64)/base.cpio
	$(Q)$(XZ) -c $< > $@.tmp && mv $@.tmp $@
$(A64)/base.cpio.zst: $(A64)/base.cpio
	$(Q)$(ZSTD) -c $< > $@.tmp && mv $@.tmp $@

A64_TOOL_PARTS := $(patsubst $(TOOL_LIST_DIR)/%.list,$(A64)/tools/%.part,$(TOOL_LISTS))
$(A64)/tools/%.part: $(TOOL_LIST_DIR)/%.list initramfs/mktool.sh initramfs/mklist.sh $(A64)/base.list \
		$(O)/bm-mkinitramfs $(A64)/sysroot.versions
	$(Q)$(A64_LIST_ENV) BM_MKINITRAMFS=$(O)/bm-mkinitramfs XZ="$(XZ)" ZSTD="$(ZSTD)" \
		sh initramfs/mktool.sh $< $(A64)/base.list $(A64)/tools

$(A64)/base.manifest: $(A64)/base.list initramfs/mktool.sh $(A64_TOOL_PARTS)
	$(Q)sh initramfs/mktool.sh --manifest $(A64)/base.list $(A64_TOOL_PARTS) > $@.tmp && mv $@.tmp $@

# bench-boot --arch arm64's floor: the trivial init, cross-built as the runner is
# (tests/bench/trivial_init.c says where its line goes on arm64, and why)
$(A64)/bm-trivial-init: tests/bench/trivial_init.c $(A64_SPECS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  A64CC   $@")
	$(Q)$(A64_MUSL_CC) -std=gnu11 -O2 $(WARN) -D_GNU_SOURCE $(CFLAGS) -static -o $@ $<

arm64: $(A64)/bootmark-runner $(A64)/base.cpio.xz $(A64)/base.cpio.zst $(A64)/base.manifest \
	$(A64)/bm-trivial-init

# The unit tests that need only common/ and the runner's code, cross-built the same
# way (make check-image-arm64 runs them under qemu-aarch64-static); the others link
# the host's code (libhost: sqlite, the CLI), which is not built for arm64.
A64_UNIT := aim7_mix_test coldplug_test dbench_load_test host_exec_test host_sha256_test \
	ktree_gen_test opts_test profile_test proto_test report_aim7_test report_aio_test \
	report_bonnie_test report_dbench_test report_lmdd_test report_rawio_test report_test \
	report_tiobench_test runner_config_test runner_dd_test runner_disk_test \
	runner_diskmark_test runner_disksig_test runner_emit_test runner_hello_test \
	runner_hostmode_test runner_sctrace_test runner_spawn_test runner_sysstat_test \
	stats_test ustar_test wl_aim7_test wl_aio_test wl_bonnie_test wl_dbench_test \
	wl_fio_test wl_golden_test wl_kerntree_test wl_lmdd_test wl_metric_better_test \
	wl_prepares_test wl_tiobench_test
A64_RUNLIB := $(A64)/musl/librunner.a
$(A64_RUNLIB): $(patsubst %.c,$(A64)/musl/%.o,$(RUNNER_SRC))
	$(Q)rm -f $@ && $(ARM64_CROSS)ar rcs $@ $^
$(A64)/tests/%: $(A64)/musl/tests/%.o $(A64_RUNLIB) $(A64_LIB) $(A64_AIO)/libaio.a
	@mkdir -p $(dir $@)
	$(Q)$(A64_MUSL_CC) -static -o $@ $< $(A64_RUNLIB) $(A64_LIB) -L$(A64_AIO) -laio
arm64-unit: $(addprefix $(A64)/tests/,$(A64_UNIT))

# --- make bench: the floor the boot time is compared against ----------------------------
$(O)/bm-trivial-init: tests/bench/trivial_init.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  MUSLCC  $@")
	$(Q)$(MUSL_CC) -std=gnu11 -O2 $(WARN) -D_GNU_SOURCE $(CFLAGS) -static -o $@ $<

BINS := $(O)/bootmark-runner $(O)/bootmark $(O)/bm-mkinitramfs
all: $(BINS) $(O)/base.cpio.xz $(O)/base.cpio.zst $(O)/base.manifest
.DEFAULT_GOAL := all

# --- tests ------------------------------------------------------------------------------
TESTS := $(patsubst tests/%.c,%,$(TEST_SRC))
GCC_TESTS   := $(addprefix $(O)/gcc/tests/,$(TESTS))
CLANG_TESTS := $(addprefix $(O)/clang/tests/,$(TESTS))
ASAN_TESTS  := $(addprefix $(O)/asan/tests/,$(TESTS))

# the main.c files are outside libbm: compile them under clang too
CLANG_MAINS := $(O)/clang/host/cli/main.o $(O)/clang/runner/init/main.o $(O)/clang/initramfs/main.o

# Every part runs through tests/check-step.sh: exit 77 is a skip (the part's "# SKIP"
# line says why: lava-common is not in Debian 13, say), not a failure.  make check
# ends with a summary of its parts: passed, failed, skipped and why.
STEP := sh tests/check-step.sh

check-unit: $(GCC_TESTS) $(CLANG_TESTS) $(ASAN_TESTS) $(CLANG_MAINS)
	$(Q)$(STEP) unit sh tests/run-unit.sh $(GCC_TESTS) $(CLANG_TESTS) $(ASAN_TESTS)

# Two builds give the same bytes (base, tool archives, manifest); a tool list whose package
# is missing builds no archive and run/pxe refuse its profile, naming the package (exit 100);
# a build without dbench's client.txt fails, naming the package.
check-image:
	$(Q)$(STEP) image sh tests/image.sh

# make arm64 twice gives the same bytes (the second from the first's .debs, offline), a
# static aarch64 runner, aarch64 ELF files only, base.cpio.xz within 3 MiB; the runner's
# --version and --help and the arm64 unit tests under qemu-aarch64-static (docs/arm64.md;
# about 6 minutes of CPU: two cross builds, 41 test programs emulated)
check-image-arm64: all arm64
	$(Q)A64_BUILD=$(O) $(STEP) image-arm64 sh tests/image_arm64.sh

check-host: all
	$(Q)$(STEP) host sh tests/hostmode.sh

# what a workload does to its files against its original's, from strace (issue 45), no
# timing: dd against GNU dd (tests/trace_dd.sh, tests/trace_profile.py; seconds), bonnie
# against bonnie++ 2.00a, test by test (tests/trace_bonnie.sh, tests/trace_phases.py;
# about 3.5 minutes: two million traced per-char calls a side), dbench against dbench 4.0,
# a pass of its loadfile (tests/trace_dbench.sh; 20 s), aio against fio's libaio engine
# (tests/trace_aio.sh; seconds)
check-trace: check-trace-dd check-trace-bonnie check-trace-dbench check-trace-aio
check-trace-dd: all
	$(Q)RUNNER=$(O)/bootmark-runner $(STEP) trace-dd sh tests/trace_dd.sh
check-trace-bonnie: all
	$(Q)RUNNER=$(O)/bootmark-runner $(STEP) trace-bonnie sh tests/trace_bonnie.sh
check-trace-dbench: all
	$(Q)RUNNER=$(O)/bootmark-runner $(STEP) trace-dbench sh tests/trace_dbench.sh
check-trace-aio: all
	$(Q)RUNNER=$(O)/bootmark-runner $(STEP) trace-aio sh tests/trace_aio.sh

check-e2e: all $(O)/gcc/tests/e2e_check
	$(Q)$(STEP) e2e sh tests/e2e.sh

# the HTML report in headless Chromium (no chromium: a skip)
check-report: all
	$(Q)BM=$(O)/bootmark $(STEP) report sh tests/report_html.sh

# compare's verdict on real boots: an A/A run (smoke, ext4, real time) reports no change,
# the bisect pair's slowdown (init_on_alloc=1) is dd64r's headline regression (QEMU)
check-compare: all
	$(Q)BM=$(O)/bootmark COMPARE_PARTS=aa $(STEP) compare sh tests/compare_verdict.sh

# compare's statistics against scipy and statsmodels (Welch p, exact and normal
# Mann-Whitney p, BH q-values) and compare --fail-on's codes, on generated boot folders
check-stats: all
	$(Q)BM=$(O)/bootmark $(STEP) stats sh tests/stats_ref.sh

# the CI job files of docs/ci/ run by real CI tools: the GitLab job under gitlab-ci-local
# (an A/A pair passes, the init_on_alloc=1 slowdown fails with the gate's 30), the GitHub
# workflow through action-validator (npm; no registry: a skip).  About 3 minutes with
# the npm install (190 s, 2026-12-03), in make check's third phase (docs/ci.md)
check-ci: all
	$(Q)sh host/install-deps.sh ci
	$(Q)BM=$(O)/bootmark $(STEP) ci sh tests/ci_gate.sh

# The gate in real time (issue 44): bootmark ci --max-boots on an A/A pair (pass or
# undecided, never a failure) and on init_on_alloc=1 (fails naming dd64r's real within
# 4 boots a kernel); one-line suite, TCG without --icount (tests/ci_confirm.sh).
check-ci-confirm: all
	$(Q)BM=$(O)/bootmark $(STEP) ci-confirm sh tests/ci_confirm.sh

# bisect over a list, git bisect run with bisect-step, bisect-step's exit codes (QEMU);
# the bisection's boots also make tests/history.sh's real history (docs/history.md)
check-bisect: all
	$(Q)BM=$(O)/bootmark $(STEP) bisect sh tests/bisect.sh

# the appliance booted through PXE in QEMU (pxelinux and iPXE from the user network's
# TFTP server), its shape against a direct run, a box's queue advance (docs/pxe.md)
check-pxe: all
	$(Q)BM=$(O)/bootmark $(STEP) pxe sh tests/pxe.sh

# an arm64 lab board: bootmark pxe --arch arm64's U-Boot tree (boot.scr.uimg, U-Boot's pxe)
# booted by QEMU's own U-Boot (u-boot-qemu) over the user network's TFTP; needs the
# arm64 image (make arm64) and the arm64 kernel (docs/bare-metal.md)
check-pxe-uboot: all arm64
	$(Q)BM=$(O)/bootmark $(STEP) pxe-uboot sh tests/pxe_uboot.sh

# bootmark lava: jobs against Debian's lava-common schema, LAVA's monitor on a QEMU run,
# and lava-run (LAVA's dispatcher) running a job on a QEMU device, amd64's and arm64's
check-lava: all arm64
	$(Q)BM=$(O)/bootmark $(STEP) lava sh tests/lava.sh

# bootmark capture on a console log built from two QEMU boots: --file, --tcp with a
# dropped connection, --serial on a pty, --follow with a rotation, SIGINT, --pxe
check-capture: all
	$(Q)BM=$(O)/bootmark $(STEP) capture sh tests/capture.sh

# Disk safety in QEMU: a decoy disk next to the target, right/wrong/ambiguous settings.
check-disk: all
	$(Q)BM=$(O)/bootmark $(STEP) disk sh tests/disk_safety.sh

# Every --disk-bus (virtio, virtio-scsi, NVMe, SATA, SAS, MegaRAID) on both kernels, a
# decoy disk on the same bus left as it was, no module list (the runner's coldplug)
check-buses: all
	$(Q)BM=$(O)/bootmark $(STEP) buses sh tests/buses.sh

# arm64 in QEMU (virt, TCG): bad --arch input, then two boots of Debian's 6.1 arm64
# kernel with the arm64 image (virtio and NVMe, ext4 and xfs), meta.json, the export
# and compare's refusal to mix architectures (tests/arm64.sh; about 2 minutes)
check-arm64: all arm64
	$(Q)BM=$(O)/bootmark $(STEP) arm64 sh tests/arm64.sh

# rawio on QEMU's NVMe (one 6.1 boot, about 10 s): every engine, passthrough and
# IOPOLL included, reads and writes, run once on --fs ext4,xfs, the disk's ends zeroed
check-rawio: all
	$(Q)BM=$(O)/bootmark $(STEP) rawio sh tests/rawio_qemu.sh

# The hardware watchdog (QEMU's i6300esb): a hung or panicked box is reset
check-watchdog: all arm64
	$(Q)BM=$(O)/bootmark $(STEP) watchdog sh tests/watchdog.sh

# The lab (bare-metal) parts, each proved in QEMU: disk safety, PXE, capture, LAVA, watchdog
check-lab: check-disk check-pxe check-pxe-uboot check-capture check-lava check-watchdog

# Fault injection in QEMU: EIO, ENOSPC, panic, hang, bad initramfs, module, mkfs,
# config, kmsg flood; each asserts its class and the records that survive
check-faults: all
	$(Q)BM=$(O)/bootmark $(STEP) faults sh tests/faults.sh

# Verdicts (issue 15): no QEMU / QEMU failing, hostile console bytes, bad suite lines
# and modules, SIGINT/SIGTERM/SIGHUP on real boots, damaged records, compare D D
check-verdicts: all
	$(Q)BM=$(O)/bootmark $(STEP) verdicts sh tests/verdicts.sh

# Processes and folders (issue 43): QEMU dies with a SIGKILLed run and its folder never
# reads completed, two runs into one --out, QEMU's own failure in bisect and bisect-step
# (two real boots of a one-line suite, the rest on stub QEMUs)
check-procs: all
	$(Q)BM=$(O)/bootmark $(STEP) procs sh tests/procs.sh

# Shared hosts (issue 24): planted links at every file run, capture, pxe, report,
# export, lava and --junit write; folders another user could redirect; the host's
# load in meta.json and compare; run --exclusive
check-outsafety: all
	$(Q)BM=$(O)/bootmark $(STEP) outsafety sh tests/outsafety.sh

# bootmark history (docs/history.md): the store, series, changes, bisect and the trend
# page on generated boot folders (history_store.sh, history_report.sh in Chromium; no
# QEMU, seconds); docs/history.md's accuracy table as the generator gives it (a few s).  The real history of four releases is made of tests/bisect.sh's
# boots (check-bisect runs tests/history.sh on them: no boots of its own).
HISTORY_GEN := $(O)/gcc/tests/history_gen
# its accuracy tables live in two files of their own
$(HISTORY_GEN): $(O)/gcc/tests/history_gen.o $(O)/gcc/tests/history_acc.o \
		$(O)/gcc/tests/history_acc_conf.o $(O)/gcc/libbm.a
	$(Q)$(CC) -o $@ $^ -laio -lm $(SQLITE_LIBS)
check-history: all $(HISTORY_GEN)
	$(Q)BM=$(O)/bootmark HISTORY_GEN=$(HISTORY_GEN) $(STEP) history-store sh tests/history_store.sh
	$(Q)BM=$(O)/bootmark HISTORY_GEN=$(HISTORY_GEN) $(STEP) history-report sh tests/history_report.sh
	$(Q)HISTORY_GEN=$(HISTORY_GEN) $(STEP) history-table sh tests/history_accuracy.sh

# The accuracy table of docs/history.md: precision and recall on synthetic histories
HISTORY_SERIES ?= 200
history-accuracy: $(HISTORY_GEN)
	$(Q)$(HISTORY_GEN) accuracy --series $(HISTORY_SERIES)

# A kernel cache concurrent processes share (issue 24): two fetches at once, a fetch
# killed mid-extract, three runs at once on an empty cache
check-sharedcache: all
	$(Q)BM=$(O)/bootmark $(STEP) sharedcache sh tests/sharedcache.sh

# deb: kernels through bootmark's own apt (Debian 12 and 13 archives, signatures
# checked, a suite that cannot be fetched named): kernel update, list, fetch
check-kernels: all
	$(Q)BM=$(O)/bootmark $(STEP) kernels sh tests/kernels.sh

# make bench's parts are benchmarks, not tests (docs/bench.md); check-bench proves that
# the project's scripts run under what users have: every shell script parses under
# dash, every awk script under mawk and gawk, and the seeds scaler and log reader give
# the checked output under both awks (a few seconds, no QEMU; tests/scripts_check.sh).
# Their C parsing (HELLO timing keys, fio's terse lines, bench-boot's breakdown) is in
# the unit tests.  One part alone: make bench BENCH_PARTS=fidelity
check-bench:
	$(Q)$(STEP) bench sh tests/scripts_check.sh

# The docs as a user reads them (issue 26): every example of README.md and docs/*.md
# runs (README first; folders, URLs and the like as docs/doc-tests.md says), or is
# marked as needing lab hardware or hours; the synopsis of docs/cli.md is --help's.
# A few QEMU boots of short suites, about 3 minutes (tests/docs_check.py).
check-docs: all
	$(Q)BM=$(O)/bootmark $(STEP) docs /usr/bin/python3 tests/docs_check.py

# What docs/cli.md says where the code and the docs once disagreed: a suite and a
# profile of --configs reach the guest (one QEMU boot), lava's disk selectors, a
# failing KVM under --accel kvm (a QEMU that fails as it does), --metric with --boot,
# switches given a value, what bad input leaves behind (tests/agree.sh)
check-agree: all $(HISTORY_GEN)
	$(Q)BM=$(O)/bootmark HISTORY_GEN=$(HISTORY_GEN) $(STEP) agree sh tests/agree.sh

# An include from a layer above must fail to compile (docs/architecture.md, "Layers");
# the tests' paths (every folder) must compile the same headers, so the test cannot
# pass vacuously.  "host:wl.h": the host never sees an engine's header, nor a
# description an engine's (runner/workloads/dd/desc_dd.c: wl.h, seqio.h, log.h).
LAYER_FORBIDDEN := common:results.h common:wl.h common:qemu.h common:kernel.h common:wl_dd.h \
	runner/x:results.h runner/x:qemu.h runner/x:kernel.h runner/x:modclosure.h \
	initramfs:results.h initramfs:wl.h kernels:results.h kernels:qemu.h kernels:wl.h \
	qemu:results.h qemu:wl.h qemu:modclosure.h \
	host:wl.h host:fsrun.h host:emit.h host:log.h host:wl_dd.h host:wl_aim7.h host:seqio.h \
	runner/workloads/dd/desc_dd:wl.h runner/workloads/dd/desc_dd:seqio.h \
	runner/workloads/dd/desc_dd:log.h runner/workloads/dd/desc_dd:wl_aim7.h \
	runner/workloads/aim7/report_aim7:emit.h runner/workloads/dd/wl_dd:wl_aim7.h \
	runner/engine/x:results.h common:wl_aim7.h kernels:wl_dd.h qemu:wl_dd.h \
	host:uring.h host:rawio_eng.h runner/workloads/rawio/desc_rawio:uring.h \
	runner/workloads/rawio/report_rawio:rawdev.h
# host's folders (one header of each): below host, none is in reach
LAYER_FORBIDDEN += common:backend.h runner/x:backend.h initramfs:cli.h \
	kernels:backend.h kernels:qemu_boot.h kernels:boot.h kernels:compare.h kernels:history.h \
	qemu:backend.h qemu:qemu_boot.h qemu:initrd.h qemu:pxe.h qemu:lava.h qemu:cli.h \
	qemu:boot.h qemu:html_report.h qemu:bisect.h qemu:bench_cmd.h qemu:ci.h
# "common" stands for a file in common/, "runner/workloads/dd/desc_dd" for that file
layer_file = $(if $(findstring /,$(1)),$(1).c,$(1)/x.c)
# and build/bootmark links none of the runner's code (tests/host_engines.sh)
RUNNER_GCC_OBJ := $(patsubst %.c,$(O)/gcc/%.o,$(RUNNER_SRC))
check-layers: $(O)/bootmark $(RUNNER_GCC_OBJ)
	$(Q)$(STEP) layers sh tests/layers.sh "$(CC)" $(foreach p,$(LAYER_FORBIDDEN),\
		"$(word 2,$(subst :, ,$(p)))|$(call layer_inc,$(call layer_file,$(word 1,$(subst :, ,$(p)))))|$(call layer_inc,tests/x.c)")
	$(Q)$(STEP) host-engines sh tests/host_engines.sh $(O)/bootmark $(RUNNER_GCC_OBJ)

# make check in three phases, so that it stays well inside CI's hour on 2 cores:
#  1. the parts without QEMU, CHECK_JOBS at a time;
#  2. the parts whose verdicts rest on timing, one at a time: compare's real-time A/A
#     run, bisect's virtual-time boots, the watchdog's 4 s timer in a TCG guest;
#  3. the other QEMU parts, CHECK_JOBS at a time: their verdicts rest on what the
#     guest does, not on how fast (26 of 26 parts passed this way, 1207 s of wall
#     time against 1743 s of parts, 2026-12-03).  Each part has its own folders
#     (mktemp) and the kernel cache takes concurrent users (check-sharedcache).
# -O keeps each part's output in one piece; CHECK_JOBS=1 is the old serial order.
# Every phase runs (-k), whatever failed before it: the summary names every failure.
CHECK_JOBS ?= 2
CHECK_PHASE1 := check-layers check-unit check-bench check-kernels check-image check-image-arm64 check-host \
	check-report check-stats check-history check-trace
CHECK_PHASE2 := check-compare check-bisect check-watchdog
CHECK_PHASE3 := check-e2e check-ci check-ci-confirm check-disk check-buses check-rawio check-arm64 check-pxe \
	check-pxe-uboot check-capture check-lava check-faults check-verdicts check-procs check-outsafety \
	check-sharedcache check-agree check-docs
CHECK_PARTS := $(CHECK_PHASE1) $(CHECK_PHASE2) $(CHECK_PHASE3)
CHECK_MAKE = CHECK_LOG=$(abspath $(O))/check.log $(MAKE) --no-print-directory
check:
	$(Q)sh host/install-deps.sh check
	$(Q)mkdir -p $(O) && : > $(O)/check.log
	$(Q)t0=$$(date +%s); rc=0; \
		$(CHECK_MAKE) -k -j$(CHECK_JOBS) -Otarget $(CHECK_PHASE1) || rc=1; \
		$(CHECK_MAKE) -k -j1 $(CHECK_PHASE2) || rc=1; \
		$(CHECK_MAKE) -k -j$(CHECK_JOBS) -Otarget $(CHECK_PHASE3) || rc=1; \
		$(STEP) --summary $(O)/check.log; \
		echo "  wall: $$(($$(date +%s) - t0)) s, $(CHECK_JOBS) parts at a time in phases 1 and 3"; exit $$rc

# Another Debian release, as a new user has it: a minbase chroot (debootstrap, cached
# under $(O)/distro), host/install-deps.sh, make, the unit tests, make run (one QEMU
# boot of the smoke suite) and a kernel fetch whose vmlinuz must hash as the host's.
# DIST: trixie or bookworm; default: the one this host is not.  Root.  Not part of
# make check: .ci/run calls it after make check (tests/distro.sh).
DIST ?=
check-distro: all
	$(Q)BM=$(O)/bootmark BUILD=$(O) $(STEP) distro sh tests/distro.sh $(DIST)

# --- make fuzz: libFuzzer on the parsers (not part of check) ------------------------------
# Each target runs on a copy of its committed corpus, so new inputs stay in $(O)/fuzz/;
# crash files land there too.  Every target runs even when one crashes; fails at the end.
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS    := $(addprefix $(O)/fuzz/,$(FUZZ_TARGETS))
$(O)/fuzz/fuzz_%: $(O)/fuzz/tests/fuzz/fuzz_%.o $(O)/fuzz/libbm.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $^ -laio -lm

fuzz: $(FUZZ_BINS)
	$(Q)fail=0; for t in $(FUZZ_TARGETS); do \
		rm -rf $(O)/fuzz/corpus/$$t && mkdir -p $(O)/fuzz/corpus && \
		cp -r tests/fuzz/corpus/$$t $(O)/fuzz/corpus/$$t || exit 1; \
		echo "  FUZZ    $$t ($(FUZZ_SECONDS) s)"; \
		$(O)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 \
			-artifact_prefix=$(O)/fuzz/$$t- $(O)/fuzz/corpus/$$t \
			> $(O)/fuzz/$$t.log 2>&1 || { fail=1; echo "bootmark: $$t crashed, see $(O)/fuzz/$$t.log"; }; \
		grep -E '^(stat::number_of_executed_units|Done )' $(O)/fuzz/$$t.log; \
	done; exit $$fail

# make run works on a fresh Debian 12: it installs what is missing before building.
run:
	$(Q)sh host/install-deps.sh
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh host/make-run.sh "$(KERNEL)" "$(SUITE)" "$(FS)" "$(OUT)"

# Its part arm64 (tests/bench_arm64.sh) boots what make arm64 built and says n/a
# without it: bench does not build arm64 (the cross compiler, the arm64 packages).
bench: all $(O)/bm-trivial-init $(HISTORY_GEN)
	$(Q)BM=$(O)/bootmark RUNNER=$(O)/bootmark-runner BUILD=$(O) sh tests/bench.sh

deps:
	$(Q)sh host/install-deps.sh check

clean:
	rm -rf $(O)

.PHONY: all arm64 arm64-unit check check-unit check-layers check-image check-image-arm64 check-host check-trace check-trace-dd check-trace-bonnie check-trace-dbench check-trace-aio check-report check-compare check-e2e check-bisect \
	run bench deps \
	check-disk check-buses check-pxe check-pxe-uboot check-capture check-lava check-watchdog check-lab \
	check-faults \
	check-bench \
	check-verdicts check-procs check-outsafety check-sharedcache check-kernels check-distro check-arm64 clean fuzz \
	check-docs check-agree check-stats check-ci check-ci-confirm check-history history-accuracy check-rawio FORCE
FORCE:
.SECONDARY:
-include $(shell find $(O) -name '*.d' -type f 2>/dev/null)
