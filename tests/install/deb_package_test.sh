#!/bin/sh
# CPack builds a .deb of the installed tree: package name and version, declared dependencies
# (libfmt, zlib from dpkg-shlibdeps; libre2 when the binary links it: a linker that drops unused
# libraries leaves it out, since no code calls RE2), the files at their Debian places, and a binary that
# runs once unpacked. Usage: deb_package_test.sh CPACK BUILD_DIR PROJECT_VERSION
set -u
cpack=$1
build=$2
version=$3
if ! command -v dpkg-deb >/dev/null 2>&1; then
  echo "dpkg-deb not installed; skipping"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
"$cpack" -G DEB -B "$work" --config "$build/CPackConfig.cmake" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/ncclscope_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "no .deb written"; cat "$work/cpack.log"; exit 1; }
echo "built $(basename "$deb")"
fail=0
dpkg-deb -f "$deb" Package Version Architecture Depends Section >"$work/fields"
cat "$work/fields"
grep -qx "Package: ncclscope" "$work/fields" || { echo "wrong package name"; fail=1; }
grep -qx "Version: $version" "$work/fields" || { echo "version is not $version"; fail=1; }
dpkg-deb -c "$deb" | awk '{print $6}' >"$work/files"
dpkg-deb -x "$deb" "$work/root"
deps="libc6 libstdc++6 libfmt zlib1g"
if command -v readelf >/dev/null 2>&1 &&
  readelf -d "$work/root/usr/bin/ncclscope" | grep -q 'NEEDED.*libre2'; then
  deps="$deps libre2"
fi
for dep in $deps; do
  grep -q "^Depends:.*$dep" "$work/fields" || { echo "Depends lacks $dep"; fail=1; }
done
for f in ./usr/bin/ncclscope ./usr/bin/kubectl-ncclscope ./usr/share/man/man1/ncclscope.1.gz \
  ./usr/share/bash-completion/completions/ncclscope ./usr/share/zsh/site-functions/_ncclscope \
  ./usr/share/fish/vendor_completions.d/ncclscope.fish ./usr/share/doc/ncclscope/README.md \
  ./usr/share/doc/ncclscope/LICENSE; do
  grep -qx -- "$f" "$work/files" || { echo "not in the package: $f"; fail=1; }
done
"$work/root/usr/bin/ncclscope" --version | grep -q "^ncclscope $version" ||
  { echo "the packaged binary does not run"; fail=1; }
exit "$fail"
