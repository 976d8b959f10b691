#!/usr/bin/env python3
"""The MAD-X SURVEY of SurveyTest.cc's third line (cpymad): prints s, X, Y, Z, THETA, PHI, PSI at each exit."""
from cpymad.madx import Madx

m = Madx(stdout=False)
m.input("""
beam, particle=proton, energy=2;
d1: drift, l=1;
b1: sbend, l=2, angle=0.3, tilt=0.2;
d2: drift, l=0.5;
r1: srotation, angle=0.4;
b2: sbend, l=1, angle=-0.2;
d3: drift, l=1.25;
seq: line=(d1,b1,d2,r1,b2,d3);
use, sequence=seq;
survey;
""")
t = m.table.survey
for i in range(len(t.name)):
    print(t.name[i], *(repr(float(c[i])) for c in (t.s, t.x, t.y, t.z, t.theta, t.phi, t.psi)))
