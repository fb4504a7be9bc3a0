#!/bin/sh
# adbench.sh [-x XAIFORM] [-w WORK] [-O OBJECTIVE] [-i] [--self-test] ADBENCH
# adbench.sh --check-drivers
# `xaiform grad` on the Tapenade C objectives of a checkout of
# microsoft/ADBench (src/cpp/modules/tapenade/), unmodified, in tangent,
# joint and split adjoint; each accepted derivative is compiled with the
# same flags as the objective and Tapenade's derivative beside it, and
# checked against Tapenade's by a driver of tools/bench/adbench/ (1e-10
# relative) on the benchmark's sizes; then a Markdown table: objective,
# mode, accepted (or the first line of the refusal), error, CPU time of f,
# of ours, of Tapenade's, and the ratios (-O: the one objective of that
# name, hand say). -i: instructions per call instead of CPU time
# (callgrind, --toggle-collect on f, on Tapenade's derivative and on ours,
# each called a fixed number of times). Our adjoints are made with
# --no-value where Tapenade's _b computes no value (all four: ba's both,
# gmm's, lstm's). tools/bench/README.md says more.
# CC and CFLAGS (environment) choose the compiler and the one set of flags
# (default: cc, -O2). --self-test uses Tapenade's derivative as "ours"
# where its mode is that of the row, which checks the drivers themselves.
# Exit status: 0 when every accepted derivative passed its check.
# --check-drivers only compiles the drivers (ctest golden.adbench.drivers).
# shellcheck disable=SC2086 # CFLAGS and a driver's data are word lists
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
xaiform=$root/build/xaiform
work=${TMPDIR:-/tmp}/xaiform-adbench
self=0 only='' count=''
if [ "${1:-}" = --check-drivers ]; then
  # the drivers alone (no checkout needed): every variant compiles cleanly
  cc=${CC:-cc} rc=0
  for drv in gmm:- ba:-DOBJ=1 ba:-DOBJ=2 hand:-DOBJ=1 hand:-DOBJ=2 lstm:-; do
    d=${drv%%:*} o=${drv#*:}
    [ "$o" = - ] && o=
    for ours in 0 1 2; do
      $cc -std=c99 -Wall -Wextra -Wunused -Werror -O2 -fsyntax-only $o -DOURS=$ours "$here/adbench/$d.c" ||
        { echo "adbench.sh: $d.c $o -DOURS=$ours does not compile" >&2; rc=1; }
    done
  done
  [ $rc = 0 ] && echo "adbench.sh: 18 driver variants compile"
  exit $rc
fi
while [ $# -gt 1 ]; do
  case $1 in
  -x) xaiform=$2; shift 2 ;;
  -w) work=$2; shift 2 ;;
  -O) only=$2; shift 2 ;;
  --self-test) self=1; shift ;;
  -i) count=1; shift ;;
  *) break ;;
  esac
