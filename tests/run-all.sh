#!/bin/sh
# run-all.sh: build xaiform and run every test.
#  1. a Debug build with AddressSanitizer and UndefinedBehaviorSanitizer
#     (-DXF_SANITIZE=ON) runs the ctest suite (unit, golden, corpus) but
#     unit.scale;
#  2. a plain build (build-vg) runs the scale suite (unit.scale), then the unit tests
#     and the command line under valgrind memcheck, which must report no
#     error and no leak.
# The corpus is read in place from ../shared/corpus, or -DXF_CORPUS_DIR (ctest
# reports those tests as skipped when it is missing, and this script says
# which folder was missing). Exit status 0 when everything passed.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

echo "== sanitizer build (ASan + UBSan)"
# -O1, which AddressSanitizer's documentation advises for reasonable speed:
# the unit suite addr takes 20 s of CPU instead of 45 s at -O0
cmake -S . -B build-san -DXF_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" >/dev/null
cmake --build build-san -j "$jobs"
# all but unit.scale (100 000-deep expressions, long blocks: six minutes
# under ASan on two cores), which runs in the plain build below
ctest --test-dir build-san --output-on-failure -j "$jobs" -E '^unit\.scale$'
# ctest prints no output of a skipped test: say once why the corpus ones were
corpus=$(sed -n 's/^XF_CORPUS_DIR:PATH=//p' build-san/CMakeCache.txt)
sh tests/corpus/need.sh "$corpus" openad xaif-schema/xaif_output.xsd xaif-examples -- true ||
    echo "(so the corpus tests were skipped; docs/testing.md)"

echo "== valgrind memcheck"
if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind is not installed: memcheck not run" >&2
    exit 1
fi
# a build of its own (build-vg), without the Fortran front end: memcheck runs
# no Fortran, and the Flang plugin (C++, about 1.5 minutes) was built above;
# a build of its own so that the option does not stick to the user's build/
b=build-vg
cmake -S . -B $b -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXF_F_FRONTEND=OFF >/dev/null
# what memcheck and unit.scale run, and no more
cmake --build $b -j "$jobs" --target xaiform xaiform_unit
echo "== unit.scale (plain build)"
ctest --test-dir $b --output-on-failure -R '^unit\.scale$'
# tests/graphviz.supp: graphviz's own leaks (once per process), not xaiform's
vg="valgrind -q --suppressions=tests/graphviz.supp --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=99"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the scale suite (100 000-deep expressions, long blocks) is left to the
# sanitizer build: under valgrind it would take most of CI's time
XF_UNIT_SMALL=1 CK_FORK=no $vg $b/tests/xaiform_unit
$vg $b/xaiform copy examples/head.xaif -o "$tmp/head.xaif"
$vg $b/xaiform validate -q examples/head.xaif
$vg $b/xaiform compare examples/head.xaif "$tmp/head.xaif"
$vg $b/xaiform dot examples/head.xaif --routine head__1 -o "$tmp/head.svg"
$vg $b/xaiform dot examples/head.xaif --what lcg -o "$tmp/lcg.png"
status=0
$vg $b/xaiform copy tests/golden/dangling-edge.xaif -o "$tmp/x.xaif" 2>/dev/null || status=$?
[ "$status" -eq 1 ] || { echo "memcheck: expected exit 1 on a bad input, got $status" >&2; exit 1; }
$vg $b/xaiform tangent examples/head.xaif -o "$tmp/r.xaif" --xslt tools/xslt/strip-annotations.xsl \
    --xslt tools/xslt/rename-prefix.xsl --param prefix XF_
$vg $b/xaiform adjoint examples/head.xaif -o "$tmp/a.xaif" --reversal split
mkdir "$tmp/in" && cp examples/head.xaif "$tmp/in/a.xaif" && cp examples/head.xaif "$tmp/in/b.xaif"
$vg --trace-children=yes $b/xaiform batch --mode adjoint -j2 --out-dir "$tmp/out" \
    --xslt tools/xslt/rename-prefix.xsl --param prefix XF_ --report "$tmp/r.json" "$tmp/in" 2>"$tmp/batch.err" \
    || { cat "$tmp/batch.err" >&2; exit 1; }
status=0
$vg $b/xaiform copy examples/head.xaif -o "$tmp/y.xaif" --xslt tests/xslt/terminate.xsl 2>/dev/null || status=$?
[ "$status" -eq 1 ] || { echo "memcheck: expected exit 1 from a failing stylesheet, got $status" >&2; exit 1; }
$vg $b/oad/xaifBooster/algorithms/BasicBlockPreaccumulationReverse/driver/oadDriver \
    -i examples/head.xaif -o "$tmp/oad.xaif" -I
$vg $b/xaiform check examples/head >/dev/null
$vg $b/xaiform xaif2f "$tmp/a.xaif" -o "$tmp/a.f90" --reversal split
status=0
$vg $b/xaiform tangent "$tmp/r.xaif" -o "$tmp/rr.xaif" 2>/dev/null || status=$?
[ "$status" -eq 1 ] || { echo "memcheck: expected exit 1 on derivative code, got $status" >&2; exit 1; }
echo "memcheck: clean"
echo "== all tests passed"
