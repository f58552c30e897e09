// shaders/skinned_arm.asm written by hand: the same math, inputs, outputs and bind group as
// its translation (c# at binding 0, the half-pixel position fix-up at binding 3; position,
// normal, blend weight and UBYTE4 blend indices at locations 0-3; COLOR0 at location 0).
// Bone b's transposed 4x3 matrix is c[20 + 3b .. 22 + 3b].

@group(0) @binding(0) var<uniform> c: array<vec4<f32>, 257>;
@group(0) @binding(3) var<uniform> fixup: vec4<f32>;

struct VertexOutput {
    @builtin(position) @invariant position: vec4<f32>,
    @location(0) color: vec4<f32>,
}

fn transform(p: vec4<f32>, bone: i32) -> vec3<f32> {
    return vec3(dot(p, c[bone]), dot(p, c[bone + 1]), dot(p, c[bone + 2]));
}

fn rotate(n: vec3<f32>, bone: i32) -> vec3<f32> {
    return vec3(dot(n, c[bone].xyz), dot(n, c[bone + 1].xyz), dot(n, c[bone + 2].xyz));
}

@vertex
fn main(
    @location(0) position: vec4<f32>,
    @location(1) normal: vec4<f32>,
    @location(2) weight: vec4<f32>,
    @location(3) bones: vec4<u32>,
) -> VertexOutput {
    let b0 = 20 + 3 * i32(bones.x);
    let b1 = 20 + 3 * i32(bones.y);
    let w0 = weight.x;
    let w1 = 1.0 - w0;
    let p = vec4(transform(position, b0) * w0 + transform(position, b1) * w1, 1.0);
    let n = normalize(rotate(normal.xyz, b0) * w0 + rotate(normal.xyz, b1) * w1);
    var clip = vec4(dot(p, c[0]), dot(p, c[1]), dot(p, c[2]), dot(p, c[3]));
    let diffuse = max(dot(n, c[8].xyz), 0.0);
    clip = vec4(clip.xy + fixup.xy * clip.w, clip.zw);
    return VertexOutput(clip, saturate(vec4(c[9].xyz * diffuse + c[10].xyz, c[9].w)));
}
