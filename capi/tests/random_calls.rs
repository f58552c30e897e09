//! Random calls through libd3d9's vtables from Rust: random methods of random live objects
//! with random, often invalid arguments (NULL, huge and out-of-range values, objects of the
//! wrong kind, of another device, released ones, pointers that are no object), AddRefs and
//! Releases.
//!
//! Rules: nothing crashes, and nothing panics inside the library either (a panic caught at
//! the C boundary becomes `D3DERR_INVALIDCALL`, but is a bug: each is listed); every
//! `AddRef` and `Release` returns the public count Windows would (an object's references
//! held, a level's counted on its texture, a device's plus one per child counted, an
//! `IDirect3D9`'s plus one per device); `QueryInterface` and `GetContainer` answer the same
//! object or NULL; once every reference is released no COM object is left
//! (`d3d9::com::live_objects()` is 0) and every reference private data took on a foreign
//! object was given back.
//!
//! A fixed seed always runs, then `D3D9_RANDOM_SEED` if set; `D3D9_RANDOM_CALLS` calls per
//! seed (default 20000), e.g. `D3D9_RANDOM_CALLS=1000000 D3D9_RANDOM_SEED=7` for a long run.
//! A GPU test: without an adapter it fails, or skips with `D3D9_ALLOW_NO_GPU=1`.
#![cfg(unix)]

mod support;

use std::collections::{HashMap, HashSet};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};

use d3d9::guid::*;
use d3d9::hresult::{E_NOINTERFACE, S_OK};
use d3d9::types::*;
use d3d9::vtbl::*;

/// A tiny deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
    /// A "number" argument: small, boundary or huge.
    fn number(&mut self) -> u32 {
        match self.below(6) {
            0 => 0,
            1 => self.below(4) as u32,
            2 => self.below(300) as u32,
            3 => self.pick(&[15, 16, 255, 256, 257, 260, 8191, 8192, 65536]),
            4 => u32::MAX - self.below(2) as u32,
            _ => self.next() as u32,
        }
    }
}

/// Calls `method` of the interface `$vt` on object `$obj`.
macro_rules! call {
    ($vt:ty, $obj:expr, $method:ident $(, $arg:expr)*) => {{
        let obj: *mut c_void = $obj;
        // SAFETY: `obj` is a live object of this interface on which the test holds a
        // reference; arguments are NULL, valid, or objects the library checks itself.
        unsafe { ((**(obj as *const *const $vt)).$method)(obj as _ $(, $arg)*) }
    }};
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    D3d,
    Device,
    SwapChain,
    Surface,
    Volume,
    Texture,
    Cube,
    VolumeTexture,
    VertexBuffer,
    IndexBuffer,
    Decl,
    Vs,
    Ps,
    StateBlock,
    Query,
}

/// An IUnknown method of an object of any kind, through its own vtable.
macro_rules! unknown {
    ($kind:expr, $obj:expr, $method:ident $(, $arg:expr)*) => {
        match $kind {
            Kind::D3d => call!(IDirect3D9Vtbl, $obj, $method $(, $arg)*),
            Kind::Device => call!(IDirect3DDevice9Vtbl, $obj, $method $(, $arg)*),
            Kind::SwapChain => call!(IDirect3DSwapChain9Vtbl, $obj, $method $(, $arg)*),
            Kind::Surface => call!(IDirect3DSurface9Vtbl, $obj, $method $(, $arg)*),
            Kind::Volume => call!(IDirect3DVolume9Vtbl, $obj, $method $(, $arg)*),
            Kind::Texture => call!(IDirect3DTexture9Vtbl, $obj, $method $(, $arg)*),
            Kind::Cube => call!(IDirect3DCubeTexture9Vtbl, $obj, $method $(, $arg)*),
            Kind::VolumeTexture => call!(IDirect3DVolumeTexture9Vtbl, $obj, $method $(, $arg)*),
            Kind::VertexBuffer => call!(IDirect3DVertexBuffer9Vtbl, $obj, $method $(, $arg)*),
            Kind::IndexBuffer => call!(IDirect3DIndexBuffer9Vtbl, $obj, $method $(, $arg)*),
            Kind::Decl => call!(IDirect3DVertexDeclaration9Vtbl, $obj, $method $(, $arg)*),
            Kind::Vs => call!(IDirect3DVertexShader9Vtbl, $obj, $method $(, $arg)*),
            Kind::Ps => call!(IDirect3DPixelShader9Vtbl, $obj, $method $(, $arg)*),
            Kind::StateBlock => call!(IDirect3DStateBlock9Vtbl, $obj, $method $(, $arg)*),
            Kind::Query => call!(IDirect3DQuery9Vtbl, $obj, $method $(, $arg)*),
        }
    };
}

