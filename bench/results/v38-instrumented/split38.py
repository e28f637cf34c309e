"""#16, v38: JIT-compiled Java in the client JVM's cpu-clock samples inside the timed rounds (v37's pcpu.sh output),
ms per round by package, then by method of one package side by side for two modes ($flow bodies named as the method).
usage: split38.py PREFIX OUT_A OUT_B   (OUT_x.txt with the MARK lines, OUT_x.script from perf script)"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'v37-switches'))
import windows  # noqa: E402

PACKAGES = ['org.postgresql', 'dev.flow', 'org.apache.mina', 'org.apache.commons.javaflow', 'java.util.concurrent',
            'sun.nio.ch', 'flowtest']
SAMPLE = re.compile(r'\s*(.*?)\s+(\d+)\s+([\d.]+):\s+([0-9a-f]+)\s+(.*)\s+\((.*)\)\s*$')


def java_samples(out):
    """The JIT-compiled and interpreted Java methods sampled inside the measured rounds, and the number of rounds."""
    wins = windows.measured(out + '.txt')
    methods = []
    for line in open(out + '.script'):
        m = SAMPLE.match(line)
        if not m or 'perf-' not in m.group(6) or not windows.inside(wins, float(m.group(3))):
            continue
        s = re.sub(r'^\S+ ', '', re.sub(r'\(.*', '', m.group(5)))
        methods.append(s.replace('$flow', ''))
    return methods, len(wins)


def package(s):
    for p in PACKAGES:
        if s.startswith(p):
            return p
    return 'interpreter' if s == 'Interpreter' else '.'.join(s.split('.')[:3])


prefix, outs = sys.argv[1], sys.argv[2:4]
per = {}
for out in outs:
    methods, n = java_samples(out)
    ms = 1 / 2.0 / n  # 2 kHz: 0.5 ms per sample, per round
    by_package = collections.Counter(package(s) for s in methods)
    print('== %s: Java %.0f ms per round' % (out, len(methods) * ms))
    for k, v in by_package.most_common(8):
        print('%7.1f %s' % (v * ms, k))
    per[out] = {k: v * ms for k, v in collections.Counter(s for s in methods if s.startswith(prefix)).items()}
a, b = per[outs[0]], per[outs[1]]
print('\n# %s, self ms per round: %s | %s (callees inlined count in their caller)' % (prefix, outs[0], outs[1]))
for k in sorted(set(a) | set(b), key=lambda k: -(a.get(k, 0) + b.get(k, 0)))[:30]:
    print('%6.1f %6.1f %s' % (a.get(k, 0), b.get(k, 0), k))
