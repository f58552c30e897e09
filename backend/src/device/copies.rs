//! Copies between surfaces and textures: `GetRenderTargetData`, `UpdateSurface`,
//! `UpdateTexture`, `ColorFill` and `StretchRect`, with D3D9's rules on which pools each
//! reads and writes.

use super::error::{invalid, unsupported, DeviceError};
use super::format::Format;
use super::objects::{Filter, GpuImage, MultiSample, Pool, SurfaceId, TexelBox, TextureId, Usage};
use super::state::Rect;
use super::upload::write_box;
use super::Device;

/// Whether box `b` of a `width` x `height` image of `format` is whole blocks where the
/// format is block-compressed: D3D9 copies and fills compressed surfaces by whole 4 x 4
/// blocks, or up to the surface's edge.
fn whole_blocks(format: Format, b: &TexelBox, width: u32, height: u32) -> bool {
    !format.is_compressed()
        || (b.left.is_multiple_of(4)
            && b.top.is_multiple_of(4)
            && (b.right.is_multiple_of(4) || b.right == width)
            && (b.bottom.is_multiple_of(4) || b.bottom == height))
}

/// A rectangle of a `width` x `height` surface as a texel box (the whole surface when
/// `None`); `None` when it does not fit.
fn texel_rect(rect: Option<Rect>, width: u32, height: u32) -> Option<TexelBox> {
    let b = match rect {
        None => TexelBox::whole(width, height, 1),
        Some(r) => TexelBox::rect(
            u32::try_from(r.left).ok()?,
            u32::try_from(r.top).ok()?,
            u32::try_from(r.right).ok()?,
            u32::try_from(r.bottom).ok()?,
        ),
    };
    b.fits(width, height, 1).then_some(b)
}

impl Device {
    /// `GetRenderTargetData(render_target, destination)`: a render target's texels into a
    /// SYSTEMMEM surface of the same size and format.
    pub fn get_render_target_data_into(
        &mut self,
        source: SurfaceId,
        destination: SurfaceId,
    ) -> Result<(), DeviceError> {
        let call = "GetRenderTargetData";
        self.refuse_gl_cube_face(call, source)?;
        let src = self
            .surface_info(source)
            .ok_or_else(|| invalid(call, format!("{source:?} is not a surface")))?;
        let dst = self
            .surface_info(destination)
            .ok_or_else(|| invalid(call, format!("{destination:?} is not a surface")))?;
        if dst.pool != Pool::SystemMem {
            return Err(invalid(call, "the destination is not in D3DPOOL_SYSTEMMEM"));
        }
        if src.pool != Pool::Default || src.usage.contains(Usage::DEPTH_STENCIL) {
            return Err(invalid(
                call,
                "the source is not a render target in D3DPOOL_DEFAULT",
            ));
        }
        if src.multisample != MultiSample::NONE {
            // (Wine's multisample_get_rtdata_test: D3DERR_INVALIDCALL on Windows.)
            return Err(invalid(call, "the source is multisampled"));
        }
        if (src.width, src.height, src.format) != (dst.width, dst.height, dst.format) {
            return Err(invalid(
                call,
                format!(
                    "a {}x{} {:?} source and a {}x{} {:?} destination",
                    src.width, src.height, src.format, dst.width, dst.height, dst.format
                ),
            ));
        }
        let data = self.get_render_target_data(source)?.data;
        self.write_surface(call, destination, None, &data)
    }

    /// `UpdateSurface(source, source_rect, destination, destination_point)`: texels of a
    /// SYSTEMMEM surface into a DEFAULT surface of the same format.
    pub fn update_surface(
        &mut self,
        source: SurfaceId,
        source_rect: Option<Rect>,
        destination: SurfaceId,
        destination_point: Option<(i32, i32)>,
    ) -> Result<(), DeviceError> {
        let call = "UpdateSurface";
        let src = self
            .surface_info(source)
            .ok_or_else(|| invalid(call, format!("{source:?} is not a surface")))?;
        let dst = self
            .surface_info(destination)
            .ok_or_else(|| invalid(call, format!("{destination:?} is not a surface")))?;
        if src.pool != Pool::SystemMem || dst.pool != Pool::Default {
            return Err(invalid(
                call,
                format!("from {:?} to {:?}", src.pool, dst.pool),
            ));
        }
        if src.format != dst.format || src.format.is_depth() {
            return Err(invalid(
                call,
                format!("from {:?} to {:?}", src.format, dst.format),
            ));
        }
        let rect = texel_rect(source_rect, src.width, src.height)
            .ok_or_else(|| invalid(call, format!("source rect {source_rect:?}")))?;
        let (x, y) = destination_point.unwrap_or((0, 0));
        let (w, h) = (rect.right - rect.left, rect.bottom - rect.top);
        let target = texel_rect(
            Some(Rect {
                left: x,
                top: y,
                right: x.saturating_add(w as i32),
                bottom: y.saturating_add(h as i32),
            }),
            dst.width,
            dst.height,
        )
        .ok_or_else(|| invalid(call, "the copy does not fit the destination"))?;
        // (Wine's update_surface_test: a 2 x 2 level into the corner of a 4 x 4 one is
        // refused.)
        if !whole_blocks(src.format, &rect, src.width, src.height)
            || !whole_blocks(dst.format, &target, dst.width, dst.height)
        {
            return Err(invalid(call, "a copy of part of a compressed block"));
        }
        let texels = self.read_surface(call, source)?;
        let data = super::upload::crop_rows(src.format, &texels, src.width, rect);
        self.write_surface(call, destination, Some(target), &data)
    }

