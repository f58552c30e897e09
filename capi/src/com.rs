//! COM objects as Windows' D3D9 runtime has them.
//!
//! Every object is a `#[repr(C)]` [`Com<T>`] whose first field points to its interface's
//! static vtable (the header's method order, `vtbl`). It counts two kinds of reference:
//! public ones (`AddRef` / `Release`, what the application sees) and private ones (the device
//! holding an object bound with `Set*`, a state block holding what it recorded), and is
//! freed when both reach zero: binding keeps an object alive without changing its public
//! count, as on Windows. Device children (`device::child::Child`) hold one public reference on their
//! device while the application holds any on them.
//!
//! Every object is registered while it lives, so a pointer an application passes in is
//! checked to be a live object of the expected kind before it is used ([`lookup`]).

use std::any::Any;
use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

use crate::guid::{Guid, IID_IUNKNOWN};
use crate::hresult::{report, CallResult, Refusal, E_NOINTERFACE, E_POINTER, HRESULT, S_OK};

/// Which interface family an object belongs to (for checking pointers passed in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Direct3D,
    Device,
    SwapChain,
    Surface,
    Volume,
    Texture,
    VertexBuffer,
    IndexBuffer,
    VertexDeclaration,
    VertexShader,
    PixelShader,
    StateBlock,
    Query,
}

/// What an object type tells the COM layer.
pub trait Class: Sized + 'static {
    const KIND: Kind;
    /// The interfaces `QueryInterface` answers with this object, most derived first
    /// (`IUnknown` is added).
    fn interfaces(&self) -> &'static [Guid];
    /// The public count went from 0 to 1 (`true`) or from 1 to 0 (`false`).
    fn public_changed(&self, _alive: bool) {}
    /// The last reference of either kind went: release what the object holds.
    fn destroy(&mut self) {}
    /// A private reference was taken (`true`) or given up (`false`). Giving one up may free
    /// this object only where its container owns it (a texture's level, held alive through
    /// its texture): the object is not touched after the call.
    fn private_changed(&self, _taken: bool) {}
}

/// A COM object: the vtable pointer C calls through, the two counts, and the object's data.
#[repr(C)]
pub struct Com<T: Class> {
    vtbl: *const c_void,
    refs: AtomicU32,
    private: AtomicU32,
    pub data: T,
}

/// Hashes an object's address for [`LIVE`], looked up on every call through a vtable: the
/// addresses are the library's own allocations, where SipHash's resistance to chosen keys
/// buys nothing and costs most of a look-up. A multiplicative hash (Fibonacci hashing).
#[derive(Default)]
struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_usize(&mut self, address: usize) {
        self.0 = (address as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        // The high bits mix every bit of the address; hashbrown takes its groups from the top.
        self.0.rotate_left(32)
    }
}

type LiveMap = HashMap<usize, Kind, std::hash::BuildHasherDefault<AddressHasher>>;

/// Live objects by address.
static LIVE: Mutex<Option<LiveMap>> = Mutex::new(None);

fn live<R>(f: impl FnOnce(&mut LiveMap) -> R) -> R {
    let mut guard = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(LiveMap::default))
}

/// How many COM objects of this library are alive (the application's leaks included).
pub fn live_objects() -> usize {
    live(|m| m.len())
}

/// Counts objects freed: bumped once an object has left [`LIVE`], so a look-up a thread
/// remembers ([`SEEN`]) holds while the count is the one it was made at.
static FREED: AtomicU64 = AtomicU64::new(0);

/// Entries of [`SEEN`] (a power of two).
const SEEN_ENTRIES: usize = 4;

thread_local! {
    /// The objects this thread looked up last, by address: (address, kind, [`FREED`] then).
    /// A game calls the same few objects over and over (the device above all): a
    /// remembered one costs no lock and no hash look-up.
    static SEEN: [Cell<(usize, Option<Kind>, u64)>; SEEN_ENTRIES] =
        const { [const { Cell::new((0, None, 0)) }; SEEN_ENTRIES] };
}

/// The kind of the live object at `address` (non-null): remembered, or from [`LIVE`].
fn live_kind(address: usize) -> Option<Kind> {
    let freed = FREED.load(Ordering::Acquire);
    // Objects are boxes of at least 16 bytes: the bits above those pick the entry.
    let slot = (address >> 4) & (SEEN_ENTRIES - 1);
    let seen = SEEN.with(|s| s[slot].get());
    if seen.0 == address && seen.2 == freed && seen.1.is_some() {
        return seen.1;
    }
    let kind = live(|m| m.get(&address).copied())?;
    SEEN.with(|s| s[slot].set((address, Some(kind), freed)));
    Some(kind)
}

