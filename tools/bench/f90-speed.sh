#!/bin/sh
# f90-speed.sh XAIFORM [CASE...]: the run time of the Fortran that xaif2f
# writes (docs/fortran-backend.md, "Speed of the generated code").
#
# A CASE is a corpus example (NAME, read from ../shared/corpus/openad/NAME
# beside the repository: tlm.xaif, and adm.xaif where there is one), or a
# path to a front end's .xaif. For each, xaif2f writes the program itself
# (the original routine, as the xaif has it), its tangent and its joint
# adjoint; each is compiled with gfortran -O2 ($XF_FC, $XF_FFLAGS) together
# with a driver that calls the top routine with the generic inputs
# x0(i) = i/2, doubling the number of calls until they take 0.5 s of CPU
# time (cpu_time), and prints the time of one call. For a corpus example
# its source (head.f with its all_globals_mod.f) is timed too, through the
# same driver. Prints a Markdown table: the times and the ratios
# tangent/original and adjoint/original, the original being the source
# where there is one, else the program as xaif2f writes it. A case whose
# top routine has an argument that is no real of known shape is listed as
# skipped, with the reason.
set -eu
xaiform=$1
shift
here=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${XF_CORPUS:-$here/../shared/corpus}/openad
fc=${XF_FC:-gfortran}
fflags=${XF_FFLAGS:--O2}
runtime=$here/include/xaiform/xaiform_ad.f90
work=$(mktemp -d)
if [ $# -eq 0 ]; then
  # the corpus's largest examples, the project's examples and its loop
  # benchmark (docs/loops.md) at two sizes, where its generator is built
  set -- graphEx2 RoehFlux_MemOps todd1 gcmBit1 graphEx1 daerfj bratu mini1 \
    "$here/examples/head.xaif" "$here/examples/euler/euler.xaif"
  gen=$(dirname "$xaiform")/tools/bench/xaiform-gen-fvkernel
  for n in 1000 10000; do
    [ -x "$gen" ] && "$gen" $n -o "$work/fvkernel$n.xaif" && set -- "$@" "$work/fvkernel$n.xaif"
  done
fi
if [ -n "${XF_KEEP:-}" ]; then echo "kept in $work" >&2; else trap 'rm -rf "$work"' EXIT; fi

# joined FILE: FILE with its continued lines (" &" / "  & ") joined
joined() {
  sed -e :a -e '/ &$/N; s/ &\n *& / /; ta' "$1"
}

# decls FILE ROUTINE: the routine's parameters, one "NAME|DECLARATION" a line
decls() {
  joined "$1" | awk -v r="$2" '
    $1 == "subroutine" {
      s = $0; sub(/^subroutine /, "", s); nm = s; sub(/\(.*/, "", nm)
      inr = (nm == r); delete a
      if (inr) { sub(/^[^(]*\(/, "", s); sub(/\).*/, "", s); k = split(s, v, /, */)
                 for (i = 1; i <= k; i++) a[v[i]] = 1 }
      next }
    inr && /::/ {
      split($0, p, "::"); n = p[2]; sub(/^ */, "", n); sub(/\(.*/, "", n)
      if (n in a) print n "|" $0; next }
    inr { inr = 0 }'
}

# params FILE ROUTINE: the routine's parameter list "a, ad, b, bd"
params() {
  joined "$1" | sed -n "s/^subroutine $2(\(.*\))\$/\1/p" | head -n 1
}

# driver FILE ROUTINE MODULE: a program that times ROUTINE of MODULE
driver() {
  file=$1 r=$2 mod=$3
  d=$(decls "$file" "$r")
  echo "program xf_speed"
  [ "$mod" = external ] || echo "  use $mod, only: $r"
  echo "  implicit none"
  [ "$mod" != external ] || echo "  external :: $r"
  echo "$d" | sed 's/^[^|]*|//'
  echo "  integer :: xf_k, xf_reps"
  echo "  real :: xf_t0, xf_t1"
  echo "$d" | while IFS='|' read -r n line; do
    case $line in
    *"double precision"*"("*) echo "  $n = reshape([(0.5d0 * xf_k, xf_k = 1, size($n))], shape($n))" ;;
    *"double precision"*) echo "  $n = 0.5d0" ;;
    esac
  done
  cat <<EOF
  xf_reps = 1
  do
    call cpu_time(xf_t0)
    do xf_k = 1, xf_reps
      call $r($(params "$file" "$r"))
    end do
    call cpu_time(xf_t1)
    if (xf_t1 - xf_t0 >= 0.5 .or. xf_reps >= 2**29) exit
    xf_reps = xf_reps * 2
  end do
  print '(es10.3)', dble(xf_t1 - xf_t0) / xf_reps
end program xf_speed
EOF
}

# time_of DIR FILE ROUTINE MODULE [SOURCE...]: seconds per call, or ""
# on failure; with SOURCEs (MODULE "external"), the driver declares what
# FILE's ROUTINE takes and calls the ROUTINE the SOURCEs define
time_of() {
  dir=$1 f=$2
  driver "$f" "$3" "$4" >"$dir/drv.f90"
  shift 4
  extra=
  [ $# -gt 0 ] || set -- "$f"
  case $f in *b.f90) extra=$runtime ;; esac
  # shellcheck disable=SC2086 # the flags are words
  (cd "$dir" && $fc $fflags -ffree-line-length-none -o speed $extra "$@" drv.f90 >cc.log 2>&1 &&
    ./speed) || true
}

echo "| case | source (s) | program (s) | tangent (s) | adjoint (s) | tangent / original | adjoint / original |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for c in "$@"; do
  case $c in
  */*) tlm=$c adm=$c name=$(basename "$c" .xaif) ;;
  *) tlm=$corpus/$c/tlm.xaif adm=$corpus/$c/adm.xaif name=$c
     [ -f "$adm" ] || adm=$tlm ;;
  esac
  d=$work/$name
  mkdir -p "$d"
  if ! "$xaiform" xaif2f "$tlm" -o "$d/p.f90" 2>"$d/err" ||
    ! "$xaiform" tangent "$tlm" -o "$d/t.xaif" 2>>"$d/err" ||
    ! "$xaiform" xaif2f "$d/t.xaif" -o "$d/d.f90" 2>>"$d/err" ||
    ! "$xaiform" adjoint "$adm" -o "$d/a.xaif" 2>>"$d/err" ||
    ! "$xaiform" xaif2f "$d/a.xaif" -o "$d/b.f90" 2>>"$d/err"; then
    echo "| $name | skipped: $(head -n 1 "$d/err" | sed 's/.*error: //') | | | | | |"
    continue
  fi
  # the top routine: head (the corpus's), else the one the others do not call
  top="head"
  if ! grep -q '^subroutine head(' "$d/p.f90"; then
    top=$(sed -n 's/^subroutine \([a-z0-9_]*\)(.*/\1/p' "$d/p.f90" | while read -r r; do
      grep -q "call $r(" "$d/p.f90" || echo "$r"
    done | tail -n 1)
  fi
  bad=$(decls "$d/p.f90" "$top" | sed 's/^[^|]*|//' | grep -v 'double precision' | head -n 1 || true)
  bad=$bad$(decls "$d/p.f90" "$top" | grep '(:' | head -n 1 || true)
  if [ -n "$bad" ]; then
    echo "| $name | skipped: an argument the driver cannot make ($(echo "$bad" | sed 's/^ *//; s/.*|//; s/^ *//')) | | | | | |"
    continue
  fi
  mkdir -p "$d/p" "$d/d" "$d/b"
  tp=$(time_of "$d/p" "$d/p.f90" "$top" xf_program)
  # the corpus's own source, head.f with its globals module, where it builds
  ts=
  if [ -f "$corpus/$name/head.f" ] && [ "$tlm" = "$corpus/$name/tlm.xaif" ]; then
    glob=$corpus/$name/all_globals_mod.f
    [ -f "$glob" ] || glob=$corpus/../openad-drivers/default/all_globals_mod.f
    mkdir -p "$d/s"
    ts=$(time_of "$d/s" "$d/p.f90" "$top" external "$glob" "$corpus/$name/head.f")
  fi
  td=$(time_of "$d/d" "$d/d.f90" "${top}_d" xf_tangent)
  tb=$(time_of "$d/b" "$d/b.f90" "${top}_b" xf_adjoint)
  if [ -z "$tp" ] || [ -z "$td" ] || [ -z "$tb" ]; then
    echo "| $name | skipped: gfortran or the run failed | | | | | |"
    continue
  fi
  # the original: the source where it built, else the program xaif2f writes
  awk -v n="$name" -v s="$ts" -v p="$tp" -v t="$td" -v b="$tb" 'BEGIN {
    o = s == "" ? p : s
    printf "| %s | %s | %.3g | %.3g | %.3g | %.2f | %.2f |\n", n, s == "" ? "-" : sprintf("%.3g", s),
      p, t, b, t / o, b / o }'
done
