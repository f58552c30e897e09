//! Random calls of `IDirect3DDevice9`'s methods (see `random_calls.rs`).

use super::*;

type Dev = IDirect3DDevice9Vtbl;

/// Vertex declarations: valid ones and ones D3D9 refuses (bad type, usage, stream, order).
const ELEMENTS: [D3DVERTEXELEMENT9; 9] = [
    D3DVERTEXELEMENT9 {
        Stream: 0,
        Offset: 0,
        Type: 2,
        Method: 0,
        Usage: 0,
        UsageIndex: 0,
    },
    D3DVERTEXELEMENT9 {
        Stream: 0,
        Offset: 12,
        Type: 4,
        Method: 0,
        Usage: 10,
        UsageIndex: 0,
    },
    D3DVERTEXELEMENT9 {
        Stream: 0,
        Offset: 16,
        Type: 1,
        Method: 0,
        Usage: 5,
        UsageIndex: 0,
    },
    D3DVERTEXELEMENT9 {
        Stream: 1,
        Offset: 0,
        Type: 3,
        Method: 0,
        Usage: 5,
        UsageIndex: 1,
    },
    D3DVERTEXELEMENT9 {
        Stream: 0,
        Offset: 0,
        Type: 3,
        Method: 0,
        Usage: 9,
        UsageIndex: 0,
    },
    D3DVERTEXELEMENT9 {
        Stream: 0,
        Offset: 2,
        Type: 40,
        Method: 0,
        Usage: 0,
        UsageIndex: 0,
    },
    D3DVERTEXELEMENT9 {
        Stream: 20,
        Offset: 0,
        Type: 2,
        Method: 0,
        Usage: 3,
        UsageIndex: 0,
    },
    D3DVERTEXELEMENT9 {
        Stream: 0,
        Offset: 4,
        Type: 2,
        Method: 7,
        Usage: 99,
        UsageIndex: 200,
    },
    D3DVERTEXELEMENT9 {
        Stream: 0,
        Offset: 0,
        Type: 17,
        Method: 0,
        Usage: 0,
        UsageIndex: 0,
    },
];
const END: D3DVERTEXELEMENT9 = D3DVERTEXELEMENT9 {
    Stream: 0xff,
    Offset: 0,
    Type: 17,
    Method: 0,
    Usage: 0,
    UsageIndex: 0,
};
const FVFS: [u32; 8] = [0, 0x002, 0x042, 0x044, 0x102, 0x152, 0x00e, 0xffff_ffff];

impl World {
    pub(super) fn device(&mut self) {
        let Some(r) = self.pick_ref(&[Kind::Device]) else {
            return;
        };
        let d = r.ptr;
        match self.rng.below(34) {
            0..=2 => self.create_texture(d),
            3 => self.create_buffer(d),
            4 => self.create_surface(d),
            5 => self.create_shader_or_declaration(d),
            6 => self.state_blocks_and_queries(d),
            7..=11 => self.bind(d),
            12..=14 => self.set_state(d),
            15 => self.constants(d),
            16..=18 => self.get_objects(d),
            19 => self.get_values(d),
            20 | 21 => self.scene_and_clear(d),
            22..=24 => self.draw(d),
            25 => self.copies(d),
            26 => self.misc(d),
            _ => self.bind(d),
        }
    }

    fn created(&mut self, hr: i32, out: *mut c_void, kind: Kind, d: *mut c_void) {
        if hr == S_OK {
            self.add(out, kind, d);
        }
    }

    fn size(&mut self) -> u32 {
        self.rng.pick(&[0, 1, 4, 16, 64, 100, 256, 1 << 20])
    }

    fn pool(&mut self) -> u32 {
        self.rng.pick(&[0, 1, 2, 3, 0, 1, 7])
    }

    fn usage(&mut self) -> u32 {
        self.rng
            .pick(&[0, 0, 0, 1, 2, 0x8, 0x10, 0x200, 0x400, 0xffff_ffff])
    }

    fn shared(&mut self) -> *mut *mut c_void {
        if self.rng.chance(3) {
            self.junk.as_mut_ptr() as *mut *mut c_void
        } else {
            std::ptr::null_mut()
        }
    }

