#!/usr/bin/env python3
"""lint-eval-order.py FILE... — STYLE.md rule 16: never read, in one call's arguments, what
another argument's call writes. C leaves the order in which a call's arguments are evaluated
unspecified, so in

    c->n = filter(c->v, divisors(m, &c->v), ...);

gcc happened to call divisors() first and clang did not (passes/plan_search.c, issue 22).

The check is lexical: in each statement, for every call whose argument holds a nested call
that is given the address of an lvalue (&x, &p->f, &a.b), no other argument of the outer call
may read that lvalue (x, p->f ...); taking its address again is fine. Comments, strings and
preprocessor lines are ignored. Prints each finding as FILE:LINE and exits 1 when there is one.
"""
import re
import sys

PATH = r'[A-Za-z_]\w*(?:\s*(?:->|\.)\s*[A-Za-z_]\w*|\s*\[[^\]\[]*\])*'
KEYWORDS = {'if', 'while', 'for', 'switch', 'return', 'sizeof', '_Alignof', '_Generic'}


def strip(s):
    """s with comments, string and character literals and preprocessor lines blanked."""
    out, i, n = [], 0, len(s)
    while i < n:
        if s.startswith('/*', i):
            j = s.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', s[i:j]))
            i = j
        elif s.startswith('//', i):
            j = s.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif s[i] in '"\'':
            q, j = s[i], i + 1
            while j < n and s[j] != q:
                j += 2 if s[j] == '\\' else 1
            out.append(q + re.sub(r'[^\n]', ' ', s[i + 1:j]) + q)
            i = j + 1
        elif s[i] == '#' and (i == 0 or s[i - 1] == '\n'):
            j = i
            while True:
                k = s.find('\n', j)
                if k < 0:
                    k = n
                    break
                if s[k - 1] != '\\':
                    break
                j = k + 1
            out.append(re.sub(r'[^\n]', ' ', s[i:k]))
            i = k
        else:
            out.append(s[i])
            i += 1
    return ''.join(out)


def statements(s):
    depth, start = 0, 0
    for i, c in enumerate(s):
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
        elif c in ';{}' and depth == 0:
            yield start, s[start:i]
            start = i + 1
    yield start, s[start:]


def calls(st):
    for m in re.finditer(r'([A-Za-z_]\w*)\s*\(', st):
        if m.group(1) in KEYWORDS:
            continue
        i, d = m.end(), 1
        while i < len(st) and d:
            d += {'(': 1, ')': -1}.get(st[i], 0)
            i += 1
        yield m.group(1), m.end(), i - 1


def arguments(st, a, b):
    args, d, start = [], 0, a
    for i in range(a, b):
        c = st[i]
        if c in '([{':
            d += 1
        elif c in ')]}':
            d -= 1
        elif c == ',' and d == 0:
            args.append((start, i))
            start = i + 1
    args.append((start, b))
    return args


def norm(p):
    return re.sub(r'\s+', '', p)


def findings(path):
    src = open(path, encoding='utf-8', errors='replace').read()
    s = strip(src)
    for off, st in statements(s):
        if '&' not in st:
            continue
        for name, a, b in calls(st):
            args = arguments(st, a, b)
            for i, (x, y) in enumerate(args):
                arg = st[x:y]
                if not re.search(r'\w\s*\(', arg):
                    continue
                for m in re.finditer(r'(?<![&\w])&\s*(' + PATH + ')', arg):
                    written = norm(m.group(1))
                    for j, (x2, y2) in enumerate(args):
                        if j == i:
                            continue
                        other = st[x2:y2]
                        for m2 in re.finditer(r'(?<![\w.>])(' + PATH + ')', other):
                            read = norm(m2.group(1))
                            if read != written and not re.match(re.escape(written) + r'(->|\.|\[)', read):
                                continue
                            if other[:m2.start()].rstrip().endswith('&'):
                                continue  # its address, not its value
                            line = src.count('\n', 0, off + x) + 1
                            yield (f'{path}:{line}: {name}(): argument {i + 1} has a call '
                                   f'write &{written}, argument {j + 1} reads {read}')


def main():
    found = [f for path in sys.argv[1:] for f in findings(path)]
    for f in found:
        print(f)
    print(f'lint-eval-order: {len(sys.argv) - 1} files, {len(found)} findings')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
