//! Vertex texture fetch: `texldl dst, coord, s#` samples mip level `coord.w` of the texture
//! declared by `dcl_2d` / `dcl_cube` / `dcl_volume s#`.

use super::builder::Lifter;
use super::builder::{Lanes, Value};
use super::error::LiftError;
use super::globals::RegKey;
use super::interface::{sampler_binding, texture_binding, VS_TEXTURES_GROUP};
use crate::bytecode::{Instruction, RegisterFile, TextureType};
use naga::{
    AddressSpace, Expression, ImageClass, ImageDimension, SampleLevel, ScalarKind, TypeInner,
};

/// Vertex samplers s0–s3.
pub(super) const VERTEX_SAMPLERS: u32 = 4;

impl Lifter<'_> {
    pub(super) fn texldl(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let coord = self.src(inst, 0, Lanes::ALL)?.h;
        let s = self.src_param(inst, 1)?;
        if s.reg.file != RegisterFile::Sampler || s.reg.index >= VERTEX_SAMPLERS {
            return Err(self.internal("texldl samples s0–s3"));
        }
        let n = s.reg.index;
        let Some(&tt) = self.samplers.get(&n) else {
            return Err(self.internal(format!("s{n} is not declared")));
        };
        let (dim, coords) = match tt {
            TextureType::TwoD => (ImageDimension::D2, 2),
            TextureType::Cube => (ImageDimension::Cube, 3),
            TextureType::Volume => (ImageDimension::D3, 3),
            TextureType::Unknown => return Err(self.internal(format!("s{n} has no texture type"))),
        };
        let image_ty = self.type_of(TypeInner::Image {
            dim,
            arrayed: false,
            class: ImageClass::Sampled {
                kind: ScalarKind::Float,
                multi: false,
            },
        });
        let sampler_ty = self.type_of(TypeInner::Sampler { comparison: false });
        let tex = self.resource_global(
            RegKey::Texture(n),
            &format!("s{n}_texture"),
            image_ty,
            AddressSpace::Handle,
            VS_TEXTURES_GROUP,
            texture_binding(n),
        );
        let smp = self.resource_global(
            RegKey::Sampler(n),
            &format!("s{n}_sampler"),
            sampler_ty,
            AddressSpace::Handle,
            VS_TEXTURES_GROUP,
            sampler_binding(n),
        );
        let image = self.global(tex);
        let sampler = self.global(smp);
        let coordinate = self.truncate(coord, coords);
        let lod = self.comp(coord, 3);
        let texel = self.emit(Expression::ImageSample {
            image,
            sampler,
            gather: None,
            coordinate,
            array_index: None,
            offset: None,
            level: SampleLevel::Exact(lod),
            depth_ref: None,
            clamp_to_edge: false,
        });
        // The sampler's swizzle picks the texel components for the written ones.
        let lanes = Lanes::of_mask(dst.mask);
        let pattern: Vec<u8> = lanes
            .as_slice()
            .iter()
            .map(|&c| s.swizzle.get(usize::from(c)))
            .collect();
        let r = self.pick(Value { h: texel, n: 4 }, &pattern);
        self.write(&dst, r, inst.predicate.as_ref())
    }
}
