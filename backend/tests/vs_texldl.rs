//! GPU tests of vertex texture fetch: vs_3_0 shaders declaring `dcl_2d` / `dcl_cube` /
//! `dcl_volume s#` and sampling with `texldl`, assembled, lifted by the translator, run
//! through [`Harness::vertex_outputs`] with textures bound where the shader interface says, and
//! compared exactly with texels picked on the CPU from the same texture data.
//!
//! The CPU reference (module [`reference`]) follows D3D9's point sampling: the mip level is
//! `D3DSAMP_MAXMIPLEVEL` under `MIPFILTER = NONE` (the default: `texldl`'s LOD is then
//! ignored), else the level nearest `coord.w`, clamped to the chain; `WRAP` addressing keeps
//! the fractional part of each coordinate; a cube direction picks the face of its largest
//! component and the face coordinates of the D3D9 (= Vulkan) cube map table. Coordinates
//! are chosen at texel centres, so no rounding rule at a texel edge is relied on.
//!
//! Also Wine's `test_vertex_texture` (from the corpus): its shaders as tokens, drawn as a
//! full-screen quad, checked at the pixel Wine checks.
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

#[path = "../../translator/tests/common/mod.rs"]
mod common;

use std::error::Error;

use d3d9_backend::device::{MipFilter, TextureAddress, TextureKind, FIXED_FUNCTION_ENTRY_POINT};
use d3d9_backend::Gpu;
use d3d9_harness::{
    fixed_function_pixel_wgsl, Draw, Harness, SamplerBinding, ShaderStage, Target, TextureBinding,
    Uniform, VertexBuffer, VertexProbe,
};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{decode, Program, Stage, TextureType, Usage};
use d3d9_translator::check::{self as d3d9_check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::{
    translate_vertex_shader, TranslatedShader, Varying, VertexShaderOptions,
};
use d3d9_translator::signature::Semantic;

/// CreateVertexShader on a hardware device: the checked program translation takes.
fn checked(program: &Program) -> Result<CheckedProgram, Box<dyn Error>> {
    Ok(d3d9_check::check(
        program,
        Stage::Vertex,
        &DeviceCaps::default(),
    )?)
}

type TestResult = Result<(), Box<dyn Error>>;
type Texel = [f32; 4];

/// A texture on the CPU: texels of every mip level (faces or slices after one another).
struct Texture {
    kind: TextureKind,
    width: u32,
    height: u32,
    depth: u32,
    levels: Vec<Vec<Texel>>,
}

impl Texture {
    /// A texture whose texel (x, y, layer) of level m is `texel(m, x, y, layer)`; `layers`
    /// is 6 for a cube and the depth for a volume.
    fn new(
        kind: TextureKind,
        [width, height, depth]: [u32; 3],
        level_count: u32,
        texel: impl Fn(u32, u32, u32, u32) -> Texel,
    ) -> Self {
        let mut levels = Vec::new();
        for m in 0..level_count {
            let [w, h, d] = Self::extent_of(kind, [width, height, depth], m);
            let mut data = Vec::new();
            for layer in 0..d {
                for y in 0..h {
                    for x in 0..w {
                        data.push(texel(m, x, y, layer));
                    }
                }
            }
            levels.push(data);
        }
        Self {
            kind,
            width,
            height,
            depth,
            levels,
        }
    }

    fn extent_of(kind: TextureKind, [w, h, d]: [u32; 3], level: u32) -> [u32; 3] {
        let shrink = |n: u32| (n >> level).max(1);
        let layers = match kind {
            TextureKind::TwoD => 1,
            TextureKind::Cube => 6,
            TextureKind::Volume => shrink(d),
        };
        [shrink(w), shrink(h), layers]
    }

    fn extent(&self, level: u32) -> [u32; 3] {
        Self::extent_of(self.kind, [self.width, self.height, self.depth], level)
    }

    fn texel(&self, level: u32, x: u32, y: u32, layer: u32) -> Texel {
        let [w, h, _] = self.extent(level);
        self.levels[level as usize][((layer * h + y) * w + x) as usize]
    }

    /// Level data as `Rgba32Float` bytes.
    fn bytes(&self) -> Vec<&[u8]> {
        self.levels
            .iter()
            .map(|l| bytemuck::cast_slice(l.as_slice()))
            .collect()
    }

    /// The binding of this texture's `Rgba32Float` data at `group`/`binding`.
    fn binding<'a>(&self, group: u32, binding: u32, levels: &'a [&'a [u8]]) -> TextureBinding<'a> {
        TextureBinding {
            group,
            binding,
            kind: self.kind,
            format: wgpu::TextureFormat::Rgba32Float,
            width: self.width,
            height: self.height,
            depth: self.depth,
            levels,
        }
    }
}

/// D3D9 point sampling on the CPU.
mod reference {
    use super::{Texel, Texture};
    use d3d9_backend::device::{MipFilter, TextureAddress, TextureFilter, TextureKind};
    use d3d9_harness::SamplerBinding;

    /// The mip level D3D9 reads for LOD `lod`.
    pub fn level(texture: &Texture, states: &SamplerBinding, lod: f32) -> u32 {
        let last = texture.levels.len() as u32 - 1;
        let base = states.max_mip_level.min(last);
        match states.mip_filter {
            MipFilter::None => base,
            MipFilter::Point => (lod.round().max(0.0) as u32).clamp(base, last),
            MipFilter::Linear => panic!("the reference does not blend levels"),
        }
    }

    /// The texel index of coordinate `c` on an axis of `n` texels.
    fn index(c: f32, n: u32, address: TextureAddress) -> u32 {
        let c = match address {
            TextureAddress::Wrap => c - c.floor(),
            TextureAddress::Clamp => c.clamp(0.0, 1.0),
            TextureAddress::Mirror | TextureAddress::Border | TextureAddress::MirrorOnce => {
                panic!("the reference does not mirror or read borders")
            }
        };
        ((c * n as f32).floor() as u32).min(n - 1)
    }

    /// The cube face of direction (x, y, z) and its (u, v) in 0..1: D3D9's cube map table
    /// (the same as Vulkan's), faces in `D3DCUBEMAP_FACES` order.
    pub fn cube_face([x, y, z]: [f32; 3]) -> (u32, f32, f32) {
        let (face, sc, tc, ma) = if x.abs() >= y.abs() && x.abs() >= z.abs() {
            if x > 0.0 {
                (0, -z, -y, x)
            } else {
                (1, z, -y, x)
            }
        } else if y.abs() >= z.abs() {
            if y > 0.0 {
                (2, x, z, y)
            } else {
                (3, x, -z, y)
            }
        } else if z > 0.0 {
            (4, x, -y, z)
        } else {
            (5, -x, -y, z)
        };
        let ma = ma.abs();
        (face, 0.5 * (sc / ma + 1.0), 0.5 * (tc / ma + 1.0))
    }

    /// What `texldl` returns for `coord` (xyz: coordinates or direction, w: LOD).
    pub fn sample(texture: &Texture, states: &SamplerBinding, coord: [f32; 4]) -> Texel {
        assert_eq!(states.mag_filter, TextureFilter::Point);
        assert_eq!(states.min_filter, TextureFilter::Point);
        let m = level(texture, states, coord[3]);
        let [w, h, d] = texture.extent(m);
        let [au, av, aw] = states.address;
        match texture.kind {
            TextureKind::TwoD => {
                texture.texel(m, index(coord[0], w, au), index(coord[1], h, av), 0)
            }
            TextureKind::Cube => {
                let (face, u, v) = cube_face([coord[0], coord[1], coord[2]]);
                let clamp = TextureAddress::Clamp;
                texture.texel(m, index(u, w, clamp), index(v, h, clamp), face)
            }
            TextureKind::Volume => texture.texel(
                m,
                index(coord[0], w, au),
                index(coord[1], h, av),
                index(coord[2], d, aw),
            ),
        }
    }
}

/// vs_3_0: `texldl r0, r1, s#n` with r1 = v0 (the coordinates, one vertex per case), the
/// result in texcoord0.
fn attribute_shader(dcl: &str, n: u32) -> String {
    format!(
        "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord0 v0
dcl_{dcl} s{n}
def c95, 0.0, 0.0, 0.5, 1.0
mov o0, c95
mov r1, v0
texldl r0, r1, s{n}
mov o1, r0
"
    )
}

/// Lifts `program`, checks it declares vertex sampler `s#n` of `texture_type`, binds
/// `texture` and `states` where its interface says, runs one vertex per entry of `coords`
/// (fed to `v0`) and returns texcoord0 of each.
fn fetch(
    gpu: &Gpu,
    program: &Program,
    n: u32,
    texture_type: TextureType,
    texture: &Texture,
    states: SamplerBinding,
    coords: &[[f32; 4]],
) -> Result<Vec<Texel>, Box<dyn Error>> {
    let shader = translate_vertex_shader(&checked(program)?, &VertexShaderOptions::default())?;
    let iface = &shader.interface;
    let sampler = iface
        .samplers
        .iter()
        .find(|s| s.register == n)
        .ok_or_else(|| format!("s{n} missing from the interface: {:?}", iface.samplers))?;
    assert_eq!(sampler.texture_type, texture_type);
    assert_eq!(
        (
            sampler.group,
            sampler.texture_binding,
            sampler.sampler_binding
        ),
        (1, 2 * n, 2 * n + 1)
    );
    let levels = texture.bytes();
    let textures = [texture.binding(sampler.group, sampler.texture_binding, &levels)];
    let samplers = [SamplerBinding {
        group: sampler.group,
        binding: sampler.sampler_binding,
        ..states
    }];
    let floats = float_constants(&shader);
    let mut uniforms = Vec::new();
    if let Some(f) = iface.float_constants {
        uniforms.push(Uniform::new(
            f.group,
            f.binding,
            bytemuck::cast_slice(&floats),
        ));
    }
    let attributes = [wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32x4,
        offset: 0,
        shader_location: iface.input(0).and_then(|i| i.location).unwrap_or(0),
    }];
    let buffers = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: 16,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        },
        data: bytemuck::cast_slice(coords),
    }];
    let vertex_buffers: &[VertexBuffer<'_>] = if iface.input(0).is_some() {
        &buffers
    } else {
        &[]
    };
    let location = iface
        .output(Semantic::new(Usage::TexCoord, 0))
        .and_then(|o| o.location)
        .ok_or("no texcoord0 output")?;
    let outputs = gpu.vertex_outputs(&VertexProbe {
        vertex_buffers,
        uniforms: &uniforms,
        textures: &textures,
        samplers: &samplers,
        ..VertexProbe::new(ShaderStage::naga(&shader.module), coords.len() as u32)
    })?;
    outputs
        .iter()
        .map(|o| {
            let v = o.get(&location).ok_or("texcoord0 not read back")?;
            Ok(v.as_slice().try_into()?)
        })
        .collect()
}

