//! Lifting D3D9 vertex shaders (vs_1_1 … vs_3_0) and pixel shaders (ps_1_1 … ps_3_0) into
//! validated naga modules and WGSL.
//!
//! [`translate_vertex_shader`] and [`translate_pixel_shader`] build a `naga::Module` with one
//! entry point named [`ENTRY_POINT`], validate it with naga's validator (a failure is a
//! translator bug and is returned as [`LiftError::Internal`], never handed out), and describe
//! in [`ShaderInterface`] which bindings and locations a caller must feed and read.
//!
//! Module layout: `builder` (the lifter, the function under construction, narrow values),
//! `values` (the verbs that build values: literals, lanes, operators, math, selects),
//! `constness` and `finite` (what is known of a value: constants, finiteness), `globals`
//! (register files as naga globals), `loads` (register reads), `operands` (source reads at
//! the written lanes), `writes` (destination and predicate writes), `numerics` (D3D9 float
//! rules), `arith` (per-opcode lowering), `flow` (flow control), `texture` (texld*, texkill),
//! `depth` (depth textures: shadow maps and raw depth), `ps1` (ps_1_x: texture addressing,
//! modifiers, ranges), `inputs` (vertex fetch conversions), `outputs` (vertex output
//! semantics and entry point), `pixel_entry` (pixel inputs, outputs and entry point),
//! `points` (point lists drawn as quads), `fog` and `alpha_test` (the fixed-function stages
//! after a pixel shader), `interface` (what callers bind), `link` (vertex outputs to pixel
//! inputs).

mod alpha_test;
mod arith;
mod builder;
mod constness;
mod depth;
mod error;
mod finite;
mod flow;
mod fog;
mod globals;
mod inputs;
pub mod interface;
pub mod link;
mod loads;
mod numerics;
mod operands;
mod outputs;
mod pixel_entry;
mod points;
mod ps1;
mod texture;
mod values;
mod writes;

pub use alpha_test::CompareFunction;
pub use depth::{DepthChannels, SamplerRead};
pub use error::{Feature, LiftError};
pub use fog::FogConstants;
pub use interface::ShaderInterface;
pub use link::{link, Link, LinkError, LinkOptions};
pub use outputs::ENTRY_POINT;
pub use points::{PointConstants, PointExpansion};

/// The error of [`translate_vertex_shader`] and [`translate_pixel_shader`].
pub type Error = LiftError;

use crate::bytecode::{Declaration, Literal, Opcode, Program, RegisterFile, Stage};
use crate::check::CheckedProgram;
use crate::decl::InputFetch;
use builder::{FnBuilder, Lifter, StageOptions};
use std::collections::HashMap;

pub use crate::rules::FloatMode;

pub use interface::{Varying, VaryingInterpolation};

/// Options of [`translate_vertex_shader`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VertexShaderOptions {
    /// How each `v#` is fetched, from the bound vertex declaration; `None`: every used input
    /// is a plain `vec4<f32>` at `@location(n)` for `v#n`.
    pub input_fetches: Option<Vec<InputFetch>>,
    /// Output locations from linking with a pixel shader; `None`: outputs are numbered in
    /// declaration (first-write) order. With a map, outputs it does not name are dropped and
    /// named outputs the shader never writes carry their defaults.
    pub output_locations: Option<Vec<Varying>>,
    pub float_mode: FloatMode,
    /// Add the position fix-up uniform (`position.xyz += fixup.xyz * position.w`), through
    /// which the backend applies D3D9's half-pixel offset (x, y) and depth bias (z).
    pub position_fixup: bool,
    /// Draw a point list's points as quads (see `points`): each instance of a 4-vertex
    /// strip is one point, the corner chosen by `@builtin(vertex_index)`; the point render
    /// states come from the uniform `interface.points`. `None`: no expansion.
    pub point_expansion: Option<PointExpansion>,
    /// D3D9's user clip planes (`SetClipPlane`, `D3DRS_CLIPPLANEENABLE`): write
    /// `@builtin(clip_distances)`, six distances `dot(plane[i], oPos)` of the shader's position
    /// (clip space, before the half-pixel fix-up and point expansion) from the uniform
    /// `interface.clip_planes`; a plane of zeros (a disabled one) clips nothing. Needs the
    /// device's `CLIP_DISTANCES` feature.
    pub clip_planes: bool,
}

