// normal_map_vs: transform, pass the texture coordinates and the object-space vector
// towards a point light on to the pixel shader (vs_2_0).
// Declaration: FLOAT3 POSITION, FLOAT2 TEXCOORD0.
//   c0-c3  world * view * projection, transposed
//   c4     the light's position in object space (the application's inverse world)
vs_2_0
dcl_position v0
dcl_texcoord0 v1
m4x4 oPos, v0, c0
mov oT0.xy, v1
sub oT1.xyz, c4, v0         // towards the light, interpolated linearly
