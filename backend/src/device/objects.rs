//! The device's objects: vertex declarations, shaders, vertex and index buffers, textures,
//! surfaces and swap chains, named by handles, and the plain data they are made of (a
//! texture's description, dirty region and autogen filter, a surface's multisample type).
//! A handle is never reused, so the caches key on it; a released or foreign handle is
//! `D3DERR_INVALIDCALL`. This module imports no module that works on the objects.

use std::sync::Arc;

use d3d9_translator::check::CheckedProgram;

use super::format::Format;
use crate::device::TextureKind;

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u64);
    };
}

handle!(
    /// `IDirect3DVertexDeclaration9`.
    DeclarationId
);
handle!(
    /// `IDirect3DVertexShader9`.
    VertexShaderId
);
handle!(
    /// `IDirect3DPixelShader9`.
    PixelShaderId
);
handle!(
    /// `IDirect3DVertexBuffer9`.
    VertexBufferId
);
handle!(
    /// `IDirect3DIndexBuffer9`.
    IndexBufferId
);
handle!(
    /// `IDirect3DTexture9`, `IDirect3DCubeTexture9` or `IDirect3DVolumeTexture9`.
    TextureId
);
handle!(
    /// `IDirect3DSurface9`: a render target, a depth-stencil surface, or a level of a
    /// render-target texture.
    SurfaceId
);

/// An additional swap chain (`CreateAdditionalSwapChain`); the implicit one has no id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SwapChainId(pub u64);

/// `D3DFMT_INDEX16` / `D3DFMT_INDEX32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexFormat {
    Index16,
    Index32,
}

impl IndexFormat {
    pub(crate) fn wgpu(self) -> wgpu::IndexFormat {
        match self {
            IndexFormat::Index16 => wgpu::IndexFormat::Uint16,
            IndexFormat::Index32 => wgpu::IndexFormat::Uint32,
        }
    }

    pub(crate) fn size(self) -> u64 {
        match self {
            IndexFormat::Index16 => 2,
            IndexFormat::Index32 => 4,
        }
    }
}

/// A vertex or index buffer: the GPU buffer and the system-memory copy D3D9's managed pool
/// keeps (read by fan conversion, flat-shading reorders and `process_vertices`).
pub(crate) struct BufferObject {
    pub(crate) buffer: wgpu::Buffer,
    pub(crate) shadow: Vec<u8>,
    /// `Some` for index buffers.
    pub(crate) index_format: Option<IndexFormat>,
    pub(crate) pool: Pool,
    pub(crate) usage: Usage,
    /// Locks not yet unlocked (D3D9 lets a buffer be locked several times over).
    pub(crate) locks: u32,
    /// The bytes written through locks since the last upload (`start..end`).
    pub(crate) dirty: Option<(usize, usize)>,
}

impl BufferObject {
    pub(crate) fn size(&self) -> u64 {
        self.shadow.len() as u64
    }
}

/// A shader created on the device: checked once, at creation.
pub(crate) type ShaderObject = Arc<CheckedProgram>;

/// `D3DPOOL`: where a resource lives, which decides whether it can be locked, drawn into and
/// sampled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pool {
    /// `D3DPOOL_DEFAULT` (0): GPU memory; lockable only when dynamic (textures) or lockable
    /// (render targets), the only pool that can be drawn into.
    Default,
    /// `D3DPOOL_MANAGED` (1): a system-memory copy the device uploads; lockable, sampled.
    #[default]
    Managed,
    /// `D3DPOOL_SYSTEMMEM` (2): system memory only; lockable, the source of `UpdateSurface` /
    /// `UpdateTexture` and the destination of `GetRenderTargetData`.
    SystemMem,
    /// `D3DPOOL_SCRATCH` (3): system memory the device never uses; lockable.
    Scratch,
}

impl Pool {
    /// The pool of a `D3DPOOL` number.
    pub fn from_d3d(value: u32) -> Option<Pool> {
        Some(match value {
            0 => Pool::Default,
            1 => Pool::Managed,
            2 => Pool::SystemMem,
            3 => Pool::Scratch,
            _ => return None,
        })
    }