/// A method every device child has (`GetDevice`), through its own vtable.
macro_rules! child {
    ($kind:expr, $obj:expr, $method:ident $(, $arg:expr)*) => {
        match $kind {
            Kind::D3d | Kind::Device => unreachable!("not a device child"),
            Kind::SwapChain => call!(IDirect3DSwapChain9Vtbl, $obj, $method $(, $arg)*),
            Kind::Decl => call!(IDirect3DVertexDeclaration9Vtbl, $obj, $method $(, $arg)*),
            Kind::Vs => call!(IDirect3DVertexShader9Vtbl, $obj, $method $(, $arg)*),
            Kind::Ps => call!(IDirect3DPixelShader9Vtbl, $obj, $method $(, $arg)*),
            Kind::StateBlock => call!(IDirect3DStateBlock9Vtbl, $obj, $method $(, $arg)*),
            Kind::Query => call!(IDirect3DQuery9Vtbl, $obj, $method $(, $arg)*),
            _ => data!($kind, $obj, $method $(, $arg)*),
        }
    };
}

/// Private data methods (`SetPrivateData`, ...): resources and volumes.
macro_rules! data {
    ($kind:expr, $obj:expr, $method:ident $(, $arg:expr)*) => {
        match $kind {
            Kind::Volume => call!(IDirect3DVolume9Vtbl, $obj, $method $(, $arg)*),
            _ => resource!($kind, $obj, $method $(, $arg)*),
        }
    };
}

/// `IDirect3DResource9`'s methods: surfaces, buffers and textures.
macro_rules! resource {
    ($kind:expr, $obj:expr, $method:ident $(, $arg:expr)*) => {
        match $kind {
            Kind::Surface => call!(IDirect3DSurface9Vtbl, $obj, $method $(, $arg)*),
            Kind::Texture => call!(IDirect3DTexture9Vtbl, $obj, $method $(, $arg)*),
            Kind::Cube => call!(IDirect3DCubeTexture9Vtbl, $obj, $method $(, $arg)*),
            Kind::VolumeTexture => call!(IDirect3DVolumeTexture9Vtbl, $obj, $method $(, $arg)*),
            Kind::VertexBuffer => call!(IDirect3DVertexBuffer9Vtbl, $obj, $method $(, $arg)*),
            Kind::IndexBuffer => call!(IDirect3DIndexBuffer9Vtbl, $obj, $method $(, $arg)*),
            other => unreachable!("{other:?} is no resource"),
        }
    };
}

/// One public reference the test holds.
#[derive(Clone, Copy, Debug)]
struct Ref {
    ptr: *mut c_void,
    kind: Kind,
    /// The object whose count this reference is (a level's texture; else the object).
    counted: *mut c_void,
    counted_kind: Kind,
    /// Its device (the device itself for a device; NULL for an `IDirect3D9`).
    device: *mut c_void,
}

/// A COM object that is not the library's, for `SetPrivateData(D3DSPD_IUNKNOWN)`.
#[repr(C)]
struct Foreign {
    vtbl: &'static ForeignVtbl,
    refs: AtomicU32,
}

