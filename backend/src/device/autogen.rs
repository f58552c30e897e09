//! `D3DUSAGE_AUTOGENMIPMAP` and `GenerateMipSubLevels`.
//!
//! An AUTOGENMIPMAP texture shows the application one level (`GetLevelCount` is 1, levels
//! past 0 cannot be locked or asked for) and keeps the whole chain, made from level 0 with
//! the texture's autogen filter (`SetAutoGenFilterType`, LINEAR by default) whenever level 0
//! changed and the texture is about to be sampled: a lock, `UpdateTexture`, `StretchRect` or
//! a draw into it (Wine's `test_mipmap_autogen`, checked on Windows). `GenerateMipSubLevels`
//! makes them at once. Each level is a blit of the one before.

use super::error::{invalid, DeviceError};
use super::format::FormatSupport;
use super::objects::{Filter, Pool, TexelBox, TextureDesc, TextureId, Usage};
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
        if let Some(t) = self.textures.get_mut(&id) {
            if let Some(a) = t.autogen.as_mut() {
                a.made_at = Some(t.version);
            }
        }
        Ok(())
    }
}
