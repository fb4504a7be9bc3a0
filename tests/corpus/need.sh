#!/bin/sh
# need.sh CORPUS PATH... -- COMMAND [ARG...]: run COMMAND when every PATH
# exists under the corpus folder CORPUS (XF_CORPUS_DIR); else print one
# line saying which is missing and how to get it, and exit 77, which ctest
# reports as skipped (SKIP_RETURN_CODE), never as passed.
corpus=$1
shift
for p; do
    shift
    [ "$p" = -- ] && break
    if [ ! -e "$corpus/$p" ]; then
        case $p in
        openad*) how="tools/regress/import-openad.sh RegressionOpenAD_CHECKOUT DEST" ;;
        *) how="tools/regress/import-openad.sh --xaif XAIF_CHECKOUT RegressionOpenAD_CHECKOUT DEST" ;;
        esac
        echo "not run: no $corpus/$p; to get it: $how, then cmake -DXF_CORPUS_DIR=DEST (docs/testing.md)"
        exit 77
    fi
done
[ $# -gt 0 ] || { echo "need.sh: no command after --" >&2; exit 2; }
exec "$@"
