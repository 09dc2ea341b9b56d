#!/usr/bin/env bash
# Runs every check and test suite, then prints one closing line: "N passed, N failed".
#   lint (ESLint, Prettier, import cycles), typecheck, dataset freshness, Studio build and production
#   build (these five side by side), unit + integration tests (vitest), end-to-end tests (Playwright in
#   Debian's Chromium), and on the current Node.js LTS the production build, the servers' start and a
#   smoke set of them (scripts/node-lts.sh). The time of each is printed at the end.
# Each non-test step (typecheck, builds) counts as one check. Exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
passed=0 failed=0 skipped=0
failures=()
timings=() # "seconds name" per suite, printed at the end
run_start=$SECONDS
timed() { timings+=("$1 $2"); } # timed SECONDS NAME

step() { # step NAME COMMAND...
  local name=$1; shift
  echo; echo "=== $name"
  local start=$SECONDS
  if "$@"; then passed=$((passed + 1)); echo "--- $name: ok ($((SECONDS - start)) s)"
  else failed=$((failed + 1)); failures+=("$name"); echo "--- $name: FAILED ($((SECONDS - start)) s)"; fi
  timed $((SECONDS - start)) "$name"
}

ensure_chromium() {
  local bin=${CHROMIUM_PATH:-/usr/bin/chromium}
  [ -x "$bin" ] && return 0
  echo "Chromium not found at $bin: installing Debian's chromium package"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
  [ -x "$bin" ] || { echo "Could not install Chromium; set CHROMIUM_PATH to a Chromium binary."; return 1; }
}

[ -d node_modules ] || npm ci --no-audit --no-fund

# PostgreSQL for the tests: the database tests run on PGlite and on a real PostgreSQL 15, and the
# end-to-end servers of the hosted world need one. A throwaway cluster on loopback, stopped on exit
# (scripts/test-postgres.sh; as root it runs as the postgres user). One already given in
# TEST_DATABASE_URL is used as it is. If none can be started, the tests that need it fail (CI=true).
pg_root="" pg_dir=""
stop_postgres() {
  [ -z "$pg_dir" ] || bash scripts/test-postgres.sh stop "$pg_dir"
  [ -z "$pg_root" ] || rm -rf "$pg_root"
}
trap stop_postgres EXIT
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo; echo "=== PostgreSQL for the tests"
  pg_port=55432
  while [ $pg_port -lt 55532 ] && (exec 3<>/dev/tcp/127.0.0.1/$pg_port) 2>/dev/null; do pg_port=$((pg_port + 1)); done
  pg_root=$(mktemp -d "${TMPDIR:-/tmp}/test-postgres.XXXXXX")
  chmod 755 "$pg_root" # the postgres user owns the cluster inside
  if pg_line=$(bash scripts/test-postgres.sh start "$pg_root/data" "$pg_port"); then
    pg_dir="$pg_root/data"
    export "$pg_line"
    echo "$pg_line"
  else
    failed=$((failed + 1)); failures+=("PostgreSQL for the tests could not start")
    echo "--- PostgreSQL could not start: its tests will fail"
  fi
fi

# Steps that read the sources and write only their own output, run side by side: each single-threaded
# checker (ESLint and Prettier, tsc) and the builds keep a core busy, where one after another left the
# second core idle. ESLint, Prettier, madge and tsc ignore what the builds write (build/, public/build/,
# public/overlays/, studio/dist/, studio/.sanity/). Each step's output is printed whole when it ends, in this order.
together() { # together "NAME|COMMAND" ...: the steps at once; each counted and timed as step does
  local dir names=() start=$SECONDS i=0
  dir=$(mktemp -d "${TMPDIR:-/tmp}/test-all-steps.XXXXXX")
  for spec in "$@"; do
    names+=("${spec%%|*}")
    (
      s=$SECONDS
      bash -c "${spec#*|}" >"$dir/$i.out" 2>&1
      echo "$? $((SECONDS - s))" >"$dir/$i.rc"
    ) &
    i=$((i + 1))
  done
  wait
  for i in "${!names[@]}"; do
    local name=${names[$i]} rc secs
    read -r rc secs <"$dir/$i.rc"
    echo; echo "=== $name"
    cat "$dir/$i.out"
    if [ "$rc" = 0 ]; then passed=$((passed + 1)); echo "--- $name: ok ($secs s)"
    else failed=$((failed + 1)); failures+=("$name"); echo "--- $name: FAILED ($secs s)"; fi
    timed "$secs" "$name"
  done
  timed $((SECONDS - start)) "  (the steps above side by side, from start to end)"
  rm -rf "$dir"
}

