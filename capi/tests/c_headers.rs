//! The C ABI's headers as C and C++ programs see them: `capi/include/` plus Debian's
//! mingw-w64 D3D9 headers, with the project's compile line.
//!
//! Rules: `tests/c/compile_only.c` (COBJMACROS) and `tests/c/compile_only.cpp` (the C++
//! interfaces) build warning-free against libd3d9 and run to a clean exit; `tests/c/layout.c`
//! prints exactly `tests/c/layout.expected`, the struct layout the Rust mirrors follow.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The D3D9 API headers (Debian's mingw-w64-common), after libc's own headers.
const MINGW_INCLUDE: &str = "/usr/share/mingw-w64/include";

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folder holding libd3d9.so: beside this test executable (`target/<profile>/deps/`),
/// or one folder up.
fn libd3d9_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("test executable folder").to_path_buf();
    let up = deps.parent().unwrap_or(&deps).to_path_buf();
    [deps.clone(), up]
        .into_iter()
        .find(|dir| dir.join("libd3d9.so").is_file())
        .unwrap_or_else(|| panic!("libd3d9.so not found in {}", deps.display()))
}

/// Builds `source` (under `tests/c/`) with `compiler` (env var, default) and the compile line,
/// warnings as errors, linked with libd3d9; runs it and returns its stdout.
fn build_and_run(compiler: (&str, &str), extra: &[&str], source: &str) -> String {
    let compiler = std::env::var(compiler.0).unwrap_or_else(|_| compiler.1.to_string());
    let manifest = manifest_dir();
    let lib = libd3d9_dir();
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_headers");
    std::fs::create_dir_all(&out_dir).expect("output folder");
    let exe = out_dir.join(source.replace('.', "_"));
    let mut cmd = Command::new(&compiler);
    cmd.args(extra)
        .arg("-I")
        .arg(manifest.join("include"))
        .args(["-idirafter", MINGW_INCLUDE, "-Wall", "-Wextra", "-Werror"])
        .arg(manifest.join("tests/c").join(source))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&lib)
        .args(["-ld3d9", "-lm"])
        .arg(format!("-Wl,-rpath,{}", lib.display()));
    let built = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        built.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let ran = Command::new(&exe).output().expect("run the program");
    assert!(
        ran.status.success(),
        "{} ended with {}:\n{}",
        exe.display(),
        ran.status,
        String::from_utf8_lossy(&ran.stderr)
    );
    String::from_utf8_lossy(&ran.stdout).into_owned()
}

#[test]
fn c_and_cpp_programs_build_and_run() {
    build_and_run(("CC", "cc"), &["-std=gnu11"], "compile_only.c");
    build_and_run(("CXX", "g++"), &[], "compile_only.cpp");
}

#[test]
fn layout_probe_matches_expected() {
    let printed = build_and_run(("CC", "cc"), &["-std=gnu11"], "layout.c");
    let expected = std::fs::read_to_string(manifest_dir().join("tests/c/layout.expected"))
        .expect("tests/c/layout.expected");
    let differ: Vec<String> = printed
        .lines()
        .zip(expected.lines())
        .filter(|(p, e)| p != e)
        .map(|(p, e)| format!("printed `{p}`, expected `{e}`"))
        .collect();
    assert!(
        differ.is_empty() && printed.lines().count() == expected.lines().count(),
        "layout.c and layout.expected differ ({} vs {} lines):\n{}",
        printed.lines().count(),
        expected.lines().count(),
        differ.join("\n")
    );
}
