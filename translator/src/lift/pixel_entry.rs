//! The fragment entry point of a pixel shader: inter-stage inputs (ps_3_0 `dcl_<usage> v#`,
//! ps_2_x `dcl v#` colours and `dcl t#` texture coordinates) assembled into their registers
//! from the link's [`Varying`]s, `vPos` and `vFace` from builtins, and the colour (`oC#`) and
//! depth (`oDepth`) outputs.
//!
//! Rules (see `docs/decisions.md`):
//! - The j-th component of an input's declared mask reads component `component + j` of the
//!   inter-stage variable at its varying's location; components past the varying's
//!   `components`, and inputs nothing supplies, read the semantic's default
//!   ([`crate::signature::Semantic::unwritten_value`]); components no declaration names
//!   read 0.
//! - `vPos` is `(frag_coord.x - 0.5, frag_coord.y - 0.5, frag_coord.z, frag_coord.w)`: D3D9
//!   pixel centres are integers (Wine's `pixel_center_integer` `gl_FragCoord`).
//! - `vFace` is 1 for front faces and -1 for back faces.
//! - ps_1_x: `v#` arrive clamped to [0, 1]; `r0` is `oC0`, written saturated; `t#` coordinates are kept for
//!   the texture instructions (`ps1`), and ps_1_1–1_3 `t#` are registers they write.
//! - `oC0` is always an output (0 when never written); `oC1`–`oC3` when written. `oDepth`'s
//!   `.x` is `frag_depth` (which WebGPU clamps to the viewport's depth range).
//! - oC0 (`r0` in ps_1_x) goes through fixed-function fog (`fog`), then the alpha test
//!   (`alpha_test`), before it is returned.

use super::builder::{FnBuilder, Lifter, Value};
use super::error::LiftError;
use super::interface::{
    PixelInput, ShaderInterface, Varying, VaryingInterpolation, MAX_INTER_STAGE_VARIABLES,
};
use super::link_interface::{pixel_inputs, reads_register};
use super::outputs::ENTRY_POINT;
use crate::bytecode::{Opcode, RegisterFile};
use naga::{
    BinaryOperator as Bo, Binding, BuiltIn, DerivativeAxis, DerivativeControl, Expression,
    Function, FunctionArgument, Handle, ShaderStage, Statement, StructMember,
};
use std::collections::{BTreeMap, BTreeSet};

/// Colour outputs oC0–oC3.
const COLOR_OUTPUTS: u32 = 4;

/// One inter-stage variable the entry point receives.
#[derive(Debug, Clone, Copy)]
struct LocationArg {
    /// Components (1 = `f32`).
    n: u8,
    interpolation: VaryingInterpolation,
}

/// The pixel entry point's plan, between opening it and closing it.
pub(super) struct PixelPlan {
    inputs: Vec<PixelInput>,
    fog: Option<super::fog::FogPlan>,
    color_outputs: Vec<u32>,
    writes_depth: bool,
    reads_position: bool,
    reads_face: bool,
}