/// How ps_1_x arithmetic is clamped: D3D9 keeps ps_1_x values within
/// `[-MaxPixelShaderValue, MaxPixelShaderValue]` (`D3DCAPS9.MaxPixelShaderValue`; 1 on the
/// ps_1_1–1_3 hardware of the time, 8 for ps_1_4 on most cards, FLT_MAX on recent drivers).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Ps1Range {
    /// Every ps_1_x register write is clamped to ±`MaxPixelShaderValue` = the D3D9 caps value
    /// of a typical ps_1_x part: ±1 for ps_1_1–1_3, ±8 for ps_1_4.
    #[default]
    Hardware,
    /// Clamp to ±this value (`MaxPixelShaderValue`).
    Max(f32),
    /// No clamp (what DXVK does: the value range of modern hardware).
    Unclamped,
}

/// `D3DFOGMODE`: how the fog factor is computed from the fog coordinate (vertex fog: the FOG
/// output; table fog: the pixel's depth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FogMode {
    /// `(end - d) / (end - start)`.
    Linear,
    /// `1 / e^(d · density)`.
    Exp,
    /// `1 / e^((d · density)²)`.
    Exp2,
}

/// Where the fog coordinate comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FogSource {
    /// Vertex fog (`D3DRS_FOGVERTEXMODE` or the shader's FOG output): the interpolated FOG
    /// value is the factor itself (what a vertex shader writes to `oFog`).
    Vertex,
    /// Table (pixel) fog (`D3DRS_FOGTABLEMODE`): the mode applied to the pixel's depth.
    Table(FogMode),
}

/// Fixed-function fog after a pixel shader (every version; ps_3_0 included, as Windows draws:
/// vkd3d's `fog.shader_test`, see `docs/decisions.md`): the colour
/// becomes `lerp(fog_colour, colour, f)` for the fog factor `f`, `D3DRS_FOG*` render states
/// read from a uniform at run time (see [`interface`]), so only the source and mode are here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FogOptions {
    pub source: FogSource,
    /// Table fog from the pixel's clip-space w instead of its depth: D3D9 takes the fog
    /// distance from w when `D3DTS_PROJECTION` is "W-friendly" (its last column is not
    /// (0, 0, 0, 1): a perspective projection), from z otherwise (wined3d's test). Ignored by
    /// vertex fog.
    pub from_w: bool,
}

/// Options of [`translate_pixel_shader`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PixelShaderOptions {
    /// Input locations from linking with a vertex shader; `None`: every input travels at its
    /// own location (see [`interface`]) as a `vec4<f32>`.
    pub input_locations: Option<Vec<Varying>>,
    pub float_mode: FloatMode,
    /// The ps_1_x value range.
    pub ps1_range: Ps1Range,
    /// Fixed-function fog after the shader (`None`: `D3DRS_FOGENABLE` off), in every version.
    /// Whether a ps_3_0 shader gets it is the caller's choice: Windows applies it (vkd3d's
    /// `fog.shader_test`), the SDK's text, DXVK and wined3d do not (`docs/decisions.md`).
    pub fog: Option<FogOptions>,
    /// ps_1_x: the type of the texture bound to each stage (index = stage = sampler), which
    /// D3D9 takes from the bound texture at draw time (ps_1_x has no `dcl s#`); stages past
    /// the end of the list are 2D. `Unknown` counts as 2D. Ignored from ps_2_0 on.
    pub ps1_texture_types: Vec<crate::bytecode::TextureType>,
    /// ps_1_1–1_3: each stage's `D3DTSS_TEXTURETRANSFORMFLAGS` (`D3DTTFF_COUNT1..4` = 1–4,
    /// `D3DTTFF_PROJECTED` = 256); stages past the end are 0. With `PROJECTED`, `tex` and
    /// `texbem`/`texbeml` divide the stage's coordinate by its `.y`, `.z` or `.w` (`COUNT2`,
    /// `COUNT3`, `COUNT4` or none), except on a cube map (see `ps1`).
    pub ps1_texture_transform_flags: Vec<u32>,
    /// The alpha test after the shader and fog (`None`: `D3DRS_ALPHATESTENABLE` off), on
    /// oC0's alpha (`r0` in ps_1_x) quantised to 8 bits, against `D3DRS_ALPHAREF` read from a
    /// uniform (see `lift/alpha_test.rs`); a failing pixel is discarded.
    pub alpha_test: Option<CompareFunction>,
    /// Render target 0 has a floating-point format: the alpha test compares the alpha as it
    /// is, `alpha FUNC ref / 255`, instead of quantising it to 8 bits (see
    /// `lift/alpha_test.rs`).
    pub alpha_test_float_target: bool,
    /// How each sampler (index = `s#` / ps_1_x stage) reads the texture bound to it: a depth
    /// texture raw or as a shadow map on a 2D sampler (see `depth`); samplers past the end
    /// read colour.
    pub sampler_reads: Vec<SamplerRead>,
    /// ps_1_x: write `r0` to the colour output as it is instead of saturated (D3D9's ps_1_x
    /// colour output is [0, 1]). For tests that observe the register range through a float
    /// target; a device never sets it.
    pub ps1_unsaturated_output: bool,
}

