"""#16, v38: JFR execution samples of the sessions' threads (a pgjdbc or flowtest frame on the stack), each counted at
its first Flow frame above pgjdbc's, else at pgjdbc's or the session's own code, else at the JDK's code below them.
usage: jfr print --events jdk.ExecutionSample --stack-depth 64 X.jfr > X.ev; jfr38.py X.ev [Y.ev ...]"""
import collections
import re
import sys

FRAME = re.compile(r'^\s+([\w$.<>/]+)\(.*\)')


def stacks(path):
    out, cur = [], None
    for line in open(path):
        if line.startswith('jdk.ExecutionSample'):
            cur = []
        elif cur is not None and line.strip() == ']':
            out.append(cur)
            cur = None
        elif cur is not None:
            m = FRAME.match(line)
            if m:
                cur.append(m.group(1))
    return out


def where(stack):
    for f in stack:
        if f.startswith(('org.postgresql', 'flowtest')):
            break
        if f.startswith('dev.flow.internal.Engine.current'):
            return 'Engine.current (and the thread-local under it)'
        if f.startswith('dev.flow.jdk'):
            return 'dev.flow.jdk (the JDK decorators\' substitutes, locks)'
        if f.startswith('dev.flow.internal'):
            return 'dev.flow.internal.' + f.split('.')[3]
    return 'pgjdbc or the session, own code' if stack[0].startswith(('org.postgresql', 'flowtest')) else \
        'the JDK under pgjdbc or the session'


for path in sys.argv[1:]:
    sessions = [s for s in stacks(path) if any(f.startswith(('org.postgresql', 'flowtest')) for f in s)]
    counts = collections.Counter(where(s) for s in sessions)
    print('%s: %d samples of the sessions\' threads' % (path, len(sessions)))
    for k, v in counts.most_common(12):
        print('  %5d %5.1f%% %s' % (v, 100.0 * v / len(sessions), k))
