//! Random calls of the methods every object has, of `IDirect3D9`'s and of the device
//! children's own (see `random_calls.rs`).

use super::*;

impl World {
    /// AddRef, QueryInterface, GetDevice and private data on any object.
    pub(super) fn common(&mut self) {
        let Some(r) = self.pick_ref(&ALL) else { return };
        match self.rng.below(4) {
            0 => {
                let count = unknown!(r.kind, r.ptr, AddRef);
                self.hold(r);
                assert_eq!(
                    count,
                    self.expected(r.counted, r.counted_kind),
                    "AddRef of {:?}",
                    r.kind
                );
            }
            1 => {
                let iid = self.rng.pick(&IIDS);
                let mut out: *mut c_void = 0xdead as *mut c_void;
                let hr = unknown!(r.kind, r.ptr, QueryInterface, &iid, &mut out);
                if hr == S_OK {
                    assert_eq!(out, r.ptr, "QueryInterface answered another object");
                    self.hold(r);
                } else {
                    assert_eq!(
                        (hr, out),
                        (E_NOINTERFACE, std::ptr::null_mut()),
                        "QueryInterface"
                    );
                }
            }
            2 if !matches!(r.kind, Kind::D3d | Kind::Device) => {
                let mut out: *mut c_void = std::ptr::null_mut();
                let p = self.out(&mut out);
                if child!(r.kind, r.ptr, GetDevice, p) == S_OK {
                    assert_eq!(out, r.device, "GetDevice");
                    self.hold(Ref {
                        ptr: out,
                        kind: Kind::Device,
                        counted: out,
                        counted_kind: Kind::Device,
                        device: out,
                    });
                }
            }
            _ if !matches!(
                r.kind,
                Kind::D3d
                    | Kind::Device
                    | Kind::SwapChain
                    | Kind::Decl
                    | Kind::Vs
                    | Kind::Ps
                    | Kind::StateBlock
                    | Kind::Query
            ) =>
            {
                let guid = self.rng.pick(&PRIVATE_GUIDS);
                match self.rng.below(4) {
                    0 => {
                        let foreign = &mut *self.foreign as *mut Foreign as *mut c_void;
                        let size = if self.rng.chance(80) { 8 } else { 4 };
                        data!(r.kind, r.ptr, SetPrivateData, &guid, foreign, size, 1);
                    }
                    1 => {
                        let size = self.rng.below(32) as u32;
                        let bytes = self.bytes.as_ptr() as *const c_void;
                        data!(r.kind, r.ptr, SetPrivateData, &guid, bytes, size, 0);
                    }
                    2 => {
                        let mut buffer = [0u8; 64];
                        let mut size = self.rng.below(65) as u32;
                        let data = if self.rng.chance(20) {
                            std::ptr::null_mut()
                        } else {
                            buffer.as_mut_ptr() as *mut c_void
                        };
                        let hr = data!(r.kind, r.ptr, GetPrivateData, &guid, data, &mut size);
                        let foreign = &*self.foreign as *const Foreign as usize;
                        if hr == S_OK
                            && size == 8
                            && usize::from_ne_bytes(buffer[..8].try_into().expect("8 bytes"))
                                == foreign
                        {
                            // An interface comes back with a reference: give it back.
                            // SAFETY: the test's own object.
                            unsafe { foreign_release(&mut *self.foreign) };
                        }
                    }
                    _ => {
                        data!(r.kind, r.ptr, FreePrivateData, &guid);
                    }
                }
            }
            _ => {}
        }
    }

