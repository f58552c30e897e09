// point_lights: a floor lit per vertex by several coloured point lights,
// summed in a `loop aL, i0` (vs_2_0).
// Declaration: FVF D3DFVF_XYZ | D3DFVF_NORMAL.
//   c0-c3   world * view * projection, transposed
//   c4-c6   world, transposed (4x3)
//   c9      material diffuse colour
//   c10     ambient colour (.w = 1)
//   c11     (0, attenuation k, 1, 0): lights fade as 1 / (1 + k d^2)
//   c12...  light positions (world space), one per light
//   c20...  light colours, one per light
//   i0      (light count, 0, 1, 0)
vs_2_0
dcl_position v0
dcl_normal v1
m4x4 oPos, v0, c0
m4x3 r0.xyz, v0, c4         // world position
m3x3 r1.xyz, v1, c4         // world normal
mov r2, c10                 // accumulated light, starting at ambient
loop aL, i0
    add r3.xyz, c[aL + 12], -r0     // towards light aL
    dp3 r4.x, r3, r3                // d^2
    rsq r4.y, r4.x
    mul r3.xyz, r3, r4.y            // normalised
    dp3 r4.z, r1, r3                // N . L
    max r4.z, r4.z, c11.x
    mad r4.w, r4.x, c11.y, c11.z    // 1 + k d^2
    rcp r4.w, r4.w
    mul r4.z, r4.z, r4.w
    mad r2.xyz, c[aL + 20], r4.z, r2
endloop
mul oD0, r2, c9
