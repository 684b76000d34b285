#!/bin/sh
# cli.sh CLUSTERC — the command-line contract (PRODUCT §5): options, exit codes, colour,
# JSON diagnostics, --scenario and --set, fmt in place and --check, standard input.
set -u
clusterc=$1
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
fail=0

# expect RC STREAM PATTERN CMD...: exit status RC and PATTERN in STREAM (out or err; "" = any).
expect() {
	want=$1 stream=$2 pattern=$3
	shift 3
	"$@" >out.txt 2>err.txt
	rc=$?
	ok=1
	[ "$rc" -eq "$want" ] || ok=0
	if [ -n "$pattern" ] && ! grep -q -e "$pattern" "$stream.txt"; then ok=0; fi
	if [ $ok -eq 0 ]; then
		echo "FAIL: $* -> exit $rc (want $want); $stream should match: $pattern"
		echo "--- stdout"; head -c 1500 out.txt; echo "--- stderr"; head -c 1500 err.txt
		fail=$((fail + 1))
	fi
}

cat >good.cluster <<'SPEC'
accelerator g { memory = 80 GB; bf16 = 989 TFLOPS; tdp = 700 W }
node n { accelerators = 8 x g; height = 8 U; price = 200_000 USD }
cooling air { type = air; pue = 1.4; max_rack_power = 40 kW }
rack r { height = 42 U; power_limit = 40 kW; cooling = air }
site s { power_budget = 1 MW; electricity = 0.10 USD/kWh }
cluster c { site = s; nodes = 16 x n; rack = r }
scenario bigger { c.nodes = 64 x n }
scenario broken { c.nodes = 64 x m }
SPEC
printf 'accelerator g { memory = 80 GB; bf16 = 1 TFLOPS; tdp = 700 W + 1 Gbps }\n' >bad.cluster

expect 0 out "usage: clusterc COMMAND" "$clusterc" --help
expect 0 out "^clusterc [0-9]" "$clusterc" --version
expect 64 err "usage" "$clusterc"
expect 64 err "unknown command 'chek'; did you mean 'check'?" "$clusterc" chek good.cluster
expect 64 err "unknown option '--frobnicate'" "$clusterc" check --frobnicate good.cluster
expect 64 err "check needs at least one FILE" "$clusterc" check
expect 64 err "--diagnostics must be text or json" "$clusterc" check --diagnostics=xml good.cluster
expect 64 err "--color must be auto, always or never" "$clusterc" check --color=maybe good.cluster

# check: the broken scenario is reported even when not chosen; exit 1.
expect 1 err "unknown node 'm'; did you mean 'n'?" "$clusterc" check good.cluster
sed -i '/broken/d' good.cluster
expect 0 out "good.cluster: ok (6 declarations, 1 scenario)" "$clusterc" check good.cluster
expect 0 "" "" "$clusterc" check -q good.cluster
[ -s out.txt ] && { echo "FAIL: -q printed something"; fail=$((fail + 1)); }
expect 64 err "--check is an option of fmt" "$clusterc" check --check good.cluster
[ -s out.txt ] && { echo "FAIL: check --check ran the check"; fail=$((fail + 1)); }
expect 0 "" "" "$clusterc" check --scenario bigger good.cluster
expect 64 err "has no scenario 'biger'; did you mean 'bigger'?" "$clusterc" check --scenario biger good.cluster
expect 0 "" "" "$clusterc" check --set 'c.nodes=32 x n' good.cluster
expect 1 err "^--set:1:3: error: cluster 'c' has no field 'nodez'; did you mean 'nodes'?" \
	"$clusterc" check --set 'c.nodez=32 x n' good.cluster
expect 1 err "^--set:1:9: error: 'nodes' must be COUNT x node, not a number" \
	"$clusterc" check --set 'c.nodes=32' good.cluster
expect 1 err "^--set:1:8: error: unexpected end of line; expected a value" \
	"$clusterc" check --set 'c.nodes=' good.cluster

# The worst status of several files wins; a missing file is an I/O error.
expect 1 err "bad.cluster:1:62: error: cannot add power and bandwidth" "$clusterc" check good.cluster bad.cluster
expect 74 err "cannot open 'missing.cluster'" "$clusterc" check good.cluster missing.cluster bad.cluster

# Colour: never on a pipe, always when asked, never with NO_COLOR.
esc=$(printf '\033')
expect 1 err "" "$clusterc" check bad.cluster
if grep -q "$esc" err.txt; then echo "FAIL: colour on a pipe"; fail=$((fail + 1)); fi
expect 1 err "$esc\[1;31merror:" env -u NO_COLOR "$clusterc" check --color=always bad.cluster
expect 1 err "" env NO_COLOR=1 "$clusterc" check --color=always bad.cluster
if grep -q "$esc" err.txt; then echo "FAIL: colour with NO_COLOR"; fail=$((fail + 1)); fi

# JSON diagnostics carry the same content.
expect 1 err '"message": "cannot add power and bandwidth"' "$clusterc" check --diagnostics=json bad.cluster
expect 1 err '"line": 1' "$clusterc" check --diagnostics=json bad.cluster
expect 1 err '"errors": 1' "$clusterc" check --diagnostics=json bad.cluster