studio_build=()
[ -f studio/sanity.config.ts ] && studio_build=("Sanity Studio build (offline)|npm run --silent studio:build")
together \
  "lint (ESLint, Prettier, import cycles)|npm run --silent lint" \
  "typecheck|npm run --silent typecheck" \
  "dataset is built from its sources|node scripts/build-dataset.mjs --check" \
  "${studio_build[@]}" \
  "production build, and a plain page's first scripts within 15 kB gzip of a bare Remix page|npm run --silent build:site && node bench/bundle-size.mjs --budget"

echo; echo "=== unit and integration tests (vitest)"
rm -f test-results/vitest.json
suite_start=$SECONDS
npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest.json
if [ -s test-results/vitest.json ]; then
  read -r vp vf vs < <(node -e 'const r=require("./test-results/vitest.json");console.log(r.numPassedTests,r.numFailedTests+(r.numRuntimeErrorCount??0)+(r.success===false&&r.numFailedTests===0?1:0),r.numPendingTests+r.numTodoTests)')
  passed=$((passed + vp)); failed=$((failed + vf)); skipped=$((skipped + vs))
  [ "$vf" = 0 ] || failures+=("vitest ($vf)")
else
  failed=$((failed + 1)); failures+=("vitest did not report")
fi
timed $((SECONDS - suite_start)) "unit and integration tests (vitest)"


echo; echo "=== end-to-end tests (Playwright, Chromium)"
if ensure_chromium && [ -f build/index.js ]; then
  rm -f test-results/playwright.json
  suite_start=$SECONDS
  PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json npx playwright test --reporter=list,json
  pw_status=$?
  if [ -s test-results/playwright.json ]; then
    # A run that could not start (a busy port, a server that died) reports no test at all but a
    # top-level error: each such error counts as a failure, and so does a failing exit with none.
    read -r pp pf ps < <(node -e 'const r=require("./test-results/playwright.json"),s=r.stats;console.log(s.expected+s.flaky,s.unexpected+(r.errors?.length??0),s.skipped)')
    if [ "$pw_status" != 0 ] && [ "$pf" = 0 ]; then pf=1; fi
    # Tests that failed once and passed on their retry (CI only): counted as passed, named here.
    node -e '
      const r = require("./test-results/playwright.json"); const out = [];
      const walk = (s, t) => { for (const c of s.specs ?? []) for (const x of c.tests) if (x.status === "flaky") out.push(`  [${x.projectName}] ${c.file}:${c.line} ${[...t, c.title].join(" > ")}`);
        for (const i of s.suites ?? []) walk(i, [...t, i.title]); };
      for (const s of r.suites) walk(s, []);
      if (out.length) console.log(`Flaky (failed, then passed on retry): ${out.length}\n${out.join("\n")}`);'
    passed=$((passed + pp)); failed=$((failed + pf)); skipped=$((skipped + ps))
    [ "$pf" = 0 ] || failures+=("playwright ($pf)")
  else
    failed=$((failed + 1)); failures+=("playwright did not report")
  fi
  timed $((SECONDS - suite_start)) "end-to-end tests (Playwright)"
else
  failed=$((failed + 1)); failures+=("end-to-end tests could not start")
fi

# The current Node.js LTS (26): the production build, the servers' start and a smoke set of the
# end-to-end tests on it, with the registry's Node binary when this machine runs another major
# (scripts/node-lts.sh; a few minutes, its time printed). NODE_LTS=off leaves it out.
if [ "${NODE_LTS:-on}" != off ] && [ -f build/index.js ]; then
  step "the current Node.js LTS: build, start, smoke end-to-end tests" bash scripts/node-lts.sh
fi

echo
echo "Time per suite (s):"
for line in "${timings[@]}"; do printf '  %5d  %s\n' "${line%% *}" "${line#* }"; done
printf '  %5d  %s\n' $((SECONDS - run_start)) "in all"
[ ${#failures[@]} -eq 0 ] || echo "Failed: ${failures[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