/// The float constant buffer of `shader` (zeros, then its `def c#` values), with the zero
/// register the lifter reads out-of-range relative accesses from.
fn float_constants(shader: &TranslatedShader) -> Vec<[f32; 4]> {
    let iface = &shader.interface;
    let registers = iface.float_constants.map_or(0, |f| f.registers as usize);
    let mut floats = vec![[0.0; 4]; registers + 1];
    for &(n, v) in &iface.defined_floats {
        if let Some(slot) = floats.get_mut(n as usize) {
            *slot = v;
        }
    }
    floats
}

/// Runs `coords` through `texldl` from sampler `s#n` and compares with the CPU reference.
fn check(
    gpu: &Gpu,
    dcl: &str,
    n: u32,
    texture_type: TextureType,
    texture: &Texture,
    states: SamplerBinding,
    coords: &[[f32; 4]],
) -> TestResult {
    let text = attribute_shader(dcl, n);
    let program = assemble(&text).map_err(|e| format!("{e}\n{text}"))?;
    let got = fetch(gpu, &program, n, texture_type, texture, states, coords)?;
    for (coord, got) in coords.iter().zip(&got) {
        let want = reference::sample(texture, &states, *coord);
        assert_eq!(
            *got, want,
            "texldl at {coord:?} (sampler states {states:?})"
        );
    }
    Ok(())
}

