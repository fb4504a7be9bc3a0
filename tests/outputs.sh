#!/bin/sh
# outputs.sh XAIFORM DIR EXAMPLE: outputs that need a shell.
# - a FIFO with a reader on the other end gets the output and stays a FIFO;
# - /dev/fd/N (as a process substitution is) writes to descriptor N;
# - SIGTERM, SIGINT, SIGHUP while the verb has its temporary file open (an
#   XSLT stylesheet whose document() reads a FIFO nobody writes, so the verb
#   waits there) end it with 128+N, no temporary file left, no new output,
#   an existing output unchanged; a batch stopped while its worker writes
#   through a symbolic link leaves no temporary file beside the target.
# Exit status 0 when all held. Every wait is bounded by a count of polls
# that a loaded machine never comes near; none depends on time.
set -u
xaiform=$1 dir=$2 example=$3
rm -rf "$dir"
mkdir -p "$dir"
fail=0
no() {
    echo "[FAIL] $*"
    fail=1
}

# a FIFO, read by cat
if mkfifo "$dir/out.fifo"; then
    cat "$dir/out.fifo" >"$dir/from-fifo.xaif" &
    reader=$!
    "$xaiform" copy "$example" -o "$dir/out.fifo" || no "copy to a FIFO: exit $?"
    # (a replaced FIFO leaves its reader waiting)
    [ -p "$dir/out.fifo" ] || { no "the FIFO was replaced" && kill $reader && rm -f "$dir/out.fifo" && mkfifo "$dir/out.fifo"; }
    wait $reader
    "$xaiform" compare "$example" "$dir/from-fifo.xaif" >/dev/null ||
        no "the FIFO's reader did not get the document"
    cat "$dir/out.fifo" >"$dir/from-fifo.svg" &
    reader=$!
    "$xaiform" dot "$example" -o "$dir/out.fifo" -f svg || no "dot to a FIFO: exit $?"
    [ -p "$dir/out.fifo" ] || { no "the FIFO was replaced" && kill $reader; }
    wait $reader
    grep -q "<svg" "$dir/from-fifo.svg" || no "the FIFO's reader did not get the picture"
else
    echo "mkfifo failed: the FIFO tests not run"
fi

# /dev/fd/3 open on a pipe
{ "$xaiform" tangent "$example" -o /dev/fd/3 3>&1 >/dev/null; } | cat >"$dir/from-pipe.xaif"
grep -q "<xaif:CallGraph" "$dir/from-pipe.xaif" || no "/dev/fd/3 did not reach the pipe"

# stopped by a signal while the temporary file is open
mkfifo "$dir/block.xml" || {
    echo "mkfifo failed: the signal tests not run"
    exit $fail
}
cat >"$dir/block.xsl" <<'EOF'
<?xml version="1.0"?>
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template match="/"><xsl:copy-of select="document('block.xml')"/></xsl:template>
</xsl:stylesheet>
EOF
# a script's background job starts with SIGINT ignored; env gives it back
dflt=
env --default-signal=INT true 2>/dev/null && dflt="env --default-signal=INT,TERM,HUP"
for case in "TERM 143 copy" "INT 130 tangent" "HUP 129 adjoint" "TERM 143 passes"; do
    set -- $case
    sig=$1 want=$2 verb=$3
    [ "$sig" = INT ] && [ -z "$dflt" ] && {
        echo "env --default-signal missing: SIGINT not tested"
        continue
    }
    out="$dir/$verb.xaif"
    rm -f "$out"
    [ "$verb" = tangent ] && printf 'old' >"$out" # an output there before
    extra=
    [ "$verb" = passes ] && extra="--passes linearize"
    $dflt "$xaiform" $verb "$example" -o "$out" $extra --xslt "$dir/block.xsl" 2>"$dir/log" &
    pid=$!
    i=0
    until ls "$dir" | grep -q "^$verb\.xaif\.tmp\." || [ $i -ge 6000 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    [ $i -ge 6000 ] && no "$verb: no temporary file appeared"
    kill -$sig $pid
    # the verb waits in open(): the signal ends it. A watchdog kills it
    # after 6000 polls, in case it does not.
    rm -f "$dir/done"
    (
        i=0
        while [ ! -e "$dir/done" ] && [ $i -lt 6000 ]; do
            sleep 0.05
            i=$((i + 1))
        done
        [ -e "$dir/done" ] || kill -KILL $pid
    ) &
    dog=$!
    wait $pid
    rc=$?
    : >"$dir/done"
    wait $dog
    [ $rc -eq $want ] || no "$verb, SIG$sig: exit $rc, want $want"
    if ls "$dir" | grep -q '\.tmp\.'; then
        no "$verb, SIG$sig: a temporary file was left"
        rm -f "$dir"/*.tmp.*
    fi
    if [ "$verb" = tangent ]; then
        [ "$(cat "$out")" = old ] || no "$verb, SIG$sig: the existing output changed"
    else
        [ -e "$out" ] && no "$verb, SIG$sig: an output was left"
    fi
done
# batch stopped while a worker writes through a symbolic link: the worker is
# killed, and its temporary file beside the link's target removed
mkdir -p "$dir/b/in" "$dir/b/out" "$dir/b/t"
cp "$example" "$dir/b/in/a.xaif"
printf 'old' >"$dir/b/t/t.xaif"
ln -s ../t/t.xaif "$dir/b/out/a.copy.xaif"
"$xaiform" batch --mode copy -j1 --out-dir "$dir/b/out" --xslt "$dir/block.xsl" \
    "$dir/b/in/a.xaif" 2>"$dir/log" &
pid=$!
i=0
until ls "$dir/b/t" | grep -q '^t\.xaif\.tmp\.' || [ $i -ge 6000 ]; do
    sleep 0.05
    i=$((i + 1))
done
[ $i -ge 6000 ] && no "batch: no temporary file appeared beside the link's target"
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || no "batch, SIGTERM: exit $rc, want 143"
ls "$dir/b/t" | grep -q '\.tmp\.' && no "batch: a temporary file was left beside the target"
[ -L "$dir/b/out/a.copy.xaif" ] || no "batch: the link was replaced"
[ "$(cat "$dir/b/t/t.xaif")" = old ] || no "batch: the link's target changed"

[ $fail -eq 0 ] && echo "output tests passed"
exit $fail
