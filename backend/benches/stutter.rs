//! First use of shaders, declarations and pipelines through the D3D9-style [`Device`]: a
//! "level load" replay, cold and with a warm disk cache (issue 29, item 2).
//!
//! The objects: 320 combinations, each a (vertex declaration, vs_2_0, ps_2_0) of its own.
//! - 4 declarations of the frame bench's cube (FLOAT3 position, D3DCOLOR, FLOAT2 texture
//!   coordinate), each with its own vertex buffer: the frame bench's layout (24 bytes); an
//!   unused FLOAT1 second texture coordinate after it (28); the colour first (24); an unused FLOAT3
//!   normal between position and texture coordinate, the colour last (36).
//! - Combination `c` has declaration `c % 4`, vertex shader `c` and pixel shader `c`. Every
//!   shader is a distinct program: the frame bench's pair with `def` values taken from `c`,
//!   in one of 4 vertex and 3 pixel variants (an `add` after the `mul`, a temporary, `dp4`
//!   rows for `m4x4`, `mad` for `mul`, the multiplications in another order).
//!
//! One replay, in a child process of this bench (`STUTTER_CHILD=<label>`), on a new device:
//! - **create**: the 4 declarations and buffers, 8 textures, and the 320 combinations' 640
//!   shaders (`CreateVertexShader`/`CreatePixelShader` of assembled tokens), as a game creates
//!   them at its load.
//! - **load**: each of the first 300 combinations drawn once (its declaration, stream, shaders,
//!   a texture, a world matrix, the 12-triangle cube), then [`Device::flush`]. Every draw
//!   pairs, translates and builds its pipeline here.
//! - **frames**: the frame bench's frame, 2,000 draws: every draw sets its world matrix
//!   (`SetVertexShaderConstantF(0, m, 4)`) and draws the cube; every 8th binds another of the
//!   8 textures; every 64th binds another of 32 loaded combinations (`9k` for group `k`) and
//!   sets one render state (`D3DRS_ALPHABLENDENABLE` on even groups, `D3DRS_ZFUNC` on odd
//!   ones). 20 draws spread through the frame (draw `32 + 100j`) each bind one more
//!   combination for that draw alone and then bind the group's again.
//!   - **first frame**: the first frame after the load, timed alone: the loaded combinations
//!     meet blend and depth states the load did not draw them with, so it builds pipelines.
//!   - one more frame untimed, then **steady**: `BENCH_FRAMES` frames (default 15) whose 20
//!     extra draws use loaded combinations (`5 + 13j`); the median, and the slowest of them as
//!     the noise floor.
//!   - **worst**: the same frame with the 20 extra draws on the 20 combinations never drawn
//!     (`300 + j`).
//!   - **after**: one steady frame after it.
//! - Last, untimed: the worst frame again on a cleared target, read back; its hash must be the
//!   same in every child (a cache must not change a picture), and it must cover a quarter of
//!   the target.
//!
//! Timed, as in the frame bench: from the first call to the return of [`Device::flush`]. The
//! GPU is waited for afterwards; the load, the first frame, the steady frames and the worst
//! frame are also given to the end of that wait ("+ wait"), since lavapipe compiles a
//! pipeline's LLVM code when it first runs a draw of it, on its own threads. The child prints
//! its figures as one line of `key=value` on stdout.
//!
//! The bench itself runs `BENCH_ROUNDS` rounds (default 3). Each round makes a new folder
//! with two empty folders in it, one for the device's cache and one for Mesa's shader cache
//! (`MESA_SHADER_CACHE_DIR`, which lavapipe uses for its compiled code; left at its default,
//! `~/.cache/mesa_shader_cache`, every run after the first would find it filled). Then three
//! children, each with `MESA_SHADER_CACHE_DIR` set to the round's folder:
//! - **cold**: `D3D9_CACHE_DIR` the round's empty folder; both caches start empty;
//! - **warm**: the same folders, as the cold child left them;
//! - **off**: `D3D9_CACHE_DIR=off`, Mesa's cache as the cold child left it: what the driver's
//!   own cache gives without the device's. After warm in rounds 1, 3, 5, ..., before it in
//!   rounds 2, 4, ....
//!
//! The folder is deleted after the round. The table shows the median over rounds of each
//! figure; a ratio is the median of the per-round ratios, each from one child (worst/steady)
//! or one round (warm/cold). Target: with a warm cache, the worst frame ≤ 1.2× a steady frame.
//! Caches of other drivers (NVIDIA's, for one) are not redirected. To profile one replay, run
//! the bench binary with `STUTTER_CHILD=cold D3D9_CACHE_DIR=<folder>`. Commands and figures:
//! `docs/benchmarks.md`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod cube;
use cube::{
    env_u32, hash_pixels, median, texel_bytes, world_registers, CLEAR_COLOUR, CUBE_COLOURS,
    CUBE_INDICES, TEXTURES, TEX_SIZE,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use d3d9_backend::device::{
    Blend, ClearFlags, CompareFunction, DeclarationId, Device, DeviceParams, Format, PixelShaderId,
    PrimitiveType, RenderState, TextureId, VertexBufferId, VertexShaderId,
};
use d3d9_translator::asm::assemble_tokens;
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};

