//! The disk cache's rules, each on a folder of its own under the system's temporary folder.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;

/// A fresh, empty folder for one test (removed when dropped); the state cache's tests use
/// it too.
pub(crate) struct Folder(pub(crate) PathBuf);

impl Folder {
    pub(crate) fn new(test: &str) -> Folder {
        static N: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "d3d9-disk-cache-{test}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).unwrap();
        Folder(path)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The files in `folder`, by name.
fn files(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Sets a file's modification time `secs` seconds in the past.
fn age(path: &Path, secs: u64) {
    let file = fs::OpenOptions::new().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(secs))
        .unwrap();
}

#[test]
fn a_value_put_is_got_back() {
    let folder = Folder::new("round-trip");
    let cache = DiskCache::new(&folder.0);
    assert_eq!(cache.get(b"key"), None);
    cache.put(b"key", b"value");
    cache.put(b"empty", b"");
    assert_eq!(cache.get(b"key").as_deref(), Some(&b"value"[..]));
    assert_eq!(cache.get(b"empty").as_deref(), Some(&b""[..]));
    cache.put(b"key", b"another value");
    assert_eq!(cache.get(b"key").as_deref(), Some(&b"another value"[..]));
    assert_eq!(
        files(&folder.0).len(),
        2,
        "one file per entry, no temporary left"
    );
}

/// Damages the entry of `key` with `damage`, then checks it reads as a miss, that the file is
/// gone, and that a new put is read back.
fn damaged_entry_is_a_miss_and_rewritten(test: &str, damage: impl FnOnce(&mut Vec<u8>)) {
    let folder = Folder::new(test);
    let cache = DiskCache::new(&folder.0);
    cache.put(b"key", b"the value stored under key");
    let path = cache.entry_path(b"key");
    let mut bytes = fs::read(&path).unwrap();
    damage(&mut bytes);
    fs::write(&path, &bytes).unwrap();
    assert_eq!(cache.get(b"key"), None, "{test}: a damaged entry is a miss");
    assert!(!path.exists(), "{test}: the damaged file is deleted");
    cache.put(b"key", b"written again");
    assert_eq!(cache.get(b"key").as_deref(), Some(&b"written again"[..]));
    assert_eq!(
        decode(&fs::read(&path).unwrap(), b"key"),
        Ok(&b"written again"[..])
    );
}

#[test]
fn a_corrupt_byte_in_the_value_is_a_miss() {
    damaged_entry_is_a_miss_and_rewritten("corrupt-value", |b| {
        let at = HEAD + 3 + VALUE_LEN + 4;
        b[at] ^= 0x20;
    });
}

#[test]
fn a_corrupt_checksum_is_a_miss() {
    damaged_entry_is_a_miss_and_rewritten("corrupt-crc", |b| {
        let last = b.len() - 1;
        b[last] ^= 1;
    });
}

#[test]
fn a_truncated_file_is_a_miss() {
    for keep in [0, 3, HEAD, HEAD + 3, HEAD + 3 + VALUE_LEN + 5] {
        damaged_entry_is_a_miss_and_rewritten("truncated", |b| b.truncate(keep));
    }
    damaged_entry_is_a_miss_and_rewritten("truncated-crc", |b| {
        b.pop();
    });
}

#[test]
fn a_file_longer_than_its_lengths_is_a_miss() {
    damaged_entry_is_a_miss_and_rewritten("extended", |b| b.push(0));
}

#[test]
fn a_wrong_magic_or_format_is_a_miss() {
    damaged_entry_is_a_miss_and_rewritten("magic", |b| b[0] = b'X');
    damaged_entry_is_a_miss_and_rewritten("format", |b| b[4] = b[4].wrapping_add(1));
}

#[test]
fn another_keys_whole_file_under_the_name_is_a_miss() {
    let folder = Folder::new("collision");
    let cache = DiskCache::new(&folder.0);
    // A whole, checksummed entry of another key, as a hash collision would leave it.
    let path = cache.entry_path(b"key");
    fs::write(&path, encode(b"other key", b"other value")).unwrap();
    assert_eq!(decode(&fs::read(&path).unwrap(), b"key"), Err(Bad::Key));
    assert_eq!(cache.get(b"key"), None);
    assert!(!path.exists());
    cache.put(b"key", b"value");
    assert_eq!(cache.get(b"key").as_deref(), Some(&b"value"[..]));
}

#[test]
fn stray_temporary_files_are_ignored_and_old_ones_swept() {
    let folder = Folder::new("temp");
    let cache = DiskCache::new(&folder.0);
    // A crashed writer's file, half written, and one being written now.
    let old = folder.0.join(format!("{TEMP_PREFIX}99999-0-1"));
    let fresh = folder.0.join(format!("{TEMP_PREFIX}99999-1-1"));
    fs::write(&old, &encode(b"key", b"half")[..10]).unwrap();
    fs::write(&fresh, b"partial").unwrap();
    age(&old, 120);
    assert_eq!(cache.get(b"key"), None);
    // The first put counts the folder, and sweeps the old temporary file.
    cache.put(b"key", b"value");
    assert_eq!(cache.get(b"key").as_deref(), Some(&b"value"[..]));
    assert!(
        !old.exists(),
        "a temporary file over a minute old is deleted"
    );
    assert!(
        fresh.exists(),
        "a recent temporary file may be another writer's"
    );
}

#[test]
fn the_size_limit_evicts_the_least_recently_used() {
    let folder = Folder::new("limit");
    let value = vec![7u8; 1000];
    let entry = encode(b"key0", &value).len() as u64;
    // Room for four entries: the fifth sweeps to 90 % of four (three).
    let cache = DiskCache::new(&folder.0).with_limit(entry * 4);
    for (i, secs) in [(0, 500), (1, 400), (2, 300), (3, 200)] {
        let key = format!("key{i}");
        cache.put(key.as_bytes(), &value);
        age(&cache.entry_path(key.as_bytes()), secs);
    }
    // A hit makes key0 the most recently used.
    assert!(cache.get(b"key0").is_some());
    cache.put(b"key4", &value);
    let present: Vec<bool> = (0..5)
        .map(|i| cache.entry_path(format!("key{i}").as_bytes()).exists())
        .collect();
    assert_eq!(present, [true, false, false, true, true]);
    assert!(cache.get(b"key4").is_some());
}

#[test]
fn a_value_over_half_the_limit_is_not_stored() {
    let folder = Folder::new("too-big");
    let cache = DiskCache::new(&folder.0).with_limit(1000);
    cache.put(b"big", &[1; 600]);
    assert_eq!(cache.get(b"big"), None);
    cache.put(b"small", &[1; 100]);
    assert!(cache.get(b"small").is_some());
}

#[test]
fn a_file_over_the_limit_is_a_miss_and_not_read() {
    let folder = Folder::new("over-limit");
    let cache = DiskCache::new(&folder.0).with_limit(1000);
    let path = cache.entry_path(b"key");
    fs::write(&path, vec![0u8; 2000]).unwrap();
    assert_eq!(cache.get(b"key"), None);
    assert!(!path.exists());
}

#[test]
fn an_unwritable_folder_misses_without_failing() {
    let folder = Folder::new("unwritable");
    // A file where the folder should be: every write fails, every read misses.
    let blocked = folder.0.join("file");
    fs::write(&blocked, b"not a folder").unwrap();
    let cache = DiskCache::new(blocked.join("cache"));
    cache.put(b"key", b"value");
    cache.put(b"key", b"value");
    assert_eq!(cache.get(b"key"), None);
}

/// A value that names its key and its writer and can be told whole: `key|writer|` and the
/// key repeated to a length that depends on the writer.
fn value_of(key: &str, writer: usize) -> Vec<u8> {
    let mut v = format!("{key}|{writer}|").into_bytes();
    for _ in 0..(50 + writer * 37) {
        v.extend_from_slice(key.as_bytes());
    }
    v
}

/// Whether `value` is one `value_of(key, _)` wrote.
fn is_value_of(key: &str, value: &[u8]) -> bool {
    let text = String::from_utf8_lossy(value);
    let mut parts = text.splitn(3, '|');
    let (Some(k), Some(w), Some(_)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    k == key && w.parse().is_ok_and(|w: usize| value_of(key, w) == value)
}

/// Puts and gets the same few keys `rounds` times as `writer`; panics on a value that is not
/// one written for the key asked. Returns the hits.
fn hammer(folder: &Path, writer: usize, rounds: usize) -> usize {
    let cache = DiskCache::new(folder);
    let mut hits = 0;
    for round in 0..rounds {
        let key = format!("key{}", (round + writer) % 4);
        if let Some(value) = cache.get(key.as_bytes()) {
            assert!(is_value_of(&key, &value), "a torn or wrong value for {key}");
            hits += 1;
        }
        cache.put(key.as_bytes(), &value_of(&key, writer));
    }
    hits
}

#[test]
fn threads_writing_the_same_keys_never_read_a_torn_value() {
    let folder = Folder::new("threads");
    let hits: usize = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|w| {
                let folder = &folder.0;
                s.spawn(move || hammer(folder, w, 200))
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    assert!(hits > 0);
    let temps = files(&folder.0)
        .into_iter()
        .filter(|n| n.starts_with(TEMP_PREFIX))
        .count();
    assert_eq!(temps, 0, "no temporary file left");
}

/// Set for the child processes of `processes_writing_the_same_keys_never_read_a_torn_value`:
/// the folder they hammer.
const CHILD_ENV: &str = "D3D9_DISK_CACHE_TEST_CHILD";

/// Not a test of its own: the body of each child process (does nothing without `CHILD_ENV`).
#[test]
fn child_process_hammer() {
    if let Some(folder) = std::env::var_os(CHILD_ENV) {
        let writer: usize = std::process::id() as usize % 1000;
        hammer(Path::new(&folder), writer, 300);
    }
}

#[test]
fn processes_writing_the_same_keys_never_read_a_torn_value() {
    let folder = Folder::new("processes");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..3)
        .map(|_| {
            std::process::Command::new(&exe)
                .args([
                    "gpu::disk_cache::tests::child_process_hammer",
                    "--exact",
                    "--test-threads=1",
                ])
                .env(CHILD_ENV, &folder.0)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let here = hammer(&folder.0, 1, 300);
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "a child read a torn value: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("1 passed"),
            "the child ran its one test: {stdout}"
        );
    }
    assert!(here > 0);
}

#[test]
fn the_scope_changes_with_the_driver() {
    let info = wgpu::AdapterInfo {
        name: "llvmpipe".into(),
        vendor: 0x10005,
        driver: "llvmpipe".into(),
        driver_info: "Mesa 23.2.1".into(),
        ..wgpu::AdapterInfo::new(wgpu::DeviceType::Cpu, wgpu::Backend::Vulkan)
    };
    let newer = wgpu::AdapterInfo {
        driver_info: "Mesa 24.0.0".into(),
        ..info.clone()
    };
    let root = Path::new("/cache");
    let a = DiskCache::for_adapter(root, &info);
    assert_eq!(a.folder(), DiskCache::for_adapter(root, &info).folder());
    assert_ne!(a.folder(), DiskCache::for_adapter(root, &newer).folder());
    assert!(a.folder().starts_with(root));
    let name = a
        .folder()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(name.starts_with("vulkan-"), "{name}");
}

#[test]
fn scopes_unused_for_a_month_are_deleted_and_nothing_else() {
    let root = Folder::new("scopes");
    let month = 31 * 24 * 60 * 60;
    let folder = |name: &str, secs: u64| {
        let path = root.0.join(name);
        fs::create_dir_all(&path).unwrap();
        let file = path.join("0123456789abcdef0123456789abcdef");
        fs::write(&file, b"entry").unwrap();
        age(&file, secs);
        fs::File::open(&path)
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_secs(secs))
            .unwrap();
        path
    };
    let old = folder("vulkan-00000000000000000000000000000001", month);
    let recent = folder("gl-00000000000000000000000000000002", 3600);
    let other = folder("photos", month);
    let info = wgpu::AdapterInfo::new(wgpu::DeviceType::Cpu, wgpu::Backend::Vulkan);
    let cache = DiskCache::for_adapter(&root.0, &info);
    cache.put(b"key", b"value");
    assert!(!old.exists(), "a scope unused for a month is deleted");
    assert!(recent.exists(), "a scope used within the month stays");
    assert!(
        other.exists(),
        "a folder that is not a scope is never touched"
    );
    assert!(cache.get(b"key").is_some());
    // A cache on a folder of any other name never sweeps its neighbours.
    let old = folder("vulkan-00000000000000000000000000000003", month);
    DiskCache::new(root.0.join("mine")).put(b"key", b"value");
    assert!(old.exists());
}

#[test]
fn the_settings_name_their_root() {
    assert_eq!(DiskCacheSetting::Off.root(), None);
    let folder = PathBuf::from("/somewhere");
    assert_eq!(
        DiskCacheSetting::Folder(folder.clone()).root(),
        Some(folder)
    );
}

#[test]
fn the_file_name_hash_is_stable() {
    // FNV-1a 128's published test vectors: file names must not change between builds.
    assert_eq!(fnv1a_128(b""), 0x6c62272e07bb014262b821756295c58d);
    assert_eq!(fnv1a_128(b"a"), 0xd228cb696f1a8caf78912b704e4a8964);
}
