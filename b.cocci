@initialize:python@
@@
X = 42

@r@
position p;
@@
foo@p(...)