    fn create_texture(&mut self, d: *mut c_void) {
        let mut out: *mut c_void = std::ptr::null_mut();
        let (w, h) = (self.size(), self.size());
        let levels = self.rng.pick(&[0, 1, 2, 3, 20]);
        let (usage, format, pool) = (self.usage(), self.rng.pick(&FORMATS), self.pool());
        let shared = self.shared();
        let p = self.out(&mut out);
        let (kind, hr) = match self.rng.below(3) {
            0 => (
                Kind::Texture,
                call!(
                    Dev,
                    d,
                    CreateTexture,
                    w,
                    h,
                    levels,
                    usage,
                    format,
                    pool,
                    p,
                    shared
                ),
            ),
            1 => (
                Kind::Cube,
                call!(
                    Dev,
                    d,
                    CreateCubeTexture,
                    w,
                    levels,
                    usage,
                    format,
                    pool,
                    p,
                    shared
                ),
            ),
            _ => {
                let depth = self.rng.pick(&[0, 1, 4, 16]);
                let (w, h) = (w.min(64), h.min(64));
                let hr = call!(
                    Dev,
                    d,
                    CreateVolumeTexture,
                    w,
                    h,
                    depth,
                    levels,
                    usage,
                    format,
                    pool,
                    p,
                    shared
                );
                (Kind::VolumeTexture, hr)
            }
        };
        if hr == S_OK {
            self.texture_kinds.insert(out as usize, kind);
        }
        self.created(hr, out, kind, d);
    }

    fn create_buffer(&mut self, d: *mut c_void) {
        let mut out: *mut c_void = std::ptr::null_mut();
        let length = self.rng.pick(&[0, 3, 12, 48, 64, 4096, 1 << 16]);
        let (usage, pool, shared) = (self.usage(), self.pool(), self.shared());
        let p = self.out(&mut out);
        let (kind, hr) = if self.rng.chance(60) {
            let fvf = self.rng.pick(&FVFS);
            (
                Kind::VertexBuffer,
                call!(
                    Dev,
                    d,
                    CreateVertexBuffer,
                    length,
                    usage,
                    fvf,
                    pool,
                    p,
                    shared
                ),
            )
        } else {
            let format = self.rng.pick(&[101, 102, 101, 0, 21]);
            (
                Kind::IndexBuffer,
                call!(
                    Dev,
                    d,
                    CreateIndexBuffer,
                    length,
                    usage,
                    format,
                    pool,
                    p,
                    shared
                ),
            )
        };
        if hr == S_OK {
            self.buffer_sizes.insert(out as usize, length);
        }
        self.created(hr, out, kind, d);
    }

    fn create_surface(&mut self, d: *mut c_void) {
        let mut out: *mut c_void = std::ptr::null_mut();
        let (w, h, format) = (self.size(), self.size(), self.rng.pick(&FORMATS));
        let samples = self.rng.pick(&[0, 0, 0, 2]);
        let shared = self.shared();
        let p = self.out(&mut out);
        let hr = match self.rng.below(3) {
            0 => call!(
                Dev,
                d,
                CreateRenderTarget,
                w,
                h,
                format,
                samples,
                0,
                self.rng.below(2) as i32,
                p,
                shared
            ),
            1 => call!(
                Dev,
                d,
                CreateDepthStencilSurface,
                w,
                h,
                format,
                samples,
                0,
                0,
                p,
                shared
            ),
            _ => {
                let pool = self.pool();
                call!(
                    Dev,
                    d,
                    CreateOffscreenPlainSurface,
                    w,
                    h,
                    format,
                    pool,
                    p,
                    shared
                )
            }
        };
        self.created(hr, out, Kind::Surface, d);
    }

