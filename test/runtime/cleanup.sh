#!/bin/sh
# cleanup.sh MINIHOST CLIENT - a job registers two directory trees for
# cleanup (PMIx_Job_control, PMIX_REGISTER_CLEANUP_DIR; the second with
# PMIx_Job_control_nb and no callback): both must be gone once the job has
# ended, and the job must succeed.
set -eu
dirs="$(mktemp -d) $(mktemp -d)"
for dir in $dirs; do
    mkdir -p "$dir/sub/deeper"
    touch "$dir/sub/deeper/file" "$dir/file"
done
# shellcheck disable=SC2086 # two words: the two directories
"$1" 2 "$2" $dirs
for dir in $dirs; do
    if [ -e "$dir" ]; then
        echo "cleanup.sh: $dir is still there" >&2
        rm -rf $dirs
        exit 1
    fi
done
echo "cleanup.sh: registered directories removed"
