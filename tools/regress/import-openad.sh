#!/bin/sh
# import-openad.sh: lay out OpenAD's public regression suite in the folder
# layout that `xaiform check` and the corpus tests read (docs/testing.md).
#
# usage: tools/regress/import-openad.sh [--all | --list FILE] [--xaif XAIF]
#                                       REGRESSION DEST
#   REGRESSION  a checkout of OpenAD's regression suite
#               (git clone https://github.com/sriharikrishna/RegressionOpenAD)
#   DEST        the corpus folder to make (must not hold openad/ yet); then
#               cmake -DXF_CORPUS_DIR=DEST
#   --xaif XAIF a checkout of the xaif format's repository
#               (git clone https://github.com/sriharikrishna/xaif): also
#               DEST/xaif-schema/ (its schema/*.xsd) and DEST/xaif-examples/
#               (its schema/examples/*.xaif), which the tangent and adjoint
#               corpus tests and corpus.validate need
#   --all       every example folder of the suite; default: the examples
#               that the committed expectations name (tests/corpus/expected.txt,
#               tests/xaif2c/expected.txt), so that they hold
#   --list FILE the examples named in FILE, one per line
#
# Per example, REGRESSION/testRoundTrip/examples/NAME/ becomes DEST/openad/NAME/:
#   params.conf, head.f, all_globals_mod.f, options, FAILREASON_*   as they are
#   refOutput/tlmhead_sf.pre.xaif           -> tlm.xaif (the front end's xaif)
#   refOutput/admhead_sf.pre.xaif           -> adm.xaif
#   refOutput/tlmnonehead_sf.pre.xb.xaif    -> ref/tlm.xb.xaif (xaifBooster's tangent)
#   refOutput/admjointhead_sf.pre.xb.xaif   -> ref/adm.xb.xaif (xaifBooster's adjoint)
#   refOutput/ad.out, refOutput/dd.out      -> ref/ad.out, ref/dd.out
#   refOutput/*head_sf.pre.xb.x2w.w2f.post.f -> ref/tlm.xb.f, ref/adm.joint.xb.f,
#                                             ref/adm.split.xb.f
#   driver_*.f90 (a driver of its own)      -> CUSTOM_DRIVER, their names
# The suite's generic drivers go to DEST/openad-drivers/.
#
# What it cannot provide: xaif the suite does not hold. OpenAD's Fortran
# front end (Open64, whirl2xaif) wrote tlm.xaif and adm.xaif; where an
# example's refOutput/ lacks them, nothing here can make them, and `check`
# skips that mode with the reason ("no tlm.xaif", "no ref/ad.out", ...).
# The script prints what it laid out; exit status 1 when an example it was
# to lay out is not in the suite (the others are laid out), 2 usage error.
set -eu
all=0 list='' xaif=''
while [ $# -gt 0 ]; do
    case $1 in
    --all) all=1; shift ;;
    --list) [ $# -ge 2 ] || { echo "import-openad.sh: --list needs a FILE" >&2; exit 2; }
        list=$2; shift 2 ;;
    --xaif) [ $# -ge 2 ] || { echo "import-openad.sh: --xaif needs a folder" >&2; exit 2; }
        xaif=$2; shift 2 ;;
    -h | --help) sed -n '2,38p' "$0"; exit 0 ;;
    -*) echo "import-openad.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -ne 2 ]; then
    sed -n '5,6p' "$0" >&2
    exit 2
fi
reg=$1 dest=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
ex=$reg/testRoundTrip/examples
die() { echo "import-openad.sh: $*" >&2; exit 1; }
[ -d "$ex" ] || die "$reg: no testRoundTrip/examples/ (not a checkout of RegressionOpenAD?)"
[ -z "$xaif" ] || [ -f "$xaif/schema/xaif_output.xsd" ] ||
    die "$xaif: no schema/xaif_output.xsd (not a checkout of the xaif repository?)"
[ $all = 0 ] || [ -z "$list" ] || die "--all and --list do not go together"
if [ -e "$dest/openad" ]; then
    die "$dest/openad exists: import into a new folder"
fi

