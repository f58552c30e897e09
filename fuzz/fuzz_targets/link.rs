//! Fuzz a draw's pair: the input is a flags byte (flat shading, point list, vertex fog,
//! sprites, and texture wrapping in its high nibble), a split point and two shaders' bytes (a
//! vertex and a pixel shader). Where both decode and check, `translate_pair` links them from
//! their programs and lifts each once with the link's maps: the link gives a map or refuses
//! with `TooManyVaryings`, each stage translates or is typed `Unsupported`, and when both
//! translate they agree location by location (`check_stage_agreement`).
#![no_main]

use d3d9_translator::bytecode::{decode_bytes, Stage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::link::check_stage_agreement;
use d3d9_translator::lift::{
    translate_pair, FogOptions, FogSource, LinkError, PairError, PairOptions, PairPixelStage,
    PairVertexStage, PixelShaderOptions, PointExpansion, TextureWrap, VertexShaderOptions,
};
use libfuzzer_sys::fuzz_target;

fn checked(bytes: &[u8], stage: Stage) -> Option<CheckedProgram> {
    let program = decode_bytes(bytes).ok()?;
    check(&program, stage, &DeviceCaps::default()).ok()
}

fuzz_target!(|data: &[u8]| {
    let [flags, a, b, rest @ ..] = data else {
        return;
    };
    let split = usize::from(u16::from_le_bytes([*a, *b])).min(rest.len()) & !3;
    let (vs_bytes, ps_bytes) = rest.split_at(split);
    let (Some(vs), Some(ps)) = (
        checked(vs_bytes, Stage::Vertex),
        checked(ps_bytes, Stage::Pixel),
    ) else {
        return;
    };
    // Vertex fog after the pixel shader makes the fog factor travel.
    let fog = (flags & 4 != 0).then_some(FogOptions {
        source: FogSource::Vertex,
        from_w: false,
    });
    let pixel = PairPixelStage::Shader {
        program: &ps,
        options: PixelShaderOptions {
            fog,
            ..PixelShaderOptions::default()
        },
    };
    // Point sprites: the points drawn as quads, every texture coordinate the sprite's.
    let sprite = flags & 8 != 0;
    let options = PairOptions {
        vertex: VertexShaderOptions {
            point_expansion: sprite.then_some(PointExpansion {
                sprite,
                scale: false,
            }),
            ..VertexShaderOptions::default()
        },
        flat_shading: flags & 1 != 0,
        point_list: flags & 2 != 0 || sprite,
        sprite_texture_coordinates: sprite,
        // The high nibble: the D3DWRAPCOORD bits of every texture coordinate set.
        texture_wrap: TextureWrap([flags >> 4; 16]),
    };
    match translate_pair(PairVertexStage::Shader(&vs), pixel, options) {
        Ok(pair) => {
            let Some(p) = pair.pixel else {
                panic!("a pixel shader's pair without its pixel stage");
            };
            if let Err(e) = check_stage_agreement(&pair.vertex.module, &p.module) {
                panic!("linked stages disagree: {e}");
            }
        }
        Err(PairError::Link(LinkError::TooManyVaryings { .. })) => {}
        Err(PairError::Link(e)) => panic!("link refused programs: {e}"),
        Err(PairError::Vertex(e) | PairError::Pixel(e)) => {
            assert!(e.is_unsupported(), "linked translation refused: {e}");
        }
        Err(PairError::FixedFunction(e)) => panic!("no fixed-function stage here: {e}"),
    }
});
