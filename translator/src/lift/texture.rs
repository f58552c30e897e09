//! Texture sampling, both stages: `texld dst, coord, s#` and its ps_2_0+ forms `texldp`
//! (coordinate divided by `.w`), `texldb` (level-of-detail bias from `.w`), `texldd`
//! (explicit gradients) and `texldl` (explicit level `.w`; the only form of vertex shaders).
//! The texture is the one declared by `dcl_2d` / `dcl_cube` / `dcl_volume s#`: a
//! `texture_2d`, `texture_cube` or `texture_3d` of `f32`, sampled with the coordinate's first
//! 2 or 3 components.

use super::builder::Lifter;
use super::builder::{Lanes, Value};
use super::depth::DepthLevel;
use super::error::LiftError;
use super::interface::{sampler_binding, texture_binding, PS_TEXTURES_GROUP, VS_TEXTURES_GROUP};
use super::interface::{AxisFixup, SamplerFixup, SamplerRead};
use super::state::RegKey;
use crate::bytecode::{Control, Instruction, Opcode, RegisterFile, Stage, TextureType};
use naga::{
    AddressSpace, BinaryOperator as Bo, Expression, Handle, ImageClass, ImageDimension,
    MathFunction as Mf, SampleLevel, ScalarKind, TypeInner,
};

/// How the level of detail of a sample is chosen.
enum Level {
    /// Implicit derivatives (`texld`, `texldp`).
    Auto,
    /// Implicit derivatives plus a bias (`texldb`: `coord.w`).
    Bias,
    /// Explicit level (`texldl`: `coord.w`).
    Exact,
    /// Explicit gradients (`texldd`: sources 2 and 3).
    Gradient,
}

