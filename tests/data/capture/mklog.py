#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds the console log of tests/capture.sh from two real QEMU boots.

usage: mklog.py BOOT1_DIR BOOT2_DIR OUTDIR

Writes OUTDIR/combined.log: firmware noise (CR line ends), then each boot as
a box with one shared UART shows it: a kernel banner, kernel messages, the
boot's console.log with its results.log records interleaved at random
positions (order kept), binary noise lines; boot 2 with CRLF line ends.
Damage: in boot 1 the first copies of three R records (a flipped byte, a
line cut in half, a kernel message printed into it: all come back in the
repeat); in boot 2 one heartbeat (lost: never repeated) and the repeat copy
of one R record.  Also OUTDIR/first.log (only boot 1: a complete capture),
OUTDIR/intact.txt ("run seq" of every record line left whole) and
OUTDIR/damaged.txt ("run seq why" of every damaged one).
"""
import os
import random
import sys

rnd = random.Random(20261130)


def noise():
    # no '@' (no marker), no line ends: one line of garbage
    n = rnd.randint(40, 300)
    return bytes(rnd.choice([b for b in range(256) if b not in (0x0a, 0x0d, 0x40)])
                 for _ in range(n))


def kmsg(t):
    return b"[%5d.%06d] ata%d: SATA link down (SStatus 0 SControl 300)" % (
        int(t), rnd.randint(0, 999999), rnd.randint(1, 6))


def fields(line):
    p = line.split(b" ")
    return p[1].decode(), int(p[2]), p[3].decode()


def flip(line):
    # a byte of a value turned into another printable one: bad crc
    lo, hi = line.index(b"=") + 1, line.rindex(b" #")
    while True:
        i = rnd.randrange(lo, hi)
        if line[i:i + 1] not in (b" ", b"%", b"="):
            break
    c = line[i] ^ 0x01
    if c in (0x20, 0x25, 0x40, 0x3d) or c < 0x21 or c > 0x7e:
        c = 0x5a if line[i] != 0x5a else 0x59
    return line[:i] + bytes([c]) + line[i + 1:], "bad crc"


def cut(line):
    return line[: line.index(b"=") + (line.rindex(b" #") - line.index(b"=")) // 2], "truncated"


def printk_into(line):
    i = line.index(b" ", line.index(b"=")) + 1
    return line[:i] + kmsg(3.0) + b" " + line[i:], "bad crc"


def boot(bdir, t0, damage):
    con = open(os.path.join(bdir, "console.log"), "rb").read().replace(b"\r\n", b"\n")
    recs = open(os.path.join(bdir, "results.log"), "rb").read().splitlines()
    cons = [b"[    0.000000] Linux version 6.1.0-53-amd64 (debian-kernel@lists.debian.org) "
            b"(gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.0-53"]
    cons += [kmsg(t0 + 0.1 * i) for i in range(3)] + con.split(b"\n")
    cons += [kmsg(t0 + 5 + i) for i in range(40)]
    cons += [noise() for _ in range(4)]
    # the order of each list stays: kernel lines can come anywhere between records
    head, tail = cons[:4], cons[4:]
    rnd.shuffle(tail)
    cons = head + tail
    intact, damaged, out = set(), [], list(cons[:4])
    plan = damage(recs)
    ci, ri = 4, 0
    while ci < len(cons) or ri < len(recs):
        if ri < len(recs) and (ci >= len(cons) or rnd.random() < 0.85):
            line = recs[ri]
            if ri in plan:
                bad, why = plan[ri](line)
                run, seq, _ = fields(line)
                damaged.append("%s %d %s" % (run, seq, why))
                out.append(bad)
            else:
                run, seq, _ = fields(line)
                intact.add("%s %d" % (run, seq))
                out.append(line)
            ri += 1
        else:
            out.append(cons[ci])
            ci += 1
    return out, intact, damaged


def damage1(recs):
    rs = [i for i, l in enumerate(recs) if fields(l)[2] == "R"]
    first = rs[: len(rs) // 2]  # the repeat block is the second half
    a, b, c = rnd.sample(first, 3)
    return {a: flip, b: cut, c: printk_into}


def damage2(recs):
    beats = [i for i, l in enumerate(recs) if fields(l)[2] == "B"]
    rs = [i for i, l in enumerate(recs) if fields(l)[2] == "R"]
    return {rnd.choice(beats): flip, rnd.choice(rs[len(rs) // 2:]): flip}


def main():
    b1, b2, od = sys.argv[1:4]
    pre = [b"SeaBIOS (version 1.16.2-debian-1.16.2-1)", noise(), b"iPXE (http://ipxe.org) 00:03.0",
           b"Booting from ROM..."]
    l1, i1, d1 = boot(b1, 1.0, damage1)
    l2, i2, d2 = boot(b2, 1.0, damage2)
    first = b"".join(x + b"\r" for x in pre) + b"".join(x + b"\n" for x in l1)
    with open(os.path.join(od, "first.log"), "wb") as f:
        f.write(first)
    with open(os.path.join(od, "combined.log"), "wb") as f:
        f.write(first)
        f.write(b"[   35.000000] reboot: Restarting system\n" + noise() + b"\n")
        f.write(b"".join(x + b"\r\n" for x in l2))
    with open(os.path.join(od, "intact.txt"), "w") as f:
        f.write("".join(x + "\n" for x in sorted(i1 | i2)))
    with open(os.path.join(od, "damaged.txt"), "w") as f:
        f.write("".join(x + "\n" for x in sorted(d1 + d2)))


main()
