//! `d3d9-translate info FILE [--json] [--d3d8]`: whether a Direct3D 9 (or, with `--d3d8`,
//! Direct3D 8) device accepts the shader, and what it declares and uses — version,
//! instruction count, inputs and outputs (from [`Signature`]), samplers, `def`/`defi`/`defb`
//! constants, and the register indices read and written per register file.

use crate::io::{print, read_program, CliError};
use d3d9_translator::asm::disasm::{float_text, register_text};
use d3d9_translator::bytecode::{
    Declaration, Literal, Opcode, Program, Register, RegisterFile, Stage, Version,
};
use d3d9_translator::ctab::{ConstantTable, RegisterSet};
use d3d9_translator::signature::{Signature, SignatureElement};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `info`.
#[derive(clap::Args)]
pub struct Args {
    /// Shader bytecode (raw little-endian tokens, as `fxc /Fo` writes); `-` reads stdin.
    file: PathBuf,
    /// Print JSON instead of a readable summary.
    #[arg(long)]
    json: bool,
    /// Judge the shader as a Direct3D 8 device does (vs_1_0–vs_1_1 and ps_1_0–ps_1_4 only;
    /// vertex inputs bound by the declaration's register numbers, no `dcl` needed).
    #[arg(long)]
    d3d8: bool,
}

pub fn run(args: &Args) -> Result<(), CliError> {
    let program = read_program(&args.file)?;
    let mut info = Info::of(&program);
    info.check = Some(Verdict::of(&program, args.d3d8));
    if args.json {
        // Serialising plain strings, numbers and vectors cannot fail.
        let text = serde_json::to_string_pretty(&info).unwrap_or_default();
        print(&format!("{text}\n"))
    } else {
        print(&info.summary())
    }
}

