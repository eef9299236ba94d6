#!/usr/bin/env bash
# regen_part.sh -- solves one part of a split solve again, from the
# question its journal states, and compares the SHA-256 of the part it
# writes with the journal's: a check that a claim resting on parts not in
# the repository can be remade, part by part, byte for byte.
#
# A journal (DIR/verified.txt, written by `rulelab verify DIR` or the
# join at the end of `rulelab solve --split`) opens with the question
# ("# variant", "# position", "# plies") and states the certificate
# format of the lines below it ("# format N"). Format 2 parts are a
# function of the question and the format alone, so any build that
# writes format 2, on any --threads and --mb, must make the same bytes.
# Format 1 parts (and journals without a header, from builds before
# 2026-12-05) were a build's bytes: they are refused here (exit 2); see
# experiments/proofs/README.md for how to reproduce their answer.
#
# Usage: scripts/regen_part.sh JOURNAL PART [--bin PATH] [--threads T]
#                              [--mb X] [--keep DIR]
#   PART       part-IIIII.disproof, or its index IIIII
#   --bin      the rulelab to run (default: build/rulelab beside scripts/)
#   --threads  threads of the solve (default 1); --mb its table (256)
#   --keep     write the part into DIR and keep it (default: a temporary
#              directory, removed)
# Prints one line: "PART: same SHA-256 as JOURNAL (...)" (exit 0) or
# "PART: DIFFERS: ..." (exit 1); usage and journal faults exit 2.
set -u
die() { echo "regen_part.sh: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: regen_part.sh JOURNAL PART [--bin PATH] [--threads T] [--mb X] [--keep DIR]"
journal=$1 part=$2
shift 2
bin="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/rulelab"
threads=1 mb=256 keep=
while [ $# -gt 0 ]; do
    case $1 in
    --bin) bin=${2:?--bin needs a path} ;;
    --threads) threads=${2:?--threads needs a number} ;;
    --mb) mb=${2:?--mb needs a number} ;;
    --keep) keep=${2:?--keep needs a directory} ;;
    *) die "unknown option '$1': see the usage at the top of this script" ;;
    esac
    shift 2
done
[ -r "$journal" ] || die "$journal cannot be read: give a split's verified.txt"
[ -x "$bin" ] || die "$bin is not an executable rulelab: build it or give --bin PATH"
case $part in
*[!0-9]*) name=$part ;;
*) name=$(printf 'part-%05d.disproof' "$((10#$part))") ;;
esac
[[ $name =~ ^part-([0-9]{5})\.disproof$ ]] \
    || die "'$part' is no part name: give part-IIIII.disproof or IIIII"
index=$((10#${BASH_REMATCH[1]}))

header() { sed -n "s/^# $1 //p" "$journal" | head -n 1; }
variant=$(header variant) position=$(header position) plies=$(header plies)
[ -n "$variant" ] && [ -n "$position" ] && [ -n "$plies" ] \
    || die "$journal states no question (# variant, # position, # plies): a journal of a build before 2026-12-05, whose parts no build remakes byte for byte; see experiments/proofs/README.md"
# The part's last line, and the format stated above it.
read -r format want < <(awk -v n="$name" '/^# format /{f=$3} $1==n{w=$2; g=f} END{print (g==""?"none":g), w}' "$journal")
[ -n "${want:-}" ] || die "$journal names no $name"
[ "$format" = 2 ] \
    || die "$name is of certificate format $format in $journal, whose bytes were a build's, not the question's: no build remakes them (see experiments/proofs/README.md)"

out=${keep:-$(mktemp -d)}
log=$(mktemp)
trap 'rm -f "$log"; [ -n "$keep" ] || rm -rf "$out"' EXIT
start=$(date +%s%N)
if ! "$bin" solve "$variant" --position "$position" --plies "$plies" \
    --split "$out" --part "$index" --threads "$threads" --mb "$mb" >"$log" 2>&1; then
    echo "$name: DIFFERS: the solve failed: $(tail -n 1 "$log")"
    exit 1
fi
ms=$((($(date +%s%N) - start) / 1000000))
if [ ! -f "$out/$name" ]; then
    echo "$name: DIFFERS: the solve wrote no $name ($(ls "$out" | tr '\n' ' '))"
    exit 1
fi
got=$(sha256sum "$out/$name" | cut -d ' ' -f 1)
if [ "$got" != "$want" ]; then
    echo "$name: DIFFERS: SHA-256 $got, the journal's is $want (--threads $threads --mb $mb)"
    exit 1
fi
printf '%s: same SHA-256 as %s (%s), solved again with --threads %s --mb %s in %d.%03d s\n' \
    "$name" "$journal" "$got" "$threads" "$mb" $((ms / 1000)) $((ms % 1000))
