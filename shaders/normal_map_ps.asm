// normal_map_ps: per-pixel diffuse light from a normal map (ps_2_0). The quad's object
// space is its tangent space: the map holds object-space normals, (n + 1) / 2 per channel.
//   s0     the normal map
//   c0     albedo
//   c1     ambient colour
ps_2_0
def c2, 2.0, -1.0, 0.0, 1.0
dcl t0.xy
dcl t1.xyz
dcl_2d s0
texld r0, t0, s0
mad r0.xyz, r0, c2.x, c2.y  // the normal, unpacked
nrm r1.xyz, t1              // towards the light, unit length
dp3_sat r2.x, r0, r1        // N . L
mad r3.xyz, c0, r2.x, c1    // albedo * N.L + ambient
mov r3.w, c2.w
mov oC0, r3