/// Whether the shader's creation call would succeed on the device `info` judges for.
#[derive(Debug, Serialize)]
pub struct Verdict {
    /// `Direct3D 9` (an SM3 hardware device) or `Direct3D 8` (`--d3d8`).
    device: &'static str,
    valid: bool,
    /// The rule it breaks, or what this project does not support.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

impl Verdict {
    fn of(program: &Program, d3d8: bool) -> Verdict {
        let caps = d3d9_translate::caps::device_caps(false, d3d8);
        let result = d3d9_translator::check::check(program, program.stage(), &caps);
        Verdict {
            device: if d3d8 { "Direct3D 8" } else { "Direct3D 9" },
            valid: result.is_ok(),
            reason: result.err().map(|e| e.to_string()),
        }
    }
}

/// The summary `info` prints.
#[derive(Debug, Serialize)]
pub struct Info {
    /// `check`'s verdict for the device judged (set by `run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<Verdict>,
    /// Profile name: `vs_2_0`, `ps_3_0`, ...
    version: String,
    /// `vertex` or `pixel`.
    stage: &'static str,
    major: u8,
    minor: u8,
    /// All decoded instructions, `dcl`/`def*` included.
    instructions: usize,
    /// Instructions other than `dcl`, `def`, `defi`, `defb`.
    executable_instructions: usize,
    /// Comment blocks (CTAB and others).
    comment_blocks: usize,
    inputs: Vec<Element>,
    outputs: Vec<Element>,
    samplers: Vec<Sampler>,
    constants: Vec<Constant>,
    registers: Vec<FileUse>,
    /// The `CTAB` block's table (names of the `c#`/`i#`/`b#`/`s#` registers), if there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    constant_table: Option<Table>,
    /// Why the `CTAB` block could not be read, if it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    constant_table_error: Option<String>,
}

/// A `CTAB` constant table.
#[derive(Debug, Serialize)]
struct Table {
    creator: String,
    /// Target profile; absent when the table names none (vkd3d).
    target: Option<String>,
    flags: u32,
    constants: Vec<TableConstant>,
}

/// One named uniform of the constant table.
#[derive(Debug, Serialize)]
struct TableConstant {
    name: String,
    /// `float4`, `bool`, `int4`, `sampler`.
    register_set: &'static str,
    /// `c4-c7`.
    registers: String,
    register_index: u16,
    register_count: u16,
    /// `scalar`, `vector`, `matrix_rows`, `matrix_columns`, `object`, `struct`.
    class: &'static str,
    /// `float`, `sampler2d`, ...
    r#type: &'static str,
    rows: u16,
    columns: u16,
    elements: u16,
    /// HLSL-like spelling of the whole type.
    hlsl_type: String,
    /// Default value tokens, four per register.
    #[serde(skip_serializing_if = "Option::is_none")]
    default_value: Option<Vec<u32>>,
}

impl Table {
    fn of(table: &ConstantTable) -> Table {
        Table {
            creator: table.creator.clone(),
            target: table.target.clone(),
            flags: table.flags,
            constants: table
                .constants
                .iter()
                .map(|c| TableConstant {
                    name: c.name.clone(),
                    register_set: match c.register_set {
                        RegisterSet::Bool => "bool",
                        RegisterSet::Int4 => "int4",
                        RegisterSet::Float4 => "float4",
                        RegisterSet::Sampler => "sampler",
                    },
                    registers: c.registers(),
                    register_index: c.register_index,
                    register_count: c.register_count,
                    class: c.ty.class.name(),
                    r#type: c.ty.ty.name(),
                    rows: c.ty.rows,
                    columns: c.ty.columns,
                    elements: c.ty.elements,
                    hlsl_type: c.ty.to_string(),
                    default_value: c.default_value.clone(),
                })
                .collect(),
        }
    }
}

/// One input or output.
#[derive(Debug, Serialize)]
struct Element {
    register: String,
    usage: &'static str,
    usage_index: u8,
    write_mask: String,
    /// Stated by a `dcl` (false: implied by a fixed register or by use).
    declared: bool,
}

/// A declared sampler.
#[derive(Debug, Serialize)]
struct Sampler {
    register: String,
    index: u32,
    /// `2d`, `cube`, `volume` (or `unknown`).
    texture_type: &'static str,
}

/// A constant set by `def`, `defi` or `defb`.
#[derive(Debug, Serialize)]
struct Constant {
    register: String,
    /// `float`, `int` or `bool`.
    kind: &'static str,
    /// The values: numbers for `def`/`defi` (null for a float that is not finite), one
    /// boolean for `defb`.
    values: Vec<serde_json::Value>,
    /// The raw tokens.
    bits: Vec<u32>,
}

/// Which indices of one register file the shader reads and writes (declarations excluded).
#[derive(Debug, Serialize)]
struct FileUse {
    file: &'static str,
    read: Vec<u32>,
    written: Vec<u32>,
    /// Whether some read or write is relative (`c[a0.x + n]`): then the listed index is
    /// only the base.
    relative: bool,
}

impl Info {
    /// Gather the summary of `program`.
    pub fn of(program: &Program) -> Info {
        let version = program.version;
        let signature = Signature::of(program);
        let element = |e: &SignatureElement| Element {
            register: register_text(&e.register, version),
            usage: e.semantic.usage.name(),
            usage_index: e.semantic.index,
            write_mask: e.mask.letters(),
            declared: e.declared,
        };
        let mut samplers = Vec::new();
        let mut constants = Vec::new();
        for inst in &program.instructions {
            let Some(dst) = inst.dst else { continue };
            if let (Opcode::Dcl, Some(Declaration::Sampler(ty))) = (inst.opcode, inst.decl) {
                samplers.push(Sampler {
                    register: register_text(&dst.reg, version),
                    index: dst.reg.index,
                    texture_type: ty.name(),
                });
            }
            if let Some(literal) = inst.literal {
                constants.push(constant(&dst.reg, literal, version));
            }
        }
        let (constant_table, constant_table_error) = match ConstantTable::of(program) {
            None => (None, None),
            Some(Ok(t)) => (Some(Table::of(&t)), None),
            Some(Err(e)) => (None, Some(e.to_string())),
        };
        Info {
            check: None,
            constant_table,
            constant_table_error,
            version: version.profile(),
            stage: match version.stage {
                Stage::Vertex => "vertex",
                Stage::Pixel => "pixel",
            },
            major: version.major,
            minor: version.minor,
            instructions: program.instructions.len(),
            executable_instructions: program
                .instructions
                .iter()
                .filter(|i| !i.opcode.is_declaration())
                .count(),
            comment_blocks: program.comments.len(),
            inputs: signature.inputs.iter().map(element).collect(),
            outputs: signature.outputs.iter().map(element).collect(),
            samplers,
            constants,
            registers: register_use(program),
        }
    }

