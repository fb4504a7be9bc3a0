#!/bin/sh
# f2xaif_structure.sh XAIFORM OPENAD WORK NAME...: for each corpus example
# OPENAD/NAME, f2xaif on its head.f (after its all_globals_mod.f, where it
# has one), then `xaiform compare --structure` of that xaif with the
# example's tlm.xaif (OpenAD's front end's): the same routines, arguments,
# symbols and control-flow shape. Prints the differences; exit 1 if any.
# Then the comparison must fail on a real difference: the first example's
# tlm.xaif with its first intent="in" made intent="out".
xaiform=$1
openad=$2
work=$3
shift 3
mkdir -p "$work" || exit 3
first=$1
fail=0
for name; do
    dir=$openad/$name
    set -- "$dir/head.f"
    [ -f "$dir/all_globals_mod.f" ] && set -- "$dir/all_globals_mod.f" "$dir/head.f"
    out=$work/$name.xaif
    if ! "$xaiform" f2xaif "$@" --function head -o "$out"; then
        echo "FAIL $name: f2xaif"
        fail=1
    elif ! "$xaiform" compare --structure "$out" "$dir/tlm.xaif"; then
        echo "FAIL $name: its structure differs from tlm.xaif"
        fail=1
    else
        echo "ok $name"
    fi
done
edited=$work/$first.edited.xaif
sed '0,/intent="in"/s//intent="out"/' "$openad/$first/tlm.xaif" >"$edited" || exit 3
if cmp -s "$edited" "$openad/$first/tlm.xaif"; then
    echo "FAIL $first: its tlm.xaif has no intent=\"in\" to change"
    fail=1
elif "$xaiform" compare --structure "$work/$first.xaif" "$edited" >"$work/edited.out"; then
    echo "FAIL $first: an intent changed from in to out is not seen"
    fail=1
elif ! grep -q "argument .*intent: 'in' in .*, 'out' in" "$work/edited.out"; then
    echo "FAIL $first: the changed intent is not the difference reported:"
    cat "$work/edited.out"
    fail=1
else
    echo "ok $first with one intent changed: $(grep intent: "$work/edited.out")"
fi
exit $fail