/// 4x4 2D texture with 3 mip levels: texel (x, y) of level m is (x, y, m, 1 + x + 4y + 16m),
/// so every texel of every level is distinct.
fn two_d() -> Texture {
    Texture::new(TextureKind::TwoD, [4, 4, 1], 3, |m, x, y, _| {
        [
            x as f32,
            y as f32,
            m as f32,
            (1 + x + 4 * y + 16 * m) as f32,
        ]
    })
}

/// Texel centre `i` of `n` texels, as a coordinate.
fn centre(i: u32, n: u32) -> f32 {
    (i as f32 + 0.5) / n as f32
}

fn gpu() -> Result<Option<Gpu>, Box<dyn Error>> {
    Ok(Gpu::for_tests()?)
}

/// Point sampling at every texel centre of level 0, with D3D9's default sampler states.
#[test]
fn gpu_texldl_2d_point_samples_each_texel() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let texture = two_d();
    let mut coords = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            coords.push([centre(x, 4), centre(y, 4), 0.0, 0.0]);
        }
    }
    check(
        &gpu,
        "2d",
        0,
        TextureType::TwoD,
        &texture,
        SamplerBinding::new(0, 0),
        &coords,
    )?;
    // Spot-check the reference itself: texel (2, 1) of level 0.
    let want = reference::sample(
        &texture,
        &SamplerBinding::new(0, 0),
        [centre(2, 4), centre(1, 4), 0.0, 0.0],
    );
    assert_eq!(want, [2.0, 1.0, 0.0, 7.0]);
    Ok(())
}

