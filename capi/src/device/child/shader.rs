//! `IDirect3DVertexDeclaration9`, `IDirect3DVertexShader9` and `IDirect3DPixelShader9`:
//! created apart and paired by the device at draw time, as D3D9 does.

use std::ffi::c_void;

use d3d9_backend::device::{DeclarationId, PixelShaderId, VertexShaderId};

use super::methods::{child_methods, unknown_methods};
use super::Child;
use crate::com::{entry, read_in, write_out, Class, Com, Kind};
use crate::device::Device9;
use crate::guid::{
    Guid, IID_IDIRECT3DPIXELSHADER9, IID_IDIRECT3DVERTEXDECLARATION9, IID_IDIRECT3DVERTEXSHADER9,
};
use crate::hresult::{fail, invalid_call, Refusal, D3DERR_INVALIDCALL, HRESULT};
use crate::types::D3DVERTEXELEMENT9;
use crate::vtbl::{
    IDirect3DPixelShader9Vtbl, IDirect3DVertexDeclaration9Vtbl, IDirect3DVertexShader9Vtbl,
};

/// The `IDirect3DVertexDeclaration9` object: the elements as given (with `D3DDECL_END`).
pub struct VertexDeclaration9 {
    pub child: Child,
    pub id: DeclarationId,
    pub elements: Vec<D3DVERTEXELEMENT9>,
    /// Owned by the device (made by `SetFVF`): the device releases it, not the backend
    /// declaration table's other users.
    pub fvf: Option<u32>,
}

/// The `IDirect3DVertexShader9` object: the bytecode as given.
pub struct VertexShader9 {
    pub child: Child,
    pub id: VertexShaderId,
    pub tokens: Vec<u32>,
}

/// The `IDirect3DPixelShader9` object.
pub struct PixelShader9 {
    pub child: Child,
    pub id: PixelShaderId,
    pub tokens: Vec<u32>,
}

impl Class for VertexDeclaration9 {
    const KIND: Kind = Kind::VertexDeclaration;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DVERTEXDECLARATION9]
    }
    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }
    fn destroy(&mut self) {
        // Declarations made of FVF codes are shared by the backend's FVF cache: kept.
        if self.fvf.is_none() {
            let id = self.id;
            let _ = self.child.shared.with(|inner| {
                inner
                    .device
                    .release_vertex_declaration(id)
                    .map_err(Refusal::from)
            });
        }
    }
}

impl Class for VertexShader9 {
    const KIND: Kind = Kind::VertexShader;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DVERTEXSHADER9]
    }
    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }
    fn destroy(&mut self) {
        let id = self.id;
        let _ = self.child.shared.with(|inner| {
            inner
                .device
                .release_vertex_shader(id)
                .map_err(Refusal::from)
        });
    }
}

impl Class for PixelShader9 {
    const KIND: Kind = Kind::PixelShader;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DPIXELSHADER9]
    }
    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }
    fn destroy(&mut self) {
        let id = self.id;
        let _ = self
            .child
            .shared
            .with(|inner| inner.device.release_pixel_shader(id).map_err(Refusal::from));
    }
}

impl super::DeviceChild for VertexDeclaration9 {
    fn child(&self) -> &Child {
        &self.child
    }
}
impl super::DeviceChild for VertexShader9 {
    fn child(&self) -> &Child {
        &self.child
    }
}
impl super::DeviceChild for PixelShader9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl VertexDeclaration9 {
    /// A declaration with `public` (application-made) or a private reference (`SetFVF`'s).
    pub fn make(
        device: &Com<Device9>,
        id: DeclarationId,
        elements: Vec<D3DVERTEXELEMENT9>,
        fvf: Option<u32>,
    ) -> *mut Com<VertexDeclaration9> {
        Com::new(
            &DECL_VTBL as *const _ as *const c_void,
            VertexDeclaration9 {
                child: Child::new(device),
                id,
                elements,
                fvf,
            },
            fvf.is_none(),
        )
    }
}

impl VertexShader9 {
    pub fn created(
        device: &Com<Device9>,
        id: VertexShaderId,
        tokens: Vec<u32>,
    ) -> *mut Com<VertexShader9> {
        Com::new(
            &VS_VTBL as *const _ as *const c_void,
            VertexShader9 {
                child: Child::new(device),
                id,
                tokens,
            },
            true,
        )
    }
}

impl PixelShader9 {
    pub fn created(
        device: &Com<Device9>,
        id: PixelShaderId,
        tokens: Vec<u32>,
    ) -> *mut Com<PixelShader9> {
        Com::new(
            &PS_VTBL as *const _ as *const c_void,
            PixelShader9 {
                child: Child::new(device),
                id,
                tokens,
            },
            true,
        )
    }
}

