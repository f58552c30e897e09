// skinned_arm_ps: per-pixel Blinn-Phong lighting of the skinned tube (ps_2_0): N and V
// interpolated from the vertex shader (t0, t1) and normalised here, H = normalize(L + V),
// colour = ambient + diffuse * sat(N.L) + specular * sat(N.H)^power.
//   c0       direction towards the light (unit length, world space)
//   c1       material diffuse colour (its .w is the alpha written)
//   c2       ambient colour
//   c3       specular colour, c4.x specular power
ps_2_0
dcl t0.xyz
dcl t1.xyz
nrm r0.xyz, t0              // N
nrm r1.xyz, t1              // V, towards the eye
add r1.xyz, r1, c0          // L + V
nrm r2.xyz, r1              // H
dp3_sat r3.x, r0, c0        // N.L
dp3_sat r3.y, r0, r2        // N.H
pow r3.y, r3.y, c4.x        // sat(N.H)^power
mad r4.xyz, c1, r3.x, c2    // diffuse * N.L + ambient
mad r4.xyz, c3, r3.y, r4    // + specular * (N.H)^power
mov r4.w, c1.w
mov oC0, r4
