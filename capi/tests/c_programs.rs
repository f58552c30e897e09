//! C (and one C++) programs written against `<d3d9.h>`, compiled with the project's compile
//! line and run against libd3d9: each prints what it checked and exits non-zero naming the
//! first check that failed (`tests/c/d3d9_check.h`). GPU tests: without an adapter they
//! fail, or skip with `D3D9_ALLOW_NO_GPU=1`.
#![cfg(unix)]

mod support;
#[path = "../../backend/tests/x11_window/mod.rs"]
mod x11_window;

use support::{build_and_run, c_source, compile_with, gpu_available, run_with_env, Lang};

/// Compiles and runs `tests/c/<file>`, which must end with its "all N checks passed" line.
fn check_program(lang: Lang, file: &str) {
    if !gpu_available() {
        return;
    }
    let out = build_and_run(lang, file);
    assert!(
        out.contains("checks passed"),
        "{file} did not report its checks:\n{out}"
    );
}

/// `tests/c/draw.c`: an FVF (XYZRHW | DIFFUSE) triangle drawn with DrawPrimitiveUP, and a
/// vs_2_0/ps_2_0 triangle from a locked vertex buffer and a vertex declaration drawn with
/// DrawPrimitive, each read back through a SYSTEMMEM surface: exact colours inside, the
/// clear colour outside; CheckDeviceFormat(D3DRTYPE_SURFACE, 'ATOC') D3D_OK, 'A2M1' not, and
/// the alpha-to-coverage hacks' render states kept.
#[test]
fn gpu_c_draws_fvf_and_shader_triangles() {
    check_program(Lang::C, "draw.c");
}

/// `tests/c/declarations.c`: declaration and shader paired at draw time; SetFVF's converted
/// declaration and GetFVF; GetFVF 0 after an application's declaration (D3DFVF_XYZ /
/// D3DFVF_XYZRHW for a lone POSITION / POSITIONT, as Windows); unread elements ignored;
/// pre-transformed vertices skipping the vertex shader; SetVertexDeclaration(NULL).
#[test]
fn gpu_c_declaration_and_fvf_rules() {
    check_program(Lang::C, "declarations.c");
}

/// `tests/c/mixed_processing.c`: on a D3DCREATE_MIXED_VERTEXPROCESSING device
/// SetSoftwareVertexProcessing switches modes keeping streams, declaration and shaders;
/// a shader input missing from the declaration is D3DERR_INVALIDCALL under software
/// processing and reads zeros under hardware processing. Hardware and software devices
/// report their one mode.
#[test]
fn gpu_c_mixed_vertex_processing() {
    check_program(Lang::C, "mixed_processing.c");
}

/// `tests/c/stateblocks.c`: CreateStateBlock(D3DSBT_ALL / PIXELSTATE / VERTEXSTATE)
/// captures and Apply restores exactly the states of its kind (render, texture-stage and
/// sampler states, shaders and their constants; textures and streams in ALL only); Capture
/// refreshes them; BeginStateBlock/EndStateBlock record exactly what was set without
/// changing the device; a block keeps a released texture alive and Apply brings it back.
#[test]
fn gpu_c_state_blocks() {
    check_program(Lang::C, "stateblocks.c");
}

/// `tests/c/refcounts.c`: the reference counts Windows shows: Create* adds a device
/// reference; Set* keeps an object alive without changing its public count (SetTexture then
/// Release gives 0, GetTexture returns it with 1); every Get* adds one; a texture's levels
/// count on the texture; the implicit swap chain and surfaces start at 0; QueryInterface
/// answers IUnknown, the IID and its bases, E_NOINTERFACE otherwise; everything is freed
/// with its last reference (D3D9NativeLiveObjects back to 0, final Releases return 0).
#[test]
fn gpu_c_reference_counts() {
    check_program(Lang::C, "refcounts.c");
}

/// `tests/c/queries.c`: CreateQuery(type, NULL) answers as CreateQuery(type, &query) does
/// (Wine's test_query_support): EVENT and OCCLUSION are S_OK, the three timestamp types
/// all S_OK or all D3DERR_NOTAVAILABLE with the adapter's timestamps, every other type
/// D3DERR_NOTAVAILABLE making nothing; an event query's Issue(D3DISSUE_END) then
/// GetData(D3DGETDATA_FLUSH) is S_OK with TRUE; timestamps as Wine's test_timestamp_query
/// (0xdd before any Issue, the low DWORD of a UINT64, increasing values, never disjoint).
#[test]
fn gpu_c_queries() {
    check_program(Lang::C, "queries.c");
}

