#!/bin/sh
# Lists what `ncclscope --help` documents, one item a line, for the tests that keep the man page
# and the completions in sync with the options:
#   command NAME          every subcommand
#   option NAME OPTION    every option of a subcommand (-f and --format on separate lines);
#                         NAME is ncclscope for the options before a subcommand
#   choice NAME OPTION V  every allowed value of an option with a closed set (TEXT:{a,b})
# Usage: help_options.sh NCCLSCOPE
set -eu
ncclscope=$1
commands=$("$ncclscope" --help | awk '/^Subcommands:/ {on=1; next} on && NF == 0 {on=0} on {print $1}')
[ -n "$commands" ] || { echo "no subcommands in --help" >&2; exit 1; }
options() {
  awk -v cmd="$1" '
    /^Options:/ {on=1; next}
    on && /^[^ ]/ {on=0}
    on && /^  -/ {
      spec=$1
      type=""
      if (index(spec, ":{") == 0 && NF > 1 && $2 ~ /:\{/) type=$2
      split(spec, parts, " ")
      n=split(parts[1], names, ",")
      for (i=1; i<=n; i++) print "option " cmd " " names[i]
      if (type != "") {
        sub(/^[^{]*\{/, "", type); sub(/\}.*$/, "", type)
        m=split(type, vals, ",")
        for (j=1; j<=m; j++) print "choice " cmd " " names[n] " " vals[j]
      }
    }'
}
"$ncclscope" --help | options ncclscope
for c in $commands; do
  echo "command $c"
  "$ncclscope" "$c" --help | options "$c"
done