impl Lifter<'_> {
    /// The pixel inputs in register order, each with the varying it arrives in.
    fn plan_pixel_inputs(&self) -> Result<Vec<PixelInput>, LiftError> {
        let map = self
            .pixel_options()
            .and_then(|o| o.input_locations.as_ref());
        if let Some(map) = map {
            for v in map {
                if !(1..=4).contains(&v.components) || v.component + v.components > 4 {
                    return Err(LiftError::Options(format!(
                        "input {} occupies components {}..{}",
                        v.semantic,
                        v.component,
                        u32::from(v.component) + u32::from(v.components)
                    )));
                }
            }
        }
        let mut inputs = Vec::new();
        for p in pixel_inputs(self.program, &self.io.signature) {
            let e = p.element;
            let varying = match map {
                Some(map) => map.iter().find(|v| v.semantic == e.semantic).copied(),
                None => Some(Varying {
                    interpolation: if p.centroid {
                        VaryingInterpolation::Centroid
                    } else {
                        VaryingInterpolation::Perspective
                    },
                    ..Varying::new(e.semantic, p.order, 4)
                }),
            };
            inputs.push(PixelInput {
                register: e.register,
                semantic: e.semantic,
                mask: e.mask,
                centroid: p.centroid,
                varying,
            });
        }
        // Unlinked past WebGPU's 16: packed at their declared widths, as a link packs them.
        if map.is_none() && inputs.len() > MAX_INTER_STAGE_VARIABLES {
            let mut varyings: Vec<Varying> = inputs
                .iter()
                .filter_map(|p| p.varying)
                .zip(&inputs)
                .map(|(v, p)| Varying {
                    components: p.mask.count().clamp(1, 4) as u8,
                    ..v
                })
                .collect();
            super::link::pack(&mut varyings, MAX_INTER_STAGE_VARIABLES).map_err(|_| {
                LiftError::TooManyOutputs {
                    count: inputs.len(),
                    limit: MAX_INTER_STAGE_VARIABLES,
                }
            })?;
            for (p, v) in inputs.iter_mut().zip(varyings) {
                p.varying = Some(v);
            }
        }
        Ok(inputs)
    }

    /// The inter-stage variables the inputs need, by location: width and interpolation from
    /// every varying of the map at that location (so both stages agree).
    fn pixel_locations(
        &self,
        inputs: &[PixelInput],
    ) -> Result<BTreeMap<u32, LocationArg>, LiftError> {
        let map = self
            .pixel_options()
            .and_then(|o| o.input_locations.as_ref());
        let mut locations = BTreeMap::new();
        // The inputs' varyings, and FOG for the fixed-function fog stage.
        let fog = self.fog_varying().map(|(v, _)| v);
        for v in inputs.iter().filter_map(|p| p.varying).chain(fog) {
            let at_location: Vec<Varying> = match map {
                Some(map) => map
                    .iter()
                    .filter(|m| m.location == v.location)
                    .copied()
                    .collect(),
                None => vec![v],
            };
            if at_location
                .iter()
                .any(|m| m.interpolation != v.interpolation)
            {
                return Err(LiftError::Options(format!(
                    "location {} is given two interpolations",
                    v.location
                )));
            }
            let n = at_location
                .iter()
                .map(|m| m.component + m.components)
                .max()
                .unwrap_or(4)
                .clamp(1, 4);
            locations.insert(
                v.location,
                LocationArg {
                    n,
                    interpolation: v.interpolation,
                },
            );
        }
        // The twins of the wrapped locations the inputs read, as wide as their locations.
        for t in self.pixel_options().map_or(&[][..], |o| &o.wrap_twins[..]) {
            let Some(&arg) = locations.get(&t.location) else {
                continue;
            };
            if locations.contains_key(&t.twin) || t.twin as usize >= MAX_INTER_STAGE_VARIABLES {
                return Err(LiftError::Options(format!(
                    "the twin {} of wrapped location {} is not free",
                    t.twin, t.location
                )));
            }
            locations.insert(t.twin, arg);
        }
        if locations.len() > MAX_INTER_STAGE_VARIABLES {
            return Err(LiftError::TooManyOutputs {
                count: locations.len(),
                limit: MAX_INTER_STAGE_VARIABLES,
            });
        }
        Ok(locations)
    }

    /// Open the fragment entry point: its arguments, and the input registers built from them.
    /// With `inline`, `main` is lifted into the entry point and reads the values directly;
    /// otherwise they are stored into the registers for `main` and the subroutines.
    pub(super) fn begin_pixel_entry(&mut self, inline: bool) -> Result<PixelPlan, LiftError> {
        let inputs = self.plan_pixel_inputs()?;
        let locations = self.pixel_locations(&inputs)?;
        let program = self.program;
        let reads_position = reads_register(program, RegisterFile::MiscType, 0);
        let reads_face = reads_register(program, RegisterFile::MiscType, 1);
        let color_outputs = color_outputs(program);
        let writes_depth = writes_depth(program);

        self.f = FnBuilder::new(ENTRY_POINT);
        let direct = inline && !self.registers.relative_inputs;
        let mut args = self.location_arguments(&locations);
        self.unwrap_arguments(&mut args);
        let registers: BTreeSet<(RegisterFile, u32)> = inputs
            .iter()
            .map(|p| (p.register.file, p.register.index))
            .collect();
        for (file, index) in registers {
            let value = self.input_register_value(&inputs, &args, file, index)?;
            self.set_input_register(file, index, value, direct);
        }
        let frag_coord = self.frag_coord(reads_position, direct);
        let fog_arg = self
            .fog_varying()
            .and_then(|(v, _)| args.get(&v.location).copied());
        let fog = self.plan_fog(fog_arg, frag_coord)?;
        if reads_face {
            self.face_register(direct);
        }
        Ok(PixelPlan {
            inputs,
            fog,
            color_outputs,
            writes_depth,
            reads_position,
            reads_face,
        })
    }

    /// One argument per location: its value and components.
    fn location_arguments(
        &mut self,
        locations: &BTreeMap<u32, LocationArg>,
    ) -> BTreeMap<u32, (Handle<Expression>, u8)> {
        let mut args = BTreeMap::new();
        for (&location, arg) in locations {
            let ty = self.value_type(0, arg.n);
            let (interpolation, sampling) = arg.interpolation.naga();
            let index = self.f.function.arguments.len() as u32;
            self.f.function.arguments.push(FunctionArgument {
                name: Some(format!("location{location}")),
                ty,
                binding: Some(Binding::Location {
                    location,
                    interpolation: Some(interpolation),
                    sampling,
                    blend_src: None,
                    per_primitive: false,
                }),
            });
            let h = self.emit(Expression::FunctionArgument(index));
            args.insert(location, (h, arg.n));
        }
        args
    }

    /// Each wrapped location's argument replaced by its shortest-way value from the
    /// location and its twin (see `wrap`).
    fn unwrap_arguments(&mut self, args: &mut BTreeMap<u32, (Handle<Expression>, u8)>) {
        for t in self.pixel_options().map_or(&[][..], |o| &o.wrap_twins[..]) {
            let (Some(&(h, n)), Some(&(twin, _))) = (args.get(&t.location), args.get(&t.twin))
            else {
                continue;
            };
            let original = Value { h, n };
            let twin = Value { h: twin, n };
            let value = self.unwrap_location(original, twin, t.components);
            args.insert(t.location, (value.h, n));
        }
    }

    /// A wrapped location's value in the pixel stage: per wrapped component (`components`),
    /// the twin where it changes less across the pixel than the original, else the original.
    pub(super) fn unwrap_location(
        &mut self,
        original: Value,
        twin: Value,
        components: u8,
    ) -> Value {
        let change = |l: &mut Self, v: Value| Value {
            h: l.emit(Expression::Derivative {
                axis: DerivativeAxis::Width,
                ctrl: DerivativeControl::None,
                expr: v.h,
            }),
            n: v.n,
        };
        let (d_original, d_twin) = (change(self, original), change(self, twin));
        let smaller = self.bin_v(Bo::Less, d_twin, d_original);
        let wrapped: Vec<bool> = (0..original.n)
            .map(|c| components & (1 << c) != 0)
            .collect();
        let condition = if wrapped.iter().all(|&w| w) {
            smaller
        } else {
            let mask = self.const_bools(&wrapped);
            self.bin_v(Bo::And, smaller, mask)
        };
        self.select_v(condition, twin, original)
    }

    /// An input register's value from the components of its declarations: the argument
    /// itself where a whole vec4 arrives unchanged; each declared component from its
    /// varying, else the semantic's unwritten value; 0 in undeclared components.
    fn input_register_value(
        &mut self,
        inputs: &[PixelInput],
        args: &BTreeMap<u32, (Handle<Expression>, u8)>,
        file: RegisterFile,
        index: u32,
    ) -> Result<Handle<Expression>, LiftError> {
        let mut parts: [Option<Handle<Expression>>; 4] = [None; 4];
        let whole = inputs
            .iter()
            .filter(|p| p.register.file == file && p.register.index == index)
            .find_map(|p| {
                let v = p.varying?;
                let (h, n) = *args.get(&v.location)?;
                (p.mask == crate::bytecode::WriteMask::ALL
                    && v.component == 0
                    && v.components == 4
                    && n == 4)
                    .then_some(h)
            });
        if let Some(h) = whole {
            return Ok(h);
        }
        for p in inputs
            .iter()
            .filter(|p| p.register.file == file && p.register.index == index)
        {
            let default = p.semantic.unwritten_value();
            let mut j = 0u8;
            for c in 0..4u8 {
                if !p.mask.contains(usize::from(c)) {
                    continue;
                }
                let arrived = p
                    .varying
                    .filter(|v| j < v.components)
                    .and_then(|v| args.get(&v.location).map(|&(h, n)| (h, n, v.component + j)));
                let value = match arrived {
                    Some((h, 1, _)) => h,
                    Some((h, _, k)) => self.comp(h, u32::from(k)),
                    None => self.lit_f32(default[usize::from(j.min(3))]),
                };
                parts[usize::from(c)] = Some(value);
                j += 1;
            }
        }
        let mut components = [None; 4];
        for (slot, part) in components.iter_mut().zip(parts) {
            *slot = Some(match part {
                Some(h) => h,
                None => self.lit_f32(0.0),
            });
        }
        let [Some(x), Some(y), Some(z), Some(w)] = components else {
            return Err(self.internal("input register without four components"));
        };
        Ok(self.compose4([x, y, z, w]))
    }

    /// The position builtin, for vPos (`reads_position`) and for table fog's depth; vPos
    /// from it: D3D9 pixel centres are integers, `(x - 0.5, y - 0.5, z, w)`.
    fn frag_coord(&mut self, reads_position: bool, direct: bool) -> Option<Handle<Expression>> {
        let table_fog = matches!(self.fog_source(), Some(super::options::FogSource::Table(_)));
        let frag_coord = (reads_position || table_fog).then(|| {
            let index = self.f.function.arguments.len() as u32;
            let ty = self.ty.vec4f;
            self.f.function.arguments.push(FunctionArgument {
                name: Some("frag_coord".into()),
                ty,
                binding: Some(Binding::BuiltIn(BuiltIn::Position { invariant: false })),
            });
            self.emit(Expression::FunctionArgument(index))
        });
        if let (true, Some(fc)) = (reads_position, frag_coord) {
            let half = self.lit_f32(0.5);
            let x = self.comp(fc, 0);
            let x = self.bin(naga::BinaryOperator::Subtract, x, half);
            let y = self.comp(fc, 1);
            let y = self.bin(naga::BinaryOperator::Subtract, y, half);
            let z = self.comp(fc, 2);
            let w = self.comp(fc, 3);
            let value = self.compose4([x, y, z, w]);
            self.set_input_register(RegisterFile::MiscType, 0, value, direct);
        }
        frag_coord
    }

    /// vFace from the front-facing builtin: 1 for the front, -1 for the back, in all four
    /// components.
    fn face_register(&mut self, direct: bool) {
        let index = self.f.function.arguments.len() as u32;
        let ty = self.ty.bool;
        self.f.function.arguments.push(FunctionArgument {
            name: Some("front_facing".into()),
            ty,
            binding: Some(Binding::BuiltIn(BuiltIn::FrontFacing)),
        });
        let ff = self.emit(Expression::FunctionArgument(index));
        let front = self.lit_f32(1.0);
        let back = self.lit_f32(-1.0);
        let s = self.select(ff, front, back);
        let value = self.splat(s, 4).h;
        self.set_input_register(RegisterFile::MiscType, 1, value, direct);
    }

    /// Hand an input register's value to `main`: directly, or through its register.
    fn set_input_register(
        &mut self,
        file: RegisterFile,
        index: u32,
        value: Handle<Expression>,
        direct: bool,
    ) {
        let mut value = value;
        let mut direct = direct;
        if self.is_ps1() {
            match file {
                // ps_1_x colours arrive clamped to [0, 1].
                RegisterFile::Input => value = self.math1(naga::MathFunction::Saturate, value),
                RegisterFile::Texture => {
                    self.ps1.coords.insert(index, value);
                    // ps_1_1–1_3 texture instructions write t#: a register, not a value.
                    direct &= self.program.version.minor >= 4;
                }
                _ => {}
            }
        }
        if direct {
            self.io.input_values.insert((file, index), value);
            return;
        }
        let p = match file {
            RegisterFile::Input => self.input_pointer(index),
            other => self.pixel_register_pointer(other, index),
        };
        self.store(p, value);
    }

    /// Close the fragment entry point: call `main_body` (unless `main` was lifted inline),
    /// then return the colour and depth outputs. Returns the stage's part of the interface.
    pub(super) fn finish_pixel_entry(
        &mut self,
        plan: PixelPlan,
        main_body: Option<Handle<Function>>,
    ) -> Result<ShaderInterface, LiftError> {
        if let Some(function) = main_body {
            self.push(Statement::Call {
                function,
                arguments: Vec::new(),
                result: None,
            });
        }
        let mut members = Vec::new();
        let mut values = Vec::new();
        let mut offset = 0u32;
        let mut fog_binding = None;
        let mut alpha_ref = None;
        for &n in &plan.color_outputs {
            // Before ps_2_0, r0 is the colour.
            let p = if self.is_ps1() {
                self.register_pointer(super::state::RegKey::Temp(n))
            } else {
                self.pixel_register_pointer(RegisterFile::ColorOut, n)
            };
            let value = self.load(p);
            // ps_1_x writes its colour saturated: the ps_1_x pipeline's colour output is
            // [0, 1] whatever range its registers have (`Ps1Range`), as a float render target
            // shows (vkd3d's ps1-sampler probes: `texcrd` of -0.5 plus 0.2 reads 0).
            let saturate = self.is_ps1()
                && !self
                    .pixel_options()
                    .is_some_and(|o| o.ps1_unsaturated_output);
            let value = if saturate {
                self.math1(naga::MathFunction::Saturate, value)
            } else {
                value
            };
            let value = match (n, plan.fog) {
                (0, Some(fog)) => {
                    let (fogged, binding) = self.apply_fog(value, fog);
                    fog_binding = Some(binding);
                    fogged
                }
                _ => value,
            };
            // The alpha test reads oC0 after fog.
            if let (0, Some(func)) = (n, self.pixel_options().and_then(|o| o.alpha_test)) {
                alpha_ref = self.alpha_test(value, func);
            }
            values.push(value);
            members.push(StructMember {
                name: Some(format!("oC{n}")),
                ty: self.ty.vec4f,
                binding: Some(Binding::Location {
                    location: n,
                    interpolation: None,
                    sampling: None,
                    blend_src: None,
                    per_primitive: false,
                }),
                offset,
            });
            offset += 16;
        }
        if plan.writes_depth {
            let p = self.pixel_register_pointer(RegisterFile::DepthOut, 0);
            let v = self.load(p);
            // WebGPU clamps `frag_depth` to the viewport's depth range (within [0, 1]).
            values.push(self.comp(v, 0));
            members.push(StructMember {
                name: Some("oDepth".into()),
                ty: self.ty.f32,
                binding: Some(Binding::BuiltIn(BuiltIn::FragDepth)),
                offset,
            });
            offset += 4;
        }
        self.close_entry(
            "PixelOutput",
            members,
            values,
            offset,
            ShaderStage::Fragment,
        );
        Ok(ShaderInterface {
            pixel_inputs: plan.inputs,
            color_outputs: plan.color_outputs,
            writes_depth: plan.writes_depth,
            reads_position: plan.reads_position,
            reads_face: plan.reads_face,
            fog: fog_binding,
            alpha_ref,
            ..ShaderInterface::default()
        })
    }
}

/// The colour outputs the program writes, oC0 always among them.
fn color_outputs(program: &crate::bytecode::Program) -> Vec<u32> {
    let mut outputs: BTreeSet<u32> = program
        .instructions
        .iter()
        .filter_map(|i| i.dst)
        .filter(|d| d.reg.file == RegisterFile::ColorOut && d.reg.index < COLOR_OUTPUTS)
        .map(|d| d.reg.index)
        .collect();
    outputs.insert(0);
    outputs.into_iter().collect()
}

/// Whether the program writes depth (`oDepth`, `texdepth`, `texm3x2depth`).
fn writes_depth(program: &crate::bytecode::Program) -> bool {
    program.instructions.iter().any(|i| {
        matches!(i.opcode, Opcode::TexDepth | Opcode::TexM3x2Depth)
            || i.dst.is_some_and(|d| d.reg.file == RegisterFile::DepthOut)
    })
}
