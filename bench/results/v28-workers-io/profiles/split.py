#!/usr/bin/env python3
# split.py FILE.collapsed...: CPU samples of a collapsed async-profiler profile (threads on) by thread group
# (I/O thread, worker, other) and by where they are: the system call under the kernel frames, the last Java
# frame above the kernel, or user space.
import collections, sys
for fn in sys.argv[1:]:
    tot = 0
    cat = collections.Counter()
    java_above_kernel = collections.Counter()
    for line in open(fn):
        st, n = line.rsplit(' ', 1)
        n = int(n)
        fr = st.split(';')
        tot += n
        thr = 'io' if 'Processor' in fr[0] else ('worker' if 'worker' in fr[0] else 'other')
        if fr[-1].endswith('_[k]'):
            jf = [f for f in fr[1:] if '.' in f and not f.endswith('_[k]')]
            java_above_kernel[(thr, jf[-1] if jf else '?')] += n
            cat[(thr, 'kernel')] += n
        else:
            cat[(thr, 'user')] += n
    print(f'== {fn}: {tot} samples')
    for (thr, k), v in sorted(cat.items(), key=lambda x: -x[1]):
        print(f'  {thr:7s} {k:7s} {v:6d} {v / tot:6.1%}')
    print('  kernel time by the last Java frame above it:')
    for (thr, k), v in java_above_kernel.most_common(8):
        print(f'  {thr:7s} {v:6d} {v / tot:6.1%} {k}')