    /// `UpdateTexture(source, destination)`: a SYSTEMMEM texture's levels into a DEFAULT
    /// texture of the same type. The destination's first level takes the source level of
    /// the same size and the levels after it follow; where the source has fewer, the
    /// destination's last levels are left as they were. Texels are converted between
    /// uncompressed formats (as Windows on AMD). Where no source level has the
    /// destination's size, levels pair from the first and the overlapping texels are
    /// copied into levels that are otherwise black.
    pub fn update_texture_from(
        &mut self,
        source: TextureId,
        destination: TextureId,
    ) -> Result<(), DeviceError> {
        let call = "UpdateTexture";
        let src = self
            .texture_info(source)
            .ok_or_else(|| invalid(call, format!("{source:?} is not a texture")))?;
        let dst = self
            .texture_info(destination)
            .ok_or_else(|| invalid(call, format!("{destination:?} is not a texture")))?;
        if src.pool != Pool::SystemMem || dst.pool != Pool::Default {
            return Err(invalid(
                call,
                format!("from {:?} to {:?}", src.pool, dst.pool),
            ));
        }
        let convertible = src.format == dst.format || src.format.convert(dst.format, &[]).is_some();
        if src.kind != dst.kind || !convertible {
            return Err(invalid(
                call,
                format!(
                    "a {:?} {:?} source and a {:?} {:?} destination",
                    src.kind, src.format, dst.kind, dst.format
                ),
            ));
        }
        let size = |info: &super::TextureInfo, l: u32| {
            (
                (info.width >> l).max(1),
                (info.height >> l).max(1),
                (info.depth >> l).max(1),
            )
        };
        let matched = (0..src.levels).find(|&l| size(&src, l) == size(&dst, 0));
        let skip = matched.unwrap_or(0);
        let faces = if src.kind == crate::device::TextureKind::Cube {
            6
        } else {
            1
        };
        // Only the source's dirty region is copied, and the source is clean after.
        let dirty = match self.textures.get_mut(&source) {
            Some(t) => std::mem::take(&mut t.dirty),
            None => return Err(invalid(call, "the source was released")),
        };
        let in_place = matched.is_some()
            && src.format == dst.format
            && self
                .textures
                .get(&destination)
                .is_some_and(|t| t.memory.is_empty());
        for level in 0..dst.levels.min(src.levels - skip) {
            let (from, to) = (size(&src, level + skip), size(&dst, level));
            match dirty.at_level(level + skip, from) {
                Some(boxes) if in_place => {
                    self.flush()?;
                    let queue = self.gpu.queue.clone();
                    let (Some(s), Some(d)) =
                        (self.textures.get(&source), self.textures.get(&destination))
                    else {
                        return Err(invalid(call, "a texture was released"));
                    };
                    for face in 0..faces {
                        let texels = s.memory.get(s.subresource(call, face, level + skip)?);
                        let sub = d.subresource(call, face, level)? as u32;
                        for &b in &boxes {
                            write_box(&queue, d, sub, texels.unwrap_or_default(), b);
                        }
                    }
                    if let Some(d) = self.textures.get_mut(&destination) {
                        d.version += 1;
                    }
                    continue;
                }
                Some(boxes) if boxes.is_empty() => continue,
                _ => {}
            }
            let mut data = Vec::new();
            for face in 0..faces {
                let t = self
                    .textures
                    .get(&source)
                    .ok_or_else(|| invalid(call, "the source was released"))?;
                let sub = t.subresource(call, face, level + skip)?;
                let texels = t.memory.get(sub).unwrap_or_default();
                let texels = if src.format == dst.format {
                    texels.to_vec()
                } else {
                    src.format
                        .convert(dst.format, texels)
                        .ok_or_else(|| invalid(call, "formats without a conversion"))?
                };
                data.extend(overlap(dst.format, &texels, from, to));
            }
            self.update_texture(destination, level, &data)?;
        }
        Ok(())
    }