    /// The `D3DPOOL` number.
    pub fn to_d3d(self) -> u32 {
        match self {
            Pool::Default => 0,
            Pool::Managed => 1,
            Pool::SystemMem => 2,
            Pool::Scratch => 3,
        }
    }

    /// Whether the resource exists on the GPU (DEFAULT and MANAGED).
    pub fn on_gpu(self) -> bool {
        matches!(self, Pool::Default | Pool::Managed)
    }
}

/// `D3DUSAGE_*` bits, as D3D9 numbers them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Usage(pub u32);

impl Usage {
    pub const RENDER_TARGET: Usage = Usage(0x1);
    pub const DEPTH_STENCIL: Usage = Usage(0x2);
    pub const WRITE_ONLY: Usage = Usage(0x8);
    pub const SOFTWARE_PROCESSING: Usage = Usage(0x10);
    pub const DONOT_CLIP: Usage = Usage(0x20);
    pub const POINTS: Usage = Usage(0x40);
    pub const RT_PATCHES: Usage = Usage(0x80);
    pub const NPATCHES: Usage = Usage(0x100);
    pub const DYNAMIC: Usage = Usage(0x200);
    pub const AUTOGEN_MIPMAP: Usage = Usage(0x400);
    pub const DMAP: Usage = Usage(0x4000);

    /// Whether every bit of `other` is set.
    pub fn contains(self, other: Usage) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Usage {
    type Output = Usage;
    fn bitor(self, other: Usage) -> Usage {
        Usage(self.0 | other.0)
    }
}

/// `D3DLOCK_*` flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LockFlags(pub u32);

impl LockFlags {
    pub const READ_ONLY: LockFlags = LockFlags(0x10);
    pub const NO_SYS_LOCK: LockFlags = LockFlags(0x800);
    pub const NO_OVERWRITE: LockFlags = LockFlags(0x1000);
    pub const DISCARD: LockFlags = LockFlags(0x2000);
    pub const DO_NOT_WAIT: LockFlags = LockFlags(0x4000);
    pub const NO_DIRTY_UPDATE: LockFlags = LockFlags(0x8000);

    /// Whether every bit of `other` is set.
    pub fn contains(self, other: LockFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

/// `D3DLOCKED_RECT` / `D3DLOCKED_BOX`: where locked texels start and the bytes from one row
/// (and one slice) to the next. The memory stays valid, and at the same address, until the
/// matching unlock; writing through it is the caller's business (a C caller's pointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Locked {
    pub bits: *mut u8,
    pub row_pitch: u32,
    pub slice_pitch: u32,
}

/// A box of texels: `left..right`, `top..bottom`, `front..back` (D3D9's `RECT` and `D3DBOX`:
/// exclusive right, bottom and back).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TexelBox {
    pub left: u32,
    pub top: u32,
    pub right: u32,
    pub bottom: u32,
    pub front: u32,
    pub back: u32,
}

impl TexelBox {
    /// The rectangle from (`left`, `top`) to (`right`, `bottom`) of one slice (slice 0).
    pub fn rect(left: u32, top: u32, right: u32, bottom: u32) -> TexelBox {
        TexelBox {
            left,
            top,
            right,
            bottom,
            front: 0,
            back: 1,
        }
    }

    /// The whole of a `width` x `height` x `depth` image.
    pub fn whole(width: u32, height: u32, depth: u32) -> TexelBox {
        TexelBox {
            left: 0,
            top: 0,
            right: width,
            bottom: height,
            front: 0,
            back: depth,
        }
    }

    /// A `RECT` as a box of one slice (negative corners at 0).
    pub fn of_rect(r: super::state::Rect) -> TexelBox {
        let at = |v: i32| v.max(0) as u32;
        TexelBox {
            left: at(r.left),
            top: at(r.top),
            right: at(r.right),
            bottom: at(r.bottom),
            front: 0,
            back: 1,
        }
    }

