//! `D3DFORMAT`s of surfaces and textures: one table of every format the device creates (its
//! `D3DFORMAT` number, how D3D9's memory lays its texels out, the wgpu format that holds it on
//! the GPU), and the conversions between the two layouts (`texel`). Formats wgpu has no
//! counterpart for are held in a wider wgpu format and converted on upload and read-back;
//! channels D3D9 fills in when sampling (L8 reads (l, l, l, 1), R32F (r, 1, 1, 1), ...) are
//! written into the GPU texels, so that shaders read what D3D9 reads.

mod bc;
mod texel;

pub use texel::SurfaceData;
pub(crate) use texel::YUV_TO_RGB;
pub(crate) use texel::{decode as decode_texel, encode as encode_texel};

/// The `D3DFORMAT`s the device creates textures, render targets and depth-stencil surfaces
/// in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `D3DFMT_R8G8B8`: bytes B, G, R.
    R8G8B8,
    /// `D3DFMT_A8R8G8B8`: bytes B, G, R, A in memory.
    A8R8G8B8,
    /// `D3DFMT_X8R8G8B8`: bytes B, G, R, X; sampled alpha is 1.
    X8R8G8B8,
    /// `D3DFMT_A8B8G8R8`: bytes R, G, B, A.
    A8B8G8R8,
    /// `D3DFMT_X8B8G8R8`: bytes R, G, B, X; sampled alpha is 1.
    X8B8G8R8,
    /// `D3DFMT_R5G6B5`.
    R5G6B5,
    /// `D3DFMT_X1R5G5B5`.
    X1R5G5B5,
    /// `D3DFMT_A1R5G5B5`.
    A1R5G5B5,
    /// `D3DFMT_A4R4G4B4`.
    A4R4G4B4,
    /// `D3DFMT_X4R4G4B4`.
    X4R4G4B4,
    /// `D3DFMT_R3G3B2`.
    R3G3B2,
    /// `D3DFMT_A8R3G3B2`.
    A8R3G3B2,
    /// `D3DFMT_A8`: sampled (0, 0, 0, a).
    A8,
    /// `D3DFMT_L8`: sampled (l, l, l, 1).
    L8,
    /// `D3DFMT_A8L8`: sampled (l, l, l, a).
    A8L8,
    /// `D3DFMT_A4L4`.
    A4L4,
    /// `D3DFMT_L16`.
    L16,
    /// `D3DFMT_V8U8`: signed; sampled (u, v, 1, 1).
    V8U8,
    /// `D3DFMT_L6V5U5`: signed u, v and unsigned l; sampled (u, v, l, 1).
    L6V5U5,
    /// `D3DFMT_X8L8V8U8`: signed u, v and unsigned l; sampled (u, v, l, 1).
    X8L8V8U8,
    /// `D3DFMT_Q8W8V8U8`: signed; sampled (u, v, w, q).
    Q8W8V8U8,
    /// `D3DFMT_V16U16`: signed; sampled (u, v, 1, 1).
    V16U16,
    /// `D3DFMT_A2W10V10U10`: signed u, v, w and unsigned a.
    A2W10V10U10,
    /// `D3DFMT_A2R10G10B10`.
    A2R10G10B10,
    /// `D3DFMT_A2B10G10R10`.
    A2B10G10R10,
    /// `D3DFMT_G16R16`: sampled (r, g, 1, 1).
    G16R16,
    /// `D3DFMT_A16B16G16R16`.
    A16B16G16R16,
    /// `D3DFMT_Q16W16V16U16`: signed.
    Q16W16V16U16,
    /// `D3DFMT_R16F`: one half float; sampled (r, 1, 1, 1).
    R16F,
    /// `D3DFMT_G16R16F`: half floats R, G; sampled (r, g, 1, 1).
    G16R16F,
    /// `D3DFMT_A16B16G16R16F`: half floats R, G, B, A.
    A16B16G16R16F,
    /// `D3DFMT_R32F`: one float; sampled (r, 1, 1, 1).
    R32F,
    /// `D3DFMT_G32R32F`: floats R, G; sampled (r, g, 1, 1).
    G32R32F,
    /// `D3DFMT_A32B32G32R32F`: floats R, G, B, A.
    A32B32G32R32F,
    /// `D3DFMT_DXT1` (BC1).
    Dxt1,
    /// `D3DFMT_DXT2` (BC2, premultiplied alpha).
    Dxt2,
    /// `D3DFMT_DXT3` (BC2).
    Dxt3,
    /// `D3DFMT_DXT4` (BC3, premultiplied alpha).
    Dxt4,
    /// `D3DFMT_DXT5` (BC3).
    Dxt5,
    /// `D3DFMT_YUY2`: pairs of texels as bytes Y0, U, Y1, V (offscreen plain surfaces).
    Yuy2,
    /// `D3DFMT_UYVY`: pairs of texels as bytes U, Y0, V, Y1 (offscreen plain surfaces).
    Uyvy,
    /// `MAKEFOURCC('A','T','I','1')` (BC4).
    Ati1,
    /// `MAKEFOURCC('A','T','I','2')` (BC5; sampled (y, x, 1, 1)).
    Ati2,
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
    /// `D3DFMT_D32`: 32-bit depth (held as a 32-bit float depth).
    D32,
    /// `MAKEFOURCC('I','N','T','Z')`: 24-bit depth and 8-bit stencil whose depth textures
    /// sample the depth raw, in every channel.
    Intz,
    /// `MAKEFOURCC('D','F','1','6')`: 16-bit depth whose textures sample it raw, (d, 0, 0, 1).
    Df16,
    /// `MAKEFOURCC('D','F','2','4')`: 24-bit depth (held as a 32-bit float depth) whose
    /// textures sample it raw, (d, 0, 0, 1).
    Df24,
    /// `MAKEFOURCC('N','U','L','L')`: a render target that stores nothing (draws into it
    /// write only depth and stencil).
    Null,
}

