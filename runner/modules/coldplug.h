/* SPDX-License-Identifier: MIT */
/*
 * Coldplug, as udev does it at boot, for the test disk's path only: the
 * devices already on the pci, virtio and scsi buses that no driver holds
 * get the image's modules whose aliases match their modalias (PCI: mass
 * storage controllers, class 0x01, only).  A controller's driver adds the
 * next bus's devices (an HBA's SCSI targets, a virtio-pci function's
 * virtio device), so the caller repeats passes while it waits for the
 * disk.  The sysfs root is a parameter so tests run on a fixture tree.
 */
#ifndef BM_RUNNER_COLDPLUG_H
#define BM_RUNNER_COLDPLUG_H

#include <stddef.h>

#include "modload.h"

/* A PCI storage controller without a driver in the image. */
struct coldplug_orphan {
	char addr[16];          /* 0000:00:03.0 */
	unsigned vendor, device, class;
};

#define COLDPLUG_ORPHANS 8

struct coldplug {
	const struct bm_moddb *db;  /* the image's whole module index */
	const char *sys;            /* "/sys" */
	mod_load_fn load;           /* NULL: finit_module (modload_one) */
	char loaded[512];           /* modules the passes loaded, comma list */
	char want[256];             /* modules whose alias matched a device */
	char drivers[128];          /* those of want that loaded (HELLO coldplug=) */
	struct coldplug_orphan orphan[COLDPLUG_ORPHANS];
	unsigned norphans;
	unsigned passes;
};

void coldplug_init(struct coldplug *cp, const struct bm_moddb *db, const char *sys);
/*
 * One pass over the three buses: the modules for every device without a
 * driver, planned with what they need and loaded (modules already live,
 * /sys/module/<name>, are skipped).  Returns how many modules it loaded
 * (0: nothing new), or the first failure's -errno with the reason in err.
 * PCI storage controllers no image module matches are kept in cp->orphan.
 */
int coldplug_pass(struct coldplug *cp, char *err, size_t errlen);
/* The modules passes loaded that no other of them needs: the devices'
 * drivers ("ahci,nvme"), into buf ("" when none loaded). */
void coldplug_drivers(const struct coldplug *cp, char *buf, size_t len);
/* "; no driver in the image for PCI storage controller 1000:0054 (class
 * 0x010000) at 0000:00:03.0" for each orphan, appended to buf. */
void coldplug_describe_orphans(const struct coldplug *cp, char *buf, size_t len);

#endif
