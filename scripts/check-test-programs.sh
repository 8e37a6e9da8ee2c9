#!/usr/bin/env bash
# Checks that every program the tests and scripts run comes from a Debian package that
# scripts/install-deps.sh installs (or an Essential package every Debian system has), so a
# fresh machine set up by the scripts passes every test. Fails naming the programs that do not.
set -euo pipefail
cd "$(dirname "$0")/.."

# Programs the tests start (Fixture.run with a program's name, or a program's path under
# /usr/bin or /bin in quotes).
from_tests=$(grep -rhoE --exclude-dir='.build*' 'Fixture\.run\("[a-z_0-9.-]+"|"/(usr/)?bin/[a-z_0-9.-]+"' Tests Benchmarks 2>/dev/null \
    | sed -E 's/^Fixture\.run\("//; s/^"//; s/"$//; s#^/(usr/)?bin/##' | sort -u)
# Programs the scripts run (beyond bash builtins and swift itself, which is not a Debian package).
from_scripts="apt-get awk basename cat cc cp cut date debconf-set-selections dirname dpkg-query du grep head id install
ldd ls lv2info mkdir mktemp pgrep python3 rm sed sort sox strip tr wc"

packages=$(sed -n '/^packages=(/,/^)/p' scripts/install-deps.sh | sed -E 's/#.*//; s/packages=\(//; s/\)//' | tr -s ' \t\n' '\n' | sed '/^$/d')

# A package counts when install-deps.sh installs it or something that depends on it, or when
# every Debian system has it (Essential, or priority required).
installed_closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances $packages 2>/dev/null | grep -E '^\w' | sort -u)

missing=()
for program in $from_tests $from_scripts; do
    [ "$program" = env ] && continue
    # The system's programs only (not a pyenv shim or a ~/bin of this machine).
    path=$(PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin type -P "$program") || { missing+=("$program (not installed)"); continue; }
    real=$(readlink -f "$path")
    package=""
    # Debian 12 is usr-merged: dpkg may know a program by its /bin path.
    for candidate in "$real" "$path" "/bin/$program" "/usr/bin/$program" "/sbin/$program" "/usr/sbin/$program"; do
        package=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1 | cut -d, -f1) && [ -n "$package" ] && break
    done
    if [ -z "$package" ]; then missing+=("$program ($real belongs to no package)"); continue; fi
    status=$(dpkg-query -W -f='${Essential} ${Priority}' "$package" 2>/dev/null || true)
    case "$status" in yes*|*required) continue ;; esac
    grep -qx "$package" <<<"$installed_closure" && continue
    missing+=("$program (package $package)")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "check-test-programs: not installed by scripts/install-deps.sh: ${missing[*]}" >&2
    exit 1
fi
echo "check-test-programs: every program the tests and scripts run comes from a package the scripts install"
