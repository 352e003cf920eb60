#!/usr/bin/env bash
# The damage campaign with more seeds than ctest runs: bytes flipped in every
# file of a small counted database (.sst, MANIFEST, OPTIONS, CURRENT, WAL),
# then stats, export, query and ingest (then export); prints how many runs answered as undamaged, failed
# with a message, or (never acceptable) answered wrongly.
# Usage: scripts/damage_campaign.sh [SEEDS]   (default 20; build/ must be built)
set -euo pipefail
cd "$(dirname "$0")/.."
SGFPAT_DAMAGE_SEEDS="${1:-20}" exec build/test_store_damage --test-case='damage campaign*' --success=false