/// The length in tokens of shader bytecode up to and including its end token (0x0000FFFF),
/// read from C memory; `None` past `limit` tokens without one.
///
/// # Safety
/// `tokens` is readable up to its end token (as D3D9 requires of its callers).
pub unsafe fn bytecode_length(tokens: *const u32, limit: usize) -> Option<usize> {
    if tokens.is_null() {
        return None;
    }
    let mut i = 0;
    while i < limit {
        // SAFETY: readable up to the end token, per the caller.
        let token = unsafe { tokens.add(i).read_unaligned() };
        i += 1;
        if token == 0x0000_ffff {
            return Some(i);
        }
        // Comments hold arbitrary data: skip them by their length.
        if token & 0xffff == 0xfffe {
            i += ((token >> 16) & 0x7fff) as usize;
        }
    }
    None
}

/// `GetFunction` of a shader's `tokens`: their size when `data` is NULL, else the tokens
/// (`D3DERR_INVALIDCALL` when the buffer is smaller).
///
/// # Safety
/// `size` is null or readable and writable; `data` null or writable for `*size` bytes.
unsafe fn get_function(
    tokens: &[u32],
    data: *mut c_void,
    size: *mut u32,
) -> crate::hresult::CallResult {
    // SAFETY: per the caller.
    let capacity = unsafe { read_in(size)? };
    let bytes = (tokens.len() * 4) as u32;
    if data.is_null() {
        // SAFETY: checked non-null above.
        return unsafe { write_out(size, bytes) };
    }
    if capacity < bytes {
        return Err(fail(D3DERR_INVALIDCALL, "the buffer is too small"));
    }
    // SAFETY: writable for `capacity` >= `bytes` bytes, per the caller.
    unsafe {
        std::ptr::copy_nonoverlapping(
            tokens.as_ptr() as *const u8,
            data as *mut u8,
            bytes as usize,
        );
        write_out(size, bytes)
    }
}

mod declaration {
    use super::*;

    type This = *mut Com<VertexDeclaration9>;

    unknown_methods!(VertexDeclaration9, "IDirect3DVertexDeclaration9");
    child_methods!(VertexDeclaration9, "IDirect3DVertexDeclaration9");

    unsafe extern "C" fn get_declaration(
        this: This,
        elements: *mut D3DVERTEXELEMENT9,
        count: *mut u32,
    ) -> HRESULT {
        entry("IDirect3DVertexDeclaration9::GetDeclaration", || {
            // SAFETY: checked live; pointers per the caller.
            let object = unsafe { crate::com::this(this)? };
            if count.is_null() {
                return Err(invalid_call("a NULL count"));
            }
            let list = &object.data.elements;
            if !elements.is_null() {
                // SAFETY: room for the whole declaration, as D3D9 requires of the caller.
                unsafe {
                    std::ptr::copy_nonoverlapping(list.as_ptr(), elements, list.len());
                }
            }
            unsafe { write_out(count, list.len() as u32) }
        })
    }

    pub(super) static VTBL: IDirect3DVertexDeclaration9Vtbl<Com<VertexDeclaration9>> =
        IDirect3DVertexDeclaration9Vtbl {
            QueryInterface: query_interface,
            AddRef: add_ref,
            Release: release,
            GetDevice: get_device,
            GetDeclaration: get_declaration,
        };
}

mod vertex {
    use super::*;

    type This = *mut Com<VertexShader9>;

    unknown_methods!(VertexShader9, "IDirect3DVertexShader9");
    child_methods!(VertexShader9, "IDirect3DVertexShader9");

    unsafe extern "C" fn function(this: This, data: *mut c_void, size: *mut u32) -> HRESULT {
        entry("IDirect3DVertexShader9::GetFunction", || {
            // SAFETY: checked live; pointers per the caller.
            let object = unsafe { crate::com::this(this)? };
            unsafe { get_function(&object.data.tokens, data, size) }
        })
    }

    pub(super) static VTBL: IDirect3DVertexShader9Vtbl<Com<VertexShader9>> =
        IDirect3DVertexShader9Vtbl {
            QueryInterface: query_interface,
            AddRef: add_ref,
            Release: release,
            GetDevice: get_device,
            GetFunction: function,
        };
}

mod pixel {
    use super::*;

    type This = *mut Com<PixelShader9>;

    unknown_methods!(PixelShader9, "IDirect3DPixelShader9");
    child_methods!(PixelShader9, "IDirect3DPixelShader9");

    unsafe extern "C" fn function(this: This, data: *mut c_void, size: *mut u32) -> HRESULT {
        entry("IDirect3DPixelShader9::GetFunction", || {
            // SAFETY: checked live; pointers per the caller.
            let object = unsafe { crate::com::this(this)? };
            unsafe { get_function(&object.data.tokens, data, size) }
        })
    }

    pub(super) static VTBL: IDirect3DPixelShader9Vtbl<Com<PixelShader9>> =
        IDirect3DPixelShader9Vtbl {
            QueryInterface: query_interface,
            AddRef: add_ref,
            Release: release,
            GetDevice: get_device,
            GetFunction: function,
        };
}

use declaration::VTBL as DECL_VTBL;
use pixel::VTBL as PS_VTBL;
use vertex::VTBL as VS_VTBL;
