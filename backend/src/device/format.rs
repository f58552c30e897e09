//! `D3DFORMAT`s of surfaces and textures, and how their texels are laid out in D3D9's memory
//! (what `LockRect` shows) versus in the wgpu texture that holds them.

/// The `D3DFORMAT`s the device creates textures, render targets and depth-stencil surfaces
/// in. Formats without a wgpu counterpart that keeps D3D9's meaning (R5G6B5, L8, A8, the DXTn
/// block formats, ...) are not offered; creating one is not possible through this type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `D3DFMT_A8R8G8B8`: bytes B, G, R, A in memory.
    A8R8G8B8,
    /// `D3DFMT_X8R8G8B8`: bytes B, G, R, X; sampled alpha is 1.
    X8R8G8B8,
    /// `D3DFMT_A8B8G8R8`: bytes R, G, B, A.
    A8B8G8R8,
    /// `D3DFMT_X8B8G8R8`: bytes R, G, B, X; sampled alpha is 1.
    X8B8G8R8,
    /// `D3DFMT_R16F`: one half float.
    R16F,
    /// `D3DFMT_G16R16F`: half floats R, G.
    G16R16F,
    /// `D3DFMT_A16B16G16R16F`: half floats R, G, B, A.
    A16B16G16R16F,
    /// `D3DFMT_R32F`: one float.
    R32F,
    /// `D3DFMT_G32R32F`: floats R, G.
    G32R32F,
    /// `D3DFMT_A32B32G32R32F`: floats R, G, B, A.
    A32B32G32R32F,
    /// `D3DFMT_D16`: 16-bit depth.
    D16,
    /// `D3DFMT_D24X8`: 24-bit depth (held as a 32-bit float depth, which reads back).
    D24X8,
    /// `D3DFMT_D24S8`: 24-bit depth and 8-bit stencil.
    D24S8,
    /// `D3DFMT_D32F_LOCKABLE`: 32-bit float depth.
    D32FLockable,
    /// `D3DFMT_D16_LOCKABLE`: 16-bit depth that can be locked.
    D16Lockable,
}

impl Format {
    /// Every format, with its `D3DFORMAT` number.
    pub const ALL: [(Format, u32); 15] = [
        (Format::D16Lockable, 70),
        (Format::A8R8G8B8, 21),
        (Format::X8R8G8B8, 22),
        (Format::A8B8G8R8, 32),
        (Format::X8B8G8R8, 33),
        (Format::D24S8, 75),
        (Format::D24X8, 77),
        (Format::D16, 80),
        (Format::D32FLockable, 82),
        (Format::R16F, 111),
        (Format::G16R16F, 112),
        (Format::A16B16G16R16F, 113),
        (Format::R32F, 114),
        (Format::G32R32F, 115),
        (Format::A32B32G32R32F, 116),
    ];

    /// The format of a `D3DFORMAT` number, where the device has it.
    pub fn from_d3d(value: u32) -> Option<Format> {
        Format::ALL
            .iter()
            .find(|(_, n)| *n == value)
            .map(|(f, _)| *f)
    }

    /// The `D3DFORMAT` number.
    pub fn to_d3d(self) -> u32 {
        Format::ALL
            .iter()
            .find(|(f, _)| *f == self)
            .map_or(0, |(_, n)| *n)
    }

