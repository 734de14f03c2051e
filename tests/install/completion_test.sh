#!/bin/bash
# The shell completions complete what `ncclscope --help` lists: bash always (loads with
# `source`, registers with `complete -p`, and completes subcommands, options, option values and
# files through its function); fish through `complete -C` and zsh by syntax when those shells
# are installed (the README's test command installs them).
# Usage: completion_test.sh NCCLSCOPE BASH_FILE ZSH_FILE FISH_FILE
set -u
here=$(dirname "$0")
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
ncclscope=$(abs "$1")
bash_file=$(abs "$2")
zsh_file=$(abs "$3")
fish_file=$(abs "$4")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail=0
"$here/help_options.sh" "$ncclscope" >"$work/help" || exit 1

# ---- bash: a clean shell, as bash-completion would load the file.
registered=$(bash --norc --noprofile -c "source '$bash_file' && complete -p ncclscope")
if [ "$registered" != "complete -F _ncclscope ncclscope" ]; then
  echo "bash: not registered: '$registered'"
  fail=1
fi
# Queries, one a line: "+WANT WORD..." (WANT must be offered for the last WORD) or "-UNWANTED
# WORD..." (must not be); an empty last word is written as ''. All run in one bash.
mkdir -p "$work/logs" && : >"$work/logs/node-0.log" && : >"$work/nccl.log"
q=$work/bash-queries
cat >"$q" <<'QUERIES'
+analyze ncclscope an
+nccl.log ncclscope ncc
+--format ncclscope --fo
+sarif ncclscope analyze -f sa
+json ncclscope -f j
+markdown ncclscope analyze --format = ma
+never ncclscope analyze --fail-on n
+logs ncclscope analyze -o lo
+logs/node-0.log ncclscope analyze logs/
+zsh ncclscope completion z
+text ncclscope rules -f t
+--stats ncclscope analyze --follow --st
-sarif ncclscope rules -f s
-nccl.log ncclscope analyze --jobs n
QUERIES
# Every command, every option of every command, every value of a closed set.
while read -r kind cmd what value; do
  case $kind in
    command) echo "+$cmd ncclscope ''" ;;
    option)
      if [ "$cmd" = ncclscope ]; then echo "+$what ncclscope -"; else echo "+$what ncclscope $cmd -"; fi ;;
    choice) echo "+$value ncclscope $cmd $what ''" ;;
  esac
done <"$work/help" >>"$q"
(cd "$work" && bash --norc --noprofile -c '
  source "$1"
  bad=0
  while read -r want rest; do
    eval "COMP_WORDS=($rest)"
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    _ncclscope
    found=0
    for c in "${COMPREPLY[@]}"; do [[ $c == "${want:1}" ]] && found=1; done
    if [[ ${want:0:1} == + && $found == 0 ]]; then
      echo "bash: \"$rest\" does not offer ${want:1} (offers: ${COMPREPLY[*]})"; bad=1
    elif [[ ${want:0:1} == - && $found == 1 ]]; then
      echo "bash: \"$rest\" offers ${want:1}"; bad=1
    fi
  done <"$2"
  exit $bad' _ "$bash_file" "$q") || fail=1
echo "bash: $(wc -l <"$q") completions checked"

# ---- fish: its own completion engine (complete -C).
if command -v fish >/dev/null 2>&1; then
  # "WANT<TAB>COMMANDLINE" lines, all asked in one fish.
  fq=$work/fish-queries
  printf '%s\t%s\n' analyze "ncclscope an" nccl.log "ncclscope ncc" sarif "ncclscope analyze -f sa" \
    json "ncclscope -f j" --policy "ncclscope analyze --pol" --expect "ncclscope bench --exp" \
    logs/ "ncclscope analyze -o lo" fish "ncclscope completion f" >"$fq"
  while read -r kind cmd what value; do
    case $kind in
      command) printf '%s\t%s\n' "$cmd" "ncclscope " ;;
      option)
        case $cmd:$what in
          ncclscope:*) ;;
          *:--*) printf '%s\t%s\n' "$what" "ncclscope $cmd --" ;;
        esac ;;
    esac
  done <"$work/help" >>"$fq"
  (cd "$work" && fish --no-config -c '
    source $argv[1]
    set -l bad 0
    while read -l line
      set -l parts (string split \t -- $line)
      if not contains -- $parts[1] (complete -C "$parts[2]" | string replace -r "\t.*" "")
        echo "fish: \"$parts[2]\" does not offer $parts[1]"
        set bad 1
      end
    end <$argv[2]
    if contains -- sarif (complete -C "ncclscope rules -f s" | string replace -r "\t.*" "")
      echo "fish: rules -f offers sarif"
      set bad 1
    end
    exit $bad' "$fish_file" "$fq") || fail=1
  echo "fish: $(wc -l <"$fq") completions checked"
else
  echo "fish not installed: fish completion not run"
fi

# ---- zsh: syntax, one function per command, and every option named.
if command -v zsh >/dev/null 2>&1; then
  zsh -n "$zsh_file" || { echo "zsh: syntax error"; fail=1; }
  head -1 "$zsh_file" | grep -qx '#compdef ncclscope' || { echo "zsh: no #compdef line"; fail=1; }
  while read -r kind cmd what value; do
    case $kind in
      command)
        grep -q "^_ncclscope_$cmd() {" "$zsh_file" || { echo "zsh: no function for $cmd"; fail=1; } ;;
      option)
        [ "$cmd" = ncclscope ] && continue
        sed -n "/^_ncclscope_$cmd() {/,/^}/p" "$zsh_file" | grep -qE -- "[{',]$what[],}[]" ||
          { echo "zsh: $cmd lacks $what"; fail=1; } ;;
    esac
  done <"$work/help"
  # Load it the way compinit does and ask for the function.
  zsh -f -c "fpath=('$(dirname "$zsh_file")' \$fpath); autoload -Uz compinit; compinit -u -d '$work/zcompdump'; [[ \${_comps[ncclscope]} == _ncclscope ]]" ||
    { echo "zsh: compinit does not bind _ncclscope to ncclscope"; fail=1; }
else
  echo "zsh not installed: zsh completion checked for structure only"
  grep -q '^_ncclscope() {' "$zsh_file" || { echo "zsh: no _ncclscope function"; fail=1; }
fi
[ "$fail" -eq 0 ] && echo "completions complete $(wc -l <"$work/help") commands, options and values"
exit "$fail"
