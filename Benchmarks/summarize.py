#!/usr/bin/env python3
"""Summarizes the text output of `swift package benchmark` (SpkBench) into the tables of
BENCHMARKS.md, with each goal of issue 5 marked met or missed.

    python3 summarize.py .build/benchmarks.txt
"""
import math
import re
import sys

RATE = 48000


def parse(path):
    """{benchmark name: {metric: {p0, p25, p50, p75, p90, p99, p100, samples}}}"""
    results, name, current = {}, None, None
    columns = None
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("╒"):
            current = results.setdefault(name, {})
            continue
        if line.startswith("│"):
            cells = [c.strip() for c in line.strip("│").split("│")]
            if cells[0] == "Metric":
                columns = [c.lower() for c in cells[1:]]
                continue
            try:
                values = [float(c.replace(",", "")) for c in cells[1:]]
            except ValueError:
                continue
            current[cells[0]] = dict(zip(columns, values))
            continue
        if line and not line[0] in "╞├╘═" and not line.startswith(("Host ", "#", "Baseline", "Running", "Warning", "Note")):
            name = line.strip()
    return results


def get(results, name, metric, column):
    return results.get(name, {}).get(metric, {}).get(column)


def fmt(value, digits=0):
    return "–" if value is None else f"{value:.{digits}f}"


def verdict(ok):
    return "met" if ok else "**missed**"