    /// Whether this is a floating-point colour format (16- or 32-bit floats).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            Format::R16F
                | Format::G16R16F
                | Format::A16B16G16R16F
                | Format::R32F
                | Format::G32R32F
                | Format::A32B32G32R32F
        )
    }

    /// Whether this is a depth (and stencil) format.
    pub fn is_depth(self) -> bool {
        matches!(
            self,
            Format::D16
                | Format::D24X8
                | Format::D24S8
                | Format::D32FLockable
                | Format::D16Lockable
        )
    }

    /// Whether the format has a stencil channel.
    pub fn has_stencil(self) -> bool {
        self == Format::D24S8
    }

    /// Bytes per texel in D3D9's memory layout.
    pub fn texel_size(self) -> u32 {
        match self {
            Format::A8R8G8B8 | Format::X8R8G8B8 | Format::A8B8G8R8 | Format::X8B8G8R8 => 4,
            Format::R16F => 2,
            Format::G16R16F => 4,
            Format::A16B16G16R16F => 8,
            Format::R32F => 4,
            Format::G32R32F => 8,
            Format::A32B32G32R32F => 16,
            Format::D16 => 2,
            Format::D24X8 | Format::D24S8 | Format::D32FLockable => 4,
            Format::D16Lockable => 2,
        }
    }

    /// Bytes from one row of texels to the next in D3D9's memory (`D3DLOCKED_RECT::Pitch`)
    /// for an image `width` texels wide.
    pub fn row_pitch(self, width: u32) -> u32 {
        width * self.texel_size()
    }

    /// Bytes of a `width` x `height` image in D3D9's memory.
    pub fn image_size(self, width: u32, height: u32) -> usize {
        self.row_pitch(width) as usize * height as usize
    }

    /// Where texel (x, y) starts in an image `width` texels wide.
    pub fn offset_of(self, x: u32, y: u32, width: u32) -> usize {
        y as usize * self.row_pitch(width) as usize + x as usize * self.texel_size() as usize
    }

    /// One texel of a D3DCOLOR (0xAARRGGBB) in D3D9's memory layout (`ColorFill`); `None`
    /// for depth formats.
    pub fn texel_of_color(self, colour: u32) -> Option<Vec<u8>> {
        let [b, g, r, a] = colour.to_le_bytes();
        let unit = |c: u8| f32::from(c) / 255.0;
        let floats = [unit(r), unit(g), unit(b), unit(a)];
        let halves = |n: usize| -> Vec<u8> {
            floats[..n]
                .iter()
                .flat_map(|&f| half::f16::from_f32(f).to_bits().to_le_bytes())
                .collect()
        };
        let singles =
            |n: usize| -> Vec<u8> { floats[..n].iter().flat_map(|f| f.to_le_bytes()).collect() };
        Some(match self {
            Format::A8R8G8B8 | Format::X8R8G8B8 => vec![b, g, r, a],
            Format::A8B8G8R8 | Format::X8B8G8R8 => vec![r, g, b, a],
            Format::R16F => halves(1),
            Format::G16R16F => halves(2),
            Format::A16B16G16R16F => halves(4),
            Format::R32F => singles(1),
            Format::G32R32F => singles(2),
            Format::A32B32G32R32F => singles(4),
            Format::D16
            | Format::D24X8
            | Format::D24S8
            | Format::D32FLockable
            | Format::D16Lockable => return None,
        })
    }

    /// Channels D3D9 stores; the others read 1 when sampled (R16F, R32F, G16R16F, G32R32F
    /// read (r, 1, 1, 1) / (r, g, 1, 1)), where wgpu reads 0 for a missing G or B.
    pub(crate) fn channels(self) -> u32 {
        match self {
            Format::R16F | Format::R32F => 1,
            Format::G16R16F | Format::G32R32F => 2,
            _ => 4,
        }
    }

    /// The wgpu format that holds the texels. `render_target`: the surface is drawn into.
    /// A8R8G8B8 and X8R8G8B8 are `Bgra8Unorm` when only sampled (the bytes match D3D9's)
    /// and `Rgba8Unorm` when drawn into (renderable on every wgpu backend, GL included; the
    /// bytes are swizzled on upload and readback). `depth32_stencil8`: the adapter has
    /// `DEPTH32FLOAT_STENCIL8`, whose depth can be copied out (D24S8 otherwise uses
    /// `Depth24PlusStencil8`, whose depth cannot be read back).
    pub(crate) fn wgpu(self, render_target: bool, depth32_stencil8: bool) -> wgpu::TextureFormat {
        use wgpu::TextureFormat as F;
        match self {
            Format::A8R8G8B8 | Format::X8R8G8B8 if render_target => F::Rgba8Unorm,
            Format::A8R8G8B8 | Format::X8R8G8B8 => F::Bgra8Unorm,
            Format::A8B8G8R8 | Format::X8B8G8R8 => F::Rgba8Unorm,
            Format::R16F => F::R16Float,
            Format::G16R16F => F::Rg16Float,
            Format::A16B16G16R16F => F::Rgba16Float,
            Format::R32F => F::R32Float,
            Format::G32R32F => F::Rg32Float,
            Format::A32B32G32R32F => F::Rgba32Float,
            Format::D16 | Format::D16Lockable => F::Depth16Unorm,
            Format::D24X8 | Format::D32FLockable => F::Depth32Float,
            Format::D24S8 if depth32_stencil8 => F::Depth32FloatStencil8,
            Format::D24S8 => F::Depth24PlusStencil8,
        }
    }

    /// Whether the X channel is forced to 1 when the texels are sampled.
    fn opaque(self) -> bool {
        matches!(self, Format::X8R8G8B8 | Format::X8B8G8R8)
    }

    /// D3D9 memory bytes → the wgpu texture's bytes (same size).
    pub(crate) fn to_wgpu_bytes(self, wgpu: wgpu::TextureFormat, data: &[u8]) -> Vec<u8> {
        let mut out = data.to_vec();
        if matches!(self, Format::A8R8G8B8 | Format::X8R8G8B8)
            && wgpu == wgpu::TextureFormat::Rgba8Unorm
        {
            for texel in out.chunks_exact_mut(4) {
                texel.swap(0, 2);
            }
        }
        if self.opaque() {
            for texel in out.chunks_exact_mut(4) {
                texel[3] = 0xff;
            }
        }
        out
    }

    /// The wgpu texture's bytes → D3D9 memory bytes (same size).
    pub(crate) fn wgpu_bytes_to_d3d(self, wgpu: wgpu::TextureFormat, data: &mut [u8]) {
        if matches!(self, Format::A8R8G8B8 | Format::X8R8G8B8)
            && wgpu == wgpu::TextureFormat::Rgba8Unorm
        {
            for texel in data.chunks_exact_mut(4) {
                texel.swap(0, 2);
            }
        }
    }
}

