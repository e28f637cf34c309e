import re,sys,collections
import gzip
txt=(gzip.open if sys.argv[1].endswith('.gz') else open)(sys.argv[1],'rt').read()
# PrintCompilation lines: timestamp id flags tier name (size) [extra]
pc=re.compile(r'\d+ +\d+ [ %sn!b]{0,6}[0-4 ]? +[\w.$/<>\[\]-]+::[\w$<>.-]+ (\(\d+ bytes\)|\(native\))[^\n|]*(\n|$)')
events=[]
def repl(m):
    return '\x00'
clean=pc.sub(repl,txt)
# now round lines may contain \x00 where compile lines were cut
rows=[]; comp=collections.Counter(); cur=None
pos=0
lines=clean.replace('\x00','\x01').split('\n')
# count compile markers per round segment
seg='start'; counts=collections.Counter()
for l in lines:
    l2=l.replace('\x01','')
    m=re.match(r'(jedis|smtp) \| (warm-up|\d+) \| (virtual|continuation) \| (\d+) \| (\d+) \|',l2)
    counts[seg]+=l.count('\x01')
    if m:
        rows.append((m.group(1),m.group(2),m.group(3),int(m.group(4)),int(m.group(5)),counts[seg]))
        seg=(m.group(1),m.group(2),m.group(3))
    elif re.match(r'(jedis|smtp) \|',l2): print('UNPARSED',repr(l2[:100]))
for r in rows: print(*r)