#[repr(C)]
struct ForeignVtbl {
    query_interface: unsafe extern "C" fn(*mut Foreign, *const Guid, *mut *mut c_void) -> i32,
    add_ref: unsafe extern "C" fn(*mut Foreign) -> u32,
    release: unsafe extern "C" fn(*mut Foreign) -> u32,
}

unsafe extern "C" fn foreign_qi(_: *mut Foreign, _: *const Guid, out: *mut *mut c_void) -> i32 {
    // SAFETY: the library passes a writable out pointer.
    unsafe { out.write(std::ptr::null_mut()) };
    E_NOINTERFACE
}
unsafe extern "C" fn foreign_add_ref(this: *mut Foreign) -> u32 {
    // SAFETY: `this` is the test's live `Foreign`.
    unsafe { (*this).refs.fetch_add(1, Ordering::SeqCst) + 1 }
}
unsafe extern "C" fn foreign_release(this: *mut Foreign) -> u32 {
    // SAFETY: as above.
    let before = unsafe { (*this).refs.fetch_sub(1, Ordering::SeqCst) };
    assert!(
        before > 0,
        "private data released a foreign object it did not hold"
    );
    before - 1
}
static FOREIGN_VTBL: ForeignVtbl = ForeignVtbl {
    query_interface: foreign_qi,
    add_ref: foreign_add_ref,
    release: foreign_release,
};

const IIDS: [Guid; 20] = [
    IID_IUNKNOWN,
    IID_IDIRECT3D9,
    IID_IDIRECT3DDEVICE9,
    IID_IDIRECT3DRESOURCE9,
    IID_IDIRECT3DVERTEXBUFFER9,
    IID_IDIRECT3DVOLUME9,
    IID_IDIRECT3DSWAPCHAIN9,
    IID_IDIRECT3DSURFACE9,
    IID_IDIRECT3DINDEXBUFFER9,
    IID_IDIRECT3DBASETEXTURE9,
    IID_IDIRECT3DTEXTURE9,
    IID_IDIRECT3DCUBETEXTURE9,
    IID_IDIRECT3DVOLUMETEXTURE9,
    IID_IDIRECT3DVERTEXDECLARATION9,
    IID_IDIRECT3DVERTEXSHADER9,
    IID_IDIRECT3DPIXELSHADER9,
    IID_IDIRECT3DSTATEBLOCK9,
    IID_IDIRECT3DQUERY9,
    IID_IDIRECT3D9EX,
    IID_IDIRECT3DDEVICE9EX,
];
const PRIVATE_GUIDS: [Guid; 2] = [IID_IDIRECT3DQUERY9, IID_IDIRECT3DRESOURCE9];
/// D3DFORMATs: common ones, depth ones, unknown and nonsense.
const FORMATS: [u32; 12] = [21, 22, 23, 28, 50, 75, 77, 80, 0, 1, 114, 0x3154_5844];
const VS: [&[u32]; 4] = [
    &[
        0xfffe_0200,
        0x0200_001f,
        0x8000_0000,
        0x900f_0000,
        0x0200_0001,
        0xc00f_0000,
        0x90e4_0000,
        0xffff,
    ],
    &[
        0xfffe_0101,
        0x0000_001f,
        0x8000_0000,
        0x900f_0000,
        0x0000_0001,
        0xc00f_0000,
        0x90e4_0000,
        0x0000_0001,
        0xd00f_0000,
        0xa0e4_0000,
        0xffff,
    ],
    &[0xdead_beef, 0xffff],
    &[0xfffe_0300, 0x0000_ffff],
];
const PS: [&[u32]; 3] = [
    &[0xffff_0200, 0x0200_0001, 0x800f_0800, 0xa0e4_0000, 0xffff],
    &[0xffff_0101, 0x0000_0001, 0x800f_0000, 0x90e4_0000, 0xffff],
    &[0xffff_0200, 0x0000_ffff],
];

