import sys, collections
# category: pattern; sample goes to the category whose frame is deepest (nearest the leaf)
rules=[
 ('define (JVM defineClass)', 'ClassLoader.defineClass'),
 ('engine transform: other', 'ContinuableClassTransformer.transform'),
 ('engine: resolver reads classes (ours: resolverView)', 'EngineBridge$1.getResourceAsStream'),
 ('engine: resolver reads classes (ours: resolverView)', 'EngineBridge$1.hasResource'),
 ('engine: resolver (continuable lookup)', 'IContinuableClassInfoResolver.resolve'),
 ('engine: resolver (inheritance)', 'MaybeContinuableClassVisitor.visitEnd'),
 ('engine: method analysis (moveNew/Analyzer/verifier)', 'ContinuableMethodNode.visitEnd'),
 ('engine: rewriting code (ContinuableMethodVisitor)', 'ContinuableMethodVisitor'),
 ('engine: frame computation (asmx COMPUTE_FRAMES)', 'asmx/MethodWriter.computeAllFrames'),
 ('engine: frame computation (asmx COMPUTE_FRAMES)', 'asmx/ClassWriter.getCommonSuperClass'),
 ('engine: toByteArray', 'asmx/ClassWriter.toByteArray'),
 ('flow: verify engine result (EngineRun.checked)', 'EngineRun.checked'),
 ('flow: redirect recorder lookups pass', 'EngineBridge.redirectRecorderLookups'),
 ('flow: rewrite (analysis + rewriting)', 'Instrumenter.rewrite'),
 ('flow: finish (StackSpills/handler notes)', 'Instrumenter.finish'),
 ('flow: write prepared (ASM + frames)', 'Instrumenter.writeUnchecked'),
 ('flow: getCommonSuperClass (ours)', 'Hierarchy.commonSuperClass'),
 ('read class bytes via parent', 'Hierarchy.readBytes'),
 ('read class bytes via parent', 'getResourceAsStream'),
 ('class-loading of Flow/ASM/engine classes themselves', 'ClassLoader.loadClass'),
]
f=sys.argv[1]; filt=sys.argv[2] if len(sys.argv)>2 else 'ContinuationClassLoader.loadClass'
c=collections.Counter(); tot=0
for line in open(f):
    st,n=line.rsplit(' ',1); n=int(n)
    fr=st.split(';')
    idx=[i for i,x in enumerate(fr) if filt in x]
    if not idx: continue
    fr=fr[idx[0]:]
    tot+=n; best=None; bd=-1
    for name,pat in rules:
        for i,x in enumerate(fr):
            if pat in x and i>bd: bd=i; best=name
    c[best or 'other ('+fr[-1]+')']+=n
print('samples',tot)
agg=collections.Counter()
for k,v in c.items(): agg[k if not k.startswith('other') else 'other']+=v
for k,v in agg.most_common(): print(f'{v:6d} {100*v/tot:5.1f}% {k}')
print('--- top other leaves'); 
for k,v in c.most_common(60):
    if k.startswith('other'): print(v,k)