/// How D3D9's memory stores a format's texels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One texel after the other, this many bytes each.
    Texel(u32),
    /// 4 x 4 blocks of this many bytes (the DXTn / ATIn formats).
    Block(u32),
}

use super::state::fourcc;
use wgpu::TextureFormat as W;
use Format as F;
use Layout::{Block, Texel};

/// Every format: its `D3DFORMAT` number, its memory layout, and the wgpu format its texels
/// are held in on the GPU (before the render-target and feature choices of [`Format::wgpu`]).
const TABLE: &[(Format, u32, Layout, W)] = &[
    (F::R8G8B8, 20, Texel(3), W::Rgba8Unorm),
    (F::A8R8G8B8, 21, Texel(4), W::Bgra8Unorm),
    (F::X8R8G8B8, 22, Texel(4), W::Bgra8Unorm),
    (F::R5G6B5, 23, Texel(2), W::Rgba8Unorm),
    (F::X1R5G5B5, 24, Texel(2), W::Rgba8Unorm),
    (F::A1R5G5B5, 25, Texel(2), W::Rgba8Unorm),
    (F::A4R4G4B4, 26, Texel(2), W::Rgba8Unorm),
    (F::R3G3B2, 27, Texel(1), W::Rgba8Unorm),
    (F::A8, 28, Texel(1), W::Rgba8Unorm),
    (F::A8R3G3B2, 29, Texel(2), W::Rgba8Unorm),
    (F::X4R4G4B4, 30, Texel(2), W::Rgba8Unorm),
    (F::A2B10G10R10, 31, Texel(4), W::Rgb10a2Unorm),
    (F::A8B8G8R8, 32, Texel(4), W::Rgba8Unorm),
    (F::X8B8G8R8, 33, Texel(4), W::Rgba8Unorm),
    (F::G16R16, 34, Texel(4), W::Rgba16Unorm),
    (F::A2R10G10B10, 35, Texel(4), W::Rgb10a2Unorm),
    (F::A16B16G16R16, 36, Texel(8), W::Rgba16Unorm),
    (F::L8, 50, Texel(1), W::Rgba8Unorm),
    (F::A8L8, 51, Texel(2), W::Rgba8Unorm),
    (F::A4L4, 52, Texel(1), W::Rgba8Unorm),
    (F::V8U8, 60, Texel(2), W::Rgba8Snorm),
    (F::L6V5U5, 61, Texel(2), W::Rgba16Float),
    (F::X8L8V8U8, 62, Texel(4), W::Rgba16Float),
    (F::Q8W8V8U8, 63, Texel(4), W::Rgba8Snorm),
    (F::V16U16, 64, Texel(4), W::Rgba16Snorm),
    (F::A2W10V10U10, 67, Texel(4), W::Rgba16Float),
    (F::D16Lockable, 70, Texel(2), W::Depth16Unorm),
    (F::D32, 71, Texel(4), W::Depth32Float),
    (F::D24S8, 75, Texel(4), W::Depth24PlusStencil8),
    (F::D24X8, 77, Texel(4), W::Depth32Float),
    (F::D16, 80, Texel(2), W::Depth16Unorm),
    (F::L16, 81, Texel(2), W::Rgba16Unorm),
    (F::D32FLockable, 82, Texel(4), W::Depth32Float),
    (F::Q16W16V16U16, 110, Texel(8), W::Rgba16Snorm),
    (F::R16F, 111, Texel(2), W::Rgba16Float),
    (F::G16R16F, 112, Texel(4), W::Rgba16Float),
    (F::A16B16G16R16F, 113, Texel(8), W::Rgba16Float),
    (F::R32F, 114, Texel(4), W::Rgba32Float),
    (F::G32R32F, 115, Texel(8), W::Rgba32Float),
    (F::A32B32G32R32F, 116, Texel(16), W::Rgba32Float),
    (F::Dxt1, fourcc(b"DXT1"), Block(8), W::Bc1RgbaUnorm),
    (F::Dxt2, fourcc(b"DXT2"), Block(16), W::Bc2RgbaUnorm),
    (F::Dxt3, fourcc(b"DXT3"), Block(16), W::Bc2RgbaUnorm),
    (F::Dxt4, fourcc(b"DXT4"), Block(16), W::Bc3RgbaUnorm),
    (F::Dxt5, fourcc(b"DXT5"), Block(16), W::Bc3RgbaUnorm),
    // YUV texels stay as D3D9 lays them out (two bytes each, their chroma shared with the
    // neighbour); StretchRect converts them to RGB.
    (F::Yuy2, fourcc(b"YUY2"), Texel(2), W::Rg8Unorm),
    (F::Uyvy, fourcc(b"UYVY"), Texel(2), W::Rg8Unorm),
    (F::Ati1, fourcc(b"ATI1"), Block(8), W::Bc4RUnorm),
    // D3D9 samples ATI2 as (y, x, 1, 1): decoded into RGBA8 with that order (WebGPU views
    // have no swizzle).
    (F::Ati2, fourcc(b"ATI2"), Block(16), W::Rgba8Unorm),
    (F::Intz, fourcc(b"INTZ"), Texel(4), W::Depth24PlusStencil8),
    (F::Df16, fourcc(b"DF16"), Texel(2), W::Depth16Unorm),
    (F::Df24, fourcc(b"DF24"), Texel(4), W::Depth32Float),
    // Nothing is stored: no memory, and no GPU texture (the wgpu format is never used).
    (F::Null, fourcc(b"NULL"), Texel(0), W::Rgba8Unorm),
];

