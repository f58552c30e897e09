//! The constant table (`CTAB` comment block) that fxc and vkd3d write into D3D9 shader
//! bytecode: which uniform name lives in which `c#`/`i#`/`b#`/`s#` registers, with its HLSL
//! type and default value.
//!
//! Layout (D3DX `D3DXSHADER_CONSTANTTABLE`): the comment block's first token is the fourcc
//! `CTAB`; every offset in the table counts bytes from the token after it. The header is seven
//! dwords (size = 28, creator, version, constant count, constant-info offset, flags, target);
//! each constant-info is 20 bytes (name, register set, index, count, reserved, type-info,
//! default value); each type-info is 16 bytes (class, type, rows, columns, elements, struct
//! member count, member-info offset); each member-info is 8 bytes (name, type-info). Strings
//! are NUL-terminated. Every offset and count is checked: a malformed table is a
//! [`CtabError`], never a panic.

use crate::bytecode::{Comment, Program};
use std::fmt;

/// `CTAB` as the comment block's first token.
pub const CTAB_FOURCC: [u8; 4] = *b"CTAB";

/// Size in bytes of the table header (`D3DXSHADER_CONSTANTTABLE`).
const HEADER_SIZE: u32 = 28;
/// Size in bytes of one `D3DXSHADER_CONSTANTINFO`.
const CONSTANT_INFO_SIZE: u32 = 20;
/// Size in bytes of one `D3DXSHADER_TYPEINFO`.
const TYPE_INFO_SIZE: u32 = 16;
/// Size in bytes of one `D3DXSHADER_STRUCTMEMBERINFO`.
const MEMBER_INFO_SIZE: u32 = 8;
/// How deeply structs may nest before the table is refused (a cycle of type-info offsets
/// would otherwise recurse forever).
pub const MAX_STRUCT_DEPTH: usize = 16;

/// Why a `CTAB` block could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CtabError {
    #[error("CTAB: table of {len} bytes is shorter than its 28-byte header")]
    TooShort { len: u32 },
    #[error("CTAB: header size field is {size}, expected 28")]
    HeaderSize { size: u32 },
    #[error("CTAB: {what} at byte {offset} (+{size}) runs past the table's {len} bytes")]
    OutOfRange {
        what: &'static str,
        offset: u32,
        size: u32,
        len: u32,
    },
    #[error("CTAB: {what} string at byte {offset} has no terminating NUL")]
    Unterminated { what: &'static str, offset: u32 },
    #[error("CTAB: constant {constant}: unknown register set {value}")]
    RegisterSet { constant: usize, value: u16 },
    #[error("CTAB: type at byte {offset}: unknown parameter class {value}")]
    Class { offset: u32, value: u16 },
    #[error("CTAB: type at byte {offset}: unknown parameter type {value}")]
    Type { offset: u32, value: u16 },
    #[error("CTAB: structs nest deeper than {MAX_STRUCT_DEPTH} levels (cyclic type offsets?)")]
    TooDeep,
}

/// `D3DXREGISTER_SET`: which register file a constant occupies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegisterSet {
    /// `b#` (`D3DXRS_BOOL` = 0).
    Bool,
    /// `i#` (`D3DXRS_INT4` = 1).
    Int4,
    /// `c#` (`D3DXRS_FLOAT4` = 2).
    Float4,
    /// `s#` (`D3DXRS_SAMPLER` = 3).
    Sampler,
}

impl RegisterSet {
    /// The set for a `D3DXREGISTER_SET` value.
    pub fn from_raw(value: u16) -> Option<Self> {
        Some(match value {
            0 => RegisterSet::Bool,
            1 => RegisterSet::Int4,
            2 => RegisterSet::Float4,
            3 => RegisterSet::Sampler,
            _ => return None,
        })
    }

    /// The register prefix in assembly: `b`, `i`, `c`, `s`.
    pub fn prefix(self) -> &'static str {
        match self {
            RegisterSet::Bool => "b",
            RegisterSet::Int4 => "i",
            RegisterSet::Float4 => "c",
            RegisterSet::Sampler => "s",
        }
    }
}

