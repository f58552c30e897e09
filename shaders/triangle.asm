// triangle: the classic first sample, a triangle with one D3DCOLOR
// per vertex (vs_1_1). Declaration: FVF D3DFVF_XYZ | D3DFVF_DIFFUSE; the
// colour arrives as (r, g, b, a) in [0, 1].
//   c0-c3  world * view * projection, transposed
vs_1_1
dcl_position v0
dcl_color v1
m4x4 oPos, v0, c0
mov oD0, v1
