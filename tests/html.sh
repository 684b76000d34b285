#!/bin/sh
# html.sh CLUSTERC ROOT — report.html read by a real browser (Debian's chromium, headless):
#  - the flagship, the smallest example and the torus (a column per rack, the fabric drawn
#    inline) build, and `clusterc compare` of the flagship writes its report.html;
#  - each page is self-contained: no <script>, nothing fetched (no src, no http(s) href or
#    url(); xmlns attributes are names, not fetches), one <style>, no "nan";
#  - chromium parses each into a DOM that holds every chart (<svg> elements), the footer (the
#    whole page was read) and the capex of report.json (comparison.json for compare), as
#    report.md writes money;
#  - the flagship's page is drawn into a PNG (HTML_SCREENSHOTS=DIR keeps it, to look at).
# chromium is a test dependency (scripts/install-deps.sh): without it the test fails.
set -u
. "$(dirname "$0")/lib.sh"

need_browser
# A profile of its own, no first-run work, no GPU, no sandbox (containers, root), one process
# (a second less to start).
chrome() {
	timeout 60 "$browser" --headless=new --no-sandbox --disable-gpu --no-first-run \
		--no-default-browser-check --disable-extensions --hide-scrollbars \
		--single-process --no-zygote --disable-background-networking --disable-component-update \
		--user-data-dir="$tmp/profile" "$@" 2>>"$tmp/chromium.log"
}

# Money as report.md writes it: grouped, cents only when not whole.
money() {
	python3 -c 'import sys
x = float(sys.argv[1])
print(f"{x:,.0f}" if round(x * 100) == round(x) * 100 else f"{x:,.2f}")' "$1"
}

# The first "capex": number of a JSON file.
json_capex() {
	sed -n 's/.*"capex": *\([0-9.]*\).*/\1/p' "$1" | head -1
}

# check NAME PAGE SVGS CAPEX [CHROMIUM-OPTIONS]: the page's text, then its DOM in chromium.
check() {
	name=$1 page=$2 svgs=$3 capex=$4
	shift 4
	[ -s "$page" ] || { err "$name: no report.html"; return; }
	grep -q '<script' "$page" && err "$name: a <script> in report.html"
	grep -Eqi '(src|href)=["'"'"']?[a-z]*:' "$page" && err "$name: an external src or href"
	grep -Eqi 'url\( *["'"'"']?https?:|@import' "$page" && err "$name: a style sheet fetches"
	[ "$(grep -c '<style>' "$page")" -eq 1 ] || err "$name: not one <style> block"
	grep -qw 'nan' "$page" && err "$name: nan in report.html"
	chrome "$@" --dump-dom "file://$page" >"$tmp/$name.dom" ||
		{ err "$name: chromium could not read report.html"; return; }
	n=$(grep -o '<svg' "$tmp/$name.dom" | wc -l)
	[ "$n" -eq "$svgs" ] || err "$name: $n charts in the DOM, expected $svgs"
	grep -q '<footer>Written by clusterc' "$tmp/$name.dom" || err "$name: the DOM ends early"
	want=$(money "$capex")
	grep -qF "$want" "$tmp/$name.dom" || err "$name: capex $want (from the JSON) not on the page"
	echo "$name: $(wc -c <"$page") bytes, $n charts, capex $want"
}

# Builds: capex, power, racks (histogram or columns), and the fabric drawing when inline. The
# flagship is drawn too, to look at (chromium writes the PNG and then dumps the DOM).
shots=${HTML_SCREENSHOTS:-$tmp}
mkdir -p "$shots"
rm -f "$shots/wanka.png"
for spec in wanka:5 seed-wanka-h100:3 torus-3d:4; do
	name=${spec%:*} svgs=${spec#*:}
	out=$tmp/$name
	"$clusterc" build -q "examples/$name.cluster" -o "$out" || { err "build $name"; continue; }
	if [ "$name" = wanka ]; then
		check "$name" "$out/report.html" "$svgs" "$(json_capex "$out/report.json")" \
			--window-size=1280,4000 --screenshot="$shots/wanka.png"
	else
		check "$name" "$out/report.html" "$svgs" "$(json_capex "$out/report.json")"
	fi
done
# The flagship's fifth chart: its workload's goodput (report_reliability.c), as report.json has it.
goodput=$(python3 -c 'import json, sys
print(f"{100 * json.load(open(sys.argv[1]))["reliability"]["workloads"][0]["goodput"]:.1f}")' "$tmp/wanka/report.json")
grep -q 'Goodput and effective time to train' "$tmp/wanka.dom" || err "wanka: no goodput chart"
grep -qF "$goodput" "$tmp/wanka.dom" || err "wanka: goodput $goodput % (from the JSON) not on the page"
[ "$(head -c 4 "$shots/wanka.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] ||
	err "no PNG drawn of report.html"

# The flagship's page twice: the same bytes.
"$clusterc" build -q --emit=report.html examples/wanka.cluster -o "$tmp/wanka.again" ||
	err "build wanka --emit=report.html"
cmp -s "$tmp/wanka/report.html" "$tmp/wanka.again/report.html" ||
	err "wanka: two builds give different report.html"

# compare: the scatter, the tornados of the base and of the row best on capex, the bars
if "$clusterc" compare -q examples/wanka.cluster -o "$tmp/compare" 2>"$tmp/compare.err"; then
	check compare "$tmp/compare/report.html" 4 "$(json_capex "$tmp/compare/comparison.json")"
	grep -q 'class="front"' "$tmp/compare.dom" || err "compare: no Pareto frontier drawn"
else
	err "compare wanka"
	head -5 "$tmp/compare.err"
fi

[ $fail -eq 0 ] || tail -5 "$tmp/chromium.log"
echo "html: $fail failed"
[ $fail -eq 0 ]
