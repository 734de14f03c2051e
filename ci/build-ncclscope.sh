#!/usr/bin/env bash
# Builds ncclscope for CI use: the Debian/Ubuntu packages it needs (when missing), then a Release
# build without the test suite. Prints the binary's path on the last line of stdout.
#   ci/build-ncclscope.sh [BUILD_DIR]      (default: build-ci next to this checkout)
# Environment: NCCLSCOPE_DOCS_URL (rule help links in SARIF), SUDO (default: sudo unless root).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-ci}
packages=(g++ cmake ninja-build pkg-config libcli11-dev libfmt-dev nlohmann-json3-dev libre2-dev zlib1g-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=${SUDO-}
  if [[ -z ${SUDO+x} && $(id -u) -ne 0 ]]; then sudo=sudo; fi
  echo "ncclscope: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNCCLSCOPE_TESTS=OFF \
  ${NCCLSCOPE_DOCS_URL:+-DNCCLSCOPE_DOCS_URL="$NCCLSCOPE_DOCS_URL"} >&2
cmake --build "$build" --target ncclscope >&2
echo "$build/ncclscope"
