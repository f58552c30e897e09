// wave_grid: a flat grid deformed by two sine waves with `sincos`, shaded
// by the wave's normal, with packed vs_3_0 outputs (vs_3_0).
// Declaration: position (FLOAT2 x, z) only.
//   c0-c3  view * projection, transposed
//   c4     (kx, kz, phase x, phase z): wave numbers and phases
//   c5     (ax, az, 0, 1): amplitudes
//   c6     (1 / 2pi, 0.5, 2pi, -pi): range reduction into [-pi, pi]
//   c7     direction towards the light (unit length)
//   c8     trough colour, c9 crest colour
//   c10    (diffuse share, ambient share, 0, 0)
//   c11    (0.5 / (ax + az), 0.5, 0, 0)
vs_3_0
dcl_position v0
dcl_position o0
dcl_color0 o1
dcl_texcoord0 o2.xy         // grid coordinates ...
dcl_texcoord1 o2.zw         // ... and (height, N . L), packed in one register
mad r0.xy, v0.xy, c4.xy, c4.zw          // wave arguments
mad r0.xy, r0.xy, c6.x, c6.y
frc r0.xy, r0.xy
mad r0.xy, r0.xy, c6.z, c6.w            // in [-pi, pi]
sincos r1.xy, r0.x                      // (cos, sin) along x
sincos r2.xy, r0.y                      // (cos, sin) along z
mul r3.x, r1.y, c5.x
mad r3.y, r2.y, c5.y, r3.x              // height
mov r4.xz, v0.xxyy                      // (x, h, z, 1)
mov r4.y, r3.y
mov r4.w, c5.w
m4x4 o0, r4, c0
mul r5.x, r1.x, -c5.x                   // -dh/dx (per unit argument)
mul r5.z, r2.x, -c5.y                   // -dh/dz
mul r5.xz, r5.xz, c4.xy
mov r5.y, c5.w
nrm r6.xyz, r5
dp3 r6.w, r6, c7
max r6.w, r6.w, c5.z
mad r6.w, r6.w, c10.x, c10.y            // diffuse and ambient share
mad r7.x, r3.y, c11.x, c11.y            // height into [0, 1]
mov r9, c8                              // one c# read per instruction
lrp r8, r7.x, c9, r9
mul o1.xyz, r8, r6.w
mov o1.w, c5.w
mov o2.xy, v0.xy
mov o2.z, r3.y
mov o2.w, r6.w