# the examples to lay out
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $all = 1 ]; then
    for d in "$ex"/*/; do [ -f "$d/params.conf" ] && basename "$d"; done >"$tmp/names"
elif [ -n "$list" ]; then
    [ -r "$list" ] || die "$list: cannot read"
    grep -v '^[[:space:]]*\(#\|$\)' "$list" | awk '{print $1}' | LC_ALL=C sort -u >"$tmp/names"
else
    for exp in "$src/tests/corpus/expected.txt" "$src/tests/xaif2c/expected.txt"; do
        [ -r "$exp" ] || die "$exp: cannot read"
        grep -v '^[[:space:]]*\(#\|$\)' "$exp" | awk '{print $1}'
    done | LC_ALL=C sort -u >"$tmp/names"
fi
[ -s "$tmp/names" ] || die "no example to import"

mkdir -p "$dest/openad"
missing=0 n=0
: >"$tmp/files"
# cp_if FROM TO: copy FROM (a symbolic link: what it points to) to
# $out/TO where it exists; note TO
cp_if() {
    if [ -f "$1" ]; then
        cp "$1" "$out/$2"
        echo "$2" >>"$tmp/files"
    fi
}
while read -r name; do
    d=$ex/$name
    if [ ! -f "$d/params.conf" ]; then
        echo "import-openad.sh: $name: not in $ex (no params.conf): left out" >&2
        missing=$((missing + 1))
        continue
    fi
    out=$dest/openad/$name
    mkdir -p "$out/ref"
    n=$((n + 1))
    for f in params.conf head.f all_globals_mod.f options FAILREASON_tlm_none \
        FAILREASON_adm_joint FAILREASON_adm_split FAILREASON_mf_none; do
        cp_if "$d/$f" "$f"
    done
    r=$d/refOutput
    cp_if "$r/tlmhead_sf.pre.xaif" tlm.xaif
    cp_if "$r/admhead_sf.pre.xaif" adm.xaif
    cp_if "$r/tlmnonehead_sf.pre.xb.xaif" ref/tlm.xb.xaif
    cp_if "$r/admjointhead_sf.pre.xb.xaif" ref/adm.xb.xaif
    cp_if "$r/ad.out" ref/ad.out
    cp_if "$r/dd.out" ref/dd.out
    cp_if "$r/tlmnonehead_sf.pre.xb.x2w.w2f.post.f" ref/tlm.xb.f
    cp_if "$r/admjointhead_sf.pre.xb.x2w.w2f.post.f" ref/adm.joint.xb.f
    cp_if "$r/admsplithead_sf.pre.xb.x2w.w2f.post.f" ref/adm.split.xb.f
    # an example with its own drivers: their names (scalar_tlm, ...)
    for f in "$d"/driver_*.f90; do
        [ -f "$f" ] || continue
        b=${f##*/driver_}
        echo "${b%.f90}"
    done | LC_ALL=C sort >"$tmp/custom"
    if [ -s "$tmp/custom" ]; then
        cp "$tmp/custom" "$out/CUSTOM_DRIVER"
        echo CUSTOM_DRIVER >>"$tmp/files"
    fi
    rmdir "$out/ref" 2>/dev/null || true # no reference at all
done <"$tmp/names"

g=$reg/testRoundTrip/genericFiles
if [ -d "$g" ]; then
    mkdir -p "$dest/openad-drivers"
    cp -R "$g"/. "$dest/openad-drivers/"
    [ ! -f "$reg/testRoundTrip/README" ] ||
        cp "$reg/testRoundTrip/README" "$dest/openad-drivers/README.testRoundTrip"
fi
if [ -n "$xaif" ]; then
    mkdir -p "$dest/xaif-schema" "$dest/xaif-examples"
    cp "$xaif"/schema/*.xsd "$dest/xaif-schema/"
    cp "$xaif"/schema/examples/*.xaif "$dest/xaif-examples/"
fi

# what was laid out, and what `check` will skip for want of it
count() { grep -c "^$1\$" "$tmp/files" || true; }
echo "$dest/openad: $n examples ($missing named but not in the suite)"
for f in tlm.xaif adm.xaif ref/tlm.xb.xaif ref/adm.xb.xaif ref/ad.out ref/dd.out CUSTOM_DRIVER; do
    echo "  $f: $(count "$f")"
done
echo "  FAILREASON_*: $(grep -c '^FAILREASON_' "$tmp/files" || true)"
inputs=0
for d in "$dest"/openad/*/; do
    if [ -f "$d/tlm.xaif" ] || [ -f "$d/adm.xaif" ]; then inputs=$((inputs + 1)); fi
done
echo "  with tlm.xaif or adm.xaif (what check runs): $inputs; the others have no xaif in the suite"
if [ -n "$xaif" ]; then
    echo "$dest/xaif-schema: $(find "$dest/xaif-schema" -name '*.xsd' | wc -l) schema files;" \
        "$dest/xaif-examples: $(find "$dest/xaif-examples" -name '*.xaif' | wc -l) documents"
else
    echo "no --xaif: no xaif-schema/ or xaif-examples/; the corpus tests that need them are skipped"
fi
echo "next: cmake -S . -B build -DXF_CORPUS_DIR=$dest && ctest --test-dir build -L corpus"
[ $n -gt 0 ] || die "no example laid out"
[ $missing = 0 ] || die "$missing examples named are not in the suite (above)"