const SIZE: u32 = 128;
const DRAWS: usize = 2000;
/// Combinations drawn by the load.
const LOADED: usize = 300;
/// Combinations first drawn in the worst frame.
const NEW: usize = 20;
const COMBINATIONS: usize = LOADED + NEW;

/// One of the vertex declarations and the layout of its vertex buffer.
struct Layout {
    /// Offset, type, usage and usage index of each element, in the declaration's order.
    elements: &'static [(u16, DeclType, Usage, u8)],
    stride: u32,
    /// Byte offsets of the position (3 floats), the D3DCOLOR and the texture coordinate (2
    /// floats) in a vertex; the bytes of unused elements stay zero.
    position: usize,
    colour: usize,
    uv: usize,
}

const LAYOUTS: [Layout; 4] = [
    Layout {
        elements: &[
            (0, DeclType::Float3, Usage::Position, 0),
            (12, DeclType::D3DColor, Usage::Color, 0),
            (16, DeclType::Float2, Usage::TexCoord, 0),
        ],
        stride: 24,
        position: 0,
        colour: 12,
        uv: 16,
    },
    Layout {
        elements: &[
            (0, DeclType::Float3, Usage::Position, 0),
            (12, DeclType::D3DColor, Usage::Color, 0),
            (16, DeclType::Float2, Usage::TexCoord, 0),
            (24, DeclType::Float1, Usage::TexCoord, 1),
        ],
        stride: 28,
        position: 0,
        colour: 12,
        uv: 16,
    },
    Layout {
        elements: &[
            (0, DeclType::D3DColor, Usage::Color, 0),
            (4, DeclType::Float3, Usage::Position, 0),
            (16, DeclType::Float2, Usage::TexCoord, 0),
        ],
        stride: 24,
        position: 4,
        colour: 0,
        uv: 16,
    },
    Layout {
        elements: &[
            (0, DeclType::Float3, Usage::Position, 0),
            (12, DeclType::Float3, Usage::Normal, 0),
            (24, DeclType::Float2, Usage::TexCoord, 0),
            (32, DeclType::D3DColor, Usage::Color, 0),
        ],
        stride: 36,
        position: 0,
        colour: 32,
        uv: 24,
    },
];

/// A `def` value from `c`: three channels between 0.6 and 0.96 that together name `c`.
fn def_value(c: usize, rotate: usize) -> [f32; 4] {
    let digit = |d: usize| (60 + 4 * ((c / 10usize.pow(((d + rotate) % 3) as u32)) % 10)) as f32;
    [digit(0) / 100.0, digit(1) / 100.0, digit(2) / 100.0, 1.0]
}

fn def_line(register: &str, v: [f32; 4]) -> String {
    format!(
        "def {register}, {:?}, {:?}, {:?}, {:?}\n",
        v[0], v[1], v[2], v[3]
    )
}

/// Vertex shader `c`: the frame bench's (`m4x4 oPos, v0, c0`, the diffuse colour times `c8`,
/// `mov oT0, v2`) in variant `(c / 4) % 4`.
fn vs_asm(c: usize) -> String {
    let body = match (c / 4) % 4 {
        0 => "m4x4 oPos, v0, c0\nmul oD0, v1, c8\nmov oT0, v2\n",
        1 => "m4x4 oPos, v0, c0\nmul r0, v1, c8\nadd oD0, r0, c9\nmov oT0, v2\n",
        2 => "m4x4 oPos, v0, c0\nmul r0, v1, c8\nmov oD0, r0\nmov oT0, v2\n",
        _ => {
            "dp4 oPos.x, v0, c0\ndp4 oPos.y, v0, c1\ndp4 oPos.z, v0, c2\ndp4 oPos.w, v0, c3\n\
             mul oD0, v1, c8\nadd oT0, v2, c9\n"
        }
    };
    format!(
        "vs_2_0\n{}{}dcl_position v0\ndcl_color v1\ndcl_texcoord v2\n{body}",
        def_line("c8", def_value(c, 0)),
        def_line("c9", [0.0625 * (c % 2) as f32, 0.0, 0.0, 0.0]),
    )
}