    /// The box with each axis's (low, high) mapped by `f` (axis 0: x, 1: y, 2: z).
    pub(crate) fn map_axes(self, mut f: impl FnMut(usize, u32, u32) -> (u32, u32)) -> TexelBox {
        let (left, right) = f(0, self.left, self.right);
        let (top, bottom) = f(1, self.top, self.bottom);
        let (front, back) = f(2, self.front, self.back);
        TexelBox {
            left,
            top,
            right,
            bottom,
            front,
            back,
        }
    }

    /// Whether the box is non-empty and lies inside a `width` x `height` x `depth` image.
    pub fn fits(&self, width: u32, height: u32, depth: u32) -> bool {
        self.left < self.right
            && self.top < self.bottom
            && self.front < self.back
            && self.right <= width
            && self.bottom <= height
            && self.back <= depth
    }
}

/// An active lock of a subresource or surface.
pub(crate) struct ActiveLock {
    pub(crate) flags: LockFlags,
    /// The box locked, where not the whole subresource (a texture's dirty region).
    pub(crate) region: Option<TexelBox>,
    /// Where the caller's bytes are, for locks that read the GPU back: the whole image in
    /// D3D9's layout (written back at unlock unless read-only).
    pub(crate) staging: Option<Vec<u8>>,
}

/// A texture's system-memory texels: all subresources in one allocation, in subresource
/// order, as D3D9 lays out a managed texture (programs write several levels through the
/// first level's lock pointer, and Windows' memory allows it).
#[derive(Default)]
pub(crate) struct TextureMemory {
    bytes: Vec<u8>,
    ranges: Vec<std::ops::Range<usize>>,
}

impl TextureMemory {
    /// Zeroed memory for subresources of `sizes` bytes each.
    pub(crate) fn new(sizes: impl IntoIterator<Item = usize>) -> TextureMemory {
        let mut ranges = Vec::new();
        let mut end = 0;
        for size in sizes {
            ranges.push(end..end + size);
            end += size;
        }
        TextureMemory {
            bytes: vec![0; end],
            ranges,
        }
    }

    /// Whether the texture keeps no system-memory copy.
    pub(crate) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Subresource `sub`'s bytes.
    pub(crate) fn get(&self, sub: usize) -> Option<&[u8]> {
        self.bytes.get(self.ranges.get(sub)?.clone())
    }

    /// Subresource `sub`'s rows of `tight` bytes laid out `pitch` bytes apart (a lock's
    /// pitch; the padding zeroed), then as many zeroed bytes as the allocation has past it
    /// (programs may write through one level's pointer past it; those writes are dropped).
    pub(crate) fn padded(&self, sub: usize, tight: u32, pitch: u32) -> Option<Vec<u8>> {
        let (tight, pitch) = (tight as usize, pitch as usize);
        let range = self.ranges.get(sub)?;
        let memory = self.bytes.get(range.clone())?;
        let rows = memory.len() / tight.max(1);
        let after = self.bytes.len().saturating_sub(range.end);
        let mut padded = vec![0; rows * pitch + after];
        for (row, out) in memory
            .chunks_exact(tight)
            .zip(padded.chunks_exact_mut(pitch))
        {
            if let Some(out) = out.get_mut(..tight) {
                out.copy_from_slice(row);
            }
        }
        Some(padded)
    }

    /// Subresource `sub`'s rows written back from `padded` ([`TextureMemory::padded`]).
    pub(crate) fn unpad(&mut self, sub: usize, padded: &[u8], tight: u32, pitch: u32) {
        let (tight, pitch) = (tight as usize, pitch as usize);
        let Some(memory) = self.get_mut(sub) else {
            return;
        };
        for (row, from) in memory
            .chunks_exact_mut(tight)
            .zip(padded.chunks_exact(pitch))
        {
            if let Some(from) = from.get(..tight) {
                row.copy_from_slice(from);
            }
        }
    }

