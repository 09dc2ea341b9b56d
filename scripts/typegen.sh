#!/usr/bin/env bash
# Sanity TypeGen, offline: extracts the Studio schema (with enforced required fields) to
# studio/schema.json, then generates app/sanity/sanity.types.ts (settings: sanity-typegen.json).
#
# Extraction loads studio/sanity.config.ts, whose workspace would ask the API for the current
# user; SANITY_OFFLINE_SCHEMA_EXTRACT=1 swaps in a stub auth store (studio/offline-auth.ts), so no
# login or network is needed. Only this Node process sees the variable, never the Studio bundle.
#
# Overrides (used by schemas/typegen.test.ts to regenerate into a temporary folder):
#   TYPEGEN_SCHEMA_PATH  where to write the extracted schema (default studio/schema.json)
#   TYPEGEN_CONFIG       the typegen config to use (default sanity-typegen.json)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sanity="$root/node_modules/.bin/sanity"
schema_path="${TYPEGEN_SCHEMA_PATH:-$root/studio/schema.json}"
config_path="${TYPEGEN_CONFIG:-$root/sanity-typegen.json}"
export DO_NOT_TRACK=1 SANITY_TELEMETRY_DISABLED=1

(cd "$root/studio" && SANITY_OFFLINE_SCHEMA_EXTRACT=1 "$sanity" schema extract --enforce-required-fields --path "$schema_path" </dev/null)
(cd "$root" && "$sanity" typegen generate --config-path "$config_path" </dev/null)
