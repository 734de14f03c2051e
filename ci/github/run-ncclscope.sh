#!/usr/bin/env bash
# The GitHub Action's work (action.yml): analyse the given logs once per output and hand the
# results to GitHub:
#   - the gate: exit code of `ncclscope --fail-on FAIL_ON [--policy POLICY]` (0/1/2/3, README);
#   - a job summary in Markdown appended to $GITHUB_STEP_SUMMARY;
#   - workflow annotations (--format github) on stdout;
#   - optionally a SARIF file for github/codeql-action/upload-sarif;
#   - outputs in $GITHUB_OUTPUT: exit-code, errors, warnings, infos, json-file, sarif-file.
# Inputs come from the environment (action.yml maps its inputs onto these):
#   NCCLSCOPE          the binary (default: ncclscope on PATH)
#   INPUT_PATHS        logs, directories or globs, whitespace-separated (a line that names an
#                      existing path is taken whole, so paths with spaces go one per line)
#   INPUT_FAIL_ON      error|warning|info|never (default error)
#   INPUT_POLICY       policy file (optional)
#   INPUT_ARGS         more analyze options, e.g. "--topo topo.txt" (optional)
#   INPUT_SARIF_FILE   where to write SARIF (optional)
#   INPUT_SUMMARY      true|false: write the job summary (default true)
#   INPUT_ANNOTATIONS  true|false: print annotations (default true)
# Exits with ncclscope's exit code, so the step fails when the gate does.
set -uo pipefail
ncclscope=${NCCLSCOPE:-ncclscope}
fail_on=${INPUT_FAIL_ON:-error}
work=$(mktemp -d "${RUNNER_TEMP:-/tmp}/ncclscope.XXXXXX")
json_file=$work/ncclscope.json

paths=()
while IFS= read -r line || [[ -n $line ]]; do
  line=${line#"${line%%[![:space:]]*}"}
  line=${line%"${line##*[![:space:]]}"}
  [[ -z $line ]] && continue
  if [[ -e $line ]]; then
    paths+=("$line")
  else
    # shellcheck disable=SC2206  # word splitting and globs wanted here
    words=($line)
    paths+=("${words[@]}")
  fi
done <<<"${INPUT_PATHS:-}"
if ((${#paths[@]} == 0)); then
  echo "::error title=ncclscope::no paths given (input 'paths')"
  exit 2
fi

opts=(--fail-on "$fail_on" --quiet)
[[ -n ${INPUT_POLICY:-} ]] && opts+=(--policy "$INPUT_POLICY")
# shellcheck disable=SC2206  # extra options are words
[[ -n ${INPUT_ARGS:-} ]] && opts+=(${INPUT_ARGS})

# The gate and the numbers: the JSON report.
"$ncclscope" analyze --format json -o "$json_file" "${opts[@]}" -- "${paths[@]}"
rc=$?
case $rc in
  0) verdict="passed: no finding at or above \`$fail_on\`" ;;
  1) verdict="failed: findings at or above \`$fail_on\`" ;;
  2) verdict="failed: a usage error, or an input could not be read" ;;
  3) verdict="failed: the input holds no NCCL debug lines (run the job with NCCL_DEBUG=INFO)" ;;
  *) verdict="failed: ncclscope exited $rc" ;;
esac

# Annotations, and the counts from their summary line ("ncclscope: 1 error, 2 warnings, 0 info").
"$ncclscope" analyze --format github "${opts[@]}" -- "${paths[@]}" >"$work/annotations.txt"
if [[ ${INPUT_ANNOTATIONS:-true} == true ]]; then cat "$work/annotations.txt"; fi
counts=$(grep -E '^ncclscope: [0-9]+ errors?, [0-9]+ warnings?, [0-9]+ info' "$work/annotations.txt" | tail -1)
errors=$(sed -E 's/^ncclscope: ([0-9]+) error.*/\1/' <<<"$counts")
warnings=$(sed -E 's/^.*, ([0-9]+) warnings?,.*/\1/' <<<"$counts")
infos=$(sed -E 's/^.*, ([0-9]+) info.*/\1/' <<<"$counts")

sarif_file=
if [[ -n ${INPUT_SARIF_FILE:-} ]]; then
  sarif_file=$INPUT_SARIF_FILE
  mkdir -p "$(dirname "$sarif_file")"
  "$ncclscope" analyze --format sarif -o "$sarif_file" "${opts[@]}" -- "${paths[@]}"
fi

if [[ ${INPUT_SUMMARY:-true} == true && -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  {
    echo "### ncclscope $verdict"
    echo
    echo "${errors:-?} error(s), ${warnings:-?} warning(s), ${infos:-?} info; exit code $rc."
    echo
    "$ncclscope" analyze --format markdown "${opts[@]}" -- "${paths[@]}"
    echo
  } >>"$GITHUB_STEP_SUMMARY"
fi

if [[ -n ${GITHUB_OUTPUT:-} ]]; then
  {
    echo "exit-code=$rc"
    echo "errors=${errors}"
    echo "warnings=${warnings}"
    echo "infos=${infos}"
    echo "json-file=$json_file"
    echo "sarif-file=$sarif_file"
  } >>"$GITHUB_OUTPUT"
fi
echo "ncclscope $verdict (exit $rc)"
exit "$rc"
