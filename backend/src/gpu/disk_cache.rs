//! A cache on disk: byte values under byte keys, one file per entry, in one folder per scope
//! (adapter, driver, this crate's version and the file format: [`DiskCache::for_adapter`]).
//!
//! The rules, which every use of the cache relies on:
//! - **Never trusted.** An entry is used only when its file is whole: magic and format
//!   version, the key stored in it equal to the key asked for (so two keys whose file names
//!   collide are misses, not each other's values), the lengths adding up to the file's size,
//!   and a CRC-32 over everything before it. Anything else is a miss; the file is deleted and
//!   the next [`DiskCache::put`] of the key writes it anew.
//! - **Never a failure.** A cache that cannot be read or written is a cache that misses: the
//!   process's first error is logged (`log::warn!`), later ones at debug level, and nothing is
//!   returned to the caller. A draw never fails because of the cache.
//! - **Two processes at once.** A value is written to a temporary file of its own in the
//!   same folder (process id, a counter and the thread in its name) and renamed over the
//!   entry, so a reader sees the old file or the new one, whole, and two writers of one key
//!   leave one complete file (the last rename). A reader that finds a bad file deletes it; at
//!   worst that deletes a good file renamed in between, which is one more miss.
//! - **Bounded.** When a `put` takes the folder over its limit (256 MiB unless set), the
//!   least recently used entries (oldest modification time; a hit refreshes it, at most once
//!   a minute) are deleted until the folder is under 90 % of it, and temporary files over a
//!   minute old (a writer that crashed) go with them. The folder's size is counted once and
//!   then kept up to date by this process's own writes, so other processes' writes are seen
//!   at the next sweep.
//! - **Old scopes go.** The first `put` of a scope's cache also deletes the sibling scope
//!   folders whose newest file is over 30 days old (another driver or version of this crate),
//!   and nothing else in the root.
//!
//! Where the root folder is: [`DiskCacheSetting`] (the platform's cache folder, or
//! `D3D9_CACHE_DIR`, or off).

use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// Environment variable read by [`DiskCacheSetting::Default`]: the root folder of the cache,
/// or `off` for no cache.
pub const CACHE_DIR_ENV: &str = "D3D9_CACHE_DIR";

/// The folder under the platform's cache folder (`dirs::cache_dir()`: `~/.cache` on Linux,
/// `%LOCALAPPDATA%` on Windows, `~/Library/Caches` on macOS).
pub const CACHE_DIR_NAME: &str = "d3d9-wgpu";

/// The size limit of one scope's folder unless set: 256 MiB.
pub const DEFAULT_LIMIT: u64 = 256 << 20;

/// The entry file format; part of the scope too, so a new format starts a new folder.
const FORMAT: u32 = 1;
const MAGIC: [u8; 4] = *b"D9DC";
/// Magic, format, key length.
const HEAD: usize = 4 + 4 + 4;
/// Value length before the value, CRC-32 after it.
const VALUE_LEN: usize = 8;
const CRC: usize = 4;
/// Temporary files start with this (entries are 32 hex digits).
const TEMP_PREFIX: &str = ".tmp-";
/// A temporary file this old was left by a writer that died.
const STALE_TEMP: Duration = Duration::from_secs(60);
/// A hit refreshes an entry's modification time only when it is older than this.
const REFRESH: Duration = Duration::from_secs(60);
/// Another scope's folder untouched this long (a driver or a version no longer in use) is
/// deleted.
const OLD_SCOPE: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// Where a device keeps its cache on disk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DiskCacheSetting {
    /// `D3D9_CACHE_DIR` when set (a folder, or `off`), else `d3d9-wgpu` in the platform's
    /// cache folder; no cache where the platform has none.
    #[default]
    Default,
    /// No cache on disk.
    Off,
    /// This folder as the root.
    Folder(PathBuf),
}

impl DiskCacheSetting {
    /// The root folder this setting names, `None` for no cache.
    pub fn root(&self) -> Option<PathBuf> {
        match self {
            DiskCacheSetting::Off => None,
            DiskCacheSetting::Folder(path) => Some(path.clone()),
            DiskCacheSetting::Default => match std::env::var_os(CACHE_DIR_ENV) {
                Some(v) if v == "off" => None,
                Some(v) if !v.is_empty() => Some(PathBuf::from(v)),
                _ => dirs::cache_dir().map(|d| d.join(CACHE_DIR_NAME)),
            },
        }
    }
}

