#!/usr/bin/env python3
"""Function sizes of a wasm module, grouped by crate: a small twiggy.

    scripts/wasm-size.py MODULE.wasm [--top N] [--diff OTHER.wasm]

Reads the code section and the name section (so run it on wasm-bindgen's
output before wasm-opt, which drops the names). Prints the total, the bytes
per crate (the first path segment of each demangled name), and the largest
functions; with --diff, the crates and functions that grew or shrank.
"""
import re
import sys
from collections import Counter


def leb(b, i):
    result = shift = 0
    while True:
        x = b[i]
        i += 1
        result |= (x & 0x7F) << shift
        shift += 7
        if x < 0x80:
            return result, i


def functions(path):
    b = open(path, "rb").read()
    assert b[:4] == b"\0asm", f"{path}: not a wasm module"
    i = 8
    imported = 0
    bodies = []
    names = {}
    while i < len(b):
        sid = b[i]
        size, i = leb(b, i + 1)
        end = i + size
        if sid == 2:  # imports: functions among them take the first indices
            n, j = leb(b, i)
            for _ in range(n):
                for _ in range(2):
                    ln, j = leb(b, j)
                    j += ln
                kind = b[j]
                j += 1
                if kind == 0:
                    _, j = leb(b, j)
                    imported += 1
                elif kind == 1:
                    j += 1
                    flags, j = leb(b, j)
                    _, j = leb(b, j)
                    if flags & 1:
                        _, j = leb(b, j)
                elif kind == 2:
                    flags, j = leb(b, j)
                    _, j = leb(b, j)
                    if flags & 1:
                        _, j = leb(b, j)
                elif kind == 3:
                    j += 2
                elif kind == 4:
                    j += 1
                    _, j = leb(b, j)
        elif sid == 10:
            n, j = leb(b, i)
            for _ in range(n):
                ln, j2 = leb(b, j)
                bodies.append(j2 - j + ln)
                j = j2 + ln
        elif sid == 0:
            ln, j = leb(b, i)
            name = b[j : j + ln].decode()
            j += ln
            if name == "name":
                while j < end:
                    sub = b[j]
                    sz, j = leb(b, j + 1)
                    if sub == 1:
                        n, k = leb(b, j)
                        for _ in range(n):
                            idx, k = leb(b, k)
                            ln, k = leb(b, k)
                            names[idx] = b[k : k + ln].decode(errors="replace")
                            k += ln
                    j += sz
        i = end
    out = []
    for k, size in enumerate(bodies):
        out.append((names.get(imported + k, f"func[{imported + k}]"), size))
    return out


def demangle(name):
    # Legacy Rust mangling: _ZN3foo3bar17h0123456789abcdefE
    if name.startswith("_ZN"):
        parts = []
        i = 3
        while i < len(name) and name[i].isdigit():
            m = re.match(r"\d+", name[i:])
            ln = int(m.group())
            i += len(m.group())
            parts.append(name[i : i + ln])
            i += ln
        if parts and re.fullmatch(r"h[0-9a-f]{16}", parts[-1]):
            parts.pop()
        name = "::".join(parts).replace("$LT$", "<").replace("$GT$", ">").replace("$u20$", " ")
    # Already demangled (wasm-bindgen's name section): drop the hash.
    return re.sub(r"::h[0-9a-f]{16}$", "", name)


def crate(name):
    n = demangle(name).lstrip("_<")
    first = re.split(r"::| as |<|>", n)[0]
    return first or name


def summary(path):
    fs = functions(path)
    by_crate = Counter()
    by_fn = Counter()
    for name, size in fs:
        by_crate[crate(name)] += size
        by_fn[demangle(name)] += size
    return fs, by_crate, by_fn


def main():
    args = sys.argv[1:]
    top = 30
    other = None
    if "--top" in args:
        k = args.index("--top")
        top = int(args[k + 1])
        del args[k : k + 2]
    if "--diff" in args:
        k = args.index("--diff")
        other = args[k + 1]
        del args[k : k + 2]
    path = args[0]
    fs, by_crate, by_fn = summary(path)
    total = sum(s for _, s in fs)
    print(f"{path}: {len(fs)} functions, {total} bytes of code")
    if other:
        _, oc, of = summary(other)
        print(f"\nby crate, {path} minus {other}:")
        deltas = Counter({k: by_crate[k] - oc[k] for k in set(by_crate) | set(oc)})
        for k, d in sorted(deltas.items(), key=lambda kv: -abs(kv[1]))[:top]:
            if d:
                print(f"  {d:+9}  {k}")
        print("\nby function:")
        fd = Counter({k: by_fn[k] - of[k] for k in set(by_fn) | set(of)})
        for k, d in sorted(fd.items(), key=lambda kv: -abs(kv[1]))[:top]:
            if d:
                print(f"  {d:+9}  {k[:140]}")
        return
    print("\nby crate:")
    for k, s in by_crate.most_common(top):
        print(f"  {s:9} {100 * s / total:5.1f}%  {k}")
    print("\nlargest functions:")
    for k, s in by_fn.most_common(top):
        print(f"  {s:9}  {k[:140]}")


if __name__ == "__main__":
    main()