/// A translated shader: a validated module, its validation info and its interface.
#[derive(Debug, Clone)]
pub struct TranslatedShader {
    pub module: naga::Module,
    pub info: naga::valid::ModuleInfo,
    pub interface: ShaderInterface,
}

impl TranslatedShader {
    /// The module as WGSL. The text is written into a string sized from the module up front
    /// (growing it by reallocation cost about a tenth of the translation time).
    pub fn wgsl(&self) -> Result<String, LiftError> {
        let expressions: usize = self
            .module
            .functions
            .iter()
            .map(|(_, f)| f.expressions.len())
            .chain(
                self.module
                    .entry_points
                    .iter()
                    .map(|e| e.function.expressions.len()),
            )
            .sum();
        let estimate = 1024 + 48 * expressions + 96 * self.module.global_variables.len();
        let mut w = naga::back::wgsl::Writer::new(
            String::with_capacity(estimate),
            naga::back::wgsl::WriterFlags::empty(),
        );
        w.write(&self.module, &self.info)
            .map_err(|e| LiftError::Internal(format!("WGSL output: {e}")))?;
        let text = w.finish();
        // naga's WGSL writer does not print diagnostic filters: the one the lifter sets is a
        // directive before every declaration.
        if allows_nonuniform_derivatives(&self.module) {
            return Ok(format!("{NONUNIFORM_DERIVATIVES_DIRECTIVE}\n{text}"));
        }
        Ok(text)
    }
}

/// The WGSL directive of a module that takes derivatives in non-uniform control flow.
pub const NONUNIFORM_DERIVATIVES_DIRECTIVE: &str = "diagnostic(off, derivative_uniformity);";

/// Validate a module as every translated module is validated.
pub fn validate(module: &naga::Module) -> Result<naga::valid::ModuleInfo, LiftError> {
    validate_spanned(module, None)
}

/// naga's validation, with one validator per thread.
fn validate_raw(
    module: &naga::Module,
) -> Result<naga::valid::ModuleInfo, Box<naga::WithSpan<naga::valid::ValidationError>>> {
    thread_local! {
        // One validator per thread, reused: `validate` resets it, and building one allocates.
        static VALIDATOR: std::cell::RefCell<naga::valid::Validator> =
            std::cell::RefCell::new(naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                // Clip distances only where `VertexShaderOptions::clip_planes` asks for them.
                naga::valid::Capabilities::default() | naga::valid::Capabilities::CLIP_DISTANCES,
            ));
    }
    VALIDATOR.with(|v| v.borrow_mut().validate(module).map_err(Box::new))
}

/// Validate a module; a failure names the D3D9 instruction whose span it carries.
fn validate_spanned(
    module: &naga::Module,
    program: Option<&Program>,
) -> Result<naga::valid::ModuleInfo, LiftError> {
    validate_raw(module).map_err(|e| validation_error(&e, program))
}

