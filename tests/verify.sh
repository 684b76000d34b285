#!/bin/sh
# verify.sh CLUSTERC ROOT — `clusterc verify DIR --discovered FILE` (docs/daytwo.md):
#  - the plan against itself: the SuperPOD's su1 build checked against its own
#    infiniband/compute.topo (ibnetdiscover's format) is as planned (exit 0);
#  - the real consumer: ibsim (ibsim-utils) loads that fabric with two cables swapped (the
#    cables of compute-leaf-001 ports 1 and 2) and one missing (compute-leaf-001 port 33 to
#    its spine), ibnetdiscover (infiniband-diags) discovers it through ibsim's umad simulator,
#    and verify names exactly those three cables (two miswired, one missing; exit 2), by the
#    ids wiring.csv gives them; the fabric as planned in ibsim verifies clean;
#  - LLDP: tables as `lldpctl -f json` and `-f json0` print them for tests/verify/roce-small
#    (tests/verify/lldp.py): as planned, then with two host cables swapped, one missing and
#    one unplanned neighbour, the text report pinned by tests/verify/lldp.out; SONiC's `show
#    lldp table`, one file per switch, with two cables swapped;
#  - bad input: a damaged port line, LLDP that is not JSON and a damaged wiring.csv are errors
#    at their file:line:col (exit 1); a missing file exit 74; no --discovered exit 64.
# ibsim and ibnetdiscover are required (scripts/install-deps.sh installs them): a machine
# without them is a FAIL that says why.
set -u
. "$(dirname "$0")/lib.sh"
. tests/ibsim.sh
t=tests/verify

timeout 30 "$clusterc" build -q examples/dgx-h100-superpod.cluster --scenario su1 \
	--emit wiring.csv,infiniband -o "$tmp/su1" || { echo "FAIL: build of the SuperPOD su1"; exit 1; }
topo=$tmp/su1/infiniband/compute.topo

