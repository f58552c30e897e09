//! What linking reads of each stage, derived from the checked program before anything is
//! lifted: the vertex stage's inter-stage outputs (semantic, width, written) and the pixel
//! stage's inputs (semantic, centroid) with whether it reads `vFace`.
//!
//! [`super::link`] decides a draw's link from these, so a pair is lifted once, with the
//! link's maps (see `pair`). The same facts come out of a lifted [`ShaderInterface`]
//! (`From<&ShaderInterface>`), and the lifter builds its entry points from the functions here
//! ([`vertex_outputs`], [`pixel_inputs`], [`reads_register`]), so both answers agree; the
//! corpus tests compare them shader by shader.

use std::collections::BTreeSet;

use super::interface::ShaderInterface;
use crate::bytecode::{Opcode, Program, RegisterFile, Usage, WriteMask};
use crate::signature::{Semantic, Signature, SignatureElement};

/// Whether a vertex output semantic is an inter-stage variable: not the position (the
/// `@builtin(position)`: POSITION0, and POSITIONT0 in vs_3_0) and not PSIZE (the backend's
/// point expansion reads it; the pixel stage never does).
pub fn is_varying(semantic: Semantic) -> bool {
    let position =
        matches!(semantic.usage, Usage::Position | Usage::PositionT) && semantic.index == 0;
    !position && semantic.usage != Usage::PSize
}

/// A vertex program's outputs as they leave the entry point, in signature order.
pub(super) struct VertexOutputs<'a> {
    /// The position builtin's element: the first output that is neither a varying nor PSIZE.
    pub position: Option<&'a SignatureElement>,
    /// Every other output (PSIZE included) with the components of its register that travel:
    /// vs_3_0 the declared mask (PSIZE its first component), before 3.0 all four (FOG and
    /// PSIZE one).
    pub travelling: Vec<(&'a SignatureElement, WriteMask)>,
}

/// The outputs of vertex program `program` with signature `signature` (see
/// [`VertexOutputs`]).
pub(super) fn vertex_outputs<'a>(program: &Program, signature: &'a Signature) -> VertexOutputs<'a> {
    let vs3 = program.version.major >= 3;
    let mut position = None;
    let mut travelling = Vec::new();
    for out in &signature.outputs {
        let mask = if vs3 {
            if out.register.file != RegisterFile::Output {
                continue;
            }
            // Point size travels as a scalar, its first declared component (as oPts).
            match out.semantic.usage {
                Usage::PSize => WriteMask(out.mask.0 & out.mask.0.wrapping_neg()),
                _ => out.mask,
            }
        } else {
            match out.semantic.usage {
                Usage::Fog | Usage::PSize => WriteMask(1),
                _ => WriteMask::ALL,
            }
        };
        if !is_varying(out.semantic) && out.semantic.usage != Usage::PSize {
            position = position.or(Some(out));
            continue;
        }
        travelling.push((out, mask));
    }
    VertexOutputs {
        position,
        travelling,
    }
}

/// One inter-stage input of a pixel program.
pub(super) struct PixelSignatureInput<'a> {
    /// Its place among the program's inter-stage inputs in signature order (the location it
    /// takes without a link map).
    pub order: u32,
    pub element: &'a SignatureElement,
    /// `_centroid` on its declaration.
    pub centroid: bool,
}

/// The inter-stage inputs (`v#`, `t#`) of pixel program `program` with signature
/// `signature`, in register order.
pub(super) fn pixel_inputs<'a>(
    program: &Program,
    signature: &'a Signature,
) -> Vec<PixelSignatureInput<'a>> {
    let centroid: BTreeSet<(RegisterFile, u32)> = program
        .instructions
        .iter()
        .filter(|i| i.opcode == Opcode::Dcl)
        .filter_map(|i| i.dst)
        .filter(|d| d.modifier.centroid())
        .map(|d| (d.reg.file, d.reg.index))
        .collect();
    let mut inputs: Vec<PixelSignatureInput<'a>> = signature
        .inputs
        .iter()
        .filter(|e| matches!(e.register.file, RegisterFile::Input | RegisterFile::Texture))
        .zip(0u32..)
        .map(|(element, order)| PixelSignatureInput {
            order,
            element,
            centroid: centroid.contains(&(element.register.file, element.register.index)),
        })
        .collect();
    inputs.sort_by_key(|p| (p.element.register.file, p.element.register.index));
    inputs
}

/// Whether an instruction other than a declaration reads register `file` `index` (`vPos` is
/// `MiscType` 0, `vFace` `MiscType` 1).
pub(super) fn reads_register(program: &Program, file: RegisterFile, index: u32) -> bool {
    program.instructions.iter().any(|i| {
        i.opcode != Opcode::Dcl
            && i.src
                .iter()
                .any(|s| s.reg.file == file && s.reg.index == index)
    })
}

/// One inter-stage output of a vertex stage, as linking sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkOutput {
    pub semantic: Semantic,
    /// Components it carries (1–4): the components of its register the stage writes.
    pub components: u8,
    /// Whether the stage writes it (false: it would carry its default).
    pub written: bool,
}

