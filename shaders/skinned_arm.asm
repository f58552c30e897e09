// skinned_arm: two-bone matrix-palette skinning with relative addressing
// (vs_2_0). Declaration: POSITION FLOAT3, NORMAL FLOAT3,
// BLENDWEIGHT FLOAT1 (weight of the first bone), BLENDINDICES UBYTE4.
//   c0-c3    view * projection, transposed
//   c8       direction towards the light (unit length)
//   c9       material diffuse colour, c10 ambient colour
//   c20...   bone palette: three registers (a transposed 4x3) per bone
vs_2_0
def c11, 3, 1, 0, 0
dcl_position v0
dcl_normal v1
dcl_blendweight v2
dcl_blendindices v3
mul r0.xy, v3.xy, c11.x                 // palette offsets of both bones
mova a0.x, r0.x
m4x3 r1.xyz, v0, c[a0.x + 20]
m3x3 r2.xyz, v1, c[a0.x + 20]
mova a0.x, r0.y
m4x3 r3.xyz, v0, c[a0.x + 20]
m3x3 r4.xyz, v1, c[a0.x + 20]
add r5.x, c11.y, -v2.x                  // second weight = 1 - w
mul r1.xyz, r1, v2.x
mad r1.xyz, r3, r5.x, r1
mov r1.w, c11.y
mul r2.xyz, r2, v2.x
mad r2.xyz, r4, r5.x, r2
m4x4 oPos, r1, c0
nrm r6.xyz, r2
dp3 r6.w, r6, c8
max r6.w, r6.w, c11.z
mul r7.xyz, c9, r6.w
add oD0.xyz, r7, c10
mov oD0.w, c9.w
