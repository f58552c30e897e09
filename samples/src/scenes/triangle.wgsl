// A D3D9 FVF XYZ | DIFFUSE triangle: position passed through, D3DCOLOR
// fetched by the vertex layout as Unorm8x4Bgra, so it arrives as (R, G, B, A).
struct VsOut {
    @builtin(position) position: vec4<f32>,
    @location(0) diffuse: vec4<f32>,
}

@vertex
fn vs(@location(0) position: vec3<f32>, @location(1) diffuse: vec4<f32>) -> VsOut {
    return VsOut(vec4<f32>(position, 1.0), diffuse);
}

@fragment
fn fs(input: VsOut) -> @location(0) vec4<f32> {
    return input.diffuse;
}