/// A validation failure as a translator bug naming the D3D9 instruction its span carries.
fn validation_error(
    e: &naga::WithSpan<naga::valid::ValidationError>,
    program: Option<&Program>,
) -> LiftError {
    let at = program.and_then(|p| {
        e.spans().find_map(|(span, _)| {
            let start = span.to_range()?.start;
            p.instructions.iter().enumerate().find_map(|(i, inst)| {
                let r = builder::instruction_span(p, i).to_range()?;
                r.contains(&start).then(|| {
                    format!(
                        " at instruction {i} ({}) token {}",
                        inst.opcode, inst.offset
                    )
                })
            })
        })
    });
    LiftError::Internal(format!(
        "generated module fails validation{}: {:?}",
        at.unwrap_or_default(),
        e.as_inner()
    ))
}

/// Whether a pixel shader may take implicit derivatives in non-uniform control flow, which
/// WGSL's uniformity analysis refuses: it has an implicit-derivative operation (`texld`,
/// `texldp`, `texldb`, `dsx`, `dsy`) and a branch on a value that may vary per pixel
/// (`if p0`, `ifc`, `breakc`, `breakp`, `callnz p0`). Branches on `b#` and loop counts from
/// `i#` are uniform; `texkill` is WGSL's `discard`, which demotes to a helper invocation and
/// leaves uniformity alone. Conservative: the whole program counts, not only the code under
/// the branch.
fn needs_nonuniform_derivatives(program: &Program) -> bool {
    let derivative = program.instructions.iter().any(|i| {
        matches!(i.opcode, Opcode::Dsx | Opcode::Dsy)
            || (i.opcode == Opcode::Tex && program.version.major >= 2)
    });
    let varying_branch = program.instructions.iter().any(|i| match i.opcode {
        Opcode::Ifc | Opcode::Breakc | Opcode::Breakp => true,
        Opcode::If | Opcode::CallNz => i.src.iter().any(|s| s.reg.file == RegisterFile::Predicate),
        _ => false,
    });
    derivative && varying_branch
}

/// Whether the module turns `derivative_uniformity` off (see
/// [`allow_nonuniform_derivatives`]).
fn allows_nonuniform_derivatives(module: &naga::Module) -> bool {
    use naga::diagnostic_filter::{
        FilterableTriggeringRule, Severity, StandardFilterableTriggeringRule,
    };
    module.diagnostic_filters.iter().any(|(_, node)| {
        node.inner.new_severity == Severity::Off
            && node.inner.triggering_rule
                == FilterableTriggeringRule::Standard(
                    StandardFilterableTriggeringRule::DerivativeUniformity,
                )
    })
}

/// Turn WGSL's `derivative_uniformity` diagnostic off for the whole module
/// (`diagnostic(off, derivative_uniformity);`): D3D9 leaves gradients in divergent flow
/// control undefined, as WGSL does with the diagnostic off.
fn allow_nonuniform_derivatives(module: &mut naga::Module) {
    use naga::diagnostic_filter::{
        DiagnosticFilter, DiagnosticFilterNode, FilterableTriggeringRule, Severity,
        StandardFilterableTriggeringRule,
    };
    let node = module.diagnostic_filters.append(
        DiagnosticFilterNode {
            inner: DiagnosticFilter {
                new_severity: Severity::Off,
                triggering_rule: FilterableTriggeringRule::Standard(
                    StandardFilterableTriggeringRule::DerivativeUniformity,
                ),
            },
            parent: module.diagnostic_filter_leaf,
        },
        naga::Span::UNDEFINED,
    );
    module.diagnostic_filter_leaf = Some(node);
}

/// Translate a checked vertex shader into a validated naga module.
///
/// Software vertex processing (8192 `c#` in a read-only storage buffer, 2048 `i#`/`b#`)
/// follows the device the program was checked for: a software or mixed device, or a `_sw`
/// profile.
pub fn translate_vertex_shader(
    checked: &CheckedProgram,
    options: &VertexShaderOptions,
) -> Result<TranslatedShader, LiftError> {
    translate(checked, StageOptions::Vertex(options))
}

