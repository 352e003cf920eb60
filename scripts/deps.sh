#!/usr/bin/env bash
# Installs the Debian packages sgfpat needs, if any is missing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  librocksdb-dev libboost-iostreams-dev zlib1g-dev libbz2-dev liblzma-dev libzstd-dev
  # Boost.Beast and Boost.Asio (headers): `sgfpat serve`'s HTTP and WebSocket
  libboost-dev
  libarchive-dev libcli11-dev doctest-dev nlohmann-json3-dev
  gnugo
  # archive and compression tools the I/O tests use to build their inputs
  gzip bzip2 xz-utils zstd tar zip
  # rsvg-convert: the render tests draw SVG and check the picture's pixels
  librsvg2-bin
  # sharded counting under Slurm: scripts/slurm/ and the single-node cluster
  # of tests/test_shard_slurm.cpp (munged, slurmctld, slurmd)
  slurm-wlm munge
  # the benchmarks in bench/ read --json summaries and make the augmentation
  python3
  # the browser tests of `sgfpat serve` (tests/browser/): headless Chromium
  # driven by Selenium from /usr/bin/python3
  chromium chromium-driver python3-selenium
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "sgfpat: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
