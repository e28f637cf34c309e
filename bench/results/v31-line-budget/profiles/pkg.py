import sys, collections
for f in sys.argv[1:]:
    tot = 0; c = collections.Counter()
    for line in open(f):
        stack, n = line.rsplit(' ', 1); n = int(n); tot += n
        l = stack.split(';')[-1]
        if l.endswith('_[k]'): k = 'kernel'
        elif l.startswith('org/apache/mina'): k = 'mina'
        elif l.startswith('dev/flow'): k = 'flow'
        elif l.startswith('org/apache/commons/javaflow'): k = 'javaflow'
        elif l.startswith('io/netty'): k = 'netty'
        elif l.startswith(('java/', 'sun/', 'jdk/')): k = 'jdk'
        else: k = 'native/other'
        c[k] += n
    print(f, tot, ', '.join('%s %.1f%%' % (k, 100*v/tot) for k, v in c.most_common()))