/// `D3DXPARAMETER_CLASS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParameterClass {
    Scalar,
    Vector,
    MatrixRows,
    MatrixColumns,
    Object,
    Struct,
}

impl ParameterClass {
    const ALL: [(ParameterClass, &'static str); 6] = [
        (ParameterClass::Scalar, "scalar"),
        (ParameterClass::Vector, "vector"),
        (ParameterClass::MatrixRows, "matrix_rows"),
        (ParameterClass::MatrixColumns, "matrix_columns"),
        (ParameterClass::Object, "object"),
        (ParameterClass::Struct, "struct"),
    ];

    /// The class for a `D3DXPARAMETER_CLASS` value (0–5).
    pub fn from_raw(value: u16) -> Option<Self> {
        Self::ALL.get(usize::from(value)).map(|(c, _)| *c)
    }

    /// Lower-case name (`matrix_columns`).
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("?", |(_, n)| n)
    }
}

/// `D3DXPARAMETER_TYPE` (0–19), by its lower-case D3DX name without `D3DXPT_`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParameterType(u16);

impl ParameterType {
    const NAMES: [&'static str; 20] = [
        "void",
        "bool",
        "int",
        "float",
        "string",
        "texture",
        "texture1d",
        "texture2d",
        "texture3d",
        "texturecube",
        "sampler",
        "sampler1d",
        "sampler2d",
        "sampler3d",
        "samplercube",
        "pixelshader",
        "vertexshader",
        "pixelfragment",
        "vertexfragment",
        "unsupported",
    ];

    /// The type for a `D3DXPARAMETER_TYPE` value, if it is one.
    pub fn from_raw(value: u16) -> Option<Self> {
        (usize::from(value) < Self::NAMES.len()).then_some(ParameterType(value))
    }

    /// The raw `D3DXPARAMETER_TYPE` value.
    pub fn raw(self) -> u16 {
        self.0
    }

    /// `float`, `sampler2d`, ...
    pub fn name(self) -> &'static str {
        Self::NAMES.get(usize::from(self.0)).copied().unwrap_or("?")
    }
}

/// `D3DXSHADER_TYPEINFO`: an HLSL type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeInfo {
    pub class: ParameterClass,
    pub ty: ParameterType,
    pub rows: u16,
    pub columns: u16,
    /// Array length (1 for a non-array).
    pub elements: u16,
    /// Struct members, in order (empty unless `class` is `Struct`).
    pub members: Vec<Member>,
}

impl fmt::Display for TypeInfo {
    /// HLSL-like spelling: `float4x4`, `float2[3]`, `sampler2d`, `struct { float4 a; }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.class {
            ParameterClass::Scalar | ParameterClass::Object => write!(f, "{}", self.ty.name())?,
            ParameterClass::Vector => write!(f, "{}{}", self.ty.name(), self.columns)?,
            ParameterClass::MatrixRows => write!(
                f,
                "row_major {}{}x{}",
                self.ty.name(),
                self.rows,
                self.columns
            )?,
            ParameterClass::MatrixColumns => {
                write!(f, "{}{}x{}", self.ty.name(), self.rows, self.columns)?
            }
            ParameterClass::Struct => {
                f.write_str("struct {")?;
                for m in &self.members {
                    write!(f, " {} {};", m.ty, m.name)?;
                }
                f.write_str(" }")?;
            }
        }
        if self.elements > 1 {
            write!(f, "[{}]", self.elements)?;
        }
        Ok(())
    }
}

/// `D3DXSHADER_STRUCTMEMBERINFO`: one member of a struct type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub name: String,
    pub ty: TypeInfo,
}

/// `D3DXSHADER_CONSTANTINFO`: one uniform and the registers it occupies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    pub name: String,
    pub register_set: RegisterSet,
    /// First register (`c4` → 4).
    pub register_index: u16,
    /// Number of consecutive registers.
    pub register_count: u16,
    pub ty: TypeInfo,
    /// Default value as raw tokens, four per register (`register_count * 4`), as fxc and
    /// vkd3d lay it out; `None` when the table gives none (offset 0) and for samplers.
    pub default_value: Option<Vec<u32>>,
}

