import sys, collections
f = sys.argv[1]
tot = 0; kern = 0; leaf = collections.Counter(); thr = collections.Counter(); incl = collections.Counter()
for line in open(f):
    stack, n = line.rsplit(' ', 1); n = int(n)
    frames = stack.split(';')
    tot += n
    t = frames[0].split(' tid')[0]
    thr[t.rstrip('0123456789-')] += n
    l = frames[-1]
    if l.endswith('_[k]'): kern += n
    else: leaf[l] += n
    for fr in set(frames[1:]):
        incl[fr] += n
print("total", tot, "kernel leaf", kern, "%.1f%%" % (100*kern/tot))
print("threads", thr.most_common(8))
print("-- user leaf top")
for k, v in leaf.most_common(int(sys.argv[2]) if len(sys.argv) > 2 else 30):
    print("%5d %5.1f%% %s" % (v, 100*v/tot, k[:150]))
