#!/usr/bin/env bash
# Pre-release smoke check: `sleeve demo` into a temporary database, every command once with its
# exit code checked, and `check` run as a gate.
#
# SLEEVE_BINARY names a `sleeve` already built (.ci/run gives the one swift test built, so CI
# compiles the package no extra time); unset, the check builds a release `sleeve` of its own.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${SLEEVE_BINARY:-}" ]; then
  sleeve=$SLEEVE_BINARY
  [ -x "$sleeve" ] || { echo "smoke check: SLEEVE_BINARY '$sleeve' is not an executable" >&2; exit 1; }
else
  swift build -c release --product sleeve >&2
  sleeve=.build/release/sleeve
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
db="$scratch/smoke.sqlite"
failures=0

# expect CODE COMMAND...: runs the command, checks its exit code.
expect() {
  local want=$1
  shift
  set +e
  "$@" >"$scratch/out" 2>"$scratch/err"
  local got=$?
  set -e
  if [ "$got" -eq "$want" ]; then
    echo "ok    exit $got: ${*#$sleeve }"
  else
    echo "FAIL  exit $got (expected $want): $*"
    sed 's/^/      /' "$scratch/err"
    failures=$((failures + 1))
  fi
}

expect 0 "$sleeve" --version
expect 0 "$sleeve" help
expect 0 "$sleeve" demo --db "$db" --fires 5000
expect 0 "$sleeve" sessions --db "$db"
expect 0 "$sleeve" errors --db "$db" --by handler
expect 0 "$sleeve" errors --db "$db" --by variant --format json
expect 0 "$sleeve" latency --db "$db" --percentiles 50,90,99.9 --format csv
expect 0 "$sleeve" flags --db "$db" --format markdown
expect 0 "$sleeve" latency --db "$db" --exact
expect 0 "$sleeve" latency --db "$db" --method histogram --format json
expect 0 "$sleeve" export --db "$db" --format otlp-metrics-json --out "$scratch/metrics.jsonl"
expect 64 "$sleeve" latency --db "$db" --exact --method histogram
expect 64 "$sleeve" errors --db "$db" --method sketch
expect 0 "$sleeve" migrate --db "$db" --status
expect 0 "$sleeve" merge "$scratch/merged.sqlite" "$db"
expect 0 "$sleeve" merge "$scratch/merged.sqlite" "$db" --format json
expect 0 "$sleeve" export --db "$scratch/merged.sqlite" --format otlp-json --out "$scratch/traces.jsonl"
expect 0 "$sleeve" export --db "$db" --format csv --out "$scratch/sleeve.csv"
expect 74 "$sleeve" export --db "$db" --out "$scratch/no/such/dir.csv"
expect 0 "$sleeve" migrate --db "$db"
# Push: to a real collector (Rotel) on loopback, twice (the second sends nothing new); bad
# endpoints and headers refused; an endpoint nobody listens on.
exec 9> >(scripts/rotel-receiver --no-debug-log --log "$scratch/rotel.log" > "$scratch/rotel.url")
for _ in $(seq 200); do [ -s "$scratch/rotel.url" ] && break; sleep 0.1; done
collector=$(head -1 "$scratch/rotel.url")
expect 0 "$sleeve" export --db "$db" --endpoint "$collector"
expect 0 "$sleeve" export --db "$db" --endpoint "$collector" --compression gzip
grep -q "already delivered" "$scratch/err" || { echo "FAIL  the second push sent again"; failures=$((failures + 1)); }
exec 9>&-
expect 64 "$sleeve" export --db "$db" --endpoint ftp://127.0.0.1:1
expect 64 env OTEL_EXPORTER_OTLP_HEADERS='x-key=secret,broken' "$sleeve" export --db "$db" --push --endpoint http://127.0.0.1:1
grep -q secret "$scratch/err" && { echo "FAIL  a header value was echoed"; failures=$((failures + 1)); }
expect 69 "$sleeve" export --db "$db" --endpoint http://127.0.0.1:9 --retry-budget 0s
# The gate: the demo's new checkout breaches its 2% error-rate threshold.
expect 1 "$sleeve" check --db "$db"
expect 2 "$sleeve" check --db "$db" --handler validate-cart --max-p99 1s --min-samples 100000000
expect 0 "$sleeve" check --db "$db" --handler validate-cart --max-error-rate 1% --max-p99 10s
# Lint: the demo holds one of each pitfall, two at error severity.
expect 1 "$sleeve" lint --db "$db"
expect 1 "$sleeve" lint --db "$db" --format junit
expect 0 "$sleeve" lint --db "$db" --disable handler-accumulation --disable nesting-pressure --format github
expect 0 "$sleeve" lint suppress dead-interaction checkout.apple-pay --reason smoke --db "$db"
expect 0 "$sleeve" lint suppressions --db "$db" --format json
expect 64 "$sleeve" lint --db "$db" --disable no-such-check
expect 64 "$sleeve" latency --db "$db" --percentiles 101
expect 64 "$sleeve" check --db "$db" --max-p99 fast
# Percentage rollouts: judged sequentially; a share with nothing recorded yet holds.
expect 1 "$sleeve" check --db "$db" --sequential
expect 0 "$sleeve" rollout new-checkout --percent 25 --db "$db" --reason smoke
expect 0 "$sleeve" flags --db "$db" --format json
expect 2 "$sleeve" check --db "$db" --sequential
expect 64 "$sleeve" rollout new-checkout --percent 101 --db "$db"
expect 64 "$sleeve" check --db "$db" --sequential --fixed-horizon
expect 66 "$sleeve" errors --db "$scratch/missing.sqlite"
expect 66 "$sleeve" errors --db "$db" --session 999
# Across runs: a history with a regression, a new failure type and a flaky handler.
history="$scratch/history.sqlite"
expect 0 "$sleeve" demo --history --db "$history" --fires 1000
expect 0 "$sleeve" diff --db "$history" --baseline 'branch=main,last=20' --format markdown
expect 0 "$sleeve" flaky --db "$history" --format json
expect 1 "$sleeve" check --db "$history" --baseline 'branch=main,last=20' --format junit
expect 1 "$sleeve" check --db "$history" --baseline 'branch=main' --format github
expect 0 "$sleeve" quarantine add charge-card --control checkout.pay --reason smoke --db "$history"
expect 0 "$sleeve" quarantine list --db "$history"
expect 1 "$sleeve" lint --db "$history" --branch feature/faster-checkout --format markdown
expect 0 "$sleeve" report --db "$history" --baseline 'branch=main' --format html \
  --out "$scratch/report.html"
expect 64 "$sleeve" report --db "$history" --session all --baseline 'branch=main'
expect 64 "$sleeve" diff --db "$history" --baseline 'last=3'
expect 66 "$sleeve" diff --db "$history" --baseline 'branch=release'
head -c 4096 /dev/urandom >"$scratch/noise.sqlite"
expect 65 "$sleeve" errors --db "$scratch/noise.sqlite"

if [ "$failures" -ne 0 ]; then
  echo "smoke check: $failures failure(s)"
  exit 1
fi
echo "smoke check: all passed"