/// `texldl`'s w picks the mip level under `MIPFILTER = POINT`: LOD 1 reads level 1, LOD 2
/// and beyond the chain read the last level, 0.75 rounds to level 1.
#[test]
fn gpu_texldl_explicit_lod_selects_mip_level() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let texture = two_d();
    let states = SamplerBinding {
        mip_filter: MipFilter::Point,
        ..SamplerBinding::new(0, 0)
    };
    let mut coords = Vec::new();
    for lod in [0.0, 1.0, 0.75, 2.0, 5.0, -1.0] {
        for (x, y) in [(0, 0), (3, 0), (1, 2), (3, 3)] {
            coords.push([centre(x, 4), centre(y, 4), 0.0, lod]);
        }
    }
    check(&gpu, "2d", 0, TextureType::TwoD, &texture, states, &coords)?;
    // The reference: LOD 1 at texel (3, 3) of level 0 is texel (1, 1) of level 1.
    let want = reference::sample(&texture, &states, [centre(3, 4), centre(3, 4), 0.0, 1.0]);
    assert_eq!(want, [1.0, 1.0, 1.0, 22.0]);
    Ok(())
}

/// D3D9 rules around the LOD: with the default `MIPFILTER = NONE` the LOD is ignored and
/// level 0 is read; `MAXMIPLEVEL = 1` makes level 1 the most detailed level read.
#[test]
fn gpu_texldl_mip_filter_none_and_max_mip_level() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let texture = two_d();
    let coords: Vec<_> = [0.0, 1.0, 2.0]
        .iter()
        .map(|&lod| [centre(3, 4), centre(2, 4), 0.0, lod])
        .collect();
    let none = SamplerBinding::new(0, 0);
    check(&gpu, "2d", 0, TextureType::TwoD, &texture, none, &coords)?;
    assert_eq!(reference::level(&texture, &none, 2.0), 0);
    let max1 = SamplerBinding {
        mip_filter: MipFilter::Point,
        max_mip_level: 1,
        ..none
    };
    check(&gpu, "2d", 0, TextureType::TwoD, &texture, max1, &coords)?;
    assert_eq!(reference::level(&texture, &max1, 0.0), 1);
    let none_max1 = SamplerBinding {
        max_mip_level: 1,
        ..none
    };
    check(
        &gpu,
        "2d",
        0,
        TextureType::TwoD,
        &texture,
        none_max1,
        &coords,
    )
}

