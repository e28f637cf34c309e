import sys, collections
def load(p):
    tot=0; leaf=collections.Counter(); incl=collections.Counter(); kern=0; thr=collections.Counter()
    for line in open(p):
        stack,n=line.rsplit(' ',1); n=int(n); fs=stack.split(';'); tot+=n
        thr[fs[0].split('-')[0][:30]]+=n
        if fs[-1].endswith('_[k]'): kern+=n
        leaf[fs[-1][:100]]+=n
        for f in set(fs): incl[f[:110]]+=n
    return tot,leaf,incl,kern,thr
for p in sys.argv[1:]:
    tot,leaf,incl,kern,thr=load(p)
    print('==',p,'total',tot,'kernel-leaf %.1f%%'%(100*kern/tot))
    for k,v in thr.most_common(6): print('  T %5.1f%% %s'%(100*v/tot,k))
    for k,v in leaf.most_common(25): print('  L %5.1f%% %s'%(100*v/tot,k))