    pub(super) fn direct3d(&mut self) {
        let Some(r) = self.pick_ref(&[Kind::D3d]) else {
            let d3d = d3d9::Direct3DCreate9(32);
            return self.add(d3d, Kind::D3d, std::ptr::null_mut());
        };
        let (a, f) = (self.rng.pick(&[0, 0, 0, 1, 5]), self.rng.pick(&FORMATS));
        let mut mode = D3DDISPLAYMODE::default();
        let mut caps = D3DCAPS9::default();
        let pmode = self.out(&mut mode);
        match self.rng.below(9) {
            0 => {
                call!(IDirect3D9Vtbl, r.ptr, GetAdapterCount);
            }
            1 => {
                call!(IDirect3D9Vtbl, r.ptr, GetAdapterModeCount, a, f);
            }
            2 => {
                call!(
                    IDirect3D9Vtbl,
                    r.ptr,
                    EnumAdapterModes,
                    a,
                    f,
                    self.rng.number(),
                    pmode
                );
            }
            3 => {
                call!(IDirect3D9Vtbl, r.ptr, GetAdapterDisplayMode, a, pmode);
            }
            4 => {
                call!(
                    IDirect3D9Vtbl,
                    r.ptr,
                    CheckDeviceFormat,
                    a,
                    1,
                    22,
                    self.rng.number(),
                    self.rng.below(8) as u32,
                    f
                );
            }
            5 => {
                call!(
                    IDirect3D9Vtbl,
                    r.ptr,
                    CheckDepthStencilMatch,
                    a,
                    1,
                    22,
                    f,
                    self.rng.pick(&FORMATS)
                );
            }
            6 => {
                let pcaps = self.out(&mut caps);
                call!(
                    IDirect3D9Vtbl,
                    r.ptr,
                    GetDeviceCaps,
                    a,
                    self.rng.below(5) as u32,
                    pcaps
                );
            }
            7 => {
                call!(
                    IDirect3D9Vtbl,
                    r.ptr,
                    CheckDeviceType,
                    a,
                    1,
                    f,
                    self.rng.pick(&FORMATS),
                    1
                );
            }
            _ if self.devices_made < 3 => {
                let mut pp = present_parameters(&mut self.rng);
                let mut device: *mut c_void = std::ptr::null_mut();
                let flags = self.rng.pick(&[0x20, 0x40, 0x80, 0x40, 0x140, 0]);
                let hr = call!(
                    IDirect3D9Vtbl,
                    r.ptr,
                    CreateDevice,
                    a,
                    1,
                    std::ptr::dangling_mut::<c_void>(),
                    flags,
                    &mut pp,
                    &mut device
                );
                if hr == S_OK {
                    self.devices_made += 1;
                    self.device_d3d.insert(device as usize, r.ptr);
                    self.hold(Ref {
                        ptr: device,
                        kind: Kind::Device,
                        counted: device,
                        counted_kind: Kind::Device,
                        device,
                    });
                }
            }
            _ => {}
        }
    }

    pub(super) fn child_object(&mut self) {
        let kinds = &ALL[2..];
        let Some(r) = self.pick_ref(kinds) else {
            return;
        };
        if matches!(
            r.kind,
            Kind::Surface
                | Kind::Texture
                | Kind::Cube
                | Kind::VolumeTexture
                | Kind::VertexBuffer
                | Kind::IndexBuffer
        ) && self.rng.chance(25)
        {
            return self.resource(r);
        }
        match r.kind {
            Kind::Texture | Kind::Cube | Kind::VolumeTexture => self.texture(r),
            Kind::Surface => self.surface(r),
            Kind::Volume => self.volume(r),
            Kind::VertexBuffer | Kind::IndexBuffer => self.buffer(r),
            Kind::SwapChain => self.swap_chain(r),
            Kind::StateBlock => {
                if self.rng.chance(50) {
                    call!(IDirect3DStateBlock9Vtbl, r.ptr, Capture);
                } else {
                    call!(IDirect3DStateBlock9Vtbl, r.ptr, Apply);
                }
            }
            Kind::Query => self.query(r),
            Kind::Decl => {
                // Room for any declaration (MAXD3DDECLLENGTH + 1 elements).
                let mut elements = [D3DVERTEXELEMENT9::default(); 65];
                let mut count = 0u32;
                let p = if self.rng.chance(50) {
                    std::ptr::null_mut()
                } else {
                    elements.as_mut_ptr()
                };
                let c = self.out(&mut count);
                call!(IDirect3DVertexDeclaration9Vtbl, r.ptr, GetDeclaration, p, c);
            }
            Kind::Vs | Kind::Ps => {
                let mut size = 0u32;
                let mut code = vec![0u8; 4096];
                let capacity = self.rng.pick(&[0, 4, 64, 4096]);
                let sized = if r.kind == Kind::Vs {
                    call!(
                        IDirect3DVertexShader9Vtbl,
                        r.ptr,
                        GetFunction,
                        std::ptr::null_mut(),
                        &mut size
                    )
                } else {
                    call!(
                        IDirect3DPixelShader9Vtbl,
                        r.ptr,
                        GetFunction,
                        std::ptr::null_mut(),
                        &mut size
                    )
                };
                assert_eq!(sized, S_OK, "GetFunction(NULL)");
                size = capacity;
                let p = code.as_mut_ptr() as *mut c_void;
                if r.kind == Kind::Vs {
                    call!(IDirect3DVertexShader9Vtbl, r.ptr, GetFunction, p, &mut size);
                } else {
                    call!(IDirect3DPixelShader9Vtbl, r.ptr, GetFunction, p, &mut size);
                }
            }
            Kind::D3d | Kind::Device => unreachable!("not a child"),
        }
    }

