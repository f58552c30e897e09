// lit_cube: transform and per-vertex directional diffuse lighting (vs_1_1).
// Declaration: FVF D3DFVF_XYZ | D3DFVF_NORMAL.
//   c0-c3  world * view * projection, transposed (one column per register)
//   c4-c6  world, transposed (rotation only: it turns normals too)
//   c8     direction towards the light (world space, unit length)
//   c9     material diffuse colour
//   c10    ambient colour
//   c11    (0, 0, 0, 0)
vs_1_1
dcl_position v0
dcl_normal v1
m4x4 oPos, v0, c0
m3x3 r0.xyz, v1, c4         // world-space normal
dp3 r1.x, r0, c8            // N . L
max r1.x, r1.x, c11.x       // no light from behind
mul r2.xyz, c9, r1.x        // diffuse
add oD0.xyz, r2, c10        // + ambient
mov oD0.w, c9.w             // material alpha
