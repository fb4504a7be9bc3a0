#!/bin/sh
# hand-inputs.sh: inputs the fuzzer cannot make (too big) or is unlikely to
# make, generated into tests/fuzz/corpus-work/hand (git-ignored) and given to
# `xaiform copy`. Prints each one's exit status, time, peak memory and first
# message. Every input must fail (or succeed) cleanly: exit 0 or 1, quickly,
# without large memory, and without opening anything but the input.
#
#   tests/fuzz/hand-inputs.sh [XAIFORM]      (default: build/xaiform)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
xaiform=$(cd "$(dirname "${1:-$repo/build/xaiform}")" && pwd)/$(basename "${1:-xaiform}")
out=$here/corpus-work/hand
mkdir -p "$out"
cd "$out"

python3 - <<'PY'
head = '<?xml version="1.0"?>\n<xaif:CallGraph xmlns:xaif="http://www.mcs.anl.gov/XAIF">\n'
tail = '</xaif:CallGraph>\n'
def w(name, text):
    with open(name, 'w') as f:
        f.write(text)
# 10000 levels: foreign elements, modeled elements, never closed
w('deep-foreign.xaif', head + '<xaif:ScopeHierarchy>' + '<f>' * 10000 + '</f>' * 10000 + '</xaif:ScopeHierarchy>' + tail)
w('deep-modeled.xaif', head + '<xaif:ScopeHierarchy>' + '<xaif:Scope vertex_id="1">' * 10000 + '</xaif:Scope>' * 10000 + '</xaif:ScopeHierarchy>' + tail)
w('deep-unclosed.xaif', head + '<f>' * 10000)
# 50 MB in one attribute value, one text node, one comment, one name; 9 MB (under libxml2's limit)
big = 'a' * (50 * 1024 * 1024)
w('attr-50mb.xaif', head + '<xaif:ScopeHierarchy annotation="' + big + '"/>' + tail)
w('text-50mb.xaif', head + '<xaif:ScopeHierarchy><f>' + big + '</f></xaif:ScopeHierarchy>' + tail)
w('comment-50mb.xaif', head + '<xaif:ScopeHierarchy><!--' + big + '--></xaif:ScopeHierarchy>' + tail)
w('name-50mb.xaif', head + '<xaif:ScopeHierarchy ' + big + '="1"/>' + tail)
w('attr-9mb.xaif', head + '<xaif:ScopeHierarchy annotation="' + 'a' * (9 * 1024 * 1024) + '"/>' + tail)
# many attributes on one element (libxml2 2.9 checks duplicates pairwise)
w('attrs-20k.xaif', head + '<xaif:ScopeHierarchy ' + ' '.join('a%d="1"' % i for i in range(20000)) + '/>' + tail)
# NUL: as a character reference, through an entity, as a raw byte
w('nul-charref.xaif', head + '<xaif:ScopeHierarchy annotation="a&#0;b"/>' + tail)
w('nul-entity.xaif', '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY z "&#0;">]>\n' + head.split('\n', 1)[1] + '<xaif:ScopeHierarchy annotation="a&z;b"/>' + tail)
with open('nul-byte.xaif', 'wb') as f:
    f.write((head + '<xaif:ScopeHierarchy annotation="a').encode() + b'\0' + ('b"/>' + tail).encode())
# external DTD and entities: nothing may be loaded
root = head.split('\n', 1)[1]
w('xxe-doctype.xaif', '<?xml version="1.0"?>\n<!DOCTYPE x SYSTEM "file:///etc/passwd">\n' + root + '<xaif:ScopeHierarchy/>' + tail)
w('xxe-entity-attr.xaif', '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n' + root + '<xaif:ScopeHierarchy annotation="&e;"/>' + tail)
w('xxe-entity-text.xaif', '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n' + root + '<xaif:ScopeHierarchy><f>&e;</f></xaif:ScopeHierarchy>' + tail)
w('xxe-http.xaif', '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "http://127.0.0.1:9/x">]>\n' + root + '<xaif:ScopeHierarchy><f>&e;</f></xaif:ScopeHierarchy>' + tail)
w('xxe-param.xaif', '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>\n' + root + '<xaif:ScopeHierarchy/>' + tail)
# billion laughs: 10^9 "lol" in an attribute value and in text
lol = '<!ENTITY lol "lol">\n' + ''.join('<!ENTITY lol%d "%s">\n' % (i, ('&lol%s;' % ('' if i == 1 else i - 1)) * 10) for i in range(1, 10))
w('laughs-attr.xaif', '<?xml version="1.0"?>\n<!DOCTYPE x [\n' + lol + ']>\n' + root + '<xaif:ScopeHierarchy annotation="&lol9;"/>' + tail)
w('laughs-text.xaif', '<?xml version="1.0"?>\n<!DOCTYPE x [\n' + lol + ']>\n' + root + '<xaif:ScopeHierarchy><f>&lol9;</f></xaif:ScopeHierarchy>' + tail)
PY

trace=
if command -v strace >/dev/null 2>&1; then
    trace="strace -f -qq -e trace=openat,connect -o trace.log"
fi
status=0
for f in deep-foreign deep-modeled deep-unclosed attr-50mb text-50mb comment-50mb name-50mb \
    attr-9mb attrs-20k nul-charref nul-entity nul-byte xxe-doctype xxe-entity-attr \
    xxe-entity-text xxe-http xxe-param laughs-attr laughs-text; do
    rm -f out.xaif
    set +e
    /usr/bin/time -f "%e %M" -o time.log $trace "$xaiform" copy "$f.xaif" -o out.xaif 2>err.log
    rc=$?
    set -e
    read -r secs kb <<EOT
$(tail -n 1 time.log)
EOT
    msg=$(head -n 1 err.log | cut -c 1-110)
    printf '%-18s exit %d %6ss %7s KB  %s\n' "$f" "$rc" "$secs" "$kb" "${msg:-(copied, $(wc -c <out.xaif) bytes)}"
    if [ -n "$trace" ] && grep -v -e '\.so' -e '/proc/self' -e 'locale' -e 'gconv' -e "$f.xaif" -e 'out.xaif' trace.log |
        grep -q -e openat -e connect; then
        echo "  opened something else:" && grep -e openat -e connect trace.log | grep -v '\.so' | sed 's/^/    /'
        status=1
    fi
    [ "$rc" -le 1 ] || status=1
done
rm -f out.xaif time.log err.log trace.log
exit $status