/// A surface's texels as D3D9's `LockRect` shows them: `width` x `height` texels of
/// `format`, rows top to bottom, tightly packed.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceData {
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub data: Vec<u8>,
}

impl SurfaceData {
    /// The texel at (x, y), its bytes.
    pub fn texel(&self, x: u32, y: u32) -> Option<&[u8]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let size = self.format.texel_size() as usize;
        let start = (y as usize * self.width as usize + x as usize) * size;
        self.data.get(start..start + size)
    }

    /// The texel at (x, y) as a `D3DCOLOR` (0xAARRGGBB) for the 8-bit formats (X channels as
    /// stored); `None` outside the surface or for other formats.
    pub fn color(&self, x: u32, y: u32) -> Option<u32> {
        let t = self.texel(x, y)?;
        let [a, b, c, d] = [t[0], t[1], t[2], *t.get(3)?];
        let (r, g, bl, al) = match self.format {
            Format::A8R8G8B8 | Format::X8R8G8B8 => (c, b, a, d),
            Format::A8B8G8R8 | Format::X8B8G8R8 => (a, b, c, d),
            _ => return None,
        };
        Some(u32::from(al) << 24 | u32::from(r) << 16 | u32::from(g) << 8 | u32::from(bl))
    }

    /// The texel at (x, y) as floats (r, g, b, a) for the float formats (missing channels as
    /// D3D9 reads them: 1), the 8-bit formats (unorm) and the depth formats (depth in r).
    pub fn rgba_f32(&self, x: u32, y: u32) -> Option<[f32; 4]> {
        let t = self.texel(x, y)?;
        let f32_at = |i: usize| -> Option<f32> {
            Some(f32::from_le_bytes(
                t.get(i * 4..i * 4 + 4)?.try_into().ok()?,
            ))
        };
        let f16_at = |i: usize| -> Option<f32> {
            let bits = u16::from_le_bytes(t.get(i * 2..i * 2 + 2)?.try_into().ok()?);
            Some(half_to_f32(bits))
        };
        Some(match self.format {
            Format::R32F => [f32_at(0)?, 1.0, 1.0, 1.0],
            Format::G32R32F => [f32_at(0)?, f32_at(1)?, 1.0, 1.0],
            Format::A32B32G32R32F => [f32_at(0)?, f32_at(1)?, f32_at(2)?, f32_at(3)?],
            Format::R16F => [f16_at(0)?, 1.0, 1.0, 1.0],
            Format::G16R16F => [f16_at(0)?, f16_at(1)?, 1.0, 1.0],
            Format::A16B16G16R16F => [f16_at(0)?, f16_at(1)?, f16_at(2)?, f16_at(3)?],
            Format::D16 | Format::D16Lockable => {
                let bits = u16::from_le_bytes(t.get(0..2)?.try_into().ok()?);
                [f32::from(bits) / 65535.0, 0.0, 0.0, 1.0]
            }
            Format::D24X8 | Format::D24S8 | Format::D32FLockable => [f32_at(0)?, 0.0, 0.0, 1.0],
            Format::A8R8G8B8 | Format::X8R8G8B8 | Format::A8B8G8R8 | Format::X8B8G8R8 => {
                let c = self.color(x, y)?;
                let ch = |s: u32| ((c >> s) & 0xff) as f32 / 255.0;
                [ch(16), ch(8), ch(0), ch(24)]
            }
        })
    }
}