fn entry(format: Format) -> &'static (Format, u32, Layout, W) {
    // Every variant is in the table (a test checks it); A8R8G8B8's entry otherwise.
    TABLE.iter().find(|e| e.0 == format).unwrap_or(&TABLE[0])
}

impl Format {
    /// Every format with its `D3DFORMAT` number.
    pub fn all() -> impl Iterator<Item = (Format, u32)> {
        TABLE.iter().map(|e| (e.0, e.1))
    }

    /// The format of a `D3DFORMAT` number, where the device has it.
    pub fn from_d3d(value: u32) -> Option<Format> {
        TABLE.iter().find(|e| e.1 == value).map(|e| e.0)
    }

    /// The `D3DFORMAT` number.
    pub fn to_d3d(self) -> u32 {
        entry(self).1
    }

    /// How D3D9's memory stores the texels.
    pub fn layout(self) -> Layout {
        entry(self).2
    }

    /// Whether this is a floating-point colour format (16- or 32-bit floats).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            F::R16F | F::G16R16F | F::A16B16G16R16F | F::R32F | F::G32R32F | F::A32B32G32R32F
        )
    }

    /// Whether the format keeps an alpha channel (a render target without one reads its
    /// alpha as 1 when blending).
    pub fn has_alpha(self) -> bool {
        matches!(
            self,
            F::A8R8G8B8
                | F::A8B8G8R8
                | F::A1R5G5B5
                | F::A4R4G4B4
                | F::A8
                | F::A8R3G3B2
                | F::A2R10G10B10
                | F::A2B10G10R10
                | F::A16B16G16R16
                | F::A16B16G16R16F
                | F::A32B32G32R32F
                | F::A8L8
                | F::A4L4
                | F::Q8W8V8U8
                | F::A2W10V10U10
                | F::Q16W16V16U16
                | F::Dxt2
                | F::Dxt3
                | F::Dxt4
                | F::Dxt5
        )
    }

    /// Whether this is a YUV format (`D3DFMT_YUY2`, `D3DFMT_UYVY`): texels in pairs sharing
    /// their chroma.
    pub fn is_yuv(self) -> bool {
        matches!(self, F::Yuy2 | F::Uyvy)
    }

    /// Whether this is a depth (and stencil) format.
    pub fn is_depth(self) -> bool {
        matches!(
            self,
            F::D16
                | F::D24X8
                | F::D24S8
                | F::D32FLockable
                | F::D16Lockable
                | F::D32
                | F::Intz
                | F::Df16
                | F::Df24
        )
    }

    /// How a pixel shader samples a depth texture of this format (`None`: not a depth format
    /// a texture can have): `D16`, `D24X8`, `D24S8` and `D32` as shadow maps (the depth
    /// comparison, as NVIDIA's and AMD's drivers give: Wine's `shadow_test`), `INTZ` raw in
    /// every channel (`intz_test`), `DF16`/`DF24` raw as (d, 0, 0, 1) (`test_fetch4`). The
    /// raw formats' filtering is the sampler's, `linear` filled in at draw time.
    pub(crate) fn depth_read(self) -> Option<d3d9_translator::lift::SamplerRead> {
        use d3d9_translator::lift::{DepthChannels, SamplerRead};
        let raw = |channels| SamplerRead::Depth {
            channels,
            linear: false,
        };
        Some(match self {
            F::D16 | F::D24X8 | F::D24S8 | F::D32 => SamplerRead::Shadow,
            F::Intz => raw(DepthChannels::All),
            F::Df16 | F::Df24 => raw(DepthChannels::Red),
            _ => return None,
        })
    }

    /// What AMD's Fetch4 reads from this format's GPU texels, for the formats it applies to
    /// (Wine's test_fetch4 on AMD: the one-channel L8, L16, R16F, R32F and A8 (its alpha) and
    /// the raw depth formats DF16, DF24, INTZ gathered; ATI1 the coordinate's texel in every
    /// channel; not A8R8G8B8 or the shadow maps).
    pub(crate) fn fetch4(self) -> Option<d3d9_translator::lift::interface::Fetch4> {
        use d3d9_translator::lift::interface::Fetch4;
        let (channel, lanes) = match self {
            F::L8 | F::L16 | F::R16F | F::R32F | F::Df16 | F::Df24 | F::Intz => (0, Fetch4::AMD),
            F::A8 => (3, Fetch4::AMD),
            F::Ati1 => (0, Fetch4::TEXEL),
            _ => return None,
        };
        Some(Fetch4 { channel, lanes })
    }

    /// Whether D3D9 reads and writes this format as sRGB (`D3DSAMP_SRGBTEXTURE`,
    /// `D3DRS_SRGBWRITEENABLE`; `D3DUSAGE_QUERY_SRGBREAD`/`SRGBWRITE`): the 8-bit RGB(A)
    /// formats and DXT1–5, whose GPU formats have an sRGB twin (as DXVK's format table;
    /// Wine's `srgbwrite_format_test` shows R5G6B5 and the float formats write plainly).
    pub fn srgb_capable(self) -> bool {
        matches!(
            self,
            F::A8R8G8B8
                | F::X8R8G8B8
                | F::A8B8G8R8
                | F::X8B8G8R8
                | F::Dxt1
                | F::Dxt2
                | F::Dxt3
                | F::Dxt4
                | F::Dxt5
        )
    }

    /// Whether this is a block-compressed format.
    pub fn is_compressed(self) -> bool {
        matches!(self.layout(), Block(_))
    }

    /// Whether the format has a stencil channel.
    pub fn has_stencil(self) -> bool {
        matches!(self, F::D24S8 | F::Intz)
    }

    /// Bytes per texel in D3D9's memory layout (per 4 x 4 block for compressed formats).
    pub fn texel_size(self) -> u32 {
        match self.layout() {
            Texel(n) | Block(n) => n,
        }
    }

    /// Bytes from one row of texels (of blocks) to the next in D3D9's memory
    /// (`D3DLOCKED_RECT::Pitch`) for an image `width` texels wide.
    pub fn row_pitch(self, width: u32) -> u32 {
        match self.layout() {
            Texel(n) => width * n,
            Block(n) => width.div_ceil(4).max(1) * n,
        }
    }

    /// `D3DLOCKED_RECT::Pitch` / `D3DLOCKED_BOX::RowPitch` of an image `width` texels wide:
    /// [`Format::row_pitch`] with rows of texels padded to 4 bytes, as Windows' drivers
    /// (and wined3d and DXVK) lay them out (Wine's test_fetch4 writes 4 bytes to a 2 x 2 L8
    /// texture's first row and reads its second as 0). Rows of blocks are already whole.
    pub fn lock_pitch(self, width: u32) -> u32 {
        match self.layout() {
            Texel(_) => self.row_pitch(width).next_multiple_of(4),
            Block(_) => self.row_pitch(width),
        }
    }

    /// Rows of texels (of blocks) of an image `height` texels high.
    pub fn rows(self, height: u32) -> u32 {
        match self.layout() {
            Texel(_) => height,
            Block(_) => height.div_ceil(4).max(1),
        }
    }

    /// Bytes of a `width` x `height` image in D3D9's memory.
    pub fn image_size(self, width: u32, height: u32) -> usize {
        self.row_pitch(width) as usize * self.rows(height) as usize
    }

    /// Where texel (x, y) starts (the block holding it) in an image `width` texels wide.
    pub fn offset_of(self, x: u32, y: u32, width: u32) -> usize {
        match self.layout() {
            Texel(n) => y as usize * self.row_pitch(width) as usize + x as usize * n as usize,
            Block(n) => {
                (y / 4) as usize * self.row_pitch(width) as usize + (x / 4) as usize * n as usize
            }
        }
    }

    /// The wgpu format that holds the texels. `render_target`: the surface is drawn into.
    /// A8R8G8B8 and X8R8G8B8 are `Bgra8Unorm` when only sampled (the bytes match D3D9's)
    /// and `Rgba8Unorm` when drawn into (renderable on every wgpu backend, GL included; the
    /// bytes are swizzled on upload and readback). Float render targets keep their own
    /// channel count (what shaders write). `depth32_stencil8`: the adapter has
    /// `DEPTH32FLOAT_STENCIL8`, whose depth can be copied out (D24S8 otherwise uses
    /// `Depth24PlusStencil8`, whose depth cannot be read back).
    pub(crate) fn wgpu(self, render_target: bool, depth32_stencil8: bool) -> W {
        match self {
            F::A8R8G8B8 | F::X8R8G8B8 if render_target => W::Rgba8Unorm,
            F::R16F if render_target => W::R16Float,
            F::G16R16F if render_target => W::Rg16Float,
            F::R32F if render_target => W::R32Float,
            F::G32R32F if render_target => W::Rg32Float,
            F::D24S8 | F::Intz if depth32_stencil8 => W::Depth32FloatStencil8,
            _ => entry(self).3,
        }
    }

    /// D3D9 memory bytes of `width` x `height` images (one, or the slices of a volume
    /// level) → the GPU texels of `wgpu` (what `Queue::write_texture` takes: rows of
    /// [`gpu_row_pitch`] bytes). Block-compressed texels held uncompressed are decoded.
    pub(crate) fn to_wgpu_bytes(self, wgpu: W, data: &[u8], width: u32, height: u32) -> Vec<u8> {
        texel::to_gpu(self, wgpu, data, width, height)
    }

    /// The GPU format of a texture of this format: block-compressed formats are held as
    /// RGBA8 (decoded on upload) where WebGPU cannot hold them compressed (`blocks`: the
    /// level-0 size is whole 4 x 4 blocks and the adapter has the BC features it needs).
    pub(crate) fn texture_wgpu(
        self,
        render_target: bool,
        depth32_stencil8: bool,
        blocks: bool,
    ) -> W {
        if self.is_compressed() && !blocks {
            W::Rgba8Unorm
        } else {
            self.wgpu(render_target, depth32_stencil8)
        }
    }

    /// GPU texels of `wgpu` (tightly packed rows) → D3D9 memory bytes.
    pub(crate) fn wgpu_bytes_to_d3d(self, wgpu: W, data: &[u8]) -> Vec<u8> {
        texel::from_gpu(self, wgpu, data)
    }

    /// How many of red, green, blue the texels hold as D3D9 reads them; D3D9 reads the rest
    /// as 1 (R16F, R32F: (r, 1, 1, 1); G16R16F, G32R32F, G16R16: (r, g, 1, 1)). Sampled
    /// textures are expanded with those 1s on upload, but a render-target texture holds what
    /// the shaders wrote: in a narrow GPU format (`R16Float`, `Rg32Uint` bits, ...) the GPU
    /// reads 0 there, and in a wider one (G16R16 drawn as `Rgba16Unorm` where `Rg16Unorm`
    /// cannot be drawn) whatever was written.
    pub(crate) fn channels(self, wgpu: W) -> u32 {
        let held = match wgpu {
            W::R16Float | W::R32Float | W::R32Uint => 1,
            W::Rg16Float | W::Rg32Float | W::Rg32Uint | W::Rg16Unorm => 2,
            _ => 4,
        };
        let read = match self {
            Format::R16F | Format::R32F => 1,
            Format::G16R16F | Format::G32R32F | Format::G16R16 => 2,
            _ => 4,
        };
        held.min(read)
    }

    /// The `wgpu::Features` the GPU format of this format needs (block-compressed formats
    /// are decoded where the adapter lacks `TEXTURE_COMPRESSION_BC`).
    pub(crate) fn required_features(self) -> wgpu::Features {
        match self.layout() {
            Block(_) => wgpu::Features::empty(),
            Texel(_) => entry(self).3.required_features(),
        }
    }

    /// One texel of a D3DCOLOR (0xAARRGGBB) in D3D9's memory layout (`ColorFill`); `None`
    /// for depth formats.
    /// YUV formats take the colour as AYUV (Y in the red byte, U in green, V in blue) and
    /// give a pair of texels.
    /// Compressed formats give one block of the colour.
    pub fn texel_of_color(self, colour: u32) -> Option<Vec<u8>> {
        if self.is_depth() {
            return None;
        }
        let [b, g, r, a] = colour.to_le_bytes();
        if self.is_compressed() {
            return Some(bc::solid_block(self, [r, g, b, a]));
        }
        match self {
            F::Yuy2 => return Some(vec![r, g, r, b]),
            F::Uyvy => return Some(vec![g, r, b, r]),
            _ => {}
        }
        let unit = |c: u8| f32::from(c) / 255.0;
        Some(texel::encode(self, [unit(r), unit(g), unit(b), unit(a)]))
    }

    /// Texels of this format in D3D9's memory converted to `to` (as each texel reads, its
    /// missing channels as D3D9 samples them); `None` for depth and compressed formats.
    pub fn convert(self, to: Format, data: &[u8]) -> Option<Vec<u8>> {
        let uncompressed = |f: Format| !f.is_depth() && !f.is_compressed() && !f.is_yuv();
        if !uncompressed(self) || !uncompressed(to) {
            return None;
        }
        if self == to {
            return Some(data.to_vec());
        }
        let size = self.texel_size() as usize;
        Some(
            data.chunks_exact(size)
                .flat_map(|t| texel::encode(to, texel::decode(self, t)))
                .collect(),
        )
    }
}

