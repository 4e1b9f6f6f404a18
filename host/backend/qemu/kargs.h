/* SPDX-License-Identifier: MIT */
/*
 * Command-line words every QEMU boot adds that remove work not under test
 * (docs/bench.md, "Work removed from the kernel's start-up"): the crypto
 * self-tests, and three initcalls that ask for a crypto template instance
 * by module (hmac(sha256), hmac(sha1), cbc(aes)) and so wait, in the
 * usermode helper, for the whole initramfs to be unpacked: the unpack,
 * async since 5.13, then runs beside the other initcalls, not before them.
 * A header of its own, without includes, so that tests/faults.sh takes the
 * words from here (cc -E) rather than a copy.
 */
#ifndef BM_QEMU_KARGS_H
#define BM_QEMU_KARGS_H

#define BM_BOOT_KARGS "cryptomgr.notests initcall_blacklist=crypto_kdf108_init,init_encrypted " \
		      "ipv6.disable=1"

#endif
