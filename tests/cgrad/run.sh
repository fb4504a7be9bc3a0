#!/bin/sh
# run.sh [--update] [--sanitize] XAIFORM CC INCLUDE WORK EXPECTED TEST.c...
# (check.c among the TEST.c files is left out)
# Each test's first line names its function and the rest of its `xaiform
# grad` options: /* cgrad: F --independent A,B --dependent Y */. The test
# goes through `xaiform grad` as tangent and as joint and split adjoint;
# what grad accepts is compiled with CC -std=c99 -Wall -Werror -Wunused -O2 (and
# with --sanitize, AddressSanitizer and UBSan) together with the test's
# shim (#ifdef XF_CHECK, check.h) and check.c, and checked: the tangent
# against central differences, each adjoint against the tangent by the
# dot-product test (check.c says how). One status a test and mode:
#   PASS
#   REFUSED CLASS   grad refused it; CLASS: its message's first words, the
#                   quoted names and numbers left out
#   FAIL CLASS      compile, link, check-tangent, check-dot, check-adjoint,
#                   run-error (a crash or a sanitizer's report), no-tangent
# compared with EXPECTED: any change, better or worse, fails (exit 1);
# --update rewrites EXPECTED instead. Two tests run at a time. A refusal
# by the C front end (FILE:LINE:COL; grad runs it alike for every mode,
# before the mode counts) is recorded for the adjoints from the tangent's
# run, which halves the time of a refused test; XF_CGRAD_ALL_MODES=1 (in
# the environment) runs grad in every mode all the same.
update=0 san=
while :; do
  case ${1:-} in
  --update) update=1; shift ;;
  --sanitize) san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"; shift ;;
  *) break ;;
  esac
done
[ $# -ge 6 ] || { echo "usage: run.sh [--update] [--sanitize] XAIFORM CC INCLUDE WORK EXPECTED TEST.c..." >&2; exit 2; }
xaiform=$1 cc=$2 inc=$3 work=$4 expected=$5
shift 5
case $expected in
*.c) echo "run.sh: EXPECTED is $expected, a C file: an argument is missing" >&2; exit 2 ;;
esac
tests=
for src in "$@"; do
  case $src in */check.c | check.c) ;; *) tests="$tests $src" ;; esac
done
# shellcheck disable=SC2086 # test paths have no spaces
set -- $tests
[ $# -ge 1 ] || { echo "run.sh: no test given" >&2; exit 2; }
dir=$(cd "$(dirname "$0")" && pwd) # check.c, check.h
flags="-std=c99 -Wall -Werror -Wunused -O2 $san"
mkdir -p "$work" || exit 2
# shellcheck disable=SC2086 # flags is a word list
$cc $flags -c "$dir/check.c" -o "$work/check.o" 2>"$work/check.err" ||
  { echo "run.sh: check.c does not compile: $(head -3 "$work/check.err")" >&2; exit 2; }

# the class of a refusal: the message after "error: ", quoted names and
# numbers out, lower case, words joined by '-', at most 6 words
refusal() {
  head -1 "$1" | sed -e 's/^.*error: //' -e "s/'[^']*'//g" -e 's/[0-9][0-9]*//g' |
    tr '[:upper:]' '[:lower:]' | tr -c 'a-z\n' ' ' | awk '{ s = ""; for (i = 1; i <= NF && i <= 6; i++) s = s (i > 1 ? "-" : "") $i; print s == "" ? "unknown" : s }'
}

# one_test SRC: writes WORK/NAME/status, one line a mode
one_test() {
  src=$1
  name=$(basename "$src" .c)
  w=$work/$name
  rm -rf "$w" && mkdir -p "$w"
  spec=$(sed -n '1s|^/\* cgrad: \(.*\) \*/$|\1|p' "$src")
  fn=${spec%% *} opts=${spec#* }
  if [ -z "$spec" ]; then
    for k in tangent joint split; do echo "$name $k FAIL no-cgrad-line"; done >"$w/status"
    return
  fi
  have='' front=''
  for k in tangent joint split; do
    mode=adjoint rev=$k
    [ $k = tangent ] && mode=tangent rev=joint
    if [ -n "$front" ]; then
      echo "$name $k REFUSED $front" >>"$w/status"
      continue
    fi
    # shellcheck disable=SC2086 # opts is a word list
    if "$xaiform" grad "$src" --function "$fn" $opts --mode $mode --reversal $rev \
      -o "$w/$k.c" 2>"$w/$k.err"; then
      if $cc $flags -I"$inc" -c "$w/$k.c" -o "$w/$k.o" 2>"$w/$k.cc.err"; then
        have="$have $k"
      else
        echo "$name $k FAIL compile" >>"$w/status"
      fi
    else
      echo "$name $k REFUSED $(refusal "$w/$k.err")" >>"$w/status"
      # FILE:LINE:COL: the C front end's refusal, the same in every mode
      if [ -z "${XF_CGRAD_ALL_MODES:-}" ] && head -1 "$w/$k.err" | grep -q '^[^:]*:[0-9]*:[0-9]*: error: '; then
        front=$(refusal "$w/$k.err")
      fi
    fi
  done
  case " $have " in *" tangent "*) t=1 ;; *) t=0 ;; esac
  # the tangent alone, then each adjoint with the tangent (or alone)
  for k in $have; do
    want="-DXF_WANT_B" objs="$w/$k.o"
    if [ "$k" = tangent ]; then
      want="-DXF_WANT_D"
    elif [ $t = 1 ]; then
      want="-DXF_WANT_D -DXF_WANT_B" objs="$w/tangent.o $w/$k.o"
    fi
    # the shim's object, once per set of flags (joint and split share it)
    t_o=$w/test$(echo "$want" | tr -d ' -').o
    # shellcheck disable=SC2086
    if ! { [ -f "$t_o" ] || $cc $flags -DXF_CHECK $want -I"$dir" -c "$src" -o "$t_o" 2>"$w/$k.link.err"; } ||
      ! $cc $flags "$t_o" "$work/check.o" $objs -o "$w/$k.bin" -lm 2>>"$w/$k.link.err"; then
      echo "$name $k FAIL link" >>"$w/status"
      continue
    fi
    "$w/$k.bin" >"$w/$k.out" 2>&1
    rc=$?
    if [ $rc = 0 ]; then
      echo "$name $k PASS" >>"$w/status"
    elif [ $rc = 1 ] && grep -q '^check [a-z]* FAIL' "$w/$k.out"; then
      c=$(sed -n 's/^check \([a-z]*\) FAIL.*/\1/p' "$w/$k.out" | head -1)
      echo "$name $k FAIL check-$c" >>"$w/status"
    else
      echo "$name $k FAIL run-error" >>"$w/status"
    fi
  done
}

