#!/usr/bin/env bash
# GamesmanOne (github.com/GamesCrafters/GamesmanOne, v1.3.0, commit 1969986), the
# GamesCrafters C solver, built and timed for side-by-side comparison with perfectplay.
#
# This script downloads nothing. Prepare WORK by hand first: a clone of GamesmanOne
# at v1.3.0 with its three submodules (lib/json-c, lib/xz, lib/lz4) checked out at
# the commits the superproject pins. Needs cmake, gcc with OpenMP, zlib1g-dev, GNU time.
#
# Usage: bench/gamesmanone.sh [WORK] build
#        bench/gamesmanone.sh [WORK] solve GAME VARIANT THREADS
# WORK defaults to /work/peers/gamesmanone. Examples:
#        bench/gamesmanone.sh solve quixo 1 2     # Quixo 4x4, 2 OpenMP threads
#        bench/gamesmanone.sh solve teeko 0 1     # Teeko, standard rule, 1 thread
# solve starts from an empty data/ each time and prints the wall seconds, the peak
# RSS and the value of the start position.
set -euo pipefail

WORK=/work/peers/gamesmanone
if [[ $# -gt 0 && -d $1 ]]; then WORK=$(cd "$1" && pwd); shift; fi
BIN=$WORK/bin/gamesman

quiet() {  # runs a build step, its output to build.log
    "$@" >>"$WORK/build.log" 2>&1 || { echo "failed: $*; see $WORK/build.log" >&2; exit 1; }
}

build() {  # idempotent: each step is skipped once its output exists
    cd "$WORK"
    local flags=(-DBUILD_SHARED_LIBS=OFF "-DCMAKE_INSTALL_PREFIX=$WORK/res" -DCMAKE_BUILD_TYPE=Release)
    local lib src
    # Debian's json-c, liblzma and liblz4 are too old: build the pinned submodules into res/.
    for lib in json-c:lib/json-c xz:lib/xz lz4:lib/lz4/build/cmake; do
        src=${lib#*:}; lib=${lib%%:*}
        [[ -f res/.built-$lib ]] && continue
        quiet cmake -S "$src" -B "lib-build/$lib" "${flags[@]}"
        quiet cmake --build "lib-build/$lib" -j "$(nproc)"
        quiet cmake --install "lib-build/$lib"
        touch "res/.built-$lib"
    done
    [[ -f build/CMakeCache.txt ]] || quiet cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
    quiet cmake --build build -j "$(nproc)"  # Release, -march=native, LTO, OpenMP
    echo "built $BIN"
}

solve() {  # GAME VARIANT THREADS
    local game=$1 variant=$2 threads=$3
    [[ -x $BIN ]] || build
    local run=$WORK/runs/$game-$variant-t$threads
    rm -rf "$run" && mkdir -p "$run" && cd "$run"  # fresh relative data/
    OMP_NUM_THREADS=$threads /usr/bin/time -v -o time.txt "$BIN" solve "$game" "$variant" >solve.log 2>&1 ||
        { echo "solve failed; see $run/solve.log" >&2; return 1; }
    local wall rss start
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
        for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' time.txt)
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' time.txt)
    echo "$game variant $variant, $threads thread(s): wall ${wall} s, peak RSS ${rss} KiB"
    # The start value, for games with a UWAPI (getstart/query); fsvp has none.
    start=$("$BIN" getstart "$game" "$variant" 2>/dev/null | sed -n 's/.*"position": "\([^"]*\)".*/\1/p') || true
    [[ -n $start ]] && "$BIN" query "$game" "$variant" "$start" |
        sed -n 's/^{ *"position": "\([^"]*\)", *"autoguiPosition": "[^"]*", *"positionValue": "\([a-z]*\)", *"remoteness": \([0-9-]*\).*/start \1: \2, remoteness \3/p'
    grep -E '^(Begin solving|Finished solving all)' solve.log || true
}

case ${1:-} in
    build) build ;;
    solve) [[ $# -eq 4 ]] || { echo "usage: $0 [WORK] solve GAME VARIANT THREADS" >&2; exit 2; }
           solve "$2" "$3" "$4" ;;
    *) sed -n '9,15p' "$0" >&2; exit 2 ;;
esac
