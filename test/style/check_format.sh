#!/bin/sh
# check_format.sh CLANG_FORMAT SOURCE_ROOT - the files listed in
# formatted.txt are as .clang-format writes them (docs/style.md says why
# only those). A listed file that is gone fails too, so the list stays true.
set -u
clang_format=$1
root=$2
status=0
checked=0
while read -r file; do
    if [ ! -f "$root/$file" ]; then
        echo "$file: listed in test/style/formatted.txt but missing"
        status=1
    elif ! (cd "$root" && "$clang_format" --dry-run -Werror "$file"); then
        status=1
    fi
    checked=$((checked + 1))
done < "$root/test/style/formatted.txt"
echo "$checked files checked"
exit $status
