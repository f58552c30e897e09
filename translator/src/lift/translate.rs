//! The translation of one stage: the prepass (`def`s, sampler declarations, subroutine
//! ranges), subroutines in call order, `main` (inline in the entry point when it can be), the
//! stage's entry point, the interface, validation.

use super::builder::{FnBuilder, Lifter, StageOptions};
use super::error::LiftError;
use super::interface::ShaderInterface;
use super::options::{PixelShaderOptions, VertexShaderOptions};
use super::validate::{
    allow_nonuniform_derivatives, needs_nonuniform_derivatives, validate_spanned, TranslatedShader,
};
use super::{outputs, pixel_entry};
use crate::bytecode::{Declaration, Literal, Opcode, Program, RegisterFile, Stage};
use crate::check::CheckedProgram;
use std::collections::HashMap;

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
/// with one fragment entry point named [`super::ENTRY_POINT`]. Bindings: `c#`/`i#`/`b#` in
/// [`super::interface::PS_CONSTANTS_GROUP`], textures and samplers in
/// [`super::interface::PS_TEXTURES_GROUP`]; inputs as `options.input_locations` places them.
///
/// ps_1_x shaders: `r0` is the colour output, `t#` the texture registers (sampler n = stage
/// n, of the type `options.texture_types` gives), the bump-environment uniform at
/// [`super::interface::BUMP_ENV_BINDING`]; see `ps1`. With `options.fog`, a ps_1_x or ps_2_x
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
                            self.registers.defs.floats.insert(flat, v);
                        }
                        (None, RegisterFile::ConstInt, Some(Literal::Int(v))) => {
                            self.registers.defs.ints.insert(n, v);
                        }
                        (None, RegisterFile::ConstBool, Some(Literal::Bool(v))) => {
                            self.registers.defs.bools.insert(n, v != 0);
                        }
                        _ => return Err(self.internal("def of the wrong register or value")),
                    }
                }
                Opcode::Dcl => {
                    if let (Some(dst), Some(Declaration::Sampler(tt))) = (inst.dst, inst.decl) {
                        if dst.reg.file == RegisterFile::Sampler {
                            self.resources.samplers.insert(dst.reg.index, tt);
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
            if next_coissued && self.ps1.deferred.is_none() {
                self.ps1.deferred = Some(Vec::new());
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
        use super::interface::*;
        use super::state::RegKey;
        let mut interface = stage;
        let group = self.constants_group();
        let textures_group = match self.program.version.stage {
            Stage::Vertex => VS_TEXTURES_GROUP,
            Stage::Pixel => PS_TEXTURES_GROUP,
        };
        if self.resources.globals.contains_key(&RegKey::FloatConsts) {
            interface.float_constants = Some(FloatConstants {
                group,
                binding: FLOAT_CONSTANTS_BINDING,
                registers: self.registers.float_registers,
                storage: self.registers.software,
                window: self.constants_window(),
            });
        }
        if self.resources.globals.contains_key(&RegKey::IntConsts) {
            interface.int_constants = Some(UniformBinding {
                group,
                binding: INT_CONSTANTS_BINDING,
            });
        }
        if self.resources.globals.contains_key(&RegKey::BoolConsts) {
            interface.bool_constants = Some(UniformBinding {
                group,
                binding: BOOL_CONSTANTS_BINDING,
            });
        }
        for (&n, &declared) in &self.resources.samplers {
            let tt = self.sampled_type(n, declared);
            if self.resources.globals.contains_key(&RegKey::Texture(n)) {
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
        if self.resources.globals.contains_key(&RegKey::BumpEnv) {
            interface.bump_env = Some(UniformBinding {
                group,
                binding: BUMP_ENV_BINDING,
            });
        }
        interface.defined_floats = self
            .registers
            .defs
            .floats
            .iter()
            .map(|(&n, v)| (n, v.map(f32::from_bits)))
            .collect();
        interface.defined_ints = self
            .registers
            .defs
            .ints
            .iter()
            .map(|(&n, &v)| (n, v))
            .collect();
        interface.defined_bools = self
            .registers
            .defs
            .bools
            .iter()
            .map(|(&n, &v)| (n, v))
            .collect();
        interface.float_constants_read =
            (!self.registers.float_read_relative).then_some(self.registers.float_read_end);
        let mut rel = self.registers.relative_reads.clone();
        rel.sort_unstable();
        rel.dedup();
        interface.relative_constant_reads = rel;
        interface.loop_constants = self.loop_constants();
        interface
    }
}

#[cfg(test)]
mod tests {
    use super::program_span;
    use crate::bytecode::{Instruction, Opcode, Program, Stage, TokenOffset, Version};

    /// The whole program's span runs from the version token to the end of the last
    /// instruction's first token (one token for an empty program).
    #[test]
    fn the_program_span_covers_every_instruction() {
        let mut program = Program::new(Version::new(Stage::Vertex, 2, 0));
        assert_eq!(program_span(&program), naga::Span::new(0, 4));
        for off in [1u32, 4, 9] {
            let mut inst = Instruction::new(Opcode::Nop);
            inst.offset = TokenOffset(off);
            program.instructions.push(inst);
        }
        assert_eq!(program_span(&program), naga::Span::new(0, 40));
    }
}
