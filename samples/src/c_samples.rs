//! The C samples (`samples/c/`): the same programs as the Rust scenes `vertices`, `lights`
//! and `textures`, written in C against the C ABI (libd3d9.so and the D3D9 headers), built
//! with the C ABI's compile line and run as their own process; each writes its back buffer
//! as a PPM file.
//!
//! libd3d9.so is not built by this crate (a cdylib of another package cannot be a
//! dependency's output); [`find_libd3d9`] looks for the one cargo built:
//! `cargo build --release -p d3d9-capi` puts it in `target/release/`, beside the
//! `d3d9-samples` binary of `cargo run --release`; a test run finds the one `cargo test`
//! built into its own profile's folder. `D3D9_LIB_DIR` names another folder.

use std::path::{Path, PathBuf};
use std::process::Command;

use d3d9_backend::device::{Format, SurfaceData};

/// One C sample: `samples/c/<name>.c`, the twin of the Rust scene `<name>`.
pub struct CSample {
    pub name: &'static str,
}

/// Every C sample.
pub static C_SAMPLES: &[CSample] = &[
    CSample { name: "vertices" },
    CSample { name: "lights" },
    CSample { name: "textures" },
];

/// The D3D9 API headers C programs compile against (Debian's mingw-w64-common).
pub const MINGW_INCLUDE: &str = "/usr/share/mingw-w64/include";

/// Why a C sample could not be built or run.
#[derive(Debug, thiserror::Error)]
pub enum CError {
    #[error(
        "no libd3d9.so found (looked in {0}); build it with `cargo build --release -p d3d9-capi`"
    )]
    NoLibrary(String),
    #[error("running {command}: {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("{command} failed:\n{output}")]
    Failed { command: String, output: String },
    #[error("{path}: {reason}")]
    Ppm { path: PathBuf, reason: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// `samples/c`.
pub fn source_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("c")
}

/// The folder holding libd3d9.so: `D3D9_LIB_DIR`, else the running executable's folder
/// and the one above it (`target/<profile>/` and `target/<profile>/deps/`), else the
/// workspace's `target/release/`.
pub fn find_libd3d9() -> Result<PathBuf, CError> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("D3D9_LIB_DIR") {
        candidates.push(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_owned))
    {
        candidates.extend(dir.parent().map(Path::to_owned));
        candidates.push(dir);
    }
    candidates.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release"));
    candidates
        .iter()
        .find(|dir| dir.join("libd3d9.so").is_file())
        .cloned()
        .ok_or_else(|| {
            let looked: Vec<String> = candidates.iter().map(|d| d.display().to_string()).collect();
            CError::NoLibrary(looked.join(", "))
        })
}

fn run(command: &mut Command) -> Result<String, CError> {
    let shown = format!("{command:?}");
    let output = command.output().map_err(|source| CError::Spawn {
        command: shown.clone(),
        source,
    })?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if output.status.success() {
        Ok(text)
    } else {
        Err(CError::Failed {
            command: shown,
            output: text,
        })
    }
}

/// Compiles `samples/c/*.c` into `build_dir/d3d9-c-samples` with the C ABI's compile line
/// (`CC`, default `cc`; warnings are errors), linked against libd3d9.so in `lib_dir`.
pub fn build(lib_dir: &Path, build_dir: &Path) -> Result<PathBuf, CError> {
    std::fs::create_dir_all(build_dir).map_err(|source| CError::Io {
        path: build_dir.to_owned(),
        source,
    })?;
    let exe = build_dir.join("d3d9-c-samples");
    let sources = ["main.c", "common.c", "vertices.c", "lights.c", "textures.c"];
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let capi_include = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../capi/include");
    run(Command::new(compiler)
        .arg("-std=gnu11")
        .arg("-I")
        .arg(capi_include)
        .args(["-idirafter", MINGW_INCLUDE])
        .args(["-Wall", "-Wextra", "-Werror", "-O1"])
        .args(sources.iter().map(|s| source_dir().join(s)))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(lib_dir)
        .args(["-ld3d9", "-lm"])
        .arg(format!("-Wl,-rpath,{}", lib_dir.display())))?;
    Ok(exe)
}

/// Runs the built program for one sample, writing `ppm`.
pub fn run_sample(exe: &Path, lib_dir: &Path, name: &str, ppm: &Path) -> Result<(), CError> {
    run(Command::new(exe)
        .env("LD_LIBRARY_PATH", lib_dir)
        .arg(name)
        .arg(ppm))
    .map(|_| ())
}

/// Reads a binary PPM (P6, 8 bits) as an A8R8G8B8 surface (alpha 255).
pub fn read_ppm(path: &Path) -> Result<SurfaceData, CError> {
    let bytes = std::fs::read(path).map_err(|source| CError::Io {
        path: path.to_owned(),
        source,
    })?;
    let bad = |reason: &str| CError::Ppm {
        path: path.to_owned(),
        reason: reason.to_string(),
    };
    // "P6\n<w> <h>\n255\n" then the pixels.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let start = at;
        while bytes.get(at).is_some_and(|b| !b.is_ascii_whitespace()) {
            at += 1;
        }
        if start == at {
            return Err(bad("short header"));
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    let number = |s: &str| s.parse::<u32>().map_err(|_| bad("bad header number"));
    if fields[0] != "P6" || number(&fields[3])? != 255 {
        return Err(bad("not an 8-bit P6 file"));
    }
    let (width, height) = (number(&fields[1])?, number(&fields[2])?);
    let pixels = bytes.get(at + 1..).ok_or_else(|| bad("no pixels"))?;
    if pixels.len() != (width * height * 3) as usize {
        return Err(bad("wrong pixel count"));
    }
    let data = pixels
        .chunks_exact(3)
        .flat_map(|rgb| [rgb[2], rgb[1], rgb[0], 255])
        .collect();
    Ok(SurfaceData {
        format: Format::A8R8G8B8,
        width,
        height,
        data,
    })
}

/// Builds the C samples and runs each, returning its picture by name.
pub fn render_all(build_dir: &Path) -> Result<Vec<(&'static str, SurfaceData)>, CError> {
    let lib_dir = find_libd3d9()?;
    let exe = build(&lib_dir, build_dir)?;
    C_SAMPLES
        .iter()
        .map(|sample| {
            let ppm = build_dir.join(format!("{}.ppm", sample.name));
            run_sample(&exe, &lib_dir, sample.name, &ppm)?;
            Ok((sample.name, read_ppm(&ppm)?))
        })
        .collect()
}