/// `D3DTADDRESS_WRAP` (the default): 1.25 reads where 0.25 does, also below zero and in
/// both axes; `CLAMP` for contrast reads the edge texel.
#[test]
fn gpu_texldl_wrap_addressing() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    // 2x2, one level: 0.25 and 0.75 are texel centres.
    let texture = Texture::new(TextureKind::TwoD, [2, 2, 1], 1, |_, x, y, _| {
        [x as f32, y as f32, 0.0, (10 + x + 2 * y) as f32]
    });
    let coords = [
        [0.25, 0.25, 0.0, 0.0],
        [1.25, 0.25, 0.0, 0.0],
        [1.75, 0.25, 0.0, 0.0],
        [-0.25, 0.25, 0.0, 0.0],
        [0.25, 1.75, 0.0, 0.0],
        [2.25, -1.25, 0.0, 0.0],
    ];
    let wrap = SamplerBinding::new(0, 0);
    check(&gpu, "2d", 0, TextureType::TwoD, &texture, wrap, &coords)?;
    assert_eq!(
        reference::sample(&texture, &wrap, [1.25, 0.25, 0.0, 0.0]),
        reference::sample(&texture, &wrap, [0.25, 0.25, 0.0, 0.0])
    );
    assert_eq!(
        reference::sample(&texture, &wrap, [1.75, 0.25, 0.0, 0.0]),
        [1.0, 0.0, 0.0, 11.0]
    );
    let clamp = SamplerBinding {
        address: [TextureAddress::Clamp; 3],
        ..wrap
    };
    check(&gpu, "2d", 0, TextureType::TwoD, &texture, clamp, &coords)?;
    assert_eq!(
        reference::sample(&texture, &clamp, [-0.25, 1.75, 0.0, 0.0]),
        [0.0, 1.0, 0.0, 12.0]
    );
    Ok(())
}

/// `dcl_cube s1`: a direction picks the face of its largest component, then the texel by
/// D3D9's cube map table. Faces +X, −X, +Y, −Y, +Z, −Z, each at all four texels of a 2x2
/// face; mip level 1 (1x1) by LOD.
#[test]
fn gpu_texldl_cube_face_selection() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let texture = Texture::new(TextureKind::Cube, [2, 2, 1], 2, |m, x, y, face| {
        [
            face as f32,
            x as f32,
            y as f32,
            (100 * m + 10 * face + x + 2 * y) as f32,
        ]
    });
    let mut coords = Vec::new();
    for major in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] {
        for sign in [1.0f32, -1.0] {
            for a in [-0.5f32, 0.5] {
                for b in [-0.5f32, 0.5] {
                    // The two minor axes get ±0.5 and the major axis ±1 (face coordinates
                    // 0.25 / 0.75, texel centres), all scaled by 3: directions need not be
                    // normalised.
                    let mut d = [0.0f32; 3];
                    let mut minors = [a, b].into_iter();
                    for (k, m) in major.iter().enumerate() {
                        d[k] = if *m == 1.0 {
                            sign
                        } else {
                            minors.next().unwrap_or(0.0)
                        };
                    }
                    coords.push([d[0] * 3.0, d[1] * 3.0, d[2] * 3.0, 0.0]);
                }
            }
        }
    }
    coords.push([0.3, -0.9, 0.2, 1.0]); // −Y, level 1
    let states = SamplerBinding {
        mip_filter: MipFilter::Point,
        ..SamplerBinding::new(0, 0)
    };
    check(
        &gpu,
        "cube",
        1,
        TextureType::Cube,
        &texture,
        states,
        &coords,
    )?;
    // The reference's faces and orientation on the brief's three directions.
    assert_eq!(reference::cube_face([1.0, 0.5, 0.5]), (0, 0.25, 0.25));
    assert_eq!(reference::cube_face([0.5, -1.0, 0.5]), (3, 0.75, 0.25));
    assert_eq!(reference::cube_face([-0.5, 0.5, 1.0]), (4, 0.25, 0.25));
    assert_eq!(
        reference::sample(&texture, &states, [0.3, -0.9, 0.2, 1.0]),
        [3.0, 0.0, 0.0, 130.0]
    );
    Ok(())
}