    fn create_shader_or_declaration(&mut self, d: *mut c_void) {
        let mut out: *mut c_void = std::ptr::null_mut();
        let p = self.out(&mut out);
        match self.rng.below(3) {
            0 => {
                let mut elements: Vec<D3DVERTEXELEMENT9> = (0..self.rng.below(5))
                    .map(|_| self.rng.pick(&ELEMENTS))
                    .collect();
                elements.push(END);
                let hr = call!(Dev, d, CreateVertexDeclaration, elements.as_ptr(), p);
                self.created(hr, out, Kind::Decl, d);
            }
            1 => {
                let code = self.rng.pick(&VS);
                let hr = call!(Dev, d, CreateVertexShader, code.as_ptr(), p);
                self.created(hr, out, Kind::Vs, d);
            }
            _ => {
                let code = self.rng.pick(&PS);
                let hr = call!(Dev, d, CreatePixelShader, code.as_ptr(), p);
                self.created(hr, out, Kind::Ps, d);
            }
        }
    }

    fn state_blocks_and_queries(&mut self, d: *mut c_void) {
        let mut out: *mut c_void = std::ptr::null_mut();
        let p = self.out(&mut out);
        match self.rng.below(4) {
            0 => {
                let hr = call!(Dev, d, CreateStateBlock, self.rng.below(5) as u32, p);
                self.created(hr, out, Kind::StateBlock, d);
            }
            1 => {
                call!(Dev, d, BeginStateBlock);
            }
            2 => {
                let hr = call!(Dev, d, EndStateBlock, p);
                self.created(hr, out, Kind::StateBlock, d);
            }
            _ => {
                let hr = call!(Dev, d, CreateQuery, self.rng.below(22) as u32, p);
                if !p.is_null() {
                    self.created(hr, out, Kind::Query, d);
                }
            }
        }
    }

    /// `Set*` of objects: any object, or NULL, or a released one, or no object.
    fn bind(&mut self, d: *mut c_void) {
        let obj = self.object_arg();
        let n = self.rng.pick(&[0, 0, 1, 3, 4, 15, 16, 257, 260, 1000]);
        match self.rng.below(8) {
            0 => call!(Dev, d, SetTexture, n, obj),
            1 => {
                let (offset, stride) = (
                    self.rng.pick(&[0, 4, 12, 1 << 20]),
                    self.rng.pick(&[0, 12, 16, 28, 4096]),
                );
                call!(Dev, d, SetStreamSource, n, obj, offset, stride)
            }
            2 => call!(Dev, d, SetIndices, obj),
            3 => call!(Dev, d, SetVertexDeclaration, obj),
            4 => call!(Dev, d, SetVertexShader, obj),
            5 => call!(Dev, d, SetPixelShader, obj),
            6 => call!(Dev, d, SetRenderTarget, n, obj),
            _ => call!(Dev, d, SetDepthStencilSurface, obj),
        };
    }

    fn set_state(&mut self, d: *mut c_void) {
        let (a, b, c) = (self.rng.number(), self.rng.number(), self.rng.number());
        let m = [[self.rng.below(3) as f32; 4]; 4];
        let floats = self.floats.as_ptr();
        match self.rng.below(16) {
            0..=2 => call!(Dev, d, SetRenderState, self.rng.below(260) as u32, b),
            3 => call!(
                Dev,
                d,
                SetSamplerState,
                self.rng.pick(&[0, 1, 15, 16, 257, 300]),
                self.rng.below(16) as u32,
                c
            ),
            4 => call!(
                Dev,
                d,
                SetTextureStageState,
                self.rng.below(10) as u32,
                self.rng.below(34) as u32,
                c
            ),
            5 => call!(Dev, d, SetFVF, self.rng.pick(&FVFS)),
            6 => call!(
                Dev,
                d,
                SetTransform,
                self.rng.pick(&[1, 2, 3, 16, 23, 256, 511, 4000]),
                &m
            ),
            7 => call!(
                Dev,
                d,
                MultiplyTransform,
                self.rng.pick(&[2, 3, 256, 1000]),
                &m
            ),
            8 => {
                let vp = D3DVIEWPORT9 {
                    X: a % 100,
                    Y: b % 100,
                    Width: c % 200,
                    Height: a % 70,
                    MinZ: 0.0,
                    MaxZ: self.rng.pick(&[1.0, 0.0, 2.0]),
                };
                call!(Dev, d, SetViewport, &vp)
            }
            9 => {
                let rect = self.rect();
                call!(Dev, d, SetScissorRect, &rect)
            }
            10 => call!(Dev, d, SetClipPlane, a % 10, floats),
            11 => {
                let light = D3DLIGHT9 {
                    Type: self.rng.below(5) as u32,
                    ..D3DLIGHT9::default()
                };
                call!(Dev, d, SetLight, a % 5, &light)
            }
            12 => call!(Dev, d, LightEnable, a % 5, self.rng.below(2) as i32),
            13 => call!(Dev, d, SetStreamSourceFreq, a % 20, b),
            14 => call!(
                Dev,
                d,
                SetSoftwareVertexProcessing,
                self.rng.below(2) as i32
            ),
            _ => {
                let material = D3DMATERIAL9 {
                    Power: self.rng.below(2) as f32,
                    ..D3DMATERIAL9::default()
                };
                call!(Dev, d, SetMaterial, &material)
            }
        };
    }

