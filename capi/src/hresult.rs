//! `HRESULT`s as D3D9 returns them, and the device's errors mapped onto them. Every refusal
//! is logged (`D3D9_LOG` / `RUST_LOG`); an unsupported request is logged once per message.

use std::collections::HashSet;
use std::sync::Mutex;

use d3d9_backend::device::DeviceError;

/// A COM result code.
pub type HRESULT = i32;

const fn d3d_error(code: u32) -> HRESULT {
    (0x8000_0000u32 | (0x876 << 16) | code) as HRESULT
}

pub const S_OK: HRESULT = 0;
pub const S_FALSE: HRESULT = 1;
pub const E_NOTIMPL: HRESULT = 0x8000_4001u32 as HRESULT;
pub const E_NOINTERFACE: HRESULT = 0x8000_4002u32 as HRESULT;
pub const E_POINTER: HRESULT = 0x8000_4003u32 as HRESULT;
pub const E_FAIL: HRESULT = 0x8000_4005u32 as HRESULT;
pub const E_OUTOFMEMORY: HRESULT = 0x8007_000Eu32 as HRESULT;
pub const D3D_OK: HRESULT = S_OK;
pub const D3DERR_WRONGTEXTUREFORMAT: HRESULT = d3d_error(2072);
pub const D3DERR_UNSUPPORTEDCOLOROPERATION: HRESULT = d3d_error(2073);
pub const D3DERR_NOTFOUND: HRESULT = d3d_error(2150);
pub const D3DERR_MOREDATA: HRESULT = d3d_error(2151);
pub const D3DERR_DEVICELOST: HRESULT = d3d_error(2152);
pub const D3DERR_DEVICENOTRESET: HRESULT = d3d_error(2153);
pub const D3DERR_NOTAVAILABLE: HRESULT = d3d_error(2154);
pub const D3DERR_OUTOFVIDEOMEMORY: HRESULT = d3d_error(380);
pub const D3DERR_INVALIDDEVICE: HRESULT = d3d_error(2155);
pub const D3DERR_INVALIDCALL: HRESULT = d3d_error(2156);
pub const D3DERR_DRIVERINTERNALERROR: HRESULT = d3d_error(2087);
pub const D3DERR_WASSTILLDRAWING: HRESULT = d3d_error(540);

/// A refusal: the HRESULT and why (logged where it is turned into the HRESULT).
#[derive(Debug)]
pub struct Refusal {
    pub hr: HRESULT,
    pub why: String,
    /// Legal D3D9 this library does not do yet (logged once per message).
    pub unsupported: bool,
}

/// What an entry point's body returns.
pub type CallResult<T = ()> = Result<T, Refusal>;

/// `D3DERR_INVALIDCALL` with the reason.
pub fn invalid_call(why: impl Into<String>) -> Refusal {
    Refusal {
        hr: D3DERR_INVALIDCALL,
        why: why.into(),
        unsupported: false,
    }
}

/// A refusal with another HRESULT than `D3DERR_INVALIDCALL` (`D3DERR_NOTFOUND`, ...).
pub fn fail(hr: HRESULT, why: impl Into<String>) -> Refusal {
    Refusal {
        hr,
        why: why.into(),
        unsupported: false,
    }
}

/// Legal D3D9 this library cannot do yet: `hr` is what Windows answers a request it cannot
/// serve (`D3DERR_NOTAVAILABLE`, `D3DERR_INVALIDCALL`, `E_NOTIMPL`).
pub fn unsupported(hr: HRESULT, why: impl Into<String>) -> Refusal {
    Refusal {
        hr,
        why: why.into(),
        unsupported: true,
    }
}

impl From<DeviceError> for Refusal {
    fn from(e: DeviceError) -> Refusal {
        let lost = match e {
            DeviceError::DeviceLost { .. } => Some(D3DERR_DEVICELOST),
            DeviceError::DeviceNotReset { .. } => Some(D3DERR_DEVICENOTRESET),
            _ => None,
        };
        if let Some(hr) = lost {
            return fail(hr, e.to_string());
        }
        let unsupported = !e.is_invalid_call();
        Refusal {
            hr: D3DERR_INVALIDCALL,
            why: e.to_string(),
            unsupported,
        }
    }
}

static LOGGED: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Logs a refusal of `call` (an unsupported one once per message) and returns its HRESULT.
pub fn report(call: &str, refusal: &Refusal) -> HRESULT {
    if refusal.unsupported {
        let message = format!("{call}: unsupported: {}", refusal.why);
        let mut logged = LOGGED.lock().unwrap_or_else(|e| e.into_inner());
        if logged
            .get_or_insert_with(HashSet::new)
            .insert(message.clone())
        {
            log::warn!("{message}");
        }
    } else {
        log::info!("{call}: {:#x}: {}", refusal.hr as u32, refusal.why);
    }
    refusal.hr
}

/// The HRESULT of a call's result, reporting a refusal.
pub fn hresult(call: &str, result: CallResult) -> HRESULT {
    match result {
        Ok(()) => D3D_OK,
        Err(refusal) => report(call, &refusal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d3d_errors_have_windows_values() {
        assert_eq!(D3DERR_INVALIDCALL as u32, 0x8876_086c);
        assert_eq!(D3DERR_NOTAVAILABLE as u32, 0x8876_086a);
        assert_eq!(D3DERR_DEVICELOST as u32, 0x8876_0868);
        assert_eq!(D3DERR_WASSTILLDRAWING as u32, 0x8876_021c);
        assert_eq!(E_NOINTERFACE as u32, 0x8000_4002);
    }
}
