#!/bin/sh
# injection.sh CLUSTERC ROOT — hostile text in a spec, a sweep and file names does not turn
# into formulas, markup or terminal control in what clusterc writes (docs/output.md):
#  - every cell of every CSV (bom, cabling, racks, netbox/*, comparison) read back with
#    Python's csv module: none that starts with = + - @ tab or CR unless it is a number;
#  - report.md and comparison.md: no raw '<', no link syntax from the spec; report.html and
#    the comparison's: no <script>, the spec's tags escaped; no ESC byte in any file but the
#    CSV cells that carry the spec's text as data;
#  - diagnostics, text and JSON, of a spec and a path holding ESC: escaped (\x1b), never raw;
#  - import "/etc/passwd", a .cluster symlink to it, and a spec not named .cluster: no line of
#    the file in any diagnostic.
set -u
. "$(dirname "$0")/lib.sh"
esc=$(printf '\033')
tab=$(printf '\t')

cat >"$tmp/hostile.cluster" <<EOF
import std.accelerators
import std.network
import std.cooling
import std.racks
import std.servers

node gpu_box : DGX_H100 {
  description = "=1+1 <script>alert(1)</script> | [x](javascript:alert(1)) ${esc}[31mred & <b>"
  vendor      = "@SUM(A1:A9)"
  nics        = 10 x CX7_400G
}

site dc {
  description  = "-2+3"
  location     = "${tab}=cmd|' /C calc'!A0"
  power_budget = 2 MW
  electricity  = 0.08 USD/kWh
  floor        = grid(rows = 4, racks_per_row = 12)
}

fabric compute {
  description = "+cmd"
  topology    = fat_tree(tiers = 2, rail_optimized = true)
  switch      = QM9700
  rails       = 8
}

fabric storage {
  topology = fat_tree(tiers = 2)
  switch   = SN5600
}

cluster c {
  site    = dc
  nodes   = 32 x gpu_box
  rack    = rack48_air
  fabrics = [compute, storage]
}
EOF
cat >"$tmp/hostile.yaml" <<EOF
points:
  - name: "=HYPERLINK(\"http://evil\")"
    set:
      dc.electricity: 0.09 USD/kWh
  - name: "<script>alert(2)</script>"
    set:
      dc.electricity: 0.10 USD/kWh
  - name: "@x\e[2J"
    set:
      gpu_box.vendor: '"-1+2"'
EOF

"$clusterc" build -q "$tmp/hostile.cluster" -o "$tmp/out" || err "build of the hostile spec"
"$clusterc" compare -q "$tmp/hostile.cluster" --sweep "$tmp/hostile.yaml" -o "$tmp/cmp" 2>"$tmp/cmp.err" ||
	err "compare of the hostile sweep: $(head -3 "$tmp/cmp.err")"
grep -q "$esc" "$tmp/cmp.err" && err "compare's messages hold a raw ESC"

python3 - "$tmp/out" "$tmp/cmp" <<'EOF' || fail=$((fail + 1))
import csv, os, re, sys
bad = 0
cells = 0
for top in sys.argv[1:]:
    for dirpath, _, files in os.walk(top):
        for name in files:
            path = os.path.join(dirpath, name)
            if name.endswith('.csv'):
                with open(path, newline='', encoding='utf-8') as f:
                    for r, row in enumerate(csv.reader(f), 1):
                        for c, cell in enumerate(row, 1):
                            cells += 1
                            if cell[:1] in ('=', '+', '-', '@', '\t', '\r'):
                                try:
                                    float(cell)
                                except ValueError:
                                    print(f'FAIL: {path}:{r}:{c}: a formula cell: {cell[:40]!r}')
                                    bad += 1
                continue
            text = open(path, 'rb').read().decode('utf-8', 'replace')
            if name.endswith('.md'):
                for bad_text in ('<', '\x1b'):
                    if bad_text in text:
                        print(f'FAIL: {path}: holds {bad_text!r}')
                        bad += 1
                if re.search(r'(?<!\\)\]\(', text):
                    print(f'FAIL: {path}: holds a link ](')
                    bad += 1
            if name.endswith('.html'):
                low = text.lower()
                for bad_text in ('<script', '<b>', '\x1b', 'javascript:'):
                    if bad_text in low:
                        print(f'FAIL: {path}: holds {bad_text!r}')
                        bad += 1
            elif '\x1b' in text and not name.endswith('.csv'):
                print(f'FAIL: {path}: holds a raw ESC')
                bad += 1
print(f'injection: {cells} CSV cells read')
sys.exit(1 if bad else 0)
EOF
grep -q "&lt;script&gt;" "$tmp/out/report.md" || err "report.md should show the description's <script> escaped"
grep -q "'@SUM(A1:A9)" "$tmp/out/netbox/devices.csv" || err "netbox/devices.csv: the vendor formula not neutralised"

# ---- diagnostics ------------------------------------------------------------------------------
printf 'import std.servers\nnode n : DGX_H100 { price = 1 USD }\ncluster c { nodes = 2 x n\n hostname = "%s[2J{index}" }\n' "$esc" >"$tmp/esc.cluster"
cp "$tmp/esc.cluster" "$tmp/${esc}[31mx.cluster"
for f in "$tmp/esc.cluster" "$tmp/${esc}[31mx.cluster" "$tmp/${esc}[31mmissing.cluster"; do
	for form in text json; do
		"$clusterc" check --diagnostics=$form "$f" >/dev/null 2>"$tmp/d.err"
		grep -q "$esc" "$tmp/d.err" && err "$form diagnostics of $(basename "$f" | cat -v) hold a raw ESC"
	done
done
"$clusterc" check "$tmp/${esc}[31mx.cluster" 2>&1 | grep -q '\\x1b\[31mx.cluster:3:9: error' ||
	err "the path's ESC should read \\x1b"
"$clusterc" check --set "c.hostname=\"${esc}]0;title${esc}\\\"" "$tmp/esc.cluster" >/dev/null 2>"$tmp/d.err"
grep -q "$esc" "$tmp/d.err" && err "a --set value's ESC was echoed raw"

# ---- excerpts only of clusterc sources -------------------------------------------------------
[ -r /etc/passwd ] || { echo "FAIL: no /etc/passwd to test with"; exit 1; }
first=$(head -1 /etc/passwd | cut -d: -f1)
printf 'import "/etc/passwd"\n' >"$tmp/imp1.cluster"
ln -s /etc/passwd "$tmp/evil.cluster"
printf 'import "evil.cluster"\n' >"$tmp/imp2.cluster"
cp /etc/passwd "$tmp/passwd.txt"
for f in imp1.cluster imp2.cluster evil.cluster passwd.txt; do
	for form in text json; do
		"$clusterc" check --diagnostics=$form "$tmp/$f" >/dev/null 2>"$tmp/d.err"
		[ $? -eq 1 ] || err "check $f ($form) should exit 1"
		grep -q "$first:" "$tmp/d.err" && err "$f ($form): a line of /etc/passwd in the diagnostics"
	done
done
"$clusterc" check "$tmp/imp1.cluster" 2>&1 | grep -q "only clusterc sources (.cluster files) can be imported" ||
	err "import of /etc/passwd: the refusal"
"$clusterc" check "$tmp/imp2.cluster" 2>&1 | grep -q "cannot import 'evil.cluster'" ||
	err "import of a .cluster link to /etc/passwd: the refusal"

[ $fail -eq 0 ] && echo "injection: all checks passed"
exit $((fail > 0))
