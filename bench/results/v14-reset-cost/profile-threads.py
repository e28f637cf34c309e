import sys,re,collections
f=sys.argv[1]; N=int(sys.argv[2]) if len(sys.argv)>2 else 20000
thr=collections.Counter(); tot=0; frames=collections.Counter(); selfc=collections.Counter()
for l in open(f):
    st,n=l.rsplit(' ',1); n=int(n); fr=st.split(';'); t=re.sub(r'[\d]+','N',fr[0].split(' tid=')[0].strip('['))
    thr[t]+=n; tot+=n
    for x in set(fr[1:]): frames[(t,x)]+=n
    selfc[fr[-1]]+=n
print('total samples',tot,'(1 ms each) -> us/conn',tot*1000/N)
for t,n in thr.most_common(15): print(f'{n:6d} {n*1000/N:7.1f} us/conn {t}')
if len(sys.argv)>3:
    pat=sys.argv[3]
    print('-- inclusive frames matching',pat)
    agg=collections.Counter()
    for (t,x),n in frames.items():
        if re.search(pat,x): agg[x]+=n
    for x,n in agg.most_common(60): print(f'{n:6d} {n*1000/N:6.1f} {x}')
