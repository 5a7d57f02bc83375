#!/usr/bin/env python3
"""pty_session.py — drives `spvi debug` through a pseudo-terminal, as a person at a terminal would:
spvi then uses libedit for the prompt (line editing, history). Checks the prompt, a command's
output, history recall with the up-arrow key (ESC [ A), and quit.

usage: pty_session.py SPVI MODULE.spv ARG...   (exit 0 on success, 1 with a message otherwise)
The expected values are worked out by hand from tests/debug/calls.cl (see run.sh).
"""
import os, pty, select, sys, time

def read_until(fd, needle, timeout=10.0):
    buf = b""
    end = time.time() + timeout
    while needle not in buf:
        left = end - time.time()
        if left <= 0:
            raise SystemExit("pty session: timed out waiting for %r; got %r" % (needle, buf[-400:]))
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        buf += chunk
    if needle not in buf:
        raise SystemExit("pty session: %r never came; got %r" % (needle, buf[-400:]))
    return buf

def main():
    spvi, args = sys.argv[1], sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(spvi, [spvi, "debug"] + args)
    # stopped before the first instruction of work-item (0,0,0)
    read_until(fd, b"(spvi 0,0,0")
    os.write(fd, b"print get_global_id(0) + 40\r")
    out = read_until(fd, b"40")          # the value of 0 + 40
    os.write(fd, b"workitem 3\r")
    read_until(fd, b"(spvi 3,0,0")
    os.write(fd, b"\x1b[A\x1b[A\r")      # two steps back in the history: the print command again
    out = read_until(fd, b"43")          # now 3 + 40
    os.write(fd, b"quit\r")
    _, status = os.waitpid(pid, 0)
    if not os.WIFEXITED(status):
        raise SystemExit("pty session: spvi did not exit normally")
    print("pty session: ok")

if __name__ == "__main__":
    main()
