#!/usr/bin/env bash
# Issue 29's duplicate figure: the `duplicates` command (the tool library's, on the developers' machines) over copies of
# src-server, src-client, src-shared and db without generated code (routeTree.gen.ts, styled-system); prints its
# summary line and the rows not marked boilerplate. Usage: bash scripts/dup-count.sh [rows file, default /tmp/dup.txt]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v duplicates >/dev/null || { echo "duplicates is not on this machine's PATH" >&2; exit 1; }
out="${1:-/tmp/dup.txt}"
scope="$(mktemp -d)"
trap 'rm -rf "$scope"' EXIT
cp -r src-server src-client src-shared db "$scope/"
find "$scope" -name routeTree.gen.ts -delete
rm -rf "$scope"/*/styled-system
(cd "$scope" && duplicates --most 200 --seconds 500) >"$out"
head -1 "$out"
# From the summary line (rows are cut at 200): all pairs less those marked boilerplate.
summary="$(head -1 "$out")"
pairs="$(sed -E 's/^([0-9]+) pairs.*/\1/' <<<"$summary")"
boilerplate="$(sed -E 's/.* ([0-9]+) of those marked boilerplate.*/\1/' <<<"$summary")"
echo "not boilerplate: $((pairs - boilerplate))"
echo "of the rows listed, exact (not by shape): $(grep -E '^D[0-9]+' "$out" | grep -v boilerplate | grep -vc shape || true)"