/// What [`super::link::link_stages`] reads of a vertex stage: its inter-stage outputs
/// ([`is_varying`]), in signature order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VertexLinkInterface {
    pub outputs: Vec<LinkOutput>,
}

impl VertexLinkInterface {
    /// The inter-stage outputs of a checked vertex program, as the lifter will write them.
    pub fn of(program: &Program) -> VertexLinkInterface {
        let signature = Signature::of(program);
        let outputs = vertex_outputs(program, &signature)
            .travelling
            .into_iter()
            .filter(|(e, _)| is_varying(e.semantic))
            .map(|(e, mask)| LinkOutput {
                semantic: e.semantic,
                components: mask.count().clamp(1, 4) as u8,
                written: true,
            })
            .collect();
        VertexLinkInterface { outputs }
    }

    /// The output with this semantic.
    pub fn output(&self, semantic: Semantic) -> Option<&LinkOutput> {
        self.outputs.iter().find(|o| o.semantic == semantic)
    }

    /// The output with this semantic, if the stage writes it.
    pub fn written(&self, semantic: Semantic) -> Option<&LinkOutput> {
        self.output(semantic).filter(|o| o.written)
    }

    /// Point sprites (`D3DRS_POINTSPRITEENABLE`): every texture coordinate the pixel stage
    /// `ps` reads is the sprite coordinate `(s, t, 0, 0)`, whether or not the vertex shader
    /// writes it and however many components it writes, so each counts as a written
    /// four-component output and the link makes it travel.
    pub fn with_sprite_texture_coordinates(&mut self, ps: &PixelLinkInterface) {
        for input in ps
            .inputs
            .iter()
            .filter(|i| i.semantic.usage == Usage::TexCoord)
        {
            let sprite = LinkOutput {
                semantic: input.semantic,
                components: 4,
                written: true,
            };
            match self
                .outputs
                .iter_mut()
                .find(|o| o.semantic == input.semantic)
            {
                Some(o) => *o = sprite,
                None => self.outputs.push(sprite),
            }
        }
    }
}

impl From<&ShaderInterface> for VertexLinkInterface {
    /// The inter-stage outputs of a lifted vertex shader.
    fn from(vs: &ShaderInterface) -> VertexLinkInterface {
        let outputs = vs
            .outputs
            .iter()
            .filter(|o| is_varying(o.semantic))
            .map(|o| LinkOutput {
                semantic: o.semantic,
                components: o.components,
                written: o.written,
            })
            .collect();
        VertexLinkInterface { outputs }
    }
}

/// One input of a pixel stage, as linking sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkInput {
    pub semantic: Semantic,
    /// `_centroid` on its declaration.
    pub centroid: bool,
}

/// What [`super::link::link_stages`] reads of a pixel stage: its inputs in register order,
/// and whether it reads `vFace` (which costs an inter-stage variable).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PixelLinkInterface {
    pub inputs: Vec<LinkInput>,
    pub reads_face: bool,
}

impl PixelLinkInterface {
    /// The inputs of a checked pixel program, as the lifter will read them.
    pub fn of(program: &Program) -> PixelLinkInterface {
        let signature = Signature::of(program);
        let inputs = pixel_inputs(program, &signature)
            .iter()
            .map(|p| LinkInput {
                semantic: p.element.semantic,
                centroid: p.centroid,
            })
            .collect();
        PixelLinkInterface {
            inputs,
            reads_face: reads_register(program, RegisterFile::MiscType, 1),
        }
    }
}

impl From<&ShaderInterface> for PixelLinkInterface {
    /// The inputs of a lifted pixel shader.
    fn from(ps: &ShaderInterface) -> PixelLinkInterface {
        PixelLinkInterface {
            inputs: ps
                .pixel_inputs
                .iter()
                .map(|i| LinkInput {
                    semantic: i.semantic,
                    centroid: i.centroid,
                })
                .collect(),
            reads_face: ps.reads_face,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Point sprites replace every texture coordinate the pixel stage reads by the sprite's
    /// four components: an output the vertex stage has is replaced in place, a missing one
    /// added; other outputs stay as they are.
    #[test]
    fn sprite_coordinates_replace_or_add_the_texture_coordinates_read() {
        let out = |usage, index, components, written| LinkOutput {
            semantic: Semantic::new(usage, index),
            components,
            written,
        };
        let input = |usage, index| LinkInput {
            semantic: Semantic::new(usage, index),
            centroid: false,
        };
        let mut vs = VertexLinkInterface {
            outputs: vec![
                out(Usage::Color, 0, 4, true),
                out(Usage::TexCoord, 0, 2, true),
            ],
        };
        let ps = PixelLinkInterface {
            inputs: vec![
                input(Usage::TexCoord, 0),
                input(Usage::TexCoord, 3),
                input(Usage::Color, 0),
            ],
            reads_face: false,
        };
        vs.with_sprite_texture_coordinates(&ps);
        assert_eq!(
            vs.outputs,
            vec![
                out(Usage::Color, 0, 4, true),
                out(Usage::TexCoord, 0, 4, true),
                out(Usage::TexCoord, 3, 4, true),
            ]
        );
    }
}