    /// Shader constants: any start and count; the data buffer holds the most any stage
    /// takes (8192 float4s), so what the library reads is always there.
    fn constants(&mut self, d: *mut c_void) {
        let start = self
            .rng
            .pick(&[0, 1, 15, 16, 200, 223, 224, 255, 256, 8191, 8192, u32::MAX]);
        let count = self.rng.pick(&[0, 1, 2, 4, 16, 300, u32::MAX]);
        let f = self.floats.as_mut_ptr();
        let i = self.floats.as_mut_ptr() as *mut i32;
        match self.rng.below(12) {
            0 => call!(Dev, d, SetVertexShaderConstantF, start, f, count),
            1 => call!(Dev, d, GetVertexShaderConstantF, start, f, count),
            2 => call!(Dev, d, SetVertexShaderConstantI, start, i, count),
            3 => call!(Dev, d, GetVertexShaderConstantI, start, i, count),
            4 => call!(Dev, d, SetVertexShaderConstantB, start, i, count),
            5 => call!(Dev, d, GetVertexShaderConstantB, start, i, count),
            6 => call!(Dev, d, SetPixelShaderConstantF, start, f, count),
            7 => call!(Dev, d, GetPixelShaderConstantF, start, f, count),
            8 => call!(Dev, d, SetPixelShaderConstantI, start, i, count),
            9 => call!(Dev, d, GetPixelShaderConstantI, start, i, count),
            10 => call!(Dev, d, SetPixelShaderConstantB, start, i, count),
            _ => call!(Dev, d, GetPixelShaderConstantB, start, i, count),
        };
        // Keep the floats finite and the integers small for the draws.
        for (n, v) in self.floats.iter_mut().enumerate() {
            *v = (n % 7) as f32 - 1.5;
        }
    }

    /// The getters that hand out interfaces: each success is a reference more.
    fn get_objects(&mut self, d: *mut c_void) {
        let mut out: *mut c_void = std::ptr::null_mut();
        let n = self.rng.pick(&[0, 0, 1, 3, 16, 257, 1000]);
        let p = self.out(&mut out);
        let (hr, kind) = match self.rng.below(11) {
            0 => (call!(Dev, d, GetTexture, n, p), None),
            1 => {
                let (mut offset, mut stride) = (0, 0);
                (
                    call!(Dev, d, GetStreamSource, n, p, &mut offset, &mut stride),
                    Some(Kind::VertexBuffer),
                )
            }
            2 => (call!(Dev, d, GetIndices, p), Some(Kind::IndexBuffer)),
            3 => (call!(Dev, d, GetVertexDeclaration, p), Some(Kind::Decl)),
            4 => (call!(Dev, d, GetVertexShader, p), Some(Kind::Vs)),
            5 => (call!(Dev, d, GetPixelShader, p), Some(Kind::Ps)),
            6 => (call!(Dev, d, GetRenderTarget, n, p), Some(Kind::Surface)),
            7 => (
                call!(Dev, d, GetDepthStencilSurface, p),
                Some(Kind::Surface),
            ),
            8 => (
                call!(Dev, d, GetBackBuffer, n % 2, n % 3, n % 2, p),
                Some(Kind::Surface),
            ),
            9 => (call!(Dev, d, GetSwapChain, n, p), Some(Kind::SwapChain)),
            _ => (call!(Dev, d, GetDirect3D, p), Some(Kind::D3d)),
        };
        if hr != S_OK || out.is_null() {
            return;
        }
        match kind {
            None => {
                let kind = *self
                    .texture_kinds
                    .get(&(out as usize))
                    .expect("GetTexture: a texture the test made");
                self.add(out, kind, d);
            }
            Some(Kind::Surface) => self.add_surface(out, d),
            Some(Kind::D3d) => {
                assert_eq!(
                    Some(&out),
                    self.device_d3d.get(&(d as usize)),
                    "GetDirect3D"
                );
                self.add(out, Kind::D3d, std::ptr::null_mut());
            }
            Some(kind) => self.add(out, kind, d),
        }
    }

