#!/usr/bin/env bash
# Compares the struct layouts declared in Sources/CSherpaOnnx/shim.h with sherpa-onnx's own
# header: every field's offset and every struct's size must match. Run it when changing the
# pinned sherpa-onnx version (Sources/NeuralVoices/NeuralCatalog.swift).
#   scripts/check-sherpa-abi.sh DIR     DIR holds sherpa-onnx/c-api/c-api.h, e.g. the include/
#                                        folder of the sherpa-onnx-core wheel
set -euo pipefail
include=$1
root=$(cd "$(dirname "$0")/.." && pwd)
shim=$root/Sources/CSherpaOnnx/shim.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One printf per field of every struct in the shim, and one for each struct's size.
awk '
    /^typedef struct [A-Za-z]+ \{/ { name = $3; next }
    /^\} [A-Za-z]+;/ && name != "" { printf "  printf(\"%s size %%zu\\n\", sizeof(%s));\n", name, name; name = ""; next }
    name != "" && /;/ {
        line = $0; sub(/;.*/, "", line); n = split(line, parts, /[ *]+/); field = parts[n]
        printf "  printf(\"%s.%s %%zu\\n\", offsetof(%s, %s));\n", name, field, name, field
    }
' "$shim" > "$tmp/body.c"
for side in real shim; do
    header="#include \"$shim\""
    [ "$side" = real ] && header='#include "sherpa-onnx/c-api/c-api.h"'
    printf '#include <stddef.h>\n#include <stdio.h>\n%s\nint main(void) {\n%s\n  return 0;\n}\n' "$header" "$(cat "$tmp/body.c")" > "$tmp/$side.c"
    cc -w -I"$include" -o "$tmp/$side" "$tmp/$side.c"
    "$tmp/$side" > "$tmp/$side.txt"
done
if diff "$tmp/real.txt" "$tmp/shim.txt"; then
    echo "check-sherpa-abi: $(wc -l < "$tmp/shim.txt") offsets and sizes match"
else
    echo "check-sherpa-abi: the shim's layout differs from $include (see above)" >&2
    exit 1
fi