    /// Subresource `sub`'s bytes, writable.
    pub(crate) fn get_mut(&mut self, sub: usize) -> Option<&mut [u8]> {
        let range = self.ranges.get(sub)?.clone();
        self.bytes.get_mut(range)
    }
}

/// A texture's GPU side.
pub(crate) struct GpuTexture {
    pub(crate) texture: wgpu::Texture,
    /// What shaders sample (the depth aspect of a depth texture).
    pub(crate) view: wgpu::TextureView,
    /// The same texels in the format's sRGB twin (`D3DSAMP_SRGBTEXTURE`; see `srgb`).
    pub(crate) srgb_view: Option<wgpu::TextureView>,
}

/// What `CreateTexture`, `CreateCubeTexture` and `CreateVolumeTexture` take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureDesc {
    pub kind: TextureKind,
    /// Width and height (the edge of a cube texture) and depth (volumes; 1 otherwise).
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    /// Mip levels; 0 makes the full chain.
    pub levels: u32,
    pub format: Format,
    pub usage: Usage,
    pub pool: Pool,
}

/// A texture: its wgpu texture (DEFAULT and MANAGED pools), and per subresource the texels
/// D3D9's memory keeps (MANAGED, SYSTEMMEM, SCRATCH and dynamic DEFAULT textures: what a lock
/// shows; render-target textures keep none, their contents live on the GPU).
pub(crate) struct TextureObject {
    pub(crate) kind: TextureKind,
    pub(crate) format: Format,
    pub(crate) wgpu_format: wgpu::TextureFormat,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) depth: u32,
    pub(crate) levels: u32,
    pub(crate) pool: Pool,
    pub(crate) usage: Usage,
    pub(crate) gpu: Option<GpuTexture>,
    /// Every subresource (`face * levels + level`; a volume level holds all its slices) in
    /// D3D9's layout, in one allocation; empty where the texture keeps no system-memory copy.
    pub(crate) memory: TextureMemory,
    /// Per subresource, the lock in progress.
    pub(crate) locks: Vec<Option<ActiveLock>>,
    /// Per subresource, its surface once asked for (`GetSurfaceLevel`, `GetCubeMapSurface`).
    pub(crate) surfaces: Vec<Option<SurfaceId>>,
    /// `SetLOD`: the most detailed level sampled (managed textures).
    pub(crate) lod: u32,
    /// D3D9's dirty region: what a MANAGED or dynamic texture uploads before it is next
    /// read, what `UpdateTexture` copies of a SYSTEMMEM one.
    pub(crate) dirty: DirtyRegion,
    /// A SYSTEMMEM texture drawn with: its memory changed since its GPU copy was made.
    pub(crate) stale: bool,
    /// Bumped by every update, for the bind-group cache.
    pub(crate) version: u64,
    /// `D3DUSAGE_AUTOGENMIPMAP`: the levels past 0 are made from it (`autogen`).
    pub(crate) autogen: Option<AutoGen>,
}

impl TextureObject {
    /// Width, height and layers (faces or slices) of mip level `level`.
    pub(crate) fn level_extent(&self, level: u32) -> wgpu::Extent3d {
        self.kind
            .level_extent([self.width, self.height, self.depth], level)
    }

    /// Faces: 6 for a cube texture, 1 otherwise.
    pub(crate) fn faces(&self) -> u32 {
        match self.kind {
            TextureKind::Cube => 6,
            _ => 1,
        }
    }

    /// Width, height and depth (slices of a volume, 1 otherwise) of one subresource of
    /// `level`.
    pub(crate) fn subresource_size(&self, level: u32) -> (u32, u32, u32) {
        let e = self.level_extent(level);
        let depth = match self.kind {
            TextureKind::Volume => e.depth_or_array_layers,
            _ => 1,
        };
        (e.width, e.height, depth)
    }