/// One folder of cache entries. See the module documentation for its rules.
#[derive(Debug)]
pub struct DiskCache {
    folder: PathBuf,
    limit: u64,
    /// The folder's size as this process knows it (`None` until first counted).
    size: Mutex<Option<u64>>,
}

/// Names temporary files uniquely within the process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);
/// Whether this process logged a cache error as a warning yet (once per process, however many
/// devices it makes).
static WARNED: AtomicBool = AtomicBool::new(false);

impl DiskCache {
    /// A cache in `folder` (made on the first `put`), limited to [`DEFAULT_LIMIT`].
    pub fn new(folder: impl Into<PathBuf>) -> DiskCache {
        DiskCache {
            folder: folder.into(),
            limit: DEFAULT_LIMIT,
            size: Mutex::new(None),
        }
    }

    /// The cache of one adapter under `root`: the sub-folder named by the adapter's backend
    /// and a hash of its [`wgpu::AdapterInfo`] (name, vendor and device ids, device type,
    /// driver and driver version, backend), this crate's version and the file format, so
    /// that a new driver, a new version or another GPU never reads another's entries.
    pub fn for_adapter(root: &Path, info: &wgpu::AdapterInfo) -> DiskCache {
        DiskCache::new(root.join(scope_name(info)))
    }

    /// The same cache with a size limit of `bytes` (swept to 90 % of it when exceeded).
    pub fn with_limit(mut self, bytes: u64) -> DiskCache {
        self.limit = bytes;
        self
    }

    /// The folder the entries are in.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The file an entry of `key` is kept in: 32 hex digits of a 128-bit hash of the key.
    pub fn entry_path(&self, key: &[u8]) -> PathBuf {
        self.folder.join(format!("{:032x}", fnv1a_128(key)))
    }