    fn get_values(&mut self, d: *mut c_void) {
        let mut value = 0u32;
        let mut m = [[0.0f32; 4]; 4];
        let mut vp = D3DVIEWPORT9::default();
        let mut rect = RECT::default();
        let mut light = D3DLIGHT9::default();
        let n = self.rng.number();
        let pv = self.out(&mut value);
        match self.rng.below(10) {
            0 => call!(Dev, d, GetRenderState, n % 300, pv),
            1 => call!(Dev, d, GetSamplerState, n % 300, n % 16, pv),
            2 => call!(Dev, d, GetTextureStageState, n % 12, n % 40, pv),
            3 => call!(Dev, d, GetTransform, n % 600, self.out(&mut m)),
            4 => call!(Dev, d, GetViewport, self.out(&mut vp)),
            5 => call!(Dev, d, GetScissorRect, self.out(&mut rect)),
            6 => call!(Dev, d, GetLight, n % 8, self.out(&mut light)),
            7 => call!(Dev, d, GetLightEnable, n % 8, pv as *mut i32),
            8 => call!(Dev, d, GetFVF, pv),
            _ => call!(Dev, d, GetStreamSourceFreq, n % 20, pv),
        };
    }

    fn scene_and_clear(&mut self, d: *mut c_void) {
        match self.rng.below(4) {
            0 => {
                call!(Dev, d, BeginScene);
            }
            1 => {
                call!(Dev, d, EndScene);
            }
            2 => {
                let rects: Vec<D3DRECT> = (0..4)
                    .map(|_| {
                        let r = self.rect();
                        D3DRECT {
                            x1: r.left,
                            y1: r.top,
                            x2: r.right,
                            y2: r.bottom,
                        }
                    })
                    .collect();
                let count = self.rng.below(5) as u32;
                let p = if self.rng.chance(20) {
                    std::ptr::null()
                } else {
                    rects.as_ptr()
                };
                call!(
                    Dev,
                    d,
                    Clear,
                    count,
                    p,
                    self.rng.below(8) as u32,
                    self.rng.next() as u32,
                    0.5,
                    0
                );
            }
            _ => {
                call!(
                    Dev,
                    d,
                    Present,
                    std::ptr::null(),
                    std::ptr::null(),
                    std::ptr::null_mut(),
                    std::ptr::null()
                );
            }
        }
    }

    /// Draws: from the bound streams with any ranges, and from user memory within the
    /// test's buffers (what `UP` draws read is the caller's to provide).
    fn draw(&mut self, d: *mut c_void) {
        if self.rng.chance(30) {
            call!(Dev, d, BeginScene);
        }
        let kind = self.rng.pick(&[1, 2, 3, 4, 4, 5, 6, 0, 7]);
        // Up to the caps' MaxPrimitiveCount (0xffffff) and past it.
        let count = self
            .rng
            .pick(&[0, 1, 2, 3, 10, 1000, 0x1_0000, 0x100_0000, u32::MAX]);
        let start = self.rng.pick(&[0, 1, 3, 100, u32::MAX]);
        let stride = self.rng.pick(&[0, 4, 12, 16, 20, 28, 32]);
        let small = self.rng.below(33) as u32;
        let bytes = self.bytes.as_ptr() as *const c_void;
        let indices: Vec<u32> = (0..128).map(|_| self.rng.below(48) as u32).collect();
        let format = self.rng.pick(&[101, 102, 0]);
        match self.rng.below(4) {
            0 => call!(Dev, d, DrawPrimitive, kind, start, count),
            1 => call!(
                Dev,
                d,
                DrawIndexedPrimitive,
                kind,
                start as i32,
                start % 7,
                count % 300,
                start,
                count
            ),
            // At most 3 * 32 vertices of 32 bytes: within `bytes` (8192).
            2 => call!(Dev, d, DrawPrimitiveUP, kind, small, bytes, stride),
            _ => {
                let (min, vertices) = (self.rng.below(8) as u32, self.rng.below(40) as u32);
                call!(
                    Dev,
                    d,
                    DrawIndexedPrimitiveUP,
                    kind,
                    min,
                    vertices,
                    small,
                    indices.as_ptr() as *const c_void,
                    format,
                    bytes,
                    stride
                )
            }
        };
    }

