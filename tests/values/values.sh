#!/bin/sh
# shellcheck disable=SC2086,SC2015
# values.sh XAIFORM CC INCLUDE WORK SRCDIR: the user's own C interfaces
# (issue 23 item 1). Each function of tests/values/ goes through `xaiform
# grad` in tangent and joint adjoint, the first three also in split adjoint
# (the others' split f_b differs from the joint one only by the wrapper's
# second call, which those three test), with --header; everything compiles
# with CC -std=c99 -Wall -Werror -O2, check.c (which includes the headers
# grad wrote) links with the tangents and the joint adjoints, then with the
# split ones (a copy of the joint one where there is none), and checks them (see
# check.c). static_a.c and static_b.c both define `static double
# sq(double)`: their derivatives link into one program. Exit 1 on any
# failure.
xaiform=$1 cc=$2 inc=$3 work=$4 src=$5
flags="-std=c99 -Wall -Werror -O2 -I$inc"
rm -rf "$work"
mkdir -p "$work/joint" "$work/split" || exit 1
fail=0
# file:function:independents:dependents:extents
for spec in damp:damp:x,c:damp_ret: tailsum:tailsum:x:tailsum_ret:x=4 \
    mix:mix:a,y,s:y:a=3,y=3 fscale:fscale:x,w:fscale_ret:w=3 \
    clampsum:clampsum:x:y:x=4,y=4 static_a:fsa:x:fsa_ret: static_b:fsb:x,z:fsb_ret:; do
  IFS=: read -r file f ind dep ext <<EOT
$spec
EOT
  ea=
  [ -n "$ext" ] && ea="--extent $ext"
  modes="tangent joint split"
  case $file in damp | tailsum | mix) ;; *) modes="tangent joint" ;; esac
  for k in $modes; do
    mode=adjoint rev=$k out=$work/$k/${file}_b.c hdr=$work/${file}_b.h
    [ $k = tangent ] && mode=tangent rev=joint out=$work/${file}_d.c hdr=$work/${file}_d.h
    "$xaiform" grad "$src/$file.c" --function "$f" --independent "$ind" --dependent "$dep" $ea \
        --mode $mode --reversal $rev --header "$hdr" -o "$out" 2>"$work/$file.$k.err" ||
      { echo "FAIL $file: grad $k: $(head -1 "$work/$file.$k.err")"; fail=1; }
  done
done
# fscale is float throughout: its derivatives compute in float, no double
# anywhere (the temporaries, their derivatives, the propagators' xf_t)
for g in "$work/fscale_d.c" "$work/joint/fscale_b.c"; do
  grep -n 'double' "$g" >"$work/fscale.double" &&
    { echo "FAIL $g declares a double: $(head -1 "$work/fscale.double")"; fail=1; }
done
[ $fail = 0 ] || exit 1
files="damp tailsum mix fscale clampsum static_a static_b"
srcs='' tans='' joints='' splits=''
for file in $files; do
  srcs="$srcs $src/$file.c" tans="$tans $work/${file}_d.c" joints="$joints $work/joint/${file}_b.c"
  [ -f "$work/split/${file}_b.c" ] || cp "$work/joint/${file}_b.c" "$work/split/" || exit 1
  splits="$splits $work/split/${file}_b.c"
done
# one compiler run per kind: the originals and tangents, the joint, the split adjoints
(cd "$work" && $cc $flags -c $srcs $tans) && (cd "$work/joint" && $cc $flags -c $joints) &&
  (cd "$work/split" && $cc $flags -c $splits) ||
  { echo "FAIL: the functions or their derivatives do not compile"; exit 1; }
objs=
for file in $files; do
  objs="$objs $work/$file.o $work/${file}_d.o"
done
for k in joint split; do
  $cc $flags -I"$work" "$src/check.c" $objs "$work"/$k/*_b.o -o "$work/check_$k" -lm ||
    { echo "FAIL: check.c does not compile or link ($k)"; exit 1; }
  echo "$k:"
  "$work/check_$k" || fail=1
done
[ $fail = 0 ] && echo "values: all passed"
exit $fail