/// Pixel shader `c`: the frame bench's (`texld`, times the colour, times `c0`) in variant
/// `c % 3`.
fn ps_asm(c: usize) -> String {
    let body = match c % 3 {
        0 => "mul r0, r0, v0\nmul r0, r0, c0\n",
        1 => "mad r0, r0, v0, c1\nmul r0, r0, c0\n",
        _ => "mul r0, r0, c0\nmul r0, r0, v0\n",
    };
    format!(
        "ps_2_0\n{}{}dcl t0.xy\ndcl v0\ndcl_2d s0\ntexld r0, t0, s0\n{body}mov oC0, r0\n",
        def_line("c0", def_value(c, 1)),
        def_line("c1", [0.0625, 0.0625, 0.0625, 0.0]),
    )
}

/// The cube's 8 vertices in `layout`.
fn vertex_bytes(layout: &Layout) -> Vec<u8> {
    let stride = layout.stride as usize;
    let mut out = vec![0u8; stride * 8];
    for i in 0..8usize {
        let v = &mut out[i * stride..(i + 1) * stride];
        let half = |bit: usize| if i & bit != 0 { 0.5f32 } else { -0.5 };
        for (k, f) in [half(1), half(2), half(4)].into_iter().enumerate() {
            let at = layout.position + 4 * k;
            v[at..at + 4].copy_from_slice(&f.to_le_bytes());
        }
        v[layout.colour..layout.colour + 4].copy_from_slice(&CUBE_COLOURS[i].to_le_bytes());
        for (k, f) in [(i & 1) as f32, ((i >> 1) & 1) as f32]
            .into_iter()
            .enumerate()
        {
            let at = layout.uv + 4 * k;
            v[at..at + 4].copy_from_slice(&f.to_le_bytes());
        }
    }
    out
}

/// The combination bound by group `k` of 64 draws: one of 32 loaded ones.
fn group_combination(k: usize) -> usize {
    9 * k
}

/// The draw that binds the `j`th extra combination for itself alone.
fn extra_draw(j: usize) -> Option<usize> {
    (j < NEW).then_some(32 + 100 * j)
}

/// The extra combinations of a steady frame (all loaded) and of the worst frame (never drawn).
fn steady_extras() -> [usize; NEW] {
    std::array::from_fn(|j| 5 + 13 * j)
}

fn new_extras() -> [usize; NEW] {
    std::array::from_fn(|j| LOADED + j)
}

/// One device with every combination's objects.
struct Replay {
    dev: Device,
    /// Per layout: its declaration and vertex buffer.
    layouts: Vec<(DeclarationId, VertexBufferId)>,
    /// Per combination: its layout and shaders.
    combinations: Vec<(usize, VertexShaderId, PixelShaderId)>,
    textures: Vec<TextureId>,
    world: Vec<[[f32; 4]; 4]>,
}

