// SPDX-License-Identifier: GPL-2.0-only
// The register and unregister calls.

@reg@
identifier rf = {register_chrdev, __register_chrdev};
position p;
@@
rf@p(...)

@script:python@
p << reg.p;
rf << reg.rf;
@@
add_call(REGS, rf, p)

@unreg@
identifier uf = {unregister_chrdev, __unregister_chrdev};
position p;
@@
uf@p(...)

@script:python@
p << unreg.p;
uf << unreg.uf;
@@
add_call(UNREGS, uf, p)

@unreg_stmt@
identifier unreg.uf;
expression E;
position unreg.p, q;
@@
uf@p(E@q, ...);

@script:python@
p << unreg.p;
q << unreg_stmt.q;
@@
UNREGS[key(p)]['stmt'] = True
