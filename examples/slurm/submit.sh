#!/bin/bash
# Summarise the NCCL logs in LOGS with a 16-task array, then merge once every task succeeded:
#   LOGS=/shared/runs/123/nccl ./examples/slurm/submit.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LOGS=${LOGS:?export LOGS=directory of the job\'s NCCL logs}
export SUMMARIES=${SUMMARIES:-$LOGS.summaries}
array=$(sbatch --parsable --export=ALL "$here/summarize-array.sbatch")
merge=$(sbatch --parsable --export=ALL --dependency="afterok:${array%%;*}" "$here/merge.sbatch")
echo "summaries: job $array; merge: job $merge -> $SUMMARIES/report.{txt,json}"