impl Replay {
    /// The device and everything a level creates, timed: (replay, creation time).
    fn new() -> (Self, Duration) {
        let mut dev = Device::new(DeviceParams {
            back_buffer: (SIZE, SIZE, Format::X8R8G8B8),
            auto_depth_stencil: Some(Format::D24S8),
            ..DeviceParams::default()
        })
        .expect("a GPU adapter");
        let sources: Vec<(String, String)> =
            (0..COMBINATIONS).map(|c| (vs_asm(c), ps_asm(c))).collect();
        let start = Instant::now();
        let layouts = LAYOUTS
            .iter()
            .map(|layout| {
                let elements: Vec<VertexElement> = layout
                    .elements
                    .iter()
                    .map(|&(offset, ty, usage, index)| {
                        VertexElement::new(0, offset, ty, usage, index)
                    })
                    .collect();
                let decl = dev
                    .create_vertex_declaration(&elements)
                    .expect("declaration");
                let vb = dev
                    .create_vertex_buffer_with(&vertex_bytes(layout))
                    .expect("vertex buffer");
                (decl, vb)
            })
            .collect();
        let ib = dev
            .create_index_buffer_u16(&CUBE_INDICES)
            .expect("index buffer");
        dev.set_indices(Some(ib)).expect("indices");
        let textures = (0..TEXTURES)
            .map(|k| {
                let t = dev
                    .create_texture(TEX_SIZE, TEX_SIZE, 1, Format::A8R8G8B8)
                    .expect("texture");
                dev.update_texture(t, 0, &texel_bytes(k)).expect("texels");
                t
            })
            .collect();
        let combinations = sources
            .iter()
            .enumerate()
            .map(|(c, (vs, ps))| {
                let vs = assemble_tokens(vs).unwrap_or_else(|e| panic!("{vs}: {e}"));
                let ps = assemble_tokens(ps).unwrap_or_else(|e| panic!("{ps}: {e}"));
                (
                    c % LAYOUTS.len(),
                    dev.create_vertex_shader(&vs).expect("vertex shader"),
                    dev.create_pixel_shader(&ps).expect("pixel shader"),
                )
            })
            .collect();
        dev.flush().expect("flush");
        let created = start.elapsed();
        dev.set_render_state(RenderState::SrcBlend(Blend::SrcAlpha))
            .expect("blend");
        dev.set_render_state(RenderState::DestBlend(Blend::InvSrcAlpha))
            .expect("blend");
        let replay = Replay {
            dev,
            layouts,
            combinations,
            textures,
            world: (0..DRAWS).map(world_registers).collect(),
        };
        replay.wait();
        (replay, created)
    }

    /// Combination `c`'s declaration, stream and shaders.
    fn bind(&mut self, c: usize) {
        let (layout, vs, ps) = self.combinations[c];
        let (decl, vb) = self.layouts[layout];
        let dev = &mut self.dev;
        dev.set_vertex_declaration(Some(decl)).expect("declaration");
        dev.set_stream_source(0, Some(vb), 0, LAYOUTS[layout].stride)
            .expect("stream");
        dev.set_vertex_shader(Some(vs)).expect("vs");
        dev.set_pixel_shader(Some(ps)).expect("ps");
    }

