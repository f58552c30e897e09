//! `D3DUSAGE_AUTOGENMIPMAP` and `GenerateMipSubLevels`.
//!
//! An AUTOGENMIPMAP texture shows the application one level (`GetLevelCount` is 1, levels
//! past 0 cannot be locked or asked for) and keeps the whole chain, made from level 0 with
//! the texture's autogen filter (`SetAutoGenFilterType`, LINEAR by default) whenever level 0
//! changed and the texture is about to be sampled: a lock, `UpdateTexture`, `StretchRect` or
//! a draw into it (Wine's `test_mipmap_autogen`, checked on Windows). `GenerateMipSubLevels`
//! makes them at once. Each level is a blit of the one before.

use super::error::{invalid, unsupported, DeviceError};
use super::format::{decode_texel, encode_texel, Format, FormatSupport};
use super::objects::{Filter, Pool, TexelBox, TextureDesc, TextureId, Usage};
use super::upload::write_subresource;
use super::Device;
use crate::device::TextureKind;

/// D3D9's rules for an AUTOGENMIPMAP texture: 2D or cube, one level or the whole chain
/// (0), in DEFAULT or MANAGED. `Ok(false)`: a format the device cannot draw into, for which
/// `CheckDeviceFormat` answers `D3DOK_NOAUTOGEN`: the texture is made with one level and
/// nothing is generated (Windows' rule, Wine's `test_mipmap_autogen`).
pub(crate) fn check_desc(
    call: &'static str,
    desc: &TextureDesc,
    support: FormatSupport,
) -> Result<bool, DeviceError> {
    if desc.kind == TextureKind::Volume {
        return Err(invalid(call, "D3DUSAGE_AUTOGENMIPMAP on a volume texture"));
    }
    if desc.levels > 1 {
        return Err(invalid(
            call,
            format!(
                "{} levels with D3DUSAGE_AUTOGENMIPMAP (0 or 1)",
                desc.levels
            ),
        ));
    }
    if !matches!(desc.pool, Pool::Default | Pool::Managed) {
        return Err(invalid(
            call,
            format!("D3DUSAGE_AUTOGENMIPMAP in {:?}", desc.pool),
        ));
    }
    if desc.usage.contains(Usage::DYNAMIC) && desc.pool != Pool::Default {
        return Err(invalid(call, "D3DUSAGE_DYNAMIC outside D3DPOOL_DEFAULT"));
    }
    Ok(support.render_target)
}