    /// `IDirect3DResource9`'s methods; `GetType` answers the resource's type.
    fn resource(&mut self, r: Ref) {
        match self.rng.below(4) {
            0 => {
                resource!(r.kind, r.ptr, SetPriority, self.rng.number());
            }
            1 => {
                resource!(r.kind, r.ptr, GetPriority);
            }
            2 => resource!(r.kind, r.ptr, PreLoad),
            _ => {
                let expected = match r.kind {
                    Kind::Surface => 1,
                    Kind::Texture => 3,
                    Kind::VolumeTexture => 4,
                    Kind::Cube => 5,
                    Kind::VertexBuffer => 6,
                    _ => 7,
                };
                assert_eq!(
                    resource!(r.kind, r.ptr, GetType),
                    expected,
                    "GetType of {:?}",
                    r.kind
                );
            }
        }
    }

    fn level(&mut self) -> u32 {
        self.rng.pick(&[0, 0, 1, 2, 5, 100, u32::MAX])
    }

    fn texture(&mut self, r: Ref) {
        let (level, face) = (self.level(), self.rng.pick(&[0, 1, 5, 6, 100]));
        let mut out: *mut c_void = std::ptr::null_mut();
        let mut desc = D3DSURFACE_DESC::default();
        let mut locked = D3DLOCKED_RECT {
            Pitch: 0,
            pBits: std::ptr::null_mut(),
        };
        let rect = self.rect();
        let whole = self.rng.chance(50);
        let prect: *const RECT = if whole { std::ptr::null() } else { &rect };
        let flags = self.rng.pick(&[0, 0x10, 0x2000, 0x800, 0xffff_ffff]);
        match (r.kind, self.rng.below(10)) {
            (_, 0) => {
                call!(IDirect3DTexture9Vtbl, r.ptr, SetLOD, self.rng.number());
            }
            (_, 1) => {
                call!(IDirect3DTexture9Vtbl, r.ptr, GetLevelCount);
            }
            (_, 2) => {
                call!(
                    IDirect3DTexture9Vtbl,
                    r.ptr,
                    SetAutoGenFilterType,
                    self.rng.below(10) as u32
                );
            }
            (_, 3) => call!(IDirect3DTexture9Vtbl, r.ptr, GenerateMipSubLevels),
            (Kind::Texture, 4..=5) => {
                let p = self.out(&mut out);
                if call!(IDirect3DTexture9Vtbl, r.ptr, GetSurfaceLevel, level, p) == S_OK {
                    self.hold(Ref {
                        ptr: out,
                        kind: Kind::Surface,
                        ..r
                    });
                }
            }
            (Kind::Cube, 4..=5) => {
                let p = self.out(&mut out);
                if call!(
                    IDirect3DCubeTexture9Vtbl,
                    r.ptr,
                    GetCubeMapSurface,
                    face,
                    level,
                    p
                ) == S_OK
                {
                    self.hold(Ref {
                        ptr: out,
                        kind: Kind::Surface,
                        ..r
                    });
                }
            }
            (Kind::VolumeTexture, 4..=5) => {
                let p = self.out(&mut out);
                if call!(IDirect3DVolumeTexture9Vtbl, r.ptr, GetVolumeLevel, level, p) == S_OK {
                    self.hold(Ref {
                        ptr: out,
                        kind: Kind::Volume,
                        ..r
                    });
                }
            }
            (Kind::Texture, 6) => {
                call!(
                    IDirect3DTexture9Vtbl,
                    r.ptr,
                    GetLevelDesc,
                    level,
                    self.out(&mut desc)
                );
            }
            (Kind::Texture, 7..=8) => {
                let p = self.out(&mut locked);
                let hr = call!(
                    IDirect3DTexture9Vtbl,
                    r.ptr,
                    LockRect,
                    level,
                    p,
                    prect,
                    flags
                );
                touch_locked(hr, whole && !p.is_null(), locked.pBits);
                call!(IDirect3DTexture9Vtbl, r.ptr, UnlockRect, self.level());
            }
            (Kind::Cube, 7..=8) => {
                let p = self.out(&mut locked);
                let hr = call!(
                    IDirect3DCubeTexture9Vtbl,
                    r.ptr,
                    LockRect,
                    face,
                    level,
                    p,
                    prect,
                    flags
                );
                touch_locked(hr, whole && !p.is_null(), locked.pBits);
                call!(IDirect3DCubeTexture9Vtbl, r.ptr, UnlockRect, face, level);
            }
            (Kind::VolumeTexture, 7..=8) => {
                let mut boxed = D3DLOCKED_BOX {
                    RowPitch: 0,
                    SlicePitch: 0,
                    pBits: std::ptr::null_mut(),
                };
                let region = D3DBOX {
                    Left: 0,
                    Top: 0,
                    Right: rect.right as u32,
                    Bottom: rect.bottom as u32,
                    Front: 0,
                    Back: 2,
                };
                let pregion: *const D3DBOX = if whole { std::ptr::null() } else { &region };
                let p = self.out(&mut boxed);
                let hr = call!(
                    IDirect3DVolumeTexture9Vtbl,
                    r.ptr,
                    LockBox,
                    level,
                    p,
                    pregion,
                    flags
                );
                touch_locked(hr, whole && !p.is_null(), boxed.pBits);
                call!(IDirect3DVolumeTexture9Vtbl, r.ptr, UnlockBox, level);
            }
            (Kind::Cube, _) => {
                call!(IDirect3DCubeTexture9Vtbl, r.ptr, AddDirtyRect, face, prect);
            }
            (Kind::VolumeTexture, _) => {
                call!(
                    IDirect3DVolumeTexture9Vtbl,
                    r.ptr,
                    AddDirtyBox,
                    std::ptr::null()
                );
            }
            _ => {
                call!(IDirect3DTexture9Vtbl, r.ptr, AddDirtyRect, prect);
            }
        }
    }