def main(path):
    r = parse(path)
    voices = ["espeak-ng en-us", "flite slt", "flite kal16"]
    texts = ["word", "sentence", "paragraph"]
    blocks = [64, 128, 256, 1024]

    print("### First audio (48 kHz, 200 requests each; blocks counted from the request's block, 1 = the next)\n")
    print("| voice | text | block | Started p50/p99 | first frame p50/p99/max | first sound p50/p99 (blocks) | first sound ms p50/p99 | engine's first chunk ms p50/p99 | goal |")
    print("|---|---|---|---|---|---|---|---|---|")
    for voice in voices:
        for text in texts:
            chunk = f"Engine first chunk {voice} {text}"
            c50 = get(r, chunk, "Adapter first chunk (us)", "p50")
            c99 = get(r, chunk, "Adapter first chunk (us)", "p99")
            for block in blocks:
                n = f"First audio {voice} {text} {block}"
                if n not in r:
                    continue
                period = block / RATE * 1000
                ff99 = get(r, n, "First frame (blocks)", "p99")
                if voice == "flite slt":
                    allowed = math.ceil((c99 or 0) / 1000 / period) + 1
                    goal = f"{verdict(ff99 is not None and ff99 <= allowed)} (≤ {allowed})"
                else:
                    goal = verdict(ff99 is not None and ff99 <= 1)
                print(f"| {voice} | {text} | {block} "
                      f"| {fmt(get(r, n, 'Started (blocks)', 'p50'))} / {fmt(get(r, n, 'Started (blocks)', 'p99'))} "
                      f"| {fmt(get(r, n, 'First frame (blocks)', 'p50'))} / {fmt(ff99)} / {fmt(get(r, n, 'First frame (blocks)', 'p100'))} "
                      f"| {fmt(get(r, n, 'First sound (blocks)', 'p50'))} / {fmt(get(r, n, 'First sound (blocks)', 'p99'))} "
                      f"| {fmt((get(r, n, 'First sound (us)', 'p50') or 0) / 1000, 1)} / {fmt((get(r, n, 'First sound (us)', 'p99') or 0) / 1000, 1)} "
                      f"| {fmt((c50 or 0) / 1000, 2)} / {fmt((c99 or 0) / 1000, 2)} | {goal} |")

    print("\n### Engines' own first chunk (ms p50 / p99, 200 each)\n")
    print("| voice | text | spk's adapter | C API |")
    print("|---|---|---|---|")
    for voice in voices:
        for text in texts:
            n = f"Engine first chunk {voice} {text}"
            if n not in r:
                continue
            a = [get(r, n, "Adapter first chunk (us)", c) for c in ("p50", "p99")]
            c = [get(r, n, "C API first chunk (us)", c) for c in ("p50", "p99")]
            print(f"| {voice} | {text} | {fmt((a[0] or 0) / 1000, 2)} / {fmt((a[1] or 0) / 1000, 2)} "
                  f"| {fmt((c[0] or 0) / 1000, 2)} / {fmt((c[1] or 0) / 1000, 2)} |")

    print("\n### run() while speaking (48 kHz)\n")
    print("| voice | block | budget µs | run() ns p50/p99/max | share of budget p50/p99/max | allocations per call (max) | goal (64 frames: p99 < 1 %, no allocation) |")
    print("|---|---|---|---|---|---|---|")
    for voice in voices:
        for block in blocks:
            n = f"run() {voice} {block}"
            if n not in r:
                continue
            share = [get(r, n, "run() / budget (ppm)", c) for c in ("p50", "p99", "p100")]
            allocs = get(r, n, "Allocations per run()", "p100")
            ok = share[1] is not None and share[1] < 10000 and allocs == 0
            goal = verdict(ok) if block == 64 else ("no allocation" if allocs == 0 else "**allocates**")
            print(f"| {voice} | {block} | {block / RATE * 1e6:.0f} "
                  f"| {fmt(get(r, n, 'run() (ns)', 'p50'))} / {fmt(get(r, n, 'run() (ns)', 'p99'))} / {fmt(get(r, n, 'run() (ns)', 'p100'))} "
                  f"| {fmt((share[0] or 0) / 1e4, 3)} % / {fmt((share[1] or 0) / 1e4, 3)} % / {fmt((share[2] or 0) / 1e4, 2)} % "
                  f"| {fmt(allocs)} | {goal} |")

    print("\n### Throughput: 500 words offline (ms, median of the iterations; ratios are per iteration, median)\n")
    print("| voice | C API | spk adapter | plugin at engine rate | plugin at 48 kHz | renderer at 48 kHz (no plugin) | command line | plugin 48 kHz ÷ C API | plugin engine rate ÷ C API | adapter ÷ C API | plugin 48 kHz ÷ command line | goal ≥ 0.95 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for voice in voices:
        n = f"Throughput {voice}"
        if n not in r:
            continue
        ms = lambda m: fmt(get(r, n, m, "p50"))
        ratio = lambda m: (get(r, n, m, "p50") or 0) / 1000
        at48, native = ratio("Plugin 48 kHz / C API (per mille)"), ratio("Plugin engine rate / C API (per mille)")
        print(f"| {voice} | {ms('C API (ms)')} | {ms('Adapter (ms)')} | {ms('Plugin engine rate (ms)')} | {ms('Plugin 48 kHz (ms)')} "
              f"| {ms('Renderer 48 kHz (ms)')} | {ms('Command line (ms)')} | {at48:.2f} | {native:.2f} "
              f"| {ratio('Adapter / C API (per mille)'):.2f} | {ratio('Plugin 48 kHz / command line (per mille)'):.2f} "
              f"| 48 kHz {verdict(at48 >= 0.95)}; engine rate {verdict(native >= 0.95)} |")

    print("\n### Instances speaking at once (one audio thread, 128-frame periods = 2667 µs, 10 s measured)\n")
    print("| voice | instances | all run() p50/p99/max of the period | periods over budget | stall frames p99/max | start ms p50/p99 | within budget |")
    print("|---|---|---|---|---|---|---|")
    best = {}
    for voice in voices:
        for count in [1, 8, 16, 32, 48, 64, 96, 128]:
            n = f"Instances {voice} {count}"
            if n not in r:
                continue
            share = [get(r, n, "All run() / budget (ppm)", c) for c in ("p50", "p99", "p100")]
            stall = [get(r, n, "Stall (frames)", c) for c in ("p99", "p100")]
            start = [get(r, n, "Start (frames)", c) for c in ("p50", "p99")]
            # Within budget: the audio thread's run() calls fit the period (p99), no request ran
            # out of audio (stall), and the workers keep up with new requests (start p99 < 0.5 s).
            ok = share[1] is not None and share[1] < 1e6 and (stall[1] or 0) <= 128 and (start[1] or 0) < RATE / 2
            if ok:
                best[voice] = max(best.get(voice, 0), count)
            print(f"| {voice} | {count} | {fmt((share[0] or 0) / 1e4, 2)} % / {fmt((share[1] or 0) / 1e4, 2)} % / {fmt((share[2] or 0) / 1e4, 1)} % "
                  f"| {fmt(get(r, n, 'Periods over budget', 'p100'))} | {fmt(stall[0])} / {fmt(stall[1])} "
                  f"| {fmt((start[0] or 0) / RATE * 1000, 1)} / {fmt((start[1] or 0) / RATE * 1000, 1)} | {'yes' if ok else 'no'} |")
    print()
    for voice in voices:
        if voice in best:
            print(f"- {voice}: {best[voice]} instances within budget (goal ≥ 16: {verdict(best[voice] >= 16)})")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".build/benchmarks.txt")