impl Device {
    /// `SetAutoGenFilterType(filter)`: how the levels are made (POINT or LINEAR; the
    /// others act as LINEAR). Other textures take it and keep nothing (Windows, in Wine's
    /// `test_generate_mipmap`).
    pub fn set_autogen_filter(&mut self, id: TextureId, filter: Filter) -> Result<(), DeviceError> {
        let call = "SetAutoGenFilterType";
        let texture = self
            .textures
            .get_mut(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a texture of this device")))?;
        let Some(autogen) = texture.autogen.as_mut() else {
            return Ok(());
        };
        if autogen.filter != filter {
            autogen.filter = filter;
            autogen.made_at = None;
        }
        Ok(())
    }

    /// `GenerateMipSubLevels`: an AUTOGENMIPMAP texture's levels made from level 0 now; other
    /// textures are left alone (D3D9 ignores the call there).
    pub fn generate_mip_sub_levels(&mut self, id: TextureId) -> Result<(), DeviceError> {
        self.upload_texture(id);
        self.make_levels(id)
    }

    /// Before an AUTOGENMIPMAP texture is sampled: its levels made again where level 0
    /// changed (a render-target texture every time: a draw into it changes no version).
    pub(crate) fn refresh_levels(&mut self, id: TextureId) -> Result<(), DeviceError> {
        let Some(texture) = self.textures.get(&id) else {
            return Ok(());
        };
        let Some(autogen) = texture.autogen else {
            return Ok(());
        };
        let drawn = texture.usage.contains(Usage::RENDER_TARGET);
        if drawn || autogen.made_at != Some(texture.version) {
            self.make_levels(id)?;
        }
        Ok(())
    }

    fn make_levels(&mut self, id: TextureId) -> Result<(), DeviceError> {
        let call = "GenerateMipSubLevels";
        let Some(texture) = self.textures.get(&id) else {
            return Err(invalid(
                call,
                format!("{id:?} is not a texture of this device"),
            ));
        };
        let Some(autogen) = texture.autogen else {
            return Ok(());
        };
        if texture.gpu.is_none() {
            return Ok(());
        }
        // Where no copy or draw reaches a cube face (wgpu's GL backend), the levels are made
        // in memory.
        if texture.kind == TextureKind::Cube && !self.gpu.draws_into_cube_faces() {
            return self.make_levels_in_memory(call, id, autogen.filter);
        }
        let (levels, faces) = (texture.levels, texture.faces());
        let sizes: Vec<(u32, u32, u32)> =
            (0..levels).map(|l| texture.subresource_size(l)).collect();
        for face in 0..faces {
            for level in 1..levels {
                let source = self.level_surface(id, face, level - 1)?;
                let destination = self.level_surface(id, face, level)?;
                let (sw, sh, _) = sizes[level as usize - 1];
                let (dw, dh, _) = sizes[level as usize];
                self.blit(
                    call,
                    source,
                    TexelBox::whole(sw, sh, 1),
                    destination,
                    TexelBox::whole(dw, dh, 1),
                    autogen.filter,
                )?;
            }
        }
        self.mark_made(id);
        Ok(())
    }

    fn mark_made(&mut self, id: TextureId) {
        if let Some(t) = self.textures.get_mut(&id) {
            if let Some(a) = t.autogen.as_mut() {
                a.made_at = Some(t.version);
            }
        }
    }

    /// The levels made from level 0 in the texture's D3D9 memory (as the GPU's blit makes
    /// them: each level from the one before, see [`next_level`]) and uploaded. A texture
    /// without memory (DEFAULT) is `Unsupported`.
    fn make_levels_in_memory(
        &mut self,
        call: &'static str,
        id: TextureId,
        filter: Filter,
    ) -> Result<(), DeviceError> {
        let queue = self.gpu.queue.clone();
        let texture = self
            .textures
            .get_mut(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a texture of this device")))?;
        if texture.memory.is_empty() {
            return Err(unsupported(
                call,
                "AUTOGENMIPMAP on a DEFAULT cube texture on wgpu's GL backend (a cube face cannot be drawn into there)",
            ));
        }
        let (levels, format) = (texture.levels, texture.format);
        for face in 0..texture.faces() {
            for level in 1..levels {
                let sub = (face * levels + level) as usize;
                let (sw, sh, _) = texture.subresource_size(level - 1);
                let (dw, dh, _) = texture.subresource_size(level);
                let source = texture.memory.get(sub - 1).unwrap_or_default();
                let made = next_level(format, source, (sw, sh), (dw, dh), filter);
                if let Some(memory) = texture.memory.get_mut(sub) {
                    if let Some(made) = made.get(..memory.len()) {
                        memory.copy_from_slice(made);
                    }
                }
            }
        }
        let texture = &*texture;
        for face in 0..texture.faces() {
            for level in 1..levels {
                let sub = face * levels + level;
                if let Some(memory) = texture.memory.get(sub as usize) {
                    write_subresource(&queue, texture, sub, memory);
                }
            }
        }
        self.mark_made(id);
        Ok(())
    }
}

/// A level `to` texels big made from the level before it (`from`, D3D9 bytes of `format`)
/// as a blit halving it samples: LINEAR averages the 2 x 2 texels under each texel's centre
/// (bilinear filtering there, exactly, where the size halves), POINT reads the texel the
/// centre falls in (its lower right one).
fn next_level(
    format: Format,
    from: &[u8],
    (sw, sh): (u32, u32),
    (dw, dh): (u32, u32),
    filter: Filter,
) -> Vec<u8> {
    let texel = |x: u32, y: u32| {
        let at = format.offset_of(x, y, sw); // (2x + 1) sw / 2dw < sw for x < dw: inside
        let size = format.texel_size() as usize;
        decode_texel(format, from.get(at..at + size).unwrap_or(&[]))
    };
    let mut out = vec![0; format.image_size(dw, dh)];
    for y in 0..dh {
        for x in 0..dw {
            // The source texel under the destination texel's centre, and its neighbours.
            let (cx, cy) = ((2 * x + 1) * sw / (2 * dw), (2 * y + 1) * sh / (2 * dh));
            let colour = match filter {
                Filter::Point => texel(cx, cy),
                Filter::Linear => {
                    let (x0, y0) = (cx.saturating_sub(1), cy.saturating_sub(1));
                    let corners = [texel(x0, y0), texel(cx, y0), texel(x0, cy), texel(cx, cy)];
                    std::array::from_fn(|c| corners.iter().map(|t| t[c]).sum::<f32>() / 4.0)
                }
            };
            let at = format.offset_of(x, y, dw);
            let bytes = encode_texel(format, colour);
            if let Some(slot) = out.get_mut(at..at + bytes.len()) {
                slot.copy_from_slice(&bytes);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4 x 2 A8R8G8B8 level, texels `colours` row by row.
    fn level(colours: &[u32]) -> Vec<u8> {
        colours.iter().flat_map(|c| c.to_le_bytes()).collect()
    }

    #[test]
    fn a_level_halves_the_one_before_as_the_blit_does() {
        let from = level(&[
            0xff00_0000,
            0xffff_ffff,
            0xffff_0000,
            0xffff_0000, //
            0xffff_ffff,
            0xff00_0000,
            0xffff_0000,
            0xff00_00ff,
        ]);
        let size = ((4, 2), (2, 1));
        // LINEAR: each texel the mean of the 2 x 2 under it.
        let linear = next_level(Format::A8R8G8B8, &from, size.0, size.1, Filter::Linear);
        assert_eq!(linear, level(&[0xff80_8080, 0xffbf_0040]));
        // POINT: the lower right texel of the 2 x 2, where the centre falls.
        let point = next_level(Format::A8R8G8B8, &from, size.0, size.1, Filter::Point);
        assert_eq!(point, level(&[0xff00_0000, 0xff00_00ff]));
        // A 1 x 1 level from 1 x 1 is the texel; an odd width clamps at the edge.
        let one = level(&[0xff12_3456]);
        assert_eq!(
            next_level(Format::A8R8G8B8, &one, (1, 1), (1, 1), Filter::Linear),
            one
        );
        // Down a column too: a 2 x 4 level's lower 1 x 2 texel is the mean of rows 2 and 3.
        let column = level(&[
            0xff00_0000,
            0xff00_0000,
            0xff00_0000,
            0xff00_0000,
            0xffff_ffff,
            0xff00_0000,
            0xffff_ffff,
            0xff00_0000,
        ]);
        assert_eq!(
            next_level(Format::A8R8G8B8, &column, (2, 4), (1, 2), Filter::Linear),
            level(&[0xff00_0000, 0xff80_8080])
        );
        let three = level(&[0xff00_0000, 0xff00_0000, 0xffff_ffff]);
        assert_eq!(
            next_level(Format::A8R8G8B8, &three, (3, 1), (1, 1), Filter::Linear),
            level(&[0xff00_0000])
        );
    }
}