    fn surface(&mut self, r: Ref) {
        let mut desc = D3DSURFACE_DESC::default();
        let mut locked = D3DLOCKED_RECT {
            Pitch: 0,
            pBits: std::ptr::null_mut(),
        };
        let mut out: *mut c_void = std::ptr::null_mut();
        let rect = self.rect();
        let whole = self.rng.chance(50);
        let prect: *const RECT = if whole { std::ptr::null() } else { &rect };
        match self.rng.below(6) {
            0 => {
                call!(IDirect3DSurface9Vtbl, r.ptr, GetDesc, self.out(&mut desc));
            }
            1 | 2 => {
                let p = self.out(&mut locked);
                let hr = call!(
                    IDirect3DSurface9Vtbl,
                    r.ptr,
                    LockRect,
                    p,
                    prect,
                    self.rng.pick(&[0, 0x10, 0x800])
                );
                touch_locked(hr, whole && !p.is_null(), locked.pBits);
                call!(IDirect3DSurface9Vtbl, r.ptr, UnlockRect);
            }
            3 => {
                let mut dc: *mut c_void = std::ptr::null_mut();
                if call!(IDirect3DSurface9Vtbl, r.ptr, GetDC, &mut dc) == S_OK {
                    call!(IDirect3DSurface9Vtbl, r.ptr, ReleaseDC, dc);
                }
            }
            _ => {
                // GetContainer: the same container as the level's texture, the device or
                // the swap chain, with a reference; NULL otherwise.
                let iid = self.rng.pick(&IIDS);
                let p = self.out(&mut out);
                let hr = call!(IDirect3DSurface9Vtbl, r.ptr, GetContainer, &iid, p);
                if hr != S_OK {
                    assert!(
                        p.is_null() || out.is_null(),
                        "a refused GetContainer left {out:p}"
                    );
                    return;
                }
                if r.counted != r.ptr {
                    assert_eq!(out, r.counted, "a level's container is its texture");
                    self.hold(Ref {
                        ptr: out,
                        kind: r.counted_kind,
                        ..r
                    });
                } else if out == r.device {
                    self.hold(Ref {
                        ptr: out,
                        kind: Kind::Device,
                        counted: out,
                        counted_kind: Kind::Device,
                        device: out,
                    });
                } else {
                    self.add(out, Kind::SwapChain, r.device);
                }
            }
        }
    }