    fn copies(&mut self, d: *mut c_void) {
        let (a, b) = (self.object_arg(), self.object_arg());
        let (r1, r2) = (self.rect(), self.rect());
        let rect = |w: &mut World, r: &RECT| {
            if w.rng.chance(50) {
                std::ptr::null()
            } else {
                r as *const RECT
            }
        };
        let (p1, p2) = (rect(self, &r1), rect(self, &r2));
        let point = POINT {
            x: r1.left,
            y: r1.top,
        };
        match self.rng.below(7) {
            0 => call!(
                Dev,
                d,
                UpdateSurface,
                a,
                p1,
                b,
                if self.rng.chance(50) {
                    std::ptr::null()
                } else {
                    &point
                }
            ),
            1 => call!(Dev, d, UpdateTexture, a, b),
            2 => call!(Dev, d, GetRenderTargetData, a, b),
            3 => call!(Dev, d, GetFrontBufferData, self.rng.below(2) as u32, a),
            4 => call!(Dev, d, StretchRect, a, p1, b, p2, self.rng.below(5) as u32),
            5 => call!(Dev, d, ColorFill, a, p1, self.rng.next() as u32),
            _ => call!(
                Dev,
                d,
                ProcessVertices,
                self.rng.number() % 8,
                self.rng.number() % 8,
                self.rng.number() % 8,
                a,
                b,
                0
            ),
        };
    }

    fn misc(&mut self, d: *mut c_void) {
        let mut caps = D3DCAPS9::default();
        let mut mode = D3DDISPLAYMODE::default();
        let mut raster = D3DRASTER_STATUS::default();
        let mut passes = 0u32;
        let ramp = D3DGAMMARAMP {
            red: [7; 256],
            green: [8; 256],
            blue: [9; 256],
        };
        let mut pp = present_parameters(&mut self.rng);
        let mut chain: *mut c_void = std::ptr::null_mut();
        let n = self.rng.below(3) as u32;
        match self.rng.below(16) {
            0 => {
                call!(Dev, d, TestCooperativeLevel);
            }
            1 => {
                call!(Dev, d, GetAvailableTextureMem);
            }
            2 => {
                call!(Dev, d, EvictManagedResources);
            }
            3 => {
                call!(Dev, d, GetDeviceCaps, self.out(&mut caps));
            }
            4 => {
                call!(Dev, d, GetDisplayMode, n, self.out(&mut mode));
            }
            5 => {
                call!(Dev, d, GetRasterStatus, n, self.out(&mut raster));
            }
            6 => {
                call!(Dev, d, ValidateDevice, self.out(&mut passes));
            }
            7 => {
                call!(Dev, d, ShowCursor, n as i32);
            }
            8 => {
                call!(Dev, d, SetCursorPosition, 3, 4, n);
            }
            9 => {
                call!(Dev, d, SetCursorProperties, 0, 0, self.object_arg());
            }
            10 => {
                call!(Dev, d, SetGammaRamp, n, 0, &ramp);
            }
            11 => {
                call!(Dev, d, GetNumberOfSwapChains);
            }
            12 => {
                let hr = call!(Dev, d, CreateAdditionalSwapChain, &mut pp, &mut chain);
                self.created(hr, chain, Kind::SwapChain, d);
            }
            13 => {
                call!(Dev, d, Reset, &mut pp);
            }
            14 => {
                call!(Dev, d, DrawRectPatch, n, std::ptr::null(), std::ptr::null());
            }
            _ => {
                call!(Dev, d, SetNPatchMode, n as f32);
            }
        }
    }
}
