#!/usr/bin/env bash
# check_install.sh - `meson install` puts libpmix.so.2 in the private
# $libdir/drover, never beside a system OpenPMIx, with headers under
# $includedir/drover and a drover.pc that builds a working program; the
# drover command's drover-cli program goes to the same directory, where the
# command looks for it (relative to itself, in this staged installation).
# Usage: check_install.sh BUILD_DIR static|dynamic (how drover is linked)
set -u
build=$1
front=$2
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fail=0
check() {
  local what=$1; shift
  if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fail=1; fi
}

meson install -C "$build" --no-rebuild --quiet --destdir "$root" >/dev/null || {
  echo "not ok - meson install"; exit 1; }
pc=$(find "$root" -name drover.pc | head -1)
lib=$(find "$root" -name 'libpmix.so.2' | head -1)
check "drover.pc is installed" test -n "$pc"
check "libpmix.so.2 is installed in a directory named drover" \
  test "$(basename "$(dirname "$lib")")" = drover
check "its SONAME is libpmix.so.2" \
  grep -q 'Library soname: \[libpmix.so.2\]' <<<"$(readelf -d "$lib")"
check "no libpmix is installed outside the private directory" \
  test -z "$(find "$root" -name 'libpmix.so*' -not -path '*/drover/*')"
exe=$(find "$root" -path '*/bin/drover' | head -1)
check "drover-cli is installed beside libpmix.so.2" test -x "$(dirname "$lib")/drover-cli"
check "the drover command looks for it there" \
  grep -qaF "$(dirname "${lib#"$root"}")" "$exe"
if [ "$front" = static ]; then
  check "the drover command starts without a dynamic loader (static, musl)" \
    test -x "$exe" -a -z "$(readelf -l "$exe" | grep -w INTERP)"
fi
check "the installed drover command runs its commands" \
  grep -q '^usage: drover' <<<"$(LD_LIBRARY_PATH=$(dirname "$lib") "$exe" help)"
check "headers are under include/drover" test -f "$(dirname "$(find "$root" -name pmix.h)")/drover.h"

cat >"$root/app.c" <<'SRC'
#include <pmix.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    pmix_data_buffer_t buf;
    double in = 0.1, out = 0;
    int32_t n = 1;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    if (PMIX_SUCCESS != PMIx_Data_pack(NULL, &buf, &in, 1, PMIX_DOUBLE) ||
        PMIX_SUCCESS != PMIx_Data_unpack(NULL, &buf, &out, &n, PMIX_DOUBLE) ||
        0 != memcmp(&in, &out, sizeof(in))) {
        return 1;
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    puts(PMIx_Get_version());
    return 0;
}
SRC
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$root
# The .pc file's rpath names the final location; inside the staging root
# the library is found through LD_LIBRARY_PATH instead.
check "a program builds with pkg-config --cflags --libs drover" \
  cc -o "$root/app" "$root/app.c" $(pkg-config --cflags --libs drover)
check "it runs on drover's library" \
  grep -q '^drover ' <<<"$(LD_LIBRARY_PATH=$(dirname "$lib") "$root/app")"
exit $fail
