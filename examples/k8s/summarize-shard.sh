#!/bin/sh
# One worker of examples/k8s/summarize-indexed-job.yaml: summarises shard JOB_COMPLETION_INDEX of
# SHARDS of the logs under LOGS into SUMMARIES/part-NNNN.json (docs/scale-out.md).
#   LOGS        directory of the job's NCCL logs (default /logs)
#   SUMMARIES   where the summaries go (default /summaries)
#   SHARDS      number of workers (the Job's completions)
#   OUT_NAME    summary name without .json (default part-NNNN; per-node: node-$NODE_NAME)
#   JOBS        threads per worker (default 2)
set -eu
LOGS=${LOGS:-/logs}
SUMMARIES=${SUMMARIES:-/summaries}
: "${SHARDS:?set SHARDS to the number of workers}"
index=${JOB_COMPLETION_INDEX:?not run as a worker of an Indexed Job}
name=${OUT_NAME:-$(printf 'part-%04d' "$index")}
mkdir -p "$SUMMARIES"
rc=0
ncclscope summarize --shard "$index/$SHARDS" -j "${JOBS:-2}" "$LOGS" -o "$SUMMARIES/$name.json.tmp" || rc=$?
# Exit 2 with a summary written: some input was damaged or missing. The summary records it and
# merge reports it; retrying would not help. Without a summary it is a real failure.
if [ "$rc" -ne 0 ] && { [ "$rc" -ne 2 ] || [ ! -s "$SUMMARIES/$name.json.tmp" ]; }; then
  exit "$rc"
fi
mv "$SUMMARIES/$name.json.tmp" "$SUMMARIES/$name.json"
echo "summarised shard $index/$SHARDS of $LOGS into $SUMMARIES/$name.json"