    /// `ColorFill(surface, rect, colour)`: `rect` (the whole surface when `None`) of a
    /// DEFAULT colour surface filled with a D3DCOLOR.
    pub fn color_fill(
        &mut self,
        surface: SurfaceId,
        rect: Option<Rect>,
        colour: u32,
    ) -> Result<(), DeviceError> {
        let call = "ColorFill";
        self.refuse_gl_cube_face(call, surface)?;
        let info = self
            .surface_info(surface)
            .ok_or_else(|| invalid(call, format!("{surface:?} is not a surface")))?;
        if info.pool != Pool::Default || info.format.is_depth() {
            return Err(invalid(
                call,
                format!("a {:?} surface in {:?}", info.format, info.pool),
            ));
        }
        if info.container.is_some() && !info.usage.contains(Usage::RENDER_TARGET) {
            return Err(invalid(
                call,
                "a level of a texture that is not a render target",
            ));
        }
        let target = texel_rect(rect, info.width, info.height)
            .ok_or_else(|| invalid(call, format!("rect {rect:?}")))?;
        let texel = info
            .format
            .texel_of_color(colour)
            .ok_or_else(|| unsupported(call, format!("filling {:?} with a colour", info.format)))?;
        // (Wine's color_fill_test: a DXT1 rect that is not whole blocks is refused.)
        if !whole_blocks(info.format, &target, info.width, info.height) {
            return Err(invalid(call, format!("rect {rect:?} of compressed blocks")));
        }
        // (A YUV pair of texels repeats along rows of whole pairs; a block, block by block.)
        let size = info
            .format
            .image_size(target.right - target.left, target.bottom - target.top);
        let data: Vec<u8> = texel.iter().copied().cycle().take(size).collect();
        self.write_surface(call, surface, Some(target), &data)
    }

    /// `StretchRect(source, source_rect, destination, destination_rect, filter)`: between
    /// DEFAULT surfaces; equal sizes and formats copy, others are drawn with the filter.
    /// Depth-stencil surfaces copy whole, equal sizes only, as D3D9 allows.
    pub fn stretch_rect(
        &mut self,
        source: SurfaceId,
        source_rect: Option<Rect>,
        destination: SurfaceId,
        destination_rect: Option<Rect>,
        filter: Filter,
    ) -> Result<(), DeviceError> {
        let call = "StretchRect";
        self.refuse_gl_cube_face(call, source)?;
        self.refuse_gl_cube_face(call, destination)?;
        self.upload_container(source);
        self.upload_container(destination);
        let src = self
            .surface_info(source)
            .ok_or_else(|| invalid(call, format!("{source:?} is not a surface")))?;
        let dst = self
            .surface_info(destination)
            .ok_or_else(|| invalid(call, format!("{destination:?} is not a surface")))?;
        if src.pool != Pool::Default || dst.pool != Pool::Default {
            return Err(invalid(
                call,
                format!("from {:?} to {:?}", src.pool, dst.pool),
            ));
        }
        if dst.container.is_some() && !dst.usage.contains(Usage::RENDER_TARGET) {
            return Err(invalid(
                call,
                "the destination is a level of a texture that is not a render target",
            ));
        }
        // Into an offscreen plain surface, Windows copies only from another, unstretched
        // (Wine's stretchrect_test: render targets and textures into one are refused).
        let plain = |i: &super::surfaces::SurfaceInfo| {
            i.container.is_none() && !i.usage.contains(Usage::RENDER_TARGET) && !i.format.is_depth()
        };
        let s = texel_rect(source_rect, src.width, src.height)
            .ok_or_else(|| invalid(call, format!("source rect {source_rect:?}")))?;
        let d = texel_rect(destination_rect, dst.width, dst.height)
            .ok_or_else(|| invalid(call, format!("destination rect {destination_rect:?}")))?;
        if source == destination {
            return Err(invalid(
                call,
                "the source and the destination are one surface",
            ));
        }
        let stretched =
            (s.right - s.left, s.bottom - s.top) != (d.right - d.left, d.bottom - d.top);
        if plain(&dst) && (!plain(&src) || stretched) {
            return Err(invalid(
                call,
                "into an offscreen plain surface only from another, unstretched",
            ));
        }
        if src.format.is_depth() || dst.format.is_depth() {
            let whole = TexelBox::whole(src.width, src.height, 1);
            if src.format != dst.format
                || (src.width, src.height) != (dst.width, dst.height)
                || s != whole
                || d != whole
            {
                return Err(invalid(
                    call,
                    "depth-stencil surfaces copy whole, between equal sizes and formats",
                ));
            }
            // A texture copy, or passes where depth cannot be copied (`depth_pass`).
            return self.copy_depth_stencil(call, source, destination);
        }
        let same_size =
            (s.right - s.left, s.bottom - s.top) == (d.right - d.left, d.bottom - d.top);
        let samples = (
            self.surface_samples(source),
            self.surface_samples(destination),
        );
        let same_format = self.same_gpu_format(source, destination);
        match samples {
            (1, 1) if same_size && same_format => self.copy_image(call, source, destination, s, d),
            // A whole multisampled surface into a single-sampled one of its size and format:
            // resolved straight into it.
            (_, 1) if same_format && s == TexelBox::whole(src.width, src.height, 1) && d == s => {
                self.resolve_surface(call, source, destination)
            }
            // Otherwise multisampled sources are resolved first, and multisampled
            // destinations drawn into with every sample of a pixel alike (`blit`).
            _ => self.blit(call, source, s, destination, d, filter),
        }
    }

