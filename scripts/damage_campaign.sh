#!/usr/bin/env bash
# The damage campaign, longer than the one ctest runs: every file of three
# small counted databases (one whose games are in table files, one whose
# games are in its write-ahead log only, one counted in a count and a
# night, with pending patterns) deleted, cut at six points and
# given SEEDS flipped bits each, every table file of the counts included;
# then stats, export, query, ingest (then export) and repair on each copy.
# Prints how many runs answered as undamaged, failed with a message, were
# repaired whole or with games reported lost, or (never acceptable)
# answered wrongly or lost a readable game.
# Usage: scripts/damage_campaign.sh [SEEDS]   (default 5; build/ must be built)
set -euo pipefail
cd "$(dirname "$0")/.."
SGFPAT_DAMAGE_FULL=1 SGFPAT_DAMAGE_SEEDS="${1:-5}" exec build/test_store_damage --test-case='damage campaign*' --success=false
