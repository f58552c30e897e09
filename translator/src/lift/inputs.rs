//! Vertex inputs: which `v#` registers the entry point receives, at which location, and the
//! shader-side conversion of each fetch (`FetchConversion`), stored into the `v` array.

use super::builder::Lifter;
use super::error::LiftError;
use super::interface::{plain_input, VertexInput};
use crate::bytecode::{RegisterFile, Stage};
use crate::decl::{FetchConversion, FetchSource};
use naga::{BinaryOperator as Bo, Expression, Handle, ScalarKind, TypeInner, VectorSize};
use std::collections::BTreeSet;

impl Lifter<'_> {
    /// The input registers and how each is fetched.
    pub(super) fn plan_inputs(&self) -> Vec<VertexInput> {
        let sig = &self.io.signature;
        let mut regs: BTreeSet<u32> = sig
            .inputs
            .iter()
            .filter(|e| e.register.file == RegisterFile::Input)
            .map(|e| e.register.index)
            .collect();
        for inst in &self.program.instructions {
            for s in &inst.src {
                if s.reg.file == RegisterFile::Input && s.reg.relative.is_none() {
                    regs.insert(s.reg.index);
                }
            }
        }
        regs.retain(|&r| r < self.registers.input_registers);
        regs.into_iter()
            .map(|r| {
                let semantic = sig
                    .inputs
                    .iter()
                    .find(|e| e.register.file == RegisterFile::Input && e.register.index == r)
                    .map(|e| e.semantic);
                match self.vertex_options().and_then(|o| o.input_fetches.as_ref()) {
                    None => plain_input(r, semantic),
                    Some(fetches) => {
                        match fetches.iter().find(|f| f.register == r).map(|f| f.source) {
                            Some(FetchSource::Attribute {
                                location,
                                conversion,
                                ..
                            }) => VertexInput {
                                register: r,
                                semantic,
                                location: Some(location),
                                conversion,
                            },
                            Some(FetchSource::Missing) | None => VertexInput {
                                register: r,
                                semantic,
                                location: None,
                                conversion: FetchConversion::Float,
                            },
                        }
                    }
                }
            })
            .collect()
    }

    /// The entry-point argument type of an input.
    pub(super) fn input_type(&mut self, conversion: FetchConversion) -> Handle<naga::Type> {
        self.type_of(TypeInner::Vector {
            size: VectorSize::Quad,
            scalar: conversion.input_scalar(),
        })
    }

    /// Convert a fetched input argument to `vec4<f32>`.
    pub(super) fn convert_input(
        &mut self,
        arg: Handle<Expression>,
        conversion: FetchConversion,
    ) -> Result<Handle<Expression>, LiftError> {
        debug_assert!(self.program.version.stage == Stage::Vertex);
        Ok(match conversion {
            FetchConversion::Float => arg,
            FetchConversion::SignedNormalized => {
                // The padding (0, 0, 1) of SHORT2N is unchanged by the clamp.
                let lo = self.float_n(-1.0, 4).h;
                self.math2(naga::MathFunction::Max, arg, lo)
            }
            FetchConversion::UnsignedToFloat | FetchConversion::SignedToFloat => {
                self.cast(arg, ScalarKind::Float, Some(4))
            }
            FetchConversion::UDec3 => {
                let x = self.emit(Expression::AccessIndex {
                    base: arg,
                    index: 0,
                });
                let mut c = Vec::new();
                for shift in [0u32, 10, 20] {
                    let s = self.lit_u32(shift);
                    let v = self.bin(Bo::ShiftRight, x, s);
                    let m = self.lit_u32(0x3FF);
                    let v = self.bin(Bo::And, v, m);
                    c.push(self.cast(v, ScalarKind::Float, Some(4)));
                }
                let one = self.lit_f32(1.0);
                self.compose4([c[0], c[1], c[2], one])
            }
            FetchConversion::Dec3N => {
                let x = self.emit(Expression::AccessIndex {
                    base: arg,
                    index: 0,
                });
                let mut c = Vec::new();
                for shift in [0u32, 10, 20] {
                    // Move the 10-bit field to the top, then shift back arithmetically.
                    let up = self.lit_u32(22 - shift);
                    let v = self.bin(Bo::ShiftLeft, x, up);
                    let v = self.cast(v, ScalarKind::Sint, None);
                    let down = self.lit_u32(22);
                    let v = self.bin(Bo::ShiftRight, v, down);
                    let f = self.cast(v, ScalarKind::Float, Some(4));
                    let d = self.lit_f32(511.0);
                    let f = self.bin(Bo::Divide, f, d);
                    let lo = self.lit_f32(-1.0);
                    c.push(self.math2(naga::MathFunction::Max, f, lo));
                }
                let one = self.lit_f32(1.0);
                self.compose4([c[0], c[1], c[2], one])
            }
        })
    }
}
