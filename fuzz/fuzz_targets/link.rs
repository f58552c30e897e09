//! Fuzz linking: the input is a flags byte, a split point and two shaders' bytes (a vertex
//! and a pixel shader). Where both decode, check and translate alone, `link` gives a map or
//! refuses with `TooManyVaryings`; with its maps both stages translate (or are typed
//! `Unsupported`) and, when both do, agree location by location (`check_stage_agreement`).
#![no_main]

use d3d9_translator::bytecode::{decode_bytes, Stage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::link::check_stage_agreement;
use d3d9_translator::lift::{
    link, translate_pixel_shader, translate_vertex_shader, LinkError, LinkOptions,
    PixelShaderOptions, VertexShaderOptions,
};
use libfuzzer_sys::fuzz_target;

fn checked(bytes: &[u8], stage: Stage) -> Option<CheckedProgram> {
    let program = decode_bytes(bytes).ok()?;
    check(&program, stage, &DeviceCaps::default()).ok()
}

fuzz_target!(|data: &[u8]| {
    let [flags, a, b, rest @ ..] = data else { return };
    let split = usize::from(u16::from_le_bytes([*a, *b])).min(rest.len()) & !3;
    let (vs_bytes, ps_bytes) = rest.split_at(split);
    let (Some(vs), Some(ps)) = (checked(vs_bytes, Stage::Vertex), checked(ps_bytes, Stage::Pixel))
    else {
        return;
    };
    let (Ok(vs_alone), Ok(ps_alone)) = (
        translate_vertex_shader(&vs, &VertexShaderOptions::default()),
        translate_pixel_shader(&ps, &PixelShaderOptions::default()),
    ) else {
        return;
    };
    let options = LinkOptions {
        flat_shading: flags & 1 != 0,
        point_list: flags & 2 != 0,
        vertex_fog: flags & 4 != 0,
    };
    let l = match link(&vs_alone.interface, &ps_alone.interface, &options) {
        Ok(l) => l,
        Err(LinkError::TooManyVaryings { .. }) => return,
        Err(e) => panic!("link refused interfaces: {e}"),
    };
    let vs_options = VertexShaderOptions {
        output_locations: Some(l.vertex.clone()),
        ..Default::default()
    };
    let ps_options = PixelShaderOptions {
        input_locations: Some(l.pixel.clone()),
        ..Default::default()
    };
    let vs_linked = translate_vertex_shader(&vs, &vs_options);
    let ps_linked = translate_pixel_shader(&ps, &ps_options);
    match (vs_linked, ps_linked) {
        (Ok(v), Ok(p)) => {
            if let Err(e) = check_stage_agreement(&v.module, &p.module) {
                panic!("linked stages disagree: {e}");
            }
        }
        (v, p) => {
            for e in [v.err(), p.err()].into_iter().flatten() {
                assert!(e.is_unsupported(), "linked translation refused: {e}");
            }
        }
    }
});