/// Translate a checked pixel shader (ps_2_0, ps_2_x, ps_3_0) into a validated naga module
/// with one fragment entry point named [`ENTRY_POINT`]. Bindings: `c#`/`i#`/`b#` in
/// [`interface::PS_CONSTANTS_GROUP`], textures and samplers in
/// [`interface::PS_TEXTURES_GROUP`]; inputs as `options.input_locations` places them.
///
/// ps_1_x shaders: `r0` is the colour output, `t#` the texture registers (sampler n = stage
/// n, of the type `options.ps1_texture_types` gives), the bump-environment uniform at
/// [`interface::BUMP_ENV_BINDING`]; see `ps1`. With `options.fog`, a ps_1_x or ps_2_x
/// shader's colour goes through the fixed-function fog stage (see `lift/fog.rs`).
pub fn translate_pixel_shader(
    checked: &CheckedProgram,
    options: &PixelShaderOptions,
) -> Result<TranslatedShader, LiftError> {
    translate(checked, StageOptions::Pixel(options))
}

/// The shared translation: prepass, subroutines, `main` (inline into the entry point when
/// it can be), the stage's entry point, validation.
fn translate(
    checked: &CheckedProgram,
    options: StageOptions<'_>,
) -> Result<TranslatedShader, LiftError> {
    let program = checked.program();
    let expected = match options {
        StageOptions::Vertex(_) => Stage::Vertex,
        StageOptions::Pixel(_) => Stage::Pixel,
    };
    if program.stage() != expected {
        return Err(LiftError::WrongStage {
            expected,
            version: program.version,
        });
    }
    let mut l = Lifter::new(program, options, checked.caps());
    if let StageOptions::Pixel(_) = options {
        if let Some(inst) = program.instructions.first() {
            l.set_at(0, inst);
        }
    }
    let segments = l.prepass()?;

    // Subroutines: callees first (naga requires a function to precede its callers).
    let order = l.call_order(&segments)?;
    let mut handles = Vec::new();
    for &label in &order {
        let h = l
            .module
            .functions
            .append(naga::Function::default(), naga::Span::UNDEFINED);
        l.labels.insert(label, h);
        handles.push((label, h));
    }
    for (label, h) in handles {
        let range = segments.labels.get(&label).cloned().unwrap_or(0..0);
        l.f = FnBuilder::new(&format!("l{label}"));
        l.lift_range(range)?;
        let function = l.finish_function();
        l.module.functions[h] = function;
    }
    // Without subroutines, `main` is lifted into the entry point itself: it reads the
    // converted inputs directly, and a `ret` (which D3D9 allows only as main's last
    // instruction) is the end of the entry point's body.
    let main = segments.main.clone();
    let ends_with_ret = main
        .clone()
        .last()
        .and_then(|i| program.instructions.get(i))
        .is_some_and(|i| i.opcode == Opcode::Ret);
    let body_end = if ends_with_ret {
        main.end - 1
    } else {
        main.end
    };
    let inline = order.is_empty()
        && !program.instructions[main.start..body_end]
            .iter()
            .any(|i| i.opcode == Opcode::Ret);
    let stage_interface = if inline {
        l.span = program_span(program);
        let plan = l.begin_stage_entry(true)?;
        l.lift_range(main.start..body_end)?;
        l.span = program_span(program);
        l.finish_stage_entry(plan, None)?
    } else {
        l.f = FnBuilder::new("d3d9_main");
        l.lift_range(main)?;
        let body = l.finish_function();
        let main_body = l.module.functions.append(body, l.span);
        // The entry point's glue (input copies, output assembly) belongs to the whole program.
        l.span = program_span(program);
        let plan = l.begin_stage_entry(false)?;
        l.finish_stage_entry(plan, Some(main_body))?
    };
    let interface = l.interface(stage_interface);
    if expected == Stage::Pixel && needs_nonuniform_derivatives(program) {
        allow_nonuniform_derivatives(&mut l.module);
    }
    let info = validate_spanned(&l.module, Some(program))?;
    Ok(TranslatedShader {
        module: l.module,
        info,
        interface,
    })
}