    /// The value stored under `key`, when its file is whole (see the module documentation);
    /// a bad file is deleted.
    pub fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        let path = self.entry_path(key);
        let (bytes, modified) = match read_file(&path, self.limit) {
            Ok(Some(read)) => read,
            // Larger than the whole cache may be: not an entry `put` wrote.
            Ok(None) => {
                let _ = fs::remove_file(&path);
                return None;
            }
            Err(e) if e.kind() == ErrorKind::NotFound => return None,
            Err(e) => {
                report("reading", &path, &e);
                return None;
            }
        };
        match decode(&bytes, key) {
            Ok(value) => {
                let stale = modified
                    .and_then(|m| m.elapsed().ok())
                    .is_none_or(|age| age > REFRESH);
                if stale {
                    touch(&path);
                }
                Some(value.to_vec())
            }
            Err(why) => {
                log::debug!("disk cache: {} is {why}; deleted", path.display());
                let _ = fs::remove_file(&path);
                None
            }
        }
    }

    /// Stores `value` under `key`, replacing what was there, then sweeps the folder when it
    /// is over its limit. A value whose file would exceed half the limit is not stored.
    /// Errors are logged, never returned.
    pub fn put(&self, key: &[u8], value: &[u8]) {
        let bytes = encode(key, value);
        let len = bytes.len() as u64;
        if len > self.limit / 2 {
            log::debug!(
                "disk cache: an entry of {len} bytes exceeds half the limit ({} bytes); not stored",
                self.limit
            );
            return;
        }
        let path = self.entry_path(key);
        if let Err(e) = self.write(&path, &bytes) {
            report("writing", &path, &e);
            return;
        }
        let mut size = self.size.lock().unwrap_or_else(|p| p.into_inner());
        // Counted the first time; a replaced entry is counted twice until the next sweep.
        let known = match *size {
            Some(known) => known + len,
            None => {
                self.sweep_old_scopes();
                self.sweep(u64::MAX)
            }
        };
        *size = Some(if known > self.limit {
            self.sweep(self.limit * 9 / 10)
        } else {
            known
        });
    }

    /// Writes `bytes` to a temporary file of this process and thread and renames it to `path`.
    fn write(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        fs::create_dir_all(&self.folder)?;
        let thread = format!("{:?}", std::thread::current().id());
        let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
        let temp = self.folder.join(format!(
            "{TEMP_PREFIX}{}-{}-{thread}",
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let written = fs::File::create_new(&temp)
            .and_then(|mut file| file.write_all(bytes))
            .and_then(|()| fs::rename(&temp, path));
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written
    }

    /// Deletes temporary files over a minute old, then the oldest entries until the folder
    /// holds at most `target` bytes; returns what it then holds.
    fn sweep(&self, target: u64) -> u64 {
        let Ok(listing) = fs::read_dir(&self.folder) else {
            return 0;
        };
        let now = SystemTime::now();
        let mut entries = Vec::new();
        for item in listing.flatten() {
            let name = item.file_name();
            let name = name.to_string_lossy();
            let Ok(meta) = item.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let modified = meta.modified().unwrap_or(now);
            if name.starts_with(TEMP_PREFIX) {
                let age = now.duration_since(modified).unwrap_or_default();
                if age > STALE_TEMP {
                    let _ = fs::remove_file(item.path());
                }
            } else if is_entry_name(&name) {
                entries.push((modified, meta.len(), item.path()));
            }
        }
        let mut total: u64 = entries.iter().map(|e| e.1).sum();
        if total > target {
            entries.sort_by_key(|e| e.0);
            for (_, len, path) in entries {
                if total <= target {
                    break;
                }
                if fs::remove_file(&path).is_ok() {
                    total -= len;
                }
            }
        }
        total
    }
}

impl DiskCache {
    /// Deletes the sibling scope folders (named as [`DiskCache::for_adapter`] names them)
    /// whose newest file is over 30 days old: caches of a driver, an adapter or a version of
    /// this crate no longer in use. Only when this cache is itself such a folder, so a cache
    /// made on any other folder never touches its neighbours.
    fn sweep_old_scopes(&self) {
        let (Some(root), Some(name)) = (self.folder.parent(), self.folder.file_name()) else {
            return;
        };
        if !is_scope_name(&name.to_string_lossy()) {
            return;
        }
        let Ok(listing) = fs::read_dir(root) else {
            return;
        };
        let now = SystemTime::now();
        for item in listing.flatten() {
            let path = item.path();
            let sibling = item.file_name();
            if path == self.folder
                || !is_scope_name(&sibling.to_string_lossy())
                || !item.file_type().is_ok_and(|t| t.is_dir())
            {
                continue;
            }
            let newest = newest_modification(&path);
            if newest.is_some_and(|t| now.duration_since(t).unwrap_or_default() > OLD_SCOPE) {
                log::debug!("disk cache: deleting the unused {}", path.display());
                let _ = fs::remove_dir_all(&path);
            }
        }
    }
}

/// The latest modification time of a folder and the files in it (`None` if unreadable).
fn newest_modification(folder: &Path) -> Option<SystemTime> {
    let mut newest = fs::metadata(folder).ok()?.modified().ok()?;
    for item in fs::read_dir(folder).ok()?.flatten() {
        let modified = item.metadata().ok()?.modified().ok()?;
        newest = newest.max(modified);
    }
    Some(newest)
}

/// Whether `name` is a scope folder's name: a backend's name, `-`, 32 lowercase hex digits.
fn is_scope_name(name: &str) -> bool {
    let backends = [
        wgpu::Backend::Noop,
        wgpu::Backend::Vulkan,
        wgpu::Backend::Metal,
        wgpu::Backend::Dx12,
        wgpu::Backend::Gl,
        wgpu::Backend::BrowserWebGpu,
    ];
    name.split_once('-').is_some_and(|(backend, hash)| {
        backends.iter().any(|b| b.to_str() == backend) && is_entry_name(hash)
    })
}

/// Logs a cache error: the process's first as a warning, later ones at debug level.
fn report(doing: &str, path: &Path, error: &std::io::Error) {
    if WARNED.swap(true, Ordering::Relaxed) {
        log::debug!("disk cache: {doing} {}: {error}", path.display());
    } else {
        log::warn!(
            "disk cache: {doing} {}: {error} (the cache misses; later errors at debug level)",
            path.display()
        );
    }
}

/// Whether the file at `path` is a whole entry (magic, format, lengths and checksum), whatever
/// its key: what [`DiskCache::get`] checks before it compares the key. A diagnostic for tools
/// and tests.
pub fn is_whole_entry(path: &Path) -> bool {
    fs::read(path).is_ok_and(|bytes| matches!(decode(&bytes, &[]), Ok(_) | Err(Bad::Key)))
}

/// The sub-folder of one adapter's cache (see [`DiskCache::for_adapter`]).
fn scope_name(info: &wgpu::AdapterInfo) -> String {
    let text = format!(
        "{}\0{}\0{}\0{:?}\0{}\0{}\0{:?}\0{}\0{FORMAT}",
        info.name,
        info.vendor,
        info.device,
        info.device_type,
        info.driver,
        info.driver_info,
        info.backend,
        env!("CARGO_PKG_VERSION"),
    );
    format!(
        "{}-{:032x}",
        info.backend.to_str(),
        fnv1a_128(text.as_bytes())
    )
}

/// Whether `name` is an entry's file name (32 lowercase hex digits).
fn is_entry_name(name: &str) -> bool {
    name.len() == 32 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// FNV-1a, 128 bits: stable across Rust versions and platforms (file names must be), and
/// needing no crate. Not collision-resistant against an adversary, which nothing here needs:
/// the key stored in the file decides.
fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    bytes.iter().fold(OFFSET, |hash, &b| {
        (hash ^ u128::from(b)).wrapping_mul(PRIME)
    })
}

/// An entry's file: magic, format, key length (u32), key, value length (u64), value, CRC-32
/// of all that; integers little-endian.
fn encode(key: &[u8], value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEAD + key.len() + VALUE_LEN + value.len() + CRC);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    // Keys are this crate's own (short); a key over 4 GiB cannot be made.
    out.extend_from_slice(&u32::try_from(key.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(key);
    out.extend_from_slice(&(value.len() as u64).to_le_bytes());
    out.extend_from_slice(value);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Why a file is not a usable entry.
#[derive(Debug, PartialEq, Eq)]
enum Bad {
    Short,
    Magic,
    Format,
    Key,
    Length,
    Checksum,
}

impl std::fmt::Display for Bad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Bad::Short => "shorter than its header",
            Bad::Magic => "not a cache entry (magic)",
            Bad::Format => "of another format version",
            Bad::Key => "another key's entry",
            Bad::Length => "not as long as its lengths say",
            Bad::Checksum => "corrupt (checksum)",
        })
    }
}