/// The live object at `ptr`, if it is one of kind `T::KIND`.
pub fn lookup<'a, T: Class>(ptr: *const c_void) -> Option<&'a Com<T>> {
    if ptr.is_null() {
        return None;
    }
    let kind = live_kind(ptr as usize)?;
    // SAFETY: the address is a live object of this kind, made by `Com::new` as a `Com<T>`.
    (kind == T::KIND).then(|| unsafe { &*(ptr as *const Com<T>) })
}

impl<T: Class> Com<T> {
    /// A new object with one public reference (or none: `public` false, for objects the
    /// device creates for itself, held by a private reference).
    pub fn new(vtbl: *const c_void, data: T, public: bool) -> *mut Com<T> {
        let object = Box::new(Com {
            vtbl,
            refs: AtomicU32::new(u32::from(public)),
            private: AtomicU32::new(u32::from(!public)),
            data,
        });
        let ptr = Box::into_raw(object);
        live(|m| m.insert(ptr as usize, T::KIND));
        if public {
            // SAFETY: just made.
            unsafe { &*ptr }.data.public_changed(true);
        }
        ptr
    }

    /// This object as the interface pointer C holds.
    pub fn as_ptr(&self) -> *mut c_void {
        self as *const Com<T> as *mut c_void
    }

    /// `AddRef`: the new public count.
    pub fn add_ref(&self) -> u32 {
        let before = self.refs.fetch_add(1, Ordering::AcqRel);
        if before == 0 {
            self.data.public_changed(true);
        }
        before + 1
    }

    /// `Release`: the new public count; the object is freed when no reference is left.
    ///
    /// # Safety
    /// `this` is a live object; the caller holds a public reference it gives up.
    pub unsafe fn release(this: *const Com<T>) -> u32 {
        // SAFETY: live, per the caller.
        let object = unsafe { &*this };
        let before = object.refs.load(Ordering::Acquire);
        if before == 0 {
            log::warn!("Release of {:?} {this:p} with no public reference", T::KIND);
            return 0;
        }
        let after = object.refs.fetch_sub(1, Ordering::AcqRel) - 1;
        if after == 0 {
            // `public_changed` may give up the device, whose destruction gives up its
            // private references, this object's among them: hold the object meanwhile.
            object.private.fetch_add(1, Ordering::AcqRel);
            object.data.public_changed(false);
            let private = object.private.fetch_sub(1, Ordering::AcqRel) - 1;
            if private == 0 && object.refs.load(Ordering::Acquire) == 0 {
                // SAFETY: no reference of either kind is left.
                unsafe { Com::free(this) };
            }
        }
        after
    }

    /// Takes a private reference (a binding).
    pub fn add_private(&self) {
        self.private.fetch_add(1, Ordering::AcqRel);
        self.data.private_changed(true);
    }

    /// Gives up a private reference; the object is freed when no reference is left.
    ///
    /// # Safety
    /// `this` is a live object on which the caller holds a private reference.
    pub unsafe fn release_private(this: *const Com<T>) {
        // SAFETY: live, per the caller.
        let object = unsafe { &*this };
        let after = object
            .private
            .fetch_sub(1, Ordering::AcqRel)
            .saturating_sub(1);
        let free = after == 0 && object.refs.load(Ordering::Acquire) == 0;
        // Last use of `object` unless it is freed below (see `Class::private_changed`).
        object.data.private_changed(false);
        if free {
            // SAFETY: no reference of either kind is left.
            unsafe { Com::free(this) };
        }
    }

    /// The public count now.
    pub fn public_refs(&self) -> u32 {
        self.refs.load(Ordering::Acquire)
    }

    unsafe fn free(this: *const Com<T>) {
        live(|m| m.remove(&(this as usize)));
        // After it left the table (a look-up made meanwhile is remembered at the count
        // before) and before its memory goes: no remembered look-up outlives it.
        FREED.fetch_add(1, Ordering::AcqRel);
        // SAFETY: made by `Box::into_raw` in `new`; no reference is left.
        let mut object = unsafe { Box::from_raw(this as *mut Com<T>) };
        object.data.destroy();
    }

    /// Frees an object owned by its container (a texture's surfaces and volumes, whose
    /// counts are the texture's), whatever its counts.
    ///
    /// # Safety
    /// `this` is a live object made with `Com::new` that nothing uses any more.
    pub unsafe fn free_owned(this: *mut Com<T>) {
        // SAFETY: per the caller.
        unsafe { Com::free(this) };
    }

