//! `D3DDECLUSAGE`: the semantic names shared by vertex declarations and `dcl` instructions.

use std::fmt;

/// `D3DDECLUSAGE`: what a vertex element or a declared shader register means.
///
/// The same 14 values name vertex-declaration elements and the semantics of
/// `dcl_*` instructions; usage plus usage index (`TEXCOORD3`) is how D3D9
/// matches declaration elements to shader inputs and VS outputs to PS inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Usage {
    Position = 0,
    BlendWeight = 1,
    BlendIndices = 2,
    Normal = 3,
    PSize = 4,
    TexCoord = 5,
    Tangent = 6,
    Binormal = 7,
    TessFactor = 8,
    PositionT = 9,
    Color = 10,
    Fog = 11,
    Depth = 12,
    Sample = 13,
}

impl Usage {
    /// All usages in `D3DDECLUSAGE` order.
    pub const ALL: [Usage; 14] = [
        Usage::Position,
        Usage::BlendWeight,
        Usage::BlendIndices,
        Usage::Normal,
        Usage::PSize,
        Usage::TexCoord,
        Usage::Tangent,
        Usage::Binormal,
        Usage::TessFactor,
        Usage::PositionT,
        Usage::Color,
        Usage::Fog,
        Usage::Depth,
        Usage::Sample,
    ];

    /// The usage with this `D3DDECLUSAGE` value, if it is one.
    pub fn from_raw(raw: u32) -> Option<Usage> {
        Self::ALL.get(usize::try_from(raw).ok()?).copied()
    }

    /// The `D3DDECLUSAGE` value.
    pub fn raw(self) -> u32 {
        self as u32
    }

    /// The lower-case name fxc prints after `dcl_` (`texcoord`, `positiont`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Usage::Position => "position",
            Usage::BlendWeight => "blendweight",
            Usage::BlendIndices => "blendindices",
            Usage::Normal => "normal",
            Usage::PSize => "psize",
            Usage::TexCoord => "texcoord",
            Usage::Tangent => "tangent",
            Usage::Binormal => "binormal",
            Usage::TessFactor => "tessfactor",
            Usage::PositionT => "positiont",
            Usage::Color => "color",
            Usage::Fog => "fog",
            Usage::Depth => "depth",
            Usage::Sample => "sample",
        }
    }

    /// Parse the name printed by [`Usage::name`] (case-insensitive).
    pub fn from_name(name: &str) -> Option<Usage> {
        Self::ALL
            .iter()
            .copied()
            .find(|u| u.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
