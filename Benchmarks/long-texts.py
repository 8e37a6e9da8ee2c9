#!/usr/bin/env python3
"""Peak memory and wall time of `spkhost render` for long texts, per voice (BENCHMARKS.md,
"Long texts"). The text is the benchmarks' 500-word prose repeated in paragraphs; the output is
FLAC at 48 kHz, removed after each run. Peak RSS is the kernel's count for the process (wait4).

  Benchmarks/long-texts.py SPKHOST --voice spk.espeak-ng.en-us --words 500 5000 20000 100000
  (LV2_PATH must point at the bundles to measure, e.g. the release ones Benchmarks/run.sh stages)
"""
import argparse, json, os, re, sys, tempfile, time

def five_hundred_words():
    source = os.path.join(os.path.dirname(__file__), "..", "Sources", "LV2Host", "BenchmarkTexts.swift")
    text = open(source, encoding="utf-8").read()
    body = re.search(r'fiveHundredWords = """\n(.*?)"""', text, re.S).group(1)
    return " ".join(body.split())

def measure(spkhost, voice, words, directory):
    text = "\n\n".join([five_hundred_words()] * max(words // 500, 1))
    source = os.path.join(directory, "text.txt")
    with open(source, "w", encoding="utf-8") as f:
        f.write(text)
    output = os.path.join(directory, "out.flac")
    start = time.monotonic()
    pid = os.spawnv(os.P_NOWAIT, spkhost, [spkhost, "render", "--quiet", "--voice", voice, "--input", source, "--output", output])
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit(f"long-texts: spkhost render failed for {voice}, {words} words (status {status})")
    audio = float(os.popen(f"soxi -D '{output}'").read())
    os.unlink(output)
    return {"voice": voice, "words": words, "peakRSSMB": round(usage.ru_maxrss / 1024, 1),
            "wallSeconds": round(wall, 2), "audioSeconds": round(audio, 1), "realTimeFactor": round(wall / audio, 4)}

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("spkhost")
    parser.add_argument("--voice", action="append", required=True)
    parser.add_argument("--words", type=int, nargs="+", default=[500, 5000, 20000, 100000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="spk-long-") as directory:
        for voice in args.voice:
            for words in args.words:
                print(json.dumps(measure(args.spkhost, voice, words, directory)), flush=True)

if __name__ == "__main__":
    main()
