//! Outputs: declared (vs_3_0) or fixed (oPos, oFog, oPts, oD#, oT#) output semantics become
//! the entry point's result struct: position as an invariant builtin, every other semantic
//! its written components (compacted; point size and fog one), at the location, component
//! and interpolation the link map gives (several semantics composed into one location's
//! vector, see [`mod@super::link`]), or alone in declaration order without a map. Semantics the
//! map names that the shader never writes carry their defaults; colours are clamped to
//! [0, 1] before vs_3_0. Without a map, more than 16 outputs are packed as a link packs
//! them; an error only if even packed they do not fit.

use super::builder::{FnBuilder, Lifter, Value};
use super::error::LiftError;
use super::interface::{
    Varying, VaryingInterpolation, VertexOutput, MAX_INTER_STAGE_VARIABLES, POSITION_FIXUP_BINDING,
    VS_CONSTANTS_GROUP,
};
use super::link_interface::vertex_outputs;
use super::points::ExpandedPoint;
use super::state::RegKey;
use crate::bytecode::{Register, RegisterFile, Usage, WriteMask};
use crate::signature::{Semantic, SignatureElement};
use naga::{
    AddressSpace, BinaryOperator as Bo, Binding, BuiltIn, EntryPoint, Expression, Function,
    FunctionArgument, FunctionResult, Handle, MathFunction, ShaderStage, Span, Statement,
    StructMember, TypeInner,
};

/// Where an output's value comes from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// A fixed pre-3.0 output register.
    Fixed(Register),
    /// `o#` in vs_3_0, with the declared components.
    O(u32),
    /// Nothing writes it: its default.
    Default,
}

#[derive(Debug, Clone, Copy)]
struct Planned {
    info: VertexOutput,
    source: Source,
}

/// The clip distances' value and type, and the planes' uniform.
type ClipDistances = (
    Handle<Expression>,
    Handle<naga::Type>,
    super::interface::UniformBinding,
);

/// The entry point's result struct: its members, their values, and its size.
struct OutputStruct {
    members: Vec<StructMember>,
    values: Vec<Handle<Expression>>,
    size: u32,
}

/// The entry point's plan, between opening it and closing it.
pub(super) struct EntryPlan {
    inputs: Vec<super::interface::VertexInput>,
    position: Option<Source>,
    planned: Vec<Planned>,
}

/// What building the entry point decided: the located inputs and outputs.
pub(super) struct EntryInterface {
    pub inputs: Vec<super::interface::VertexInput>,
    pub outputs: Vec<VertexOutput>,
    pub position_fixup: Option<super::interface::UniformBinding>,
    pub writes_point_size: bool,
    pub points: Option<super::interface::UniformBinding>,
    pub clip_planes: Option<super::interface::UniformBinding>,
}

/// The entry point's name.
pub const ENTRY_POINT: &str = "main";

