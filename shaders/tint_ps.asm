// tint_ps: the interpolated vertex colour times a tint (ps_2_0), after the fixed-function
// vertex stage (which writes the diffuse colour to v0).
//   c0     the tint (r, g, b, a)
ps_2_0
dcl v0
mul r0, v0, c0
mov oC0, r0
