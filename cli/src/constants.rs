//! Constant names in translated code: the shader's `CTAB` table (what fxc wrote: HLSL names,
//! types and registers) as a comment block at the top of every text output, each register
//! range with the member of the translated module that holds it, so that a porter reading
//! the output sees that `c[4]..c[7]` is `WorldViewProj`. SPIR-V output, which is binary, gets
//! no comment; `info --json` gives the same table as data.

use d3d9_translator::ctab::{Constant, ConstantTable, RegisterSet};
use d3d9_translator::lift::ShaderInterface;
use std::fmt::Write;

/// Where a constant's registers live in the translated module, in the module's own names
/// (the register arrays `c`, `i`, `b`; sampler `s#n` as `sN_texture`/`sN_sampler`).
fn location(c: &Constant, interface: &ShaderInterface) -> String {
    let first = u32::from(c.register_index);
    let last = first + u32::from(c.register_count.max(1)) - 1;
    let span = |array: &str, group: u32, binding: u32| {
        let range = if last > first {
            format!("{array}[{first}]..{array}[{last}]")
        } else {
            format!("{array}[{first}]")
        };
        format!("{range} (group {group}, binding {binding})")
    };
    match c.register_set {
        RegisterSet::Float4 => match interface.float_constants {
            Some(b) => span("c", b.group, b.binding),
            None => "not read by the shader".into(),
        },
        RegisterSet::Int4 => match interface.int_constants {
            Some(b) => span("i", b.group, b.binding),
            None => "not read by the shader".into(),
        },
        RegisterSet::Bool => match interface.bool_constants {
            Some(b) => {
                let bits = if last > first {
                    format!("bits {first}..{last}")
                } else {
                    format!("bit {first}")
                };
                format!("b {bits} (group {}, binding {})", b.group, b.binding)
            }
            None => "not read by the shader".into(),
        },
        RegisterSet::Sampler => {
            let bound: Vec<String> = interface
                .samplers
                .iter()
                .filter(|s| s.register >= first && s.register <= last)
                .map(|s| {
                    format!(
                        "s{n}_texture, s{n}_sampler (group {}, bindings {}, {})",
                        s.group,
                        s.texture_binding,
                        s.sampler_binding,
                        n = s.register
                    )
                })
                .collect();
            if bound.is_empty() {
                "not read by the shader".into()
            } else {
                bound.join(", ")
            }
        }
    }
}

/// The comment block naming every constant of `table` for a text output (`comments`), or
/// `None` for a binary one (SPIR-V) and for a table without constants. Every line is a `//` comment, which
/// WGSL, MSL, HLSL and GLSL all accept before the first declaration (GLSL's `#version` may
/// follow comments).
pub fn header(
    table: &ConstantTable,
    interface: &ShaderInterface,
    comments: bool,
) -> Option<String> {
    if !comments || table.constants.is_empty() {
        return None;
    }
    let mut out = String::new();
    let target = table.target.as_deref().unwrap_or("no target");
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "// Constant table (CTAB, {target}, \"{}\"):",
        table.creator.replace(['\n', '\r'], " ")
    );
    let width = |f: fn(&Constant) -> usize| table.constants.iter().map(f).max().unwrap_or(0);
    let (rw, nw, tw) = (
        width(|c| c.registers().len()),
        width(|c| c.name.len()),
        width(|c| c.ty.to_string().len()),
    );
    for c in &table.constants {
        let name = c.name.replace(['\n', '\r'], " ");
        let _ = writeln!(
            out,
            "//   {:rw$}  {:nw$}  {:tw$}  -> {}",
            c.registers(),
            name,
            c.ty.to_string(),
            location(c, interface),
        );
    }
    Some(out)
}

/// `output` with the constant-name header of `table` in front, where the output takes
/// comments (`Lang::takes_comments`).
pub fn annotate(
    output: Vec<u8>,
    table: Option<&ConstantTable>,
    interface: &ShaderInterface,
    comments: bool,
) -> Vec<u8> {
    match table.and_then(|t| header(t, interface, comments)) {
        Some(h) => {
            let mut annotated = h.into_bytes();
            annotated.extend_from_slice(&output);
            annotated
        }
        None => output,
    }
}
