#!/bin/sh
# The man page renders without warnings and documents every command, option and report format
# that `ncclscope --help` lists (so it cannot fall behind the options).
# Usage: man_page_test.sh NCCLSCOPE MANPAGE(.1 or .1.gz)
set -u
here=$(dirname "$0")
ncclscope=$1
page=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

case $page in
  *.gz) gzip -dc "$page" >"$work/page.1" || exit 1 ;;
  *) cp "$page" "$work/page.1" || exit 1 ;;
esac

fail=0
# Render: groff with all warnings (groff-base is part of every Debian system with man-db).
if command -v groff >/dev/null 2>&1; then
  groff -man -Tutf8 -ww -z "$work/page.1" 2>"$work/warnings"
  if [ -s "$work/warnings" ]; then
    echo "groff warnings:"
    cat "$work/warnings"
    fail=1
  fi
  groff -man -Tutf8 "$work/page.1" 2>/dev/null | sed 's/.\x08//g' >"$work/page.txt"
  if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man -l "$page" 2>/dev/null | sed 's/.\x08//g' >"$work/man.txt"
    [ -s "$work/man.txt" ] || { echo "man -l rendered nothing"; fail=1; }
  fi
else
  echo "groff not installed: checking the page's structure only"
  sed -n 's/^\.SH //p' "$work/page.1" >"$work/page.txt"
fi
for section in NAME SYNOPSIS DESCRIPTION COMMANDS "REPORT OPTIONS" "EXIT STATUS" ENVIRONMENT EXAMPLES; do
  grep -q "^$section" "$work/page.txt" ||
    grep -q "^\.SH \"*$section" "$work/page.1" || { echo "no $section section"; fail=1; }
done

# The page's words: roff escapes and fonts removed, so '\-\-fail\-on' reads '--fail-on'.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(em/-/g' "$work/page.1" >"$work/words"
"$here/help_options.sh" "$ncclscope" >"$work/help" || exit 1
missing=0
while read -r kind cmd what value; do
  case $kind in
    command) needle=$cmd ;;
    option) needle=$what ;;
    choice) [ "$what" = "--format" ] || continue; needle=".B $value" ;;
  esac
  # Whole word: not part of a longer option or word.
  if ! grep -qE -- "(^|[^A-Za-z0-9-])$(printf '%s' "$needle" | sed 's/[.[\*^$]/\\&/g')([^A-Za-z0-9-]|$)" "$work/words"; then
    echo "not in the man page: $kind $cmd $what $value"
    missing=$((missing + 1))
  fi
done <"$work/help"
[ "$missing" -eq 0 ] || fail=1
[ "$fail" -eq 0 ] && echo "man page renders and covers $(wc -l <"$work/help") commands, options and formats"
exit "$fail"