/// Bytes of one row of GPU texels of `format`, `width` texels wide (of blocks for
/// compressed formats).
pub(crate) fn gpu_row_pitch(format: W, width: u32) -> u32 {
    let (bw, _) = format.block_dimensions();
    let size = format.block_copy_size(None).unwrap_or(4);
    width.div_ceil(bw) * size
}

/// Rows of GPU texels (of blocks) of `format`, `height` texels high.
pub(crate) fn gpu_rows(format: W, height: u32) -> u32 {
    let (_, bh) = format.block_dimensions();
    height.div_ceil(bh)
}

/// What the device does with a format on its adapter: `CheckDeviceFormat`'s answers, from
/// the same rules `Create*` applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatSupport {
    /// A texture (2D, cube or volume) that shaders sample.
    pub texture: bool,
    /// A volume texture (block-compressed volumes are decoded on upload where the adapter
    /// lacks `TEXTURE_COMPRESSION_BC_SLICED_3D`, as 2D ones are without BC).
    pub volume: bool,
    /// A render target (surface or texture).
    pub render_target: bool,
    /// A cube render-target texture: not where no draw reaches a cube face
    /// (`Gpu::draws_into_cube_faces`: wgpu's GL backend).
    pub cube_render_target: bool,
    /// An offscreen plain surface.
    pub surface: bool,
    /// A depth-stencil surface.
    pub depth_stencil: bool,
    /// Linear filtering when sampled (`D3DUSAGE_QUERY_FILTER`).
    pub filter: bool,
    /// Blending into it (`D3DUSAGE_QUERY_POSTPIXELSHADER_BLENDING`).
    pub blend: bool,
    /// A depth texture (`D3DUSAGE_DEPTHSTENCIL` of `D3DRTYPE_TEXTURE`) offered: drawn into
    /// as a depth-stencil surface and sampled (see [`Format::depth_read`]).
    pub depth_texture: bool,
    /// Sampled as sRGB with `D3DSAMP_SRGBTEXTURE` (`D3DUSAGE_QUERY_SRGBREAD`).
    pub srgb_read: bool,
    /// Written as sRGB with `D3DRS_SRGBWRITEENABLE` (`D3DUSAGE_QUERY_SRGBWRITE`).
    pub srgb_write: bool,
}