# Standard input.
expect 1 err "^<stdin>:1:62: error" sh -c "\"$clusterc\" check - <bad.cluster"
expect 64 err "'-' (standard input) can be given only once" sh -c "\"$clusterc\" check - - <bad.cluster"
[ -s out.txt ] && { echo "FAIL: a second '-' ran the check"; fail=$((fail + 1)); }

# fmt: rewrites in place, is idempotent, --check names what would change.
printf 'node n {\n power=10 kW;height=8 U // h\n}\n' >messy.cluster
cp messy.cluster messy.orig
expect 1 out "^messy.cluster$" "$clusterc" fmt --check messy.cluster
cmp -s messy.cluster messy.orig || { echo "FAIL: fmt --check changed the file"; fail=$((fail + 1)); }
expect 0 "" "" "$clusterc" fmt messy.cluster
expect 0 "" "" "$clusterc" fmt --check messy.cluster
printf 'node n {\n  power  = 10 kW\n  height = 8 U  // h\n}\n' >want.cluster
cmp -s messy.cluster want.cluster || { echo "FAIL: fmt output"; diff want.cluster messy.cluster; fail=$((fail + 1)); }
expect 0 out "power  = 10 kW" sh -c "\"$clusterc\" fmt - <messy.orig"
expect 1 out "^<stdin>$" sh -c "\"$clusterc\" fmt --check - <messy.orig"
expect 0 "" "" sh -c "\"$clusterc\" fmt --check - <want.cluster"
[ -s out.txt ] && { echo "FAIL: fmt --check - printed a canonical file"; fail=$((fail + 1)); }
printf 'node n {\n power = \n' >broken.cluster
cp broken.cluster broken.orig
expect 1 err "broken.cluster:2:10: error" "$clusterc" fmt broken.cluster
cmp -s broken.cluster broken.orig || { echo "FAIL: fmt touched a file with errors"; fail=$((fail + 1)); }

# fmt in place keeps the file: through a symbolic link the target is rewritten (the link stays
# a link), hard links see the new text (same inode), mode 0640 stays, so do owner and group
# (as root); a read-only file is an I/O error left alone; nothing is left beside the file.
cp messy.orig target.cluster
chmod 0640 target.cluster
ln -s target.cluster link.cluster
ln target.cluster hard.cluster
ino=$(stat -c %i target.cluster)
if [ "$(id -u)" -eq 0 ]; then chown nobody:nogroup target.cluster; fi
owner=$(stat -c %U:%G target.cluster)
expect 0 "" "" "$clusterc" fmt link.cluster
[ -L link.cluster ] || { echo "FAIL: fmt replaced the symbolic link"; fail=$((fail + 1)); }
cmp -s target.cluster want.cluster || { echo "FAIL: fmt through a link: the target"; fail=$((fail + 1)); }
cmp -s hard.cluster want.cluster || { echo "FAIL: fmt broke the hard link"; fail=$((fail + 1)); }
[ "$(stat -c %i target.cluster)" = "$ino" ] || { echo "FAIL: fmt changed the inode"; fail=$((fail + 1)); }
[ "$(stat -c %a target.cluster)" = 640 ] || { echo "FAIL: fmt changed the mode to $(stat -c %a target.cluster)"; fail=$((fail + 1)); }
[ "$(stat -c %U:%G target.cluster)" = "$owner" ] || { echo "FAIL: fmt changed the owner to $(stat -c %U:%G target.cluster)"; fail=$((fail + 1)); }
[ -z "$(ls -A | grep '\.fmt-')" ] || { echo "FAIL: fmt left $(ls -A | grep '\.fmt-')"; fail=$((fail + 1)); }
cp messy.orig ro.cluster
chmod 0444 ro.cluster
if [ "$(id -u)" -ne 0 ]; then
	expect 74 err "cannot write 'ro.cluster'" "$clusterc" fmt ro.cluster
	cmp -s ro.cluster messy.orig || { echo "FAIL: fmt changed a read-only file"; fail=$((fail + 1)); }
fi
# A longer text over a shorter one and the reverse (the file is truncated to the new text).
printf 'node n {power=1 kW}\n// a comment kept\n' >grow.cluster
expect 0 "" "" "$clusterc" fmt grow.cluster
printf 'node n { power = 1 kW }\n// a comment kept\n' | cmp -s - grow.cluster || { echo "FAIL: fmt of grow.cluster"; fail=$((fail + 1)); }
printf 'node n {\n\n\n\n\n   power   =   1 kW\n\n\n}\n' >shrink.cluster
expect 0 "" "" "$clusterc" fmt shrink.cluster
[ "$(wc -l <shrink.cluster)" -le 4 ] || { echo "FAIL: fmt did not truncate shrink.cluster"; cat shrink.cluster; fail=$((fail + 1)); }
# A copy an interrupted fmt left beside the file is named, not used.
cp messy.orig left.cluster
printf 'stale\n' >.left.cluster.fmt-AbC123
expect 0 err "was left by an interrupted clusterc fmt" "$clusterc" fmt left.cluster
cmp -s left.cluster want.cluster || { echo "FAIL: fmt with a leftover copy"; fail=$((fail + 1)); }

expect 0 out "^name node$" "$clusterc" tokens messy.cluster
expect 0 out "^### \`node\`" "$clusterc" schema

echo "cli: $fail failed"
[ $fail -eq 0 ]
