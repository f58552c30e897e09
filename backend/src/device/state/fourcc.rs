//! Render- and sampler-state values that are FOURCC codes: the drivers' alpha-to-coverage
//! hacks, which every D3D9 driver (and DXVK, wined3d) honours (`multisample`), and AMD's
//! Fetch4 switch (`draw/fixups`).

/// `MAKEFOURCC(a, b, c, d)`: the four characters from the low byte up.
pub(crate) const fn fourcc(code: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*code)
}

/// `MAKEFOURCC('A','T','O','C')`: NVIDIA's (and Intel's) alpha to coverage, enabled by
/// `D3DRS_ADAPTIVETESS_Y` while the alpha test is on, disabled by `D3DFMT_UNKNOWN` (0);
/// `CheckDeviceFormat(..., D3DRTYPE_SURFACE, ATOC)` answers `D3D_OK`.
pub const FOURCC_ATOC: u32 = fourcc(b"ATOC");
/// `MAKEFOURCC('A','2','M','1')`: AMD's alpha to coverage on, set as `D3DRS_POINTSIZE`.
pub const FOURCC_A2M1: u32 = fourcc(b"A2M1");
/// `MAKEFOURCC('A','2','M','0')`: AMD's alpha to coverage off, set as `D3DRS_POINTSIZE`.
pub const FOURCC_A2M0: u32 = fourcc(b"A2M0");
/// `MAKEFOURCC('G','E','T','4')` as `D3DSAMP_MIPMAPLODBIAS`: AMD's Fetch4 on for the sampler.
pub const FOURCC_GET4: u32 = fourcc(b"GET4");
/// `MAKEFOURCC('G','E','T','1')` as `D3DSAMP_MIPMAPLODBIAS`: Fetch4 off (no bias).
pub const FOURCC_GET1: u32 = fourcc(b"GET1");

#[cfg(test)]
mod tests {
    use super::*;

    /// d3d9types.h's `D3DFMT_DXT1` is `MAKEFOURCC('D', 'X', 'T', '1')`, 0x31545844.
    #[test]
    fn codes_are_makefourcc() {
        assert_eq!(fourcc(b"DXT1"), 0x3154_5844);
        assert_eq!(FOURCC_ATOC, 0x434f_5441);
        assert_eq!(FOURCC_GET4, 0x3454_4547);
    }
}