struct World {
    rng: Rng,
    refs: Vec<Ref>,
    dead: Vec<(*mut c_void, Kind)>,
    /// The kind of each texture made, and the size of each buffer (by address: an address
    /// is reused only by an object the test makes, which records it anew).
    texture_kinds: HashMap<usize, Kind>,
    buffer_sizes: HashMap<usize, u32>,
    device_d3d: HashMap<usize, *mut c_void>,
    devices_made: u32,
    /// References obtained, by kind (how far the run reached).
    obtained: HashMap<Kind, u32>,
    foreign: Box<Foreign>,
    junk: Vec<u64>,
    floats: Vec<f32>,
    bytes: Vec<u8>,
    calls: u64,
}

impl World {
    fn count_of(&self, counted: *mut c_void) -> u32 {
        self.refs.iter().filter(|r| r.counted == counted).count() as u32
    }

    /// The public count Windows shows for `counted` of kind `kind` now.
    fn expected(&self, counted: *mut c_void, kind: Kind) -> u32 {
        match kind {
            Kind::Device => {
                let children: HashSet<usize> = self
                    .refs
                    .iter()
                    .filter(|r| r.device == counted && r.counted != counted)
                    .map(|r| r.counted as usize)
                    .collect();
                self.count_of(counted) + children.len() as u32
            }
            Kind::D3d => {
                let devices: HashSet<usize> = self
                    .refs
                    .iter()
                    .filter(|r| !r.device.is_null())
                    .map(|r| r.device as usize)
                    .filter(|d| self.device_d3d.get(d) == Some(&counted))
                    .collect();
                self.count_of(counted) + devices.len() as u32
            }
            _ => self.count_of(counted),
        }
    }

    /// Holds one more reference (counted in `obtained`).
    fn hold(&mut self, r: Ref) {
        *self.obtained.entry(r.kind).or_default() += 1;
        self.refs.push(r);
    }

    fn add(&mut self, ptr: *mut c_void, kind: Kind, device: *mut c_void) {
        assert!(!ptr.is_null(), "a successful call gave a NULL {kind:?}");
        self.hold(Ref {
            ptr,
            kind,
            counted: ptr,
            counted_kind: kind,
            device,
        });
    }

    /// Adds a reference just obtained on surface `s`: counted on its texture when it is a
    /// level (`GetContainer` answers a base texture), else on itself.
    fn add_surface(&mut self, s: *mut c_void, device: *mut c_void) {
        let mut container: *mut c_void = std::ptr::null_mut();
        let hr = call!(
            IDirect3DSurface9Vtbl,
            s,
            GetContainer,
            &IID_IDIRECT3DBASETEXTURE9,
            &mut container
        );
        if hr != S_OK {
            assert_eq!(hr, E_NOINTERFACE, "GetContainer of {s:p}");
            assert!(
                container.is_null(),
                "a refused GetContainer left {container:p}"
            );
            return self.add(s, Kind::Surface, device);
        }
        let kind = self.texture_kinds[&(container as usize)];
        self.hold(Ref {
            ptr: s,
            kind: Kind::Surface,
            counted: container,
            counted_kind: kind,
            device,
        });
        let left = unknown!(kind, container, Release);
        assert_eq!(
            left,
            self.expected(container, kind),
            "Release of GetContainer's texture"
        );
    }

    fn pick_ref(&mut self, kinds: &[Kind]) -> Option<Ref> {
        let candidates: Vec<Ref> = self
            .refs
            .iter()
            .filter(|r| kinds.contains(&r.kind))
            .copied()
            .collect();
        (!candidates.is_empty())
            .then(|| candidates[self.rng.below(candidates.len() as u64) as usize])
    }

    /// An object argument: NULL, a live object of any kind or device, a released one, or a
    /// pointer that is no object.
    fn object_arg(&mut self) -> *mut c_void {
        match self.rng.below(10) {
            0 | 1 => std::ptr::null_mut(),
            2 if !self.dead.is_empty() => self.rng.pick(&self.dead).0,
            3 => self.junk.as_mut_ptr() as *mut c_void,
            _ => self.pick_ref(&ALL).map_or(std::ptr::null_mut(), |r| r.ptr),
        }
    }

