#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Serves a console log to "bootmark capture" the ways a lab box does.

  feed.py tcp LOG PORTFILE   a console server on 127.0.0.1 that drops the
                             first connection part way (mid-line) and sends
                             the rest to the next one
  feed.py pty LOG NAMEFILE   a pseudo-terminal in raw mode: capture opens the
                             slave as a UART, we write the log to the master
  feed.py follow LOG PATH    a growing log: half of LOG at PATH, then PATH is
                             rotated (renamed) and the rest goes to a new PATH
  feed.py unplug LOG LINK    a USB UART unplugged and plugged in again: LINK (as
                             /dev/serial/by-id/...) names a pty; part way through
                             that pty goes away and LINK then names a new one
  feed.py stall LOG PORTFILE a console server whose box goes quiet: the first
                             part of LOG, then nothing on an open connection

The writer sends in small chunks at a lively pace; it exits after 60 s at
most (the test kills it earlier once capture has stopped).
"""
import os
import pty
import socket
import sys
import time
import tty

CHUNK = 4096


def trickle(write, data):
    for i in range(0, len(data), CHUNK):
        write(data[i:i + CHUNK])
        time.sleep(0.002)


def listen(portfile):
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(srv.getsockname()[1]))
    os.rename(portfile + ".tmp", portfile)
    return srv


def serve_tcp(data, portfile):
    cut = int(len(data) * 0.45)
    while data[cut:cut + 1] in (b"\n", b"\r"):  # drop mid-line
        cut += 1
    srv = listen(portfile)
    conn, _ = srv.accept()
    trickle(conn.sendall, data[:cut])
    conn.close()  # the console server restarts
    conn, _ = srv.accept()
    trickle(conn.sendall, data[cut:])
    conn.settimeout(60)
    try:
        conn.recv(1)  # until capture hangs up
    except OSError:
        pass


def serve_stall(data, portfile):
    srv = listen(portfile)
    conn, _ = srv.accept()
    trickle(conn.sendall, data[: int(len(data) * 0.3)])
    time.sleep(60)


def serve_pty(data, namefile):
    master, slave = pty.openpty()
    tty.setraw(slave)
    with open(namefile + ".tmp", "w") as f:
        f.write(os.ttyname(slave))
    os.rename(namefile + ".tmp", namefile)
    time.sleep(1)  # capture opens the slave
    trickle(lambda b: os.write(master, b), data)
    time.sleep(60)


def raw_pty(link):
    master, slave = pty.openpty()
    tty.setraw(slave)
    os.symlink(os.ttyname(slave), link + ".tmp")
    os.rename(link + ".tmp", link)
    return master, slave


def serve_unplug(data, link):
    cut = int(len(data) * 0.45)
    master, slave = raw_pty(link)
    time.sleep(1)  # capture opens the slave
    trickle(lambda b: os.write(master, b), data[:cut])
    time.sleep(1.5)  # capture reads what was sent
    os.close(master)
    os.close(slave)  # unplugged: capture's reads fail
    time.sleep(1)
    master, slave = raw_pty(link)
    trickle(lambda b: os.write(master, b), data[cut:])
    time.sleep(60)


def serve_follow(data, path):
    half = len(data) // 2
    with open(path + ".tmp", "wb") as f:
        f.write(data[:half])
    os.rename(path + ".tmp", path)
    time.sleep(1.5)
    os.rename(path, path + ".1")
    with open(path, "wb", buffering=0) as f:
        trickle(f.write, data[half:])
    time.sleep(60)


def main():
    kind, log, arg = sys.argv[1:4]
    data = open(log, "rb").read()
    {"tcp": serve_tcp, "pty": serve_pty, "follow": serve_follow, "unplug": serve_unplug,
     "stall": serve_stall}[kind](data, arg)


main()