# verify_ids ARGS...: $got, "KIND CABLE_ID" per difference, sorted, from verify's JSON; $rc
# its exit.
verify_ids() {
	"$clusterc" verify "$tmp/su1" --diagnostics=json "$@" >"$tmp/v.json" 2>"$tmp/v.err"
	rc=$?
	got=$(python3 -c 'import json,sys
for d in json.load(open(sys.argv[1]))["differences"]: print(d["kind"], d["cable_id"] or "-")' \
		"$tmp/v.json" 2>/dev/null | sort)
}

# The plan against itself.
verify_ids --discovered "$topo"
[ "$rc" -eq 0 ] && [ -z "$got" ] || err "su1 against its own .topo: exit $rc, $got"

# The three cables, by their ends in wiring.csv.
id_of() { awk -F, -v n="$1" -v p="$2" '$10 == n && $11 == p { print $1 }' "$tmp/su1/wiring.csv"; }
want=$(printf 'miswired %s\nmiswired %s\nmissing %s\n' "$(id_of 'dgx001 mlx5_0' 1)" \
	"$(id_of 'dgx002 mlx5_0' 1)" "$(id_of compute-leaf-001 33)" | sort)
python3 $t/rewire_topo.py "$topo" "$tmp/bad.topo" swap:compute-leaf-001:1:compute-leaf-001:2 \
	drop:compute-leaf-001:33 || err "rewire_topo.py"
verify_ids --discovered "$tmp/bad.topo"
[ "$rc" -eq 2 ] || err "the rewired .topo: exit $rc, expected 2"
[ "$got" = "$want" ] || err "the rewired .topo: verify found
$got
expected
$want"

# ---- ibsim + ibnetdiscover ---------------------------------------------------------------------

ibsim_require ibnetdiscover

# discover NAME TOPO: ibsim loads TOPO, ibnetdiscover writes what it finds to $tmp/NAME.found.
discover() {
	ibsim_start "$1" "$2" "$tmp/$1.ibsim.log"
	LD_PRELOAD=$umad2sim timeout 30 ibnetdiscover >"$tmp/$1.found" 2>"$tmp/$1.err" ||
		{ echo "FAIL: $1: ibnetdiscover failed:"; tail -5 "$tmp/$1.err"; exit 1; }
	ibsim_stop
}

discover planned "$topo"
verify_ids --discovered "$tmp/planned.found"
[ "$rc" -eq 0 ] && [ -z "$got" ] || err "ibsim as planned: exit $rc, $got"
grep -q '"cables_compared": 508' "$tmp/v.json" || err "ibsim as planned: not 508 cables compared"
discover rewired "$tmp/bad.topo"
verify_ids --discovered "$tmp/rewired.found"
[ "$rc" -eq 2 ] || err "ibsim rewired: exit $rc, expected 2"
[ "$got" = "$want" ] || err "ibsim rewired: verify found
$got
expected
$want"
# A cable that is missing leaves its HCA unreachable: ibnetdiscover does not list dgx001 at all
# when its only cable goes (the leaf end still names the cable).
python3 $t/rewire_topo.py "$topo" "$tmp/lost.topo" drop:compute-leaf-001:1 || err "rewire_topo.py"
discover lost "$tmp/lost.topo"
grep -q '"dgx001 mlx5_0"' "$tmp/lost.found" && err "ibsim: dgx001 mlx5_0 found without its cable"
verify_ids --discovered "$tmp/lost.found"
[ "$got" = "missing $(id_of 'dgx001 mlx5_0' 1)" ] || err "ibsim, an HCA cut off: $got"

# ---- LLDP ----------------------------------------------------------------------------------

timeout 30 "$clusterc" build -q $t/roce-small.cluster --emit wiring.csv -o "$tmp/eth" ||
	{ echo "FAIL: build of $t/roce-small.cluster"; exit 1; }
for form in json json0; do
	python3 $t/lldp.py "$tmp/eth/wiring.csv" "$tmp/lldp.$form" $form || err "lldp.py $form"
	"$clusterc" verify "$tmp/eth" --discovered "$tmp/lldp.$form" >"$tmp/out" 2>&1 ||
		err "LLDP $form as planned: exit $?: $(cat "$tmp/out")"
done
python3 $t/lldp.py "$tmp/eth/wiring.csv" "$tmp/sonic" sonic \
	swap:compute-leaf-001:Ethernet0:compute-leaf-001:Ethernet4 || err "lldp.py sonic"
"$clusterc" verify "$tmp/eth" --diagnostics=json --discovered "$tmp/sonic/compute-leaf-001.txt" \
	--discovered "$tmp/sonic/compute-spine-001.txt" >"$tmp/sonic.json" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q '"miswired": 2' "$tmp/sonic.json" && grep -q '"as_planned": 70' "$tmp/sonic.json" ||
	err "SONiC's LLDP table with two cables swapped: exit $rc, $(head -12 "$tmp/sonic.json")"
python3 $t/lldp.py "$tmp/eth/wiring.csv" "$tmp/lldp.bad" json \
	swap:compute-leaf-001:Ethernet0:compute-leaf-001:Ethernet4 drop:compute-leaf-001:Ethernet256 \
	add:compute-leaf-001:Ethernet32:laptop:eth0 || err "lldp.py"
(cd "$tmp" && "$clusterc" verify eth --discovered lldp.bad >lldp.out 2>&1)
rc=$?
[ "$rc" -eq 2 ] || err "LLDP with differences: exit $rc, expected 2"
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
	cp "$tmp/lldp.out" $t/lldp.out
fi
diff -u $t/lldp.out "$tmp/lldp.out" || err "LLDP report differs from $t/lldp.out"

# ---- bad input -----------------------------------------------------------------------------

# expect_error NAME EXIT PATTERN ARGS...: exit EXIT and PATTERN in standard error.
expect_error() {
	name=$1 want_rc=$2 pat=$3
	shift 3
	"$clusterc" verify "$@" >"$tmp/o" 2>"$tmp/e"
	got_rc=$?
	[ "$got_rc" -eq "$want_rc" ] || err "$name: exit $got_rc, expected $want_rc: $(head -3 "$tmp/e")"
	grep -q -- "$pat" "$tmp/e" || err "$name: no '$pat' in: $(head -3 "$tmp/e")"
}
sed '13s/"\[1\](/"[x](/' "$topo" >"$tmp/broken.topo"
expect_error "a damaged port line" 1 'broken.topo:13:[0-9]*: error: expected the peer' \
	"$tmp/su1" --discovered "$tmp/broken.topo"
printf '{"lldp": {"interface": [\n  {"eth0": }\n]}}\n' >"$tmp/leaf9.json"
expect_error "LLDP that is not JSON" 1 'leaf9.json:2:[0-9]*: error: not JSON' \
	"$tmp/eth" --discovered "$tmp/leaf9.json"
printf 'Switch\t4 "S-1" # "x"\n[1] "S-2"[1]\n' >"$tmp/dangling.topo"
expect_error "a peer without a record" 1 'dangling.topo:2:5: error: no record describes node S-2' \
	"$tmp/su1" --discovered "$tmp/dangling.topo"
printf '# nothing\n' >"$tmp/empty.topo"
expect_error "nothing discovered" 1 'no device of the plan.s 508 InfiniBand cables was discovered' \
	"$tmp/su1" --discovered "$tmp/empty.topo"
mkdir "$tmp/damaged"
sed '3s/,compute,/,/' "$tmp/su1/wiring.csv" >"$tmp/damaged/wiring.csv"
expect_error "a damaged wiring.csv" 1 'wiring.csv:3:1: error: this row has 17 fields' \
	"$tmp/damaged" --discovered "$topo"
expect_error "no plan" 74 'wiring.csv' "$tmp" --discovered "$topo"
expect_error "no discovered file" 74 'nothere.topo' "$tmp/su1" --discovered "$tmp/nothere.topo"
expect_error "no --discovered" 64 'needs --discovered' "$tmp/su1"

[ "$fail" -eq 0 ] || exit 1
echo "verify: ok (su1 against itself; ibsim + ibnetdiscover with two cables swapped and one missing: exactly those three named; an HCA cut off; LLDP json and json0; bad input)"
