#!/usr/bin/env python3
# Usage: scripts/import_graph.py CRATE_SRC_DIR [LOWEST_LAYER,NEXT_LAYER,...]
#   e.g. scripts/import_graph.py backend/src gpu,device
"""Module-level import graph of a crate: every `crate::`, `super::`, `self::` and child-module
path in `use` items and inline paths (comments and doc links excluded). Reports:
 - edges that go up a layer (`layers` order, lowest first) or through the crate root's
   re-exports (a `crate::Name` that is not a module);
 Test modules (inline, or files declared `#[cfg(test)] mod x;`) are left out.
 - cycles among sibling modules (each edge lifted to the children of the two files' lowest
   common ancestor; parent/child containment edges are not dependencies)."""
import os,re,sys,collections
root=sys.argv[1]; layers=sys.argv[2].split(',') if len(sys.argv)>2 else []
files={}
for d,_,fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            p=os.path.join(d,f); rel=os.path.relpath(p,root)[:-3].split(os.sep)
            if rel[-1] in ('mod','lib'): rel=rel[:-1]
            files[tuple(rel)]=p
# test-only module files (`#[cfg(test)] mod tests;`) are left out, like inline test modules
for m,p in list(files.items()):
    for t in re.findall(r'#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;',open(p).read()):
        files.pop(m+(t,),None)
mods=set(files)
def strip(src):
    src=re.sub(r'(?s)#\[cfg\(test\)\]\s*mod tests\s*\{.*','',src)  # trailing test modules
    src=re.sub(r'//[^\n]*','',src)
    return src
def children(m): return {k[len(m)] for k in mods if len(k)==len(m)+1 and k[:len(m)]==m}
# names the crate root re-exports from a module (`pub use module::{A, B}`), resolved to it
reexp={}
rootsrc=strip(open(files[()]).read()) if () in files else ''
for u in re.finditer(r'pub\s+use\s+(\w+)::(?:\{([^}]*)\}|(\w+))\s*;',rootsrc):
    for name in re.split(r'\s*,\s*',(u.group(2) or u.group(3)).strip()):
        if name and (u.group(1),) in mods: reexp[name.split(' as ')[-1]]=(u.group(1),)
edges=collections.Counter(); through_root=[]; up=[]
for m,p in files.items():
    src=strip(open(p).read())
    refs=[]
    # use trees: expand one level of braces
    for u in re.finditer(r'\buse\s+([^;]+);',src):
        t=re.sub(r'\s+','',u.group(1))
        mm=re.match(r'(.*?)::\{(.*)\}$',t)
        if mm:
            base=mm.group(1)
            depth=0;cur='';parts=[]
            for ch in mm.group(2):
                if ch=='{':depth+=1
                if ch=='}':depth-=1
                if ch==',' and depth==0: parts.append(cur);cur=''
                else: cur+=ch
            parts.append(cur)
            refs+= [base+'::'+x for x in parts if x]
        else: refs.append(t)
    refs+= re.findall(r'(?<![\w:])((?:crate|super|self)(?:::\w+)+)',src)
    for r in refs:
        seg=[s for s in r.split('::') if s]
        if not seg: continue
        if seg[0]=='crate': base=(); seg=seg[1:]
        elif seg[0] in('super','self'):
            base=m
            while seg and seg[0] in('super','self'):
                if seg[0]=='super': base=base[:-1]
                seg=seg[1:]
        elif seg[0] in children(m): base=m
        else: continue
        tgt=base
        for s in seg:
            if tgt+(s,) in mods: tgt=tgt+(s,)
            else: break
        if tgt==() and r.startswith('crate::') and seg and seg[0] not in children(()):
            through_root.append((p,r))
            if seg[0] in reexp: tgt=reexp[seg[0]]
        if tgt==m: continue
        edges[(m,tgt)]+=1
        if layers and m and tgt and m[0] in layers and tgt[0] in layers and layers.index(tgt[0])>layers.index(m[0]):
            up.append((p,r))
# sibling graph
sib=collections.defaultdict(set); n=0
for (a,b),c in edges.items():
    i=0
    while i<min(len(a),len(b)) and a[i]==b[i]: i+=1
    if i==len(a) or i==len(b): continue  # containment
    sib[a[:i]].add((a[i],b[i])); n+=1
cycles=[]
for parent,es in sib.items():
    g=collections.defaultdict(set)
    for x,y in es: g[x].add(y)
    idx={};low={};st=[];on=set();k=[0]
    def sc(v):
        idx[v]=low[v]=k[0];k[0]+=1;st.append(v);on.add(v)
        for w in g[v]:
            if w not in idx: sc(w);low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],idx[w])
        if low[v]==idx[v]:
            comp=[]
            while True:
                w=st.pop();on.discard(w);comp.append(w)
                if w==v:break
            if len(comp)>1: cycles.append(('/'.join(parent) or '<root>',sorted(comp)))
    sys.setrecursionlimit(10000)
    for v in list(g):
        if v not in idx: sc(v)
print(f"{root}: {len(files)} files, {sum(edges.values())} intra-crate path references, {len(edges)} distinct module edges, {n} sibling-level edges")
print(f"  upward (lower layer -> upper, order {layers}): {len(up)}"); [print('   ',x) for x in up]
print(f"  through crate-root re-exports: {len(through_root)}"); [print('   ',x) for x in through_root]
print(f"  sibling-module cycles: {len(cycles)}"); [print('   ',x) for x in cycles]