/// `dcl_volume s2`: w picks the slice of a 2x2x4 volume, wrapping like u and v; LOD 1 reads
/// the 1x1x2 level.
#[test]
fn gpu_texldl_volume_slice_selection() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let texture = Texture::new(TextureKind::Volume, [2, 2, 4], 2, |m, x, y, z| {
        [
            x as f32,
            y as f32,
            z as f32,
            (100 * m + x + 2 * y + 4 * z) as f32,
        ]
    });
    let mut coords = Vec::new();
    for z in 0..4 {
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            coords.push([centre(x, 2), centre(y, 2), centre(z, 4), 0.0]);
        }
    }
    coords.push([0.25, 0.75, 1.125, 0.0]); // w wraps to slice 0
    coords.push([0.25, 0.75, -0.375, 0.0]); // w wraps to slice 2
    coords.push([0.5, 0.5, 0.75, 1.0]); // level 1, slice 1
    let states = SamplerBinding {
        mip_filter: MipFilter::Point,
        ..SamplerBinding::new(0, 0)
    };
    check(
        &gpu,
        "volume",
        2,
        TextureType::Volume,
        &texture,
        states,
        &coords,
    )?;
    assert_eq!(
        reference::sample(
            &texture,
            &states,
            [centre(1, 2), centre(0, 2), centre(3, 4), 0.0]
        ),
        [1.0, 0.0, 3.0, 13.0]
    );
    assert_eq!(
        reference::sample(&texture, &states, [0.5, 0.5, 0.75, 1.0]),
        [0.0, 0.0, 1.0, 104.0]
    );
    Ok(())
}

/// Coordinates from a constant (`texldl r0, c0, s0` with `def c0`) and an `Rgba8Unorm`
/// texture (`D3DFMT_A8B8G8R8`): the texel's bytes / 255.
#[test]
fn gpu_texldl_constant_coordinates_rgba8() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let text = "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_2d s3
def c0, 0.625, 0.375, 0.0, 0.0
def c95, 0.0, 0.0, 0.5, 1.0
mov o0, c95
texldl r0, c0, s3
mov o1, r0
";
    let program = assemble(text).map_err(|e| format!("{e}\n{text}"))?;
    let shader = translate_vertex_shader(&checked(&program)?, &VertexShaderOptions::default())?;
    let sampler = shader.interface.samplers.first().ok_or("no sampler")?;
    assert_eq!((sampler.register, sampler.texture_binding), (3, 6));
    // 4x4 texels, texel (x, y) = (16x, 16y, 255 - x - y, 200 + x).
    let mut bytes = Vec::new();
    for y in 0..4u8 {
        for x in 0..4u8 {
            bytes.extend_from_slice(&[16 * x, 16 * y, 255 - x - y, 200 + x]);
        }
    }
    let levels = [bytes.as_slice()];
    let textures = [TextureBinding::two_d(
        sampler.group,
        sampler.texture_binding,
        wgpu::TextureFormat::Rgba8Unorm,
        4,
        4,
        &levels,
    )];
    let samplers = [SamplerBinding::new(sampler.group, sampler.sampler_binding)];
    let floats = float_constants(&shader);
    let uniforms: Vec<_> = shader
        .interface
        .float_constants
        .iter()
        .map(|f| Uniform::new(f.group, f.binding, bytemuck::cast_slice(&floats)))
        .collect();
    let location = shader
        .interface
        .output(Semantic::new(Usage::TexCoord, 0))
        .and_then(|o| o.location)
        .ok_or("no texcoord0")?;
    let outputs = gpu.vertex_outputs(&VertexProbe {
        uniforms: &uniforms,
        textures: &textures,
        samplers: &samplers,
        ..VertexProbe::new(ShaderStage::naga(&shader.module), 1)
    })?;
    let got = outputs[0].get(&location).ok_or("not read back")?;
    // (0.625, 0.375) is the centre of texel (2, 1).
    let want = [32.0, 16.0, 252.0, 202.0].map(|b: f32| b / 255.0);
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 1e-6, "got {got:?}, want {want:?}");
    }
    Ok(())
}

