#!/usr/bin/env bash
# spread.sh - with more images than the cores they may use and no binding
# from the launcher, the images bind themselves one per core in turn; with
# DROVER_CAF_SPREAD=0 they keep the launcher's placement.
#
#   spread.sh DROVER PROGRAM      (PROGRAM: spread.f90 built with drover caf)
set -u
drover=$1 program=$2
fail=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fail=1; fi
}
mine=$(awk '/^Cpus_allowed_list:/ {print $2}' /proc/self/status)
cores=$(nproc)
images=$((2 * cores + 1))

# Lines "image N Cpus_allowed_list: LIST"; prints the lists.
lists() { awk '/^image / {print $4}' <<<"$1" | sort; }

out=$("$drover" run --oversubscribe -n "$images" "$program" 2>&1)
check "$images images on $cores cores: every image reports" test "$(lists "$out" | wc -l)" -eq "$images"
if [ "$cores" -ge 2 ]; then
  check "each image is bound to one core" bash -c "! grep -q '[-,]' <<<'$(lists "$out")'"
  # Per core, 2 or 3 images: none has more than one above the fewest.
  counts=$(lists "$out" | uniq -c | awk '{print $1}' | sort -n)
  check "images are spread evenly ($(echo $counts))" \
    test "$(tail -1 <<<"$counts")" -le "$(( $(head -1 <<<"$counts") + 1 ))"
  check "every core has images" test "$(wc -l <<<"$counts")" -eq "$cores"
else
  check "a single core: placement left alone" bash -c "! grep -qv '^$mine\$' <<<'$(lists "$out")'"
fi

out=$(DROVER_CAF_SPREAD=0 "$drover" run --oversubscribe -n "$images" "$program" 2>&1)
check "DROVER_CAF_SPREAD=0: every image reports" test "$(lists "$out" | wc -l)" -eq "$images"
check "DROVER_CAF_SPREAD=0: every image keeps all cores ($mine)" \
  bash -c "! grep -qv '^$mine\$' <<<'$(lists "$out")'"
exit "$fail"