/// The value of `bytes` when they are a whole entry of `key`.
fn decode<'a>(bytes: &'a [u8], key: &[u8]) -> Result<&'a [u8], Bad> {
    let (head, rest) = bytes.split_at_checked(HEAD).ok_or(Bad::Short)?;
    let word = |at: usize| -> [u8; 4] {
        let mut w = [0; 4];
        w.copy_from_slice(&head[at..at + 4]);
        w
    };
    if word(0) != MAGIC {
        return Err(Bad::Magic);
    }
    if u32::from_le_bytes(word(4)) != FORMAT {
        return Err(Bad::Format);
    }
    let key_len = u32::from_le_bytes(word(8)) as usize;
    let (stored_key, rest) = rest.split_at_checked(key_len).ok_or(Bad::Length)?;
    let (value_len, rest) = rest.split_at_checked(VALUE_LEN).ok_or(Bad::Length)?;
    let mut len = [0; VALUE_LEN];
    len.copy_from_slice(value_len);
    let value_len = usize::try_from(u64::from_le_bytes(len)).map_err(|_| Bad::Length)?;
    if rest.len() != value_len.checked_add(CRC).ok_or(Bad::Length)? {
        return Err(Bad::Length);
    }
    let (value, crc) = rest.split_at(value_len);
    let body = &bytes[..bytes.len() - CRC];
    if crc32fast::hash(body).to_le_bytes() != crc {
        return Err(Bad::Checksum);
    }
    // After the checksum: a corrupt key is corruption, a whole file of another key a collision.
    if stored_key != key {
        return Err(Bad::Key);
    }
    Ok(value)
}

/// A file's bytes and modification time, read through one handle; `None` for a file over
/// `limit` bytes (not read).
fn read_file(path: &Path, limit: u64) -> std::io::Result<Option<(Vec<u8>, Option<SystemTime>)>> {
    let file = fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.len() > limit {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(Some((bytes, meta.modified().ok())))
}

/// Marks an entry as used now (its modification time, which the sweep orders by).
fn touch(path: &Path) {
    let _ = fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|file| file.set_modified(SystemTime::now()));
}

#[cfg(test)]
#[path = "disk_cache_tests.rs"]
pub(crate) mod tests;
