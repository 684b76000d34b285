#!/usr/bin/env python3
"""tests/architecture.py BUILD_DIR SOURCE_DIR — the house rules of docs/architecture.md, checked
on the source and on the object files the build made (nm), so that they hold by test rather than
by review:

  1. layers: lang/ includes nothing above it; passes/ nothing of backends/ or driver/; backends/
     only backends.h (which stands on passes/ir.h and lang/base.h: no backend sees the syntax
     tree, the program or a pass's header);
  2. each external library (GLPK, Graphviz, libyaml, jansson, nettle) is included by exactly one
     file of the compiler (tests and fuzz targets are consumers and do not count);
  3. no circle between files: the graph of which file's object calls or reads which other file's
     definitions is acyclic within each library;
  4. every exported name carries its file's prefix (the file's name, or the prefixes a file of the
     base layer declares below);
  5. every source file the documents (docs/*.md, README.md) name exists.
"""
import collections
import os
import re
import subprocess
import sys

build, src = sys.argv[1], sys.argv[2]
failures = []


def fail(msg):
    failures.append(msg)


def sources(top):
    for root, dirs, files in os.walk(os.path.join(src, top)):
        for f in sorted(files):
            if f.endswith(('.c', '.h', '.y', '.l')):
                yield os.path.relpath(os.path.join(root, f), src)


INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)

# 1. Layers.
allowed = {
    'lang': lambda h: h in ('base.h', 'lang.h', 'parse.h', 'parser.h', 'lexer.h', 'schema.def',
                          'json.h', 'hash.h', 'yamlio.h', 'share.h'),
    'passes': lambda h: not (h.startswith('backends') or h in ('backends.h', 'driver.h')),
    'backends': lambda h: h in ('backends.h',) or '/' in h or h.endswith('.h') and '"' not in h,
}
for top in ('lang', 'passes', 'backends'):
    for f in sources(top):
        text = open(os.path.join(src, f), errors='replace').read()
        for m in re.finditer(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
            h = m.group(1)
            if top == 'lang' and not allowed['lang'](h):
                fail(f'{f}: lang/ includes "{h}"')
            if top == 'passes' and not allowed['passes'](h):
                fail(f'{f}: passes/ includes "{h}"')
            if top == 'backends' and h not in ('backends.h', 'ir.h', 'base.h', 'json.h', 'hash.h', 'yamlio.h'):
                fail(f'{f}: a backend includes "{h}" (only backends.h: the IR, base.h, json.h, hash.h, yamlio.h)')

# 2. Each external library by one file.
libraries = {
    'GLPK': re.compile(r'^glpk\.h$'),
    'Graphviz': re.compile(r'^graphviz/'),
    'libyaml': re.compile(r'^yaml\.h$'),
    'jansson': re.compile(r'^jansson\.h$'),
    'nettle': re.compile(r'^nettle/'),
}
users = collections.defaultdict(set)
for top in ('lang', 'passes', 'backends', 'driver'):
    for f in sources(top):
        for h in INCLUDE.findall(open(os.path.join(src, f), errors='replace').read()):
            for lib, pat in libraries.items():
                if pat.search(h):
                    users[lib].add(f)
for lib in libraries:
    if len(users[lib]) != 1:
        fail(f'{lib} is included by {len(users[lib])} files: {", ".join(sorted(users[lib]))}')

# The objects of the three libraries, by source file.
objects = {}
for root, dirs, files in os.walk(build):
    for f in files:
        m = re.search(r'clusterc_(lang|passes|backends)\.dir/(.*)\.c\.o$', os.path.join(root, f))
        if m and os.path.exists(os.path.join(src, m.group(1), m.group(2) + '.c')):
            objects[m.group(1) + '/' + m.group(2) + '.c'] = os.path.join(root, f)
if len(objects) < 40:
    fail(f'only {len(objects)} object files found under {build}: build first')

defs, uses, exported = {}, collections.defaultdict(set), collections.defaultdict(list)
for s, o in sorted(objects.items()):
    for line in subprocess.run(['nm', o], capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDBRC' and not p[2].startswith('__'):
            # (names from __ on are the compiler's and the sanitizers', e.g. __odr_asan.x)
            defs[p[2]] = s
            exported[s].append(p[2])
        elif len(p) == 2 and p[0] == 'U':
            uses[s].add(p[1])

# 3. No circle between files (Tarjan's strongly connected components).
edges = collections.defaultdict(set)
for s, u in uses.items():
    for sym in u:
        if sym in defs and defs[sym] != s:
            edges[s].add(defs[sym])
index, low, stack, on, n = {}, {}, [], set(), [0]
sys.setrecursionlimit(10000)


def connect(v):
    index[v] = low[v] = n[0]
    n[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            connect(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            why = [f'{a} -> {b} ({", ".join(sorted(x for x in uses[a] if defs.get(x) == b)[:3])})'
                   for a in sorted(comp) for b in sorted(edges[a]) if b in comp]
            fail('a circle between files: ' + '; '.join(why))


for v in sorted(objects):
    if v not in index:
        connect(v)

# 4. Prefixes. A file's own name is its prefix ("wire_" in wire.c, "report_json_" in
# report_json.c, "bom_" in bom_csv.c); the base layer's modules declare theirs.
declared = {
    'lang/arena.c': ('arena', 'x', 'die', 'buf', 'vec'),
    'lang/units.c': ('dim', 'qty', 'unit', 'currency', 'DIM_NONE'),
    'lang/source.c': ('src', 'loc', 'NOLOC'),
    'lang/diag.c': ('diag', 'suggest'),
    'lang/intern.c': ('intern', 'interner'),
    'lang/schema.c': ('schema', 'kind', 'ctor', 'field_schemas', 'param_schemas', 'enum',
                      'hostname_placeholders', 'field_type_name'),
    'lang/ast.c': ('ast', 'expr', 'cmp_op_names'),
    'lang/parse.c': ('parse', 'lex'),
    'lang/json.c': ('jw',),
    'lang/yamlio.c': ('yw', 'yr'),
}
for s, names in sorted(exported.items()):
    stem = os.path.splitext(os.path.basename(s))[0]
    if stem in ('lexer', 'parser'):
        continue
    prefixes = declared.get(s, (stem, stem.split('_')[0]))
    for name in names:
        if not any(name == p or name.startswith(p + '_') or
                   (p in ('x',) and name.startswith('x')) for p in prefixes):
            fail(f'{s}: {name} lacks its file\'s prefix ({" or ".join(prefixes)})')

# 5. The documents name files that exist.
for doc in sorted([os.path.join('docs', f) for f in os.listdir(os.path.join(src, 'docs'))
                   if f.endswith('.md')] + ['README.md']):
    text = open(os.path.join(src, doc)).read()
    for path in sorted(set(re.findall(r'(?<![\w/.])((?:lang|passes|backends|driver)/[\w/]+\.(?:c|h|def|y|l))\b', text))):
        if not os.path.exists(os.path.join(src, path)):
            fail(f'{doc} names {path}, which does not exist')

for f in failures:
    print('FAIL:', f)
print(f'architecture: {len(objects)} files, {sum(len(v) for v in exported.values())} exported '
      f'names, {len(failures)} failures')
sys.exit(1 if failures else 0)
