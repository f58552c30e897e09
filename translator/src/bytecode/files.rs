//! The register files of each shader version and device: which exist, how many registers each
//! has, and which may be relatively addressed. This is the one statement of those facts: the
//! assembler, the checker and the vertex-declaration binding read it, and the lifter's
//! register counts are to come from it too ([`float_constants`], [`file_rule`]).
//!
//! Sources: the "Registers" page of each profile in the SDK (vs_1_1, vs_2_0, vs_2_x, vs_3_0,
//! ps_1_x, ps_2_0, ps_2_x, ps_3_0), `d3d9-vertex-model.md` §1, `D3DCAPS9`
//! (`MaxVertexShaderConst`, `VS20Caps.NumTemps`, `PS20Caps.NumTemps`), Wine's
//! `test_unsupported_shaders` (c256 under hardware vertex processing, i16, b16, c8 in ps_1_x,
//! c32 in ps_2_0, c224 in ps_3_0; c256 accepted on software and mixed devices) and, where those
//! are silent, the register tables of Wine's port of the native assembler
//! (`vs_1_reg_allowed` ... `ps_3_reg_allowed`).
//!
//! Choices where the SDK is silent:
//! - Software limits (8192 `c#`, 2048 `i#`/`b#`) apply to every vertex shader version on a
//!   software or mixed device, and to the `_sw` profiles.
//! - `c2048`–`c8191` are the register files `CONST2`, `CONST3` and `CONST4`
//!   (`D3DSPR_CONST2` = 11 … `D3DSPR_CONST4` = 13), 2048 registers each, since the index field
//!   holds 11 bits; they exist only under the software limits and are never relatively
//!   addressed.
//! - Relative addressing: `c#` by `a0` (every vertex version) or `aL` (vs_2_0 and later, and
//!   ps_3_0, which Wine's assembler refuses but the SDK's `loop` page allows); `v#` by `aL` in
//!   vs_3_0 and ps_3_0; `o#` by `aL` in vs_3_0; nothing else.

use super::{Register, RegisterFile, Stage, Version};

/// How the device processes vertices (`D3DCREATE_*_VERTEXPROCESSING`). The one type every
/// stage uses: the register limits below, the checker's device, the vertex-declaration binding
/// and the lifter's constant buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum VertexProcessing {
    /// `D3DCREATE_HARDWARE_VERTEXPROCESSING`: hardware limits (`MaxVertexShaderConst`
    /// float constants, 16 `i#` and 16 `b#`).
    #[default]
    Hardware,
    /// `D3DCREATE_SOFTWARE_VERTEXPROCESSING`: software limits (8192 `c#`, 2048 `i#`/`b#`).
    Software,
    /// `D3DCREATE_MIXED_VERTEXPROCESSING`. A shader created on a mixed device may later run in
    /// either mode, so creation validates against the software limits. Wine's `device.c`
    /// expects `vs_1_256`/`vs_3_256` to be accepted on a mixed device even after
    /// `SetSoftwareVertexProcessing(FALSE)`.
    Mixed,
}

impl VertexProcessing {
    /// Whether vertex shaders get the software-vertex-processing limits (8192 `c#`, 2048
    /// `i#`/`b#`): software and mixed devices.
    pub fn software_limits(self) -> bool {
        !matches!(self, VertexProcessing::Hardware)
    }
}

/// A device capability that sets how many registers a file has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CountCap {
    /// `D3DCAPS9.MaxVertexShaderConst`: float constants under hardware vertex processing.
    MaxVertexShaderConst,
    /// `D3DCAPS9.VS20Caps.NumTemps` (12..=32): the `r#` of vs_2_x.
    Vs20NumTemps,
    /// `D3DCAPS9.PS20Caps.NumTemps` (12..=32): the `r#` of ps_2_x.
    Ps20NumTemps,
}

impl CountCap {
    /// The `D3DCAPS9` field's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            CountCap::MaxVertexShaderConst => "MaxVertexShaderConst",
            CountCap::Vs20NumTemps => "VS20Caps.NumTemps",
            CountCap::Ps20NumTemps => "PS20Caps.NumTemps",
        }
    }

    /// The values a device may report, (lowest, highest): a hardware device exposes at most
    /// the 8192 float constants a software one has (Wine's d3d8 tests model a device with 3).
    pub fn range(self) -> (u32, u32) {
        match self {
            CountCap::MaxVertexShaderConst => (0, 8192),
            CountCap::Vs20NumTemps | CountCap::Ps20NumTemps => (12, 32),
        }
    }

    /// The value of the typical shader model 3 device this project models by default (256
    /// float constants, 32 temporaries), which `check::DeviceCaps::default` reports and the
    /// lifter sizes its hardware constant buffer by.
    pub fn typical(self) -> u32 {
        match self {
            CountCap::MaxVertexShaderConst => 256,
            CountCap::Vs20NumTemps | CountCap::Ps20NumTemps => 32,
        }
    }
}