/// An upload of the wrong size is a typed error, not a panic or a wgpu abort.
#[test]
fn gpu_texture_data_size_is_checked() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let shader = translate_vertex_shader(
        &checked(&assemble(&attribute_shader("2d", 0))?)?,
        &VertexShaderOptions::default(),
    )?;
    let short = [0u8; 12];
    let levels = [&short[..]];
    let textures = [TextureBinding::two_d(
        1,
        0,
        wgpu::TextureFormat::Rgba32Float,
        1,
        1,
        &levels,
    )];
    let samplers = [SamplerBinding::new(1, 1)];
    let err = gpu
        .vertex_outputs(&VertexProbe {
            textures: &textures,
            samplers: &samplers,
            ..VertexProbe::new(ShaderStage::naga(&shader.module), 1)
        })
        .err()
        .ok_or("a 12-byte level of a 1x1 Rgba32Float texture was accepted")?;
    assert!(
        matches!(
            err,
            d3d9_harness::HarnessError::TextureData {
                level: 0,
                expected: 16,
                got: 12,
                ..
            }
        ),
        "{err}"
    );
    Ok(())
}

/// Wine's `test_vertex_texture`: `texldl o1, c0.x, s0` from a 2x2 A8R8G8B8 texture filled
/// with 0x00ffff00, a full-screen quad, pixel shader `mov oC0, v0` (COLOR0 passed through:
/// the fixed-function stage is exactly that on a unorm target). Expects 0x00ffff00 at
/// (160, 360) over a 0xffffffff clear.
#[test]
fn gpu_wine_test_vertex_texture() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let corpus = common::corpus("d3d9_visual.json");
    let shaders = corpus["shaders"].as_array().ok_or("no shaders")?;
    let tokens = |name: &str| -> Result<Vec<u32>, Box<dyn Error>> {
        let shader = shaders
            .iter()
            .find(|s| s["function"] == "test_vertex_texture" && s["name"] == name)
            .ok_or_else(|| format!("test_vertex_texture {name} not in the corpus"))?;
        Ok(shader["tokens"]
            .as_array()
            .ok_or("no tokens")?
            .iter()
            .map(|t| t.as_u64().and_then(|t| u32::try_from(t).ok()))
            .collect::<Option<_>>()
            .ok_or("bad token")?)
    };
    // The pixel shader must be the pass-through the fixed-function stage stands for.
    let ps = decode(&tokens("ps_code")?)?;
    let listing: Vec<String> = ps.instructions.iter().map(|i| format!("{i:?}")).collect();
    assert_eq!(ps.instructions.len(), 2, "{listing:#?}");
    let vs = decode(&tokens("vs_code")?)?;
    let color0 = Semantic::new(Usage::Color, 0);
    let shader = translate_vertex_shader(
        &checked(&vs)?,
        &VertexShaderOptions {
            output_locations: Some(vec![Varying::new(color0, 0, 4)]),
            position_fixup: true,
            ..Default::default()
        },
    )?;
    let iface = &shader.interface;
    let sampler = iface.samplers.first().ok_or("no sampler")?;
    // D3DFMT_A8R8G8B8 0x00ffff00 = (a 0, r ff, g ff, b 0) = RGBA bytes ff ff 00 00.
    let texel = 0x00ff_ff00u32;
    let rgba = [
        (texel >> 16) as u8,
        (texel >> 8) as u8,
        texel as u8,
        (texel >> 24) as u8,
    ];
    let data = rgba.repeat(4);
    let levels = [data.as_slice()];
    let textures = [TextureBinding::two_d(
        sampler.group,
        sampler.texture_binding,
        wgpu::TextureFormat::Rgba8Unorm,
        2,
        2,
        &levels,
    )];
    let samplers = [SamplerBinding::new(sampler.group, sampler.sampler_binding)];
    let floats = float_constants(&shader);
    let fixup = [1.0 / 640.0, -1.0 / 480.0, 0.0, 0.0f32];
    let mut uniforms = Vec::new();
    if let Some(f) = iface.float_constants {
        uniforms.push(Uniform::new(
            f.group,
            f.binding,
            bytemuck::cast_slice(&floats),
        ));
    }
    if let Some(b) = iface.position_fixup {
        uniforms.push(Uniform::new(
            b.group,
            b.binding,
            bytemuck::cast_slice(&fixup),
        ));
    }
    let quad: [[f32; 3]; 4] = [
        [-1.0, -1.0, 0.0],
        [-1.0, 1.0, 0.0],
        [1.0, -1.0, 0.0],
        [1.0, 1.0, 0.0],
    ];
    let position = iface.input(0).and_then(|i| i.location).ok_or("no v0")?;
    let attributes = [wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32x3,
        offset: 0,
        shader_location: position,
    }];
    let buffers = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: 12,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        },
        data: bytemuck::cast_slice(&quad),
    }];
    let location = iface.output(color0).and_then(|o| o.location);
    let fragment = fixed_function_pixel_wgsl(location);
    let image = gpu.render(&Draw {
        vertex_buffers: &buffers,
        uniforms: &uniforms,
        textures: &textures,
        samplers: &samplers,
        topology: wgpu::PrimitiveTopology::TriangleStrip,
        ..Draw::new(
            ShaderStage::naga(&shader.module),
            ShaderStage::wgsl(&fragment).entry(FIXED_FUNCTION_ENTRY_POINT),
            4,
            Target::rgba8(640, 480).cleared_to(wgpu::Color::WHITE),
        )
    })?;
    let [r, g, b, _] = image.rgba8(160, 360).ok_or("pixel outside")?;
    let color = u32::from_be_bytes([0, r, g, b]);
    assert_eq!(
        color, 0x00ff_ff00,
        "getPixelColor(160, 360) = {color:#010x}"
    );
    Ok(())
}