    /// The readable form.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}: {} instructions ({} executable), {} comment blocks",
            self.version, self.instructions, self.executable_instructions, self.comment_blocks
        );
        if let Some(v) = &self.check {
            let _ = match &v.reason {
                None => writeln!(s, "{}: valid", v.device),
                Some(r) => writeln!(s, "{}: {r}", v.device),
            };
        }
        for (title, list) in [("inputs", &self.inputs), ("outputs", &self.outputs)] {
            let _ = writeln!(s, "{title}:{}", if list.is_empty() { " none" } else { "" });
            for e in list {
                let _ = writeln!(
                    s,
                    "  {:<8} {:<14} .{}{}",
                    e.register,
                    format!("{}{}", e.usage, e.usage_index),
                    e.write_mask,
                    if e.declared { "" } else { "  (implied)" }
                );
            }
        }
        let _ = writeln!(
            s,
            "samplers:{}",
            if self.samplers.is_empty() {
                " none"
            } else {
                ""
            }
        );
        for smp in &self.samplers {
            let _ = writeln!(s, "  {:<8} {}", smp.register, smp.texture_type);
        }
        let _ = writeln!(
            s,
            "constants:{}",
            if self.constants.is_empty() {
                " none"
            } else {
                ""
            }
        );
        for c in &self.constants {
            let values: Vec<String> = match c.kind {
                "float" => c.bits.iter().map(|&b| float_text(b)).collect(),
                _ => c.values.iter().map(ToString::to_string).collect(),
            };
            let _ = writeln!(s, "  {:<8} {}", c.register, values.join(", "));
        }
        let _ = writeln!(
            s,
            "registers:{}",
            if self.registers.is_empty() {
                " none"
            } else {
                ""
            }
        );
        for f in &self.registers {
            let _ = writeln!(
                s,
                "  {:<8} read {:<16} written {}{}",
                f.file,
                ranges(&f.read),
                ranges(&f.written),
                if f.relative { "  (relative)" } else { "" }
            );
        }
        if let Some(e) = &self.constant_table_error {
            let _ = writeln!(s, "constant table: {e}");
        }
        if let Some(t) = &self.constant_table {
            let _ = writeln!(
                s,
                "constant table ({}{}):{}",
                t.creator,
                t.target
                    .as_ref()
                    .map(|x| format!(", {x}"))
                    .unwrap_or_default(),
                if t.constants.is_empty() { " none" } else { "" }
            );
            for c in &t.constants {
                let default = c
                    .default_value
                    .as_ref()
                    .map(|v| {
                        let values: Vec<String> = v.iter().map(|&b| float_text(b)).collect();
                        format!("  = {}", values.join(", "))
                    })
                    .unwrap_or_default();
                let _ = writeln!(
                    s,
                    "  {:<8} {:<20} {}{default}",
                    c.registers, c.hlsl_type, c.name
                );
            }
        }
        s
    }
}

fn constant(reg: &Register, literal: Literal, version: Version) -> Constant {
    let register = register_text(reg, version);
    match literal {
        Literal::Float(bits) => Constant {
            register,
            kind: "float",
            values: bits
                .iter()
                .map(|&b| {
                    serde_json::Number::from_f64(f64::from(f32::from_bits(b)))
                        .map_or(serde_json::Value::Null, serde_json::Value::Number)
                })
                .collect(),
            bits: bits.to_vec(),
        },
        Literal::Int(v) => Constant {
            register,
            kind: "int",
            values: v.iter().map(|&x| serde_json::Value::from(x)).collect(),
            bits: v.iter().map(|&x| x as u32).collect(),
        },
        Literal::Bool(b) => Constant {
            register,
            kind: "bool",
            values: vec![serde_json::Value::Bool(b != 0)],
            bits: vec![b],
        },
    }
}

/// The file's name for `registers`: its register prefix (`r`, `oT`, `aL`), except `rastout`
/// (oPos = 0, oFog = 1, oPts = 2) and `misc` (vPos = 0, vFace = 1). The float constant banks
/// (`CONST2`–`CONST4`, `c2048`–`c8191`) are listed under `c` by their flat index.
fn file_name(file: RegisterFile) -> &'static str {
    match file {
        RegisterFile::RastOut => "rastout",
        RegisterFile::MiscType => "misc",
        other => other.prefix(),
    }
}

#[derive(Default)]
struct Use {
    read: BTreeSet<u32>,
    written: BTreeSet<u32>,
    relative: bool,
}

/// Register indices read and written, per file, in [`RegisterFile`] order. Declarations
/// (`dcl`, `def*`) are not uses; relative-address registers (`a0`, `aL`) count as reads.
fn register_use(program: &Program) -> Vec<FileUse> {
    let mut files: BTreeMap<RegisterFile, Use> = BTreeMap::new();
    let mut note = |reg: &Register, write: bool| {
        let (file, index) = match reg.float_constant_index() {
            Some(flat) => (RegisterFile::Const, flat),
            None => (reg.file, reg.index),
        };
        let u = files.entry(file).or_default();
        if write {
            u.written.insert(index);
        } else {
            u.read.insert(index);
        }
        if let Some(rel) = reg.relative {
            u.relative = true;
            files.entry(rel.file).or_default().read.insert(rel.index);
        }
    };
    for inst in &program.instructions {
        if inst.opcode.is_declaration() {
            continue;
        }
        if let Some(dst) = &inst.dst {
            note(&dst.reg, true);
        }
        for src in inst.src.iter().chain(&inst.predicate) {
            note(&src.reg, false);
        }
    }
    files
        .into_iter()
        .map(|(file, u)| FileUse {
            file: file_name(file),
            read: u.read.into_iter().collect(),
            written: u.written.into_iter().collect(),
            relative: u.relative,
        })
        .collect()
}

/// `0-3,7` for a sorted index list; `-` when empty.
fn ranges(indices: &[u32]) -> String {
    if indices.is_empty() {
        return "-".into();
    }
    let mut parts = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let start = indices[i];
        let mut end = start;
        while i + 1 < indices.len() && indices[i + 1] == end + 1 {
            end += 1;
            i += 1;
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_compress_runs() {
        assert_eq!(ranges(&[]), "-");
        assert_eq!(ranges(&[0, 1, 2, 3, 7, 9, 10]), "0-3,7,9-10");
    }
}