    /// `out` or NULL (sometimes).
    fn out<T>(&mut self, out: &mut T) -> *mut T {
        if self.rng.chance(5) {
            std::ptr::null_mut()
        } else {
            out
        }
    }

    fn rect(&mut self) -> RECT {
        let mut n = || self.rng.pick(&[-5, 0, 1, 4, 16, 63, 64, 100, 5000]);
        RECT {
            left: n(),
            top: n(),
            right: n(),
            bottom: n(),
        }
    }

    /// Releases one held reference and checks the count it returns.
    fn release(&mut self, index: usize) {
        let r = self.refs.swap_remove(index);
        let left = unknown!(r.kind, r.ptr, Release);
        assert_eq!(
            left,
            self.expected(r.counted, r.counted_kind),
            "Release of {:?} {:p}",
            r.kind,
            r.ptr
        );
        if self.count_of(r.counted) == 0 {
            self.dead.push((r.ptr, r.kind));
            self.dead.push((r.counted, r.counted_kind));
        }
    }

    fn step(&mut self) {
        self.calls += 1;
        match self.rng.below(100) {
            0..=9 => {
                if !self.refs.is_empty() && (self.refs.len() > 40 || self.rng.chance(60)) {
                    let i = self.rng.below(self.refs.len() as u64) as usize;
                    // Devices and IDirect3D9s go seldom: most calls need one.
                    let r = self.refs[i];
                    if !matches!(r.kind, Kind::Device | Kind::D3d)
                        || self.count_of(r.counted) > 3
                        || self.rng.chance(5)
                    {
                        self.release(i);
                    }
                }
            }
            10..=13 => self.common(),
            14..=16 => self.direct3d(),
            17..=55 => self.device(),
            _ => self.child_object(),
        }
    }
}

const ALL: [Kind; 15] = [
    Kind::D3d,
    Kind::Device,
    Kind::SwapChain,
    Kind::Surface,
    Kind::Volume,
    Kind::Texture,
    Kind::Cube,
    Kind::VolumeTexture,
    Kind::VertexBuffer,
    Kind::IndexBuffer,
    Kind::Decl,
    Kind::Vs,
    Kind::Ps,
    Kind::StateBlock,
    Kind::Query,
];

/// Present parameters, mostly valid.
fn present_parameters(rng: &mut Rng) -> D3DPRESENT_PARAMETERS {
    D3DPRESENT_PARAMETERS {
        BackBufferWidth: rng.pick(&[0, 16, 64, 100]),
        BackBufferHeight: rng.pick(&[0, 16, 64]),
        BackBufferFormat: rng.pick(&[22, 22, 21, 0, 23]),
        BackBufferCount: rng.pick(&[0, 1, 2, 4]),
        MultiSampleType: rng.pick(&[0, 0, 0, 2]),
        MultiSampleQuality: 0,
        SwapEffect: rng.pick(&[1, 1, 2, 3, 0, 9]),
        hDeviceWindow: std::ptr::null_mut(),
        Windowed: rng.pick(&[1, 1, 1, 0]),
        EnableAutoDepthStencil: rng.pick(&[0, 1]),
        AutoDepthStencilFormat: rng.pick(&[75, 80, 21]),
        Flags: 0,
        FullScreen_RefreshRateInHz: 0,
        PresentationInterval: 0,
    }
}

#[path = "random_calls/device.rs"]
mod device;
#[path = "random_calls/objects.rs"]
mod objects;