started=0
for src in "$@"; do
  one_test "$src" &
  started=$((started + 1))
  [ $((started % 2)) = 0 ] && wait # two at a time
done
wait

now=$work/status.txt
for src in "$@"; do
  n=$(basename "$src" .c)
  for k in tangent joint split; do grep "^$n $k " "$work/$n/status"; done
done >"$now"
awk '{ c[$3]++ } $3 == "PASS" { p[$2]++ } END {
  printf "cgrad: %d tests x 3 modes: %d PASS (tangent %d, joint %d, split %d), %d REFUSED, %d FAIL\n",
    NR / 3, c["PASS"], p["tangent"], p["joint"], p["split"], c["REFUSED"], c["FAIL"] }' "$now"
# the expected lines of the tests of this run (a ctest may run a share)
for src in "$@"; do basename "$src" .c; done >"$work/names"
touch "$expected"
awk 'FILENAME == ARGV[1] { run[$1] = 1; next } !/^#/ && NF && ($1 in run)' \
  "$work/names" "$expected" | sort >"$work/expected.sorted"
if [ $update = 1 ]; then
  {
    echo "# tests/cgrad: test mode status [class]; tests/cgrad/run.sh --update rewrites it"
    awk 'FILENAME == ARGV[1] { run[$1] = 1; next } !/^#/ && NF && !($1 in run)' "$work/names" "$expected"
    cat "$now"
  } | { IFS= read -r head; echo "$head"; sort -k1,1 -s; } >"$work/expected.new" &&
    mv "$work/expected.new" "$expected"
  echo "run.sh: $expected written"
  exit 0
fi
sort "$now" >"$work/now.sorted"
if cmp -s "$work/expected.sorted" "$work/now.sorted"; then
  echo "cgrad: no change against $(basename "$expected")"
  exit 0
fi
# each change, old -> new, by test and mode
awk 'FILENAME == ARGV[1] { k = $1 " " $2; $1 = $2 = ""; old[k] = substr($0, 3); next }
  { k = $1 " " $2; $1 = $2 = ""; new = substr($0, 3); seen[k] = 1
    if (!(k in old)) print "changed  " k ": (not expected) -> " new
    else if (old[k] != new) print "changed  " k ": " old[k] " -> " new }
  END { for (k in old) if (!(k in seen)) print "changed  " k ": " old[k] " -> (not run)" }' \
  "$work/expected.sorted" "$work/now.sorted"
echo "cgrad: statuses differ from $(basename "$expected") (record them with --update)"
exit 1