/// The entry point's plan, between opening it and closing it.
enum EntryPlan {
    Vertex(outputs::EntryPlan),
    Pixel(pixel_entry::PixelPlan),
}

/// The byte span of a whole program's instructions.
fn program_span(program: &Program) -> naga::Span {
    let end = program
        .instructions
        .last()
        .map_or(4, |i| i.offset.0.saturating_add(1).saturating_mul(4));
    naga::Span::new(0, end)
}

/// The calls in a range of instructions: (instruction index, label).
type CallsIn<'a> = dyn Fn(&std::ops::Range<usize>) -> Vec<(usize, u32)> + 'a;

/// Instruction ranges of `main` and of each `label`.
struct Segments {
    main: std::ops::Range<usize>,
    labels: HashMap<u32, std::ops::Range<usize>>,
}

impl Lifter<'_> {
    /// Collect `def`s, sampler declarations and subroutine ranges (the checker has made sure
    /// they are well formed).
    fn prepass(&mut self) -> Result<Segments, LiftError> {
        let program = self.program;
        let mut labels: HashMap<u32, std::ops::Range<usize>> = HashMap::new();
        let mut current: Option<(u32, usize)> = None;
        let mut main_end = program.instructions.len();
        for (i, inst) in program.instructions.iter().enumerate() {
            self.set_at(i, inst);
            match inst.opcode {
                Opcode::Def | Opcode::Defi | Opcode::Defb => {
                    let dst = self.dst(inst)?;
                    let n = dst.reg.index;
                    match (dst.reg.float_constant_index(), dst.reg.file, inst.literal) {
                        // c# of every bank (c2048+ are CONST2–CONST4), by flat index.
                        (Some(flat), _, Some(Literal::Float(v))) => {
                            self.defs.floats.insert(flat, v);
                        }
                        (None, RegisterFile::ConstInt, Some(Literal::Int(v))) => {
                            self.defs.ints.insert(n, v);
                        }
                        (None, RegisterFile::ConstBool, Some(Literal::Bool(v))) => {
                            self.defs.bools.insert(n, v != 0);
                        }
                        _ => return Err(self.internal("def of the wrong register or value")),
                    }
                }
                Opcode::Dcl => {
                    if let (Some(dst), Some(Declaration::Sampler(tt))) = (inst.dst, inst.decl) {
                        if dst.reg.file == RegisterFile::Sampler {
                            self.samplers.insert(dst.reg.index, tt);
                        }
                    }
                }
                Opcode::Label => {
                    let s = self.src_param(inst, 0)?;
                    if let Some((l, start)) = current.take() {
                        labels.insert(l, start..i);
                    } else {
                        main_end = i;
                    }
                    current = Some((s.reg.index, i + 1));
                }
                _ => {}
            }
        }
        if let Some((l, start)) = current {
            labels.insert(l, start..program.instructions.len());
        }
        Ok(Segments {
            main: 0..main_end,
            labels,
        })
    }

    /// Labels in an order where every callee precedes its callers (the checker refuses
    /// recursion; meeting it here is a translator bug, not a hang).
    fn call_order(&mut self, segments: &Segments) -> Result<Vec<u32>, LiftError> {
        let program = self.program;
        let calls_in = |range: &std::ops::Range<usize>| -> Vec<(usize, u32)> {
            program.instructions[range.clone()]
                .iter()
                .enumerate()
                .filter(|(_, i)| matches!(i.opcode, Opcode::Call | Opcode::CallNz))
                .filter_map(|(k, i)| {
                    i.src
                        .first()
                        .filter(|s| s.reg.file == RegisterFile::Label)
                        .map(|s| (range.start + k, s.reg.index))
                })
                .collect()
        };
        let mut labels: Vec<u32> = segments.labels.keys().copied().collect();
        labels.sort_unstable();
        let mut order = Vec::new();
        // 0 = unvisited, 1 = on the stack, 2 = done.
        let mut state: HashMap<u32, u8> = HashMap::new();
        fn visit(
            l: &mut Lifter<'_>,
            label: u32,
            segments: &Segments,
            calls_in: &CallsIn<'_>,
            state: &mut HashMap<u32, u8>,
            order: &mut Vec<u32>,
        ) -> Result<(), LiftError> {
            match state.get(&label) {
                Some(2) => return Ok(()),
                Some(1) => return Err(l.internal(format!("recursive call of l{label}"))),
                _ => {}
            }
            state.insert(label, 1);
            let range = segments.labels.get(&label).cloned().unwrap_or(0..0);
            for (i, callee) in calls_in(&range) {
                if let Some(inst) = l.program.instructions.get(i) {
                    l.set_at(i, inst);
                }
                if !segments.labels.contains_key(&callee) {
                    return Err(l.internal(format!("call to undefined label l{callee}")));
                }
                visit(l, callee, segments, calls_in, state, order)?;
            }
            state.insert(label, 2);
            order.push(label);
            Ok(())
        }
        for label in labels {
            visit(self, label, segments, &calls_in, &mut state, &mut order)?;
        }
        Ok(order)
    }

    /// Lift the instructions in `range` into the current function.
    fn lift_range(&mut self, range: std::ops::Range<usize>) -> Result<(), LiftError> {
        let program = self.program;
        for i in range.clone() {
            let Some(inst) = program.instructions.get(i) else {
                break;
            };
            self.set_at(i, inst);
            // Co-issue (`+`, ps_1_x): the pair's writes wait until both have read.
            let next_coissued = program
                .instructions
                .get(i + 1)
                .is_some_and(|n| n.coissue && i + 1 < range.end);
            if next_coissued && self.deferred.is_none() {
                self.deferred = Some(Vec::new());
            }
            self.instruction(inst)?;
            if !next_coissued {
                self.flush_deferred_writes()?;
            }
        }
        if self.f.frames.len() != 1 {
            return Err(self.internal("if, loop or rep left open at the end of the function"));
        }
        Ok(())
    }

    /// Open the stage's entry point (see `outputs::begin_entry`, `pixel_entry`).
    fn begin_stage_entry(&mut self, inline: bool) -> Result<EntryPlan, LiftError> {
        Ok(match self.options {
            StageOptions::Vertex(_) => EntryPlan::Vertex(self.begin_entry(inline)?),
            StageOptions::Pixel(_) => EntryPlan::Pixel(self.begin_pixel_entry(inline)?),
        })
    }

    /// Close the stage's entry point; returns the stage's part of the interface.
    fn finish_stage_entry(
        &mut self,
        plan: EntryPlan,
        main_body: Option<naga::Handle<naga::Function>>,
    ) -> Result<ShaderInterface, LiftError> {
        Ok(match plan {
            EntryPlan::Vertex(plan) => {
                let entry = self.finish_entry(plan, main_body)?;
                ShaderInterface {
                    inputs: entry.inputs,
                    outputs: entry.outputs,
                    position_fixup: entry.position_fixup,
                    writes_point_size: entry.writes_point_size,
                    points: entry.points,
                    clip_planes: entry.clip_planes,
                    ..ShaderInterface::default()
                }
            }
            EntryPlan::Pixel(plan) => self.finish_pixel_entry(plan, main_body)?,
        })
    }

    /// The whole interface, built once: the entry point's part (inputs and outputs), and the
    /// bindings, samplers and constants the shader uses.
    fn interface(&self, stage: ShaderInterface) -> ShaderInterface {
        use globals::RegKey;
        use interface::*;
        let mut interface = stage;
        let group = self.constants_group();
        let textures_group = match self.program.version.stage {
            Stage::Vertex => VS_TEXTURES_GROUP,
            Stage::Pixel => PS_TEXTURES_GROUP,
        };
        if self.globals.contains_key(&RegKey::FloatConsts) {
            interface.float_constants = Some(FloatConstants {
                group,
                binding: FLOAT_CONSTANTS_BINDING,
                registers: self.float_registers,
                storage: self.software,
            });
        }
        if self.globals.contains_key(&RegKey::IntConsts) {
            interface.int_constants = Some(UniformBinding {
                group,
                binding: INT_CONSTANTS_BINDING,
            });
        }
        if self.globals.contains_key(&RegKey::BoolConsts) {
            interface.bool_constants = Some(UniformBinding {
                group,
                binding: BOOL_CONSTANTS_BINDING,
            });
        }
        for (&n, &tt) in &self.samplers {
            if self.globals.contains_key(&RegKey::Texture(n)) {
                let dim = match tt {
                    crate::bytecode::TextureType::TwoD => naga::ImageDimension::D2,
                    _ => naga::ImageDimension::D3,
                };
                interface.samplers.push(SamplerBinding {
                    register: n,
                    texture_type: tt,
                    read: self.sampler_read(n, dim),
                    group: textures_group,
                    texture_binding: texture_binding(n),
                    sampler_binding: sampler_binding(n),
                });
            }
        }
        if self.globals.contains_key(&RegKey::BumpEnv) {
            interface.bump_env = Some(UniformBinding {
                group,
                binding: BUMP_ENV_BINDING,
            });
        }
        interface.defined_floats = self
            .defs
            .floats
            .iter()
            .map(|(&n, v)| (n, v.map(f32::from_bits)))
            .collect();
        interface.defined_ints = self.defs.ints.iter().map(|(&n, &v)| (n, v)).collect();
        interface.defined_bools = self.defs.bools.iter().map(|(&n, &v)| (n, v)).collect();
        let mut rel = self.relative_reads.clone();
        rel.sort_unstable();
        rel.dedup();
        interface.relative_constant_reads = rel;
        interface
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::{Instruction, TokenOffset, Version};
    use naga::{Expression, Literal as L, Span, Statement};

    /// A module whose one function adds an `f32` to an `i32` (invalid), the expression
    /// carrying the span of instruction 1 of `program`.
    fn invalid_module(program: &Program) -> naga::Module {
        let mut module = naga::Module::default();
        let mut f = naga::Function::default();
        let span = builder::instruction_span(program, 1);
        let a = f.expressions.append(Expression::Literal(L::F32(1.0)), span);
        let b = f.expressions.append(Expression::Literal(L::I32(1)), span);
        let sum = f.expressions.append(
            Expression::Binary {
                op: naga::BinaryOperator::Add,
                left: a,
                right: b,
            },
            span,
        );
        f.body.push(
            Statement::Emit(naga::Range::new_from_bounds(sum, sum)),
            span,
        );
        module.functions.append(f, Span::UNDEFINED);
        module
    }

    #[test]
    fn validation_failures_name_the_d3d9_instruction() {
        let mut program = Program::new(Version::new(Stage::Vertex, 2, 0));
        for (i, op) in [Opcode::Mov, Opcode::Mad, Opcode::Add]
            .into_iter()
            .enumerate()
        {
            let mut inst = Instruction::new(op);
            inst.offset = TokenOffset(1 + 4 * i as u32);
            program.instructions.push(inst);
        }
        let module = invalid_module(&program);
        let err = validate_spanned(&module, Some(&program)).expect_err("invalid module");
        let text = err.to_string();
        assert!(text.contains("at instruction 1 (mad) token 5"), "{text}");
        // Without the program the error still says it is a translator bug.
        let plain = validate(&module).expect_err("invalid module").to_string();
        assert!(plain.contains("internal error"), "{plain}");
        assert!(!plain.contains("at instruction"), "{plain}");
    }

    #[test]
    fn instruction_spans_run_to_the_next_instruction() {
        let mut program = Program::new(Version::new(Stage::Vertex, 2, 0));
        for off in [1u32, 4, 9] {
            let mut inst = Instruction::new(Opcode::Nop);
            inst.offset = TokenOffset(off);
            program.instructions.push(inst);
        }
        let r = |i| builder::instruction_span(&program, i).to_range();
        assert_eq!(r(0), Some(4..16));
        assert_eq!(r(1), Some(16..36));
        assert_eq!(r(2), Some(36..40));
        assert_eq!(r(3), None);
    }
}