impl Lifter<'_> {
    /// Decide the outputs: position, and the located inter-stage variables.
    fn plan_outputs(&self) -> Result<(Option<Source>, Vec<Planned>), LiftError> {
        let vs3 = self.program.version.major >= 3;
        let outputs = vertex_outputs(self.program, &self.io.signature);
        let source = |e: &SignatureElement| match vs3 {
            true => Source::O(e.register.index),
            false => Source::Fixed(e.register),
        };
        let position = outputs.position.map(source);
        let mut written: Vec<Planned> = outputs
            .travelling
            .iter()
            .map(|&(out, mask)| Planned {
                info: VertexOutput {
                    semantic: out.semantic,
                    register: vs3.then_some(out.register.index),
                    mask,
                    location: None,
                    component: 0,
                    components: mask.count().clamp(1, 4) as u8,
                    interpolation: VaryingInterpolation::Perspective,
                    written: true,
                },
                source: source(out),
            })
            .collect();
        let planned = match self
            .vertex_options()
            .and_then(|o| o.output_locations.as_ref())
        {
            // Without a map: one location each in declaration order, or, past WebGPU's 16,
            // packed as a link packs them.
            None if written.len() <= MAX_INTER_STAGE_VARIABLES => {
                for (location, p) in (0u32..).zip(written.iter_mut()) {
                    p.info.location = Some(location);
                }
                written
            }
            None => {
                let mut varyings: Vec<Varying> = written
                    .iter()
                    .map(|p| Varying::new(p.info.semantic, 0, p.info.components))
                    .collect();
                super::link::pack(&mut varyings, MAX_INTER_STAGE_VARIABLES).map_err(|_| {
                    LiftError::TooManyOutputs {
                        count: written.len(),
                        limit: MAX_INTER_STAGE_VARIABLES,
                    }
                })?;
                for (p, v) in written.iter_mut().zip(&varyings) {
                    p.info.location = Some(v.location);
                    p.info.component = v.component;
                }
                written
            }
            Some(map) => {
                super::link::location_shapes(map)?;
                let mut out = Vec::new();
                for m in map {
                    let found = written.iter().find(|p| p.info.semantic == m.semantic);
                    let mut p = found.copied().unwrap_or(Planned {
                        info: VertexOutput {
                            semantic: m.semantic,
                            register: None,
                            mask: WriteMask::ALL,
                            location: None,
                            component: 0,
                            components: m.components,
                            interpolation: m.interpolation,
                            written: false,
                        },
                        source: Source::Default,
                    });
                    p.info.location = Some(m.location);
                    p.info.component = m.component;
                    p.info.components = m.components;
                    p.info.interpolation = m.interpolation;
                    out.push(p);
                }
                // Outputs the map does not name are dropped (listed without a location).
                for p in written {
                    if !map.iter().any(|m| m.semantic == p.info.semantic) {
                        out.push(p);
                    }
                }
                out
            }
        };
        Ok((position, planned))
    }

    /// The value of one located output, `components` wide: its written components in order
    /// (compacted), then, past those, its default where the shader never writes it and 0
    /// otherwise.
    fn output_value(&mut self, p: &Planned) -> Result<Value, LiftError> {
        let n = usize::from(p.info.components.clamp(1, 4));
        if let Source::Default = p.source {
            let default = p.info.semantic.unwritten_value();
            return Ok(self.const_f32s(&default[..n]));
        }
        let v = self.load_source(p.source, p.info.semantic)?;
        let lanes: Vec<u8> = (0..4u8)
            .filter(|&c| p.info.mask.contains(usize::from(c)))
            .collect();
        if let Some(lanes) = lanes.get(..n) {
            return Ok(self.pick(Value { h: v, n: 4 }, lanes));
        }
        let mut parts = Vec::with_capacity(n);
        for j in 0..n {
            parts.push(match lanes.get(j) {
                Some(&lane) => self.comp(v, u32::from(lane)),
                None => self.lit_f32(0.0),
            });
        }
        Ok(self.compose(&parts))
    }

    /// The value of one located output, as [`Self::output_value`], except that with point
    /// sprites (`sprite`, the sprite coordinate) a texture coordinate is the sprite
    /// coordinate's first `components`.
    fn located_value(
        &mut self,
        p: &Planned,
        sprite: Option<Handle<Expression>>,
    ) -> Result<Value, LiftError> {
        match sprite {
            Some(coordinate) if p.info.semantic.usage == Usage::TexCoord => {
                let n = p.info.components.clamp(1, 4);
                let lanes: Vec<u8> = (0..n).collect();
                Ok(self.pick(
                    Value {
                        h: coordinate,
                        n: 4,
                    },
                    &lanes,
                ))
            }
            _ => self.output_value(p),
        }
    }

    /// The `vec4` value of an output source, loaded in the entry point.
    fn load_source(
        &mut self,
        source: Source,
        semantic: Semantic,
    ) -> Result<Handle<Expression>, LiftError> {
        Ok(match source {
            Source::Fixed(reg) => {
                let g = self.fixed_output_global(reg)?;
                let p = self.global(g);
                let v = self.load(p);
                if self.program.version.major < 3 && semantic.usage == Usage::Color {
                    // Clamped as `_sat` clamps, NaN to 0 (`rules::saturate`; lavapipe's
                    // `saturate(abs(NaN))` is 1). Found by the differential test once it
                    // compared colours: `abs oD1, r4` with r4.x = NaN.
                    self.saturate_d3d9(super::builder::Value { h: v, n: 4 }).h
                } else {
                    v
                }
            }
            Source::O(n) => {
                let p = self.output_pointer(n);
                self.load(p)
            }
            Source::Default => self.const_f32s(&semantic.unwritten_value()).h,
        })
    }

    /// Open the entry point: its arguments (one per fetched input), converted. With
    /// `inline`, `main` is lifted into the entry point itself and reads the converted inputs
    /// directly; otherwise they are copied into the `v#` registers for `main` and the
    /// subroutines.
    pub(super) fn begin_entry(&mut self, inline: bool) -> Result<EntryPlan, LiftError> {
        let inputs = self.plan_inputs();
        let (position, planned) = self.plan_outputs()?;
        self.f = FnBuilder::new(ENTRY_POINT);
        if self.constants_window().is_some() {
            // c#0's place in the window: the draw's first instance (it draws one).
            let at = self.builtin_argument("first_instance", BuiltIn::InstanceIndex);
            let g = self.constants_base_global();
            let p = self.global(g);
            self.store(p, at);
        }
        let direct = inline && !self.registers.relative_inputs;
        for input in &inputs {
            let value = match input.location {
                Some(location) => {
                    let ty = self.input_type(input.conversion);
                    let index = self.f.function.arguments.len() as u32;
                    self.f.function.arguments.push(FunctionArgument {
                        name: Some(format!("v{}", input.register)),
                        ty,
                        binding: Some(Binding::Location {
                            location,
                            interpolation: None,
                            sampling: None,
                            blend_src: None,
                            per_primitive: false,
                        }),
                    });
                    let arg = self.emit(Expression::FunctionArgument(index));
                    self.convert_input(arg, input.conversion)?
                }
                // No element: the register reads 0 (the zero-initialised register).
                None if direct => self.float_n(0.0, 4).h,
                None => continue,
            };
            if direct {
                self.io
                    .input_values
                    .insert((RegisterFile::Input, input.register), value);
            } else {
                let p = self.input_pointer(input.register);
                self.store(p, value);
            }
        }
        Ok(EntryPlan {
            inputs,
            position,
            planned,
        })
    }

    /// Close the entry point: call `main_body` (unless `main` was lifted inline), then build
    /// and return the outputs.
    pub(super) fn finish_entry(
        &mut self,
        plan: EntryPlan,
        main_body: Option<Handle<Function>>,
    ) -> Result<EntryInterface, LiftError> {
        let EntryPlan {
            inputs,
            position,
            planned,
        } = plan;
        if let Some(function) = main_body {
            self.push(Statement::Call {
                function,
                arguments: Vec::new(),
                result: None,
            });
        }
        let pos = match position {
            Some(src) => self.load_source(src, Semantic::new(Usage::Position, 0))?,
            None => self.float_n(0.0, 4).h,
        };
        let eye = self.eye_position(&planned, pos)?;
        let clip = if self.vertex_options().is_some_and(|o| o.clip_planes) {
            Some(self.clip_distances(pos))
        } else {
            None
        };
        let clip_planes = clip.map(|(_, _, binding)| binding);
        let (pos, position_fixup) = self.fix_position(pos);
        let (pos, sprite, points) = match self.point_corner(&planned, pos, eye)? {
            Some(corner) => (corner.position, corner.sprite, Some(corner.binding)),
            None => (pos, None, None),
        };
        let OutputStruct {
            members,
            values,
            size,
        } = self.output_members(pos, clip, &planned, sprite)?;
        self.close_entry("VertexOutput", members, values, size, ShaderStage::Vertex);

        let writes_point_size = self
            .io
            .signature
            .outputs
            .iter()
            .any(|o| o.semantic.usage == Usage::PSize);
        Ok(EntryInterface {
            inputs,
            outputs: interface_outputs(position, &planned),
            position_fixup,
            writes_point_size,
            points,
            clip_planes,
        })
    }

    /// The eye-space position point scaling measures: the POSITION1 output where the shader
    /// writes one (the backend's fixed-function stage writes `v · World · View` there), else
    /// the position.
    fn eye_position(
        &mut self,
        planned: &[Planned],
        pos: Handle<Expression>,
    ) -> Result<Handle<Expression>, LiftError> {
        let scaling = self
            .vertex_options()
            .and_then(|o| o.point_expansion)
            .is_some_and(|p| p.scale);
        Ok(
            match planned
                .iter()
                .find(|p| p.info.semantic == Semantic::new(Usage::Position, 1))
            {
                Some(p) if scaling && !matches!(p.source, Source::Default) => {
                    self.load_source(p.source, p.info.semantic)?
                }
                _ => pos,
            },
        )
    }

    /// The position fix-up (`pos + fixup · pos.w`), where the options ask for it, and its
    /// uniform.
    fn fix_position(
        &mut self,
        pos: Handle<Expression>,
    ) -> (Handle<Expression>, Option<super::interface::UniformBinding>) {
        if !self.vertex_options().is_some_and(|o| o.position_fixup) {
            return (pos, None);
        }
        let ty = self.ty.vec4f;
        let g = self.resource_global(
            RegKey::PositionFixup,
            "position_fixup",
            ty,
            AddressSpace::Uniform,
            VS_CONSTANTS_GROUP,
            POSITION_FIXUP_BINDING,
        );
        let binding = super::interface::UniformBinding {
            group: VS_CONSTANTS_GROUP,
            binding: POSITION_FIXUP_BINDING,
        };
        let p = self.global(g);
        let fix = self.load(p);
        let w = self.comp(pos, 3);
        let w4 = self.splat(w, 4).h;
        let off = self.bin(Bo::Multiply, fix, w4);
        let moved = self.bin(Bo::Add, pos, off);
        let x = self.comp(moved, 0);
        let y = self.comp(moved, 1);
        let z = self.comp(moved, 2);
        (self.compose4([x, y, z, w]), Some(binding))
    }

    /// Point expansion, where the options ask for it: this vertex is a corner of the point's
    /// quad.
    fn point_corner(
        &mut self,
        planned: &[Planned],
        pos: Handle<Expression>,
        eye: Handle<Expression>,
    ) -> Result<Option<ExpandedPoint>, LiftError> {
        let Some(options) = self.vertex_options().and_then(|o| o.point_expansion) else {
            return Ok(None);
        };
        let written = match planned
            .iter()
            .find(|p| p.info.semantic.usage == Usage::PSize)
        {
            Some(p) if !matches!(p.source, Source::Default) => {
                let v = self.load_source(p.source, p.info.semantic)?;
                let lane = (0..4u32)
                    .find(|&c| p.info.mask.contains(c as usize))
                    .unwrap_or(0);
                Some(self.comp(v, lane))
            }
            _ => None,
        };
        Ok(Some(self.expand_point(options, pos, eye, written)))
    }

    /// The result struct's members and values, and its size: the position, the clip
    /// distances, then one variable per location, the varyings sharing it composed into its
    /// vector.
    fn output_members(
        &mut self,
        pos: Handle<Expression>,
        clip: Option<ClipDistances>,
        planned: &[Planned],
        sprite: Option<Handle<Expression>>,
    ) -> Result<OutputStruct, LiftError> {
        let mut members = vec![StructMember {
            name: Some("position".into()),
            ty: self.ty.vec4f,
            binding: Some(Binding::BuiltIn(BuiltIn::Position { invariant: true })),
            offset: 0,
        }];
        let mut values = vec![pos];
        let mut offset: u32 = 16;
        if let Some((distances, ty, _)) = clip {
            members.push(StructMember {
                name: Some("clip_distances".into()),
                ty,
                binding: Some(Binding::BuiltIn(BuiltIn::ClipDistances)),
                offset,
            });
            offset += 4 * super::interface::CLIP_PLANES;
            values.push(distances);
        }
        let mut locations: std::collections::BTreeMap<u32, Vec<&Planned>> = Default::default();
        for p in planned {
            if let Some(location) = p.info.location {
                locations.entry(location).or_default().push(p);
            }
        }
        // Each location's value, width and interpolation, for the wrapped ones' twins.
        let mut written = std::collections::BTreeMap::new();
        for (location, sharing) in locations {
            let n = sharing
                .iter()
                .map(|p| p.info.component.saturating_add(p.info.components))
                .max()
                .unwrap_or(1)
                .clamp(1, 4);
            let names: Vec<String> = sharing
                .iter()
                .map(|p| format!("{}{}", p.info.semantic.usage.name(), p.info.semantic.index))
                .collect();
            let value = self.location_value(&sharing, n, sprite)?;
            let (ty, size, align) = match n {
                1 => (self.ty.f32, 4, 4),
                2 => (self.value_type(0, 2), 8, 8),
                3 => (self.value_type(0, 3), 12, 16),
                _ => (self.ty.vec4f, 16, 16),
            };
            let interpolation = sharing
                .first()
                .map(|p| p.info.interpolation)
                .unwrap_or_default();
            offset = offset.div_ceil(align) * align;
            members.push(StructMember {
                name: Some(names.join("_")),
                ty,
                binding: Some(interpolation.binding(location)),
                offset,
            });
            offset += size;
            values.push(value);
            written.insert(
                location,
                (Value { h: value, n }, ty, size, align, interpolation),
            );
        }
        let twins = self.vertex_options().map_or(&[][..], |o| &o.wrap_twins[..]);
        for t in twins {
            let free = (t.twin as usize) < MAX_INTER_STAGE_VARIABLES;
            let (Some(&(value, ty, size, align, interpolation)), false, true) = (
                written.get(&t.location),
                written.contains_key(&t.twin),
                free,
            ) else {
                return Err(LiftError::Options(format!(
                    "wrapped location {} is not an output, or its twin {} is not free",
                    t.location, t.twin
                )));
            };
            let twin = self.wrap_twin_value(value);
            offset = offset.div_ceil(align) * align;
            members.push(StructMember {
                name: Some(format!("wrap{}", t.location)),
                ty,
                binding: Some(interpolation.binding(t.twin)),
                offset,
            });
            offset += size;
            values.push(twin.h);
            written.insert(t.twin, (twin, ty, size, align, interpolation));
        }
        Ok(OutputStruct {
            members,
            values,
            size: offset,
        })
    }

    /// A wrapped location's twin value: `fract(c + 0.5) - 0.5` (its seam at 0.5).
    pub(super) fn wrap_twin_value(&mut self, c: Value) -> Value {
        let half = self.float_n(0.5, c.n);
        let shifted = self.bin_v(Bo::Add, c, half);
        let fraction = self.math1_v(MathFunction::Fract, shifted);
        self.bin_v(Bo::Subtract, fraction, half)
    }

    /// The `n`-component value of one location: its one varying, or the varyings sharing
    /// it, each at its component (components nothing covers are 0).
    fn location_value(
        &mut self,
        sharing: &[&Planned],
        n: u8,
        sprite: Option<Handle<Expression>>,
    ) -> Result<Handle<Expression>, LiftError> {
        if let [p] = sharing {
            if p.info.component == 0 {
                return Ok(self.located_value(p, sprite)?.h);
            }
        }
        let mut slots: Vec<Option<Handle<Expression>>> = vec![None; usize::from(n)];
        for p in sharing {
            let value = self.located_value(p, sprite)?;
            let start = usize::from(p.info.component);
            for (j, slot) in slots
                .iter_mut()
                .skip(start)
                .take(usize::from(value.n))
                .enumerate()
            {
                *slot = Some(match value.n {
                    1 => value.h,
                    _ => self.comp(value.h, j as u32),
                });
            }
        }
        let mut parts = Vec::with_capacity(slots.len());
        for slot in slots {
            parts.push(match slot {
                Some(h) => h,
                None => self.lit_f32(0.0),
            });
        }
        Ok(self.compose(&parts).h)
    }

    /// D3D9's user clip planes: the six distances `dot(plane[i], position)` as the
    /// `array<f32, 6>` of `@builtin(clip_distances)`, its type, and the planes' uniform.
    fn clip_distances(&mut self, position: Handle<Expression>) -> ClipDistances {
        use super::interface::{CLIP_PLANES, CLIP_PLANES_BINDING};
        let planes_ty = self.vec4_array(CLIP_PLANES);
        let g = self.resource_global(
            RegKey::ClipPlanes,
            "clip_planes",
            planes_ty,
            AddressSpace::Uniform,
            VS_CONSTANTS_GROUP,
            CLIP_PLANES_BINDING,
        );
        let base = self.global(g);
        let mut components = Vec::new();
        for i in 0..CLIP_PLANES {
            let p = self.emit(Expression::AccessIndex { base, index: i });
            let plane = self.load(p);
            components.push(self.math2(naga::MathFunction::Dot, plane, position));
        }
        let f32_ty = self.ty.f32;
        let ty = self.type_of(TypeInner::Array {
            base: f32_ty,
            size: naga::ArraySize::Constant(
                std::num::NonZeroU32::MIN.saturating_add(CLIP_PLANES - 1),
            ),
            stride: 4,
        });
        let distances = self.emit(Expression::Compose { ty, components });
        (
            distances,
            ty,
            super::interface::UniformBinding {
                group: VS_CONSTANTS_GROUP,
                binding: CLIP_PLANES_BINDING,
            },
        )
    }

    /// End the entry point under construction: return its result struct `name` (`members`
    /// laid out up to byte `size`, composed of `values`) and add it to the module as the
    /// `stage` entry point [`ENTRY_POINT`]. Shared by the vertex and the pixel entry.
    pub(super) fn close_entry(
        &mut self,
        name: &str,
        members: Vec<StructMember>,
        values: Vec<Handle<Expression>>,
        size: u32,
        stage: ShaderStage,
    ) {
        let span = size.div_ceil(16) * 16;
        let out_ty = self.module.types.insert(
            naga::Type {
                name: Some(name.into()),
                inner: TypeInner::Struct { members, span },
            },
            Span::UNDEFINED,
        );
        let result = self.emit(Expression::Compose {
            ty: out_ty,
            components: values,
        });
        self.push(Statement::Return {
            value: Some(result),
        });
        let mut function = self.finish_function();
        function.result = Some(FunctionResult {
            ty: out_ty,
            binding: None,
        });
        self.module.entry_points.push(EntryPoint {
            name: ENTRY_POINT.into(),
            stage,
            early_depth_test: None,
            workgroup_size: [0; 3],
            workgroup_size_overrides: None,
            function,
            mesh_info: None,
            task_payload: None,
            incoming_ray_payload: None,
        });
    }

    /// Close the current function and return it.
    pub(super) fn finish_function(&mut self) -> Function {
        let mut f = std::mem::replace(&mut self.f, FnBuilder::new(""));
        let body = f.frames.pop().map(|fr| fr.block).unwrap_or_default();
        f.function.body = body;
        f.function
    }
}

/// The outputs the entry point reports: the position (where the shader writes it), then the
/// planned varyings.
fn interface_outputs(position: Option<Source>, planned: &[Planned]) -> Vec<VertexOutput> {
    let mut outputs = Vec::new();
    if let Some(src) = position {
        outputs.push(VertexOutput {
            semantic: Semantic::new(Usage::Position, 0),
            register: match src {
                Source::O(n) => Some(n),
                _ => None,
            },
            mask: WriteMask::ALL,
            location: None,
            component: 0,
            components: 4,
            interpolation: VaryingInterpolation::Perspective,
            written: true,
        });
    }
    outputs.extend(planned.iter().map(|p| p.info));
    outputs
}
