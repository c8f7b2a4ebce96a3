#!/bin/sh
# cleanup.sh MINIHOST CLIENT - a job registers a directory tree for cleanup
# (PMIx_Job_control, PMIX_REGISTER_CLEANUP_DIR): it must be gone once the
# job has ended, and the job must succeed.
set -eu
dir=$(mktemp -d)
mkdir -p "$dir/sub/deeper"
touch "$dir/sub/deeper/file" "$dir/file"
"$1" 2 "$2" "$dir"
if [ -e "$dir" ]; then
    echo "cleanup.sh: $dir is still there" >&2
    rm -rf "$dir"
    exit 1
fi
echo "cleanup.sh: registered directory removed"