/// Runs `calls` random calls from `seed`, releases everything, checks nothing is left.
fn run(seed: u64, calls: u64) {
    let mut world = World {
        rng: Rng(seed),
        refs: Vec::new(),
        dead: Vec::new(),
        texture_kinds: HashMap::new(),
        buffer_sizes: HashMap::new(),
        device_d3d: HashMap::new(),
        devices_made: 0,
        obtained: HashMap::new(),
        foreign: Box::new(Foreign {
            vtbl: &FOREIGN_VTBL,
            refs: AtomicU32::new(0),
        }),
        junk: vec![0; 64],
        floats: (0..8192 * 4).map(|i| (i % 7) as f32 - 1.5).collect(),
        bytes: (0..8192u32).map(|i| (i * 37 % 251) as u8).collect(),
        calls: 0,
    };
    // An IDirect3D9 and two devices to start from (more may come and go).
    let d3d = d3d9::Direct3DCreate9(32);
    world.add(d3d, Kind::D3d, std::ptr::null_mut());
    for flags in [0x40, 0x80] {
        let mut pp = D3DPRESENT_PARAMETERS {
            BackBufferWidth: 64,
            BackBufferHeight: 64,
            BackBufferFormat: 22,
            BackBufferCount: 1,
            SwapEffect: 1,
            Windowed: 1,
            EnableAutoDepthStencil: 1,
            AutoDepthStencilFormat: 75,
            ..present_parameters(&mut Rng(0))
        };
        pp.MultiSampleType = 0;
        let mut device: *mut c_void = std::ptr::null_mut();
        let hr = call!(
            IDirect3D9Vtbl,
            d3d,
            CreateDevice,
            0,
            1,
            std::ptr::dangling_mut::<c_void>(),
            flags,
            &mut pp,
            &mut device
        );
        assert_eq!(hr, S_OK, "CreateDevice");
        world.device_d3d.insert(device as usize, d3d);
        world.hold(Ref {
            ptr: device,
            kind: Kind::Device,
            counted: device,
            counted_kind: Kind::Device,
            device,
        });
    }
    for _ in 0..calls {
        world.step();
    }
    let held = world.refs.len();
    while !world.refs.is_empty() {
        let i = world.rng.below(world.refs.len() as u64) as usize;
        world.release(i);
    }
    let mut obtained: Vec<String> = world
        .obtained
        .iter()
        .map(|(k, n)| format!("{k:?} {n}"))
        .collect();
    obtained.sort();
    println!(
        "seed {seed:#x}: {} calls, {held} references held at the end, {} more devices made; references obtained: {}",
        world.calls,
        world.devices_made,
        obtained.join(", ")
    );
    let mut panics = std::mem::take(&mut *LIBRARY_PANICS.lock().unwrap_or_else(|e| e.into_inner()));
    if !panics.is_empty() {
        panics.sort();
        panics.dedup();
        panic!(
            "seed {seed:#x}: panics caught at the C boundary:\n  {}",
            panics.join("\n  ")
        );
    }
    assert_eq!(
        d3d9::com::live_objects(),
        0,
        "seed {seed:#x}: objects left alive"
    );
    assert_eq!(
        world.foreign.refs.load(Ordering::SeqCst),
        0,
        "seed {seed:#x}: private data kept a foreign object"
    );
}

/// Panics inside the library (caught at its C boundary and answered as
/// `D3DERR_INVALIDCALL`), by place: counted and listed, not shown one by one.
static LIBRARY_PANICS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

fn count_library_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let place = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        if place.contains("tests/random_calls") || place.is_empty() {
            default(info);
        } else {
            let message = info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let first = message
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim()
                .to_string();
            LIBRARY_PANICS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(format!("{place}: {first}"));
        }
    }));
}

/// GPU test: random calls with a fixed seed, then `D3D9_RANDOM_SEED` if set.
#[test]
fn gpu_random_calls_keep_counts_and_free_everything() {
    if !support::gpu_available() {
        return;
    }
    count_library_panics();
    let calls = std::env::var("D3D9_RANDOM_CALLS")
        .map_or(20_000, |v| v.parse().expect("D3D9_RANDOM_CALLS: a number"));
    run(0x00d3_d9ca_11ed, calls);
    if let Ok(seed) = std::env::var("D3D9_RANDOM_SEED") {
        run(seed.parse().expect("D3D9_RANDOM_SEED: a number"), calls);
    }
}
