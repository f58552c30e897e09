//! D3DCOLOR (0xAARRGGBB), the colour D3D9's clears, fog colour, texture factor, per-stage
//! constants, ambient light and border colours take: each byte over 255.

/// A D3DCOLOR as (r, g, b, a) in 0..1.
pub(crate) fn rgba(argb: u32) -> [f32; 4] {
    let c = |shift: u32| ((argb >> shift) & 0xff) as f32 / 255.0;
    [c(16), c(8), c(0), c(24)]
}

#[cfg(test)]
mod tests {
    use super::rgba;

    #[test]
    fn bytes_are_read_as_argb() {
        assert_eq!(rgba(0xff00_8000)[3], 1.0);
        assert_eq!(rgba(0x0000_00ff), [0.0, 0.0, 1.0, 0.0]);
        assert_eq!(rgba(0x00ff_0000), [1.0, 0.0, 0.0, 0.0]);
    }
}
