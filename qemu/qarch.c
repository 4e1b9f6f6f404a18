// SPDX-License-Identifier: MIT
/*
 * What differs between the guest architectures bootmark boots in QEMU: the
 * emulator, the machine and CPU, the kernel's console, and where the runner's
 * records go.  Everything else (the disk buses, the watchdog, the verdicts)
 * is the same.
 *
 * arm64 boots QEMU's virt machine with GICv3.  Its CPU under TCG is
 * neoverse-n1 (ARMv8.2): "max" also emulates pointer authentication with
 * the QARMA5 cipher, and the kernel signs every return, so a Debian 6.1
 * kernel reached its init after 7.1-7.4 s with max against 1.8-2.2 s with
 * neoverse-n1 or cortex-a72 (3 boots each, docs/arm64.md).  virt has one
 * PL011 the kernel can use (the second is the secure world's), so the
 * records take a virtio console, hvc0, which the runner opens once the
 * virtio_console module has made it.
 */
#include <string.h>

#include "kernel.h"
#include "qemu.h"

static const struct bm_qemu_arch arches[] = {
	{
		.name = "amd64", .bin = "qemu-system-x86_64", .machine = "q35",
		.tcg_cpu = BM_QEMU_TCG_CPU, .console = "ttyS0,115200", .results = "/dev/ttyS1",
		.bios = BM_QBOOT_ROM, .results_virtio = 0, .results_modules = "",
	},
	{
		.name = "arm64", .bin = "qemu-system-aarch64", .machine = "virt,gic-version=3",
		.tcg_cpu = "neoverse-n1", .console = "ttyAMA0,115200", .results = "/dev/hvc0",
		.bios = NULL, .results_virtio = 1, .results_modules = "virtio_console",
	},
};

const struct bm_qemu_arch *bm_qemu_arch_find(const char *name)
{
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

const struct bm_qemu_arch *bm_qemu_arch_host(void)
{
	const struct bm_qemu_arch *a = bm_qemu_arch_find(bm_host_arch());

	return a ? a : &arches[0];
}

const struct bm_qemu_arch *bm_qemu_arch_or_host(const struct bm_qemu_arch *a)
{
	return a ? a : bm_qemu_arch_host();
}