/// How many registers a file has: a number, or a device capability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegisterCount {
    Fixed(u32),
    /// As many as the device reports in this capability (clamped to [`CountCap::range`]).
    Cap(CountCap),
}

impl RegisterCount {
    /// The count on a device reporting `cap_value` for the capability (ignored when fixed).
    pub fn on_device(self, cap_value: impl FnOnce(CountCap) -> u32) -> u32 {
        match self {
            RegisterCount::Fixed(n) => n,
            RegisterCount::Cap(cap) => {
                let (lo, hi) = cap.range();
                cap_value(cap).clamp(lo, hi)
            }
        }
    }

    /// The most registers any device may expose (what an assembler accepts).
    pub fn max(self) -> u32 {
        self.on_device(|cap| cap.range().1)
    }

    /// The count on the typical device ([`CountCap::typical`]).
    pub fn typical(self) -> u32 {
        self.on_device(CountCap::typical)
    }
}

/// How a register file exists in one version on one kind of device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileRule {
    /// Registers `0..count` exist (for a relatively addressed register, `count` bounds the
    /// base index).
    pub count: RegisterCount,
    /// Whether `file[a0.x + n]` is allowed.
    pub relative_a0: bool,
    /// Whether `file[aL + n]` is allowed.
    pub relative_loop: bool,
}

impl FileRule {
    /// Whether relative addressing by `address` (`a0` or `aL`) is allowed.
    pub fn relative_by(&self, address: RegisterFile) -> bool {
        match address {
            RegisterFile::Addr => self.relative_a0,
            RegisterFile::Loop => self.relative_loop,
            _ => false,
        }
    }
}

/// Vertex shader input registers `v0`–`v15`, in every vertex shader version.
pub const VERTEX_INPUTS: u32 = 16;

/// Registers in each `c#` bank: the index field holds 11 bits, so `c2048`–`c8191` are the
/// register files `CONST2`–`CONST4`.
pub const CONST_BANK_SIZE: u32 = 2048;

/// The float constant files in bank order: `c0`–`c2047`, `c2048`–`c4095`, `c4096`–`c6143`,
/// `c6144`–`c8191`.
pub const CONST_BANKS: [RegisterFile; 4] = [
    RegisterFile::Const,
    RegisterFile::Const2,
    RegisterFile::Const3,
    RegisterFile::Const4,
];

/// Whether a shader of `version` on a device with `processing` gets the software limits: a
/// vertex shader on a software or mixed device, or a `_sw` profile.
pub fn software_limits(version: Version, processing: VertexProcessing) -> bool {
    version.is_software() || (version.stage == Stage::Vertex && processing.software_limits())
}

/// The float constants `c#` a shader may name, counting every bank: `MaxVertexShaderConst`
/// (hardware vertex processing) or 8192 (software) in vertex shaders; 8, 32 or 224 in ps_1_x,
/// ps_2_x and ps_3_0 (8192 in the `_sw` profiles).
pub fn float_constants(version: Version, processing: VertexProcessing) -> RegisterCount {
    if software_limits(version, processing) {
        return RegisterCount::Fixed(8192);
    }
    match (version.stage, version.major) {
        (Stage::Vertex, _) => RegisterCount::Cap(CountCap::MaxVertexShaderConst),
        (Stage::Pixel, 1) => RegisterCount::Fixed(8),
        (Stage::Pixel, 2) => RegisterCount::Fixed(32),
        (Stage::Pixel, _) => RegisterCount::Fixed(224),
    }
}