done
[ $# = 1 ] || { echo "usage: adbench.sh [-x XAIFORM] [-w WORK] [-O OBJECTIVE] [-i] [--self-test] ADBENCH_CHECKOUT" >&2; exit 2; }
[ -z "$count" ] || command -v valgrind >/dev/null ||
  { echo "adbench.sh: -i needs valgrind" >&2; exit 1; }
adb=$1
tap=$adb/src/cpp/modules/tapenade
[ -f "$tap/gmm/gmm.c" ] || { echo "adbench.sh: $tap/gmm/gmm.c: no such file (not an ADBench checkout?)" >&2; exit 1; }
[ -x "$xaiform" ] || { echo "adbench.sh: $xaiform: not an executable (-x XAIFORM)" >&2; exit 1; }
# the script works in other folders: make the paths it was given absolute
case $xaiform in /*) ;; *) xaiform=$(pwd)/$xaiform ;; esac
case $adb in /*) ;; *) adb=$(pwd)/$adb tap=$adb/src/cpp/modules/tapenade ;; esac
cc=${CC:-cc}
cflags=${CFLAGS:--O2}
mkdir -p "$work" || exit 1

# rename OBJ PREFIX: every global symbol OBJ defines gets PREFIX, so that
# ours and Tapenade's (same names) link into one program
rename() {
  nm -g --defined-only "$1" | awk -v p="$2" 'NF == 3 { print $3, p $3 }' >"$1.syms" &&
    objcopy --redefine-syms="$1.syms" "$1"
}

# the objects that do not depend on the mode, once per folder
for d in gmm ba hand lstm; do
  $cc $cflags -c "$tap/$d/$d.c" -o "$work/$d.o" 2>"$work/$d.cc.err" ||
    { echo "adbench.sh: $cc $cflags $tap/$d/$d.c: $(head -1 "$work/$d.cc.err")" >&2; exit 1; }
  case $d in hand) s=hand_d.c ;; *) s=${d}_b.c ;; esac
  if ! { $cc $cflags -c "$tap/$d/$s" -o "$work/${d}_tap1.o" 2>"$work/$d.tap.err" &&
    $cc $cflags -c "$tap/utils/adBuffer.c" -o "$work/${d}_buf.o" 2>>"$work/$d.tap.err" &&
    $cc $cflags -c "$tap/utils/adStack.c" -o "$work/${d}_stack.o" 2>>"$work/$d.tap.err" &&
    ld -r "$work/${d}_tap1.o" "$work/${d}_buf.o" "$work/${d}_stack.o" -o "$work/${d}_raw.o"; }; then
    echo "adbench.sh: Tapenade's $d/$s: $(head -1 "$work/$d.tap.err")" >&2
    exit 1
  fi
  cp "$work/${d}_raw.o" "$work/${d}_tap.o" && rename "$work/${d}_tap.o" tap_ || exit 1
done

gmmdata="10 25 1000"
[ -f "$adb/data/gmm/1k/gmm_d10_K25.txt" ] && gmmdata=$adb/data/gmm/1k/gmm_d10_K25.txt
badata=
[ -f "$adb/data/ba/ba1_n49_m7776_p31843.txt" ] && badata=$adb/data/ba/ba1_n49_m7776_p31843.txt
lstmdata="2 1024 14"
[ -f "$adb/data/lstm/lstm_l2_c1024.txt" ] && lstmdata=$adb/data/lstm/lstm_l2_c1024.txt

# the objectives whose Tapenade _b computes no value (ba_b.c, gmm_b.c,
# lstm_b.c assign no err, no loss): ours neither (grad --no-value)
novalue=" ba_reproj ba_weight gmm lstm "

# name folder function independents dependent driver defines reference-mode
# extents (grad's --extent for pointer parameters whose size the code does
# not show; - none)
objectives="gmm gmm gmm_objective alphas,means,icf err gmm - adjoint alphas=k,means=k*d,icf=k*d*(d+1)/2,x=n*d,preprocess_qs:icf=k*d*(d+1)/2,preprocess_qs:Qdiags=k*d,preprocess_qs:sum_qs=k,Qtimesx:ltri=d*(d-1)/2,Qtimesx:out=d,log_wishart_prior:sum_qs=k,log_wishart_prior:Qdiags=k*p,log_wishart_prior:icf=k*p*(p+1)/2
ba_reproj ba compute_reproj_error cam,X,w err ba -DOBJ=1 adjoint cam=11,X=3,w=1,feat=2,err=2
ba_weight ba compute_zach_weight_error w err ba -DOBJ=2 adjoint -
hand hand hand_objective theta err hand -DOBJ=1 tangent base_relatives=bone_count,base_relatives->data=16,inverse_base_absolutes=bone_count,inverse_base_absolutes->data=16,get_skinned_vertex_positions:relatives->data=16,get_skinned_vertex_positions:absolutes->data=16,get_skinned_vertex_positions:transforms->data=16,get_skinned_vertex_positions:curr_positions->data=4*base_positions->ncols,get_skinned_vertex_positions:base_relatives=bone_count,get_skinned_vertex_positions:base_relatives->data=16,get_skinned_vertex_positions:inverse_base_absolutes=bone_count,get_skinned_vertex_positions:inverse_base_absolutes->data=16,get_posed_relatives:base_relatives=bone_count,get_posed_relatives:base_relatives->data=16,get_posed_relatives:relatives=bone_count,get_posed_relatives:relatives->data=16,relatives_to_absolutes:relatives=count,relatives_to_absolutes:relatives->data=16,relatives_to_absolutes:absolutes=count,relatives_to_absolutes:absolutes->data=16,euler_angles_to_rotation_matrix:tmp->data=9,apply_global_transform:tmp->data=3*positions->ncols,theta=26,base_positions->data=base_positions->nrows*base_positions->ncols,weights->data=weights->nrows*weights->ncols,points->data=points->nrows*points->ncols,err=3*corresp_count,correspondences=corresp_count,get_skinned_vertex_positions:base_positions->data=base_positions->nrows*base_positions->ncols,get_skinned_vertex_positions:weights->data=weights->nrows*weights->ncols,get_skinned_vertex_positions:pose_params->data=3*(bone_count+3),get_skinned_vertex_positions:parents=bone_count,get_posed_relatives:pose_params->data=3*(bone_count+3),apply_global_transform:pose_params->data=pose_params->nrows*pose_params->ncols,apply_global_transform:positions->data=positions->nrows*positions->ncols,mat_mult:lhs->data=lhs->nrows*lhs->ncols,mat_mult:rhs->data=rhs->nrows*rhs->ncols,set_identity:mat->data=mat->nrows*mat->ncols,set_block:mat->data=mat->nrows*mat->ncols,set_block:block->data=block->nrows*block->ncols,copy:src->data=src->nrows*src->ncols,copy:dst->data=src->nrows*src->ncols,euler_angles_to_rotation_matrix:xzy=3,euler_angles_to_rotation_matrix:R->data=9,angle_axis_to_rotation_matrix:angle_axis=3,angle_axis_to_rotation_matrix:R->data=R->nrows*R->ncols,relatives_to_absolutes:parents=count
hand_complicated hand hand_objective_complicated theta,us err hand -DOBJ=2 tangent triangles=1084,us=2*corresp_count,base_relatives=bone_count,base_relatives->data=16,inverse_base_absolutes=bone_count,inverse_base_absolutes->data=16,get_skinned_vertex_positions:relatives->data=16,get_skinned_vertex_positions:absolutes->data=16,get_skinned_vertex_positions:transforms->data=16,get_skinned_vertex_positions:curr_positions->data=4*base_positions->ncols,get_skinned_vertex_positions:base_relatives=bone_count,get_skinned_vertex_positions:base_relatives->data=16,get_skinned_vertex_positions:inverse_base_absolutes=bone_count,get_skinned_vertex_positions:inverse_base_absolutes->data=16,get_posed_relatives:base_relatives=bone_count,get_posed_relatives:base_relatives->data=16,get_posed_relatives:relatives=bone_count,get_posed_relatives:relatives->data=16,relatives_to_absolutes:relatives=count,relatives_to_absolutes:relatives->data=16,relatives_to_absolutes:absolutes=count,relatives_to_absolutes:absolutes->data=16,euler_angles_to_rotation_matrix:tmp->data=9,apply_global_transform:tmp->data=3*positions->ncols,theta=26,base_positions->data=base_positions->nrows*base_positions->ncols,weights->data=weights->nrows*weights->ncols,points->data=points->nrows*points->ncols,err=3*corresp_count,correspondences=corresp_count,get_skinned_vertex_positions:base_positions->data=base_positions->nrows*base_positions->ncols,get_skinned_vertex_positions:weights->data=weights->nrows*weights->ncols,get_skinned_vertex_positions:pose_params->data=3*(bone_count+3),get_skinned_vertex_positions:parents=bone_count,get_posed_relatives:pose_params->data=3*(bone_count+3),apply_global_transform:pose_params->data=pose_params->nrows*pose_params->ncols,apply_global_transform:positions->data=positions->nrows*positions->ncols,mat_mult:lhs->data=lhs->nrows*lhs->ncols,mat_mult:rhs->data=rhs->nrows*rhs->ncols,set_identity:mat->data=mat->nrows*mat->ncols,set_block:mat->data=mat->nrows*mat->ncols,set_block:block->data=block->nrows*block->ncols,copy:src->data=src->nrows*src->ncols,copy:dst->data=src->nrows*src->ncols,euler_angles_to_rotation_matrix:xzy=3,euler_angles_to_rotation_matrix:R->data=9,angle_axis_to_rotation_matrix:angle_axis=3,angle_axis_to_rotation_matrix:R->data=R->nrows*R->ncols,relatives_to_absolutes:parents=count
lstm lstm lstm_objective main_params,extra_params loss lstm - adjoint main_params=8*l*b,extra_params=3*b,state=2*l*b,sequence=c*b,lstm_predict:w=8*l*b,lstm_predict:w2=3*b,lstm_predict:s=2*l*b,lstm_predict:x=b,lstm_predict:x2=b,lstm_model:weight=4*hsize,lstm_model:bias=4*hsize"

data_of() {
  case $1 in
  gmm) echo "$gmmdata" ;;
  ba_*) echo "$badata" ;;
  hand*) echo 100 ;;
  lstm) echo "$lstmdata" ;;
  esac
}

# calls of each function under callgrind (-i): about 10^8 instructions
calls_of() {
  case $1 in
  ba_*) echo 10000 ;;
  hand*) echo 20 ;;
  *) echo 2 ;;
  esac
}

# counts BIN CALLS FUNCTION...: BIN (its data $data) run under callgrind
# with ADB_CALLS=CALLS, collecting in the FUNCTIONs only; prints each
# one's instructions per call (inclusive), -1 where it was not reached
counts() {
  cbin=$1 ccalls=$2
  shift 2
  ctg=
  for cfn in "$@"; do ctg="$ctg --toggle-collect=$cfn"; done
  ADB_CALLS=$ccalls valgrind --tool=callgrind $ctg --callgrind-out-file="$cbin.cg" "$cbin" $data \
    >"$cbin.cg.out" 2>"$cbin.vg.err" || { for cfn in "$@"; do echo -1; done; return 1; }
  for cfn in "$@"; do
    callgrind_annotate --inclusive=yes "$cbin.cg" 2>/dev/null |
      awk -v f="$cfn" -v k="$ccalls" '$0 ~ ":" f " " { gsub(",", "", $1); printf "%.0f\n", $1 / k; found = 1; exit }
        END { if (!found) print -1 }'
  done
}

# a time in µs, or with -i an instruction count, as printed
us() {
  if [ -n "$count" ]; then
    awk -v t="$1" 'BEGIN { if (t < 0) print "-"; else printf "%d", t }'
  else
    awk -v t="$1" 'BEGIN { if (t < 0) print "-"; else printf "%.3g", t * 1e6 }'
  fi
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a < 0 || b <= 0) print "-"; else printf "%.2f", a / b }'; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2"; }

bad=0
unit=µs
[ -n "$count" ] && unit=instr.
echo "| objective | mode | accepted | error | f ($unit) | ours ($unit) | Tapenade ($unit) | ours/f | Tapenade/f | ours/Tapenade |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
while read -r name dir fn ind dep drv defs refmode ext; do
  [ -n "$only" ] && [ "$name" != "$only" ] && continue
  [ "$defs" = - ] && defs=
  ea=
  [ "$ext" = - ] || ea="--extent $ext"
  w=$work/$name
  mkdir -p "$w"
  $cc $cflags -I"$here/adbench" $defs -DOURS=0 "$here/adbench/$drv.c" "$work/$dir.o" \
    "$work/${dir}_tap.o" -o "$w/ref" -lm 2>"$w/ref.cc.err" ||
    { echo "| $name | - | driver does not compile: $(grep -m1 error "$w/ref.cc.err") | | | | | | | |"; bad=1; continue; }
  data=$(data_of "$name")
  # with -i, the drivers check without timing (ADB_CALLS=0)
  calls=${count:+0}
  ADB_CALLS=$calls "$w/ref" $data >"$w/ref.out" 2>&1 || { echo "| $name | - | driver: $(head -1 "$w/ref.out") | | | | | | | |"; bad=1; continue; }
  tf=$(field t_f "$w/ref.out") tr=$(field t_ref "$w/ref.out")
  rfn=tap_${fn}_b
  [ "$refmode" = tangent ] && rfn=tap_${fn}_d
  if [ -n "$count" ]; then
    cnt=$(counts "$w/ref" "$(calls_of "$name")" "$fn" "$rfn")
    tf=$(echo "$cnt" | sed -n 1p) tr=$(echo "$cnt" | sed -n 2p)
  fi
  nv=
  case $novalue in *" $name "*) nv=--no-value ;; esac
  for k in tangent joint split; do
    mode=adjoint rev=$k ours=2
    [ $k = tangent ] && mode=tangent rev=joint ours=1
    nvo=
    [ $mode = adjoint ] && nvo=$nv
    if [ $self = 1 ]; then
      if [ $mode = "$refmode" ]; then
        cp "$work/${dir}_raw.o" "$w/ours.o"
      else
        echo "self-test: Tapenade has no $mode of $fn" >"$w/$k.err"
        echo "| $name | $k | no: $(head -1 "$w/$k.err") | - | $(us "$tf") | - | $(us "$tr") | - | $(ratio "$tr" "$tf") | - |"
        continue
      fi
    elif ! (cd "$tap/$dir" && "$xaiform" grad "$dir.c" --function "$fn" --independent "$ind" $ea \
      --dependent "$dep" --mode $mode --reversal "$rev" $nvo -o "$w/$k.c") 2>"$w/$k.err"; then
      why=$(head -1 "$w/$k.err" | sed 's/|/\\|/g')
      echo "| $name | $k | no: $why | - | $(us "$tf") | - | $(us "$tr") | - | $(ratio "$tr" "$tf") | - |"
      continue
    elif ! $cc $cflags -I"$root/include" -I"$tap/$dir" -c "$w/$k.c" -o "$w/ours.o" 2>"$w/$k.cc.err"; then
      echo "| $name | $k | yes, does not compile: $(grep -m1 error "$w/$k.cc.err") | - | $(us "$tf") | - | $(us "$tr") | - | $(ratio "$tr" "$tf") | - |"
      bad=1
      continue
    fi
    rename "$w/ours.o" our_
    if ! $cc $cflags -I"$here/adbench" $defs -DOURS=$ours -DADB_SELF=$self "$here/adbench/$drv.c" "$work/$dir.o" \
      "$work/${dir}_tap.o" "$w/ours.o" -o "$w/$k" -lm 2>"$w/$k.link.err"; then
      echo "| $name | $k | yes, does not link: $(grep -m1 -i 'error\|undefined' "$w/$k.link.err") | - | $(us "$tf") | - | $(us "$tr") | - | $(ratio "$tr" "$tf") | - |"
      bad=1
      continue
    fi
    rc=0
    ADB_CALLS=$calls "$w/$k" $data >"$w/$k.out" 2>&1 || rc=$?
    e=$(field error "$w/$k.out")
    [ -n "$e" ] || e="run: $(head -1 "$w/$k.out")"
    [ $rc = 0 ] || { bad=1 e="$e FAIL"; }
    if [ -n "$count" ]; then
      ofn=our_${fn}_b
      [ $mode = tangent ] && ofn=our_${fn}_d
      to=$(counts "$w/$k" "$(calls_of "$name")" "$ofn")
    else
      to=$(field t_ours "$w/$k.out")
      tf=$(field t_f "$w/$k.out") tr=$(field t_ref "$w/$k.out")
    fi
    echo "| $name | $k | yes | $e | $(us "$tf") | $(us "$to") | $(us "$tr") | $(ratio "$to" "$tf") | $(ratio "$tr" "$tf") | $(ratio "$to" "$tr") |"
  done
  echo "$name: $(cat "$w/ref.out")" >>"$work/drivers.log"
done <<END
$objectives
END
exit $bad