    /// Records the resolve of multisampled `source` into `destination` (single-sampled, of its
    /// size and GPU format).
    pub(crate) fn resolve_surface(
        &mut self,
        call: &'static str,
        source: SurfaceId,
        destination: SurfaceId,
    ) -> Result<(), DeviceError> {
        let view = |id| {
            self.surfaces
                .get(&id)
                .and_then(|s| s.gpu.as_ref())
                .map(|g| g.view.clone())
                .ok_or_else(|| invalid(call, "a surface that is not on the GPU"))
        };
        let (src, dst) = (view(source)?, view(destination)?);
        self.resolve_into(&src, &dst);
        self.bump_container(destination);
        Ok(())
    }

    fn same_gpu_format(&self, a: SurfaceId, b: SurfaceId) -> bool {
        let format = |id| {
            self.surfaces
                .get(&id)
                .and_then(|s| s.gpu.as_ref())
                .map(|g| g.wgpu_format)
        };
        format(a).is_some() && format(a) == format(b)
    }

    /// A GPU copy of box `s` of `source` to `d`'s corner in `destination` (equal sizes).
    pub(crate) fn copy_image(
        &mut self,
        call: &'static str,
        source: SurfaceId,
        destination: SurfaceId,
        s: TexelBox,
        d: TexelBox,
    ) -> Result<(), DeviceError> {
        let image = |id| {
            self.surfaces
                .get(&id)
                .and_then(|s| s.gpu.as_ref())
                .ok_or_else(|| invalid(call, "a surface that is not on the GPU"))
        };
        let (src, dst) = (image(source)?, image(destination)?);
        fn copy<'a>(info: &'a GpuImage, b: &TexelBox) -> wgpu::TexelCopyTextureInfo<'a> {
            wgpu::TexelCopyTextureInfo {
                texture: &info.texture,
                mip_level: info.level,
                origin: wgpu::Origin3d {
                    x: b.left,
                    y: b.top,
                    z: info.layer,
                },
                aspect: wgpu::TextureAspect::All,
            }
        }
        let (src_copy, dst_copy) = (copy(src, &s), copy(dst, &d));
        let extent = wgpu::Extent3d {
            width: s.right - s.left,
            height: s.bottom - s.top,
            depth_or_array_layers: 1,
        };
        let encoder =
            super::draw::pending_encoder(&mut self.open, &mut self.encoder, &self.gpu.device);
        encoder.copy_texture_to_texture(src_copy, dst_copy, extent);
        self.bump_container(destination);
        Ok(())
    }

    /// Uploads the texture a surface is a level of, where a lock left its system memory
    /// newer than its GPU texture (before the GPU reads the surface).
    pub(crate) fn upload_container(&mut self, surface: SurfaceId) {
        let container = self.surfaces.get(&surface).and_then(|s| s.container);
        if let Some((texture, _, _)) = container {
            self.upload_texture(texture);
        }
    }

    /// A texture whose level was drawn or copied into changed (for the bind-group cache).
    pub(crate) fn bump_container(&mut self, surface: SurfaceId) {
        let container = self.surfaces.get(&surface).and_then(|s| s.container);
        if let Some((texture, _, _)) = container {
            if let Some(t) = self.textures.get_mut(&texture) {
                t.version += 1;
            }
        }
    }
}