/// The register file `file` in a shader of `version` on a device with `processing`, or `None`
/// when the version has no such register file there.
pub fn file_rule(
    version: Version,
    file: RegisterFile,
    processing: VertexProcessing,
) -> Option<FileRule> {
    use RegisterFile::*;
    let sw = software_limits(version, processing);
    let (major, minor) = (version.major, version.minor);
    let vs = version.stage == Stage::Vertex;
    let fixed = |n: u32| Some(RegisterCount::Fixed(n));
    let count = match file {
        Const => {
            let all = float_constants(version, processing);
            Some(match all {
                RegisterCount::Fixed(n) => RegisterCount::Fixed(n.min(CONST_BANK_SIZE)),
                cap => cap,
            })
        }
        // The banks past c2047 exist under software vertex processing only (`_ => None`).
        Const2 | Const3 | Const4 if sw => fixed(CONST_BANK_SIZE),
        // Integer and boolean constants: vs_2_0+, ps_2_x+.
        ConstInt | ConstBool => {
            let exists = if vs {
                major >= 2
            } else {
                version.at_least(2, 1)
            };
            if !exists {
                None
            } else if sw {
                fixed(2048)
            } else {
                fixed(16)
            }
        }
        Temp => match (version.stage, major, minor) {
            (Stage::Vertex, 1, _) | (Stage::Vertex, 2, 0) => fixed(12),
            (Stage::Vertex, 2, 1) => Some(RegisterCount::Cap(CountCap::Vs20NumTemps)),
            (Stage::Vertex, _, _) => fixed(32),
            (Stage::Pixel, 1, 4) => fixed(6),
            (Stage::Pixel, 1, _) => fixed(2),
            (Stage::Pixel, 2, 0) => fixed(12),
            (Stage::Pixel, 2, 1) => Some(RegisterCount::Cap(CountCap::Ps20NumTemps)),
            (Stage::Pixel, _, _) => fixed(32),
        },
        Input => match (vs, major) {
            (true, _) => fixed(VERTEX_INPUTS),
            (false, 1 | 2) => fixed(2),
            (false, _) => fixed(10),
        },
        Addr if vs => fixed(1),
        RastOut if vs && major < 3 => fixed(3),
        AttrOut if vs && major < 3 => fixed(2),
        TexCrdOut if vs && major < 3 => fixed(8),
        // vs_3_sw has 16 (the SDK's "Software Shaders" page).
        Output if vs && major >= 3 && version.is_software() => fixed(16),
        Output if vs && major >= 3 => fixed(12),
        Sampler if vs && major >= 3 => fixed(4),
        Sampler if !vs && major >= 2 => fixed(16),
        Texture if !vs => match (major, minor) {
            (1, 4) => fixed(6),
            (1, _) => fixed(4),
            (2, _) => fixed(8),
            _ => None,
        },
        Loop if vs && major >= 2 => fixed(1),
        Loop if !vs && major >= 3 => fixed(1),
        Label | Predicate => {
            let exists = if vs && file == Label {
                major >= 2
            } else {
                version.at_least(2, 1)
            };
            if !exists {
                None
            } else if file == Label {
                // 2048 in every version: the SDK's register tables give vs_2_0/vs_2_x/ps_2_x
                // 16 and vs_3_0/ps_3_0 and vs_2_sw ("Software Shaders") 2048, but D3DX's
                // assembler accepts `call l2047` in vs_2_0 and ps_2_x (Wine's `asm.c`
                // pairs, checked on Windows), and the assembler and the checker share this
                // table.
                fixed(2048)
            } else {
                fixed(1)
            }
        }
        ColorOut if !vs && major >= 2 => fixed(4),
        DepthOut if !vs && major >= 2 => fixed(1),
        MiscType if !vs && major >= 3 => fixed(2),
        _ => None,
    }?;
    let (relative_a0, relative_loop) = match (version.stage, file) {
        (Stage::Vertex, Const) => (true, major >= 2),
        (Stage::Vertex, Input | Output) => (false, major >= 3),
        (Stage::Pixel, Input | Const) => (false, major >= 3),
        _ => (false, false),
    };
    Some(FileRule {
        count,
        relative_a0,
        relative_loop,
    })
}

impl RegisterFile {
    /// Whether an ordinary instruction may write this file (constants, samplers,
    /// `vPos`/`vFace`, `aL` and labels cannot; `def*`/`dcl` have their own rules).
    pub fn is_writable(self) -> bool {
        use RegisterFile::*;
        !matches!(
            self,
            Const
                | Const2
                | Const3
                | Const4
                | ConstInt
                | ConstBool
                | Sampler
                | MiscType
                | Loop
                | Label
                | TempFloat16
        )
    }

