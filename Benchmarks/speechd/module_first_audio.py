#!/usr/bin/env python3
"""Time from SPEAK to the first 705 AUDIO piece holding a non-zero sample, talking to output
modules directly over speech-dispatcher's module protocol (no server, no sound device): what
each module itself adds. Modules take turns request by request.

    module_first_audio.py COUNT NAME=BINARY[:CONFIG] ... -- TEXT...

Prints one JSON object: {name: {text: [milliseconds, ...]}}."""
import json
import subprocess
import sys
import time

count = int(sys.argv[1])
split = sys.argv.index("--")
specs, texts = sys.argv[2:split], sys.argv[split + 1:]
SETTINGS = ("SET\npitch=0\npitch_range=0\nrate=0\nvolume=100\npunctuation_mode=none\nspelling_mode=off\n"
            "cap_let_recogn=none\nvoice=male1\nlanguage=en-US\nsynthesis_voice=NULL\n.\n")


def unescape(data):
    out, i = bytearray(), 0
    while i < len(data):
        if data[i] == 0x7d and i + 1 < len(data):
            out.append(data[i + 1] ^ 0x20); i += 2
        else:
            out.append(data[i]); i += 1
    return bytes(out)


class Module:
    def __init__(self, binary, config):
        self.p = subprocess.Popen([binary] + ([config] if config else []), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.send("INIT\n")
        self.reply()
        self.send("AUDIO\naudio_output_method=server\n.\n")
        self.reply(); self.reply()

    def send(self, text):
        self.p.stdin.write(text.encode()); self.p.stdin.flush()

    def reply(self):
        """Lines up to the one whose code is followed by a space (the end of a reply)."""
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("module exited")
            if len(line) < 4 or line[3:4] == b" ":
                return line

    def speak(self, text):
        self.send(SETTINGS)
        self.reply(); self.reply()
        self.send("SPEAK\n"); self.reply()
        t0 = time.perf_counter()
        self.send("<speak>%s</speak>\n.\n" % text)
        first = None
        while True:
            line = self.p.stdout.readline()
            if first is None and line.startswith(b"705-AUDIO\0"):
                if unescape(line[10:-1]).strip(b"\0"):
                    first = time.perf_counter()
            if line.startswith(b"702") or line.startswith(b"703"):
                return (first - t0) * 1000 if first else None

    def quit(self):
        self.send("QUIT\n"); self.p.wait(timeout=10)


modules = {}
for spec in specs:
    name, rest = spec.split("=", 1)
    binary, _, config = rest.partition(":")
    modules[name] = Module(binary, config or None)
results = {name: {t: [] for t in texts} for name in modules}
for round_ in range(count + 1):  # the first round warms up and is not counted
    for text in texts:
        for name, module in modules.items():
            ms = module.speak(text)
            if round_ > 0 and ms is not None:
                results[name][text].append(ms)
for module in modules.values():
    module.quit()
print(json.dumps(results))
