//! The vtables of `d3d9.h`'s interfaces, in the header's method order. Each table lists its
//! methods' names (`METHODS`), which a test compares with the header, so no slot can drift.
//! Interface pointers of other types are `*mut c_void`; `this` is the object type
//! (`This`: `c_void` for a caller, the implementing object's type for its table).
#![allow(non_snake_case)]

use std::ffi::c_void;

use crate::guid::Guid;
use crate::hresult::HRESULT;
use crate::types::*;

type Out = *mut *mut c_void;
type Ptr = *mut c_void;

macro_rules! vtable {
    ($(#[$doc:meta])* $name:ident {
        $($method:ident ( $($arg:ident : $ty:ty),* ) -> $ret:ty;)*
    }) => {
        $(#[$doc])*
        #[repr(C)]
        pub struct $name<This = c_void> {
            $(pub $method: unsafe extern "C" fn(this: *mut This $(, $arg: $ty)*) -> $ret,)*
        }

        impl $name {
            /// The methods in slot order.
            pub const METHODS: &'static [&'static str] = &[$(stringify!($method)),*];
        }
    };
}

vtable! {
    /// `IDirect3D9`.
    IDirect3D9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        RegisterSoftwareDevice(init: Ptr) -> HRESULT;
        GetAdapterCount() -> u32;
        GetAdapterIdentifier(adapter: u32, flags: u32, identifier: *mut D3DADAPTER_IDENTIFIER9) -> HRESULT;
        GetAdapterModeCount(adapter: u32, format: u32) -> u32;
        EnumAdapterModes(adapter: u32, format: u32, mode: u32, out: *mut D3DDISPLAYMODE) -> HRESULT;
        GetAdapterDisplayMode(adapter: u32, out: *mut D3DDISPLAYMODE) -> HRESULT;
        CheckDeviceType(adapter: u32, device_type: u32, display: u32, back_buffer: u32, windowed: i32) -> HRESULT;
        CheckDeviceFormat(adapter: u32, device_type: u32, adapter_format: u32, usage: u32, resource_type: u32, format: u32) -> HRESULT;
        CheckDeviceMultiSampleType(adapter: u32, device_type: u32, format: u32, windowed: i32, samples: u32, quality: *mut u32) -> HRESULT;
        CheckDepthStencilMatch(adapter: u32, device_type: u32, adapter_format: u32, target: u32, depth: u32) -> HRESULT;
        CheckDeviceFormatConversion(adapter: u32, device_type: u32, source: u32, target: u32) -> HRESULT;
        GetDeviceCaps(adapter: u32, device_type: u32, caps: *mut D3DCAPS9) -> HRESULT;
        GetAdapterMonitor(adapter: u32) -> Ptr;
        CreateDevice(adapter: u32, device_type: u32, focus: Ptr, flags: u32, params: *mut D3DPRESENT_PARAMETERS, out: Out) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DDevice9`.
    IDirect3DDevice9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        TestCooperativeLevel() -> HRESULT;
        GetAvailableTextureMem() -> u32;
        EvictManagedResources() -> HRESULT;
        GetDirect3D(out: Out) -> HRESULT;
        GetDeviceCaps(caps: *mut D3DCAPS9) -> HRESULT;
        GetDisplayMode(swap_chain: u32, mode: *mut D3DDISPLAYMODE) -> HRESULT;
        GetCreationParameters(params: *mut D3DDEVICE_CREATION_PARAMETERS) -> HRESULT;
        SetCursorProperties(x: u32, y: u32, bitmap: Ptr) -> HRESULT;
        SetCursorPosition(x: i32, y: i32, flags: u32) -> ();
        ShowCursor(show: i32) -> i32;
        CreateAdditionalSwapChain(params: *mut D3DPRESENT_PARAMETERS, out: Out) -> HRESULT;
        GetSwapChain(index: u32, out: Out) -> HRESULT;
        GetNumberOfSwapChains() -> u32;
        Reset(params: *mut D3DPRESENT_PARAMETERS) -> HRESULT;
        Present(src: *const RECT, dst: *const RECT, window: Ptr, dirty: *const c_void) -> HRESULT;
        GetBackBuffer(swap_chain: u32, index: u32, kind: u32, out: Out) -> HRESULT;
        GetRasterStatus(swap_chain: u32, status: *mut D3DRASTER_STATUS) -> HRESULT;
        SetDialogBoxMode(enable: i32) -> HRESULT;
        SetGammaRamp(swap_chain: u32, flags: u32, ramp: *const D3DGAMMARAMP) -> ();
        GetGammaRamp(swap_chain: u32, ramp: *mut D3DGAMMARAMP) -> ();
        CreateTexture(width: u32, height: u32, levels: u32, usage: u32, format: u32, pool: u32, out: Out, shared: *mut Ptr) -> HRESULT;
        CreateVolumeTexture(width: u32, height: u32, depth: u32, levels: u32, usage: u32, format: u32, pool: u32, out: Out, shared: *mut Ptr) -> HRESULT;
        CreateCubeTexture(edge: u32, levels: u32, usage: u32, format: u32, pool: u32, out: Out, shared: *mut Ptr) -> HRESULT;
        CreateVertexBuffer(length: u32, usage: u32, fvf: u32, pool: u32, out: Out, shared: *mut Ptr) -> HRESULT;
        CreateIndexBuffer(length: u32, usage: u32, format: u32, pool: u32, out: Out, shared: *mut Ptr) -> HRESULT;
        CreateRenderTarget(width: u32, height: u32, format: u32, samples: u32, quality: u32, lockable: i32, out: Out, shared: *mut Ptr) -> HRESULT;
        CreateDepthStencilSurface(width: u32, height: u32, format: u32, samples: u32, quality: u32, discard: i32, out: Out, shared: *mut Ptr) -> HRESULT;
        UpdateSurface(src: Ptr, src_rect: *const RECT, dst: Ptr, dst_point: *const POINT) -> HRESULT;
        UpdateTexture(src: Ptr, dst: Ptr) -> HRESULT;
        GetRenderTargetData(target: Ptr, dst: Ptr) -> HRESULT;
        GetFrontBufferData(swap_chain: u32, dst: Ptr) -> HRESULT;
        StretchRect(src: Ptr, src_rect: *const RECT, dst: Ptr, dst_rect: *const RECT, filter: u32) -> HRESULT;
        ColorFill(surface: Ptr, rect: *const RECT, colour: u32) -> HRESULT;
        CreateOffscreenPlainSurface(width: u32, height: u32, format: u32, pool: u32, out: Out, shared: *mut Ptr) -> HRESULT;
        SetRenderTarget(index: u32, surface: Ptr) -> HRESULT;
        GetRenderTarget(index: u32, out: Out) -> HRESULT;
        SetDepthStencilSurface(surface: Ptr) -> HRESULT;
        GetDepthStencilSurface(out: Out) -> HRESULT;
        BeginScene() -> HRESULT;
        EndScene() -> HRESULT;
        Clear(count: u32, rects: *const D3DRECT, flags: u32, colour: u32, z: f32, stencil: u32) -> HRESULT;
        SetTransform(state: u32, matrix: *const D3DMATRIX) -> HRESULT;
        GetTransform(state: u32, matrix: *mut D3DMATRIX) -> HRESULT;
        MultiplyTransform(state: u32, matrix: *const D3DMATRIX) -> HRESULT;
        SetViewport(viewport: *const D3DVIEWPORT9) -> HRESULT;
        GetViewport(viewport: *mut D3DVIEWPORT9) -> HRESULT;
        SetMaterial(material: *const D3DMATERIAL9) -> HRESULT;
        GetMaterial(material: *mut D3DMATERIAL9) -> HRESULT;
        SetLight(index: u32, light: *const D3DLIGHT9) -> HRESULT;
        GetLight(index: u32, light: *mut D3DLIGHT9) -> HRESULT;
        LightEnable(index: u32, enable: i32) -> HRESULT;
        GetLightEnable(index: u32, enable: *mut i32) -> HRESULT;
        SetClipPlane(index: u32, plane: *const f32) -> HRESULT;
        GetClipPlane(index: u32, plane: *mut f32) -> HRESULT;
        SetRenderState(state: u32, value: u32) -> HRESULT;
        GetRenderState(state: u32, value: *mut u32) -> HRESULT;
        CreateStateBlock(kind: u32, out: Out) -> HRESULT;
        BeginStateBlock() -> HRESULT;
        EndStateBlock(out: Out) -> HRESULT;
        SetClipStatus(status: *const D3DCLIPSTATUS9) -> HRESULT;
        GetClipStatus(status: *mut D3DCLIPSTATUS9) -> HRESULT;
        GetTexture(stage: u32, out: Out) -> HRESULT;
        SetTexture(stage: u32, texture: Ptr) -> HRESULT;
        GetTextureStageState(stage: u32, kind: u32, value: *mut u32) -> HRESULT;
        SetTextureStageState(stage: u32, kind: u32, value: u32) -> HRESULT;
        GetSamplerState(sampler: u32, kind: u32, value: *mut u32) -> HRESULT;
        SetSamplerState(sampler: u32, kind: u32, value: u32) -> HRESULT;
        ValidateDevice(passes: *mut u32) -> HRESULT;
        SetPaletteEntries(palette: u32, entries: *const PALETTEENTRY) -> HRESULT;
        GetPaletteEntries(palette: u32, entries: *mut PALETTEENTRY) -> HRESULT;
        SetCurrentTexturePalette(palette: u32) -> HRESULT;
        GetCurrentTexturePalette(palette: *mut u32) -> HRESULT;
        SetScissorRect(rect: *const RECT) -> HRESULT;
        GetScissorRect(rect: *mut RECT) -> HRESULT;
        SetSoftwareVertexProcessing(software: i32) -> HRESULT;
        GetSoftwareVertexProcessing() -> i32;
        SetNPatchMode(segments: f32) -> HRESULT;
        GetNPatchMode() -> f32;
        DrawPrimitive(primitive: u32, start: u32, count: u32) -> HRESULT;
        DrawIndexedPrimitive(primitive: u32, base: i32, min: u32, vertices: u32, start: u32, count: u32) -> HRESULT;
        DrawPrimitiveUP(primitive: u32, count: u32, data: *const c_void, stride: u32) -> HRESULT;
        DrawIndexedPrimitiveUP(primitive: u32, min: u32, vertices: u32, count: u32, indices: *const c_void, format: u32, data: *const c_void, stride: u32) -> HRESULT;
        ProcessVertices(src_start: u32, dst_index: u32, count: u32, dst: Ptr, declaration: Ptr, flags: u32) -> HRESULT;
        CreateVertexDeclaration(elements: *const D3DVERTEXELEMENT9, out: Out) -> HRESULT;
        SetVertexDeclaration(declaration: Ptr) -> HRESULT;
        GetVertexDeclaration(out: Out) -> HRESULT;
        SetFVF(fvf: u32) -> HRESULT;
        GetFVF(fvf: *mut u32) -> HRESULT;
        CreateVertexShader(tokens: *const u32, out: Out) -> HRESULT;
        SetVertexShader(shader: Ptr) -> HRESULT;
        GetVertexShader(out: Out) -> HRESULT;
        SetVertexShaderConstantF(start: u32, data: *const f32, count: u32) -> HRESULT;
        GetVertexShaderConstantF(start: u32, data: *mut f32, count: u32) -> HRESULT;
        SetVertexShaderConstantI(start: u32, data: *const i32, count: u32) -> HRESULT;
        GetVertexShaderConstantI(start: u32, data: *mut i32, count: u32) -> HRESULT;
        SetVertexShaderConstantB(start: u32, data: *const i32, count: u32) -> HRESULT;
        GetVertexShaderConstantB(start: u32, data: *mut i32, count: u32) -> HRESULT;
        SetStreamSource(stream: u32, buffer: Ptr, offset: u32, stride: u32) -> HRESULT;
        GetStreamSource(stream: u32, out: Out, offset: *mut u32, stride: *mut u32) -> HRESULT;
        SetStreamSourceFreq(stream: u32, value: u32) -> HRESULT;
        GetStreamSourceFreq(stream: u32, value: *mut u32) -> HRESULT;
        SetIndices(buffer: Ptr) -> HRESULT;
        GetIndices(out: Out) -> HRESULT;
        CreatePixelShader(tokens: *const u32, out: Out) -> HRESULT;
        SetPixelShader(shader: Ptr) -> HRESULT;
        GetPixelShader(out: Out) -> HRESULT;
        SetPixelShaderConstantF(start: u32, data: *const f32, count: u32) -> HRESULT;
        GetPixelShaderConstantF(start: u32, data: *mut f32, count: u32) -> HRESULT;
        SetPixelShaderConstantI(start: u32, data: *const i32, count: u32) -> HRESULT;
        GetPixelShaderConstantI(start: u32, data: *mut i32, count: u32) -> HRESULT;
        SetPixelShaderConstantB(start: u32, data: *const i32, count: u32) -> HRESULT;
        GetPixelShaderConstantB(start: u32, data: *mut i32, count: u32) -> HRESULT;
        DrawRectPatch(handle: u32, segments: *const f32, info: *const c_void) -> HRESULT;
        DrawTriPatch(handle: u32, segments: *const f32, info: *const c_void) -> HRESULT;
        DeletePatch(handle: u32) -> HRESULT;
        CreateQuery(kind: u32, out: Out) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DSwapChain9`.
    IDirect3DSwapChain9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        Present(src: *const RECT, dst: *const RECT, window: Ptr, dirty: *const c_void, flags: u32) -> HRESULT;
        GetFrontBufferData(dst: Ptr) -> HRESULT;
        GetBackBuffer(index: u32, kind: u32, out: Out) -> HRESULT;
        GetRasterStatus(status: *mut D3DRASTER_STATUS) -> HRESULT;
        GetDisplayMode(mode: *mut D3DDISPLAYMODE) -> HRESULT;
        GetDevice(out: Out) -> HRESULT;
        GetPresentParameters(params: *mut D3DPRESENT_PARAMETERS) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DSurface9`.
    IDirect3DSurface9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        SetPrivateData(guid: *const Guid, data: *const c_void, size: u32, flags: u32) -> HRESULT;
        GetPrivateData(guid: *const Guid, data: *mut c_void, size: *mut u32) -> HRESULT;
        FreePrivateData(guid: *const Guid) -> HRESULT;
        SetPriority(priority: u32) -> u32;
        GetPriority() -> u32;
        PreLoad() -> ();
        GetType() -> u32;
        GetContainer(riid: *const Guid, out: Out) -> HRESULT;
        GetDesc(desc: *mut D3DSURFACE_DESC) -> HRESULT;
        LockRect(locked: *mut D3DLOCKED_RECT, rect: *const RECT, flags: u32) -> HRESULT;
        UnlockRect() -> HRESULT;
        GetDC(hdc: *mut Ptr) -> HRESULT;
        ReleaseDC(hdc: Ptr) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DVolume9`.
    IDirect3DVolume9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        SetPrivateData(guid: *const Guid, data: *const c_void, size: u32, flags: u32) -> HRESULT;
        GetPrivateData(guid: *const Guid, data: *mut c_void, size: *mut u32) -> HRESULT;
        FreePrivateData(guid: *const Guid) -> HRESULT;
        GetContainer(riid: *const Guid, out: Out) -> HRESULT;
        GetDesc(desc: *mut D3DVOLUME_DESC) -> HRESULT;
        LockBox(locked: *mut D3DLOCKED_BOX, region: *const D3DBOX, flags: u32) -> HRESULT;
        UnlockBox() -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DVertexBuffer9`.
    IDirect3DVertexBuffer9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        SetPrivateData(guid: *const Guid, data: *const c_void, size: u32, flags: u32) -> HRESULT;
        GetPrivateData(guid: *const Guid, data: *mut c_void, size: *mut u32) -> HRESULT;
        FreePrivateData(guid: *const Guid) -> HRESULT;
        SetPriority(priority: u32) -> u32;
        GetPriority() -> u32;
        PreLoad() -> ();
        GetType() -> u32;
        Lock(offset: u32, size: u32, data: *mut Ptr, flags: u32) -> HRESULT;
        Unlock() -> HRESULT;
        GetDesc(desc: *mut D3DVERTEXBUFFER_DESC) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DIndexBuffer9`.
    IDirect3DIndexBuffer9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        SetPrivateData(guid: *const Guid, data: *const c_void, size: u32, flags: u32) -> HRESULT;
        GetPrivateData(guid: *const Guid, data: *mut c_void, size: *mut u32) -> HRESULT;
        FreePrivateData(guid: *const Guid) -> HRESULT;
        SetPriority(priority: u32) -> u32;
        GetPriority() -> u32;
        PreLoad() -> ();
        GetType() -> u32;
        Lock(offset: u32, size: u32, data: *mut Ptr, flags: u32) -> HRESULT;
        Unlock() -> HRESULT;
        GetDesc(desc: *mut D3DINDEXBUFFER_DESC) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DTexture9`.
    IDirect3DTexture9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        SetPrivateData(guid: *const Guid, data: *const c_void, size: u32, flags: u32) -> HRESULT;
        GetPrivateData(guid: *const Guid, data: *mut c_void, size: *mut u32) -> HRESULT;
        FreePrivateData(guid: *const Guid) -> HRESULT;
        SetPriority(priority: u32) -> u32;
        GetPriority() -> u32;
        PreLoad() -> ();
        GetType() -> u32;
        SetLOD(lod: u32) -> u32;
        GetLOD() -> u32;
        GetLevelCount() -> u32;
        SetAutoGenFilterType(filter: u32) -> HRESULT;
        GetAutoGenFilterType() -> u32;
        GenerateMipSubLevels() -> ();
        GetLevelDesc(level: u32, desc: *mut D3DSURFACE_DESC) -> HRESULT;
        GetSurfaceLevel(level: u32, out: Out) -> HRESULT;
        LockRect(level: u32, locked: *mut D3DLOCKED_RECT, rect: *const RECT, flags: u32) -> HRESULT;
        UnlockRect(level: u32) -> HRESULT;
        AddDirtyRect(rect: *const RECT) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DCubeTexture9`.
    IDirect3DCubeTexture9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        SetPrivateData(guid: *const Guid, data: *const c_void, size: u32, flags: u32) -> HRESULT;
        GetPrivateData(guid: *const Guid, data: *mut c_void, size: *mut u32) -> HRESULT;
        FreePrivateData(guid: *const Guid) -> HRESULT;
        SetPriority(priority: u32) -> u32;
        GetPriority() -> u32;
        PreLoad() -> ();
        GetType() -> u32;
        SetLOD(lod: u32) -> u32;
        GetLOD() -> u32;
        GetLevelCount() -> u32;
        SetAutoGenFilterType(filter: u32) -> HRESULT;
        GetAutoGenFilterType() -> u32;
        GenerateMipSubLevels() -> ();
        GetLevelDesc(level: u32, desc: *mut D3DSURFACE_DESC) -> HRESULT;
        GetCubeMapSurface(face: u32, level: u32, out: Out) -> HRESULT;
        LockRect(face: u32, level: u32, locked: *mut D3DLOCKED_RECT, rect: *const RECT, flags: u32) -> HRESULT;
        UnlockRect(face: u32, level: u32) -> HRESULT;
        AddDirtyRect(face: u32, rect: *const RECT) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DVolumeTexture9`.
    IDirect3DVolumeTexture9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        SetPrivateData(guid: *const Guid, data: *const c_void, size: u32, flags: u32) -> HRESULT;
        GetPrivateData(guid: *const Guid, data: *mut c_void, size: *mut u32) -> HRESULT;
        FreePrivateData(guid: *const Guid) -> HRESULT;
        SetPriority(priority: u32) -> u32;
        GetPriority() -> u32;
        PreLoad() -> ();
        GetType() -> u32;
        SetLOD(lod: u32) -> u32;
        GetLOD() -> u32;
        GetLevelCount() -> u32;
        SetAutoGenFilterType(filter: u32) -> HRESULT;
        GetAutoGenFilterType() -> u32;
        GenerateMipSubLevels() -> ();
        GetLevelDesc(level: u32, desc: *mut D3DVOLUME_DESC) -> HRESULT;
        GetVolumeLevel(level: u32, out: Out) -> HRESULT;
        LockBox(level: u32, locked: *mut D3DLOCKED_BOX, region: *const D3DBOX, flags: u32) -> HRESULT;
        UnlockBox(level: u32) -> HRESULT;
        AddDirtyBox(region: *const D3DBOX) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DVertexDeclaration9`.
    IDirect3DVertexDeclaration9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        GetDeclaration(elements: *mut D3DVERTEXELEMENT9, count: *mut u32) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DVertexShader9`.
    IDirect3DVertexShader9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        GetFunction(data: *mut c_void, size: *mut u32) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DPixelShader9`.
    IDirect3DPixelShader9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        GetFunction(data: *mut c_void, size: *mut u32) -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DStateBlock9`.
    IDirect3DStateBlock9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        Capture() -> HRESULT;
        Apply() -> HRESULT;
    }
}

vtable! {
    /// `IDirect3DQuery9`.
    IDirect3DQuery9Vtbl {
        QueryInterface(riid: *const Guid, out: Out) -> HRESULT;
        AddRef() -> u32;
        Release() -> u32;
        GetDevice(out: Out) -> HRESULT;
        GetType() -> u32;
        GetDataSize() -> u32;
        Issue(flags: u32) -> HRESULT;
        GetData(data: *mut c_void, size: u32, flags: u32) -> HRESULT;
    }
}