    /// Whether this file can be read (output registers cannot).
    pub fn is_readable(self) -> bool {
        use RegisterFile::*;
        !matches!(
            self,
            RastOut | AttrOut | TexCrdOut | Output | ColorOut | DepthOut
        )
    }

    /// For the float constant files, the bank (0 for `c0`–`c2047`, 1–3 for `CONST2`–`CONST4`).
    pub fn const_bank(self) -> Option<u32> {
        CONST_BANKS
            .iter()
            .position(|&f| f == self)
            .map(|bank| bank as u32)
    }
}

impl Register {
    /// The register for float constant `c{index}` (`index` < 8192): `c3056` is `CONST2`
    /// register 1008. `None` past `c8191`.
    pub fn float_constant(index: u32) -> Option<Register> {
        let bank = CONST_BANKS.get((index / CONST_BANK_SIZE) as usize)?;
        Some(Register::new(*bank, index % CONST_BANK_SIZE))
    }

    /// The flat index of a float constant register across the banks (`bank * 2048 + index`):
    /// `c3056` (`CONST2` register 1008) is 3056. `None` for other files. With relative
    /// addressing this is the base the address register is added to.
    pub fn float_constant_index(&self) -> Option<u32> {
        let bank = self.file.const_bank()?;
        Some(bank * CONST_BANK_SIZE + self.index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VS11: Version = Version::new(Stage::Vertex, 1, 1);
    const VS20: Version = Version::new(Stage::Vertex, 2, 0);
    const VS30: Version = Version::new(Stage::Vertex, 3, 0);
    const VS3SW: Version = Version::new(Stage::Vertex, 3, 0xFF);
    const PS13: Version = Version::new(Stage::Pixel, 1, 3);
    const PS20: Version = Version::new(Stage::Pixel, 2, 0);
    const PS30: Version = Version::new(Stage::Pixel, 3, 0);
    const HW: VertexProcessing = VertexProcessing::Hardware;
    const SW: VertexProcessing = VertexProcessing::Software;

    fn count(v: Version, file: RegisterFile, vp: VertexProcessing) -> Option<u32> {
        file_rule(v, file, vp).map(|r| r.count.typical())
    }

    #[test]
    fn register_files_per_version() {
        use RegisterFile::*;
        assert_eq!(count(VS11, Sampler, HW), None);
        assert_eq!(count(PS13, Temp, HW), Some(2));
        assert_eq!(count(PS30, ColorOut, HW), Some(4));
        assert_eq!(count(PS30, Addr, HW), None);
        assert_eq!(count(PS20, Loop, HW), None);
        assert_eq!(count(PS20, ConstBool, HW), None);
        assert_eq!(count(PS20, Temp, HW), Some(12));
        assert!(file_rule(VS30, Input, HW).is_some_and(|r| r.relative_loop && !r.relative_a0));
        assert!(file_rule(VS30, Temp, HW).is_some_and(|r| !r.relative_loop));
        assert!(file_rule(VS11, Const, HW).is_some_and(|r| r.relative_a0 && !r.relative_loop));
    }

    #[test]
    fn constant_banks_exist_only_under_software_limits() {
        use RegisterFile::*;
        assert_eq!(count(VS20, Const, HW), Some(256));
        assert_eq!(count(VS20, Const2, HW), None);
        for file in [Const, Const2, Const3, Const4] {
            assert_eq!(count(VS20, file, SW), Some(2048), "{file:?}");
            assert_eq!(count(VS3SW, file, HW), Some(2048), "{file:?}");
            assert!(file_rule(VS30, file, SW).is_some_and(|r| r.relative_a0 == (file == Const)));
        }
        assert_eq!(count(VS30, ConstInt, VertexProcessing::Mixed), Some(2048));
        assert_eq!(float_constants(VS30, SW), RegisterCount::Fixed(8192));
    }

    #[test]
    fn flat_constant_index_round_trips() {
        for index in [0, 255, 2047, 2048, 3056, 4096, 6143, 6144, 8191] {
            let reg = Register::float_constant(index).expect("c# < 8192");
            assert_eq!(reg.index, index % 2048);
            assert_eq!(reg.float_constant_index(), Some(index));
        }
        assert_eq!(
            Register::float_constant(3056),
            Some(Register::new(RegisterFile::Const2, 1008))
        );
        assert_eq!(Register::float_constant(8192), None);
        assert_eq!(
            Register::new(RegisterFile::Temp, 3).float_constant_index(),
            None
        );
    }
}