    /// Whether D3D9 lets the texture be locked: every pool but DEFAULT, and DEFAULT when
    /// dynamic.
    pub(crate) fn lockable(&self) -> bool {
        self.pool != Pool::Default || self.usage.contains(Usage::DYNAMIC)
    }

    /// Whether the texture is a render-target texture.
    pub(crate) fn render_target(&self) -> bool {
        self.usage.contains(Usage::RENDER_TARGET)
    }

    /// Whether a float32 texture is held as bits (see [`GpuImage::holds_bits`]).
    pub(crate) fn holds_bits(&self) -> bool {
        super::float_bits::holds_bits(self.wgpu_format)
    }
}

/// A surface's GPU image: a 2D view of one level and layer of a wgpu texture.
#[derive(Clone)]
pub(crate) struct GpuImage {
    pub(crate) texture: wgpu::Texture,
    pub(crate) view: wgpu::TextureView,
    /// The view in the format's sRGB twin, drawn into with `D3DRS_SRGBWRITEENABLE` (see
    /// `srgb`).
    pub(crate) srgb_view: Option<wgpu::TextureView>,
    pub(crate) wgpu_format: wgpu::TextureFormat,
    pub(crate) level: u32,
    pub(crate) layer: u32,
}

impl GpuImage {
    /// Whether a float32 format is held as the bit patterns of its floats in a `u32` format,
    /// on adapters that cannot render to float32 (GL/GLES; see `float_bits`).
    pub(crate) fn holds_bits(&self) -> bool {
        super::float_bits::holds_bits(self.wgpu_format)
    }
}

/// A surface: one 2D image that can be drawn into (GPU surfaces), locked and copied.
pub(crate) struct SurfaceObject {
    pub(crate) format: Format,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) pool: Pool,
    pub(crate) usage: Usage,
    /// Render targets created lockable, `D3DFMT_D32F_LOCKABLE` / `D16_LOCKABLE` surfaces,
    /// offscreen plain surfaces.
    pub(crate) lockable: bool,
    /// The GPU image (render targets, depth-stencil surfaces, DEFAULT offscreen plain
    /// surfaces, levels of GPU textures); `None` for system-memory surfaces.
    pub(crate) gpu: Option<GpuImage>,
    /// A system-memory surface's texels in D3D9's layout (SYSTEMMEM and SCRATCH offscreen
    /// plain surfaces).
    pub(crate) memory: Option<Vec<u8>>,
    /// The texture, face and level this surface is, for texture levels.
    pub(crate) container: Option<(TextureId, u32, u32)>,
    /// The lock in progress (surfaces with their own storage; a texture level's lock is the
    /// texture's).
    pub(crate) lock: Option<ActiveLock>,
    /// The `D3DMULTISAMPLE_TYPE` and quality the surface was made with (its GPU image has
    /// the samples that serve them: `multisample`).
    pub(crate) multisample: MultiSample,
}

impl SurfaceObject {
    /// Whether a float32 format is held as bits (see [`GpuImage::holds_bits`]).
    pub(crate) fn holds_bits(&self) -> bool {
        self.gpu.as_ref().is_some_and(GpuImage::holds_bits)
    }
}

/// The most rectangles a dirty region tracks apart before it becomes the whole texture.
const MOST_BOXES: usize = 8;

/// The part of a texture's level 0 written since it last reached the GPU.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum DirtyRegion {
    #[default]
    Clean,
    /// Boxes of level 0.
    Boxes(Vec<TexelBox>),
    Whole,
}

impl DirtyRegion {
    /// Adds a box of level 0 (`None`: the whole texture).
    pub(crate) fn add(&mut self, region: Option<TexelBox>) {
        *self = match (std::mem::take(self), region) {
            (DirtyRegion::Whole, _) | (_, None) => DirtyRegion::Whole,
            (DirtyRegion::Clean, Some(b)) => DirtyRegion::Boxes(vec![b]),
            (DirtyRegion::Boxes(mut boxes), Some(b)) => {
                if !boxes.contains(&b) {
                    boxes.push(b);
                }
                if boxes.len() > MOST_BOXES {
                    DirtyRegion::Whole
                } else {
                    DirtyRegion::Boxes(boxes)
                }
            }
        };
    }

