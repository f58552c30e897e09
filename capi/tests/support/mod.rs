//! Building C and C++ programs against libd3d9 with the project's compile line and running
//! them, for the tests of the C ABI:
//!
//! ```sh
//! cc -std=gnu11 -I capi/include -idirafter /usr/share/mingw-w64/include prog.c \
//!    -L <libdir> -ld3d9 -lm -Wl,-rpath,<libdir>
//! ```
//!
//! `<libdir>` is the folder cargo built libd3d9.so into beside the test executable; the
//! program also runs with `LD_LIBRARY_PATH` set to it. Warnings are errors.
#![allow(dead_code)] // each test target uses its part

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The D3D9 API headers (Debian's mingw-w64-common), after libc's own headers.
pub const MINGW_INCLUDE: &str = "/usr/share/mingw-w64/include";

/// The `d3d9-capi` package folder.
pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `capi/tests/c/<name>`.
pub fn c_source(name: &str) -> PathBuf {
    manifest_dir().join("tests/c").join(name)
}

/// A folder holding this run's libd3d9.so: cargo builds the cdylib beside this test
/// executable (`target/<profile>/deps/`, or uplifted one folder up); it is copied once into
/// a folder of this process, so that another build replacing it meanwhile (a concurrent
/// `cargo` run) cannot change or remove the library the tests load.
pub fn libd3d9_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("current_exe");
        let deps = exe.parent().expect("test executable folder").to_path_buf();
        let candidates = [deps.clone(), deps.parent().unwrap_or(&deps).to_path_buf()];
        let built = candidates
            .iter()
            .map(|dir| dir.join("libd3d9.so"))
            .find(|lib| lib.is_file())
            .unwrap_or_else(|| panic!("libd3d9.so not found in {}", deps.display()));
        let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        remove_copies_of_ended_processes(&tmp);
        let dir = tmp.join(format!("libd3d9-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("library folder");
        std::fs::copy(&built, dir.join("libd3d9.so"))
            .unwrap_or_else(|e| panic!("{}: {e}", built.display()));
        dir
    })
    .clone()
}

/// Removes the `libd3d9-<pid>` folders of test processes that have ended (each copy is
/// 175 MB in a debug build; without this they pile up by the hundred). Linux only: it asks
/// `/proc` whether a process lives.
fn remove_copies_of_ended_processes(tmp: &std::path::Path) {
    if !cfg!(target_os = "linux") {
        return;
    }
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix("libd3d9-"))
            .and_then(|p| p.parse::<u32>().ok());
        if let Some(pid) = pid {
            if pid != std::process::id() && !PathBuf::from(format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// The language a program is written in: its compiler (environment variable, default) and
/// the flags the compile line gives it.
#[derive(Clone, Copy, Debug)]
pub enum Lang {
    C,
    Cpp,
}

impl Lang {
    fn compiler(self) -> String {
        let (var, default) = match self {
            Lang::C => ("CC", "cc"),
            Lang::Cpp => ("CXX", "g++"),
        };
        std::env::var(var).unwrap_or_else(|_| default.to_string())
    }

    /// C: the compile line's `-std=gnu11`; C++: the compiler's default standard.
    fn std_flags(self) -> &'static [&'static str] {
        match self {
            Lang::C => &["-std=gnu11"],
            Lang::Cpp => &[],
        }
    }
}

/// Compiles `sources` into `<CARGO_TARGET_TMPDIR>/c_programs/<name>` with the compile line
/// (warnings as errors, `capi/tests/c/` on the include path), linked with libd3d9.
pub fn compile(lang: Lang, sources: &[PathBuf], name: &str) -> PathBuf {
    compile_with(lang, sources, name, &[])
}

/// [`compile`] with `libs` after libd3d9 on the link line (`-lX11` for a window).
pub fn compile_with(lang: Lang, sources: &[PathBuf], name: &str, libs: &[&str]) -> PathBuf {
    let lib = libd3d9_dir();
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_programs");
    std::fs::create_dir_all(&out_dir).expect("output folder");
    let exe = out_dir.join(name);
    let mut cmd = Command::new(lang.compiler());
    cmd.args(lang.std_flags())
        .arg("-I")
        .arg(manifest_dir().join("include"))
        .args(["-idirafter", MINGW_INCLUDE])
        .arg("-I")
        .arg(manifest_dir().join("tests/c"))
        .args(["-Wall", "-Wextra", "-Werror", "-g"])
        .args(sources)
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&lib)
        .args(["-ld3d9", "-lm"])
        .args(libs)
        .arg(format!("-Wl,-rpath,{}", lib.display()));
    let built = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        built.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    exe
}

/// Runs `exe` with `LD_LIBRARY_PATH` at libd3d9's folder; asserts it exits with 0 and shows
/// its output either way. Returns its stdout.
pub fn run(exe: &Path) -> String {
    run_with_env(exe, &[])
}

/// [`run`] with `env` set (`DISPLAY` for a window).
pub fn run_with_env(exe: &Path, env: &[(&str, &str)]) -> String {
    let ran = Command::new(exe)
        .env("LD_LIBRARY_PATH", libd3d9_dir())
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", exe.display()));
    let stdout = String::from_utf8_lossy(&ran.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert!(
        ran.status.success(),
        "{} ended with {}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        exe.display(),
        ran.status,
    );
    println!("{stdout}");
    stdout
}

/// Compiles `capi/tests/c/<file>` and runs it (see [`compile`] and [`run`]).
pub fn build_and_run(lang: Lang, file: &str) -> String {
    let name = file.replace('.', "_");
    let exe = compile(lang, &[c_source(file)], &name);
    run(&exe)
}

/// Whether GPU tests run here: an adapter (printed once), or none with
/// `D3D9_ALLOW_NO_GPU=1` (the test skips). Without an adapter otherwise the test fails.
pub fn gpu_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        d3d9_backend::Gpu::for_tests()
            .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
            .is_some()
    })
}