    fn volume(&mut self, r: Ref) {
        let mut desc = D3DVOLUME_DESC::default();
        let mut boxed = D3DLOCKED_BOX {
            RowPitch: 0,
            SlicePitch: 0,
            pBits: std::ptr::null_mut(),
        };
        let mut out: *mut c_void = std::ptr::null_mut();
        match self.rng.below(3) {
            0 => {
                call!(IDirect3DVolume9Vtbl, r.ptr, GetDesc, self.out(&mut desc));
            }
            1 => {
                let p = self.out(&mut boxed);
                let hr = call!(IDirect3DVolume9Vtbl, r.ptr, LockBox, p, std::ptr::null(), 0);
                touch_locked(hr, !p.is_null(), boxed.pBits);
                call!(IDirect3DVolume9Vtbl, r.ptr, UnlockBox);
            }
            _ => {
                let iid = self.rng.pick(&IIDS);
                if call!(IDirect3DVolume9Vtbl, r.ptr, GetContainer, &iid, &mut out) == S_OK {
                    assert_eq!(out, r.counted, "a volume's container is its texture");
                    self.hold(Ref {
                        ptr: out,
                        kind: Kind::VolumeTexture,
                        ..r
                    });
                }
            }
        }
    }

    /// Lock, Unlock, GetDesc; a lock's memory is written within what was asked.
    fn buffer(&mut self, r: Ref) {
        let size = self.buffer_sizes[&(r.ptr as usize)];
        let (offset, length) = (
            self.rng.pick(&[0, 0, 4, size, size + 4]),
            self.rng.pick(&[0, 0, 4, size, u32::MAX]),
        );
        let flags = self.rng.pick(&[0, 0x1000, 0x2000, 0x10, 0xffff_ffff]);
        let mut data: *mut c_void = std::ptr::null_mut();
        let p = self.out(&mut data);
        let vb = r.kind == Kind::VertexBuffer;
        match self.rng.below(3) {
            0 | 1 => {
                let hr = if vb {
                    call!(
                        IDirect3DVertexBuffer9Vtbl,
                        r.ptr,
                        Lock,
                        offset,
                        length,
                        p,
                        flags
                    )
                } else {
                    call!(
                        IDirect3DIndexBuffer9Vtbl,
                        r.ptr,
                        Lock,
                        offset,
                        length,
                        p,
                        flags
                    )
                };
                let reach = if length == 0 {
                    size.saturating_sub(offset)
                } else {
                    length.min(size.saturating_sub(offset))
                };
                if hr == S_OK && !p.is_null() && reach > 0 {
                    // SAFETY: a successful lock of at least `reach` bytes.
                    unsafe { std::ptr::write_bytes(data as *mut u8, 0x3c, reach.min(16) as usize) };
                }
                if vb {
                    call!(IDirect3DVertexBuffer9Vtbl, r.ptr, Unlock);
                } else {
                    call!(IDirect3DIndexBuffer9Vtbl, r.ptr, Unlock);
                }
            }
            _ if vb => {
                let mut desc = D3DVERTEXBUFFER_DESC::default();
                if call!(IDirect3DVertexBuffer9Vtbl, r.ptr, GetDesc, &mut desc) == S_OK {
                    assert_eq!(desc.Size, size, "GetDesc of a vertex buffer");
                }
            }
            _ => {
                let mut desc = D3DINDEXBUFFER_DESC::default();
                if call!(IDirect3DIndexBuffer9Vtbl, r.ptr, GetDesc, &mut desc) == S_OK {
                    assert_eq!(desc.Size, size, "GetDesc of an index buffer");
                }
            }
        }
    }

