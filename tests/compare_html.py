#!/usr/bin/env python3
"""compare_html.py CHROMIUM REPORT.HTML OUTDIR: the comparison page as a 1,400 px window shows it.

Loads a copy of the page, with one script added at its end, in headless Chromium at 1,400 x
1,000 and reads back (--dump-dom) what the script measured; then takes a screenshot
(OUTDIR/report-1400.png) and decodes it (zlib, no PIL). Fails when:
  - the document is wider than the window (a sideways scroll), or any table or chart ends
    past the window's right edge;
  - two labels of the Pareto chart overlap, or a label leaves the chart;
  - a table cell's text is cut (its content wider than the cell);
  - the screenshot is not 1,400 px wide, or is blank.
"""
import json, os, re, struct, subprocess, sys, zlib

chromium, page, out = sys.argv[1], sys.argv[2], sys.argv[3]
probe = r"""
<script>
(function () {
  var r = {innerWidth: window.innerWidth,
           scrollWidth: document.documentElement.scrollWidth, wide: [], overlaps: [],
           outside: [], cut: [], labels: 0};
  document.querySelectorAll('table, svg.chart').forEach(function (e, i) {
    var b = e.getBoundingClientRect();
    if (b.right > window.innerWidth + 0.5) r.wide.push(e.tagName + '#' + i + ' ends at ' + b.right);
  });
  document.querySelectorAll('td, th').forEach(function (e) {
    if (e.scrollWidth > e.clientWidth + 1) r.cut.push(e.textContent.slice(0, 40));
  });
  var svg = document.querySelector('#pareto svg');
  if (svg) {
    var frame = svg.getBoundingClientRect();
    var t = Array.prototype.filter.call(svg.querySelectorAll('text'), function (x) {
      return !x.classList.contains('tick') && !x.classList.contains('head') &&
             x.getAttribute('transform') === null;
    });
    var boxes = t.map(function (x) { return x.getBoundingClientRect(); });
    r.labels = boxes.length;
    for (var i = 0; i < boxes.length; i++) {
      var a = boxes[i];
      if (a.left < frame.left - 0.5 || a.right > frame.right + 0.5) r.outside.push(t[i].textContent);
      for (var j = i + 1; j < boxes.length; j++) {
        var b = boxes[j];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 &&
            b.top < a.bottom - 0.5)
          r.overlaps.push(t[i].textContent + ' / ' + t[j].textContent);
      }
    }
  }
  var pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
})();
</script>
"""
os.makedirs(out, exist_ok=True)
html = open(page, encoding="utf-8").read()
probed = os.path.join(out, "probed.html")
open(probed, "w", encoding="utf-8").write(html.replace("</body>", probe + "</body>"))
flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--window-size=1400,1000", "--user-data-dir=" + os.path.join(out, "profile")]
dom = subprocess.run([chromium] + flags + ["--dump-dom", "file://" + os.path.abspath(probed)],
                     capture_output=True, text=True, timeout=120).stdout
m = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
if not m:
    sys.exit("FAIL: Chromium gave no measurement (--dump-dom printed %d bytes)" % len(dom))
r = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
               .replace("&gt;", ">"))
fails = []
if r["innerWidth"] != 1400:
    fails.append("the window is %d px wide, not 1,400" % r["innerWidth"])
if r["scrollWidth"] > r["innerWidth"]:
    fails.append("the page scrolls sideways: %d px wide in a %d px window" %
                 (r["scrollWidth"], r["innerWidth"]))
fails += ["past the right edge: " + w for w in r["wide"]]
fails += ["a cell's text is cut: " + c for c in r["cut"]]
fails += ["Pareto labels overlap: " + o for o in r["overlaps"]]
fails += ["a Pareto label leaves the chart: " + o for o in r["outside"]]

shot = os.path.join(out, "report-1400.png")
subprocess.run([chromium] + flags + ["--screenshot=" + shot, "file://" + os.path.abspath(page)],
               capture_output=True, timeout=120)
try:
    data = open(shot, "rb").read()
    width, height, depth, ctype = struct.unpack(">IIBB", data[16:26])
    idat, pos = b"", 8
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    if width != 1400:
        fails.append("the screenshot is %d px wide" % width)
    if len(set(raw[1:len(raw):97])) < 3:
        fails.append("the screenshot is blank")
except (OSError, struct.error, zlib.error) as e:
    fails.append("no screenshot: %s" % e)
for f in fails:
    print("FAIL: " + f)
print("compare_html: %d px in a %d px window, %d Pareto labels, %d failures" %
      (r["scrollWidth"], r["innerWidth"], r["labels"], len(fails)))
sys.exit(1 if fails else 0)
