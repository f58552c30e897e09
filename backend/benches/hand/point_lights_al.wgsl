// shaders/point_lights.asm written by hand with D3D9's loop register: as point_lights.wgsl,
// but the loop reads c[aL + 12] and c[aL + 20] with aL starting at i0.y and stepping by i0.z,
// both run-time values, as `loop aL, i0` defines.

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
    let loop_register = i[0];
    var aL = loop_register.y;
    for (var count = 0; count < loop_register.x; count++) {
        let to_light = c[aL + 12].xyz - world;
        let d2 = dot(to_light, to_light);
        let lambert = max(dot(n, to_light * inverseSqrt(d2)), c[11].x);
        light += c[aL + 20].xyz * (lambert / (d2 * c[11].y + c[11].z));
        aL += loop_register.z;
    }
    clip = vec4(clip.xy + fixup.xy * clip.w, clip.zw);
    return VertexOutput(clip, saturate(vec4(light, c[10].w) * c[9]));
}