    pub(crate) fn is_clean(&self) -> bool {
        *self == DirtyRegion::Clean
    }

    /// The region's boxes at `level` (`size`: that level's width, height and depth); `None`
    /// where the whole level is dirty.
    pub(crate) fn at_level(&self, level: u32, (w, h, d): (u32, u32, u32)) -> Option<Vec<TexelBox>> {
        let DirtyRegion::Boxes(boxes) = self else {
            return match self {
                DirtyRegion::Clean => Some(Vec::new()),
                _ => None,
            };
        };
        let down = |lo: u32, hi: u32, size: u32| {
            let lo = (lo >> level).min(size - 1);
            let hi = hi.div_ceil(1 << level).clamp(lo + 1, size);
            (lo, hi)
        };
        Some(
            boxes
                .iter()
                .map(|b| b.map_axes(|axis, lo, hi| down(lo, hi, [w, h, d][axis])))
                .collect(),
        )
    }
}

/// `D3DTEXTUREFILTERTYPE` of `StretchRect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    /// `D3DTEXF_NONE` / `D3DTEXF_POINT`.
    Point,
    /// `D3DTEXF_LINEAR` (and the anisotropic/quad filters, which act as linear here).
    Linear,
}

impl Filter {
    /// The filter of a `D3DTEXTUREFILTERTYPE` number `StretchRect` takes: NONE, POINT and
    /// LINEAR (Windows refuses the anisotropic, quad and convolution filters there, Wine's
    /// stretchrect_test).
    pub fn from_d3d(value: u32) -> Option<Filter> {
        match value {
            0 | 1 => Some(Filter::Point),
            2 => Some(Filter::Linear),
            _ => None,
        }
    }
}

/// An AUTOGENMIPMAP texture's filter and the version of level 0 its levels were made from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AutoGen {
    pub(crate) filter: Filter,
    /// The texture's `version` after the levels were last made (`None`: never made).
    pub(crate) made_at: Option<u64>,
}

impl Default for AutoGen {
    fn default() -> Self {
        AutoGen {
            filter: Filter::Linear,
            made_at: None,
        }
    }
}

/// A surface's `D3DMULTISAMPLE_TYPE` (0, `NONMASKABLE` or 2 to 16 samples) and quality, as
/// it was created and as `GetDesc` reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MultiSample {
    pub kind: u32,
    pub quality: u32,
}

impl MultiSample {
    /// `D3DMULTISAMPLE_NONE`.
    pub const NONE: MultiSample = MultiSample {
        kind: 0,
        quality: 0,
    };

