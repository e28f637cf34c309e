import collections,re,sys
f=sys.argv[1]; N=int(sys.argv[2]); tpat=sys.argv[3]; fpat=sys.argv[4]; top=int(sys.argv[5]) if len(sys.argv)>5 else 60
c=collections.Counter(); tot=0
for l in open(f):
    st,n=l.rsplit(' ',1); n=int(n); fr=st.split(';')
    if not re.search(tpat,fr[0]): continue
    tot+=n
    for x in set(fr[1:]):
        if re.search(fpat,x): c[x]+=n
print('threads',tpat,'total',tot,f'{tot*1000/N:.1f} us/conn')
for k,n in c.most_common(top): print(f'{n:5d} {n*1000/N:5.1f} {k}')
