#!/usr/bin/env python3
"""Time from a python3-speechd client's speak() to the first non-zero sample at the sound
device, for each output module named, taking turns request by request in one server.

    first_sound.py SOCKET DEVICE_LOG RATE COUNT MODULE... -- TEXT...

DEVICE_LOG is what scripts/paced-alsa-sink.py writes: one line per piece of audio that reached
the device, with its wall-clock time and whether it held a non-zero sample. Prints one JSON
object: {module: {text: [milliseconds, ...]}}."""
import json
import sys
import threading
import time

import speechd

socket, log_path, rate, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
split = sys.argv.index("--")
modules, texts = sys.argv[5:split], sys.argv[split + 1:]


def first_nonzero_after(t0, offset):
    """The time of the first piece past byte `offset` holding sound, or None."""
    try:
        with open(log_path) as log:
            for line in log:
                f = line.split()
                if f[0] == "chunk" and f[4] == "1" and float(f[1]) >= t0:
                    return float(f[1])
    except OSError:
        pass
    return None


def device_bytes():
    try:
        with open(log_path) as log:
            return sum(int(l.split()[3]) for l in log if l.startswith("chunk"))
    except OSError:
        return 0


client = speechd.SSIPClient("spk-bench", address="unix_socket:" + socket, autospawn=False)
client.set_priority(speechd.Priority.MESSAGE)
client.set_language("en-US")  # espeak-ng's en-us voice in both modules
results = {m: {t: [] for t in texts} for m in modules}
for round_ in range(count + 1):  # the first round warms every module up and is not counted
    for text in texts:
        for module in modules:
            client.set_output_module(module)
            done = threading.Event()
            offset = device_bytes()
            t0 = time.time()
            client.speak(text, callback=lambda *a, **k: done.set(),
                         event_types=(speechd.CallbackType.END, speechd.CallbackType.CANCEL))
            first = None
            deadline = t0 + 20
            while first is None and time.time() < deadline:
                time.sleep(0.0005)
                first = first_nonzero_after(t0, offset)
            done.wait(30)
            # Let the device finish the message and go idle before the next request.
            quiet, last = 0, device_bytes()
            while quiet < 3:
                time.sleep(0.1)
                now = device_bytes()
                quiet, last = (quiet + 1, now) if now == last else (0, now)
            if round_ > 0 and first is not None:
                results[module][text].append((first - t0) * 1000)
client.close()
print(json.dumps(results))