    fn swap_chain(&mut self, r: Ref) {
        let mut out: *mut c_void = std::ptr::null_mut();
        let mut pp = present_parameters(&mut self.rng);
        let mut mode = D3DDISPLAYMODE::default();
        let mut raster = D3DRASTER_STATUS::default();
        match self.rng.below(6) {
            0 => {
                call!(
                    IDirect3DSwapChain9Vtbl,
                    r.ptr,
                    Present,
                    std::ptr::null(),
                    std::ptr::null(),
                    std::ptr::null_mut(),
                    std::ptr::null(),
                    0
                );
            }
            1 | 2 => {
                let (index, kind) = (self.rng.pick(&[0, 0, 1, 4]), self.rng.pick(&[0, 1, 2]));
                let p = self.out(&mut out);
                if call!(
                    IDirect3DSwapChain9Vtbl,
                    r.ptr,
                    GetBackBuffer,
                    index,
                    kind,
                    p
                ) == S_OK
                {
                    self.add_surface(out, r.device);
                }
            }
            3 => {
                call!(
                    IDirect3DSwapChain9Vtbl,
                    r.ptr,
                    GetFrontBufferData,
                    self.object_arg()
                );
            }
            4 => {
                call!(
                    IDirect3DSwapChain9Vtbl,
                    r.ptr,
                    GetPresentParameters,
                    self.out(&mut pp)
                );
            }
            _ => {
                call!(
                    IDirect3DSwapChain9Vtbl,
                    r.ptr,
                    GetDisplayMode,
                    self.out(&mut mode)
                );
                call!(
                    IDirect3DSwapChain9Vtbl,
                    r.ptr,
                    GetRasterStatus,
                    self.out(&mut raster)
                );
            }
        }
    }

    fn query(&mut self, r: Ref) {
        let mut data = [0u32; 4];
        match self.rng.below(4) {
            0 => {
                call!(IDirect3DQuery9Vtbl, r.ptr, GetType);
                call!(IDirect3DQuery9Vtbl, r.ptr, GetDataSize);
            }
            1 => {
                call!(
                    IDirect3DQuery9Vtbl,
                    r.ptr,
                    Issue,
                    self.rng.pick(&[1, 2, 3, 0])
                );
            }
            _ => {
                let size = self.rng.pick(&[0, 2, 4, 16]);
                let p = if self.rng.chance(20) {
                    std::ptr::null_mut()
                } else {
                    data.as_mut_ptr() as *mut c_void
                };
                call!(
                    IDirect3DQuery9Vtbl,
                    r.ptr,
                    GetData,
                    p,
                    size,
                    self.rng.pick(&[0, 1, 2])
                );
            }
        }
    }
}

/// After a lock of a whole level or buffer that succeeded, its first byte is written (the
/// pointer must be the caller's to write).
fn touch_locked(hr: i32, whole: bool, bits: *mut c_void) {
    if hr == S_OK && whole {
        assert!(!bits.is_null(), "a successful lock gave no memory");
        // SAFETY: a successful lock of a whole, non-empty level.
        unsafe { (bits as *mut u8).write_volatile(0x5a) };
    }
}