/// The formats D3D9 hardware of its time draws into, and the device can read back.
fn renderable_in_d3d9(format: Format) -> bool {
    matches!(
        format,
        F::A8R8G8B8
            | F::X8R8G8B8
            | F::A8B8G8R8
            | F::X8B8G8R8
            | F::R5G6B5
            | F::X1R5G5B5
            | F::A1R5G5B5
            | F::A4R4G4B4
            | F::X4R4G4B4
            | F::A8
            | F::A2R10G10B10
            | F::A2B10G10R10
            | F::G16R16
            | F::A16B16G16R16
            | F::R16F
            | F::G16R16F
            | F::A16B16G16R16F
            | F::R32F
            | F::G32R32F
            | F::A32B32G32R32F
    )
}

/// Whether textures can be viewed in their sRGB twin format (`DownlevelFlags::VIEW_FORMATS`;
/// wgpu's GL backend cannot).
pub(crate) fn srgb_views(gpu: &crate::gpu::Gpu) -> bool {
    gpu.adapter()
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::VIEW_FORMATS)
}

/// The sRGB twin of a GPU format, where it has one (`Rgba8Unorm` → `Rgba8UnormSrgb`,
/// `Bgra8Unorm`, `Bc1`–`Bc3`).
pub(crate) fn srgb_twin(format: W) -> Option<W> {
    let twin = format.add_srgb_suffix();
    (twin != format).then_some(twin)
}