/// `tests/c/occlusion.c`: occlusion queries as Wine's test_occlusion_query shows Windows:
/// 0xdd before any Issue, any BEGIN/END order D3D_OK, S_FALSE while open, then the samples
/// that passed the depth test (4096 for a 64 x 64 quad on Vulkan, 1 per visible draw where
/// wgpu's queries are boolean), 0 behind the depth buffer, sums over draws and overlapping
/// queries, nothing for a Clear; at most the size given written; GetData(NULL, 4) and
/// unknown flags D3DERR_INVALIDCALL; the query holds a device reference.
#[test]
fn gpu_c_occlusion_queries() {
    check_program(Lang::C, "occlusion.c");
}

/// `tests/c/device_vtable.c`: all 119 slots of IDirect3DDevice9's vtable reached through
/// the header's IDirect3DDevice9_* macros, each answering exactly as D3D9 answers (S_OK,
/// D3DERR_INVALIDCALL, D3DERR_NOTFOUND, D3DERR_NOTAVAILABLE, E_NOINTERFACE, returned
/// values) for valid and refused arguments.
#[test]
fn gpu_c_device_vtable_slots_answer() {
    check_program(Lang::C, "device_vtable.c");
}

/// `tests/c/reset.c`: Reset as Windows does it (Wine's test_reset, test_backbuffer_resize,
/// test_managed_reset): the same implicit swap chain with new back buffers of the new size,
/// count and format, a new automatic depth-stencil surface, every state and binding back to
/// its default, MANAGED contents kept, the parameters written back; refused while a
/// D3DPOOL_DEFAULT resource or additional swap chain is alive or a back buffer is held,
/// leaving the device lost (TestCooperativeLevel D3DERR_DEVICENOTRESET, Present
/// D3DERR_DEVICELOST, silent draws) until a Reset succeeds. Additional swap chains (own back
/// buffers, Present to their own front buffer, not counted by GetSwapChain), palettes kept
/// per number, ShowCursor's previous visibility.
#[test]
fn gpu_c_reset_swap_chains_palettes_cursor() {
    check_program(Lang::C, "reset.c");
}

/// `tests/c/device_contexts.c`: GetDC/ReleaseDC as Windows answers (Wine's test_getdc):
/// a handle for the formats Windows gives contexts for, D3DERR_INVALIDCALL with the handle
/// untouched for others; while a context is out, GetDC, LockRect and UnlockRect refused;
/// ReleaseDC takes back only the handle given; the surface keeps its bytes.
#[test]
fn gpu_c_device_contexts() {
    check_program(Lang::C, "device_contexts.c");
}

/// `tests/c/triangle.cpp` (g++): the FVF triangle through the header's C++ interfaces
/// (`d3d->CreateDevice(...)`, `device->DrawPrimitiveUP(...)`), read back: exact colours
/// inside, the clear colour outside, every object released.
#[test]
fn gpu_cpp_draws_fvf_triangle() {
    check_program(Lang::Cpp, "triangle.cpp");
}

/// The C code of `README.md` between `<!-- c-tour: begin ... -->` and `<!-- c-tour: end -->`
/// (inside its ```` ```c ```` fence).
fn readme_c_tour() -> String {
    let readme = std::fs::read_to_string(support::manifest_dir().join("../README.md"))
        .expect("README.md beside capi/");
    let begin = readme
        .find("<!-- c-tour: begin")
        .expect("README.md: no `<!-- c-tour: begin` marker");
    let end = readme[begin..]
        .find("<!-- c-tour: end -->")
        .map(|e| begin + e)
        .expect("README.md: no `<!-- c-tour: end -->` after the begin marker");
    let block = &readme[begin..end];
    let code = block
        .split_once("```c\n")
        .expect("a ```c fence after the begin marker")
        .1;
    let code = code
        .rsplit_once("```")
        .expect("the fence closed before the end marker")
        .0;
    code.to_string()
}