    /// `QueryInterface`: this object, with a public reference, for `IUnknown` and each of
    /// its interfaces; `E_NOINTERFACE` otherwise.
    ///
    /// # Safety
    /// `riid` is null or points to a GUID; `out` is null or writable.
    pub unsafe fn query_interface(&self, riid: *const Guid, out: *mut *mut c_void) -> HRESULT {
        if out.is_null() {
            return E_POINTER;
        }
        // SAFETY: writable, per the caller.
        unsafe { out.write(std::ptr::null_mut()) };
        if riid.is_null() {
            return E_POINTER;
        }
        // SAFETY: a GUID, per the caller (unaligned reads: C may pass any GUID).
        let iid = unsafe { riid.read_unaligned() };
        if iid == IID_IUNKNOWN || self.data.interfaces().contains(&iid) {
            self.add_ref();
            // SAFETY: writable.
            unsafe { out.write(self.as_ptr()) };
            S_OK
        } else {
            E_NOINTERFACE
        }
    }
}

/// The object a contained one counts its references on (COM's controlling unknown): a
/// texture's levels count theirs on the texture, which outlives them.
#[derive(Clone, Copy)]
pub struct Outer(*const dyn Counted);

/// The reference counts of an object of any kind.
trait Counted {
    fn as_ptr(&self) -> *mut c_void;
    fn add_ref(&self) -> u32;
    unsafe fn release(&self) -> u32;
    fn add_private(&self);
    unsafe fn release_private(&self);
}

impl<T: Class> Counted for Com<T> {
    fn as_ptr(&self) -> *mut c_void {
        Com::as_ptr(self)
    }
    fn add_ref(&self) -> u32 {
        Com::add_ref(self)
    }
    unsafe fn release(&self) -> u32 {
        // SAFETY: per `Outer::release`.
        unsafe { Com::release(self) }
    }
    fn add_private(&self) {
        Com::add_private(self)
    }
    unsafe fn release_private(&self) {
        // SAFETY: per `Outer::release_private`.
        unsafe { Com::release_private(self) }
    }
}

impl Outer {
    /// `object` as the outer object of the ones it contains.
    pub fn new<T: Class>(object: &Com<T>) -> Outer {
        Outer(object as &dyn Counted as *const dyn Counted)
    }

    fn get(&self) -> &dyn Counted {
        // SAFETY: the outer object outlives the objects it contains (it frees them).
        unsafe { &*self.0 }
    }

    /// The outer object as the interface pointer C holds.
    pub fn as_ptr(&self) -> *mut c_void {
        self.get().as_ptr()
    }

    /// `AddRef` on the outer object.
    pub fn add_ref(&self) -> u32 {
        self.get().add_ref()
    }

    /// `Release` on the outer object.
    ///
    /// # Safety
    /// The caller gives up a public reference on it.
    pub unsafe fn release(&self) -> u32 {
        // SAFETY: per the caller.
        unsafe { self.get().release() }
    }

    /// Takes a private reference on the outer object.
    pub fn add_private(&self) {
        self.get().add_private()
    }

    /// Gives up a private reference on the outer object (which may free it).
    ///
    /// # Safety
    /// The caller holds a private reference on it.
    pub unsafe fn release_private(&self) {
        // SAFETY: per the caller.
        unsafe { self.get().release_private() }
    }
}

/// A private reference to a live object, released later ([`Deferred`]) because releasing
/// can free an object whose destruction locks the device.
pub struct Private<T: Class>(*mut Com<T>);

impl<T: Class> Private<T> {
    /// Takes a private reference on `object`.
    pub fn new(object: &Com<T>) -> Private<T> {
        object.add_private();
        Private(object as *const Com<T> as *mut Com<T>)
    }

    /// Adopts a reference the object was created with (`Com::new(.., false)`).
    ///
    /// # Safety
    /// `ptr` is a live object created with a private reference that this takes over.
    pub unsafe fn adopt(ptr: *mut Com<T>) -> Private<T> {
        Private(ptr)
    }

    pub fn get(&self) -> &Com<T> {
        // SAFETY: the private reference keeps the object alive.
        unsafe { &*self.0 }
    }

    pub fn ptr(&self) -> *mut Com<T> {
        self.0
    }

    /// Another private reference to the same object.
    pub fn share(&self) -> Private<T> {
        Private::new(self.get())
    }

    /// The release of this reference, to run once no lock is held.
    pub fn into_release(self) -> Release {
        Release {
            object: self.0 as usize,
            run: release_private_at::<T>,
        }
    }
}

/// Gives up a private reference on the object of class `T` at `object`.
///
/// # Safety
/// `object` holds a private reference of this caller's, taken on a live `Com<T>`.
unsafe fn release_private_at<T: Class>(object: usize) {
    // SAFETY: per the caller.
    unsafe { Com::<T>::release_private(object as *const Com<T>) }
}

