#!/usr/bin/python3
"""Runs a command with a pseudo-terminal as its standard input, for the tests of what a terminal changes
(orientd calibrate takes a pose on Enter only then). Standard output and error pass through unchanged; each line
read on this script's standard input is typed on the terminal. At end of input the command gets SIGINT, as from
Ctrl-C; the script exits with the command's status."""
import os
import pty
import signal
import subprocess
import sys

master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[1:], stdin=slave)
os.close(slave)
for line in sys.stdin:
    os.write(master, line.encode())
child.send_signal(signal.SIGINT)
status = child.wait()
sys.exit(status if status >= 0 else 128 - status)