/// An IEEE half float's value.
fn half_to_f32(bits: u16) -> f32 {
    half::f16::from_bits(bits).to_f32()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a8r8g8b8_render_targets_swizzle_both_ways() {
        let d3d = [1u8, 2, 3, 4];
        let f = Format::A8R8G8B8.wgpu(true, false);
        let mut gpu = Format::A8R8G8B8.to_wgpu_bytes(f, &d3d);
        assert_eq!(gpu, [3, 2, 1, 4]);
        Format::A8R8G8B8.wgpu_bytes_to_d3d(f, &mut gpu);
        assert_eq!(gpu, d3d);
        let sampled = Format::A8R8G8B8.wgpu(false, false);
        assert_eq!(Format::A8R8G8B8.to_wgpu_bytes(sampled, &d3d), d3d);
        assert_eq!(
            Format::X8R8G8B8.to_wgpu_bytes(sampled, &d3d),
            [1, 2, 3, 0xff]
        );
    }

    #[test]
    fn d3d_numbers_round_trip() {
        for (format, number) in Format::ALL {
            assert_eq!(Format::from_d3d(number), Some(format));
            assert_eq!(format.to_d3d(), number);
        }
        assert_eq!(Format::from_d3d(23), None);
    }

    #[test]
    fn surface_colours_and_floats() {
        let s = SurfaceData {
            format: Format::A8R8G8B8,
            width: 1,
            height: 1,
            data: vec![0x10, 0x20, 0x30, 0x40],
        };
        assert_eq!(s.color(0, 0), Some(0x4030_2010));
        assert_eq!(s.color(1, 0), None);
        let r32 = SurfaceData {
            format: Format::R32F,
            width: 1,
            height: 1,
            data: 0.5f32.to_le_bytes().to_vec(),
        };
        assert_eq!(r32.rgba_f32(0, 0), Some([0.5, 1.0, 1.0, 1.0]));
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24));
    }
}

/// What the device does with a format on its adapter: `CheckDeviceFormat`'s answers, from
/// the same rules `Create*` applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatSupport {
    /// A texture (2D, cube or volume) that shaders sample.
    pub texture: bool,
    /// A render target (surface or texture).
    pub render_target: bool,
    /// A depth-stencil surface.
    pub depth_stencil: bool,
    /// Linear filtering when sampled (`D3DUSAGE_QUERY_FILTER`).
    pub filter: bool,
    /// Blending into it (`D3DUSAGE_QUERY_POSTPIXELSHADER_BLENDING`).
    pub blend: bool,
}

impl Format {
    /// What `gpu`'s device does with this format.
    pub fn support(self, gpu: &crate::Gpu) -> FormatSupport {
        use wgpu::TextureUsages as U;
        let depth32_stencil8 = gpu
            .device()
            .features()
            .contains(wgpu::Features::DEPTH32FLOAT_STENCIL8);
        let sampled = self.wgpu(false, depth32_stencil8);
        let target = self.wgpu(true, depth32_stencil8);
        let features = gpu.device().features();
        let filterable = matches!(
            sampled.sample_type(None, Some(features)),
            Some(wgpu::TextureSampleType::Float { filterable: true })
        );
        let rt_usages = gpu.format_usages(target);
        let renderable = rt_usages.contains(U::RENDER_ATTACHMENT | U::COPY_SRC);
        if self.is_depth() {
            return FormatSupport {
                depth_stencil: renderable,
                ..FormatSupport::default()
            };
        }
        // Textures sample the missing channels of R16F/R32F/G16R16F/G32R32F as 1, which
        // the draws do not emulate yet: not offered as textures.
        let texture = self.channels() == 4
            && gpu
                .format_usages(sampled)
                .contains(U::TEXTURE_BINDING | U::COPY_DST);
        FormatSupport {
            texture,
            render_target: renderable,
            depth_stencil: false,
            filter: texture && filterable,
            blend: renderable
                && !matches!(
                    target,
                    wgpu::TextureFormat::R32Float
                        | wgpu::TextureFormat::Rg32Float
                        | wgpu::TextureFormat::Rgba32Float
                ),
        }
    }
}