impl Format {
    /// What `gpu`'s device does with this format.
    pub fn support(self, gpu: &crate::gpu::Gpu) -> FormatSupport {
        use wgpu::TextureUsages as U;
        let features = gpu.features();
        if !features.contains(self.required_features()) {
            return FormatSupport::default();
        }
        let depth32_stencil8 = features.contains(wgpu::Features::DEPTH32FLOAT_STENCIL8);
        let sampled = self.wgpu(false, depth32_stencil8);
        let target = self.wgpu(true, depth32_stencil8);
        let filterable = matches!(
            sampled.sample_type(None, Some(features)),
            Some(wgpu::TextureSampleType::Float { filterable: true })
        );
        // Float32 targets the adapter cannot render are held as their bits (`float_bits`),
        // which render everywhere and do not blend.
        let held =
            super::float_bits::held_format(gpu, target, U::RENDER_ATTACHMENT | U::COPY_SRC, false);
        let rt_usages = gpu.format_usages(held);
        let renderable = rt_usages.contains(U::RENDER_ATTACHMENT | U::COPY_SRC);
        if self == F::Null {
            return FormatSupport {
                render_target: true,
                ..FormatSupport::default()
            };
        }
        if self.is_depth() {
            return FormatSupport {
                depth_stencil: renderable,
                // DF16 and DF24 with AMD's Fetch4 (`D3DSAMP_MIPMAPLODBIAS` = GET4), as
                // Windows offers them on AMD's drivers: programs that find them take that path.
                depth_texture: self.depth_read().is_some()
                    && rt_usages.contains(U::RENDER_ATTACHMENT | U::TEXTURE_BINDING),
                ..FormatSupport::default()
            };
        }
        let sampleable = gpu
            .format_usages(sampled)
            .contains(U::TEXTURE_BINDING | U::COPY_DST);
        // YUV texels are not sampled: only surfaces that StretchRect converts.
        let texture = sampleable && !self.is_yuv();
        let blendable = held == target
            && (target
                .guaranteed_format_features(features)
                .flags
                .contains(wgpu::TextureFormatFeatureFlags::BLENDABLE)
                || gpu
                    .adapter()
                    .get_texture_format_features(target)
                    .flags
                    .contains(wgpu::TextureFormatFeatureFlags::BLENDABLE));
        let render_target = renderable && renderable_in_d3d9(self);
        // sRGB views of the same texture: `VIEW_FORMATS` (not on wgpu's GL backend).
        let srgb = self.srgb_capable() && srgb_views(gpu);
        FormatSupport {
            texture,
            volume: texture,
            render_target,
            cube_render_target: render_target && gpu.draws_into_cube_faces(),
            surface: sampleable || render_target,
            depth_stencil: false,
            filter: texture && filterable,
            blend: render_target && blendable,
            depth_texture: false,
            srgb_read: srgb && texture,
            srgb_write: srgb && render_target,
        }
    }
}

#[cfg(test)]
mod tests;
