// post_process_vs: a full-screen quad given in clip space, texture coordinates passed on
// (vs_2_0). Declaration: FLOAT3 POSITION, FLOAT2 TEXCOORD0.
vs_2_0
dcl_position v0
dcl_texcoord0 v1
mov oPos, v0
mov oT0.xy, v1