/// Swizzles and masks: the coordinate's swizzle picks (u, v, lod) from the register, the
/// sampler's swizzle reorders the fetched texel, the write mask keeps the other components.
#[test]
fn gpu_texldl_swizzles_and_write_mask() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let text = "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord0 v0
dcl_2d s0
def c95, 0.0, 0.0, 0.5, 1.0
def c1, -7.0, -8.0, -9.0, -10.0
mov o0, c95
mov r0, c1
texldl r0.xz, v0.yxwz, s0.wzyx
mov o1, r0
";
    let program = assemble(text).map_err(|e| format!("{e}\n{text}"))?;
    let texture = two_d();
    let states = SamplerBinding {
        mip_filter: MipFilter::Point,
        ..SamplerBinding::new(0, 0)
    };
    // v0 = (v, u, lod, 0): u = texel 3, v = texel 0, LOD 1 → level 1 texel (1, 0).
    let v0 = [centre(0, 4), centre(3, 4), 1.0, 0.0];
    let got = fetch(
        &gpu,
        &program,
        0,
        TextureType::TwoD,
        &texture,
        states,
        &[v0],
    )?;
    let texel = reference::sample(&texture, &states, [v0[1], v0[0], v0[3], v0[2]]);
    assert_eq!(texel, [1.0, 0.0, 1.0, 18.0]);
    assert_eq!(got, vec![[texel[3], -8.0, texel[1], -10.0]]);
    Ok(())
}
