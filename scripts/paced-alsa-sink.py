#!/usr/bin/env python3
"""A sound card for headless speech-dispatcher tests: ALSA's file plugin pipes the PCM stream
here (`file "|paced-alsa-sink.py RATE OUT LOG"` in .asoundrc). It takes the bytes no faster than
a real card plays them (16-bit mono at RATE), appends them to OUT, and logs each piece's arrival
to LOG as `chunk WALLTIME OFFSET LENGTH NONZERO`, so tests and benchmarks can see when audio
reached the device and how much came after a given moment."""
import fcntl
import os
import sys
import time

rate, out_path, log_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
try:
    fcntl.fcntl(0, 1031, 4096)  # F_SETPIPE_SZ: a small pipe, so the writer cannot run far ahead
except OSError:
    pass
bytes_per_second = rate * 2
with open(out_path, "ab") as out, open(log_path, "a") as log:
    offset = out.tell()
    log.write(f"open {time.time():.6f} {rate}\n")
    log.flush()
    due = time.monotonic()
    while True:
        data = os.read(0, 1024)
        if not data:
            break
        now_wall, now = time.time(), time.monotonic()
        out.write(data)
        out.flush()
        nonzero = 1 if data.count(0) != len(data) else 0
        log.write(f"chunk {now_wall:.6f} {offset} {len(data)} {nonzero}\n")
        log.flush()
        offset += len(data)
        due = max(due, now) + len(data) / bytes_per_second
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
    log.write(f"close {time.time():.6f}\n")