/// The README's C tour, compiled with the compile line it shows and run: it draws its
/// triangle (exit status 0, the pixels it prints) and leaves no object alive
/// (`tests/c/live_at_exit.c` checks after `main` returns).
#[test]
fn gpu_readme_c_tour_runs() {
    if !gpu_available() {
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_programs");
    std::fs::create_dir_all(&dir).expect("output folder");
    let source = dir.join("readme_tour.c");
    std::fs::write(&source, readme_c_tour()).expect("write readme_tour.c");
    let exe = support::compile(
        Lang::C,
        &[source, support::c_source("live_at_exit.c")],
        "readme_tour",
    );
    let out = support::run(&exe);
    assert!(
        out.contains("inside ff0000, outside 0000ff"),
        "the README's tour printed:\n{out}"
    );
    assert!(out.contains("live objects at exit: 0"), "{out}");
}

/// `tests/c/native_window.c`: a real window through `d3d9_native.h` (an Xlib window on an
/// Xvfb server this test starts): Present shows the front buffer in the window pixel for
/// pixel, a back-buffer size of 0 is the window's, a resize told with
/// D3D9NativeWindowResized loses the device until a Reset (refused while a DEFAULT texture
/// lives), PresentationInterval TWO is refused. Fails without Xvfb unless
/// `D3D9_ALLOW_NO_WINDOW=1`.
#[test]
fn gpu_c_presents_into_a_native_window() {
    check_window_program("native_window.c", &["-lX11"], &[]);
}

/// `tests/c/sdl_window.c`: an SDL2 window handed to libd3d9 as a port using SDL would
/// (SDL_GetWindowWMInfo's X11 handles in a D3D9_NATIVE_WINDOW), on an Xvfb server this test
/// starts: Present shows the frame in it pixel for pixel, an SDL resize loses the device
/// until Reset. Needs SDL2's development files (`sdl2-config`; CI installs libsdl2-dev):
/// fails without them, or without Xvfb, unless `D3D9_ALLOW_NO_WINDOW=1`.
#[test]
fn gpu_c_presents_into_an_sdl_window() {
    let flags = match std::process::Command::new("sdl2-config")
        .args(["--cflags", "--libs"])
        .output()
    {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).into_owned(),
        _ if std::env::var("D3D9_ALLOW_NO_WINDOW").is_ok_and(|v| v == "1") => {
            eprintln!("skipping: no sdl2-config (D3D9_ALLOW_NO_WINDOW=1)");
            return;
        }
        other => panic!("sdl2-config (SDL2's development files) is needed: {other:?}"),
    };
    let mut libs: Vec<&str> = flags.split_whitespace().collect();
    libs.push("-lX11");
    check_window_program("sdl_window.c", &libs, &[("SDL_VIDEODRIVER", "x11")]);
}

/// Compiles `tests/c/<file>` with `libs` and runs it on an Xvfb server of its own (and
/// `env`): it must print that its checks passed. Nothing without an adapter or Xvfb where
/// the environment allows that.
fn check_window_program(file: &str, libs: &[&str], env: &[(&str, &str)]) {
    if !gpu_available() {
        return;
    }
    let Some(server) = x11_window::XServer::start() else {
        return;
    };
    let name = file.replace('.', "_");
    let exe = compile_with(Lang::C, &[c_source(file)], &name, libs);
    let mut env = env.to_vec();
    env.push(("DISPLAY", server.display.as_str()));
    let out = run_with_env(&exe, &env);
    assert!(out.contains("checks passed"), "{out}");
}

/// `tests/c/native_swap_chains.c`: two registered windows on an Xvfb server this test
/// starts. Present with source and destination rectangles (device and swap chain; clipped
/// to the surfaces; the rest of the window kept); GetRasterStatus runs through its lines
/// and vertical blanks (device and swap chain, D3DCAPS_READ_SCANLINE); an additional swap
/// chain presents into the second window (R5G6B5 with two back buffers, A2R10G10B10 with
/// three), one on the first window's is D3DERR_NOTAVAILABLE; two back buffers on the
/// device's window after a Reset. Fails without Xvfb unless `D3D9_ALLOW_NO_WINDOW=1`.
#[test]
fn gpu_c_swap_chains_in_native_windows() {
    check_window_program("native_swap_chains.c", &["-lX11"], &[]);
}
