//! `IDirect3DStateBlock9`: recorded (`BeginStateBlock` / `EndStateBlock`) or made of a kind
//! (`CreateStateBlock`: `D3DSBT_ALL`, `_PIXELSTATE`, `_VERTEXSTATE`); `Capture` takes the
//! device's current values of the states it holds, `Apply` sets them.

use std::ffi::c_void;
use std::sync::Mutex;

use super::methods::{child_methods, unknown_methods};
use super::state::{block_keys, Block, BlockType, ConstantCounts};
use super::Child;
use crate::com::{entry, Class, Com, Deferred, Kind};
use crate::device::{Device9, DeviceInner};
use crate::guid::{Guid, IID_IDIRECT3DSTATEBLOCK9};
use crate::hresult::{invalid_call, CallResult, HRESULT};
use crate::vtbl::IDirect3DStateBlock9Vtbl;

/// The `IDirect3DStateBlock9` object.
pub struct StateBlock9 {
    pub child: Child,
    block: Mutex<Block>,
}

impl Class for StateBlock9 {
    const KIND: Kind = Kind::StateBlock;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DSTATEBLOCK9]
    }
    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }
    fn destroy(&mut self) {
        let mut deferred = Deferred::default();
        self.block
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .clear(&mut deferred);
        deferred.run();
    }
}

impl super::DeviceChild for StateBlock9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl StateBlock9 {
    /// A state block holding `block`, with one reference.
    pub fn created(device: &Com<Device9>, block: Block) -> *mut Com<StateBlock9> {
        Com::new(
            &VTBL as *const _ as *const c_void,
            StateBlock9 {
                child: Child::new(device),
                block: Mutex::new(block),
            },
            true,
        )
    }

    /// `CreateStateBlock(kind)`: the current values of the states `kind` holds.
    pub fn capture_kind(inner: &mut DeviceInner, kind: BlockType) -> Block {
        let params = inner.device.params();
        let software = params.processing != d3d9_translator::decl::VertexProcessing::Hardware;
        let counts = ConstantCounts {
            vs_f: if software {
                8192
            } else {
                params.caps.max_vertex_shader_const.min(256)
            },
            vs_i: if software { 2048 } else { 16 },
            vs_b: if software { 2048 } else { 16 },
            ps_f: 224,
            ps_i: 16,
            ps_b: 16,
        };
        let lights: Vec<u32> = inner.device.light_indices();
        let mut block = Block::default();
        for key in block_keys(kind, &counts, &lights) {
            if let Some(change) = inner.current(key) {
                block.changes.insert(key, change);
            }
        }
        block
    }
}

type This = *mut Com<StateBlock9>;

unknown_methods!(StateBlock9, "IDirect3DStateBlock9");
child_methods!(StateBlock9, "IDirect3DStateBlock9");

unsafe extern "C" fn capture(this: This) -> HRESULT {
    entry("IDirect3DStateBlock9::Capture", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        object.data.child.shared.with(|inner| {
            if inner.recording.is_some() {
                return Err(invalid_call("Capture while a state block is recorded"));
            }
            let mut block = object.data.block.lock().unwrap_or_else(|e| e.into_inner());
            let keys: Vec<_> = block.changes.keys().copied().collect();
            for key in keys {
                if let Some(current) = inner.current(key) {
                    block.record(current, &mut inner.deferred);
                }
            }
            Ok(())
        })
    })
}

unsafe extern "C" fn apply(this: This) -> HRESULT {
    entry("IDirect3DStateBlock9::Apply", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        object
            .data
            .child
            .shared
            .with(|inner| apply_block(inner, &object.data.block))
    })
}

fn apply_block(inner: &mut DeviceInner, block: &Mutex<Block>) -> CallResult {
    if inner.recording.is_some() {
        return Err(invalid_call("Apply while a state block is recorded"));
    }
    let changes: Vec<_> = {
        let block = block.lock().unwrap_or_else(|e| e.into_inner());
        block.changes.values().map(|c| c.share()).collect()
    };
    for change in changes {
        // A state the device refuses (a released object, ...) does not stop the others.
        if let Err(e) = inner.apply(change) {
            log::info!("IDirect3DStateBlock9::Apply: {}", e.why);
        }
    }
    Ok(())
}

static VTBL: IDirect3DStateBlock9Vtbl<Com<StateBlock9>> = IDirect3DStateBlock9Vtbl {
    QueryInterface: query_interface,
    AddRef: add_ref,
    Release: release,
    GetDevice: get_device,
    Capture: capture,
    Apply: apply,
};
