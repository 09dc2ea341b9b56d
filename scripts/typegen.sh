#!/usr/bin/env bash
# Sanity TypeGen, offline, in three steps:
#   1. `sanity schema extract`: the Studio schema (with enforced required fields) to studio/schema.json;
#   2. `sanity typegen generate`: the schema types to app/sanity/sanity.types.ts (settings: the
#      `typegen` block of studio/sanity.cli.ts, so the CLI runs from studio/);
#   3. scripts/query-types.ts: the result type of every named query (app/sanity/queries/) to
#      app/sanity/query.types.ts, from the queries' real GROQ text (TypeGen cannot read queries
#      assembled with helpers such as loc()). app/sanity/types-agree.ts checks the zod schemas
#      against them.
#
# Extraction loads studio/sanity.config.ts, whose workspace would ask the API for the current
# user; SANITY_OFFLINE_SCHEMA_EXTRACT=1 swaps in a stub auth store (studio/offline-auth.ts), so no
# login or network is needed. Only this Node process sees the variable, never the Studio bundle.
#
# Overrides (used by schemas/typegen.test.ts to regenerate into a temporary folder; relative
# paths are taken from the current folder):
#   TYPEGEN_SCHEMA_PATH       the extracted schema (default studio/schema.json)
#   TYPEGEN_TYPES_PATH        the schema types (default app/sanity/sanity.types.ts)
#   TYPEGEN_QUERY_TYPES_PATH  the query result types (default app/sanity/query.types.ts)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/node_modules/.bin"
# The Sanity CLI is the Studio's own: studio/ is a package of its own (ADR 0027).
studio_bin="$root/studio/node_modules/.bin"
absolute() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }

if [[ -n "${TYPEGEN_CONFIG:-}" ]]; then
  echo "TYPEGEN_CONFIG is no longer used: the settings are in studio/sanity.cli.ts (see TYPEGEN_*_PATH above)" >&2
  exit 2
fi
export TYPEGEN_SCHEMA_PATH="$(absolute "${TYPEGEN_SCHEMA_PATH:-$root/studio/schema.json}")"
export TYPEGEN_TYPES_PATH="$(absolute "${TYPEGEN_TYPES_PATH:-$root/app/sanity/sanity.types.ts}")"
export TYPEGEN_QUERY_TYPES_PATH="$(absolute "${TYPEGEN_QUERY_TYPES_PATH:-$root/app/sanity/query.types.ts}")"
export DO_NOT_TRACK=1 SANITY_TELEMETRY_DISABLED=1

cd "$root/studio"
# Sanity 5's extract joins --path to the current folder even when it is absolute: give it relative.
SANITY_OFFLINE_SCHEMA_EXTRACT=1 "$studio_bin/sanity" schema extract --enforce-required-fields \
  --path "$(realpath -m --relative-to=. "$TYPEGEN_SCHEMA_PATH")" </dev/null
"$studio_bin/sanity" typegen generate </dev/null
cd "$root"
"$bin/vite-node" scripts/query-types.ts </dev/null