/// A `from`-sized image (width, height, depth) of `format` as a `to`-sized one: the
/// texels both cover, zero elsewhere (the image itself when the sizes match).
fn overlap(format: Format, texels: &[u8], from: (u32, u32, u32), to: (u32, u32, u32)) -> Vec<u8> {
    if from == to {
        return texels.to_vec();
    }
    let (from_pitch, to_pitch) = (format.row_pitch(from.0), format.row_pitch(to.0));
    let (from_rows, to_rows) = (format.rows(from.1), format.rows(to.1));
    let row = from_pitch.min(to_pitch) as usize;
    let mut out = vec![0; format.image_size(to.0, to.1) * to.2 as usize];
    for z in 0..from.2.min(to.2) {
        for y in 0..from_rows.min(to_rows) {
            let at = ((z * from_rows + y) * from_pitch) as usize;
            let put = ((z * to_rows + y) * to_pitch) as usize;
            if let (Some(s), Some(d)) = (texels.get(at..at + row), out.get_mut(put..put + row)) {
                d.copy_from_slice(s);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compressed copies and fills take whole 4 x 4 blocks, each edge on a block boundary or
    /// at the surface's edge (a 10 x 6 surface: right edge 10, bottom edge 6); uncompressed
    /// formats take any box.
    #[test]
    fn compressed_boxes_are_whole_blocks_or_reach_the_edge() {
        let whole = |b| whole_blocks(Format::Dxt1, &b, 10, 6);
        assert!(whole(TexelBox::rect(0, 0, 4, 4)));
        assert!(
            whole(TexelBox::rect(4, 0, 10, 6)),
            "to the right and bottom edges"
        );
        assert!(whole(TexelBox::rect(8, 4, 10, 6)));
        for b in [
            TexelBox::rect(1, 0, 4, 4),
            TexelBox::rect(0, 2, 4, 4),
            TexelBox::rect(0, 0, 3, 4),
            TexelBox::rect(0, 0, 4, 5),
            TexelBox::rect(0, 0, 9, 4),
            TexelBox::rect(0, 0, 4, 3),
        ] {
            assert!(!whole(b), "{b:?}");
            assert!(whole_blocks(Format::A8R8G8B8, &b, 10, 6), "{b:?}");
        }
    }

    /// A rectangle is a box of the surface where it lies inside it (the whole surface for
    /// none); negative or outside edges are refused.
    #[test]
    fn rects_become_boxes_that_fit() {
        let r = |left, top, right, bottom| Rect {
            left,
            top,
            right,
            bottom,
        };
        assert_eq!(texel_rect(None, 8, 4), Some(TexelBox::rect(0, 0, 8, 4)));
        assert_eq!(
            texel_rect(Some(r(1, 2, 8, 4)), 8, 4),
            Some(TexelBox::rect(1, 2, 8, 4))
        );
        for bad in [r(-1, 0, 2, 2), r(0, 0, 9, 2), r(0, 0, 2, 5), r(0, -2, 2, 2)] {
            assert_eq!(texel_rect(Some(bad), 8, 4), None, "{bad:?}");
        }
    }

    /// `UpdateTexture` between levels of different sizes keeps the texels both cover and
    /// zeroes the rest (4-byte texels, 2 x 2 x 2 into 3 x 1 x 1 and back).
    #[test]
    fn overlap_keeps_the_common_texels() {
        let texels: Vec<u8> = (1..=8).flat_map(|v: u8| [v; 4]).collect();
        let small = overlap(Format::A8R8G8B8, &texels, (2, 2, 2), (3, 1, 1));
        assert_eq!(small, [[1; 4], [2; 4], [0; 4]].concat());
        let big = overlap(Format::A8R8G8B8, &small, (3, 1, 1), (2, 2, 2));
        assert_eq!(
            big,
            [[1; 4], [2; 4]]
                .concat()
                .into_iter()
                .chain([0; 24])
                .collect::<Vec<u8>>()
        );
        assert_eq!(
            overlap(Format::A8R8G8B8, &texels, (2, 2, 2), (2, 2, 2)),
            texels
        );
        // Every slice and row: the first column of each.
        let column = overlap(Format::A8R8G8B8, &texels, (2, 2, 2), (1, 2, 2));
        assert_eq!(column, [[1; 4], [3; 4], [5; 4], [7; 4]].concat());
    }
}
