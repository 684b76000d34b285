#!/bin/sh
# compare_html.sh CLUSTERC ROOT — `clusterc compare`'s report.html as a buyer reads it, at 1,400 px
# in Debian's headless chromium (tests/compare_html.py measures the page and its screenshot):
#  - 121 rows (the flagship and tests/compare_html/sweep120.yaml): no sideways scroll, every
#    table and chart inside the window, no cell's text cut, Pareto labels that overlap nothing;
#  - the rows that fall on one place of the scatter (the 1-, 3- and 5-year horizons of one
#    design: the same capex and energy cost) are one point: the circles are the distinct
#    places of comparison.json (and the legend's two);
#  - the tornado of each row's financial model moves the way the model says: dearer hardware
#    or electricity or more failures cost more per trained model, more utilization less; the
#    page draws the base row's and the best row's;
#  - the page has the summary (best per objective against the base), the normalised columns
#    and each workload's GPUs.
# HTML_SCREENSHOTS=DIR keeps the screenshot to look at.
set -u
. "$(dirname "$0")/lib.sh"

need_browser
"$clusterc" compare -q examples/wanka.cluster --sweep tests/compare_html/sweep120.yaml \
	-o "$tmp/big" 2>"$tmp/big.err" || err "compare of 120 points: exit $?"
python3 tests/compare_html.py "$browser" "$tmp/big/report.html" "$tmp/shot" ||
	err "report.html of 121 rows does not fit 1,400 px (above)"
[ -n "${HTML_SCREENSHOTS:-}" ] && mkdir -p "$HTML_SCREENSHOTS" &&
	cp "$tmp/shot/report-1400.png" "$HTML_SCREENSHOTS/compare-1400.png"

python3 - "$tmp/big" <<'PY' || err "the scatter, the tornado or the summary is wrong (above)"
import json, re, sys
d = sys.argv[1]
cmp = json.load(open(d + "/comparison.json"))
html = open(d + "/report.html", encoding="utf-8").read()
rows = [r for r in cmp["rows"] if r["status"] == 0]
places = {(r["capex"], r["annual_energy_cost"]) for r in rows}
pareto = html[html.index('<section id="pareto">'):]
pareto = pareto[:pareto.index("</section>")]
circles = pareto.count("<circle")
bad = []
if len(places) >= len(rows):
    bad.append("the sweep has no rows on one place: the test proves nothing")
if circles != len(places) + 2:
    bad.append("%d circles for %d places (and the legend's 2)" % (circles, len(places)))
for r in rows:
    s = r["sensitivity"]
    base = s["as_designed"]
    for f in s["inputs"]:
        lo, hi = f["at_low"], f["at_high"]
        up = f["input"] != "utilization"
        if not ((lo < base < hi) if up else (lo > base > hi)):
            bad.append("%s: %s moves the cost the wrong way (%s, %s, %s)" %
                       (r["scenario"], f["input"], lo, base, hi))
    if [f["input"] for f in s["inputs"]] != ["prices", "electricity", "utilization", "failure_rates"]:
        bad.append("%s: the tornado's inputs are %s" % (r["scenario"], s["inputs"]))
sens = html[html.index('<section id="sensitivity">'):]
if sens[:sens.index("</section>")].count("<svg") != 2:
    bad.append("the sensitivity section does not draw two tornados")
for want in ["At a glance", "The frontier against the base design", "capex / GPU (k CNY)",
             "capex / PFLOP/s (M CNY)", "gpt3_175b GPUs", "gpt3_175b per trained model (k CNY)"]:
    if want not in html:
        bad.append("no %r on the page" % want)
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
exit $((fail > 0))
