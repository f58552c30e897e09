//! OpenGL context state that D3D9 behaviour needs and wgpu's GL backend leaves unset.
//!
//! Cube-map filtering across face edges: D3D9 left it to the hardware, and every D3D10-class
//! GPU (so every GPU a D3D9 game meets today) filters seamlessly; Vulkan, Metal and DX12 do so
//! always. Desktop GL filters each face on its own, clamped at its edges, unless
//! `GL_TEXTURE_CUBE_MAP_SEAMLESS` is enabled, and wgpu does not enable it. wined3d enables it
//! where the driver has it; so do we, on every wgpu device a [`Gpu`](super::Gpu) is made from, so
//! a linear-filtered `texld`/`texldl` of a cube map gives the same texels on GL as on Vulkan
//! (and as the reference interpreter). GL ES 3.0 and WebGL 2 are seamless by definition.

/// Enables seamless cube-map filtering when `device` runs on desktop GL; does nothing on
/// other backends or on GL ES.
#[cfg(all(
    not(target_arch = "wasm32"),
    any(
        windows,
        target_os = "linux",
        target_os = "android",
        target_os = "freebsd"
    )
))]
#[allow(unsafe_code)]
pub(crate) fn enable_seamless_cube_maps(device: &wgpu::Device) {
    use glow::HasContext;
    // SAFETY: `as_hal` needs the hal device to be used only in ways that keep wgpu's own
    // state valid. Enabling one global capability that wgpu's GL backend never reads or
    // changes does that; the context lock is held only for the two calls below.
    let Some(hal) = (unsafe { device.as_hal::<wgpu::hal::api::Gles>() }) else {
        return;
    };
    let gl = hal.context().lock();
    if !gl.version().is_embedded {
        // SAFETY: a plain capability switch on the current context, valid since GL 3.2.
        unsafe { gl.enable(glow::TEXTURE_CUBE_MAP_SEAMLESS) };
    }
}

/// No GL backend on this target: nothing to do.
#[cfg(not(all(
    not(target_arch = "wasm32"),
    any(
        windows,
        target_os = "linux",
        target_os = "android",
        target_os = "freebsd"
    )
)))]
pub(crate) fn enable_seamless_cube_maps(_device: &wgpu::Device) {}
