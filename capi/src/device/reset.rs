//! `IDirect3DDevice9::Reset`, and the lost state a failed one leaves.
//!
//! As Windows does it (Wine's `test_reset`, `test_backbuffer_resize` and `test_managed_reset`
//! pass there; DXVK's `D3D9DeviceEx::Reset` does the same):
//! - present parameters D3D9 refuses outright (a swap effect out of range, more than three
//!   back buffers) fail with `D3DERR_INVALIDCALL` and change nothing;
//! - otherwise every object the device binds is unbound first, whether or not the `Reset`
//!   then succeeds (DXVK: "the internal references are always cleared"; wined3d unbinds
//!   before it looks for live resources), so what only a binding held is freed; a state
//!   block being recorded is dropped and the scene ends;
//! - the `Reset` fails with `D3DERR_INVALIDCALL` while the application holds a reference on
//!   an implicit back buffer or the automatic depth-stencil surface ("A reference held to an
//!   implicit surface causes failures as well"), while a `D3DPOOL_DEFAULT` resource is alive
//!   (the backend's `Device::reset`), or when the rest of the parameters are refused (a
//!   full-screen back buffer of size 0, a format a back buffer cannot have). The device is
//!   then lost until a `Reset` succeeds: `TestCooperativeLevel` answers
//!   `D3DERR_DEVICENOTRESET`, `Present` and `ValidateDevice` `D3DERR_DEVICELOST`, draws and
//!   clears succeed without drawing (the SDK's "Lost Devices": rendering fails silently);
//! - on a real window (`d3d9_native.h`) a back-buffer size of 0 is the window's client area,
//!   and the window's surface is configured again at that area (ending the lost state a
//!   resize began: the backend's `window`);
//! - a successful `Reset` gives the same `IDirect3DSwapChain9` new back buffers (and a new
//!   automatic depth-stencil surface), every state its default, and writes the completed
//!   present parameters back.

use super::object::{check_present_parameters, present_params, reported};
use super::{with_device, Cursor, DeviceInner, This};
use crate::com::{Com, Private};
use crate::device::child::surface::Container;
use crate::device::child::swapchain::implicit_surface;
use crate::device::Device9;
use crate::hresult::{fail, invalid_call, CallResult, Refusal, D3DERR_DEVICELOST, HRESULT};
use crate::types::*;

pub(super) unsafe extern "C" fn reset(this: This, params: *mut D3DPRESENT_PARAMETERS) -> HRESULT {
    with_device(this, "Reset", |device| {
        // SAFETY: per the caller.
        let mut present = unsafe { crate::com::read_in(params)? };
        check_present_parameters(&present)?;
        let shared = &device.data.shared;
        // The bindings' references go once the device is unlocked, freeing what only they
        // held before the live resources are looked for.
        shared.with(|inner| {
            inner.unbind_all();
            Ok(())
        })?;
        shared.with(|inner| {
            let result = inner.reset(device, &mut present);
            inner.lost = result.is_err();
            result
        })?;
        // SAFETY: `params` was readable and is the caller's to fill.
        unsafe { params.write_unaligned(present) };
        Ok(())
    })
}

impl DeviceInner {
    /// Gives up every binding (into `deferred`), the state block being recorded, the scene.
    fn unbind_all(&mut self) {
        self.bound.release(&mut self.deferred);
        if let Some(mut block) = self.recording.take() {
            block.clear(&mut self.deferred);
        }
        self.in_scene = false;
    }

    /// The second half of `Reset`, once the bindings are gone: see the module
    /// documentation.
    fn reset(&mut self, device: &Com<Device9>, present: &mut D3DPRESENT_PARAMETERS) -> CallResult {
        let focus = self.creation.hFocusWindow;
        if present.Windowed == 0 && present.hDeviceWindow.is_null() && focus.is_null() {
            return Err(invalid_call("a full-screen Reset without a window"));
        }
        let held = self
            .implicit
            .back_buffers
            .iter()
            .chain(self.auto_depth_stencil.as_ref())
            .any(|s| s.get().public_refs() > 0);
        if held {
            return Err(invalid_call(
                "the application holds a reference on an implicit back buffer or the \
                 automatic depth-stencil surface",
            ));
        }
        let window = crate::native_window::complete_for_window(present, focus);
        let interval = match &window {
            Some(_) => Some(crate::native_window::interval(
                present.PresentationInterval,
            )?),
            None => None,
        };
        let chain = present_params(present)?;
        self.device.reset(chain).map_err(Refusal::from)?;
        if let Some(interval) = interval {
            self.device
                .set_present_interval(None, interval)
                .map_err(Refusal::from)?;
        }

        // The COM side of the new swap chain: new surfaces, the old ones released.
        self.unbind_all();
        let back_buffers: Vec<_> = self
            .device
            .back_buffers()
            .iter()
            .map(|&id| implicit_surface(device, id, Container::SwapChain))
            .collect();
        let old = std::mem::replace(&mut self.implicit.back_buffers, back_buffers);
        old.into_iter().for_each(|s| self.deferred.push(s));
        let depth = self
            .device
            .auto_depth_stencil()
            .map(|id| implicit_surface(device, id, Container::Device));
        let old = std::mem::replace(&mut self.auto_depth_stencil, depth);
        self.deferred.push_opt(old);
        self.implicit.present = reported(*present, focus);
        self.bound.render_targets[0] = self.implicit.back_buffers.first().map(Private::share);
        self.bound.depth_stencil = self.auto_depth_stencil.as_ref().map(Private::share);
        self.npatch = 0.0;
        self.clip_status = D3DCLIPSTATUS9::default();
        // DXVK's `ResetCursor`: hidden, none set.
        self.cursor = Cursor::default();
        Ok(())
    }
}

/// What a device method does while the device is lost (a `Reset` failed): `None` runs it
/// as usual. Rendering succeeds without drawing; validating answers `D3DERR_DEVICELOST`.
/// (`Present` and `TestCooperativeLevel` answer for themselves.)
pub(super) fn while_lost(call: &str) -> Option<CallResult> {
    match call {
        "Clear"
        | "DrawPrimitive"
        | "DrawIndexedPrimitive"
        | "DrawPrimitiveUP"
        | "DrawIndexedPrimitiveUP" => Some(Ok(())),
        "ValidateDevice" => Some(Err(fail(
            D3DERR_DEVICELOST,
            "the device is lost until a Reset",
        ))),
        _ => None,
    }
}

/// `D3DERR_DEVICELOST` while the device is lost: read-backs of what it drew (DXVK answers so
/// for `GetRenderTargetData`; the SDK's "Lost Devices" lets them fail).
pub(super) fn refuse_while_lost(inner: &DeviceInner) -> CallResult {
    if inner.lost {
        return Err(fail(D3DERR_DEVICELOST, "the device is lost until a Reset"));
    }
    Ok(())
}
