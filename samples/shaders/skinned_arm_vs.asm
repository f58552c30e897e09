// skinned_arm_vs: the two-bone matrix-palette skinning of shaders/skinned_arm.asm
// (vs_2_0), its lighting left to the pixel shader (skinned_arm_ps.asm): the skinned
// normal and the vector towards the eye, both in world space, go out in oT0 and oT1.
// Declaration: POSITION FLOAT3, NORMAL FLOAT3, BLENDWEIGHT FLOAT1 (weight of the first
// bone), BLENDINDICES UBYTE4.
//   c0-c3    view * projection, transposed
//   c4       the eye's position in world space
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
m4x4 oPos, r1, c0
mad oT0.xyz, r4, r5.x, r2               // the skinned normal (normalised per pixel)
add oT1.xyz, c4, -r1                    // towards the eye