impl Constant {
    /// Whether register `index` of `set` belongs to this constant.
    pub fn covers(&self, set: RegisterSet, index: u32) -> bool {
        set == self.register_set
            && index >= u32::from(self.register_index)
            && index < u32::from(self.register_index) + u32::from(self.register_count)
    }

    /// `c4` or `c4-c7`: the registers it occupies.
    pub fn registers(&self) -> String {
        let p = self.register_set.prefix();
        let first = self.register_index;
        if self.register_count <= 1 {
            format!("{p}{first}")
        } else {
            let last = u32::from(first) + u32::from(self.register_count) - 1;
            format!("{p}{first}-{p}{last}")
        }
    }
}

/// A parsed `CTAB` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantTable {
    /// Creator string (`Microsoft (R) HLSL Shader Compiler 9.29.952.3111`).
    pub creator: String,
    /// The shader version token the table was written for.
    pub version: u32,
    /// `D3DXSHADER` compile flags.
    pub flags: u32,
    /// Target profile (`vs_2_0`); `None` when the offset is 0, as vkd3d writes it.
    pub target: Option<String>,
    pub constants: Vec<Constant>,
}

impl ConstantTable {
    /// The table of `program`: its first comment block that starts with `CTAB`; `None` when
    /// there is none.
    pub fn of(program: &Program) -> Option<Result<ConstantTable, CtabError>> {
        program
            .comments
            .iter()
            .find(|c| c.fourcc() == Some(CTAB_FOURCC))
            .map(ConstantTable::from_comment)
    }

    /// Parse a comment block whose first token is `CTAB` (the caller checks the fourcc; the
    /// table is everything after it).
    pub fn from_comment(comment: &Comment) -> Result<ConstantTable, CtabError> {
        let bytes: Vec<u8> = comment
            .data
            .iter()
            .skip(1)
            .flat_map(|t| t.to_le_bytes())
            .collect();
        ConstantTable::parse(&bytes)
    }

    /// Parse the table bytes (those after the `CTAB` fourcc).
    pub fn parse(bytes: &[u8]) -> Result<ConstantTable, CtabError> {
        let r = Reader { bytes };
        if r.len() < HEADER_SIZE {
            return Err(CtabError::TooShort { len: r.len() });
        }
        let size = r.u32(0, "header")?;
        if size != HEADER_SIZE {
            return Err(CtabError::HeaderSize { size });
        }
        let creator = r.string(r.u32(4, "header")?, "creator")?;
        let version = r.u32(8, "header")?;
        let count = r.u32(12, "header")?;
        let info = r.u32(16, "header")?;
        let flags = r.u32(20, "header")?;
        let target = match r.u32(24, "header")? {
            0 => None,
            offset => Some(r.string(offset, "target")?),
        };
        // The whole array must fit before anything is allocated for it.
        r.range(
            info,
            count.saturating_mul(CONSTANT_INFO_SIZE),
            "constant info",
        )?;
        let mut constants = Vec::new();
        for i in 0..count {
            let at = info + i * CONSTANT_INFO_SIZE;
            let name = r.string(r.u32(at, "constant info")?, "constant name")?;
            let raw_set = r.u16(at + 4, "constant info")?;
            let register_set = RegisterSet::from_raw(raw_set).ok_or(CtabError::RegisterSet {
                constant: i as usize,
                value: raw_set,
            })?;
            let register_index = r.u16(at + 6, "constant info")?;
            let register_count = r.u16(at + 8, "constant info")?;
            let ty = r.type_info(r.u32(at + 12, "constant info")?, 0)?;
            let default_value = match r.u32(at + 16, "constant info")? {
                0 => None,
                _ if register_set == RegisterSet::Sampler => None,
                offset => {
                    let n = u32::from(register_count) * 4;
                    r.range(offset, n * 4, "default value")?;
                    Some(
                        (0..n)
                            .map(|k| r.u32(offset + k * 4, "default value"))
                            .collect::<Result<_, _>>()?,
                    )
                }
            };
            constants.push(Constant {
                name,
                register_set,
                register_index,
                register_count,
                ty,
                default_value,
            });
        }
        Ok(ConstantTable {
            creator,
            version,
            flags,
            target,
            constants,
        })
    }

