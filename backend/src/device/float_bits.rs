//! Float32 render targets held as the bits of their floats, where the adapter cannot render
//! float32 (wgpu's GL backend: Mesa's core context does not list `GL_EXT_color_buffer_float`,
//! which wgpu asks for).
//!
//! `R32Uint`, `Rg32Uint` and `Rgba32Uint` render on every backend, so a float32 image that is
//! drawn into — a render-target surface, a level of a render-target or AUTOGENMIPMAP texture —
//! is held in the `u32` format of its size where the float one cannot be rendered
//! ([`super::Fallbacks::float32_as_bits`] forces it). Then:
//! - draws into it write `bitcast<u32>` of their colour (render target 0: the pair key's
//!   `bitcast`), clears and `ColorFill` write the colour's bits (`readback`, `copies`);
//! - copies between two such images copy bits; `StretchRect` into or out of one draws
//!   (`blit`), reading with `textureLoad` + `bitcast<f32>` and writing `bitcast<u32>`;
//! - read-back and upload move the bits as they are (`format::texel`);
//! - shaders sample a float copy ([`Device::float_copy_view`]): the same bytes copied through
//!   a buffer into the float format, on the pending encoder at bind time, again at every bind
//!   of a render-target texture (its draws change it) and of any other whose version moved.
//!   The float format samples as it does elsewhere (point-sampled on GL, which has no
//!   `FLOAT32_FILTERABLE`).

use wgpu::TextureFormat as W;

use super::Device;

/// The `u32` format holding the bits of a float32 format.
pub(crate) fn bits_of_float(format: W) -> Option<W> {
    match format {
        W::R32Float => Some(W::R32Uint),
        W::Rg32Float => Some(W::Rg32Uint),
        W::Rgba32Float => Some(W::Rgba32Uint),
        _ => None,
    }
}

/// The float32 format whose bits a `u32` format holds (`None`: not such a format).
pub(crate) fn float_of_bits(format: W) -> Option<W> {
    match format {
        W::R32Uint => Some(W::R32Float),
        W::Rg32Uint => Some(W::Rg32Float),
        W::Rgba32Uint => Some(W::Rgba32Float),
        _ => None,
    }
}

/// Whether a GPU format holds float32 bits (the device makes no other `u32` images).
pub(crate) fn holds_bits(format: W) -> bool {
    float_of_bits(format).is_some()
}

/// The format shaders sample an image of `format` in: the float format for bits.
pub(crate) fn sampled_format(format: W) -> W {
    float_of_bits(format).unwrap_or(format)
}

/// The format a drawn image of `format` is held in on `gpu`: the `u32` format of a float32
/// one where the adapter cannot give the float format `usage` and can the `u32` one, or
/// where `forced`; `format` otherwise.
pub(crate) fn held_format(
    gpu: &crate::gpu::Gpu,
    format: W,
    usage: wgpu::TextureUsages,
    forced: bool,
) -> W {
    match bits_of_float(format) {
        Some(bits)
            if (forced || !gpu.format_usages(format).contains(usage))
                && gpu.format_usages(bits).contains(usage) =>
        {
            bits
        }
        _ => format,
    }
}

impl Device {
    /// The format a drawn image of `format` is held in on this device ([`held_format`]).
    pub(crate) fn drawn_format(&self, format: W, usage: wgpu::TextureUsages) -> W {
        held_format(
            &self.gpu,
            format,
            usage,
            self.params.fallbacks.float32_as_bits,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each float32 format pairs with the `u32` format of its size, both ways; no other
    /// format holds bits, and shaders sample bits as the float format (the rest as they are).
    #[test]
    fn each_float32_format_pairs_with_the_u32_format_of_its_size() {
        let pairs = [
            (W::R32Float, W::R32Uint),
            (W::Rg32Float, W::Rg32Uint),
            (W::Rgba32Float, W::Rgba32Uint),
        ];
        for (float, bits) in pairs {
            assert_eq!(bits_of_float(float), Some(bits), "{float:?}");
            assert_eq!(float_of_bits(bits), Some(float), "{bits:?}");
            assert!(holds_bits(bits), "{bits:?}");
            assert!(!holds_bits(float), "{float:?}");
            assert_eq!(sampled_format(bits), float);
            assert_eq!(sampled_format(float), float);
        }
        for other in [
            W::Rgba8Unorm,
            W::R16Float,
            W::Rgba16Float,
            W::R32Sint,
            W::Rg16Uint,
        ] {
            assert_eq!(bits_of_float(other), None, "{other:?}");
            assert_eq!(float_of_bits(other), None, "{other:?}");
            assert!(!holds_bits(other), "{other:?}");
            assert_eq!(sampled_format(other), other);
        }
    }

    /// A float32 image that is drawn into is held as bits where forced, and otherwise
    /// exactly where the adapter cannot give the float format the usage; no other
    /// format is.
    #[test]
    fn gpu_float32_is_held_as_bits_where_forced_or_not_renderable() {
        let gpu =
            crate::gpu::Gpu::new().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        let target = wgpu::TextureUsages::RENDER_ATTACHMENT;
        for (float, bits) in [(W::R32Float, W::R32Uint), (W::Rgba32Float, W::Rgba32Uint)] {
            assert_eq!(held_format(&gpu, float, target, true), bits, "forced");
            let renders = gpu.format_usages(float).contains(target);
            let held = held_format(&gpu, float, target, false);
            assert_eq!(held, if renders { float } else { bits }, "{float:?}");
        }
        assert_eq!(
            held_format(&gpu, W::Rgba8Unorm, target, true),
            W::Rgba8Unorm
        );
    }
}