    /// `kind` samples at quality 0.
    pub fn samples(kind: u32) -> MultiSample {
        MultiSample { kind, quality: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_grows_from_clean_to_boxes_to_whole() {
        let mut region = DirtyRegion::Clean;
        assert!(region.is_clean());
        assert_eq!(region.at_level(0, (8, 8, 1)), Some(Vec::new()));
        region.add(Some(TexelBox::rect(0, 0, 2, 2)));
        region.add(Some(TexelBox::rect(0, 0, 2, 2)));
        assert_eq!(region, DirtyRegion::Boxes(vec![TexelBox::rect(0, 0, 2, 2)]));
        for i in 0..MOST_BOXES as u32 {
            region.add(Some(TexelBox::rect(i, i, i + 1, i + 1)));
        }
        assert_eq!(region, DirtyRegion::Whole);
        assert_eq!(region.at_level(0, (8, 8, 1)), None);
        let mut region = DirtyRegion::Boxes(vec![TexelBox::rect(1, 1, 2, 2)]);
        region.add(None);
        assert_eq!(region, DirtyRegion::Whole);
    }

    #[test]
    fn level_zero_boxes_scale_down_covering_every_texel() {
        let region = DirtyRegion::Boxes(vec![
            TexelBox::rect(96, 96, 160, 160),
            TexelBox::rect(3, 5, 4, 6),
        ]);
        assert_eq!(
            region.at_level(2, (64, 64, 1)),
            Some(vec![
                TexelBox::rect(24, 24, 40, 40),
                TexelBox::rect(0, 1, 1, 2)
            ])
        );
        // Never empty, never past the level.
        assert_eq!(
            region.at_level(8, (1, 1, 1)),
            Some(vec![TexelBox::rect(0, 0, 1, 1); 2])
        );
    }

    /// `D3DPOOL` numbers 0–3 name DEFAULT, MANAGED, SYSTEMMEM and SCRATCH and come back
    /// the same; the first two live on the GPU.
    #[test]
    fn pools_take_d3d9s_numbers() {
        let pools = [Pool::Default, Pool::Managed, Pool::SystemMem, Pool::Scratch];
        for (n, pool) in pools.into_iter().enumerate() {
            assert_eq!(Pool::from_d3d(n as u32), Some(pool));
            assert_eq!(pool.to_d3d(), n as u32);
            assert_eq!(pool.on_gpu(), n < 2, "{pool:?}");
        }
        assert_eq!(Pool::from_d3d(4), None);
    }

    /// `StretchRect`'s filters: NONE and POINT point, LINEAR blends, the others refused;
    /// `MultiSample::samples(n)` is type n at quality 0.
    #[test]
    fn filters_and_multisample_types_take_d3d9s_numbers() {
        let filters = [0, 1, 2, 3].map(Filter::from_d3d);
        let expected = [
            Some(Filter::Point),
            Some(Filter::Point),
            Some(Filter::Linear),
            None,
        ];
        assert_eq!(filters, expected);
        let four = MultiSample::samples(4);
        assert_eq!((four.kind, four.quality), (4, 0));
    }

    /// A `RECT` is a box of one slice, negative corners at 0.
    #[test]
    fn a_rect_is_a_box_of_one_slice() {
        let rect = crate::device::Rect {
            left: -2,
            top: 1,
            right: 3,
            bottom: 4,
        };
        let b = TexelBox::of_rect(rect);
        let corners = (b.left, b.top, b.right, b.bottom, b.front, b.back);
        assert_eq!(corners, (0, 1, 3, 4, 0, 1));
    }

    /// A box fits where it is non-empty on every axis and inside the image.
    #[test]
    fn a_box_fits_where_it_is_inside_and_not_empty() {
        let whole = TexelBox::whole(4, 4, 2);
        assert!(whole.fits(4, 4, 2));
        assert!(!whole.fits(3, 4, 2) && !whole.fits(4, 3, 2) && !whole.fits(4, 4, 1));
        let empty = [
            TexelBox { right: 0, ..whole },
            TexelBox { bottom: 0, ..whole },
            TexelBox { back: 0, ..whole },
        ];
        for b in empty {
            assert!(!b.fits(4, 4, 2), "{b:?}");
        }
    }

    /// A texture's memory is empty where it keeps no subresource.
    #[test]
    fn texture_memory_is_empty_without_subresources() {
        assert!(TextureMemory::new([]).is_empty());
        let memory = TextureMemory::new([16, 4]);
        assert!(!memory.is_empty());
        assert_eq!(memory.get(1).map(<[u8]>::len), Some(4));
    }

    /// `|` joins usage bits (a bit twice is the bit once); `contains` asks for every bit.
    #[test]
    fn usages_and_lock_flags_are_bit_sets() {
        let both = Usage::DYNAMIC | Usage::WRITE_ONLY;
        assert_eq!(both, Usage(0x208));
        assert_eq!(both | Usage::DYNAMIC, both);
        let flags = LockFlags(LockFlags::READ_ONLY.0 | LockFlags::NO_OVERWRITE.0);
        assert!(flags.contains(LockFlags::READ_ONLY));
        assert!(flags.contains(flags));
        assert!(!flags.contains(LockFlags::DISCARD));
    }
}