    /// The constant that occupies register `index` of `set`, if any.
    pub fn constant_at(&self, set: RegisterSet, index: u32) -> Option<&Constant> {
        self.constants.iter().find(|c| c.covers(set, index))
    }

    /// What a porter calls register `index` of `set`: `WorldViewProj` for its first
    /// register, `WorldViewProj+2` for the third; `None` if no constant covers it.
    pub fn register_name(&self, set: RegisterSet, index: u32) -> Option<String> {
        let c = self.constant_at(set, index)?;
        let k = index - u32::from(c.register_index);
        Some(if k == 0 {
            c.name.clone()
        } else {
            format!("{}+{k}", c.name)
        })
    }
}

/// Bounds-checked little-endian reads from the table bytes.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn len(&self) -> u32 {
        u32::try_from(self.bytes.len()).unwrap_or(u32::MAX)
    }

    fn range(&self, offset: u32, size: u32, what: &'static str) -> Result<&[u8], CtabError> {
        let err = CtabError::OutOfRange {
            what,
            offset,
            size,
            len: self.len(),
        };
        let start = offset as usize;
        let end = start.checked_add(size as usize).ok_or(err.clone())?;
        self.bytes.get(start..end).ok_or(err)
    }

    fn u32(&self, offset: u32, what: &'static str) -> Result<u32, CtabError> {
        let b = self.range(offset, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u16(&self, offset: u32, what: &'static str) -> Result<u16, CtabError> {
        let b = self.range(offset, 2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// The NUL-terminated string at `offset` (bytes that are not UTF-8 become U+FFFD).
    fn string(&self, offset: u32, what: &'static str) -> Result<String, CtabError> {
        let rest = self.range(offset, 0, what).and_then(|_| {
            self.bytes
                .get(offset as usize..)
                .ok_or(CtabError::Unterminated { what, offset })
        })?;
        let end = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or(CtabError::Unterminated { what, offset })?;
        Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
    }

    fn type_info(&self, offset: u32, depth: usize) -> Result<TypeInfo, CtabError> {
        if depth > MAX_STRUCT_DEPTH {
            return Err(CtabError::TooDeep);
        }
        self.range(offset, TYPE_INFO_SIZE, "type info")?;
        let raw_class = self.u16(offset, "type info")?;
        let class = ParameterClass::from_raw(raw_class).ok_or(CtabError::Class {
            offset,
            value: raw_class,
        })?;
        let raw_type = self.u16(offset + 2, "type info")?;
        let ty = ParameterType::from_raw(raw_type).ok_or(CtabError::Type {
            offset,
            value: raw_type,
        })?;
        let rows = self.u16(offset + 4, "type info")?;
        let columns = self.u16(offset + 6, "type info")?;
        let elements = self.u16(offset + 8, "type info")?;
        let member_count = u32::from(self.u16(offset + 10, "type info")?);
        let member_info = self.u32(offset + 12, "type info")?;
        let mut members = Vec::new();
        if member_count > 0 {
            self.range(
                member_info,
                member_count * MEMBER_INFO_SIZE,
                "struct member info",
            )?;
            for m in 0..member_count {
                let at = member_info + m * MEMBER_INFO_SIZE;
                members.push(Member {
                    name: self.string(self.u32(at, "struct member info")?, "member name")?,
                    ty: self.type_info(self.u32(at + 4, "struct member info")?, depth + 1)?,
                });
            }
        }
        Ok(TypeInfo {
            class,
            ty,
            rows,
            columns,
            elements,
            members,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table with one `float4x4 WorldViewProj` in c0-c3 and one `sampler2D Tex` in s1, as
    /// fxc lays it out.
    fn sample() -> Vec<u8> {
        let mut t: Vec<u8> = Vec::new();
        let d = |t: &mut Vec<u8>, v: u32| t.extend_from_slice(&v.to_le_bytes());
        // header: size, creator, version, count, info, flags, target
        for v in [28, 160, 0xFFFE_0200, 2, 28, 0, 148] {
            d(&mut t, v);
        }
        // constant 0 at 28: name 68, set float4 index 0, count 4, type 100, default 0
        d(&mut t, 68);
        d(&mut t, 2);
        d(&mut t, 4);
        d(&mut t, 100);
        d(&mut t, 0);
        // constant 1 at 48: name 84, set sampler index 1, count 1, type 116, default 0
        d(&mut t, 84);
        d(&mut t, 3 | (1 << 16));
        d(&mut t, 1);
        d(&mut t, 116);
        d(&mut t, 0);
        t.extend_from_slice(b"WorldViewProj\0\0\0"); // 68..84
        t.extend_from_slice(b"Tex\0"); // 84..88
        t.extend_from_slice(&[0xAB; 12]); // 88..100
                                          // type 100: matrix_columns float 4x4, 1 element
        for v in [3 | (3 << 16), 4 | (4 << 16), 1, 0] {
            d(&mut t, v);
        }
        // type 116: object sampler2d
        for v in [4 | (12 << 16), 1 | (1 << 16), 1, 0] {
            d(&mut t, v);
        }
        t.extend_from_slice(&[0xAB; 16]); // 132..148
        t.extend_from_slice(b"vs_2_0\0\0"); // 148..156
        t.extend_from_slice(&[0xAB; 4]); // 156..160
        t.extend_from_slice(b"test\0\0\0\0");
        t
    }

    #[test]
    fn parses_names_registers_and_types() {
        let table = ConstantTable::parse(&sample()).expect("parses");
        assert_eq!(table.creator, "test");
        assert_eq!(table.target.as_deref(), Some("vs_2_0"));
        assert_eq!(table.constants.len(), 2);
        let wvp = &table.constants[0];
        assert_eq!(wvp.name, "WorldViewProj");
        assert_eq!(wvp.registers(), "c0-c3");
        assert_eq!(wvp.ty.to_string(), "float4x4");
        assert_eq!(table.constants[1].registers(), "s1");
        assert_eq!(table.constants[1].ty.to_string(), "sampler2d");
        assert_eq!(
            table.register_name(RegisterSet::Float4, 2).as_deref(),
            Some("WorldViewProj+2")
        );
        assert_eq!(table.register_name(RegisterSet::Float4, 4), None);
    }

    /// Every truncation and every single-byte change of a real table gives a table or a
    /// typed error, never a panic.
    #[test]
    fn truncated_and_mutated_tables_never_panic() {
        let good = sample();
        for len in 0..good.len() {
            let r = ConstantTable::parse(&good[..len]);
            if len < 28 {
                assert_eq!(r, Err(CtabError::TooShort { len: len as u32 }));
            }
        }
        for i in 0..good.len() {
            for v in [0u8, 1, 0x7F, 0xFF] {
                let mut bad = good.clone();
                bad[i] = v;
                let _ = ConstantTable::parse(&bad);
            }
        }
    }

    #[test]
    fn cyclic_struct_types_are_refused() {
        let mut t = sample();
        // Make WorldViewProj's type a struct with one member whose type is itself.
        t[100..104].copy_from_slice(&5u32.to_le_bytes());
        t[108..112].copy_from_slice(&(1u32 | (1 << 16)).to_le_bytes());
        t[112..116].copy_from_slice(&132u32.to_le_bytes());
        t[132..136].copy_from_slice(&84u32.to_le_bytes());
        t[136..140].copy_from_slice(&100u32.to_le_bytes());
        assert_eq!(ConstantTable::parse(&t), Err(CtabError::TooDeep));
    }
}