/// A private reference to give up once no lock is held ([`Private::into_release`]).
#[derive(Clone, Copy)]
pub struct Release {
    object: usize,
    run: unsafe fn(usize),
}

impl Release {
    fn run(self) {
        // SAFETY: made by `into_release` from a private reference not given up otherwise.
        unsafe { (self.run)(self.object) }
    }
}

impl<T: Class> PartialEq for Private<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<T: Class> std::fmt::Debug for Private<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}@{:p}", T::KIND, self.0)
    }
}

/// Releases gathered while the device is locked, run after it is unlocked, in the order
/// they were gathered. The first few are kept inline: a call replaces one or two bound
/// objects at most, and a list on the heap cost an allocation per call that did.
#[derive(Default)]
pub struct Deferred {
    inline: [Option<Release>; INLINE_RELEASES],
    /// Those after the inline ones.
    more: Vec<Release>,
}

/// Releases [`Deferred`] keeps inline.
const INLINE_RELEASES: usize = 4;

impl Deferred {
    pub fn push<T: Class>(&mut self, reference: Private<T>) {
        self.push_release(reference.into_release());
    }

    pub fn push_opt<T: Class>(&mut self, reference: Option<Private<T>>) {
        if let Some(r) = reference {
            self.push(r);
        }
    }

    pub fn push_release(&mut self, release: Release) {
        match self.inline.iter_mut().find(|r| r.is_none()) {
            Some(slot) => *slot = Some(release),
            None => self.more.push(release),
        }
    }

    /// Whether there is nothing to release (most calls).
    pub fn is_empty(&self) -> bool {
        self.inline[0].is_none()
    }

    /// Runs the releases (most calls have none: that case is inlined into every entry).
    #[inline]
    pub fn run(self) {
        if !self.is_empty() {
            self.run_all();
        }
    }

    fn run_all(self) {
        for release in self.inline.into_iter().flatten().chain(self.more) {
            release.run();
        }
    }

    pub fn take(&mut self) -> Deferred {
        std::mem::take(self)
    }
}

/// Runs an entry point's body: a panic inside becomes `D3DERR_INVALIDCALL` (logged), never
/// an unwind into C; a refusal is logged and becomes its HRESULT.
pub fn entry(call: &str, body: impl FnOnce() -> CallResult) -> HRESULT {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => S_OK,
        Ok(Err(refusal)) => report(call, &refusal),
        Err(panic) => report(call, &panic_refusal(panic)),
    }
}

/// Runs an entry point that returns a value rather than an HRESULT (`AddRef`, `GetType`,
/// `GetLevelCount`, ...): a panic or refusal gives `fallback`.
pub fn entry_value<V>(call: &str, fallback: V, body: impl FnOnce() -> CallResult<V>) -> V {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(v)) => v,
        Ok(Err(refusal)) => {
            report(call, &refusal);
            fallback
        }
        Err(panic) => {
            report(call, &panic_refusal(panic));
            fallback
        }
    }
}

fn panic_refusal(panic: Box<dyn Any + Send>) -> Refusal {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    crate::hresult::invalid_call(format!("internal error caught at the C boundary: {what}"))
}

/// The object `this` points to, or a refusal for a null or dead `this`.
///
/// # Safety
/// `this` is null or was handed out by this library (C calls through its vtable).
pub unsafe fn this<'a, T: Class>(this: *const Com<T>) -> CallResult<&'a Com<T>> {
    lookup::<T>(this as *const c_void)
        .ok_or_else(|| crate::hresult::invalid_call("called on a released or foreign object"))
}

/// Writes `value` through an out pointer; `D3DERR_INVALIDCALL` when it is null.
///
/// # Safety
/// `out` is null or writable for a `V` (alignment not assumed).
pub unsafe fn write_out<V>(out: *mut V, value: V) -> CallResult {
    if out.is_null() {
        return Err(crate::hresult::invalid_call("a NULL out pointer"));
    }
    // SAFETY: non-null and writable, per the caller.
    unsafe { out.write_unaligned(value) };
    Ok(())
}

/// Reads an in pointer; `D3DERR_INVALIDCALL` when it is null.
///
/// # Safety
/// `ptr` is null or readable for a `V` (alignment not assumed).
pub unsafe fn read_in<V>(ptr: *const V) -> CallResult<V> {
    if ptr.is_null() {
        return Err(crate::hresult::invalid_call("a NULL pointer"));
    }
    // SAFETY: non-null and readable, per the caller.
    Ok(unsafe { ptr.read_unaligned() })
}
