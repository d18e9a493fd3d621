#!/usr/bin/env bash
# Side-by-side table builds: dicelens against the fastest public solvers, measured in the same
# run with paired, alternating runs (peer, ours, peer, ours, ...), 2 threads and 1.
#
#   benches/peers.sh [RUNS]            (default 7 pairs per rule set and thread count)
#
# Peers (never committed here; built from their public repositories at pinned commits):
#   dlangk/yatzy          commit 35290bf  `yatzy-precompute --force`  (Scandinavian Yatzy)
#   jonstites/easy-yahtzee commit 8499c3f `easy-yahtzee build`        (American, free joker)
# Point YATZY_REPO and EASY_YAHTZEE_REPO at clones (or git directories) of them; by default
# the script looks where the project's `fetch` tool puts them (/work/.mirror/OWNER+NAME/repo).
# Each peer is built with its own settings (target-cpu=native). A peer that cannot be found or
# built is skipped with a note on how to get it.
#
# Output (stdout): one line per comparison with the median wall time of each side and the
# paired ratios ours/peer (min, median, max). Progress goes to stderr.
set -euo pipefail

RUNS="${1:-7}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${PEERS_WORK:-${TMPDIR:-/tmp}/dicelens-peers}"
YATZY_REPO="${YATZY_REPO:-/work/.mirror/dlangk+yatzy/repo}"
EASY_YAHTZEE_REPO="${EASY_YAHTZEE_REPO:-/work/.mirror/jonstites+easy-yahtzee/repo}"
YATZY_COMMIT=35290bf
EASY_COMMIT=8499c3f
mkdir -p "$WORK"

note() { echo "peers: $*" >&2; }

# checkout REPO COMMIT DIR: a work tree of REPO at COMMIT in DIR; false if REPO is missing.
checkout() {
    local repo="$1" commit="$2" dir="$3"
    [ -e "$repo" ] || return 1
    if [ ! -d "$dir/.git" ]; then
        rm -rf "$dir"
        git clone -q "$repo" "$dir" || return 1
    fi
    git -C "$dir" checkout -q "$commit" || return 1
}

YATZY_BIN=""
if checkout "$YATZY_REPO" "$YATZY_COMMIT" "$WORK/yatzy"; then
    note "building dlangk/yatzy at $YATZY_COMMIT"
    if (cd "$WORK/yatzy/solver" && CARGO_TARGET_DIR="$WORK/target-yatzy" \
        cargo build --release --features full --bin yatzy-precompute >&2); then
        YATZY_BIN="$WORK/target-yatzy/release/yatzy-precompute"
    fi
else
    note "dlangk/yatzy not found at $YATZY_REPO: clone https://github.com/dlangk/yatzy"
    note "  (commit $YATZY_COMMIT) and set YATZY_REPO to it; skipping the yatzy comparison"
fi

EASY_BIN=""
if checkout "$EASY_YAHTZEE_REPO" "$EASY_COMMIT" "$WORK/easy-yahtzee"; then
    note "building jonstites/easy-yahtzee at $EASY_COMMIT"
    if (cd "$WORK/easy-yahtzee" && CARGO_TARGET_DIR="$WORK/target-easy" \
        cargo build --release -p yahtzee-cli >&2); then
        EASY_BIN="$WORK/target-easy/release/easy-yahtzee"
    fi
else
    note "jonstites/easy-yahtzee not found at $EASY_YAHTZEE_REPO: clone"
    note "  https://github.com/jonstites/easy-yahtzee (commit $EASY_COMMIT) and set"
    note "  EASY_YAHTZEE_REPO to it; skipping the yahtzee comparison"
fi

note "building dicelens"
(cd "$ROOT" && cargo build --release >&2)
OURS="$ROOT/target/release/dicelens"

# wall CMD...: runs CMD in $WORK/run (output discarded), prints its wall time in seconds.
wall() {
    mkdir -p "$WORK/run"
    local start end
    start=$(date +%s.%N)
    (cd "$WORK/run" && "$@" >/dev/null 2>&1)
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

# compare LABEL THREADS PEER_CMD -- OURS_CMD: RUNS alternating pairs, then the summary line.
compare() {
    local label="$1" threads="$2"
    shift 2
    local peer=() ours=()
    while [ "$1" != "--" ]; do peer+=("$1"); shift; done
    shift
    ours=("$@")
    local p o ps=() os=() ratios=()
    # One unmeasured run of each first (page cache, CPU frequency).
    RAYON_NUM_THREADS="$threads" wall "${peer[@]}" >/dev/null
    RAYON_NUM_THREADS="$threads" wall "${ours[@]}" >/dev/null
    for _ in $(seq "$RUNS"); do
        p=$(RAYON_NUM_THREADS="$threads" wall "${peer[@]}")
        o=$(RAYON_NUM_THREADS="$threads" wall "${ours[@]}")
        ps+=("$p")
        os+=("$o")
        ratios+=("$(echo "$o / $p" | bc -l)")
        note "$label, $threads thread(s): peer $p s, ours $o s"
    done
    python3 - "$label" "$threads" "${#ps[@]}" "${ps[@]}" "${os[@]}" "${ratios[@]}" <<'EOF'
import statistics, sys
label, threads, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
vals = [float(x) for x in sys.argv[4:]]
peer, ours, ratio = vals[:n], vals[n:2 * n], vals[2 * n:]
print(f"{label:<40} threads {threads}  peer {statistics.median(peer):.3f} s  "
      f"ours {statistics.median(ours):.3f} s  ours/peer {min(ratio):.2f} / "
      f"{statistics.median(ratio):.2f} / {max(ratio):.2f} (min/median/max of {n} pairs)")
EOF
}

echo "# dicelens tables build against public solvers, $(date -u +%Y-%m-%d), $(nproc) CPUs"
for threads in 2 1; do
    if [ -n "$YATZY_BIN" ]; then
        compare "yatzy vs dlangk/yatzy" "$threads" "$YATZY_BIN" --force -- \
            "$OURS" tables build --force --rules yatzy --tables "$WORK/tables"
    fi
    if [ -n "$EASY_BIN" ]; then
        for rules in yahtzee-free yahtzee; do
            compare "$rules vs jonstites/easy-yahtzee" "$threads" \
                "$EASY_BIN" build -o "$WORK/run/scores.bin" -- \
                "$OURS" tables build --force --rules "$rules" --tables "$WORK/tables"
        done
    fi
done