impl Lifter<'_> {
    /// `texld`, `texldp`, `texldb` (ps_2_0+ `tex` opcode), `texldd` and `texldl`.
    pub(super) fn texture_sample(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let (level, project) = match (inst.opcode, inst.control) {
            (Opcode::TexLdl, _) => (Level::Exact, false),
            (Opcode::TexLdd, _) => (Level::Gradient, false),
            (Opcode::Tex, _) if self.is_ps1() => return self.ps1_instruction(inst),
            (Opcode::Tex, Control::TexProject) => (Level::Auto, true),
            (Opcode::Tex, Control::TexBias) => (Level::Bias, false),
            (Opcode::Tex, _) => (Level::Auto, false),
            (other, _) => return Err(self.internal(format!("{other} is not a texture sample"))),
        };
        let coord = self.src(inst, 0, Lanes::ALL)?.h;
        let s = self.src_param(inst, 1)?;
        if s.reg.file != RegisterFile::Sampler {
            return Err(self.internal("the second source of a texture sample is not s#"));
        }
        let n = s.reg.index;
        let Some(&declared) = self.resources.samplers.get(&n) else {
            return Err(self.internal(format!("s{n} is not declared")));
        };
        let tt = self.sampled_type(n, declared);
        // A volume on a `dcl_2d` sampler: read at depth 0.5 (Windows).
        let volume_on_2d = tt != declared;
        let (dim, coords) = match tt {
            TextureType::TwoD => (ImageDimension::D2, 2),
            TextureType::Cube => (ImageDimension::Cube, 3),
            TextureType::Volume => (ImageDimension::D3, 3),
            TextureType::Unknown => return Err(self.internal(format!("s{n} has no texture type"))),
        };
        let read = self.sampler_read(n, dim);
        if read.is_depth() {
            // A depth texture (see `depth`): the projection divides z too.
            let coord = match project {
                true => {
                    let w = self.comp(coord, 3);
                    let w = self.splat(w, 4).h;
                    self.bin(Bo::Divide, coord, w)
                }
                false => coord,
            };
            let level = match level {
                Level::Auto | Level::Bias => DepthLevel::Implicit,
                Level::Exact | Level::Gradient => DepthLevel::Zero,
            };
            let texel = self.depth_sample(n, read, Value { h: coord, n: 4 }, level);
            return self.write_sampled(inst, texel, s.swizzle);
        }
        let mut coordinate = self.truncate(coord, coords);
        if project {
            let w = self.comp(coord, 3);
            let w = self.splat(w, coords).h;
            coordinate = self.bin(Bo::Divide, coordinate, w);
        }
        if volume_on_2d {
            let (x, y, half) = (
                self.comp(coordinate, 0),
                self.comp(coordinate, 1),
                self.lit_f32(0.5),
            );
            coordinate = self.compose(&[x, y, half]).h;
        }
        let level = match level {
            Level::Auto => SampleLevel::Auto,
            Level::Bias => SampleLevel::Bias(self.comp(coord, 3)),
            Level::Exact => SampleLevel::Exact(self.comp(coord, 3)),
            Level::Gradient => {
                let x = self.src(inst, 2, Lanes::ALL)?.h;
                let y = self.src(inst, 3, Lanes::ALL)?.h;
                SampleLevel::Gradient {
                    x: self.truncate(x, coords),
                    y: self.truncate(y, coords),
                }
            }
        };
        let texel = self.sample_color(n, dim, coordinate, coords, level);
        self.write_sampled(inst, texel, s.swizzle)
    }

    /// The texture type pixel sampler `s#n`, declared `declared`, samples: a volume where one
    /// is bound to a `dcl_2d` sampler from ps_2_0 on (`PixelShaderOptions::texture_types`;
    /// D3D9 leaves it undefined, Windows reads the volume at depth 0.5: Wine's
    /// test_mismatched_sample_types), the declaration otherwise.
    pub(super) fn sampled_type(&self, n: u32, declared: TextureType) -> TextureType {
        let bound = self
            .pixel_options()
            .and_then(|o| o.texture_types.get(n as usize).copied());
        match (declared, bound) {
            (TextureType::TwoD, Some(TextureType::Volume)) if !self.is_ps1() => TextureType::Volume,
            _ => declared,
        }
    }

    /// A colour texel of `s#n` (a `dim` texture) at `coordinate` (`coords` components) and
    /// `level`, as D3D9 reads it: the sampler's fixups ([`SamplerFixup`]: `MIRRORONCE`, a
    /// border colour, the LOD bias) applied around the WebGPU sample, and the channels the
    /// format lacks filled (`fill_channels`).
    pub(super) fn sample_color(
        &mut self,
        n: u32,
        dim: ImageDimension,
        coordinate: Handle<Expression>,
        coords: u8,
        level: SampleLevel,
    ) -> Handle<Expression> {
        let read = self.sampler_read(n, dim);
        let fix = self.sampler_fixup(n, dim);
        let (image, sampler) = self.texture_globals(n, dim);
        let coordinate = self.mirror_once(&fix, coordinate, coords);
        if let (Some(fetch4), ImageDimension::D2) = (fix.fetch4, dim) {
            return self.fetch4(image, sampler, coordinate, fetch4);
        }
        let level = self.biased(fix.bias(), level);
        let texel = self.emit(Expression::ImageSample {
            image,
            sampler,
            gather: None,
            coordinate,
            array_index: None,
            offset: None,
            level,
            depth_ref: None,
            clamp_to_edge: false,
        });
        let texel = self.fill_channels(texel, read);
        self.border(&fix, texel, image, coordinate, coords)
    }

    /// The fixups of pixel sampler `s#n` (none in a vertex shader); a cube map's addressing
    /// is the hardware's (D3D9 ignores the address modes there: Wine's test_cube_wrap).
    pub(super) fn sampler_fixup(&self, n: u32, dim: ImageDimension) -> SamplerFixup {
        let mut fix = self
            .pixel_options()
            .and_then(|o| o.sampler_fixups.get(n as usize).copied())
            .unwrap_or_default();
        if dim == ImageDimension::Cube {
            fix.address = [AxisFixup::None; 3];
        }
        fix
    }

    /// `MIRRORONCE` axes: the coordinate's absolute value (the sampler clamps to the edge).
    /// Bilinear filtering of |u| reads the texels mirror-once addressing reads at u.
    fn mirror_once(
        &mut self,
        fix: &SamplerFixup,
        coordinate: Handle<Expression>,
        coords: u8,
    ) -> Handle<Expression> {
        let axes = &fix.address[..usize::from(coords)];
        if !axes.contains(&AxisFixup::MirrorOnce) {
            return coordinate;
        }
        let parts: Vec<Handle<Expression>> = (0..coords)
            .map(|c| {
                let x = self.comp(coordinate, u32::from(c));
                match fix.address[usize::from(c)] {
                    AxisFixup::MirrorOnce => self.math1(Mf::Abs, x),
                    _ => x,
                }
            })
            .collect();
        self.compose(&parts).h
    }

    /// `level` with the sampler's LOD bias added (as a Vulkan or GL sampler's bias adds to
    /// implicit, biased and explicit levels); gradients scaled by 2^bias.
    fn biased(&mut self, bias: f32, level: SampleLevel) -> SampleLevel {
        if bias == 0.0 || !bias.is_finite() {
            return level;
        }
        let b = self.lit_f32(bias);
        match level {
            SampleLevel::Auto => SampleLevel::Bias(b),
            SampleLevel::Zero => SampleLevel::Exact(b),
            SampleLevel::Bias(e) => SampleLevel::Bias(self.bin(Bo::Add, e, b)),
            SampleLevel::Exact(e) => SampleLevel::Exact(self.bin(Bo::Add, e, b)),
            SampleLevel::Gradient { x, y } => {
                let scale = self.lit_f32(bias.exp2());
                SampleLevel::Gradient {
                    x: self.bin(Bo::Multiply, x, scale),
                    y: self.bin(Bo::Multiply, y, scale),
                }
            }
        }
    }

    /// `BORDER` axes addressed in the shader: the clamped texel mixed with the border colour
    /// by the share of the filter footprint outside the texture. Point sampling: all of it
    /// outside [0, 1). Linear: per axis `clamp(0.5 - u·size) + clamp(u·size - size + 0.5)`
    /// (the bilinear weight of the texels past the edge at level 0), the axes' insides
    /// multiplied; exact for bilinear filtering of level 0, where the clamped sample is the
    /// edge texels' blend.
    fn border(
        &mut self,
        fix: &SamplerFixup,
        texel: Handle<Expression>,
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        coords: u8,
    ) -> Handle<Expression> {
        let axes: Vec<u8> = (0..coords)
            .filter(|&c| fix.address[usize::from(c)] == AxisFixup::Border)
            .collect();
        if axes.is_empty() {
            return texel;
        }
        let size = fix.linear.then(|| {
            let size = self.emit(Expression::ImageQuery {
                image,
                query: naga::ImageQuery::Size { level: None },
            });
            self.cast(size, ScalarKind::Float, Some(4))
        });
        let (zero, half, one) = (self.lit_f32(0.0), self.lit_f32(0.5), self.lit_f32(1.0));
        let mut inside = None;
        for c in axes {
            let u = self.comp(coordinate, u32::from(c));
            let outside = match size {
                Some(size) => {
                    let n = self.comp(size, u32::from(c));
                    let t = self.bin(Bo::Multiply, u, n);
                    let low = self.bin(Bo::Subtract, half, t);
                    let low = self.math3(Mf::Clamp, low, zero, one);
                    let past = self.bin(Bo::Subtract, t, n);
                    let high = self.bin(Bo::Add, past, half);
                    let high = self.math3(Mf::Clamp, high, zero, one);
                    self.bin(Bo::Add, low, high)
                }
                None => {
                    let below = self.bin(Bo::Less, u, zero);
                    let above = self.bin(Bo::GreaterEqual, u, one);
                    let out = self.bin(Bo::LogicalOr, below, above);
                    self.select(out, one, zero)
                }
            };
            let keep = self.bin(Bo::Subtract, one, outside);
            inside = Some(match inside {
                Some(i) => self.bin(Bo::Multiply, i, keep),
                None => keep,
            });
        }
        let inside = inside.unwrap_or(one);
        let weight = self.bin(Bo::Subtract, one, inside);
        let weight = self.splat(weight, 4).h;
        let c = |shift: u32| ((fix.border_color >> shift) & 0xff) as f32 / 255.0;
        let colour = [c(16), c(8), c(0), c(24)].map(|v| self.lit_f32(v));
        let colour = self.compose4(colour);
        self.math3(Mf::Mix, texel, colour, weight)
    }

    /// Writes a sampled `vec4` texel to the destination: the sampler's swizzle picks the
    /// texel components for the written ones.
    fn write_sampled(
        &mut self,
        inst: &Instruction,
        texel: naga::Handle<Expression>,
        swizzle: crate::bytecode::Swizzle,
    ) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let lanes = Lanes::of_mask(dst.mask);
        let pattern: Vec<u8> = lanes
            .as_slice()
            .iter()
            .map(|&c| swizzle.get(usize::from(c)))
            .collect();
        let r = self.pick(Value { h: texel, n: 4 }, &pattern);
        self.write(&dst, r, inst.predicate.as_ref())
    }

    /// `texkill reg`: discard the pixel when a component of the register is negative: `.xyzw`
    /// from ps_2_0 on, `.xyz` in ps_1_x (Wine's `shader_glsl_texkill`: ps_1_x ignores `.w`).
    /// The operand is encoded as a destination whose mask D3D9 requires to be full.
    pub(super) fn texkill(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let lanes = if self.program.version.major >= 2 {
            Lanes::ALL
        } else {
            Lanes::of(&[0, 1, 2])
        };
        let v = self.read(&crate::bytecode::SrcParam::new(dst.reg), lanes)?;
        let zero = self.float_n(0.0, v.n);
        let mut negative = self.bin_v(Bo::Less, v, zero);
        if let Some(p) = inst.predicate.as_ref() {
            // Predicated: only the components the predicate allows are tested.
            let allowed = self.read_predicate(p, lanes)?;
            negative = self.bin_v(Bo::And, negative, allowed);
        }
        let any = self.emit(Expression::Relational {
            fun: naga::RelationalFunction::Any,
            argument: negative.h,
        });
        let mut accept = naga::Block::new();
        accept.push(naga::Statement::Kill, self.span);
        self.push(naga::Statement::If {
            condition: any,
            accept,
            reject: naga::Block::new(),
        });
        Ok(())
    }

    /// The texture and sampler of `s#n` in the current function, declared on first use in
    /// this stage's textures group.
    pub(super) fn texture_globals(
        &mut self,
        n: u32,
        dim: ImageDimension,
    ) -> (Handle<Expression>, Handle<Expression>) {
        let group = match self.program.version.stage {
            Stage::Vertex => VS_TEXTURES_GROUP,
            Stage::Pixel => PS_TEXTURES_GROUP,
        };
        // A shadow map is a `texture_depth_2d` with a comparison sampler; raw depth is read
        // as an unfilterable `texture_2d<f32>` (see `depth`).
        let read = self.sampler_read(n, dim);
        let class = match read {
            SamplerRead::Color | SamplerRead::Narrow { .. } | SamplerRead::Depth { .. } => {
                ImageClass::Sampled {
                    kind: ScalarKind::Float,
                    multi: false,
                }
            }
            SamplerRead::Shadow => ImageClass::Depth { multi: false },
        };
        let image_ty = self.type_of(TypeInner::Image {
            dim,
            arrayed: false,
            class,
        });
        let sampler_ty = self.type_of(TypeInner::Sampler {
            comparison: read == SamplerRead::Shadow,
        });
        let tex = self.resource_global(
            RegKey::Texture(n),
            &format!("s{n}_texture"),
            image_ty,
            AddressSpace::Handle,
            group,
            texture_binding(n),
        );
        let smp = self.resource_global(
            RegKey::Sampler(n),
            &format!("s{n}_sampler"),
            sampler_ty,
            AddressSpace::Handle,
            group,
            sampler_binding(n),
        );
        (self.global(tex), self.global(smp))
    }
}
