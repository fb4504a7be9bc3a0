#!/bin/sh
# zeros.sh CC INCLUDE WORK: tests/xaif2c/zeros.c, compiled with the
# runtime header alone (-std=c99 -Wall -Werror -O2), exits 0: xf_ad_zeros
# takes malloc's memory and zeroes it, calling no calloc.
cc=$1 inc=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work" || exit 2
$cc -std=c99 -Wall -Werror -O2 -I"$inc" "$here/zeros.c" -o "$work/zeros" -lm ||
  { echo "zeros.sh: zeros.c does not compile" >&2; exit 1; }
"$work/zeros"
