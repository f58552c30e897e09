// shaders/point_lights.asm written by hand: the same math, inputs, outputs and bind group as
// its translation (c# at binding 0, i# at binding 1, the half-pixel position fix-up at
// binding 3; v0 position and v1 normal at locations 0 and 1; COLOR0 at location 0), with the
// loop over lights as a person writes it: index 0..i0.x.

@group(0) @binding(0) var<uniform> c: array<vec4<f32>, 257>;
@group(0) @binding(1) var<uniform> i: array<vec4<i32>, 16>;
@group(0) @binding(3) var<uniform> fixup: vec4<f32>;

struct VertexOutput {
    @builtin(position) @invariant position: vec4<f32>,
    @location(0) color: vec4<f32>,
}

@vertex
fn main(@location(0) position: vec4<f32>, @location(1) normal: vec4<f32>) -> VertexOutput {
    var clip = vec4(dot(position, c[0]), dot(position, c[1]), dot(position, c[2]), dot(position, c[3]));
    let world = vec3(dot(position, c[4]), dot(position, c[5]), dot(position, c[6]));
    let n = vec3(dot(normal.xyz, c[4].xyz), dot(normal.xyz, c[5].xyz), dot(normal.xyz, c[6].xyz));
    var light = c[10].xyz;
    for (var l = 0; l < i[0].x; l++) {
        let to_light = c[12 + l].xyz - world;
        let d2 = dot(to_light, to_light);
        let lambert = max(dot(n, to_light * inverseSqrt(d2)), c[11].x);
        light += c[20 + l].xyz * (lambert / (d2 * c[11].y + c[11].z));
    }
    clip = vec4(clip.xy + fixup.xy * clip.w, clip.zw);
    return VertexOutput(clip, saturate(vec4(light, c[10].w) * c[9]));
}
