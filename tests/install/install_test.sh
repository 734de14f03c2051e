#!/bin/sh
# `cmake --install` into a temporary prefix, then the installed tree is used as a user would:
# the binary runs (--version, a corpus log), the man page opens with `man`, the completions load
# and complete, and the docs are there.
# Usage: install_test.sh CMAKE BUILD_DIR SOURCE_DIR PROJECT_VERSION
set -u
cmake=$1
build=$2
source=$3
version=$4
here=$(dirname "$0")
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT INT TERM
fail=0

"$cmake" --install "$build" --prefix "$prefix" >"$prefix.log" 2>&1 ||
  { cat "$prefix.log"; rm -f "$prefix.log"; exit 1; }
rm -f "$prefix.log"
for f in bin/ncclscope share/man/man1/ncclscope.1.gz share/bash-completion/completions/ncclscope \
  share/zsh/site-functions/_ncclscope share/fish/vendor_completions.d/ncclscope.fish \
  share/doc/ncclscope/README.md share/doc/ncclscope/LICENSE share/doc/ncclscope/docs/rules.md \
  share/doc/ncclscope/docs/ci.md; do
  [ -s "$prefix/$f" ] || { echo "not installed: $f"; fail=1; }
done
[ -x "$prefix/bin/ncclscope" ] || { echo "bin/ncclscope is not executable"; exit 1; }

# The installed binary, away from the build tree.
cd "$prefix" || exit 1
line=$("$prefix/bin/ncclscope" --version)
case $line in
  "ncclscope $version"*) echo "installed: $line" ;;
  *) echo "--version says '$line', want ncclscope $version"; fail=1 ;;
esac
"$prefix/bin/ncclscope" --color never "$source/testdata/corpus/seeds/seed004-g6e-ofi-init-failed-socket.log" \
  >"$prefix/report.txt"
rc=$?
[ "$rc" -eq 1 ] || { echo "installed binary: exit $rc on a socket-fallback log, want 1"; fail=1; }
grep -q "socket-fallback" "$prefix/report.txt" || { echo "installed binary: no socket-fallback finding"; fail=1; }

# The kubectl plugin (docs/kubernetes.md) is installed next to the binary and finds it there.
[ -x "$prefix/bin/kubectl-ncclscope" ] || { echo "bin/kubectl-ncclscope is not installed"; fail=1; }
env -u NCCLSCOPE "$prefix/bin/kubectl-ncclscope" --help 2>&1 | grep -q "Usage: kubectl ncclscope" ||
  { echo "installed kubectl-ncclscope --help does not run"; fail=1; }
mkdir "$prefix/fake" && ln -s "$source/testdata/kube/fake-kubectl" "$prefix/fake/kubectl"
PATH="$prefix/fake:/usr/bin:/bin" env -u NCCLSCOPE -u KUBECTL "$prefix/bin/kubectl-ncclscope" \
  train-0 -n ml --no-status -q -- --color never 2>&1 | grep -q "input <stdin>\[pod/train-0/trainer\]" ||
  { echo "installed kubectl-ncclscope does not analyse with the ncclscope next to it"; fail=1; }

if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man -M "$prefix/share/man" ncclscope 2>/dev/null | grep -q "EXIT STATUS" ||
    { echo "man -M PREFIX/share/man ncclscope does not show the page"; fail=1; }
fi
"$here/man_page_test.sh" "$prefix/bin/ncclscope" "$prefix/share/man/man1/ncclscope.1.gz" || fail=1
"$here/completion_test.sh" "$prefix/bin/ncclscope" "$prefix/share/bash-completion/completions/ncclscope" \
  "$prefix/share/zsh/site-functions/_ncclscope" "$prefix/share/fish/vendor_completions.d/ncclscope.fish" ||
  fail=1
exit "$fail"