    fn draw(&mut self, world: usize) {
        self.dev
            .set_vertex_shader_constant_f(0, &self.world[world])
            .expect("constants");
        self.dev
            .draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 8, 0, 12)
            .expect("draw");
    }

    /// The load: each of the first `LOADED` combinations drawn once, and the flush.
    #[inline(never)]
    fn load(&mut self) {
        for c in 0..LOADED {
            self.bind(c);
            self.dev
                .set_texture(0, Some(self.textures[c % TEXTURES]))
                .expect("texture");
            self.draw(c * 7 % DRAWS);
        }
        self.dev.flush().expect("flush");
    }

    /// The frame's calls and the flush; draw `extra_draw(j)` uses combination `extras[j]`.
    #[inline(never)]
    fn frame(&mut self, extras: &[usize; NEW]) {
        let mut next_extra = 0;
        for i in 0..DRAWS {
            let k = i / 64;
            if i % 64 == 0 {
                self.bind(group_combination(k));
                let state = if k % 2 == 0 {
                    RenderState::AlphaBlendEnable((k / 2) % 2 == 1)
                } else if (k / 2) % 2 == 1 {
                    RenderState::ZFunc(CompareFunction::LessEqual)
                } else {
                    RenderState::ZFunc(CompareFunction::Always)
                };
                self.dev.set_render_state(state).expect("render state");
            }
            if i % 8 == 0 {
                self.dev
                    .set_texture(0, Some(self.textures[(i / 8) % TEXTURES]))
                    .expect("texture");
            }
            if extra_draw(next_extra) == Some(i) {
                self.bind(extras[next_extra]);
                self.draw(i);
                self.bind(group_combination(k));
                next_extra += 1;
            } else {
                self.draw(i);
            }
        }
        self.dev.flush().expect("flush");
    }

    fn wait(&self) {
        self.dev
            .gpu()
            .device()
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
    }

    /// `f` timed, then the GPU waited for: (time to `f`'s return, time to the wait's end).
    fn timed(&mut self, f: impl FnOnce(&mut Self)) -> (Duration, Duration) {
        let start = Instant::now();
        f(self);
        let elapsed = start.elapsed();
        self.wait();
        (elapsed, start.elapsed())
    }

    fn clear(&mut self) {
        let flags = ClearFlags {
            target: true,
            zbuffer: true,
            stencil: false,
        };
        self.dev
            .clear(&[], flags, CLEAR_COLOUR, 1.0, 0)
            .expect("clear");
    }

    /// The worst frame's draws on a cleared target, read back: (hash, pixels drawn).
    fn picture(&mut self) -> (u32, usize) {
        self.clear();
        self.frame(&new_extras());
        let data = self
            .dev
            .get_render_target_data(self.dev.back_buffer())
            .expect("readback");
        let pixels: Vec<u32> = (0..SIZE * SIZE)
            .map(|p| data.color(p % SIZE, p / SIZE).expect("pixel"))
            .collect();
        let drawn = pixels
            .iter()
            .filter(|p| *p & 0x00ff_ffff != CLEAR_COLOUR & 0x00ff_ffff)
            .count();
        (hash_pixels(pixels.into_iter()), drawn)
    }

    fn misses(&self) -> (u64, u64) {
        let (pairs, pipelines) = self.dev.cache_stats();
        (pairs.misses, pipelines.misses)
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// One replay; its figures as one line on stdout.
fn child(label: &str) {
    let (mut replay, created) = Replay::new();
    if std::env::var_os("STUTTER_VERBOSE").is_some() {
        let info = replay.dev.gpu().adapter_info().clone();
        eprintln!(
            "adapter: {} ({:?}, {:?}, {})",
            info.name, info.backend, info.device_type, info.driver_info
        );
    }
    let frames = env_u32("BENCH_FRAMES", 15).max(1) as usize;
    replay.clear();
    replay.wait();
    let (load, load_total) = replay.timed(Replay::load);
    let (load_pairs, load_pipelines) = replay.misses();
    let (first, first_total) = replay.timed(|r| r.frame(&steady_extras()));
    replay.timed(|r| r.frame(&steady_extras()));
    let (before_pairs, before_pipelines) = replay.misses();
    let (steady, steady_total): (Vec<f64>, Vec<f64>) = (0..frames)
        .map(|_| {
            let (cpu, total) = replay.timed(|r| r.frame(&steady_extras()));
            (ms(cpu), ms(total))
        })
        .unzip();
    let (steady_pairs, steady_pipelines) = replay.misses();
    assert_eq!(
        (steady_pairs, steady_pipelines),
        (before_pairs, before_pipelines),
        "steady frames build nothing"
    );
    let prebuilt_before = replay.dev.prebuild_stats().pipelines_used;
    let (worst, worst_total) = replay.timed(|r| r.frame(&new_extras()));
    let worst_prebuilt = replay.dev.prebuild_stats().pipelines_used - prebuilt_before;
    let (worst_pairs, worst_pipelines) = replay.misses();
    let (after, _) = replay.timed(|r| r.frame(&steady_extras()));
    let (hash, drawn) = replay.picture();
    assert!(
        drawn > (SIZE * SIZE / 4) as usize,
        "the frame draws ({drawn} pixels)"
    );
    let slowest = steady.iter().copied().fold(0.0, f64::max);
    let prebuilt = replay.dev.prebuild_stats();
    println!(
        "label={label} create_ms={:.3} load_ms={:.3} first_ms={:.3} steady_ms={:.3} \
         steady_max_ms={slowest:.3} worst_ms={:.3} after_ms={:.3} load_total_ms={:.3} \
         first_total_ms={:.3} steady_total_ms={:.3} worst_total_ms={:.3} \
         load_pair_misses={load_pairs} load_pipeline_misses={load_pipelines} \
         first_pipeline_misses={} \
         worst_pair_misses={} worst_pipeline_misses={} prebuilt_pairs={} \
         prebuilt_pipelines={} worst_prebuilt_pipelines={worst_prebuilt} hash={hash:08x} \
         drawn={drawn}",
        ms(created),
        ms(load),
        ms(first),
        median(steady),
        ms(worst),
        ms(after),
        ms(load_total),
        ms(first_total),
        median(steady_total),
        ms(worst_total),
        before_pipelines - load_pipelines,
        worst_pairs - steady_pairs,
        worst_pipelines - steady_pipelines,
        prebuilt.pairs_used,
        prebuilt.pipelines_used,
    );
}

/// A child's figures by key.
type Figures = BTreeMap<String, String>;

/// One replay in a child process: `cache` as `D3D9_CACHE_DIR`, `driver_cache` as Mesa's
/// shader cache folder.
fn run_child(label: &str, cache: &Path, driver_cache: &Path, verbose: bool) -> Figures {
    let exe = std::env::current_exe().expect("this bench's path");
    let mut cmd = Command::new(&exe);
    cmd.arg("--bench")
        .env("STUTTER_CHILD", label)
        .env("D3D9_CACHE_DIR", cache)
        .env("MESA_SHADER_CACHE_DIR", driver_cache)
        .env_remove("MESA_SHADER_CACHE_DISABLE")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if verbose {
        cmd.env("STUTTER_VERBOSE", "1");
    } else {
        cmd.env_remove("STUTTER_VERBOSE");
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", exe.display()));
    assert!(out.status.success(), "the {label} replay failed");
    let line = String::from_utf8(out.stdout).expect("utf-8");
    let line = line.lines().last().expect("a line of figures");
    line.split_whitespace()
        .map(|kv| {
            let (k, v) = kv.split_once('=').expect("key=value");
            (k.to_string(), v.to_string())
        })
        .collect()
}

fn get(figures: &Figures, key: &str) -> f64 {
    figures[key]
        .parse()
        .unwrap_or_else(|e| panic!("{key}: {e}"))
}

/// Files and bytes under `dir`.
fn folder_size(dir: &Path) -> (u64, u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (0, 0);
    };
    entries.flatten().fold((0, 0), |(files, bytes), entry| {
        let path = entry.path();
        match entry.metadata() {
            Ok(m) if m.is_dir() => {
                let (f, b) = folder_size(&path);
                (files + f, bytes + b)
            }
            Ok(m) => (files + 1, bytes + m.len()),
            Err(_) => (files, bytes),
        }
    })
}

/// The bench's folder of cache folders, deleted when dropped (a failed replay included).
struct TempFolder(PathBuf);

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn main() {
    if let Ok(label) = std::env::var("STUTTER_CHILD") {
        child(&label);
        return;
    }
    let rounds = env_u32("BENCH_ROUNDS", 3).max(1) as usize;
    let frames = env_u32("BENCH_FRAMES", 15).max(1);
    let base =
        TempFolder(std::env::temp_dir().join(format!("d3d9-stutter-{}", std::process::id())));
    // Per label (cold, warm, off): each round's figures.
    let mut runs: BTreeMap<&str, Vec<Figures>> = BTreeMap::new();
    // Per round, after the cold replay: (files, bytes) in the device's and in Mesa's folder.
    let mut cache_sizes = Vec::new();
    for round in 0..rounds {
        let dir = base.0.join(format!("round{round}"));
        let _ = std::fs::remove_dir_all(&dir);
        let (ours, mesa) = (dir.join("d3d9"), dir.join("mesa"));
        for folder in [&ours, &mesa] {
            std::fs::create_dir_all(folder).expect("cache folder");
        }
        let mut replay = |label: &'static str, cache: &Path| {
            let figures = run_child(label, cache, &mesa, round == 0 && label == "cold");
            runs.entry(label).or_default().push(figures);
        };
        replay("cold", &ours);
        cache_sizes.push((folder_size(&ours), folder_size(&mesa)));
        if round % 2 == 0 {
            replay("warm", &ours);
            replay("off", Path::new("off"));
        } else {
            replay("off", Path::new("off"));
            replay("warm", &ours);
        }
        std::fs::remove_dir_all(&dir).expect("cache folder removed");
        eprintln!("round {} of {rounds} done", round + 1);
    }
    drop(base);

    let hashes: Vec<&str> = runs
        .values()
        .flatten()
        .map(|f| f["hash"].as_str())
        .collect();
    assert!(
        hashes.iter().all(|h| *h == hashes[0]),
        "every replay draws the same picture: {hashes:?}"
    );
    let labels = ["cold", "warm", "off"];
    let column = |label: &str, key: &str| median(runs[label].iter().map(|f| get(f, key)).collect());
    let ratio = |label: &str, a: &str, b: &str| {
        median(runs[label].iter().map(|f| get(f, a) / get(f, b)).collect())
    };
    eprintln!(
        "stutter: {rounds} rounds, {COMBINATIONS} combinations; cold: D3D9_CACHE_DIR and \
         MESA_SHADER_CACHE_DIR empty; warm: both as cold left them; off: D3D9_CACHE_DIR=off, \
         Mesa's as cold left it. Medians over rounds, ms:"
    );
    eprintln!(
        "  picture: {} ({} of {} pixels drawn), the same in every replay",
        hashes[0],
        runs["cold"][0]["drawn"],
        SIZE * SIZE
    );
    eprintln!("  {:<50} {:>9} {:>9} {:>9}", "", "cold", "warm", "off");
    let rows = [
        ("create: 640 shaders, 4 declarations, buffers", "create_ms"),
        ("load: 300 combinations drawn once, flush", "load_ms"),
        ("first frame after the load", "first_ms"),
        ("steady frame (median of the frames)", "steady_ms"),
        ("steady frame, the slowest (noise)", "steady_max_ms"),
        ("worst frame: 20 new combinations in 2,000", "worst_ms"),
        ("steady frame after the worst", "after_ms"),
        ("load, to the end of the GPU wait", "load_total_ms"),
        ("first frame, to the end of the GPU wait", "first_total_ms"),
        (
            "steady frame, to the end of the GPU wait",
            "steady_total_ms",
        ),
        ("worst frame, to the end of the GPU wait", "worst_total_ms"),
        ("pairs built ahead and drawn (count)", "prebuilt_pairs"),
        (
            "pipelines built ahead and drawn (count)",
            "prebuilt_pipelines",
        ),
    ];
    for (name, key) in rows {
        eprint!("  {name:<50}");
        for label in labels {
            eprint!(" {:>9.2}", column(label, key));
        }
        eprintln!();
    }
    let ratio_rows = [
        ("worst / steady", "worst_ms", "steady_ms"),
        (
            "slowest steady / steady (noise floor)",
            "steady_max_ms",
            "steady_ms",
        ),
        ("first frame / steady", "first_ms", "steady_ms"),
        (
            "worst / steady, to the end of the GPU wait",
            "worst_total_ms",
            "steady_total_ms",
        ),
    ];
    for (name, a, b) in ratio_rows {
        eprint!("  {name:<50}");
        for label in labels {
            eprint!(" {:>9.2}", ratio(label, a, b));
        }
        eprintln!();
    }
    let per_round = |key: &str, a: &str, b: &str| {
        median(
            runs[a]
                .iter()
                .zip(&runs[b])
                .map(|(x, y)| get(x, key) / get(y, key))
                .collect(),
        )
    };
    let keys = ["load_ms", "load_total_ms", "worst_ms", "worst_total_ms"];
    eprintln!(
        "  {:<50} {:>9} {:>9} {:>9} {:>9}",
        "same round", "load", "+ wait", "worst", "+ wait"
    );
    for (a, b) in [("warm", "cold"), ("off", "cold")] {
        eprint!("  {:<50}", format!("{a} / {b}"));
        for key in keys {
            eprint!(" {:>9.2}", per_round(key, a, b));
        }
        eprintln!();
    }
    let warm_ratio = ratio("warm", "worst_ms", "steady_ms");
    eprintln!(
        "  target: warm worst / steady <= 1.20: {warm_ratio:.2}, {}",
        if warm_ratio <= 1.2 { "met" } else { "not met" }
    );
    let (ours, mesa) = cache_sizes[0];
    eprintln!(
        "  after the cold replay of round 1: the device's cache folder holds {} files, {} bytes{}; \
         Mesa's {} files, {} bytes",
        ours.0,
        ours.1,
        if ours.0 == 0 {
            " (nothing written: warm measures what cold does)"
        } else {
            ""
        },
        mesa.0,
        mesa.1
    );
    for label in labels {
        let f = &runs[label][0];
        eprintln!(
            "  {label} caches (round 1): load {} pairings / {} pipelines built; first frame {} \
             pipelines; worst frame {} pairings / {} pipelines",
            f["load_pair_misses"],
            f["load_pipeline_misses"],
            f["first_pipeline_misses"],
            f["worst_pair_misses"],
            f["worst_pipeline_misses"],
        );
    }
    eprintln!("  ({frames} steady frames per replay; BENCH_ROUNDS, BENCH_FRAMES set the counts)");
}
